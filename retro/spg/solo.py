"""Solo feasibility: can one side alone play its remaining moves, its own units in the way?

The bounds of :mod:`retro.spg.bounds` price each unit's route on an empty board: they
never see that a unit of the same side stands in the way (a rook that must pass b1
while the knight is still there, a bishop behind its own pawn, castling with a piece
between king and rook) nor the order such obstructions impose. The solo game sees them.

**The solo game** of a colour C at a node. Let F be the frozen squares
(:mod:`retro.spg.frozen`) and P the squares of the enemy's pawns settled for good
(:meth:`MoveBounds.settled_pawns`). The board holds C's units as they stand and, as
mere obstacles that attack nothing and cannot be taken, the enemy's units on F and P
(the *fixed* enemy units), nothing else; C moves every turn; a move is a pseudo-legal
move of python-chess on that board of a unit of C not on F (castling included: king
and rook on their squares with the right, the squares between them empty; no square
is attacked, as no enemy unit attacks), and its destination is a route square of the
moved (or promoted) type (:mod:`retro.spg.routes`). The solo game of ``m`` moves *succeeds* if some
sequence of exactly ``m`` such moves ends with C's units exactly as in the goal (and C's
castling rights as in the goal when the problem counts rights), every intermediate
state having C's bound (:meth:`MoveBounds.side_needs` with the node's enemy units and
pawns) within the moves left.

**Rule.** Suppose that from the node on, C captures nothing and loses nothing (C has as
many units as in the goal, and so has the enemy). If the solo game of C with C's
remaining moves ``m`` does not succeed, no game through the node reaches the goal.

**Proof.** Take a game through the node and C's ``m`` moves in it, in order. No unit of
either side is captured from the node on (each side already has its goal count, and
units are never created), so the enemy's units are the only difference between the real
board and the solo board before each of C's moves, and the fixed enemy units stand on
their squares in the real board too (frozen units never move and stay; a settled pawn
never moves again and is never captured). So each real move of C is a move of the solo
game: it is not a capture (nothing is captured), so it lands on a square empty in the
real board, hence empty of C's units and of the fixed enemy units; a sliding move's
path and castling's squares are empty in the real board, hence in the solo board (the
solo game drops the rule about attacked squares, which only removes real moves); a
unit on F never moves; each move goes to a route square of its type (route squares are squares no
piece of the type stands on in any game, so a real move never goes elsewhere); C's
castling rights evolve as in the real game (lost by moving the king or the rook; the
enemy captures no rook). After the last move C's units are C's goal units, and its
rights the goal's when they count. At every state C's units and rights are those of the
real game at that moment, whose remaining C moves are at least C's bound: the bound
depends on C's units and rights, the enemy's unit count (constant: nothing is captured)
and the enemy's pawns, which enter it only through the enemy pawns settled for good
(no capture region: C loses no unit), and the enemy pawns settled at the node stay
settled to the end, so the bound with the node's enemy pawns blocks only squares that
are blocked at that later moment too. So the real sequence is a succeeding solo game;
contraposition gives the rule.

The solo game is searched depth-first with a table of the states already decided
(``(C's units, rights, fixed enemy squares, moves left)`` -> success), shared by the
whole search: the same state of one side recurs under many states of the other.
"""

from __future__ import annotations

from collections.abc import Callable

import chess

from retro.spg.bounds import MoveBounds, SideMasks, side_masks

__all__ = ["SoloGame"]

_MEMO_LIMIT = 2_000_000  # decided states; cleared beyond it (memo lost, never soundness)
_KINDS = (chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN, chess.KING)


class SoloGame:
    """The solo game of each colour (module docstring), decided with a shared table."""

    def __init__(
        self,
        bounds: MoveBounds,
        goal: chess.Board,
        routes: dict[chess.Color, dict[chess.PieceType, chess.Bitboard]] | None,
        count: Callable[[], None],
    ) -> None:
        self.bounds = bounds
        self.goal = goal
        self.routes = routes
        self.count = count  # called once per solo move examined (the search's node budget)
        self.goal_masks = {color: side_masks(goal, color) for color in chess.COLORS}
        self.goal_rights = {
            color: goal.clean_castling_rights() & (chess.BB_RANK_1 if color else chess.BB_RANK_8)
            for color in chess.COLORS
        }
        self.table: dict[tuple, bool] = {}
        self._fixed: dict[tuple[chess.Color, chess.Bitboard], chess.Bitboard] = {}

    def applies(self, color: chess.Color, own_units: int, enemy_units: int) -> bool:
        """Whether the rule's condition holds: both sides already have their goal counts."""
        goal_count = self.bounds.goal_count
        return own_units == goal_count[color] and enemy_units == goal_count[not color]

    def fixed(self, color: chess.Color, enemy_pawns: chess.Bitboard) -> chess.Bitboard:
        """The squares of the enemy's fixed units (frozen, or pawns settled for good)."""
        key = (color, enemy_pawns)
        cached = self._fixed.get(key)
        if cached is None:
            enemy = not color
            cached = (self.bounds.frozen & self.goal.occupied_co[enemy]) | self.bounds.settled_pawns(
                enemy, enemy_pawns, 0
            )
            self._fixed[key] = cached
        return cached

    def succeeds(
        self,
        color: chess.Color,
        masks: SideMasks,
        rights: chess.Bitboard,
        enemy_units: int,
        enemy_pawns: chess.Bitboard,
        moves: int,
    ) -> bool:
        """Whether C's solo game of ``moves`` moves succeeds from ``masks`` and ``rights``
        (call only when :meth:`applies`)."""
        fixed = self.fixed(color, enemy_pawns)
        return self._succeeds(color, masks, rights, fixed, enemy_units, enemy_pawns, moves)

    def _succeeds(
        self,
        color: chess.Color,
        masks: SideMasks,
        rights: chess.Bitboard,
        fixed: chess.Bitboard,
        enemy_units: int,
        enemy_pawns: chess.Bitboard,
        moves: int,
    ) -> bool:
        if moves == 0:
            return masks == self.goal_masks[color] and (
                not self.bounds.rights_count or rights == self.goal_rights[color]
            )
        key = (color, masks, rights, fixed, moves)
        known = self.table.get(key)
        if known is not None:
            return known
        board = self._board(color, masks, rights, fixed)
        children = []
        for move in self._moves(board, color, fixed):
            self.count()
            board.push(move)
            after = _without(side_masks(board, color), fixed)
            after_rights = board.clean_castling_rights() & (chess.BB_RANK_1 if color else chess.BB_RANK_8)
            board.pop()
            need = self.bounds.side_needs(color, after, after_rights, enemy_units, enemy_pawns)
            if need <= moves - 1:
                children.append((need, after, after_rights))
        children.sort(key=lambda child: child[0])  # the likeliest way to the goal first
        result = any(
            self._succeeds(color, after, after_rights, fixed, enemy_units, enemy_pawns, moves - 1)
            for _, after, after_rights in children
        )
        if len(self.table) >= _MEMO_LIMIT:
            self.table.clear()
        self.table[key] = result
        return result

    def _board(
        self, color: chess.Color, masks: SideMasks, rights: chess.Bitboard, fixed: chess.Bitboard
    ) -> chess.Board:
        """The solo board: C's units, the fixed enemy units (from the goal) as obstacles, C to move."""
        board = chess.Board.empty()
        goal = self.goal
        for kind, mask in zip(_KINDS, masks, strict=True):
            for square in chess.scan_forward(mask):
                board.set_piece_at(square, chess.Piece(kind, color))
        for square in chess.scan_forward(fixed):  # obstacles: C's colour, never moved, attack no C unit
            piece = goal.piece_at(square)
            assert piece is not None
            board.set_piece_at(square, chess.Piece(piece.piece_type, color))
        board.turn = color
        board.castling_rights = rights
        return board

    def _moves(self, board: chess.Board, color: chess.Color, fixed: chess.Bitboard) -> list[chess.Move]:
        """The solo moves (module docstring) of the board."""
        movable = board.occupied_co[color] & ~self.bounds.frozen & ~fixed
        routes = None if self.routes is None else self.routes[color]
        moves = []
        for move in board.generate_pseudo_legal_moves(movable, ~fixed & chess.BB_ALL):
            if routes is not None:
                kind = move.promotion or board.piece_type_at(move.from_square)
                assert kind is not None
                if not board.is_castling(move) and not routes[kind] & chess.BB_SQUARES[move.to_square]:
                    continue
            moves.append(move)
        return moves


def _without(masks: SideMasks, squares: chess.Bitboard) -> SideMasks:
    keep = ~squares
    return (masks[0] & keep, masks[1] & keep, masks[2] & keep, masks[3] & keep, masks[4] & keep, masks[5] & keep)

"""Solo feasibility: can one side alone play its remaining moves, its own units in the way?

The bounds of :mod:`retro.spg.bounds` price each unit's route on a board without the
side's moving units: they never see that a unit of the same side stands in the way (a
rook that must pass b1 while the knight is still there, a bishop behind its own pawn,
castling with a piece between king and rook) nor the order such obstructions impose.
The solo game sees them.

**The solo game** of a colour C at a node, where C has ``k`` captures left (the enemy's
units now minus in the goal). Let F be the frozen squares (:mod:`retro.spg.frozen`) and
P the squares of the enemy's pawns settled for good (:meth:`MoveBounds.settled_pawns`).
The board holds C's units as they stand and, as obstacles that cannot be taken, the
enemy's units on F and P (the *fixed* enemy units), nothing else;
C moves every turn. A *quiet move* is a pseudo-legal move of python-chess on that board
of a unit of C not on F (castling included: king and rook on their squares with the
right, the squares between them empty; no square is attacked, as no enemy unit
attacks). A *capture move* uses one of the captures left: a quiet move that is not
castling and not a pawn's, or a pawn's diagonal step forward to a square empty of C's
and fixed units (a promotion on the last rank). Every move goes to a route square of
the moved (or promoted) type (:mod:`retro.spg.routes`). *Checks*: a king move (castling:
the king's start, passed and landing squares) may not go to a square a fixed enemy
unit attacks by contact (:mod:`retro.spg.contact`); and when the enemy's king is fixed,
a move other than C's last after which a unit of C attacks that king by contact is not
allowed. The solo game of ``m`` moves
*succeeds* if some sequence of exactly ``m`` such moves uses all ``k`` captures and ends
with C's units exactly as in the goal (and C's castling rights as in the goal when the
problem counts rights), every state on the way having C's bound
(:meth:`MoveBounds.side_needs` with the enemy's goal count plus the captures left as the
enemy's units, and the node's enemy pawns) within the moves left; when the search uses
the pieces staying for good, the bound with C's staying pieces blocked
(:meth:`MoveBounds.staying` and :mod:`retro.spg.staying`, C's moves left as the allowance)
within the moves left as well (*Pieces staying for good*).

**Rule.** Suppose C has as many units as in the goal (C loses no unit from the node on).
If the solo game of C with C's remaining moves ``m`` does not succeed, no game through
the node reaches the goal.

**Proof.** Take a game through the node and C's ``m`` moves in it, in order. C loses no
unit (units are never created), so the enemy captures nothing from the node on, and the
fixed enemy units stand on their squares in the real board until the end (frozen units
never move and stay; a settled pawn never moves again and is never captured). The solo
board before each of C's moves is the real one without the enemy's other units. So
each real move of C is a move of the solo game: a non-capture lands on a square empty in
the real board, hence empty of C's units and of the fixed units; a capture lands on a
non-fixed enemy unit, so on a square empty in the solo board (a pawn's capture is a
diagonal step forward, en passant too); a sliding move's path and castling's squares
are empty in the real board, hence in the solo board (the solo game drops the rule about
attacked squares, which only removes real moves); a unit on F never moves; each move
goes to a route square of its type (no piece of the type stands elsewhere in any game).
*Checks*: a fixed enemy unit stands on its square whenever C moves, and a contact attack
cannot be blocked, so the squares it attacks by contact are attacked then; a real king
move does not land on an attacked square (nor castles from, through or onto one). If
the enemy's king is fixed and a move of C that is not C's last leaves a unit of C
attacking it by contact, the enemy moves next, in check: the king cannot move (fixed),
the checker cannot be captured (C loses no unit) and a contact attack cannot be blocked,
so the enemy has no legal move and the game cannot go on to C's next move; so no real
move of C is such a move.
Only C captures, each capture removes one enemy unit, and the enemy ends with its goal
count, so C makes exactly ``k`` captures, and the enemy's units at any moment number its
goal count plus C's captures left. C's castling rights evolve as in the real game (lost
by moving the king or the rook; the enemy takes no rook). After the last move C's units
are C's goal units, and its rights the goal's when they count. At every state C's units,
rights and captures left are those of the real game at that moment, whose remaining C
moves are at least C's bound: the bound depends on C's units and rights, the enemy's
unit count and the enemy's pawns, which enter it only through the enemy pawns settled
for good (no capture region: C loses no unit); a pawn settled at the node stays on its
square to the end, so the bound with the node's enemy pawns blocks only squares that
are blocked at that later moment too. *Pieces staying for good*: both staying rules are
proved for any position of a game, with the side's moves left as the allowance, from
the same inputs; a piece staying for good there holds its square to the end, so the
bound with its square blocked is a lower bound on C's remaining moves as well (the
enemy's pawns again enter only through the settled ones: C loses no unit, so there are
no capture regions). So the real sequence is a succeeding solo game;
contraposition gives the rule.

**Commuting moves.** The *footprint* of a solo move is its start and landing squares
and the squares a slide or a double step passes; of castling (the king's two-square
move), every square from the king's to its rook's corner. Two solo moves a and b of a
state S with disjoint footprints *commute*: each is a solo move after the other, and
S·a·b = S·b·a. Indeed a move's legality reads only its footprint (the unit on its start,
its landing and passed squares empty; castling also its right, which a move loses only
by starting or landing on the king's or the rook's square, both in the footprint), the
other move changes only squares of its own footprint, the route squares, the king's
danger squares and the capture mark read only the move itself, and a sequence making
both has captures for both; the castling rights after both are the rights of S less
those each move clears, in either order.

*Rule (sleep).* At a state S, let a be a child move within the bound whose solo game
fails, explored before the child move b, a and b commuting. In S·b, a is not tried.
*Proof*, by induction on the moves left (every value decided, and stored in the table,
is the true value of its state): if a succeeding solo game from S·b began with a, say
b·a·t from S, then a·b·t is a succeeding solo game from S: S·a is within the bound
(checked at S), S·a·b = S·b·a and the later states are those of the given game, every
move is a solo move (commutation), and the check rule reads only the state after a
move and whether the move is the last, the same at the same place in both orders. So
S·a succeeds, against its (true) failure. The skip is for one level only: a is tried
again below S·b.

The solo game is searched depth-first (a child whose bound is lower than its parent's
at once, the others after, the least bound first) with a
table of the states already decided (``(C's units, rights, fixed enemy squares, captures
left, moves left)`` -> success), shared by the whole search: the same state of one side
recurs under many states of the other. The enemy's pawns are not in the key, as the
answer depends on them only through the fixed squares: C has its goal count, so C's
bound builds no capture regions and reads the enemy's pawns only through the ones
settled for good with the enemy's 0 captures, which are the fixed squares off F.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import chess

from retro.spg.bounds import MoveBounds, SideMasks, side_masks
from retro.spg.contact import contact_checkers, contact_mask
from retro.spg.staying import StayingPieces

__all__ = ["SoloGame"]

_MEMO_LIMIT = 2_000_000  # decided states; cleared beyond it (memo lost, never soundness)
_MoveKey = tuple[chess.Square, chess.Square, chess.PieceType | None, int]
"""A solo move: start and landing squares, promotion, 1 if it is a capture move."""
_KINDS = (chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN, chess.KING)


class SoloGame:
    """The solo game of each colour (module docstring), decided with a shared table."""

    def __init__(
        self,
        bounds: MoveBounds,
        goal: chess.Board,
        routes: dict[chess.Color, dict[chess.PieceType, chess.Bitboard]] | None,
        count: Callable[[], None],
        staying: StayingPieces | None = None,
    ) -> None:
        self.bounds = bounds
        self.staying = staying
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
        self._danger: dict[chess.Bitboard, chess.Bitboard] = {}

    def applies(self, color: chess.Color, own_units: int, enemy_units: int) -> bool:
        """Whether the rule's condition holds: ``color`` already has its goal count (and the
        enemy at least its own)."""
        goal_count = self.bounds.goal_count
        return own_units == goal_count[color] and enemy_units >= goal_count[not color]

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
        captures = enemy_units - self.bounds.goal_count[not color]
        need = self.bounds.side_needs(color, masks, rights, enemy_units, enemy_pawns)
        return self._succeeds(color, masks, rights, fixed, captures, enemy_pawns, moves, need)

    def _succeeds(
        self,
        color: chess.Color,
        masks: SideMasks,
        rights: chess.Bitboard,
        fixed: chess.Bitboard,
        captures: int,
        enemy_pawns: chess.Bitboard,
        moves: int,
        need: int,
        sleep: frozenset[_MoveKey] = frozenset(),
    ) -> bool:
        """The solo game from a state whose bound is ``need``; the moves in ``sleep`` are not
        tried (module docstring, "Commuting moves")."""
        if moves == 0:
            return (
                not captures
                and masks == self.goal_masks[color]
                and (not self.bounds.rights_count or rights == self.goal_rights[color])
            )
        key = (color, masks, rights, fixed, captures, moves)
        known = self.table.get(key)
        if known is not None:
            return known
        enemy_goal = self.bounds.goal_count[not color]
        later = []
        failed: list[tuple[_MoveKey, chess.Bitboard]] = []  # explored children that failed (module docstring)
        result = False
        for after, after_rights, left, move_key, trace in self._children(
            color, masks, rights, fixed, captures, moves, sleep
        ):
            self.count()
            child_need = self._need(color, after, after_rights, enemy_goal + left, enemy_pawns, moves - 1)
            if child_need > moves - 1:
                continue
            if child_need < need:  # a move that lowers the bound: the likeliest way, tried at once
                if self._succeeds(
                    color, after, after_rights, fixed, left, enemy_pawns, moves - 1, child_need, _asleep(failed, trace)
                ):
                    result = True
                    break
                failed.append((move_key, trace))
            else:
                later.append((child_need, after, after_rights, left, move_key, trace))
        if not result:
            later.sort(key=lambda child: child[0])
            for child_need, after, after_rights, left, move_key, trace in later:
                if self._succeeds(
                    color, after, after_rights, fixed, left, enemy_pawns, moves - 1, child_need, _asleep(failed, trace)
                ):
                    result = True
                    break
                failed.append((move_key, trace))
        if len(self.table) >= _MEMO_LIMIT:
            self.table.clear()
        self.table[key] = result
        return result

    def _need(
        self,
        color: chess.Color,
        masks: SideMasks,
        rights: chess.Bitboard,
        enemy_units: int,
        enemy_pawns: chess.Bitboard,
        moves: int,
    ) -> int:
        """C's bound at a solo state with ``moves`` moves left; when it fits, the bound with
        C's pieces staying for good blocked (module docstring, "Pieces staying for good")."""
        need = self.bounds.side_needs(color, masks, rights, enemy_units, enemy_pawns)
        if need > moves or self.staying is None:
            return need
        stay = self.staying.all_squares(color, masks, rights, enemy_units, enemy_pawns, moves)
        return self.bounds.side_needs(color, masks, rights, enemy_units, enemy_pawns, stay) if stay else need

    def danger(self, fixed: chess.Bitboard) -> chess.Bitboard:
        """The squares the fixed enemy units attack by contact (:mod:`retro.spg.contact`)."""
        cached = self._danger.get(fixed)
        if cached is None:
            if len(self._danger) >= _MEMO_LIMIT:
                self._danger.clear()
            cached = self._danger[fixed] = contact_mask(self.goal, fixed)
        return cached

    def _children(
        self,
        color: chess.Color,
        masks: SideMasks,
        rights: chess.Bitboard,
        fixed: chess.Bitboard,
        captures: int,
        moves: int,
        sleep: frozenset[_MoveKey],
    ) -> Iterator[tuple[SideMasks, chess.Bitboard, int, _MoveKey, chess.Bitboard]]:
        """The states after each solo move not in ``sleep``: (C's masks, C's rights, captures
        left, the move's key, its footprint); a move other than C's last that checks a fixed
        enemy king by contact is dropped (module docstring, "Checks")."""
        board = self._board(color, masks, rights, fixed)
        back_rank = chess.BB_RANK_1 if color else chess.BB_RANK_8
        king = fixed & self.goal.kings
        for move, capture in self._moves(board, color, fixed, captures):
            move_key = (move.from_square, move.to_square, move.promotion, capture)
            if move_key in sleep:
                continue
            board.push(move)
            after = _without(side_masks(board, color), fixed)
            rights_after = board.clean_castling_rights() & back_rank
            board.pop()
            if king and moves > 1 and contact_checkers(after, color, chess.lsb(king)):
                continue
            yield after, rights_after, captures - capture, move_key, _footprint(board, move)

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

    def _moves(
        self, board: chess.Board, color: chess.Color, fixed: chess.Bitboard, captures: int
    ) -> list[tuple[chess.Move, int]]:
        """The solo moves (module docstring) of the board, each with 1 if it captures."""
        movable = board.occupied_co[color] & ~self.bounds.frozen & ~fixed
        routes = None if self.routes is None else self.routes[color]
        moves: list[tuple[chess.Move, int]] = []
        candidates = list(board.generate_pseudo_legal_moves(movable, ~fixed & chess.BB_ALL))
        if captures:
            candidates.extend(_pawn_captures(board, color, movable & board.pawns, fixed))
        danger = self.danger(fixed)
        for move in candidates:
            kind = move.promotion or board.piece_type_at(move.from_square)
            assert kind is not None
            castling = board.is_castling(move)
            if kind == chess.KING and danger & _king_squares(move, castling):
                continue
            if routes is not None and not castling and not routes[kind] & chess.BB_SQUARES[move.to_square]:
                continue
            pawn_move = board.pawns & chess.BB_SQUARES[move.from_square]
            diagonal = pawn_move and chess.square_file(move.from_square) != chess.square_file(move.to_square)
            if not diagonal:
                moves.append((move, 0))
            if captures and not castling and (diagonal or not pawn_move):
                moves.append((move, 1))
        return moves


def _pawn_captures(
    board: chess.Board, color: chess.Color, pawns: chess.Bitboard, fixed: chess.Bitboard
) -> list[chess.Move]:
    """C's pawn moves diagonally forward to a square empty of C's and fixed units (a capture
    of some other enemy unit, en passant included), promotions for each piece type."""
    last = chess.BB_RANK_8 if color else chess.BB_RANK_1
    moves: list[chess.Move] = []
    for square in chess.scan_forward(pawns):
        for target in chess.scan_forward(chess.BB_PAWN_ATTACKS[color][square] & ~board.occupied & ~fixed):
            if chess.BB_SQUARES[target] & last:
                moves.extend(
                    chess.Move(square, target, kind) for kind in (chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN)
                )
            else:
                moves.append(chess.Move(square, target))
    return moves


def _king_squares(move: chess.Move, castling: bool) -> chess.Bitboard:
    """The squares a king move needs unattacked: its landing square; castling: its start,
    the square it passes and its landing square."""
    if not castling:
        return chess.BB_SQUARES[move.to_square]
    return (
        chess.BB_SQUARES[move.from_square]
        | chess.between(move.from_square, move.to_square)
        | chess.BB_SQUARES[move.to_square]
    )


def _footprint(board: chess.Board, move: chess.Move) -> chess.Bitboard:
    """The squares a solo move reads or changes: its start and landing squares, the squares
    a slide or a double step passes; castling (the king's two-square move): every square
    from the king's to the rook's corner."""
    start, land = move.from_square, move.to_square
    squares = chess.BB_SQUARES[start] | chess.BB_SQUARES[land] | chess.between(start, land)
    if board.kings & chess.BB_SQUARES[start] and abs(start - land) == 2:
        corner = start + 3 if land > start else start - 4
        squares |= chess.between(start, corner) | chess.BB_SQUARES[corner]
    return squares


def _asleep(failed: list[tuple[_MoveKey, chess.Bitboard]], footprint: chess.Bitboard) -> frozenset[_MoveKey]:
    """The failed siblings whose footprints miss ``footprint``: they commute with the move
    (module docstring, "Commuting moves")."""
    return frozenset(key for key, other in failed if not other & footprint)


def _without(masks: SideMasks, squares: chess.Bitboard) -> SideMasks:
    keep = ~squares
    return (masks[0] & keep, masks[1] & keep, masks[2] & keep, masks[3] & keep, masks[4] & keep, masks[5] & keep)

"""Captures of units that can no longer move: the capturer's route goes through their squares.

**Rule.** At a node, let C be a colour that still makes ``k >= 1`` captures (the enemy
E's units now minus in the goal), ``a`` the moves E still makes, and X the squares of
E's units that may still be captured (:meth:`CaptureMoves.capturable`: no other unit of E
is ever captured). Suppose every unit of X is a piece (not a pawn) all of whose
*first-step squares* (:func:`retro.spg.frozen.first_step_mask`) hold units that stay
to the end and are never captured: frozen units, and pawns settled for good of either
colour (:mod:`retro.spg.bounds`). For a square t of X let ``A_t`` be the least, over
C's free units u, of C's assignment (:func:`retro.spg.routes.side_rows`: settled units
kept as rows; routes avoid the pawns settled for good, as in ``A``) with u's row replaced by its row *through t*
(:func:`retro.spg.routes.row_through`). Then C's moves left are at least ``A_t`` for
some t of X, and, when X has exactly ``k`` squares, for every t of X.

The search (:mod:`retro.spg.search`) prunes a node where this fails for either side.

**Proof.** Every move of a piece enters or crosses one of its first-step squares (a
slider's adjacent square in its direction, a knight's landing square, a king's adjacent
square; a capture too). Those of a unit x of X hold, from now to the end, units that
never leave and are never captured, so x can neither enter nor cross them: x never
moves again. So a capture of x lands on x's present square t (en passant takes only
pawns), made by a unit u of C that stands on t at that moment: u's route goes through
t, and u's own moves are at least its row through t to its real destination (the
moves to t are at least the distance to t, as a pawn or after promoting, or by
castling first; those after at least the distance from t). Every other unit's own
moves are at least its row's cost, the destinations form an assignment (every unit
ends on a goal square of C or is captured), and C's moves are at least the sum of its
units' own moves (castling counted once, as the king's). C captures ``k >= 1`` units,
all in X: so some t of X is the landing square of a capture, and when X has ``k``
squares every unit of X is captured, each on its own square.
"""

from __future__ import annotations

import chess

from retro.core.assignment import RowChange
from retro.spg.bounds import MoveBounds, side_masks
from retro.spg.captures import CaptureMoves
from retro.spg.frozen import first_step_mask
from retro.spg.routes import row_through, side_rows

__all__ = ["StuckCaptures"]

_MEMO_LIMIT = 200_000  # memoised answers; cleared beyond (memo lost, never soundness)


class StuckCaptures:
    """The rule of the module docstring for a goal and its bounds."""

    def __init__(self, bounds: MoveBounds, captures: CaptureMoves) -> None:
        self.bounds = bounds
        self.captures = captures
        self._memo: dict[tuple, bool] = {}

    def exceeds(self, board: chess.Board, color: chess.Color, moves: int, enemy_moves: int) -> bool:
        """Whether ``color``, with ``moves`` moves left, cannot bring its captures to the
        stuck units that must be captured (module docstring)."""
        bounds, enemy = self.bounds, not color
        k = chess.popcount(board.occupied_co[enemy]) - bounds.goal_count[enemy]
        if k < 1:
            return False
        takers = self.captures.capturable(board, enemy, enemy_moves)
        if not takers or len(takers) < k:
            return False
        pawns = board.pawns
        stay = bounds.frozen | bounds.blocked_for_good(
            color,
            pawns & board.occupied_co[color],
            k,
            pawns & board.occupied_co[enemy],
            chess.popcount(board.occupied_co[color]) - bounds.goal_count[color],
        )
        for square in takers:
            piece = board.piece_at(square)
            if piece is None or piece.piece_type == chess.PAWN or first_step_mask(piece, square) & ~stay:
                return False
        # the answer depends on this side's units and rights, the enemy's unit count and
        # pawns (the settled pawns, the regions), the squares X and the moves left
        key = (
            color,
            side_masks(board, color),
            board.clean_castling_rights(),
            chess.popcount(board.occupied_co[enemy]),
            pawns & board.occupied_co[enemy],
            tuple(takers),
            moves,
        )
        cached = self._memo.get(key)
        if cached is None:
            if len(self._memo) >= _MEMO_LIMIT:
                self._memo.clear()
            cached = self._memo[key] = self._exceeds(board, color, takers, k, moves, stay & ~self.bounds.frozen)
        return cached

    def _exceeds(
        self,
        board: chess.Board,
        color: chess.Color,
        takers: list[chess.Square],
        k: int,
        moves: int,
        blocked: chess.Bitboard,
    ) -> bool:
        side = side_rows(self.bounds, board, color, blocked)
        if side is None:
            return False
        change = RowChange(side.base)
        if change.total > moves:
            return True
        reached = [
            any(change.within(i, row_through(self.bounds, color, side, i, t), moves) for i in range(len(side.rows)))
            for t in takers
        ]
        return not all(reached) if len(takers) == k else not any(reached)

"""The non-admissible fallback heuristic (texel ``-na``).

Rule (texel documentation, "Because the heuristic function used by the A* search
ignores pieces interfering with each other ..."): after the regular search fails, a
shorter search from its best node uses a heuristic that also charges for pieces in
the way. Our choice (the paper leaves the formula open): the admissible bound plus

* 2 plies for every goal square occupied by a piece other than its goal piece (that
  piece must move away and the goal piece must come);
* 2 plies for every *stuck* piece: a piece off its goal squares none of whose moves
  on the actual board (other pieces in the way; enemy pieces only capturable while
  captures remain) gets it one step closer, on the relaxed distance, to any goal
  square of its type still to be filled. A stuck piece needs a detour, or another
  piece must step aside first (and maybe come back) - the blocked rook, the trapped
  promoted bishop, the pawn with the king in front of it.

It may overestimate; that is acceptable because the proof game it finds is still
replay-checked, and shortness is not required.
"""

from __future__ import annotations

from functools import lru_cache

import chess

from astar.heuristic import INF, Heuristic
from astar.paths import attacks_mask, piece_distances

__all__ = ["NonAdmissibleHeuristic"]


@lru_cache(maxsize=1 << 14)
def _levels(piece_type: chess.PieceType, target: chess.Square, blocked_mask: int,
            forbidden_mask: int) -> tuple[int, ...]:
    """``levels[d]`` = mask of squares at relaxed distance ``d`` from ``target``."""
    dist = piece_distances(piece_type, target, blocked_mask, forbidden_mask)
    levels = [0] * (max((d for d in dist if d < INF), default=0) + 1)
    for sq, d in enumerate(dist):
        if d < INF:
            levels[d] |= chess.BB_SQUARES[sq]
    return tuple(levels)


class NonAdmissibleHeuristic(Heuristic):
    """Admissible bound plus penalties for pieces in the way (may overestimate)."""

    def __init__(self, goal: chess.Board, blocked_mask: int = 0) -> None:
        super().__init__(goal, blocked_mask)
        free = ~blocked_mask
        self._goal_masks = {(color, ptype): goal.pieces_mask(ptype, color) & free
                            for color in chess.COLORS for ptype in chess.PIECE_TYPES}

    def value_of_key(self, key: tuple) -> int:
        base = Heuristic.value_of_key(self, key)
        if base >= INF:
            return INF
        types = key[:6]
        white = key[6]
        occupied = types[0] | types[1] | types[2] | types[3] | types[4] | types[5]
        by_color = {chess.WHITE: white, chess.BLACK: occupied & ~white}
        penalty = 0
        # goal squares held by another piece (colour or type)
        right = 0
        for (color, ptype), mask in self._goal_masks.items():
            right |= mask & types[ptype - 1] & by_color[color]
        goal_occupied = self.goal.occupied & ~self.blocked_mask
        penalty += 2 * chess.popcount(goal_occupied & occupied & ~right)
        for color in chess.COLORS:
            penalty += 2 * self._stuck_pieces(types, occupied, by_color[color], by_color[not color], color)
        return base + penalty

    def _stuck_pieces(self, types: tuple[int, ...], occupied: int, own: int, enemy: int, color: chess.Color) -> int:
        can_capture = chess.popcount(enemy) > self._goal_count[not color]
        closed = own | (0 if can_capture else enemy)
        stuck = 0
        for ptype in (chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN, chess.KING):
            goal_mask = self._goal_masks[(color, ptype)]
            mine = types[ptype - 1] & own & ~self.blocked_mask
            open_goals = goal_mask & ~mine
            if not open_goals:
                continue
            forbidden = self._forbidden[color] if ptype == chess.KING else 0
            for sq in chess.scan_forward(mine & ~goal_mask):
                steps = attacks_mask(ptype, sq, occupied) & ~closed
                progress = False
                for target in chess.scan_forward(open_goals):
                    d = piece_distances(ptype, target, self.blocked_mask, forbidden)[sq]
                    if 0 < d < INF and steps & _levels(ptype, target, self.blocked_mask, forbidden)[d - 1]:
                        progress = True
                        break
                if not progress:
                    stuck += 1
        # pawns that must still advance straight but have a piece in front
        pawns = types[0] & own & ~self._goal_masks[(color, chess.PAWN)] & ~self.blocked_mask
        step = 8 if color == chess.WHITE else -8
        for sq in chess.scan_forward(pawns):
            ahead = sq + step
            if 0 <= ahead < 64 and occupied & chess.BB_SQUARES[ahead]:
                if not (can_capture and chess.BB_PAWN_ATTACKS[color][sq] & enemy):
                    stuck += 1
        return stuck

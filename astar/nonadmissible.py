"""The non-admissible fallback heuristic (texel ``-na``).

Rule (texel documentation, "Because the heuristic function used by the A* search
ignores pieces interfering with each other ..."): after the regular search fails, a
shorter search from its best node uses a heuristic that also charges for pieces in
the way. Our choice (the paper leaves the formula open): the admissible bound plus
2 plies for every goal square occupied by a piece other than its goal piece (that
piece must move away and the goal piece must come), plus 1 ply per piece standing
strictly between a slider that is off its goal square and the nearest goal square of
its type it could reach along a line. It may overestimate; that is acceptable because
the proof game it finds is still replay-checked, and shortness is not required.
"""

from __future__ import annotations

import chess

from astar.heuristic import INF, Heuristic

__all__ = ["NonAdmissibleHeuristic"]


class NonAdmissibleHeuristic(Heuristic):
    """Admissible bound plus penalties for pieces in the way (may overestimate)."""

    def value(self, board: chess.Board) -> int:
        base = super().value(board)
        if base >= INF:
            return INF
        penalty = 0
        goal = self.goal
        wrong = (goal.occupied & board.occupied) & ~self.blocked_mask
        for sq in chess.scan_forward(wrong):
            if board.piece_at(sq) != goal.piece_at(sq):
                penalty += 2
        for color in chess.COLORS:
            sliders = board.occupied_co[color] & (board.bishops | board.rooks | board.queens)
            for sq in chess.scan_forward(sliders):
                piece = board.piece_at(sq)
                if goal.piece_at(sq) == piece:
                    continue
                targets = goal.pieces_mask(piece.piece_type, color) & ~board.pieces_mask(piece.piece_type, color)
                best = None
                for tsq in chess.scan_forward(targets):
                    if chess.ray(sq, tsq):
                        n = chess.popcount(chess.between(sq, tsq) & board.occupied)
                        best = n if best is None else min(best, n)
                if best:
                    penalty += best
        return base + penalty

"""Active units: the units a helpmate in a blocked position is likely to need.

Used by the scout of the closure search (:class:`retro.unwinnable.closure.FocusedSearch`),
which searches the game restricted to the moves of the active units plus one waiting move
per position. It is a heuristic only: it decides which lines are searched first, and a
mate found is a line of legal moves (replayed before it is shown); it never proves
anything unwinnable.

Rule. With the mobility regions of the position (:mod:`retro.unwinnable.mobility`; none
with castling rights or an en passant capture, and then every unit is active), let Z be
the loser king's region and the squares next to it (where a mate happens and the squares
that must be covered or blocked). A unit is *active* when it can take part in a mate on
Z:

* a winner unit whose region or the squares it attacks from its region meet Z (a checker
  or a guard), or a winner pawn that can reach its last rank (a new piece);
* a loser unit whose region meets Z (a blocker), the loser king included.

Example: ``3k4/4b3/3b4/p1pBp1p1/P1PbP1P1/5B2/8/1B1K4 b``, White to win: the pawn chain
on ranks 4-5 shuts White's king, the bishops b1 and f3 and Black's bishop d4 below it;
the mate (Black's king on a8 between its bishops on a7 and b8, White's bishop checking
from d5) needs only the units above. The closure search of the whole game meets it after
1.7 million positions, the scout after about 500.
"""

from __future__ import annotations

import chess

from retro.unwinnable.mobility import mobility, step_targets
from retro.unwinnable.static import static_applicable

__all__ = ["active_units"]

_LAST_RANK = {chess.WHITE: chess.BB_RANK_8, chess.BLACK: chess.BB_RANK_1}


def active_units(board: chess.Board, winner: chess.Color) -> chess.Bitboard:
    """The squares of the active units (module docstring); every occupied square when the
    mobility fixpoint does not apply."""
    if not static_applicable(board):
        return board.occupied
    mob = mobility(board)
    zone = 0
    for (_, color, piece_type), region in zip(mob.pieces, mob.region, strict=True):
        if piece_type == chess.KING and color != winner:
            zone = region | step_targets(chess.KING, color, region)
    active = 0
    for (square, color, piece_type), region in zip(mob.pieces, mob.region, strict=True):
        if color == winner:
            touches = (region | step_targets(piece_type, color, region)) & zone
            promotes = piece_type == chess.PAWN and region & _LAST_RANK[color]
            if touches or promotes:
                active |= chess.BB_SQUARES[square]
        elif region & zone:
            active |= chess.BB_SQUARES[square]
    return active

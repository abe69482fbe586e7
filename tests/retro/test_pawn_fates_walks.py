"""Rule 5 of :mod:`retro.core.pawn_fates`: a pawn's capture crossings are those of one walk
from its file (contiguous), not a loop on a far boundary.

Schwarzkopf and Keym (dev2 341, ``8/2pp4/2p2PP1/4pKRP/4ppPk/7p/3PPP2/8``), before Black's
last move ...d5xe4 (a white queen on e4): White's f6 and g6 are its b- and c-pawns (the d-,
e- and f-pawns are at home, g4 and h5 are the g- and h-pawns: the other choices need more
than White's 8 captures), so White's 8 captures are all made by those two pawns, on the
c- to g-files. Black (White is missing 6) has c6 from b7, and d5, e5, f4, h3 from the e-,
f-, g- and h-pawns (the a-pawn reaches none of them), at least 5 captures (h3 is not the
h-pawn unless it went h-g-h: White's h5 blocks it), so 6 exactly and Black's pieces took
nothing. So no capture of either side landed on the a-file, and neither a-pawn captured:
each is gone (none stands on the board) by being taken on the a-file, which no capture
reached, or by promoting straight up (down) the a-file, which both cannot have done (two
pawns that stayed on one file cannot pass each other): no fates are left. A walk model
whose crossings may form a loop let the h-pawn's two captures "land" on the a- and b-files.
"""

from __future__ import annotations

import chess

from retro.core.pawn_fates import pawn_fates_feasible

BEFORE_D5XE4 = "8/2pp4/2p2PP1/3ppKRP/4QpPk/7p/3PPP2/8 b - - 0 1"
AFTER = "8/2pp4/2p2PP1/4pKRP/4ppPk/7p/3PPP2/8 w - - 0 1"  # the problem's position


def test_far_loop_is_no_walk() -> None:
    assert pawn_fates_feasible(chess.Board(BEFORE_D5XE4)) is False


def test_problem_position_keeps_its_fates() -> None:
    assert pawn_fates_feasible(chess.Board(AFTER)) is not False

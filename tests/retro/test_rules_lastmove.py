"""Static rules added for the last-move problems of data/lastmove-dev.jsonl: each fires
on a predecessor position that a published solution excludes, stays silent on the
published answer's predecessor, and (through the solver) settles the problem."""

import chess

from retro.lastmove.solver import solve
from retro.position import parse_fen
from retro.rules import check_static


def test_confined_regions_h8_rook_shut_in_g8_h8():
    # Cross, last move PxQ=Q: Q1n1Kb2/B1kppppp/1prp4/2p5. Had White played b7xRa8=Q, Black
    # would have had rooks on a8 and c6; but Black's h8 rook can only ever stand on g8 or
    # h8 (Bf8 never left f8 with e7 and g7 at home; g7, h7 at home), so one of the two is
    # promoted, and all eight black pawns are on the board.
    after_rook = check_static(parse_fen("r1n1Kb2/BPkppppp/1prp4/2p5/8/8/8/8 w - - 0 1"))
    assert after_rook.status == "illegal" and after_rook.rule == "confined-regions"
    # b7xQa8=Q: the black queen on a8 is the initial one; nothing objects
    assert check_static(parse_fen("q1n1Kb2/BPkppppp/1prp4/2p5/8/8/8/8 w - - 0 1")).status == "unknown"


def test_confined_regions_settles_cross_promotion_problem():
    board = chess.Board("Q1n1Kb2/B1kppppp/1prp4/2p5/8/8/8/8 w - - 0 1")
    white = solve(board, chess.WHITE, use_legality=False, auto_cages=False)
    assert {s.type for s in white.solutions} == {"PxQ=Q"}

"""Last-move record problems of data/lastmove-dev2.jsonl (types B, C, D) that the solver
settles with no cage file: the outcomes asserted are the published ones."""

import chess

from cages.library import Library
from cages.propose import CageFinder
from retro.lastmove.solver import solve
from tests.conftest import read_jsonl

DEV2 = {p["id"]: p for p in read_jsonl("lastmove-dev2.jsonl")}


def _types(problem_id: int, side: chess.Color) -> tuple[str, set[str]]:
    verdict = solve(chess.Board(DEV2[problem_id]["board"] + " w - - 0 1"), side, question="types", time_limit=60)
    return verdict.status, {s.type for s in verdict.solutions}


def test_cage_of_a_cluster_beyond_the_first_proposals_of_another():
    # Mortensen, dev2 id 339, White's f7xNg8=N: the position before it has a cluster in
    # each corner; the corner h8's cage (Bf8 Ng8 Ph6 ... with White's Kh8 and Rh7) is
    # proposal 15 of the position, after 12 smaller ones of both clusters.
    before = chess.Board("5bnK/4pPpR/5p1p/8/8/5P1P/4P1Pr/5Bnk w - - 0 1")
    cage = CageFinder(Library()).cage_in(before)
    assert cage is not None and cage.startswith("5bnK/4p1pR/5p1p/8/8/8/8/8")


def test_dev2_339_white_last_move_is_pxb_promoting_to_knight():
    status, types = _types(339, chess.WHITE)
    assert (status, types) == ("unique", {"PxB=N"})

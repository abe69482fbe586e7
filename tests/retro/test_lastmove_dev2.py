"""Last-move record problems of data/lastmove-dev2.jsonl (types B, C, D) that the solver
settles with no cage file: the outcomes asserted are the published ones."""

import time

import chess
import pytest

from cages.library import Library
from cages.propose import CageFinder
from retro.lastmove.solver import SolveOptions, _Clock, _enumerate, _filters_for, _quick_cages, solve
from tests.conftest import read_jsonl

DEV2 = {p["id"]: p for p in read_jsonl("lastmove-dev2.jsonl")}


def _types(problem_id: int, side: chess.Color, time_limit: float = 60) -> tuple[str, set[str]]:
    board = chess.Board(DEV2[problem_id]["board"] + " w - - 0 1")
    verdict = solve(board, side, question="types", time_limit=time_limit)
    return verdict.status, {s.type for s in verdict.solutions}


def test_cage_of_a_cluster_beyond_the_first_proposals_of_another():
    # Mortensen, dev2 id 339, White's f7xNg8=N: the position before it has a cluster in
    # each corner; the corner h8's cage (Bf8 Ng8 Ph6 ... with White's Kh8 and Rh7) is
    # proposal 15 of the position, after 12 smaller ones of both clusters.
    before = chess.Board("5bnK/4pPpR/5p1p/8/8/5P1P/4P1Pr/5Bnk w - - 0 1")
    cage = CageFinder(Library()).cage_in(before)
    assert cage is not None and cage.startswith("5bnK/4p1pR/5p1p/8/8/8/8/8")


@pytest.mark.slow
def test_dev2_339_white_last_move_is_pxb_promoting_to_knight():
    status, types = _types(339, chess.WHITE)
    assert (status, types) == ("unique", {"PxB=N"})


def test_cage_around_the_squares_the_candidate_changed():
    # Mortensen, dev2 id 202, Black's Kf1xNe1: the cluster without White's Rd2 (or Bc1, or
    # both: Hwa's cage for Retractor) is a cage that holds the captured knight; the
    # smallest proposal of each cluster is not one, the first proposals around e1 are.
    before = chess.Board("8/8/8/8/8/3P1P2/1PPRPrPP/2B1Nk1K b - - 0 1")
    assert CageFinder(Library(), per_position=1).cage_in(before) is None
    cage = CageFinder(Library(), per_position=1).cage_in(before, focus=chess.BB_E1)
    assert cage is not None and chess.Board(cage.split()[0]).piece_at(chess.E1) == chess.Piece.from_symbol("N")


@pytest.mark.slow
def test_dev2_202_black_last_move_is_king_takes_bishop():
    # KxN is refuted by an automatic cage; KxB (the answer) is the only type left.
    status, types = _types(202, chess.BLACK, time_limit=20)
    assert types == {"KxB"} and status in ("unique", "unknown")


def test_quick_pass_refutes_a_candidate_by_a_cage_of_few_states():
    # dev2 202, Black: Kf1xNe1 holds a cage verified in under 200 states, KxB holds none
    # found; the quick pass refutes KxN before any proposal gets the full budget.
    board = chess.Board(DEV2[202]["board"] + " w - - 0 1")
    options = SolveOptions(question="types", use_legality=False, time_limit=None)
    filters, _finder = _filters_for(options, _Clock(time.perf_counter(), None, None))
    filters.diagram = board
    rejections: dict = {}
    found = _enumerate(board, [chess.BLACK], False, options, filters, rejections)
    assert {kind for kind, _ in found.candidates.values()} == {"KxB", "KxN"}
    left = _quick_cages(found, filters, rejections)
    assert {kind for kind, _ in left.values()} == {"KxB"}
    assert any(rule == "automatic cage" for rule, _ in rejections.values())

"""The restart schedule of one proof-game run (astar.portfolio)."""

from __future__ import annotations

import chess
import pytest
from hypothesis import given
from hypothesis import strategies as st

from astar.heuristic import INF, Heuristic
from astar.portfolio import Arm, Portfolio, luby


def test_luby_sequence_starts_as_published() -> None:
    # Luby, Sinclair and Zuckerman (1993): 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, ...
    assert [luby(i) for i in range(1, 16)] == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]
    with pytest.raises(ValueError):
        luby(0)


@given(st.integers(min_value=1, max_value=12))
def test_luby_blocks_repeat_the_sequence_then_double(k: int) -> None:
    """The first 2**k - 1 terms are the first 2**(k-1) - 1 twice, then 2**(k-1); so they
    sum to k * 2**(k-1) and half of the slices have one unit (the exploring ones)."""
    terms = [luby(i) for i in range(1, 2**k)]
    half = terms[: 2 ** (k - 1) - 1]
    assert terms == half + half + [2 ** (k - 1)]
    assert sum(terms) == k * 2 ** (k - 1)
    assert terms.count(1) == 2 ** (k - 1)


def _moves(*uci: str) -> tuple[chess.Move, ...]:
    return tuple(chess.Move.from_uci(text) for text in uci)


def test_longer_slices_go_to_the_arm_closest_to_the_goal() -> None:
    portfolio: Portfolio[str] = Portfolio(seed=0)
    assert portfolio.next_slice() == (1, True)  # nothing to exploit yet
    late, early = Arm("late", _moves("e2e4")), Arm("early", _moves("d2d4"))
    portfolio.arms += [late, early]
    portfolio.report(late, 12, _moves("e2e4", "e7e5", "g1f3"), dead=False)
    portfolio.report(early, 7, _moves("d2d4", "d7d5", "c1f4"), dead=False)
    assert portfolio.next_slice() == (1, True)
    assert portfolio.next_slice() == (2, False)
    arm, line = portfolio.pick()
    assert arm is early and line == early.best_moves  # it improved, no search yet: from its best line
    early.search = "the search from d2d4"
    assert portfolio.pick() == (early, None)  # it improved: its search goes on
    # a dead start is never picked, however close its line came
    portfolio.report(early, INF, (), dead=True)
    assert portfolio.best() is late


def test_among_arms_equally_close_the_one_with_fewer_slices_gets_the_next() -> None:
    """Dev #74: the late plan came within 6 of the goal in three slices, the unplaced plan
    in its first one; the equally close arm that got there for less takes the next slice."""
    portfolio: Portfolio[str] = Portfolio(seed=0)
    late, unplaced = Arm("late", _moves("e2e4")), Arm("unplaced", _moves("d2d4"))
    portfolio.arms += [late, unplaced]
    for h in (15, 16, 6):
        portfolio.report(late, h, _moves("e2e4", "e7e5"), dead=False)
    portfolio.report(unplaced, 6, _moves("d2d4", "d7d5"), dead=False)
    assert portfolio.best() is unplaced
    portfolio.report(unplaced, 6, _moves("d2d4", "d7d5"), dead=False)
    portfolio.report(unplaced, 6, _moves("d2d4", "d7d5"), dead=False)
    assert portfolio.best() is late  # three slices each: the earliest


@pytest.mark.slow
def test_the_third_plan_leaves_the_promoted_pieces_where_they_promote() -> None:
    """Dev legal #74: the late plan's initial path walks each promoted piece to a goal
    square; White's queens then stand round e1 before Black's king (g7 at the path's
    end) has come, and the searches from there stall with the king walled off on h4.
    The third plan is the same pawn plan with the promoted pieces left where they
    promote: every capture and promotion, fewer plies, the kings nearer their squares."""
    from astar.initial_path import InitialPath
    from retro import proofgame
    from retro.legality import find_kernel

    goal = chess.Board("6B1/1bb1qR2/2q1Q1rB/K4qnN/4BRpQ/3R1Q1q/NnQ1rrQB/4k3 w - - 0 1")
    plans = proofgame._Plans(find_kernel(goal), chess.Board(), goal, goal, 0)
    late = plans.next_path(None, have_complete=True)
    assert late is not None and late.reason == "" and plans.label == "late plan"
    assert plans.next_path(None, have_complete=True) is None  # the early plan stops short: passed over
    unplaced = plans.next_path(None, have_complete=True)
    assert plans.label == "late plan, promoted pieces unplaced"
    assert unplaced is not None and unplaced.reason == "" and unplaced.promoted == late.promoted == 11
    assert len(unplaced.moves) < len(late.moves)

    def king_way(path: InitialPath) -> int:
        king = path.board.king(chess.BLACK)
        assert king is not None
        return chess.square_distance(king, chess.E1)

    assert king_way(unplaced) < king_way(late)


@pytest.mark.slow
def test_dev_74_is_proved_from_the_unplaced_plan() -> None:
    """Without a time limit (node-for-node reproducible): proved within 60,000 nodes from
    the unplaced plan's start (38,710 measured, on its first two slices: the early plan
    stops short, and the same exploring slice plays it); the previous schedule, late plan and
    early plan only, proved it at 174,356 nodes."""
    from astar.proofgame import ProofGame
    from retro import proofgame

    goal = chess.Board("6B1/1bb1qR2/2q1Q1rB/K4qnN/4BRpQ/3R1Q1q/NnQ1rrQB/4k3 w - - 0 1")
    verdict = proofgame.prove(goal, max_nodes=60_000, time_limit=None)
    assert verdict.status == "legal" and verdict.proof_game is not None
    assert verdict.found_by.startswith("late plan, promoted pieces unplaced")
    assert ProofGame(chess.STARTING_FEN, verdict.proof_game.moves).reaches(goal)


def _stalled(seed: int, *, crowded: bool = False) -> tuple[Portfolio[str], Arm[str]]:
    """A portfolio whose second start's second slice did not improve its best line; with
    ``crowded``, the first start took three more slices before the second start came."""
    portfolio: Portfolio[str] = Portfolio(seed)
    late = portfolio.add(Arm("late", _moves("e2e4")))
    portfolio.next_slice()
    portfolio.report(late, 12, _moves("e2e4", "e7e5"), dead=False)
    for h in (9, 8, 9) if crowded else ():
        portfolio.next_slice()
        portfolio.report(late, h, _moves("e2e4", "e7e5"), dead=False)
    arm = portfolio.add(Arm("early", _moves("e2e4")))
    portfolio.report(arm, 5, _moves("e2e4", "e7e5", "g1f3", "b8c6", "f1c4"), dead=False)
    portfolio.report(arm, 6, _moves("e2e4", "e7e5"), dead=False)  # no improvement: the best line stays
    return portfolio, arm


def test_a_stalled_arm_restarts_from_a_committed_prefix_of_its_best_line() -> None:
    portfolio, arm = _stalled(0)
    assert arm.best_moves == _moves("e2e4", "e7e5", "g1f3", "b8c6", "f1c4") and not arm.improved
    starts = {_stalled(seed)[0].pick()[1] for seed in range(200)}
    # every prefix from the arm's start up to (not including) the stalled end, and only those
    assert starts == {arm.best_moves[:n] for n in range(len(arm.prefix), len(arm.best_moves))}


def test_an_arm_searches_alike_whatever_slot_it_gets() -> None:
    """The seed of an arm's new search and the prefix it restarts from depend on the
    run's seed, the start's number and the arm's own slices, not on the slice number:
    slices another arm took before it delay its slices without changing its searches.
    The first start's first slice and the second start's first slice (on slice 2) get
    the seeds the slice numbers gave them."""
    alone, arm = _stalled(7)
    crowded, same = _stalled(7, crowded=True)
    assert crowded.slices != alone.slices and (same.number, arm.number) == (1, 1)
    assert crowded.search_seed(same) == alone.search_seed(arm) == 7 + 1000 * (1 + 2)
    assert crowded.pick() == (same, alone.pick()[1])
    first: Portfolio[str] = Portfolio(7)
    late, early = first.add(Arm("late", ())), first.add(Arm("early", ()))
    assert (first.search_seed(late), first.search_seed(early)) == (7, 1007)


def test_a_resumed_descent_goes_on_from_its_committed_line() -> None:
    """Resuming is what lets a long slice continue an arm: the second run starts where
    the first stopped, so its game begins with the line the first had committed to."""
    from astar.nonadmissible import NonAdmissibleHeuristic
    from astar.proofgame import ProofGame
    from astar.search import Descent
    from proofkernel.blocked import blocked_squares

    goal = chess.Board()
    for san in ("e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6", "Nc3", "Bc5", "d3", "d6"):
        goal.push_san(san)

    def heuristics(node: chess.Board) -> tuple[Heuristic, NonAdmissibleHeuristic]:
        mask = blocked_squares(goal, node)
        return Heuristic(goal, mask), NonAdmissibleHeuristic(goal, mask)

    descent = Descent(chess.Board(), goal, heuristics=heuristics, leg_nodes=20, seed=4)
    first = descent.run(max_nodes=40)
    assert first.status == "budget" and descent.path  # stopped after committing to some moves
    committed = descent.path
    second = descent.run(max_nodes=20_000)
    assert second.status == "found" and second.moves[: len(committed)] == committed
    assert ProofGame(chess.STARTING_FEN, second.moves).reaches(goal)


@pytest.mark.slow
def test_the_portfolio_proves_what_the_single_plan_search_does_not() -> None:
    """Dev legal #8 (12 promotions, 4 kernel captures), without a time limit so that
    both runs are node-for-node reproducible. The single search of the previous
    prove() - the late plan's initial path, then one committed-leg search with all the
    nodes left - is still searching at 20,000 nodes (and at 40,000, measured); the
    restart portfolio proves it within 20,000 (17,873 measured)."""
    from astar.nonadmissible import NonAdmissibleHeuristic
    from astar.proofgame import ProofGame
    from astar.search import search_descending
    from proofkernel.blocked import blocked_squares
    from retro import proofgame
    from retro.legality import find_kernel

    goal = chess.Board("r1b2Kq1/N1R5/2rkr1q1/r1q1r3/B1b2nrN/6B1/qN1n1Q1b/N1BR1N2 w - - 0 1")
    verdict = proofgame.prove(goal, max_nodes=20_000, time_limit=None)
    assert verdict.status == "legal" and verdict.proof_game is not None
    assert ProofGame(chess.STARTING_FEN, verdict.proof_game.moves).reaches(goal)

    kernel = find_kernel(goal)
    path = proofgame._Plans(kernel, chess.Board(), goal, goal, 0).next_path(None, have_complete=False)
    assert path is not None and path.reason == ""  # the old first attempt: a complete initial path

    def heuristics(node: chess.Board) -> tuple[Heuristic, NonAdmissibleHeuristic]:
        mask = blocked_squares(goal, node)
        return Heuristic(goal, mask), NonAdmissibleHeuristic(goal, mask)

    single = search_descending(path.board, goal, heuristics=heuristics, max_nodes=20_000 - path.nodes)
    assert single.status == "budget"


def test_a_search_that_starts_on_its_target_keeps_its_prefix_as_the_game() -> None:
    """A start of the run may be the target itself (an initial path can end there): the
    search finds it at once with no move of its own, and the proof game is the start's
    prefix (it was dropped, and the replay check rejected the empty game)."""
    from retro.proofgame import _Legs

    target = chess.Board()
    target.push_san("e4")
    legs = _Legs(chess.Board(), target, (1, 5), False, None)
    result = legs.run(legs.start(target, _moves("e2e4"), seed=0), max_nodes=100, time_limit=None)
    assert result.status == "found" and result.moves == _moves("e2e4")


@pytest.mark.slow
def test_an_exploring_slice_passes_over_a_plan_that_stops_short() -> None:
    """Dev legal #157: after the late plan's complete path, the early plan's path stops
    short; the same exploring slice then plays the next plan (the unplaced one, complete)
    instead of giving the slice to the late plan again: up to PLANS_PER_SLICE plans."""
    from astar.initial_path import InitialPath
    from retro import proofgame
    from retro.legality import find_kernel

    goal = chess.Board("2N2RbQ/1K1Nbp1Q/4r3/2k1r1Qn/1bN1r2B/R2B4/3Br2Q/q3bQ1B b - - 0 1")
    plans = proofgame._Plans(find_kernel(goal), chess.Board(), goal, goal, 0)
    portfolio: Portfolio[InitialPath | None] = Portfolio(0)
    late = proofgame._explore(portfolio, plans, None)
    assert late is not None and late.label == "late plan" and late.origin is not None and not late.origin.reason
    second = proofgame._explore(portfolio, plans, None)
    assert second is not None and second.label == "late plan, promoted pieces unplaced"
    assert second.origin is not None and not second.origin.reason and portfolio.arms == [late, second]

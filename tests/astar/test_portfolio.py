"""The restart schedule of one proof-game run (astar.portfolio)."""

from __future__ import annotations

import chess
import pytest
from hypothesis import given
from hypothesis import strategies as st

from astar.heuristic import INF
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


def test_a_stalled_arm_restarts_from_a_committed_prefix_of_its_best_line() -> None:
    portfolio: Portfolio[str] = Portfolio(seed=3)
    arm = Arm("late", _moves("e2e4"))
    portfolio.arms.append(arm)
    best = _moves("e2e4", "e7e5", "g1f3", "b8c6", "f1c4")
    portfolio.report(arm, 5, best, dead=False)
    portfolio.report(arm, 6, best[:2], dead=False)  # no improvement: the best line stays
    assert arm.best_moves == best and not arm.improved
    starts = {portfolio.pick()[1] for _ in range(200)}
    # every prefix from the arm's start up to (not including) the stalled end, and only those
    assert starts == {best[:n] for n in range(len(arm.prefix), len(best))}

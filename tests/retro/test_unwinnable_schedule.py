"""The full routine's schedule (how the node budget is divided; retro.unwinnable.routines).

Each test is a dev-set query (data/unwinnability-dev.jsonl) that the full routine left
undetermined at the reduced budget before the rule it names, and that the rule decides;
removing the rule makes the test fail."""

from __future__ import annotations

import chess

from retro.unwinnable import analyze, routines
from tests.retro.test_unwinnable_promotion import LOCKED

W, B = chess.WHITE, chess.BLACK


def test_the_iterations_before_the_closure_take_at_most_half_of_a_small_budget() -> None:
    # Rule 1. White cannot win (labelled so): only the closure search proves it, in about
    # 14,000 positions. At 50k nodes the four first iterations took 40k before, and the
    # closure search had 10k left; capped at 50k / 8 each, they leave it enough.
    fen = "k7/8/3p1p1p/1p6/1P6/KP6/PP1P1P1P/8 w - -"
    verdict = analyze(chess.Board(fen), B, max_nodes=50_000)
    assert (verdict.status, verdict.reason) == ("unwinnable", "closure search")
    assert verdict.nodes <= 50_000
    # From 80k nodes up the cap is above every early iteration's bound: nothing changes there.
    assert 80_000 // routines.PRE_CLOSURE_SHARE >= routines.bound(routines.CLOSURE_FROM)


def test_the_iterations_keep_a_share_of_the_closure_search_once_it_started() -> None:
    # Rule 2. Black to win: the closure search meets the mate after about 24,000 positions
    # of its own. At 100k nodes its first round had 20k, then the iterations of depths 5
    # and 6 took 20k more and the budget ran out; now the second round comes before them.
    fen = "8/1p1k2p1/bPp2pPb/n1P2P1n/N1p2p1N/BpP1KPpB/1P4P1/8 w - -"
    verdict = analyze(chess.Board(fen), B, max_nodes=100_000)
    assert (verdict.status, verdict.reason) == ("winnable", "closure search")
    assert verdict.nodes <= 100_000


def test_the_scouts_run_in_the_last_round() -> None:
    # Rule 3. Black to win: the promotion march finds the mate in about 2,100 positions, but
    # at 100k nodes the first closure search was already the last one and took all that
    # remained, so no scout ran. The three paths agree, node for node.
    fast = analyze(chess.Board(LOCKED), B, max_nodes=100_000, compiled=False)
    assert (fast.status, fast.reason) == ("winnable", "promotion march") and fast.nodes <= 100_000
    for other in (
        analyze(chess.Board(LOCKED), B, max_nodes=100_000, reference=True),
        analyze(chess.Board(LOCKED), B, max_nodes=100_000, compiled=True),
    ):
        assert (other.status, other.line, other.nodes) == (fast.status, fast.line, fast.nodes)

"""The full routine's schedule (how the node budget is divided; retro.unwinnable.routines).

Each test is a dev-set query (data/unwinnability-dev.jsonl) that the full routine left
undetermined at the reduced budget before the rule it names, and that the rule decides;
removing the rule makes the test fail."""

from __future__ import annotations

import chess
import pytest

from retro.unwinnable import analyze, routines
from tests.retro.test_unwinnable_promotion import LOCKED

W, B = chess.WHITE, chess.BLACK


def test_the_iterations_before_the_closure_take_at_most_a_quarter_of_a_small_budget() -> None:
    # Rule 1. White cannot win (labelled so): only the closure search proves it, in about
    # 14,000 positions. At 50k nodes the four first iterations took 40k before any cap, and
    # the closure search had 10k left; capped at 1.25k, 2.5k, 3.75k and 5k, they leave it
    # enough.
    fen = "k7/8/3p1p1p/1p6/1P6/KP6/PP1P1P1P/8 w - -"
    verdict = analyze(chess.Board(fen), B, max_nodes=50_000)
    assert (verdict.status, verdict.reason) == ("unwinnable", "closure search")
    assert verdict.nodes <= 50_000
    # From 400k nodes up the cap is above every early iteration's bound: nothing changes there.
    assert 400_000 // routines.PRE_CLOSURE_DIVISOR >= routines.bound(routines.CLOSURE_FROM)


@pytest.mark.slow
def test_the_early_iterations_leave_three_quarters_of_a_small_budget() -> None:
    # Rule 1, the cap growing with the depth. Black to win (dev row 139): the promotion
    # march meets the mate after about 5,000 positions of its own. Uncapped at 100k nodes,
    # the four first iterations take 10k each and the query is left undetermined; capped
    # at 2.5k, 5k, 7.5k and 10k they leave the scouts and the closure search enough.
    fen = "8/1k5B/7b/8/1p1p1p1p/1PpP1P1P/2P3KN/N3b3 b - -"
    verdict = analyze(chess.Board(fen), B, max_nodes=100_000)
    assert (verdict.status, verdict.reason) == ("winnable", "promotion march")
    assert verdict.nodes <= 100_000
    # Black to win: the depth-4 iteration meets the mate after about 8,800 nodes (depth 3
    # fails). A cap of a sixteenth of the budget for every early iteration (6,250 here)
    # would leave it to the closure search, which does not find it within 100k nodes.
    fen = "3kBbB1/b1pBbBpB/1pPpPpP1/1P1P1P2/8/8/6K1/8 w - -"
    verdict = analyze(chess.Board(fen), B, max_nodes=100_000)
    assert (verdict.status, verdict.reason) == ("winnable", "search")


def test_a_rammed_position_is_probed_before_the_semi_static_check(monkeypatch: pytest.MonkeyPatch) -> None:
    # First 3,000 Lichess positions, #26: three of the five pawn pairs are rammed, and the
    # depth-1 iteration meets Black's mate after 8 nodes: the semi-static check (some
    # hundreds of microseconds in Python, and it cannot succeed once a mate is found) is
    # not run. Without the probe it would run first.
    def no_check(*args: object) -> bool:
        raise AssertionError("semi-static check run")

    monkeypatch.setattr(routines, "unwinnable_static", no_check)
    fen = "8/5k2/2p1p2b/3pPp2/P2q1P1p/KR4pP/3B2P1/4Q2R w - - 6 39"
    verdict = analyze(chess.Board(fen), B)
    assert verdict.status == "winnable" and verdict.nodes <= routines.RAMMED_PROBE_NODES


def test_a_failed_probe_changes_only_the_node_count(monkeypatch: pytest.MonkeyPatch) -> None:
    # A blocked dev position (each side): the probe finds nothing, the semi-static check
    # then proves it as before.
    fen = "2k5/8/1p5p/1P1p2pP/2pP2P1/2P5/5K2/8 w - -"
    for winner in (W, B):
        verdict = analyze(chess.Board(fen), winner)
        assert (verdict.status, verdict.reason) == ("unwinnable", "semi-static")
    # Lichess #250, rammed, White to win: the probe stops at its bound; the iterations after
    # it find the line they find without the probe (a probe of 0 nodes), for more nodes.
    board = chess.Board("8/8/pp5p/6pP/1k3p2/2p2P2/8/2K5 b - - 1 56")
    probed = analyze(board, W)
    monkeypatch.setattr(routines, "RAMMED_PROBE_NODES", 0)
    plain = analyze(board, W)
    assert probed.status == plain.status == "winnable"
    assert probed.line == plain.line and probed.nodes > plain.nodes


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

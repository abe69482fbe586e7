"""The time limit of the unwinnability queries (retro.unwinnable.deadline): every search
stops once it has passed, the answer is undetermined, and without a limit nothing changes.

The wall bounds are generous: the machine these run on may be shared and loaded."""

from __future__ import annotations

import json
import time
from typing import Any

import chess
import pytest

from retro.cli import main
from retro.unwinnable import analyze, deadline, fastboard, is_dead, jitcore
from retro.unwinnable.closure import ClosureSearch
from retro.unwinnable.helpmate import HelpmateSearch

#: Black can win here (White's pawns fall or promote), but only the closure search finds
#: it, after about 150,000 positions: seconds of pure Python, far beyond the limits below.
HARD = "1k6/1P1p1p1p/BP6/1P6/8/8/3P1PKP/8 w - -"
#: A limit, and the wall bound a query with that limit must answer by on a loaded machine.
LIMIT = 0.3
WALL = LIMIT + 5.0


def _searches(compiled: bool) -> list[Any]:
    searches: list[Any] = [HelpmateSearch(chess.BLACK)]
    if compiled and jitcore.AVAILABLE:
        jitcore.warm_up()
        searches.append(jitcore.CompiledHelpmateSearch(chess.BLACK))
    return searches


@pytest.mark.slow
@pytest.mark.parametrize("compiled", [False, True])
def test_find_helpmate_stops_at_the_deadline_and_counts_its_nodes(compiled: bool) -> None:
    state = fastboard.from_board(chess.Board(HARD))
    for search in _searches(compiled):
        reference = type(search)(chess.BLACK)
        assert not reference.search(state, 12, 50_000) and reference.cut_limit  # no limit: the bound cuts
        far = type(search)(chess.BLACK)
        with deadline.time_limit(3600.0):
            assert not far.search(state, 12, 50_000)
        assert far.nodes == reference.nodes  # a limit not reached changes nothing
        with deadline.time_limit(0.0), pytest.raises(deadline.TimeLimitReached):
            search.search(state, 12, 50_000)
        assert 0 < search.nodes < 50_000


def test_closure_search_stops_at_the_deadline_and_can_go_on() -> None:
    state = fastboard.from_board(chess.Board(HARD))
    search = ClosureSearch(state, chess.BLACK)
    with deadline.time_limit(0.0), pytest.raises(deadline.TimeLimitReached):
        search.run(10_000)
    found, _, complete, nodes = search.run(1_000)
    assert not found and not complete and 0 < nodes <= 1_000


@pytest.mark.parametrize("compiled", [False, True])
def test_analyze_answers_undetermined_by_the_time_limit(compiled: bool) -> None:
    board = chess.Board(HARD)
    start = time.perf_counter()
    verdict = analyze(board, chess.BLACK, max_nodes=10_000_000, compiled=compiled, time_limit=LIMIT)
    assert time.perf_counter() - start < WALL
    assert verdict.status == "undetermined" and verdict.reason == "time limit reached"
    assert verdict.nodes > 0 and verdict.line == ()
    # A query that ends well within its limit answers as without one.
    easy = chess.Board("8/4P2p/1p6/3Q1P2/2p3B1/Pk6/1P6/1K3r2 w - - 0 1")
    assert analyze(easy, chess.WHITE, time_limit=60.0).line == analyze(easy, chess.WHITE).line != ()


def test_is_dead_shares_its_time_limit_between_the_sides() -> None:
    start = time.perf_counter()
    verdict = is_dead(chess.Board(HARD), max_nodes=10_000_000, both_sides=True, time_limit=LIMIT)
    assert time.perf_counter() - start < WALL
    assert verdict.white.status == "winnable" and verdict.status == "alive"
    assert verdict.black is not None and verdict.black.reason == "time limit reached"


def test_bad_time_limit_is_a_value_error() -> None:
    for bad in (-1.0, float("nan")):
        with pytest.raises(ValueError, match="time_limit"):
            analyze(chess.Board(HARD), chess.BLACK, time_limit=bad)


def test_cli_time_limit_and_node_budget_options(capsys) -> None:
    start = time.perf_counter()
    assert main(["unwinnable", HARD, "black", "-t", str(LIMIT), "-m", "10000000", "--json"]) == 0
    assert time.perf_counter() - start < WALL
    record = json.loads(capsys.readouterr().out)
    assert (record["status"], record["reason"]) == ("undetermined", "time limit reached")
    for option in ("-m", "--max-nodes"):
        assert main(["unwinnable", HARD, "black", option, "3000", "--json"]) == 0
        record = json.loads(capsys.readouterr().out)
        # The budget is honoured up to an iteration's refused nodes (counted, see helpmate).
        assert record["reason"] == "node budget exhausted" and 3000 <= record["nodes"] <= 3100
    assert main(["dead", HARD, "--time-limit", str(LIMIT), "--max-nodes", "10000000", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["black"] == "undetermined"
    for bad in ("0", "-2", "nan"):
        assert main(["unwinnable", HARD, "-t", bad]) == 2
        assert "--time-limit" in capsys.readouterr().err

"""The compiled core (retro.unwinnable.jitcore) against the pure-Python path it ports."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import chess
import pytest

from retro.unwinnable import analyze, fastboard, jitcore
from retro.unwinnable.helpmate import HelpmateSearch
from tests.retro.revmoves_games import random_game_positions
from tests.retro.test_unwinnable_fastboard import SPECIAL_ROOTS

pytestmark = pytest.mark.skipif(not jitcore.AVAILABLE, reason="numba not installed")

DEV = Path(__file__).resolve().parents[2] / "data" / "unwinnability-dev.jsonl"


def _boards(count: int, seed: int) -> list[chess.Board]:
    return [chess.Board(fen) for fen in SPECIAL_ROOTS] + [
        board for board, _ in random_game_positions(seed, count, max_plies=150)
    ]


def test_moves_play_and_key_agree_with_fastboard() -> None:
    # Same legal moves in the same order, same child positions, and a table key that
    # identifies positions exactly when fastboard.key does (en passant kept only when legal).
    keys: dict[object, tuple[int, ...]] = {}
    children = 0
    for board in _boards(400, seed=21):
        state = fastboard.from_board(board)
        moves = fastboard.legal_moves(state)
        assert jitcore.legal_moves(state) == moves, board.fen()
        assert jitcore.from_pos(jitcore.to_pos(state)) == state
        for position in [state] + [fastboard.play(state, move) for move in moves]:
            compiled_key = jitcore.key(position)
            assert keys.setdefault(fastboard.key(position), compiled_key) == compiled_key, board.fen()
        for move in moves:
            child = fastboard.play(state, move)
            assert jitcore.play(state, move) == child, (board.fen(), fastboard.to_move(move).uci())
            assert jitcore.legal_moves(child) == fastboard.legal_moves(child), board.fen()
            assert jitcore.has_legal_move(child) == fastboard.has_legal_move(child), board.fen()
            children += 1
    assert len(set(keys.values())) == len(keys)  # different positions, different compiled keys
    assert children > 10_000


def test_helpmate_iterations_agree_including_deep_ones() -> None:
    # One Find-Helpmate iteration at a time, the table kept between them: same answer,
    # same nodes, same cuts, same line. Depths up to 70 make the compiled search grow its
    # frame stack (64 plies at first) and bounds of 3,000 nodes its table (256 slots).
    compared = 0
    for board in _boards(40, seed=5)[::3]:
        state = fastboard.from_board(board)
        for winner in (chess.WHITE, chess.BLACK):
            python, compiled = HelpmateSearch(winner), jitcore.CompiledHelpmateSearch(winner)
            for depth, bound in ((1, 500), (3, 3_000), (70, 3_000), (5, 200)):
                found = python.search(state, depth, bound)
                assert compiled.search(state, depth, bound) == found, (board.fen(), winner, depth)
                assert (compiled.nodes, compiled.cut_limit, compiled.cut_stale, compiled.line) == (
                    python.nodes,
                    python.cut_limit,
                    python.cut_stale,
                    python.line,
                ), (board.fen(), winner, depth)
                compared += 1
                if found:
                    break
            python.clear_table()
            compiled.clear_table()
            assert compiled.search(state, 2, 1_000) == python.search(state, 2, 1_000)
            assert compiled.nodes == python.nodes
    assert compared >= 40


@pytest.mark.slow
def test_verdicts_agree_on_dev_positions() -> None:
    # Blocked and endgame positions of the dev set: the verdicts the search decides
    # (winnable by search, unwinnable by exhaustive search) come out the same, node for node.
    rows = [json.loads(line) for line in DEV.read_text(encoding="utf-8").splitlines() if line.strip()]
    reasons: set[str] = set()
    for row in rows[::40]:
        board = chess.Board(row["fen"])
        for winner in (chess.WHITE, chess.BLACK):
            for quick in (True, False):
                python = analyze(board, winner, quick=quick, max_nodes=20_000, compiled=False)
                compiled = analyze(board, winner, quick=quick, max_nodes=20_000, compiled=True)
                assert (compiled.status, compiled.line, compiled.nodes, compiled.reason) == (
                    python.status,
                    python.line,
                    python.nodes,
                    python.reason,
                ), (row["fen"], winner, quick)
                reasons.add(f"{compiled.status} {compiled.reason}")
    assert {"winnable search", "unwinnable exhaustive search"} <= reasons, reasons


def test_without_numba_the_pure_python_path_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    # compiled=True on a machine without numba (AVAILABLE False) falls back to pure Python.
    import retro.unwinnable as unwinnable

    board = chess.Board("8/8/8/4k3/8/8/8/3QK3 b - - 0 1")
    expected = analyze(board, chess.WHITE, max_nodes=20_000, compiled=True)
    monkeypatch.setattr(jitcore, "AVAILABLE", False)
    monkeypatch.setattr(jitcore, "READY", False)
    assert not unwinnable._use_compiled(True, False)
    assert not unwinnable._use_compiled(None, False)
    fallback = analyze(board, chess.WHITE, max_nodes=20_000, compiled=True)
    assert (fallback.status, fallback.line, fallback.nodes) == (expected.status, expected.line, expected.nodes)
    assert expected.status == "winnable"


def test_compiled_code_runs_and_is_cached_under_the_sources_it_embeds(monkeypatch: pytest.MonkeyPatch) -> None:
    # The generator really runs compiled (the comparisons above are two executions), and
    # every compiled function, the generator's included, is cached under a key holding the
    # digest of movegen.py, jitcore.py and helpmate.py: a change to any of them (movegen.py
    # alone included) makes the old machine code unloadable instead of stale.
    from numba.core.registry import CPUDispatcher

    dispatchers: list[Any] = [value for value in vars(jitcore).values() if isinstance(value, CPUDispatcher)]
    dispatchers += [jitcore._GENERATOR[name] for name in jitcore.movegen.KERNELS]
    assert len(dispatchers) > 20
    assert any(jitcore._legal_moves is dispatcher for dispatcher in dispatchers)
    assert all(type(dispatcher._cache).__name__ == "_SourceKeyedCache" for dispatcher in dispatchers)
    # The entry point embeds the generator: it has a compiled signature once it has run
    # (compiled now, or its machine code loaded from the cache; the generator's own
    # dispatcher then has none, its code being inside the entry point's).
    jitcore.legal_moves(fastboard.from_board(chess.Board()))
    entry: Any = jitcore._legal_moves_array
    assert entry.signatures
    codegen = entry.targetctx.codegen()
    key = entry._cache._index_key(entry.signatures[0], codegen)
    assert key[-1] == jitcore.SOURCE_DIGEST
    monkeypatch.setattr(jitcore, "SOURCE_DIGEST", "another movegen.py")
    assert entry._cache._index_key(entry.signatures[0], codegen) != key

"""`retro proofgame -t T`: every phase of the pipeline stops by the deadline."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import chess
import pytest

import proofkernel.extended
import retro.legality
from retro.legality import _refuted_by_static_retraction, decide, find_kernel
from retro.proofgame import _Plans

DATA = Path(__file__).resolve().parents[2] / "data"
BARE_KINGS = chess.Board("8/8/4k3/8/8/4K3/8/8 w - - 0 1")


def _undecided(index: int) -> chess.Board:
    return chess.Board((DATA / "cpr-sample-10k-undecided.fen").read_text().splitlines()[index])


@pytest.fixture(scope="module")
def bare_kings_kernel() -> retro.legality.KernelResult:
    verdict = decide(BARE_KINGS, time_limit=30.0)
    assert verdict.kernel_result is not None and verdict.kernel_result.status == "found"
    return verdict.kernel_result


def test_the_initial_paths_play_no_plan_past_the_deadline(bare_kings_kernel, monkeypatch) -> None:
    solves: list[float] = []
    real = proofkernel.extended.extend_kernel

    def counted(*args, **kwargs):
        solves.append(kwargs["time_limit"])
        return real(*args, **kwargs)

    monkeypatch.setattr(proofkernel.extended, "extend_kernel", counted)
    plans = _Plans(bare_kings_kernel, chess.Board(), BARE_KINGS, BARE_KINGS, seed=0)
    assert plans.next_path(time.monotonic(), have_complete=False) is None
    assert solves == []
    # with time left, each plan's CP-SAT solve gets at most the time left
    plans.next_path(time.monotonic() + 1.0, have_complete=False)
    assert solves and all(limit <= 1.0 for limit in solves)


def test_the_kernel_models_are_solved_within_the_kernel_search_time(monkeypatch) -> None:
    limits: list[float] = []
    real = proofkernel.extended.extend_kernel

    def recorded(*args, **kwargs):
        limits.append(kwargs["time_limit"])
        return real(*args, **kwargs)

    monkeypatch.setattr(proofkernel.extended, "extend_kernel", recorded)
    result = find_kernel(BARE_KINGS, time_limit=2.0)
    assert result.models >= 1 and all(limit <= 2.0 for limit in limits)


def test_the_static_last_move_walk_stops_at_the_deadline() -> None:
    board = _undecided(0)
    assert not _refuted_by_static_retraction(board, 3, deadline=time.monotonic() - 1.0)


@pytest.mark.slow
def test_the_command_answers_by_its_time_limit() -> None:
    """The verdict's own seconds within the stated overhead (0.5 s of CPU on an idle core;
    3 s here, where a 2-core machine shared by several loads gives a process a fifth of a
    core); the wall time, which adds the start-up, within a bound generous enough for
    such a machine."""
    for board in (BARE_KINGS, _undecided(12)):  # neither is proved within 15 s (12: 139,497 nodes)
        began = time.monotonic()
        out = subprocess.run(
            [sys.executable, "-m", "retro.cli", "proofgame", board.fen(), "-t", "3", "--json"],
            capture_output=True,
            text=True,
            timeout=120,
        )
        wall = time.monotonic() - began
        record = json.loads(out.stdout)
        assert record["status"] == "unknown"
        assert record["seconds"] <= 3 + 3
        assert wall <= 3 + 60

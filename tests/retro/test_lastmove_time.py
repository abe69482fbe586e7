"""``retro lastmove`` under a time limit: every phase stops at the deadline, nothing is
rejected for want of time, and a verdict with unchecked candidates says so (status
``unknown`` unless two candidates passed every check)."""

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import chess
import pytest

from cages.library import Library
from retro.cli import main
from retro.lastmove.solver import Solution, _Filters, solve, status_of

ROOT = Path(__file__).resolve().parents[2]

# Angelini (README): with Black retracting three moves, thousands of sequences pass the
# cheap filters, and their enumeration (retro-stalemate searches) alone takes minutes.
ANGELINI_BLACK = "8/8/3r4/4K3/8/4kqpb/8/8 w - - 0 1"
# Dev set (type+cages, answer QxQ): without the cage library two White last moves pass the
# cheap filters, Qf8xQd8 and Qf8xRd8.
QUEEN_CAGE = "k1bQ2b1/ppKppp1B/2p3p1/8/8/8/8/8"


def _solution(checked: bool) -> Solution:
    return Solution(chess.WHITE, ("a2-a3",), "P-", (), checked)


@pytest.mark.parametrize(
    ("checked", "unchecked", "complete", "status"),
    [
        (0, 0, True, "none"),
        (1, 0, True, "unique"),
        (2, 0, True, "multiple"),
        (2, 5, True, "multiple"),
        (2, 0, False, "multiple"),
        (1, 5, True, "unknown"),
        (0, 5, True, "unknown"),
        (1, 0, False, "unknown"),
        (0, 0, False, "unknown"),
    ],
)
def test_status_of(checked, unchecked, complete, status):
    solutions = [_solution(True)] * checked + [_solution(False)] * unchecked
    assert status_of(solutions, complete) == status


def test_one_checked_survivor_and_unchecked_candidates_is_unknown(monkeypatch, capsys):
    """The time runs out right after the first candidate's costly check (the deadline is
    moved to the past there): one candidate passed every check, the others were never
    checked. That is not "multiple" (only one candidate is known to survive) nor
    "unique" (the others may survive too): it is unknown, with the counts."""
    original = _Filters.costly_chain

    def then_out_of_time(self, chain, deadline=None, *, cages_only=False):
        reason = original(self, chain, deadline, cages_only=cages_only)
        self.clock.deadline = float("-inf")
        return reason

    monkeypatch.setattr(_Filters, "costly_chain", then_out_of_time)
    verdict = solve(chess.Board(QUEEN_CAGE + " w - - 0 1"), chess.WHITE, legality_time_limit=0.5, auto_cages=False)
    assert verdict.status == "unknown" and verdict.complete
    assert [(s.moves, s.checked) for s in verdict.solutions] == [(("Qf8xQd8",), True), (("Qf8xRd8",), False)]
    record = verdict.as_dict()
    assert (record["checked"], record["unchecked"]) == (verdict.checked, verdict.unchecked)
    results = record["results"]
    assert isinstance(results, list)
    side = results[0]
    assert side["status"] == "unknown" and side["unchecked"] == 1
    assert [s["checked"] for s in side["solutions"]] == [True, False]
    assert main(["lastmove", QUEEN_CAGE, "--retract", "w", "--no-auto-cages", "--no-cages", "--budget", "5000"]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.startswith("unknown: ") and "1 candidate passed every check and 1 was not checked" in last


@pytest.mark.slow
def test_enumeration_honours_the_time_limit_and_reports_progress():
    """The enumeration stops at the deadline too: with -t 3 the answer comes back within
    a generous wall bound (3 s + 15 s for start-up and a loaded machine), ``unknown`` with
    an incomplete enumeration, and --progress has printed the enumeration's progress."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    argv = [sys.executable, "-m", "retro.cli", "lastmove", ANGELINI_BLACK, "--moves", "3", "-t", "3"]
    start = time.perf_counter()
    done = subprocess.run([*argv, "--json", "--progress"], capture_output=True, text=True, env=env, timeout=120)
    assert time.perf_counter() - start < 3 + 15
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert record["status"] == "unknown" and record["complete"] is False and record["retract"] == "b"
    assert record["unchecked"] == len(record["solutions"]) and record["checked"] == 0
    assert "enumerating the retractions" in done.stderr


def test_the_default_cage_library_is_read_and_never_written(capsys):
    """Without --cages the command reads the project's data/cages.txt (the library
    ``retro serve`` offers), read only: a fresh in-memory copy per problem, never written;
    --no-cages turns it off. With the library the dev-set problem's Qf8xRd8 contains a
    known cage and Qf8xQd8 is unique by the quick filters alone; without, both pass them."""
    from cages.library import DEFAULT_LIBRARY
    from retro.commands.lastmove import _cages

    quick = ["lastmove", QUEEN_CAGE, "--retract", "w", "--no-legality", "--no-auto-cages", "--json"]
    assert main(quick) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["status"] == "unique" and "known cages" in record["filters"]
    assert main([*quick, "--no-cages"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["status"] == "multiple" and "known cages" not in record["filters"]
    defaults = argparse.Namespace(no_cages=False, cages=None, no_save_cages=False, verify_cages=False)
    first, second = _cages(defaults), _cages(defaults)
    assert first is not None and second is not None and first is not second
    assert first.path is None and len(first.cages) == len(Library.load(DEFAULT_LIBRARY).cages) > 0
    with pytest.raises(SystemExit):
        main([*quick, "--no-cages", "--cages", "x.txt"])


@pytest.mark.slow
def test_a_named_library_receives_the_cages_found(tmp_path):
    """Without a library, Qf8xRd8's cage is found automatically (some 10 s of cage
    verification): appended to a named library, unless --no-save-cages."""
    library = tmp_path / "found.txt"
    argv = ["lastmove", QUEEN_CAGE, "--retract", "w", "--no-legality", "--cages", str(library)]
    assert main([*argv, "--no-save-cages", "--json"]) == 0 and not library.exists()
    assert main([*argv, "--json"]) == 0 and library.read_text().strip()


def test_a_lone_survivor_left_unchecked_at_the_time_limit_is_unique(monkeypatch):
    """The first candidate's costly check refutes it (here a stand-in reason), then the
    time runs out: the other candidate is the only sequence no filter refuted, so, the
    diagram being legal, it is the answer (``unique``), as a lone candidate after the cheap
    filters is; with ``check_single`` (the diagram's legality is in question) it stays
    unchecked and the answer unknown."""
    calls: list[int] = []

    def refute_first_then_out_of_time(self, chain, deadline=None, *, cages_only=False):
        calls.append(1)
        self.clock.deadline = float("-inf")
        return ("stand-in", "refuted for the test") if len(calls) == 1 else None

    monkeypatch.setattr(_Filters, "costly_chain", refute_first_then_out_of_time)
    verdict = solve(chess.Board(QUEEN_CAGE + " w - - 0 1"), chess.WHITE, legality_time_limit=0.5, auto_cages=False)
    assert verdict.complete and [(s.moves, s.checked) for s in verdict.solutions] == [(("Qf8xRd8",), True)]
    assert verdict.status == "unique" and verdict.unchecked == 0
    calls.clear()
    board = chess.Board(QUEEN_CAGE + " w - - 0 1")
    verdict = solve(board, chess.WHITE, legality_time_limit=0.5, auto_cages=False, check_single=True)
    assert verdict.status == "unknown" and [s.checked for s in verdict.solutions] == [False]

"""The CP-SAT model writer and its two solving ways (:mod:`retro.core.cpsat`): the written
proto means what OR-Tools' own builder means, and the compiled helper answers as
``cp_model.CpSolver`` does, on the pawn-fates models of the dev positions."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import chess
import pytest

from retro.core import cpsat
from retro.core.pawn_fates import build_model, fates_key

DEV = Path(__file__).resolve().parents[2] / "data" / "cpr-923-dev.jsonl"


def _dev_keys(per_label: int | None = None) -> list[tuple]:
    """The pawn-fates keys of the dev positions, or of the first ``per_label`` legal and
    illegal ones."""
    rows = [json.loads(line) for line in DEV.read_text().splitlines()]
    if per_label is not None:
        rows = [row for row in rows if row["legal"]][:per_label] + [row for row in rows if not row["legal"]][:per_label]
    return [fates_key(chess.Board(row["fen"]), {}, {}, {}) for row in rows]


def _cp_model_status(key: tuple, files: bool) -> int | None:
    """The status of the same model built by OR-Tools' ``cp_model.CpModel``."""
    from ortools.sat.python import cp_model

    model = build_model(key, files=files, factory=cp_model.CpModel)  # type: ignore[arg-type]
    if model is None:
        return None
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = 10.0
    return int(solver.solve(model))  # type: ignore[arg-type]


def _verdict(status: int | None) -> bool | None:
    """Feasible (True), infeasible (False) or unknown (None)."""
    return {cpsat.FEASIBLE: True, cpsat.OPTIMAL: True, cpsat.INFEASIBLE: False}.get(status or 0)


def _compare(keys: list[tuple]) -> tuple[int, set[int]]:
    compared, statuses = 0, set()
    for key in keys:
        for files in (False, True):
            model = build_model(key, files=files)
            theirs = _cp_model_status(key, files)
            assert (model is None) == (theirs is None)
            if model is None:
                continue
            text = model.proto_text()
            native, documented = cpsat.solve_native(text, 10.0), cpsat.solve_cp_model(text, 10.0)
            assert _verdict(native) == _verdict(documented) == _verdict(theirs)
            statuses.add(cpsat.INFEASIBLE if native == cpsat.INFEASIBLE else cpsat.FEASIBLE)
            compared += 1
    return compared, statuses


def test_both_ways_and_both_builders_agree_on_dev_models() -> None:
    compared, statuses = _compare(_dev_keys(4))
    assert compared >= 8 and statuses == {cpsat.FEASIBLE, cpsat.INFEASIBLE}


@pytest.mark.slow
def test_both_ways_and_both_builders_agree_on_all_dev_models() -> None:
    compared, statuses = _compare(_dev_keys())
    assert compared > 500 and statuses == {cpsat.FEASIBLE, cpsat.INFEASIBLE}


def _status(build) -> tuple[int, int]:
    model = cpsat.Model()
    build(model)
    text = model.proto_text()
    return cpsat.solve_native(text, 5.0), cpsat.solve_cp_model(text, 5.0)


def test_not_equal_negation_and_constants_are_written_right() -> None:
    def ne(model: cpsat.Model) -> None:  # x in 0..6, x != 1, 1 <= x <= 1: infeasible
        x = model.new_int_var(0, 6, "x")
        model.add(x != 1)
        model.add(2 * x - 1 <= 1)
        model.add(3 - x <= 2)

    def negation(model: cpsat.Model) -> None:  # a, not a => b, not b: infeasible
        a, b = model.new_bool_var("a"), model.new_bool_var("b")
        model.add_bool_or([a])
        model.add_implication(a.Not(), b)
        model.add(b == 0)
        model.add_bool_and([b.Not()]).only_enforce_if([a, b.Not()])

    def enforced(model: cpsat.Model) -> None:  # z => c == 0, not z => c >= 1, c + 1 == 2 * h: z false
        c, z, h = model.new_int_var(0, 6), model.new_bool_var(), model.new_int_var(0, 3)
        model.add(c == 0).only_enforce_if(z)
        model.add(c >= 1).only_enforce_if(z.Not())
        model.add(c + 1 == 2 * h)
        model.add_exactly_one([z])

    assert _status(ne) == (cpsat.INFEASIBLE, cpsat.INFEASIBLE)
    assert _status(negation) in {(cpsat.FEASIBLE, cpsat.FEASIBLE), (cpsat.OPTIMAL, cpsat.OPTIMAL)}
    assert _status(enforced) == (cpsat.INFEASIBLE, cpsat.INFEASIBLE)
    assert _status(lambda model: model.add(False)) == (cpsat.INFEASIBLE, cpsat.INFEASIBLE)


def test_the_model_is_solved_without_pandas() -> None:
    """A position whose pawn-fates model must be solved (excess pieces, so no shortcut,
    and the relaxation does not refute it) is refuted without importing pandas or
    OR-Tools' cp_model module."""
    code = (
        "import sys, chess\n"
        "from retro.core.pawn_fates import pawn_fates_feasible, fates_key, _too_few_captures\n"
        "board = chess.Board('4RR2/p2n3p/1kqr1Q1N/1pq5/1Nb1P2P/4p1bb/bq3QKn/1QR2rB1 w - - 0 1')\n"
        "print(pawn_fates_feasible(board), _too_few_captures(fates_key(board, {}, {}, {})),\n"
        "      'pandas' in sys.modules, 'ortools.sat.python.cp_model' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "False", "False", "False"]

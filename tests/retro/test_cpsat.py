"""The CP-SAT model writer and its two solving ways (:mod:`retro.core.cpsat`): the written
proto is the one OR-Tools' own builder makes by the same calls, and the compiled helper
answers as ``cp_model.CpSolver`` does, on the pawn-fates and extended-kernel models of the
dev positions and texel's cases."""

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
PARAMETERS: cpsat.Parameters = {"max_time_in_seconds": 10.0, "num_workers": 1, "cp_model_presolve": False}


def _dev_keys(per_label: int | None = None) -> list[tuple]:
    """The pawn-fates keys of the dev positions, or of the first ``per_label`` legal and
    illegal ones."""
    rows = [json.loads(line) for line in DEV.read_text().splitlines()]
    if per_label is not None:
        rows = [row for row in rows if row["legal"]][:per_label] + [row for row in rows if not row["legal"]][:per_label]
    return [fates_key(chess.Board(row["fen"]), {}, {}, {}) for row in rows]


def _cp_model_status(key: tuple, files: bool) -> tuple[int, str] | None:
    """The status and the proto of the same model built by OR-Tools' ``cp_model.CpModel``."""
    from ortools.sat.python import cp_model

    model = build_model(key, files=files, factory=cp_model.CpModel)  # type: ignore[arg-type]
    if model is None:
        return None
    solver = cp_model.CpSolver()
    for name, value in PARAMETERS.items():
        setattr(solver.parameters, name, value)
    return int(solver.solve(model)), str(model.proto)  # type: ignore[arg-type, attr-defined]


def _verdict(status: int | None) -> bool | None:
    """Feasible (True), infeasible (False) or unknown (None)."""
    return {cpsat.FEASIBLE: True, cpsat.OPTIMAL: True, cpsat.INFEASIBLE: False}.get(status or 0)


def _compare(keys: list[tuple]) -> tuple[int, set[int]]:
    """Per model: the written proto is OR-Tools' own, and the three solves agree."""
    from ortools.sat.python import cp_model_helper as cmh

    compared, statuses = 0, set()
    for key in keys:
        for files in (False, True):
            model = build_model(key, files=files)
            theirs = _cp_model_status(key, files)
            assert (model is None) == (theirs is None)
            if model is None:
                continue
            text = model.proto_text()
            parsed = cmh.CpModelProto()
            assert theirs is not None and parsed.parse_text_format(text) and str(parsed) == theirs[1]
            native = cpsat.solve_native(text, PARAMETERS).status
            documented = cpsat.solve_cp_model(text, PARAMETERS).status
            assert _verdict(native) == _verdict(documented) == _verdict(theirs[0])
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
    return cpsat.solve_native(text, PARAMETERS).status, cpsat.solve_cp_model(text, PARAMETERS).status


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


def _extended_cases():
    """(kernel, init, goal, blocked) of texel's complete extended-kernel cases and of the
    kernels that the legality check extends on the first legal and illegal dev rows."""
    from proofkernel import extended
    from retro.legality import find_kernel
    from tests.proofkernel.test_extended import _complete_texel_kernels

    cases = [(kernel, init, goal, blocked) for _case, init, goal, kernel, blocked in _complete_texel_kernels()]
    seen = []
    original = extended.extend_kernel

    def spy(kernel, init, goal, blocked, **options):
        seen.append((kernel, init, goal, blocked))
        return original(kernel, init, goal, blocked, **options)

    extended.extend_kernel = spy  # type: ignore[assignment]
    try:
        rows = [json.loads(line) for line in DEV.read_text().splitlines()]
        for row in rows[:12]:
            find_kernel(chess.Board(row["fen"]), time_limit=10.0)
    finally:
        extended.extend_kernel = original
    return cases + seen


@pytest.mark.slow
def test_extended_kernel_models_are_cp_model_protos_and_solve_alike() -> None:
    """Each extended-kernel model written here is the proto ``cp_model.CpModel`` builds
    by the same calls, with and without the late-pawn objective; both ways solve it alike."""
    from ortools.sat.python import cp_model
    from ortools.sat.python import cp_model_helper as cmh

    from proofkernel.extended import build_model as build_extended
    from proofkernel.extended import late_pawn_objective

    compared, statuses = 0, set()
    for kernel, init, goal, blocked in _extended_cases():
        for shuffle in (None, 0, 1, 2):
            ours = build_extended(kernel, init, goal, blocked)
            theirs = build_extended(kernel, init, goal, blocked, factory=cp_model.CpModel)  # type: ignore[arg-type]
            if shuffle is not None:
                late_pawn_objective(ours, init, shuffle)
                late_pawn_objective(theirs, init, shuffle)
            parsed = cmh.CpModelProto()
            text = ours.model.proto_text()
            assert parsed.parse_text_format(text)
            assert str(parsed) == str(theirs.model.proto)  # type: ignore[attr-defined]
            parameters = {"max_time_in_seconds": 10.0, "num_workers": 1}
            native, documented = cpsat.solve_native(text, parameters), cpsat.solve_cp_model(text, parameters)
            assert native.status == documented.status and native.values == documented.values
            statuses.add(native.status)
            compared += 1
    assert compared >= 40 and {cpsat.INFEASIBLE, cpsat.OPTIMAL} <= statuses

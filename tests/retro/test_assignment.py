"""The pure-Python least assignment of the static rules and the SPG bounds, and what ``retro spg`` loads."""

from __future__ import annotations

import random
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linear_sum_assignment

from retro.core.assignment import RowChange, least_assignment, least_assignment_dual, min_cost_assignment


def _scipy_least(cost: list[list[int]]) -> int:
    array = np.array(cost, dtype=np.int64)
    rows, columns = linear_sum_assignment(array)
    return int(array[rows, columns].sum())


def test_row_minima_in_one_column_need_the_augmenting_step() -> None:
    # both rows' minimum is column 0; the best is 1 + 2 (row 0 -> column 0 costs 1 + 5)
    assert least_assignment([[1, 5], [0, 2]]) == 3
    assert least_assignment([[0, 7, 7], [0, 1, 7], [0, 7, 2]]) == 3
    assert least_assignment([]) == 0


@pytest.mark.parametrize("seed", range(4))
def test_agrees_with_scipy_on_random_matrices(seed: int) -> None:
    """The bounds' matrices: small costs and a large 'forbidden' entry, sizes up to 16."""
    rng = random.Random(seed)
    for _ in range(500):
        n = rng.randint(1, 16)
        big = rng.choice([10_000, 6])
        cost = [[rng.choice([rng.randint(0, 9), rng.randint(0, 3), big]) for _ in range(n)] for _ in range(n)]
        assert least_assignment(cost) == _scipy_least(cost), cost


def test_retro_spg_loads_neither_numpy_nor_scipy() -> None:
    """Start-up: a search with the assignment bound runs on the pure-Python solver."""
    out = subprocess.run(
        [
            sys.executable,
            "-X",
            "importtime",
            "-m",
            "retro.cli",
            "spg",
            "rnbqk2r/1ppppp1p/8/p7/4n3/2b2N2/PPPPP1PP/RNBQKB1R",
            "10",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert ": unique" in out.stdout.splitlines()[0], out.stdout
    imported = {line.split("|")[-1].strip() for line in out.stderr.splitlines() if line.startswith("import time:")}
    assert "retro.spg.bounds" in imported
    assert not imported & {"numpy", "scipy", "ortools", "numba"}


@pytest.mark.parametrize("seed", range(2))
def test_row_change_decides_as_a_full_solve(seed: int) -> None:
    """RowChange.within (bounds from the base optimum, else a solve) = solving the changed matrix."""
    rng = random.Random(100 + seed)
    for _ in range(300):
        n = rng.randint(1, 14)
        cost = [[rng.choice([rng.randint(0, 9), 10_000]) for _ in range(n)] for _ in range(n)]
        change = RowChange(cost)
        assert change.total == _scipy_least(cost)
        for _ in range(4):
            i, row = rng.randrange(n), [rng.choice([rng.randint(0, 9), 10_000]) for _ in range(n)]
            changed = cost[:i] + [row] + cost[i + 1 :]
            least = _scipy_least(changed)
            for limit in (least - 1, least, least + 1, change.total):
                assert change.within(i, row, limit) == (least <= limit)


@pytest.mark.parametrize("seed", range(3))
def test_the_dual_bounds_every_matrix_with_two_rows_replaced(seed: int) -> None:
    """least_assignment_dual: the total is the optimum, the dual is feasible, and with two
    rows replaced its bound is at most the new optimum (the castling options of the spg
    assignment are skipped on it), and equal to it when the rows are not changed."""
    rng = random.Random(300 + seed)
    for _ in range(300):
        n = rng.randint(2, 14)
        cost = [[rng.choice([rng.randint(0, 9), 10_000]) for _ in range(n)] for _ in range(n)]
        total, u, v = least_assignment_dual(cost)
        assert total == _scipy_least(cost) == sum(u) + sum(v)
        assert all(cost[i][j] >= u[i] + v[j] for i in range(n) for j in range(n))
        i, k = rng.sample(range(n), 2)
        for rows in ((cost[i], cost[k]), ([rng.randint(0, 12) for _ in range(n)] for _ in range(2))):
            row_i, row_k = rows
            changed = list(cost)
            changed[i], changed[k] = row_i, row_k
            low = (
                total
                - u[i]
                - u[k]
                + min(x - v[j] for j, x in enumerate(row_i))
                + min(x - v[j] for j, x in enumerate(row_k))
            )
            assert low <= _scipy_least(changed)
            if row_i is cost[i] and row_k is cost[k]:
                assert low == total


@pytest.mark.parametrize("seed", range(2))
def test_rectangular_matrices_agree_with_scipy(seed: int) -> None:
    """The static rules' matrices: fewer rows than columns, 10,000 for a forbidden pair."""
    rng = random.Random(200 + seed)
    for _ in range(300):
        columns = rng.randint(1, 15)
        rows = rng.randint(0, columns)
        cost = [[rng.choice([rng.randint(0, 6), 10_000]) for _ in range(columns)] for _ in range(rows)]
        assert min_cost_assignment(cost) == (_scipy_least(cost) if rows else 0), cost


def test_more_rows_than_columns_is_an_error() -> None:
    with pytest.raises(ValueError, match="2 rows cannot get distinct columns among 1"):
        min_cost_assignment([[0], [1]])


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 8).flatmap(
        lambda rows: st.lists(
            st.lists(st.sampled_from([0, 1, 2, 3, 5, 7, 10_000]), min_size=8, max_size=8), min_size=rows, max_size=rows
        )
    )
)
def test_rectangular_agrees_with_scipy(cost: list[list[int]]) -> None:
    """``min_pawn_captures``' matrices: up to 8 rows (pawns and promoted pieces) of 8
    columns (the original pawns' files), 10,000 for an impossible pair."""
    matrix = np.array(cost)
    rows, columns = linear_sum_assignment(matrix)
    assert min_cost_assignment(cost) == int(matrix[rows, columns].sum())

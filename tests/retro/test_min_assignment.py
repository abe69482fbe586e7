"""The exact assignment of :func:`retro.core.rules._min_assignment` equals SciPy's
``linear_sum_assignment`` (which it replaces to keep SciPy out of ``retro check``)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linear_sum_assignment

from retro.core.rules import _min_assignment


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 8).flatmap(
        lambda rows: st.lists(
            st.lists(st.sampled_from([0, 1, 2, 3, 5, 7, 10_000]), min_size=8, max_size=8), min_size=rows, max_size=rows
        )
    )
)
def test_equals_scipy(cost: list[list[int]]) -> None:
    matrix = np.array(cost)
    rows, cols = linear_sum_assignment(matrix)
    assert _min_assignment(tuple(map(tuple, cost))) == int(matrix[rows, cols].sum())

"""retro.core.lsap: SciPy's assignment solver loaded without ``scipy.optimize``."""

from __future__ import annotations

import random
import subprocess
import sys

import numpy as np

from retro.core import lsap


def test_same_assignments_as_the_public_function() -> None:
    """Rectangular matrices with many ties (small integer costs): the very same rows and
    columns as ``scipy.optimize.linear_sum_assignment``, not only the same total."""
    from scipy.optimize import linear_sum_assignment

    rng = random.Random(7)
    for _ in range(300):
        rows = rng.randint(1, 8)
        columns = rng.randint(rows, 10)
        cost = np.array([[rng.choice((0, 1, 2, 3, 10_000)) for _ in range(columns)] for _ in range(rows)])
        mine, public = lsap.linear_sum_assignment(cost), linear_sum_assignment(cost)
        assert mine[0].tolist() == public[0].tolist() and mine[1].tolist() == public[1].tolist()


def test_a_proof_game_search_does_not_import_scipy_optimize() -> None:
    """Start-up: a search (1.e4 d5, proved by the A* with both heuristics' assignments)
    loads the compiled solver only, not ``scipy.optimize`` (about 0.45 s of imports)."""
    fen = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2"
    out = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "retro.cli", "proofgame", fen],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.stdout.startswith("legal: ")
    imported = {line.split("|")[-1].strip() for line in out.stderr.splitlines() if line.startswith("import time:")}
    assert "astar.heuristic" in imported
    if lsap.loaded_privately():
        assert "scipy.optimize" not in imported
        assert "scipy" not in imported  # nor SciPy's __init__ (its test utilities, Cython)

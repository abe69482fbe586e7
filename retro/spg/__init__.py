"""Shortest proof games: every game of exactly N plies that reaches a diagram.

One concept per module: :mod:`~retro.spg.problem` (the diagram, N and what "reach"
means), :mod:`~retro.spg.frozen` (units that never move), :mod:`~retro.spg.parity`
(tempo parity of knights), :mod:`~retro.spg.bounds` (per-side lower bounds on the moves
left, the least assignment of units to goal squares among them, solved by
:mod:`retro.core.assignment`), :mod:`~retro.spg.routes`
(the squares each piece type can stand on), :mod:`~retro.spg.solo` (one side's moves
alone), :mod:`~retro.spg.captures` (captures and quiet arrivals), :mod:`~retro.spg.passing` (pawns
that must pass each other on a file), :mod:`~retro.spg.stuck` (captures of units that
can no longer move), :mod:`~retro.spg.search` (exact-length
search with a counting transposition table), :mod:`~retro.spg.solve` (root rules,
search, replay), :mod:`~retro.spg.verdict` (the answer), :mod:`~retro.spg.shortest`
(the shortest proof game of a position).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from retro.spg.problem import SpgProblem, parse_problem
    from retro.spg.verdict import SpgVerdict

__all__ = ["SpgProblem", "SpgVerdict", "parse_problem"]

# The solver is :func:`retro.spg.solve.solve` (a package attribute ``solve`` would be the
# submodule or the function depending on what was imported first).
_HOME = {"SpgProblem": "problem", "parse_problem": "problem", "SpgVerdict": "verdict"}


def __getattr__(name: str) -> Any:
    """The package's names, imported on first use: a module of the package (``frozen``,
    ``parity``, which the legality pipeline reads) loads without the search and SciPy."""
    if name in _HOME:
        import importlib

        return getattr(importlib.import_module(f"retro.spg.{_HOME[name]}"), name)
    raise AttributeError(f"module 'retro.spg' has no attribute {name!r}")

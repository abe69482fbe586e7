"""Shortest proof games: every game of exactly N plies that reaches a diagram.

One concept per module: :mod:`~retro.spg.problem` (the diagram, N and what "reach"
means), :mod:`~retro.spg.frozen` (units that never move), :mod:`~retro.spg.parity`
(tempo parity of knights), :mod:`~retro.spg.bounds` (per-side lower bounds on the moves
left, the least assignment of units to goal squares among them), :mod:`~retro.spg.routes`
(the squares each piece type can stand on), :mod:`~retro.spg.search` (exact-length
search with a counting transposition table), :mod:`~retro.spg.solve` (root rules,
search, replay), :mod:`~retro.spg.verdict` (the answer), :mod:`~retro.spg.shortest`
(the shortest proof game of a position).
"""

from __future__ import annotations

from retro.spg.problem import SpgProblem, parse_problem
from retro.spg.solve import solve
from retro.spg.verdict import SpgVerdict

__all__ = ["SpgProblem", "SpgVerdict", "parse_problem", "solve"]

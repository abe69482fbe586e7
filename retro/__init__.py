"""retro: a workbench for chess retrograde analysis and legality proving.

Shared primitives live in this package (:mod:`retro.position`, :mod:`retro.rules`,
:mod:`retro.revmoves`, ...); the orchestrating modules (legality pipeline, last-move
solver, unwinnability, estimation, KRK) build on them and on the sibling packages
``proofkernel``, ``astar`` and ``cages``. The command-line tool is :mod:`retro.cli`.
"""

__version__ = "0.1.0"

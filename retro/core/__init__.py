"""The chess primitives every other part of retro builds on, over python-chess.

:mod:`~retro.core.position` (parsing positions, with errors a user understands),
:mod:`~retro.core.attacks` (attack masks), :mod:`~retro.core.status` (the verdict
statuses), :mod:`~retro.core.revmoves` (the reverse move generator),
:mod:`~retro.core.rules` (the static illegality rules), :mod:`~retro.core.pawn_fates`
(the fates of the sixteen original pawns) and :mod:`~retro.core.assignment` (minimum
cost assignment). They import nothing else of retro, ``proofkernel``, ``astar`` or
``cages``: the layers are, from the bottom, ``retro.core``, ``proofkernel``, ``astar``,
``cages``, the pipelines of ``retro`` (legality, proof games, last moves,
unwinnability, SPG, KRK, estimation), ``retro.api``, and the doors (``retro.cli``,
``retro.commands``, ``retro.server``); the import-linter contract in
``pyproject.toml`` checks it (``make lint``).
"""

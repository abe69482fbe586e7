"""Last-move and retraction problems ("what were the last N moves?").

:func:`retro.lastmove.solver.solve` enumerates retraction sequences and keeps those
whose every position survives the sound filters (static rules, the legality pipeline
within a budget, known cages, retro-stalemate, and optionally dead reckoning);
:mod:`retro.lastmove.notation` writes the moves as composers do.
"""

from retro.lastmove.notation import forward_notation, move_type

__all__ = ["forward_notation", "move_type"]

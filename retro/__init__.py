"""retro: a workbench for chess retrograde analysis and legality proving.

The Python API (:mod:`retro.api`, exposed here lazily so that ``import retro`` stays
fast)::

    >>> import retro
    >>> print(retro.check("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNB w Qkq - 0 1").status)
    illegal

``check``, ``prove``, ``last_moves``, ``winnability``, ``is_dead``, ``verify_cage``,
``retractions`` and ``shortest_proof_games`` return the frozen verdict dataclasses; budgets
(``max_nodes``, ``time_limit``) are keyword-only. No API function has the name of a
submodule, so ``retro.NAME`` means one thing whatever has been imported. Shared primitives live in this package
(:mod:`retro.core.position`, :mod:`retro.core.rules`, :mod:`retro.core.revmoves`, ...); the
orchestrating modules build on them and on the sibling packages ``proofkernel``,
``astar`` and ``cages``. The command-line tool is :mod:`retro.cli`.
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"

__all__ = [
    "check",
    "prove",
    "last_moves",
    "winnability",
    "is_dead",
    "verify_cage",
    "retractions",
    "shortest_proof_games",
]


def __getattr__(name: str) -> Any:
    """The API functions, imported from :mod:`retro.api` on first use."""
    if name in __all__:
        from retro import api

        return getattr(api, name)
    raise AttributeError(f"module 'retro' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])

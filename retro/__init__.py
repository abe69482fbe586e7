"""retro: a workbench for chess retrograde analysis and legality proving.

The Python API (:mod:`retro.api`, exposed here lazily so that ``import retro`` stays
fast)::

    >>> import retro
    >>> print(retro.check("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNB w Qkq - 0 1").status)
    illegal

``check``, ``prove``, ``last_moves``, ``unwinnable``, ``is_dead``, ``verify_cage`` and
``revmoves`` return the frozen verdict dataclasses; budgets (``max_nodes``,
``time_limit``) are keyword-only. Shared primitives live in this package
(:mod:`retro.position`, :mod:`retro.rules`, :mod:`retro.revmoves`, ...); the
orchestrating modules build on them and on the sibling packages ``proofkernel``,
``astar`` and ``cages``. The command-line tool is :mod:`retro.cli`.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
import types
from collections.abc import Sequence
from typing import Any

__version__ = "0.1.0"

__all__ = ["check", "prove", "last_moves", "unwinnable", "is_dead", "verify_cage", "revmoves"]


def __getattr__(name: str) -> Any:
    """The API functions, imported from :mod:`retro.api` on first use."""
    if name in __all__:
        from retro import api

        return getattr(api, name)
    raise AttributeError(f"module 'retro' has no attribute {name!r}")


# ``retro.unwinnable`` and ``retro.revmoves`` are also submodules, and importing a submodule
# makes it the package's attribute of that name. So those two modules are made callable:
# calling one calls the API function of its name (``retro.revmoves(fen)``), while
# ``retro.revmoves.retractions`` and ``from retro.unwinnable import analyze`` keep working.
_CALLABLE_MODULES = {"retro.unwinnable", "retro.revmoves"}


class _ApiModule(types.ModuleType):
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        from retro import api

        return getattr(api, self.__name__.rpartition(".")[2])(*args, **kwargs)


class _ApiModuleLoader(importlib.abc.Loader):
    def __init__(self, loader: importlib.abc.Loader) -> None:
        self.loader = loader

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType | None:
        return self.loader.create_module(spec)

    def exec_module(self, module: types.ModuleType) -> None:
        module.__class__ = _ApiModule
        self.loader.exec_module(module)


class _ApiModuleFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, name: str, path: Sequence[str] | None, target: types.ModuleType | None = None
                  ) -> importlib.machinery.ModuleSpec | None:
        if name not in _CALLABLE_MODULES:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is not None and spec.loader is not None:
            spec.loader = _ApiModuleLoader(spec.loader)
        return spec


sys.meta_path.insert(0, _ApiModuleFinder())


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])

"""Modules of the package that are also API functions of the same name.

``retro.unwinnable`` and ``retro.revmoves`` are submodules and, in :mod:`retro.api`,
functions of the Python API. Importing a submodule makes it the package's attribute of
that name, hiding the function; so each of these two modules makes itself callable:
calling it calls the API function of its name (``retro.revmoves(fen)``), while
``retro.revmoves.retractions`` and ``from retro.unwinnable import analyze`` keep working.
Replacing a module's ``__class__`` with a :class:`types.ModuleType` subclass is the
language's documented way to customise a module (the Python reference, "Customizing
module attribute access").
"""

from __future__ import annotations

import sys
import types
from typing import Any

__all__ = ["make_callable"]


class _ApiModule(types.ModuleType):
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        from retro import api

        return getattr(api, self.__name__.rpartition(".")[2])(*args, **kwargs)


def make_callable(module_name: str) -> None:
    """Make the module ``module_name`` (already in ``sys.modules``) call the API function
    of its last name component."""
    sys.modules[module_name].__class__ = _ApiModule

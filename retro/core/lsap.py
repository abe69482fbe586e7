"""SciPy's ``linear_sum_assignment`` without the import of ``scipy.optimize``.

``scipy.optimize`` (whose ``__init__`` pulls in ``scipy.linalg``, the linear programs,
the FFT, ``scipy.special`` ...) costs about 0.45 s to import on an idle core, more than
the proof-game search takes on many positions; the solver itself is the compiled module
``scipy/optimize/_lsap*.so`` (``scipy.optimize`` exports exactly its
``linear_sum_assignment``: ``from ._lsap import linear_sum_assignment``), which needs
only NumPy. :func:`linear_sum_assignment` loads that file on first use, by itself (an
extension module does not need its package initialised: SciPy's directory is found
with ``importlib.util.find_spec``, without importing ``scipy``, whose ``__init__``
loads its test utilities and Cython), and falls back to the public
``scipy.optimize.linear_sum_assignment`` when it is missing or fails to load (a SciPy
whose layout differs). Either way the same compiled function solves the problem, so the
assignments (and every search that reads them) are those of the public function.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

__all__ = ["linear_sum_assignment", "loaded_privately"]

_NAME = "scipy.optimize._lsap"


def linear_sum_assignment(cost: Any) -> Any:
    """``scipy.optimize.linear_sum_assignment(cost)``: (rows, columns) of a least-cost
    assignment of the rows of the 2-D array ``cost`` to distinct columns."""
    return _solver()(cost)


def loaded_privately() -> bool:
    """True when the solver came from the compiled file itself, without ``scipy.optimize``."""
    return _compiled() is not None


@cache
def _solver() -> Callable[[Any], Any]:
    module = _compiled()
    if module is None:
        return _public_solver()
    solver: Callable[[Any], Any] = module.linear_sum_assignment
    return solver


@cache
def _compiled() -> Any:
    """The module ``scipy.optimize._lsap`` loaded from its file, without importing
    ``scipy`` or registering it in ``sys.modules`` (``import scipy.optimize`` later loads
    its own); None when SciPy has no such compiled file or it does not load."""
    if _NAME in sys.modules:
        return sys.modules[_NAME]
    try:
        spec = importlib.util.find_spec("scipy")  # where SciPy is, without running its __init__
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    directory = Path(next(iter(spec.submodule_search_locations))) / "optimize"
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = directory / f"_lsap{suffix}"
        if not path.is_file():
            continue
        try:
            loader = importlib.machinery.ExtensionFileLoader(_NAME, str(path))
            spec = importlib.util.spec_from_file_location(_NAME, path, loader=loader)
            if spec is None:
                return None
            module = importlib.util.module_from_spec(spec)
            loader.exec_module(module)
        except (ImportError, OSError):
            return None
        return module if callable(getattr(module, "linear_sum_assignment", None)) else None
    return None


@cache
def _public_solver() -> Callable[[Any], Any]:
    """The public function (imports ``scipy.optimize``)."""
    from scipy.optimize import linear_sum_assignment as solver

    return solver

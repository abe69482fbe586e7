"""The Python API (:mod:`retro.api`): the README's examples as doctests, keyword-only
budgets, frozen verdicts, and ``import retro`` importing no search library."""

from __future__ import annotations

import dataclasses
import doctest
import subprocess
import sys
from pathlib import Path

import pytest

import retro

README = Path(__file__).resolve().parents[2] / "README.md"


def test_readme_examples_run_as_doctests() -> None:
    result = doctest.testfile(str(README), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 10 and result.failed == 0


def test_budgets_are_keyword_only_and_verdicts_frozen() -> None:
    with pytest.raises(TypeError):
        retro.prove("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", 1000)
    with pytest.raises(TypeError):
        retro.is_dead("4k3/8/8/8/8/8/8/4K3 w - - 0 1", 1000)
    verdict = retro.is_dead("4k3/8/8/8/8/8/8/4K3 w - - 0 1", max_nodes=1000)
    assert verdict.status == "dead"
    with pytest.raises(dataclasses.FrozenInstanceError):
        verdict.status = "alive"


def test_bad_input_raises_a_value_error_with_a_message() -> None:
    with pytest.raises(ValueError, match="invalid position"):
        retro.is_dead("rnbqkbnr/pppppppp/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w - -")
    with pytest.raises(ValueError, match="4 to 6 fields"):
        retro.check("not a fen")
    with pytest.raises(ValueError, match="white' or 'black"):
        retro.winnability("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "red")


def test_no_api_function_is_named_after_a_submodule() -> None:
    """``retro.NAME`` means one thing whatever has been imported: no API function shares
    its name with a module or package of ``retro``."""
    import pkgutil

    import retro.core.revmoves
    import retro.unwinnable

    submodules = {module.name for module in pkgutil.iter_modules(retro.__path__)}
    assert set(retro.__all__).isdisjoint(submodules)
    assert retro.retractions("4k3/8/8/8/8/8/8/4K3 w - - 0 1").status == "found"
    assert retro.winnability("4k3/8/8/8/8/8/8/4K3 w - - 0 1").status == "unwinnable"
    assert retro.unwinnable.analyze is not None and retro.core.revmoves.retractions is not None


def test_import_retro_is_light() -> None:
    code = (
        "import sys, retro\nprint(sorted({m.split('.')[0] for m in sys.modules} & {'chess', 'scipy', 'ortools', "
        "'numpy', 'networkx', 'tqdm'}))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"

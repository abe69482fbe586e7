"""``retro serve`` refuses bad options with one line and exit code 2, before it starts anything."""

from __future__ import annotations

import pytest

from retro.cli import main


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--workers", "0"], "retro serve: error: --workers must be at least 1"),
        (["--port", "0"], "retro serve: error: --port must be at least 1"),
        (["--max-time", "0"], "retro serve: error: --queue must be at least 0 and --max-time positive"),
        (["--cages", "/nonexistent/cages.txt"], "retro serve: error: no cage library at /nonexistent/cages.txt"),
    ],
)
def test_bad_options(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", *argv]) == 2
    assert capsys.readouterr().err == message + "\n"

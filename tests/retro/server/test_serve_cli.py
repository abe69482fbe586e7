"""``retro serve`` refuses bad options, hosts and ports with one line and exit code 2, and
announces the workbench only once it listens."""

from __future__ import annotations

import os
import socket
import subprocess
import sys

import pytest

from retro.cli import main
from tests.retro.server.conftest import ROOT


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--workers", "0"], "retro serve: error: --workers must be at least 1"),
        (["--port", "0"], "retro serve: error: --port must be from 1 to 65535, got 0"),
        (["--port", "99999"], "retro serve: error: --port must be from 1 to 65535, got 99999"),
        (["--max-time", "0"], "retro serve: error: --queue must be at least 0 and --max-time positive"),
        (["--cages", "/nonexistent/cages.txt"], "retro serve: error: no cage library at /nonexistent/cages.txt"),
        (
            ["--host", "nosuch.invalid"],
            "retro serve: error: cannot listen on nosuch.invalid:8000: unknown host (Name or service not known)",
        ),
        (
            ["--host", "192.0.2.1"],  # TEST-NET-1: not an address of this machine
            "retro serve: error: cannot listen on 192.0.2.1:8000: cannot assign requested address",
        ),
    ],
)
def test_bad_options(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", *argv]) == 2
    captured = capsys.readouterr()
    assert captured.err == message + "\n" and captured.out == ""


def test_busy_port_is_one_line_and_exit_2_with_no_announcement() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        result = subprocess.run(
            [sys.executable, "-m", "retro.cli", "serve", "--port", str(port), "--workers", "1"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == f"retro serve: error: cannot listen on 127.0.0.1:{port}: address already in use\n"

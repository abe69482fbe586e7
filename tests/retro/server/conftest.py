"""A real ``retro serve`` on a free loopback port, for the browser test and the README's curl examples."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import pytest

ROOT = Path(__file__).resolve().parents[3]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def running_server(*options: str, workers: int = 2, stderr: IO[bytes] | int = subprocess.PIPE) -> Iterator[str]:
    """Start ``retro serve`` on a free loopback port (with ``options``) and yield its base URL
    once every worker is ready; stop it on exit."""
    port = _free_port()
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    process = subprocess.Popen(
        [sys.executable, "-m", "retro.cli", "serve", "--port", str(port), "--workers", str(workers), *options],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=stderr,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                pytest.fail(f"retro serve exited: {process.stderr.read().decode() if process.stderr else ''}")
            try:
                with urllib.request.urlopen(f"{url}/api/v1/status", timeout=2) as response:
                    if json.load(response)["pool"]["ready"] == workers:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail("retro serve did not get ready within 60 s")
            time.sleep(0.2)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="module")
def live_server() -> Iterator[str]:
    """``retro serve`` with its default options (two workers, the README's settings)."""
    with running_server() as url:
        yield url

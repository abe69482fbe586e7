"""Every ``curl`` example of the README's ``retro serve`` section, run against a live server.

Each example is a ``$ curl ...`` line followed by the response the README shows; the
test runs the line (with the live server's address) and compares the JSON it prints with
the README's, leaving out what differs from run to run: timings, job ids, the pool's
momentary counts and progress lines.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

README = Path(__file__).resolve().parents[3] / "README.md"
VARYING = {"seconds", "elapsed", "id", "pool", "progress"}
JOB_ID = re.compile(r"[0-9a-f]{32}")


def _examples() -> list[tuple[str, str]]:
    text = README.read_text(encoding="utf-8")
    section = text[text.index("### `retro serve`") : text.index("## Layout")]
    lines = section.splitlines()
    return [(line[2:], lines[i + 1]) for i, line in enumerate(lines) if line.startswith("$ curl ")]


def _stable(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _stable(item) for key, item in value.items() if key not in VARYING}
    if isinstance(value, list):
        return [_stable(item) for item in value]
    return value


def _run(command: str, url: str) -> Any:
    argv = [arg.replace("localhost:8000", url) for arg in shlex.split(command)]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=True)
    return json.loads(done.stdout)


def test_the_readme_has_an_example_for_each_endpoint() -> None:
    commands = " ".join(command for command, _ in _examples())
    for path in (
        "check",
        "revmoves",
        "proofgame",
        "lastmove",
        "cage",
        "unwinnable",
        "dead",
        "dead/batch",
        "jobs",
        "replay",
        "retract",
        "unmove",
        "spg",
        "status",
    ):
        assert f"localhost:8000/api/v1/{path}" in commands, path
    assert "-X DELETE localhost:8000/api/v1/jobs/" in commands


@pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed")
def test_readme_curl_examples(live_server: str) -> None:
    job_id = None
    for command, shown in _examples():
        expected = json.loads(shown)
        if job_id is not None:
            command = JOB_ID.sub(job_id, command)
        answer = _run(command, live_server)
        deadline = time.monotonic() + 30
        while command.startswith("curl -s localhost:8000/api/v1/jobs/") and answer["state"] != expected["state"]:
            assert answer["state"] in ("queued", "running") and time.monotonic() < deadline, answer
            time.sleep(0.1)
            answer = _run(command, live_server)
        assert _stable(answer) == _stable(expected), command
        if isinstance(answer, dict) and "/api/v1/jobs" in command and "id" in answer:
            job_id = answer["id"]


def test_readme_pgn_adjudication_example(live_server: str) -> None:
    """The README's Python example (final positions of a PGN's games to ``dead/batch``) prints what it shows."""
    text = README.read_text(encoding="utf-8")
    section = text[text.index("**Dead position adjudication as a service.**") : text.index("**Load.**")]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    shown = section.split("prints\n\n```\n", 1)[1].split("```", 1)[0]
    done = subprocess.run(
        [sys.executable, "-c", code.replace("http://127.0.0.1:8000", live_server)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert done.stdout == shown

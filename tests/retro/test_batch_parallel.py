"""The parallel driver of batch mode (``run_batch`` with ``jobs > 1``): every line gets one
record, in input order, whatever the order in which the workers finish; a worker that dies
gives its line an error record and the others go on."""

from __future__ import annotations

import os
import signal
import time
from typing import Any

from retro.batch import BadLine, InputLine, run_batch
from retro.core.status import ERROR


def _square(line: str) -> dict[str, Any]:
    """Sleeps longer on small numbers, so the later lines finish first."""
    number = int(line)  # a ValueError for a bad line: an error record
    time.sleep(0.002 * (number % 7))
    return {"status": "ok", "value": number * number, "pid": os.getpid()}


def _die_on_13(line: str) -> dict[str, Any]:
    if line == "13":
        os.kill(os.getpid(), signal.SIGKILL)  # the worker process is killed mid-line
    return {"status": "ok", "value": int(line)}


def test_records_come_in_input_order_from_several_processes() -> None:
    lines: list[InputLine] = [str(n) for n in range(60)]
    records = list(run_batch(_square, lines, jobs=3))
    assert [record["value"] for record in records] == [n * n for n in range(60)]
    assert len({record["pid"] for record in records}) > 1  # the work was shared
    assert os.getpid() not in {record["pid"] for record in records}


def test_bad_lines_get_error_records_in_place() -> None:
    lines: list[InputLine] = ["1", "x", BadLine("", "line 3 is blank", blank=True), "4"]
    records = list(run_batch(_square, lines, jobs=2))
    assert [record["status"] for record in records] == ["ok", ERROR, ERROR, "ok"]
    assert records[2]["error"] == "line 3 is blank"
    assert records[3]["value"] == 16


def test_a_killed_worker_costs_only_its_line() -> None:
    lines: list[InputLine] = [str(n) for n in range(30)]
    records = list(run_batch(_die_on_13, lines, jobs=2))
    assert len(records) == 30
    assert records[13]["status"] == ERROR and "worker process died" in records[13]["error"]
    assert [record["value"] for i, record in enumerate(records) if i != 13] == [n for n in range(30) if n != 13]


def test_more_processes_than_lines() -> None:
    assert [record["value"] for record in run_batch(_square, ["2", "3"], jobs=4)] == [4, 9]
    assert list(run_batch(_square, [], jobs=2)) == []

"""``retro proofkernel`` on the command line: kernels listed as found, the verdict
lines, JSON, bad input."""

from __future__ import annotations

import json

import pytest

from retro.cli import main
from retro.commands.proofkernel import kernel_record

# paper 002's listing example: texelutil proofkernel prints these two kernels
PAPER_GOAL = "rnbqkbnr/ppp2ppp/8/3P4/3p4/8/PPP2PPP/RNBQKBNR w KQkq - 0 1"
PAPER_KERNELS = {"wPe0xPd1 bPe0xPd0", "bPe1xPd0 wPe0xPd1"}
# two white a-pawns while every black unit is on the board: no capture, no kernel
DOUBLED = "rnbqkbnr/pppppppp/8/8/8/P7/P1PPPPPP/RNBQKBNR w KQkq - 0 1"


def test_lists_the_papers_kernels(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["proofkernel", PAPER_GOAL]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert PAPER_KERNELS <= set(lines)
    assert all(line.startswith(("wP", "bP", "wx", "bx")) for line in lines)  # the search was complete


def test_each_kernel_is_handed_on_as_it_is_found() -> None:
    """The single-position command prints kernel lines as the search finds them (a full
    listing can take minutes); they are the record's kernels, in order."""
    seen: list[str] = []
    record = kernel_record(
        PAPER_GOAL, init_fen=None, extended=True, max_nodes=2_000_000, limit=None, on_kernel=seen.append
    )
    assert seen and seen == [f"{k}  |  {e}" for k, e in zip(record["kernels"], record["extended"], strict=True)]
    assert record["complete"]


def test_no_kernel_and_budget_lines(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["proofkernel", DOUBLED]) == 0
    assert capsys.readouterr().out.splitlines() == ["no proof kernel: the position is illegal"]
    assert main(["proofkernel", "-m", "2", PAPER_GOAL]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "(stopped by the node budget: the list may be incomplete)"


def test_json_is_one_record(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["proofkernel", "--json", PAPER_GOAL]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["status"] == "found" and record["complete"] and PAPER_KERNELS <= set(record["kernels"])


def test_bad_fen_is_a_message_and_exit_code_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["proofkernel", "not a fen"]) == 2
    captured = capsys.readouterr()
    assert "FEN" in captured.err and "Traceback" not in captured.err and captured.out == ""

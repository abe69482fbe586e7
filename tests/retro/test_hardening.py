"""Issue 35's table, one test per row: each failed on the code before the fix."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import time
from pathlib import Path

import chess.pgn
import pytest

from retro.cli import main

KK = "4k3/8/8/8/8/8/8/4K3 w - - 0 1"  # bare kings: no static objection, dead
KQK = "8/8/8/4k3/8/8/8/3QK3 b - - 0 1"  # White can mate: alive


def _records(out: str) -> list[dict]:
    return [json.loads(line) for line in out.splitlines()]


def _stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))


@pytest.mark.parametrize(
    "command, statuses", [("check", ["unknown", "error", "unknown"]), ("dead", ["dead", "error", "alive"])]
)
def test_row1_undecodable_line_gets_an_error_record_and_the_others_are_decided(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, statuses: list[str]
) -> None:
    path = tmp_path / "nu.txt"
    path.write_bytes(KK.encode() + b"\n\xe9\n" + KQK.encode() + b"\n")
    assert main([command, "-f", str(path), "--json"]) == 2
    records = _records(capsys.readouterr().out)
    assert [r["status"] for r in records] == statuses
    assert "not UTF-8" in records[1]["error"] and records[1]["input"] == "\\xe9"


def test_row2_blank_line_gets_its_record_so_output_lines_up_with_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _stdin(monkeypatch, f"{KK}\n\n# a comment\n{KQK}\n".encode())
    assert main(["check", "-f", "-", "--json"]) == 2
    captured = capsys.readouterr()
    records = _records(captured.out)
    assert [r["status"] for r in records] == ["unknown", "error", "unknown"]
    assert "line 2 is blank" in records[1]["error"]
    assert "1  comment lines skipped" in captured.err


@pytest.mark.parametrize("fen", ["4k3/8/8/8/8/8/8/3KK3 w - - 0 1", "4k3/8/8/8/8/8/8/8 w - - 0 1"])
def test_row3_proofkernel_refuses_invalid_positions(capsys: pytest.CaptureFixture[str], fen: str) -> None:
    assert main(["proofkernel", fen]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "invalid position" in captured.err


@pytest.mark.slow
def test_row4_proofkernel_budgets_bound_the_work_with_progress(capsys: pytest.CaptureFixture[str]) -> None:
    fen = "k7/8/8/8/8/8/8/1QQQKQQ1 w - - 0 1"  # five promoted queens: a huge kernel space
    assert main(["proofkernel", fen, "-m", "12000", "--json", "--progress"]) == 0
    captured = capsys.readouterr()
    record = json.loads(captured.out)
    assert record["nodes"] <= 12_001 and record["stopped_by"] == "the node budget"
    assert "proofkernel: 10,000 nodes" in captured.err
    start = time.monotonic()
    assert main(["proofkernel", fen, "-m", "100000000", "-t", "1", "--json"]) == 0
    assert time.monotonic() - start < 10
    assert json.loads(capsys.readouterr().out)["stopped_by"] == "the time limit"


def test_row4_commuting_orders_listed_once(capsys: pytest.CaptureFixture[str]) -> None:
    # Black missing its queen and knights, White its e-pawn: 52 orders, 7 classes
    fen = "r1b1kb1r/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1"
    assert main(["proofkernel", fen, "--json"]) == 0
    reduced = json.loads(capsys.readouterr().out)
    assert main(["proofkernel", fen, "--json", "--all-orders"]) == 0
    every = json.loads(capsys.readouterr().out)
    assert (len(reduced["kernels"]), len(every["kernels"])) == (7, 52)


@pytest.mark.parametrize("command", ["dead", "unwinnable"])
def test_row5_dead_and_unwinnable_refuse_invalid_positions(capsys: pytest.CaptureFixture[str], command: str) -> None:
    fen = "rnbqkbnr/pppppppp/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w - -"  # 24 black units
    assert main([command, fen]) == 2
    assert "invalid position" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["dead", "unwinnable"])
def test_row5_an_illegal_but_valid_test_vector_is_still_decided(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    # A CHA test vector (data/unwinnability-dev.jsonl): White has three bishops and two rooks
    # beside six pawns, more promoted pieces than missing pawns, so no game reaches it; but it
    # is a board python-chess accepts, and unwinnability is asked of it (both sides can win).
    fen = "8/7k/6p1/5pPp/4pP1P/1p1pP1KP/1PpP3P/2B1BRBR b - -"
    assert main([command, fen, "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["status"] in ("alive", "winnable")


def test_row6_proofgame_keeps_the_move_counters_of_its_initial_position(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    start = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"  # after 1.e4 e5
    goal = "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"  # 2.Nf3
    pgn = tmp_path / "g.pgn"
    assert main(["proofgame", goal, "-i", start, "--nokernel", "-t", "20", "--pgn", str(pgn)]) == 0
    assert capsys.readouterr().out.startswith("legal")
    game = chess.pgn.read_game(io.StringIO(pgn.read_text()))
    assert game is not None
    assert game.headers["FEN"] == start and goal in game.headers["Event"]
    assert "2. Nf3" in pgn.read_text()


def test_row6_pgn_path_checked_before_the_search(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    goal = "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    assert main(["proofgame", goal, "--pgn", str(tmp_path / "missing" / "g.pgn")]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "does not exist" in captured.err


@pytest.mark.parametrize("command", ["check", "dead", "proofkernel", "proofgame", "revmoves"])
def test_row7_zero_jobs_is_refused_with_exit_2(capsys: pytest.CaptureFixture[str], command: str) -> None:
    with pytest.raises(SystemExit) as stop:
        main([command, "-j", "0", "-f", "-"])
    assert stop.value.code == 2
    assert "positive integer" in capsys.readouterr().err


def test_row8_long_input_and_control_bytes_are_cut_and_escaped(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    line = "\x00\x1b[31m" + "x" * 1_000_000
    assert main(["check", line]) == 2
    err = capsys.readouterr().err
    assert len(err) < 400 and "\x00" not in err and "\x1b" not in err and "\\x00" in err
    _stdin(monkeypatch, (line + "\n").encode())
    assert main(["check", "-f", "-", "--json"]) == 2
    out = capsys.readouterr().out
    record = json.loads(out)
    assert len(out) < 2_600 and record["status"] == "error" and "1,000,006 characters" in record["input"]
    assert "\x00" not in record["input"] and "\x00" not in record["error"]


_HEAVY = ("ortools", "scipy", "numpy", "networkx", "pandas")


@pytest.mark.parametrize("argv", [["check", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"], ["--help"]])
def test_row9_start_up_imports_no_heavy_library(argv: list[str]) -> None:
    code = (
        f"import sys\nfrom retro.cli import main\ntry:\n    main({argv!r})\nexcept SystemExit:\n    pass\n"
        f"print(sorted({{m.split('.')[0] for m in sys.modules}} & set({_HEAVY!r})))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip().splitlines()[-1] == "[]"


def test_row10_proofgame_passes_with_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "in.fen"
    illegal = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNB w Qkq - 0 1"
    legal = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    path.write_text(f"{illegal}\n{legal}\n")
    assert main(["proofgame", "-f", str(path), "-o", str(tmp_path / "out"), "--json", "-t", "10"]) == 0
    records = _records(capsys.readouterr().out)
    assert [r["status"] for r in records] == ["illegal", "legal"] and records[1]["proof"] == ["e4"]
    assert (tmp_path / "out00").read_text().splitlines()[1] == f"{legal} legal: proof: e4"


def test_row8_proofgame_passes_decided_lines_through_only_with_a_position(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    legal = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 legal: proof: e4"
    _stdin(monkeypatch, b"\x00junk legal: proof: e4\n" + legal.encode() + b"\n")
    assert main(["proofgame", "-f", "-"]) == 2
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("\\x00junk legal: proof: e4 error: ") and out[1] == legal

"""`retro check`: text, JSON, batch with a bad line, exit codes."""

import json
import subprocess
import sys

from retro.cli import main


def test_single_position_text_and_json(capsys):
    assert main(["check", "8/8/8/8/8/8/8/KRk5 w - - 0 1"]) == 0
    assert capsys.readouterr().out.startswith("illegal: the side not to move")
    assert main(["check", "--json", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["status"] == "unknown" and record["fen"].startswith("rnbqkbnr/")


def test_bad_fen_gives_one_line_and_exit_2():
    result = subprocess.run(
        [sys.executable, "-m", "retro.cli", "check", "rnbqkbnr/ppp/8 w - -"], capture_output=True, text=True
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_batch_keeps_going_after_a_bad_line_and_counts_rules(tmp_path, capsys):
    path = tmp_path / "in.fen"
    path.write_text("8/8/8/8/8/8/8/KRk5 w - - 0 1\nnot a fen\n8/8/8/8/8/8/8/K1k5 b - - 0 1\n")
    assert main(["check", "-f", str(path), "--json"]) == 2
    captured = capsys.readouterr()
    records = [json.loads(line) for line in captured.out.splitlines()]
    assert [r["status"] for r in records] == ["illegal", "error", "unknown"]
    assert records[1]["input"] == "not a fen"
    assert "1  illegal: opponent-in-check" in captured.err

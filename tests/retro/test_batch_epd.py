"""EPD lines in batch mode: the four position fields are decided, the ``id`` operation
is carried into the record (and starts the text line)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from retro.cli import main


def test_epd_id_carried_into_json_and_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "in.epd"
    path.write_text(
        'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id "start"; c0 "the start";\n'
        '8/8/8/8/8/8/8/KRk5 w - - id "opposite check";\n'
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1\n"
    )
    assert main(["check", "-f", str(path), "--json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r.get("id"), r["status"]) for r in records] == [
        ("start", "unknown"),
        ("opposite check", "illegal"),
        (None, "unknown"),
    ]
    assert records[0]["fen"] == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"
    assert main(["check", "-f", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[1].startswith("opposite check: 8/8/8/8/8/8/8/KRk5 w - - illegal")


def test_epd_id_with_other_commands_and_a_bad_operation(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "in.epd"
    path.write_text('8/8/8/4k3/8/8/8/3QK3 b - - id "KQK";\n8/8/8/4k3/8/8/8/3QK3 b - - bm Zz9;\n')
    assert main(["dead", "-f", str(path), "--json"]) == 2
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert records[0]["id"] == "KQK" and records[0]["status"] == "alive"
    assert records[1]["status"] == "error" and "bad EPD operations" in records[1]["error"]  # best move not SAN


def test_labelled_fen_lines_of_the_lichess_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``data/lichess-30k-positions.txt`` has lines ``<FEN> <game id>``: each is decided as
    its FEN, with the game id as the record's ``id``; a FEN with a non-numeric move
    counter and a label stays an error."""
    data = Path(__file__).resolve().parents[2] / "data" / "lichess-30k-positions.txt"
    lines = data.read_text().splitlines()[:3]
    path = tmp_path / "in.txt"
    path.write_text("\n".join(lines) + "\n8/8/8/4k3/8/8/8/3QK3 b - - x 1 label\n")
    assert main(["unwinnable", "-f", str(path), "--json"]) == 2
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r.get("id") for r in records[:3]] == [line.split()[6] for line in lines]
    assert [r["fen"] for r in records[:3]] == [" ".join(line.split()[:4]) for line in lines]
    assert all(r["status"] in {"winnable", "unwinnable"} for r in records[:3])
    assert records[3]["status"] == "error"

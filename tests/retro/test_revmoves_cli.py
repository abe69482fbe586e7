"""``retro revmoves`` on the command line: texel's line format, JSON, batch, errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from retro.cli import main

TEXEL_EXAMPLE = "rnbqkbnr/pppB1ppp/4p3/1Q6/4P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 1"
TEXEL_OUTPUT = [
    "c6d7 captP: Q castle: KQkq ep: -",
    "c6d7 captP: R castle: KQkq ep: -",
    "c6d7 captP: B castle: KQkq ep: -",
    "c6d7 captP: N castle: KQkq ep: -",
    "c6d7 captP: P castle: KQkq ep: -",
]


def test_text_output_is_texels(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["revmoves", TEXEL_EXAMPLE]) == 0
    assert capsys.readouterr().out.splitlines() == TEXEL_OUTPUT


def test_json_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["revmoves", "--json", TEXEL_EXAMPLE]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["fen"] == "rnbqkbnr/pppB1ppp/4p3/1Q6/4P3/8/PPPP1PPP/RNB1K1NR b KQkq -"
    assert record["status"] == "found" and record["count"] == 5
    assert record["retractions"][0] == {"move": "c6d7", "captured": "Q", "castling": "KQkq", "ep": None}
    assert [r["captured"] for r in record["retractions"]] == ["Q", "R", "B", "N", "P"]


def test_json_en_passant_and_no_predecessor(capsys: pytest.CaptureFixture[str]) -> None:
    # White pawn d6, nothing else: c5xd6 / e5xd6 e.p. (captured pawn restored on d5) or d5-d6.
    assert main(["revmoves", "--json", "4k3/8/3P4/8/8/8/8/4K3 b - - 0 1"]) == 0
    record = json.loads(capsys.readouterr().out)
    ep = [r for r in record["retractions"] if r["ep"] == "d6"]
    assert sorted(r["move"] for r in ep) == ["c5d6", "e5d6"]
    assert all(r["captured"] == "P" for r in ep)
    # White's king is attacked by the rook with Black to move: no legal predecessor.
    assert main(["revmoves", "--json", "4r1k1/8/8/8/8/8/8/4K3 b - - 0 1"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert (record["status"], record["retractions"]) == ("none", [])


def test_batch_keeps_going_after_a_bad_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    inputs = tmp_path / "fens.txt"
    inputs.write_text(
        f"{TEXEL_EXAMPLE}\n# a comment\nnot a fen\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n"
    )
    assert main(["revmoves", "--json", "-f", str(inputs)]) == 2  # one input was bad
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["status"] for r in records] == ["found", "error", "found"]
    assert records[1]["input"] == "not a fen"
    assert [r["move"] for r in records[2]["retractions"]] == ["a6b8", "c6b8", "f6g8", "h6g8"]
    assert main(["revmoves", "-f", str(inputs)]) == 2
    out = capsys.readouterr().out.splitlines()
    assert out[:6] == [
        "rnbqkbnr/pppB1ppp/4p3/1Q6/4P3/8/PPPP1PPP/RNB1K1NR b KQkq -",
        *("  " + line for line in TEXEL_OUTPUT),
    ]
    assert out[6].startswith("not a fen error: ")


@pytest.mark.parametrize(
    "fen",
    [
        "rnbqkbnr/pppB1ppp/4p3/1Q6/4P3/8/PPPP1PPP/RNB1K1N b KQkq - 0 1",  # rank of 7 files
        "rnbqkbnr/pppB1ppp/4p3/1Q6/4P3/8/PPPP1PPP/RNB1K1NR x KQkq - 0 1",  # side to move
        "8/8/8/8/8/8/8/K7 w - - 0 1",  # no black king
        "rnbqkbnr/pppB1ppp/4p3/1Q6/4P3/8/PPPP1PPP/RNB1K1NR b",  # too few fields
    ],
)
@pytest.mark.slow
def test_invalid_fen_exits_2_with_one_line(fen: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "retro.cli", "revmoves", fen], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith("retro revmoves: error: ") and len(done.stderr.strip().splitlines()) == 1

"""retro spg and retro proofgame --shortest on the command line (in process)."""

from __future__ import annotations

import json

import pytest

from retro.cli import main

TWO_GAMES = "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR"  # 1.f3 e5 2.g4 and 1.g4 e5 2.f3


def test_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["spg", TWO_GAMES, "3", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert {"fen", "status", "plies", "solutions", "cooked", "nodes", "seconds"} <= set(record)
    assert record["status"] == "solutions" and record["cooked"] is False and record["plies"] == 3
    assert sorted(record["solutions"]) == [["f3", "e5", "g4"], ["g4", "e5", "f3"]]
    assert record["fen"] == TWO_GAMES + " b"


def test_text_output_and_cap(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["spg", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "4", "--solutions", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "solutions (2 or more, cooked)" in out[0]
    assert out[1].startswith("  1. 1.")


def test_zero_plies_prints_an_empty_game_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    """The initial position in 0 plies is one game with no moves: the text says so rather
    than printing a bare move number."""
    assert main(["spg", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w", "0"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split(":")[1].split()[0] == "unique"
    assert out[1] == "  1. (no moves: the diagram is the initial position)"


def test_batch_goes_on_after_a_bad_line(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "problems.txt"
    path.write_text(f"{TWO_GAMES} 3\nnot-a-board 3\n{TWO_GAMES} x\n{TWO_GAMES} 1\n")
    assert main(["spg", "-f", str(path), "--json"]) == 2
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["status"] for r in records] == ["solutions", "error", "error", "no_solution"]
    assert records[1]["input"] == "not-a-board 3"


@pytest.mark.parametrize(
    "argv", [["spg", "nonsense", "3"], ["spg", TWO_GAMES], ["spg", TWO_GAMES, "3", "--solutions", "1"]]
)
def test_bad_input_is_one_line_and_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("retro spg: error:") and len(err.splitlines()) == 1


def test_proofgame_shortest(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["proofgame", "--shortest", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["status"] == "legal" and len(record["proof"]) == 16
    assert main(["proofgame", "--shortest", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1"]) == 0
    assert capsys.readouterr().out.startswith("illegal: tempo parity")

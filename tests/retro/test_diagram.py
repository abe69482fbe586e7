"""``--board`` and ``--svg``: the Unicode board in text output, python-chess's SVG with the
last move marked, refused in batch mode."""

from __future__ import annotations

from pathlib import Path

import pytest

from retro.cli import main
from retro.diagram import move_squares, unicode_board


def test_unicode_board_has_coordinates_and_pieces() -> None:
    import chess

    lines = unicode_board(chess.Board()).splitlines()
    assert lines[0] == "8 ♜ ♞ ♝ ♛ ♚ ♝ ♞ ♜" and lines[-1] == "  a b c d e f g h" and len(lines) == 9


def test_move_squares_reads_forward_notation() -> None:
    assert [str(move_squares(text)) for text in ("Kf5xNe5", "f4xg3ep+", "g2-g4", "e2e4")] == [
        "f5e5",
        "f4g3",
        "g2g4",
        "e2e4",
    ]
    assert move_squares("O-O") is None


def test_check_board_and_svg(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    svg = tmp_path / "c.svg"
    assert main(["check", "4k3/8/8/8/8/8/8/4K2R w K - 0 1", "--board", "--svg", str(svg)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "unknown: no static objection" and "1 · · · · ♔ · · ♖" in out
    assert svg.read_text().startswith("<svg")


def test_proofgame_shows_the_final_position_and_marks_the_last_move(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    svg = tmp_path / "p.svg"
    goal = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    assert main(["proofgame", goal, "--board", "--svg", str(svg), "-t", "20"]) == 0
    out = capsys.readouterr().out
    assert "final position of the proof game (2 plies):" in out and "5 · · · ♟ · · · ·" in out
    text = svg.read_text()
    assert 'class="square light lastmove d5"' in text and 'class="square light lastmove d7"' in text  # ...d5


def test_diagrams_refused_in_batch_mode(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dead", "-f", "-", "--board"]) == 2
    assert "cannot be combined with -f" in capsys.readouterr().err

"""The promotion-free shortcut of :func:`retro.core.pawn_fates.pawn_fates_feasible` agrees with
the CP-SAT model wherever it answers (it answers True without building the model); so does
the capture-count relaxation (it answers False without it)."""

from __future__ import annotations

import json
from pathlib import Path

import chess
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from retro.core.pawn_fates import _feasible, _promotion_free_fates, _too_few_captures, fates_key

DEV = Path(__file__).resolve().parents[2] / "data" / "cpr-923-dev.jsonl"


@st.composite
def pawn_boards(draw) -> chess.Board:
    """Kings, a few pieces and pawns on ranks 2-7 (doubled or not, facing or not), so
    that the shortcut answers in many cases and declines in many others."""
    board = chess.Board(None)
    board.set_piece_at(chess.E1, chess.Piece(chess.KING, chess.WHITE))
    board.set_piece_at(chess.E8, chess.Piece(chess.KING, chess.BLACK))
    free = [sq for sq in chess.SQUARES if sq not in (chess.E1, chess.E8)]
    for color in chess.COLORS:
        for file in draw(st.lists(st.integers(0, 7), max_size=8)):
            square = chess.square(file, draw(st.integers(1, 6)))
            if board.piece_at(square) is None:
                board.set_piece_at(square, chess.Piece(chess.PAWN, color))
        for kind in draw(st.lists(st.sampled_from([chess.QUEEN, chess.ROOK, chess.KNIGHT]), max_size=3)):
            square = draw(st.sampled_from([sq for sq in free if board.piece_at(sq) is None]))
            board.set_piece_at(square, chess.Piece(kind, color))
    return board


@settings(max_examples=300, deadline=None)
@given(pawn_boards())
@pytest.mark.slow
def test_shortcut_agrees_with_the_model(board: chess.Board) -> None:
    event("shortcut" if _promotion_free_fates(board) else "model only")
    if _promotion_free_fates(board):
        assert _feasible(fates_key(board, {}, {}, {}), 10.0, files=False) is True
        assert _feasible(fates_key(board, {}, {}, {}), 10.0, files=True) is True


def test_shortcut_answers_the_start_position_and_a_capture() -> None:
    assert _promotion_free_fates(chess.Board())
    # after 1.e4 d5 2.exd5: the e-pawn walked to d5 taking the d-pawn there
    assert _promotion_free_fates(chess.Board("rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2"))


def test_shortcut_declines_what_it_cannot_explain() -> None:
    # a white pawn on e5 above a black one on e4, and no units missing: no capture to explain it
    assert not _promotion_free_fates(chess.Board("rnbqkbnr/pppp1ppp/8/4P3/4p3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1"))
    # two white pawns on the e-file and Black complete: the capture that doubled them took nothing
    assert not _promotion_free_fates(chess.Board("rnbqkbnr/pppppppp/8/8/4P3/4P3/PPP2PPP/RNBQKBNR w KQkq - 0 1"))


@settings(max_examples=300, deadline=None)
@given(pawn_boards())
def test_capture_relaxation_agrees_with_the_model(board: chess.Board) -> None:
    key = fates_key(board, {}, {}, {})
    event("relaxation" if _too_few_captures(key) else "model only")
    if _too_few_captures(key):
        assert _feasible(key, 10.0, files=False) is False


def test_capture_relaxation_on_the_dev_positions() -> None:
    """Where it fires on the labelled positions, the model is infeasible; and it fires."""
    fired = 0
    for line in DEV.read_text().splitlines()[:150]:
        key = fates_key(chess.Board(json.loads(line)["fen"]), {}, {}, {})
        if _too_few_captures(key):
            fired += 1
            assert _feasible(key, 10.0, files=False) is False
    assert fired >= 5


def test_relaxation_refutes_a_position_by_its_promotions() -> None:
    # White's second dark-squared bishop (e3) is a promoted pawn; its b, d, f and h pawns
    # are on their files, and a pawn from a, c, e or g promotes on a light square unless it
    # captured once, but Black is complete: no capture was made
    board = chess.Board("rnbqkbnr/pppppppp/8/8/8/4B3/1P1P1P1P/2B1K3 w - - 0 1")
    key = fates_key(board, {}, {}, {})
    assert _too_few_captures(key)
    assert _feasible(key, 10.0, files=False) is False

"""The capture-free shortcut of :func:`retro.pawn_fates.pawn_fates_feasible` agrees with
the CP-SAT model wherever it answers (it answers True without building the model)."""

from __future__ import annotations

import chess
from hypothesis import event, given, settings
from hypothesis import strategies as st

from retro.pawn_fates import _capture_free_fates, _feasible, excess_pieces


def _key(board: chess.Board) -> tuple:
    return (board.pawns & board.occupied_co[chess.WHITE], board.pawns & board.occupied_co[chess.BLACK],
            excess_pieces(board, chess.WHITE), excess_pieces(board, chess.BLACK),
            chess.popcount(board.occupied_co[chess.WHITE]), chess.popcount(board.occupied_co[chess.BLACK]))


@st.composite
def pawn_boards(draw) -> chess.Board:
    """Kings, a few pieces and at most one pawn per file and side on ranks 2-7: the
    shortcut answers when the pieces are no excess and the pawns do not cross."""
    board = chess.Board(None)
    board.set_piece_at(chess.E1, chess.Piece(chess.KING, chess.WHITE))
    board.set_piece_at(chess.E8, chess.Piece(chess.KING, chess.BLACK))
    free = [sq for sq in chess.SQUARES if sq not in (chess.E1, chess.E8)]
    for color in chess.COLORS:
        for file in draw(st.lists(st.integers(0, 7), unique=True, max_size=8)):
            square = chess.square(file, draw(st.integers(1, 6)))
            if board.piece_at(square) is None:
                board.set_piece_at(square, chess.Piece(chess.PAWN, color))
        for kind in draw(st.lists(st.sampled_from([chess.QUEEN, chess.ROOK, chess.KNIGHT]), max_size=3)):
            square = draw(st.sampled_from([sq for sq in free if board.piece_at(sq) is None]))
            board.set_piece_at(square, chess.Piece(kind, color))
    return board


@settings(max_examples=150, deadline=None)
@given(pawn_boards())
def test_shortcut_agrees_with_the_model(board: chess.Board) -> None:
    event("shortcut" if _capture_free_fates(board) else "model only")
    if _capture_free_fates(board):
        assert _feasible(_key(board), 10.0, files=False) is True
        assert _feasible(_key(board), 10.0, files=True) is True


def test_shortcut_answers_the_start_position_and_refuses_a_passed_pawn_pair() -> None:
    assert _capture_free_fates(chess.Board())
    # White's e-pawn above Black's on the same file: one of them captured (or passed)
    board = chess.Board("4k3/8/4P3/4p3/8/8/8/4K3 w - - 0 1")
    assert not _capture_free_fates(board)
    # two white pawns on one file: a capture was made
    assert not _capture_free_fates(chess.Board("4k3/8/8/8/4P3/4P3/8/4K3 w - - 0 1"))

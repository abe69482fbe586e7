"""Blocked squares against texel's computeBlocked expectations (exact lists)."""

from __future__ import annotations

import chess
import pytest

from proofkernel.blocked import blocked_squares, pawn_can_reach, taken_by_piece
from tests.conftest import texel_cases
from tests.random_games import game_positions, play_random

CASES = [c for c in texel_cases("blocked_squares") if c["compute_blocked_returns_true"]]


@pytest.mark.parametrize("case", CASES, ids=[c["source"] for c in CASES])
def test_texel_blocked_squares(case: dict) -> None:
    got = blocked_squares(chess.Board(case["goal_fen"]), chess.Board(case["init_fen"]))
    assert sorted(chess.square_name(s) for s in chess.SquareSet(got)) == sorted(case["expected_blocked"])


def test_there_are_ten_such_cases() -> None:
    assert len(CASES) == 10


def test_pawn_cone() -> None:
    assert pawn_can_reach(chess.WHITE, chess.C7, chess.A5, 2) is False  # white moves up
    assert pawn_can_reach(chess.BLACK, chess.C7, chess.A5, 2) is True
    assert pawn_can_reach(chess.BLACK, chess.C7, chess.A5, 1) is False
    assert pawn_can_reach(chess.BLACK, chess.C7, chess.E6, 5) is False  # two files in one rank


def test_blocked_pieces_never_move_in_random_games() -> None:
    """Soundness: along seeded random games from the start, a square blocked between
    the start and the final position keeps its piece in every intermediate position."""
    import random

    rng = random.Random(7)
    for _ in range(60):
        board = play_random(rng, rng.randint(10, 120))
        history = game_positions(board)
        mask = blocked_squares(board)
        for earlier in history:
            for square in chess.SquareSet(mask):
                assert earlier.piece_at(square) == board.piece_at(square), (board.fen(), chess.square_name(square))


def _taken(goal_fen: str) -> list[str]:
    goal = chess.Board(goal_fen)
    return [chess.square_name(sq) for sq in chess.SquareSet(taken_by_piece(chess.Board(), goal, blocked_squares(goal)))]


def test_a_confined_piece_missing_from_its_square_was_taken_by_a_piece() -> None:
    """White's c1 bishop between its blocked b2 and d2 pawns never moves; with c1 not
    holding it, a black unit took it there, and a black pawn could only come from b2
    or d2. The f1 bishop could step to e2 (the e-pawn moved): not confined."""
    assert _taken("r1bqkbnr/pppppppp/8/8/8/4P3/PPPPQPPP/RNn1KBNR w KQkq - 0 5") == ["c1"]
    assert _taken("rnbqkbnr/1ppppppp/1p6/8/8/8/PPPPPPPP/RN1QKBNR w KQkq - 0 1") == ["c1"]
    assert _taken("rnbqkbnr/pppppppp/8/8/8/4P3/PPPP1PPP/RNBQK1NR w KQkq - 0 1") == []


def test_a_piece_an_enemy_pawn_could_take_is_not_flagged() -> None:
    """With White's b-pawn gone from b2 (and Black a capture to spare), a black pawn
    could take the c1 bishop from b2; the bishop could also have left by b2."""
    assert _taken("rnbqkbnr/1ppppppp/1p6/8/8/8/P1PPPPPP/RN1QKBNR w KQkq - 0 1") == []
    # a piece still on its square, or an equal one there, is not missing
    assert _taken(chess.STARTING_FEN) == []

"""The fast move generator of retro.unwinnable against python-chess (its reference)."""

from __future__ import annotations

import chess
import pytest

from retro.unwinnable import analyze
from retro.unwinnable.fastboard import (
    first_legal_move,
    from_board,
    from_move,
    has_legal_move,
    in_check,
    key,
    legal_moves,
    play,
    to_move,
    uci,
)
from tests.retro.revmoves_games import random_game_positions

# Positions with the rules a bitboard generator gets wrong first.
SPECIAL_ROOTS = [
    "r3k2r/3p4/8/4P3/8/8/8/4K1N1 b kq - 0 1",  # castling; ...d5 allows exd6 e.p.
    "r3k2r/8/8/3pP3/8/8/8/4K1N1 w kq d6 0 1",  # exd6 e.p. at the root
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "4k3/8/8/K1Pp3r/8/8/8/8 w - d6 0 1",  # cxd6 e.p. would expose the king: illegal
    "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",  # in check; exd3 e.p. removes the checker
    "r3k2r/8/8/8/8/8/6b1/R3K2R w KQkq - 0 1",  # O-O through the attacked f1 is illegal
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
    "1r2k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1",  # Black keeps only the O-O right
    "4k3/8/8/8/1b6/8/3P4/4K3 w - - 0 1",  # pinned pawn d2
    "4k3/8/8/8/8/8/4r3/4K2R w K - 0 1",  # in check: no castling
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",  # perft suites' position 3: pins along ranks
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",  # promotions, pins
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",  # promotions with capture
    "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",  # e.p. along the rank of the king: skewer
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",  # stalemate: has_legal_move is False
    "k7/1bK5/1P6/3Q4/8/8/8/8 b - - 0 1",  # only the pinned bishop moves, along the pin (Bc6, Bxd5)
]


def _random_game_positions(count: int, seed: int, stride: int = 1) -> list[chess.Board]:
    """Every ``stride``-th position after a ply of seeded random games (castling, en
    passant and promotions preferred when they exist; see tests/retro/revmoves_games.py)."""
    return [board for board, _ in random_game_positions(seed, count * stride, max_plies=150)[::stride]]


def _assert_same(board: chess.Board) -> list[int]:
    state = from_board(board)
    expected = [from_move(move) for move in board.generate_legal_moves()]
    assert legal_moves(state) == expected, board.fen()  # same moves, same order
    assert [uci(move) for move in expected] == [move.uci() for move in board.generate_legal_moves()]
    assert key(state) == board._transposition_key(), board.fen()
    assert in_check(state) == board.is_check()
    # The shortcuts that avoid generating every move give the same answers.
    assert first_legal_move(state) == (expected[0] if expected else None), board.fen()
    assert has_legal_move(state) == bool(expected), board.fen()
    return expected


def test_special_positions_and_their_children() -> None:
    for fen in SPECIAL_ROOTS:
        board = chess.Board(fen)
        for move in _assert_same(board):
            child = board.copy(stack=False)
            child.push(to_move(move))
            assert play(from_board(board), move) == from_board(child), (fen, to_move(move).uci())
            _assert_same(child)


def test_random_game_positions_and_their_children() -> None:
    # Every position and every child (each legal move played both ways) must agree.
    seen = {"ep": 0, "castling": 0, "promotion": 0, "check": 0}
    for board in _random_game_positions(1000, seed=7):
        state = from_board(board)
        seen["check"] += board.is_check()
        for move in _assert_same(board):
            python_move = to_move(move)
            seen["ep"] += board.is_en_passant(python_move)
            seen["castling"] += board.is_castling(python_move)
            seen["promotion"] += python_move.promotion is not None
            child = board.copy(stack=False)
            child.push(python_move)
            assert play(state, move) == from_board(child), (board.fen(), python_move.uci())
    assert all(count >= 3 for count in seen.values()), seen


def _same_verdicts(boards: list[chess.Board]) -> int:
    """Compare the pure-Python fast path, the compiled core and the reference path."""
    compared = 0
    for board in boards:
        for winner in (chess.WHITE, chess.BLACK):
            for quick, budget in ((True, 0), (False, 150)):
                verdicts = [
                    analyze(board, winner, quick=quick, max_nodes=budget or 1, **options)  # type: ignore[arg-type]
                    for options in ({"compiled": False}, {"compiled": True}, {"reference": True})
                ]
                fast, compiled, slow = ((v.status, v.line, v.nodes, v.reason) for v in verdicts)
                assert fast == slow, (board.fen(), winner, quick)
                assert compiled == slow, (board.fen(), winner, quick)
                compared += 1
    return compared


def test_fast_and_reference_paths_agree_on_random_game_positions() -> None:
    # Same verdict, same helpmate line, same node count: the fast generator and the
    # compiled core change the cost of a node, never the search.
    assert _same_verdicts(_random_game_positions(60, seed=11, stride=10)) == 240


@pytest.mark.slow
def test_fast_and_reference_paths_agree_on_2000_random_game_positions() -> None:
    assert _same_verdicts(_random_game_positions(2000, seed=12)) == 8000

"""``child_key`` (the search's shortcut for a child's position key) must equal the key
of the position after the move, for every legal move it handles."""

import random

import chess
import pytest

from astar.heuristic import node_key
from astar.search import child_key
from tests.random_games import game_positions, play_random


@pytest.mark.parametrize("seed", range(20))
def test_child_key_matches_push_along_random_games(seed: int) -> None:
    handled = 0
    for board in game_positions(play_random(random.Random(seed), 200)):
        key = node_key(board)
        for move in list(board.legal_moves):
            shortcut = child_key(board, key, move)
            if shortcut is None:
                continue
            handled += 1
            board.push(move)
            assert shortcut == node_key(board), (board.fen(), move.uci())
            board.pop()
    assert handled > 0


def test_special_moves_are_left_to_push() -> None:
    board = chess.Board("r3k2r/pPpp1ppp/8/4pP2/8/8/PPPPP1PP/R3K2R w KQkq e6 0 1")
    key = node_key(board)
    for uci in ("e1g1", "e1c1", "f5e6", "b7a8q", "b7b8n", "d2d4"):
        assert child_key(board, key, chess.Move.from_uci(uci)) is None, uci
    assert child_key(board, key, chess.Move.from_uci("a1b1")) is not None

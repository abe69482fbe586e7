"""``legal_moves`` must be python-chess's ``generate_legal_moves`` as a list: the same
moves in the same order (the searches number and tie-break children in that order)."""

import json
import random
from pathlib import Path

import chess
import pytest

from astar.legal_moves import legal_moves
from tests.random_games import game_positions, play_random

DEV = Path(__file__).resolve().parents[2] / "data" / "cpr-923-dev.jsonl"

#: pins along ranks, files and diagonals (a pinned rook, bishop, queen, pawn that may or
#: may not move along its ray), a pinned promotion, en passant that would expose the king
#: along the rank, castling through and out of attacked squares, a side in check
CONSTRUCTED = [
    "4k3/8/8/8/4q3/8/4R3/4K3 w - - 0 1",
    "4k3/8/8/b7/8/2B5/8/4K3 w - - 0 1",
    "4k3/8/8/b7/8/2Q5/3P4/4K3 w - - 0 1",
    "4k3/8/8/8/1b6/8/3P4/4K3 w - - 0 1",
    "1r2k3/P7/8/8/8/8/8/K7 w - - 0 1",
    "r3k3/1P6/8/8/8/8/8/1K6 w - - 0 1",
    "8/8/8/KPp4r/8/8/8/7k w - c6 0 1",
    "8/8/8/K1pP3r/8/8/8/7k w - c6 0 1",
    "4k3/8/8/2pP4/8/8/8/4K3 w - c6 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
    "4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1",
    "4k3/8/8/8/8/5n2/8/R3K2R w KQ - 0 1",
    "8/8/8/8/8/8/8/R6k w - - 0 1",
]


def _same(board: chess.Board, masks: tuple[int, ...]) -> int:
    for mask in masks:
        assert legal_moves(board, mask) == list(board.generate_legal_moves(mask)), (board.fen(), hex(mask))
    return len(masks)


def test_constructed_positions() -> None:
    rng = random.Random(0)
    for fen in CONSTRUCTED:
        _same(chess.Board(fen), (chess.BB_ALL, rng.getrandbits(64), chess.BB_ALL & ~chess.BB_RANK_2))


def test_dev_positions() -> None:
    rng = random.Random(1)
    for line in DEV.read_text().splitlines():
        board = chess.Board(json.loads(line)["fen"])
        if board.is_valid():
            _same(board, (chess.BB_ALL, rng.getrandbits(64)))
            board.turn = not board.turn
            _same(board, (chess.BB_ALL,))


@pytest.mark.parametrize("seed", range(10))
def test_random_games(seed: int) -> None:
    rng = random.Random(seed)
    game = play_random(rng, 250, prefer=lambda board, move: board.is_capture(move) or board.gives_check(move))
    for board in game_positions(game):
        _same(board, (chess.BB_ALL, rng.getrandbits(64)))

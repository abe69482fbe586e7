"""Property test of the reverse move generator over 10,000 positions of seeded random
legal games (8 chunks of 1,250, so that ``pytest -n 2`` spreads them):

* completeness on real play: the real last move, with its real captured unit and the
  predecessor's real castling rights and en-passant square, is always listed;
* soundness of every listed retraction: the predecessor is a position where the side
  not to move is not in check, whose castling rights and en-passant square are what
  python-chess would keep (cleaned rights, legal en passant), the move is legal in it,
  and pushing it with python-chess gives back P exactly (placement, side to move,
  castling rights, en-passant square in python-chess's ``Board.__eq__`` convention).
"""

from __future__ import annotations

import chess
import pytest

from retro.core.position import position_key
from retro.core.revmoves import Retraction, predecessor, retractions
from tests.conftest import data_path
from tests.retro.revmoves_games import random_game_positions

CHUNKS = 8
POSITIONS_PER_CHUNK = 1_250


def describe(board: chess.Board, retraction: Retraction, q: chess.Board) -> str:
    return f"{board.fen()}: {retraction.texel_line()} -> {q.fen()}"


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_games_real_last_move_listed_and_every_retraction_replays(chunk: int) -> None:
    positions = random_game_positions(seed=1000 + chunk, count=POSITIONS_PER_CHUNK)
    assert len(positions) == POSITIONS_PER_CHUNK
    replayed = 0
    for board, real in positions:
        listed = retractions(board)
        assert real in listed, f"{board.fen()}: real last move {real.texel_line()} missing"
        target = position_key(board)
        for retraction in listed:
            q = predecessor(board, retraction)
            move = retraction.move
            # (assert messages are only built on failure)
            assert q.clean_castling_rights() == retraction.castling, describe(board, retraction, q)
            assert (q.ep_square if q.has_legal_en_passant() else None) == retraction.ep, describe(board, retraction, q)
            assert not q.was_into_check(), describe(board, retraction, q)
            assert q.is_legal(move), describe(board, retraction, q)
            en_passant = q.is_en_passant(move)
            assert en_passant == retraction.is_en_passant, describe(board, retraction, q)
            assert q.is_castling(move) == retraction.is_castling, describe(board, retraction, q)
            captured = chess.PAWN if en_passant else q.piece_type_at(move.to_square)
            assert captured == retraction.captured, describe(board, retraction, q)
            q.push(move)
            assert position_key(q) == target, describe(board, retraction, q)
            replayed += 1
    assert replayed > 100 * POSITIONS_PER_CHUNK  # the lists are not trivially short


def test_lichess_positions_every_retraction_replays() -> None:
    # Real game positions (castled kings, pawn chains) complement the random games:
    # soundness of every listed retraction on the first 400 positions of the file.
    boards = []
    with open(data_path("lichess-30k-positions.txt"), encoding="utf-8") as handle:
        for line in handle:
            boards.append(chess.Board(" ".join(line.split()[:6])))
            if len(boards) == 400:
                break
    total = 0
    for board in boards:
        target = position_key(board)
        listed = retractions(board)
        assert listed, board.fen()  # a position from a real game has a last move
        for retraction in listed:
            q = predecessor(board, retraction)
            assert not q.was_into_check() and q.is_legal(retraction.move), describe(board, retraction, q)
            q.push(retraction.move)
            assert position_key(q) == target, describe(board, retraction, q)
            total += 1
    assert total > 10_000

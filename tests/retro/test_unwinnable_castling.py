"""Dead castling rights (retro.unwinnable.static, step 1): a castling right whose path
holds a unit that never moves nor is captured does not stop the semi-static check."""

from __future__ import annotations

import json
import random
from pathlib import Path

import chess

from retro.unwinnable import analyze, routines
from retro.unwinnable.static import dead_castling_rights, static_applicable, unwinnable_static
from tests.random_games import game_positions, play_random

W, B = chess.WHITE, chess.BLACK
DATA = Path(__file__).resolve().parents[2] / "data"

# Dev set, dead: White keeps the right to castle short, but the bishop f1 and the knight
# g1 are walled in by White's own bishops and pawns (every white unit is stuck behind the
# locked pawn chain) and no black unit can reach them; Black has only its king.
DEAD_RIGHT = "2k5/8/8/8/2Bp1p1p/1BpP1P1P/2P1BPBP/3BKBNR w K -"


def test_a_dead_right_lets_the_static_check_answer() -> None:
    board = chess.Board(DEAD_RIGHT)
    assert dead_castling_rights(board) and static_applicable(board)
    assert unwinnable_static(board, W) and unwinnable_static(board, B)
    verdict = analyze(board, B)
    # Mostly rammed: the check answers after the short depth-1 probe (its nodes only).
    assert verdict.status == "unwinnable" and verdict.reason == "semi-static"
    assert verdict.nodes < 10 * routines.RAMMED_PROBE_NODES


def test_live_rights() -> None:
    # The rook and king can castle at once, or once the knight g1 has moved.
    assert not dead_castling_rights(chess.Board("4k3/8/8/8/8/8/8/4K2R w K -"))
    assert not dead_castling_rights(chess.Board("4k3/8/8/8/8/8/8/4K1NR w K -"))
    assert not static_applicable(chess.Board(chess.STARTING_FEN))
    # Dev set, both can win: Black's bishops free White's position (the fixpoint clears
    # the bishop f1 and the knight g1), so the right stays live.
    assert not dead_castling_rights(chess.Board("2k5/8/3b4/4b3/2Bp1p1p/2pP1P1P/2P1BPBP/3BKBNR w K -"))


def test_no_castling_on_random_lines_from_dead_rights() -> None:
    """Property: from every dev position whose castling rights are all dead, no random
    line ever reaches a position with a legal castling move."""
    rng = random.Random(38)
    dead = 0
    for line in (DATA / "unwinnability-dev.jsonl").read_text().splitlines():
        board = chess.Board(json.loads(line)["fen"])
        if not board.castling_rights or not dead_castling_rights(board):
            continue
        dead += 1
        for _ in range(30):
            for game in game_positions(play_random(rng, 80, board.copy(stack=False))):
                assert not any(game.is_castling(move) for move in game.legal_moves), game.fen()
    assert dead

"""Placement phase of the initial path (astar.placement)."""

from __future__ import annotations

import chess

from astar.heuristic import Heuristic
from astar.placement import place_pieces
from proofkernel.blocked import blocked_squares
from tests.conftest import read_jsonl

# White's knight must reach a1, whose only knight squares b3 and c2 are goal squares of
# two rooks that are one move from them; the knight is three moves away. Filling b3 and
# c2 first (their legs are the cheapest) would shut a1 for the knight; Black's king is
# on its goal square from the start, so it may only step aside and come back.
CORNER_START = "7k/1RR5/8/5N2/8/8/8/7K w - - 0 1"
CORNER_GOAL = "7k/8/8/8/8/1R6/2R5/N6K w - - 0 1"

# dev legal #129 (12 promotions, no pawn left) and where its late-plan initial path
# ends after the last promotion (206 plies; the admissible bound there is 51)
DEV_129 = [row["fen"] for row in read_jsonl("cpr-923-dev.jsonl") if row["legal"]][129]
DEV_129_PATH_END = "rB2Rb1k/3R1B2/NQ1n1Rb1/1r4Rr/rnB1q2Q/Bq5q/3K4/1RrN1b2 w - - 2 104"


def _replays(start: chess.Board, moves: tuple[chess.Move, ...], end: chess.Board) -> bool:
    board = start.copy()
    for move in moves:
        if not board.is_legal(move):
            return False
        board.push(move)
    return board.board_fen() == end.board_fen() and board.turn == end.turn


def test_no_placement_shuts_another_goal_square() -> None:
    """All three squares are filled: the leg that fills the second of b3/c2 before the
    knight stands on a1 ends where the admissible bound (placed pieces blocked) is
    infinite, so it is undone and the knight goes first (without that rule, 2 of 3);
    Black's placed king makes the tempo moves (frozen, Black would have no move)."""
    start, goal = chess.Board(CORNER_START), chess.Board(CORNER_GOAL)
    placement = place_pieces(start, goal, 0)
    assert (placement.placed, placement.unplaced) == (3, 3)
    assert placement.board.board_fen() == goal.board_fen()
    assert _replays(start, placement.moves, placement.board)


def test_placement_brings_a_many_promotion_path_end_near_the_goal() -> None:
    """From #129's path end the phase fills most of the 25 open goal squares, and the
    admissible bound drops from 51 to below 30 (the committed-leg search then finds the
    proof game from there)."""
    goal, start = chess.Board(DEV_129), chess.Board(DEV_129_PATH_END)
    assert Heuristic(goal, blocked_squares(goal, start)).value(start) == 51
    placement = place_pieces(start, goal, blocked_squares(goal), max_nodes=30_000)
    assert placement.unplaced == 25 and placement.placed >= 15
    assert Heuristic(goal, blocked_squares(goal, placement.board)).value(placement.board) < 30
    assert _replays(start, placement.moves, placement.board)

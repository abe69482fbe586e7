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


def test_a_run_starts_from_the_placed_path_only_when_the_path_end_is_far_from_the_goal() -> None:
    """The restart portfolio's placed arm (retro.proofgame): after #129's complete path
    (its end's bound 51, at least PLACE_FROM_BOUND) the placed path is added beside the
    path's own arm, ranked by its end's bound, below 30 (the committed-leg search finds
    the proof game from there, not from the path end), without a slice of its own: the
    next exploring slice goes to another start. It is judged once per run. A path end
    one king move from the goal gets none: there the final search would only have to
    undo a placement."""
    from astar.initial_path import InitialPath
    from astar.portfolio import Arm, Portfolio
    from retro.proofgame import PLACE_FROM_BOUND, _add_placed, _explore, _Plans

    goal, end = chess.Board(DEV_129), chess.Board(DEV_129_PATH_END)
    assert Heuristic(goal, blocked_squares(goal, end)).value(end) == 51 >= PLACE_FROM_BOUND
    plans = _Plans(None, end, goal, goal, 0)  # the path end as the initial position
    portfolio: Portfolio[InitialPath | None] = Portfolio(0)
    path: Arm[InitialPath | None] = Arm(InitialPath((), end, 12, 12, 0, promoted=12), (), "late plan")
    portfolio.arms.append(path)
    _add_placed(portfolio, plans, None)
    assert len(portfolio.arms) == 2
    placed = portfolio.arms[1]
    assert placed.origin is not None and placed.label == "late plan, placed" and placed.runs == 0
    assert placed.prefix == placed.origin.moves and _replays(end, placed.prefix, placed.origin.board)
    assert placed.best_h == Heuristic(goal, blocked_squares(goal, placed.origin.board)).value(placed.origin.board) < 30
    assert plans.nodes == placed.origin.nodes > 0
    _add_placed(portfolio, plans, None)
    assert len(portfolio.arms) == 2  # once per run
    assert _explore(portfolio, plans, None) is placed  # no plan left here: the best arm, searched afresh

    near = chess.Board(CORNER_GOAL)
    near.push(chess.Move.from_uci("h1g1"))
    near_plans = _Plans(None, near, chess.Board(CORNER_GOAL), chess.Board(CORNER_GOAL), 0)
    assert near_plans.placed_path([Arm(InitialPath((), near, 0, 0, 0), ())], None) is None
    assert near_plans.placed  # judged: a later complete path gets none either

"""Initial path: the extended kernel's captures as real moves (astar.initial_path)."""

from __future__ import annotations

import chess
import pytest

from astar.initial_path import initial_path
from astar.proofgame import ProofGame
from proofkernel.blocked import blocked_squares
from proofkernel.extended import extend_kernel
from proofkernel.moves import parse_move
from retro.legality import find_kernel
from retro.proofgame import blocked_mask_for
from tests.conftest import read_jsonl

START = chess.Board()
# the first legal positions of the dev file (Texel's proof games are 176-204 plies long)
DEV_LEGAL = [row["fen"] for row in read_jsonl("cpr-923-dev.jsonl") if row["legal"]][1:4]


def _plan(goal: chess.Board):
    found = find_kernel(goal, time_limit=20)
    assert found.status == "found"
    kernel = tuple(parse_move(text) for text in found.kernel)
    extended = extend_kernel(kernel, START, goal, blocked_squares(goal, START), late_pawns=True)
    assert extended.status == "found"
    return kernel, extended


def _pawns(plan_moment) -> set:
    return set(plan_moment)


@pytest.mark.parametrize("fen", DEV_LEGAL)
def test_late_pawn_plan_ends_on_the_goal_pawns(fen: str) -> None:
    goal = chess.Board(fen)
    kernel, extended = _plan(goal)
    assert len(extended.pawn_plan) == len(kernel) + 1
    goal_pawns = {(sq, goal.color_at(sq)) for sq in chess.SquareSet(goal.pawns)}
    assert _pawns(extended.pawn_plan[-1]) == goal_pawns
    # as late as possible: before the first capture only pawns that the capture needs
    # (capturer, captured pawn, or a pawn whose column order forces it) have left home
    moved = _pawns(extended.pawn_plan[0]) - {(sq, START.color_at(sq)) for sq in chess.SquareSet(START.pawns)}
    assert len(moved) <= 4


@pytest.mark.parametrize("fen", DEV_LEGAL)
def test_initial_path_plays_every_capture_of_the_kernel(fen: str) -> None:
    goal = chess.Board(fen)
    kernel, extended = _plan(goal)
    path = initial_path(START, kernel, extended.moves, extended.pawn_plan, blocked_mask_for(goal, START),
                        time_limit=60)
    assert path.done == path.total == len(kernel), path.reason
    # real moves from the start position ...
    replay = ProofGame(START.fen(), path.moves).final_board()
    assert replay.board_fen() == path.board.board_fen()
    # ... after which every capture has happened: each side has the goal's number of units
    for color in chess.COLORS:
        assert chess.popcount(path.board.occupied_co[color]) == chess.popcount(goal.occupied_co[color])
    # and every file holds at least the pawns the goal has there (the rest promote later)
    for color in chess.COLORS:
        for file_mask in chess.BB_FILES:
            have = path.board.pawns & path.board.occupied_co[color] & file_mask
            assert chess.popcount(have) >= chess.popcount(goal.pawns & goal.occupied_co[color] & file_mask)


def test_path_stops_with_a_reason_on_a_mismatched_plan() -> None:
    goal = chess.Board(DEV_LEGAL[0])
    kernel, extended = _plan(goal)
    path = initial_path(START, kernel, extended.moves[:-1], extended.pawn_plan, 0)
    assert path.done == 0 and path.moves == () and "does not match" in path.reason

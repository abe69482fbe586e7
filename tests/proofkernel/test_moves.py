"""Kernel move notation, generation and making, on texel's expectations."""

from __future__ import annotations

import chess
import pytest

from proofkernel.blocked import blocked_squares
from proofkernel.moves import InvalidKernelMoveError, apply_move, generate_moves, parse_move
from proofkernel.state import Goal, KernelState
from tests.conftest import texel_cases

MOVEGEN = texel_cases("pk_movegen")
MAKE = texel_cases("pk_make_move")


def test_notation_round_trips_on_every_texel_move() -> None:
    texts = {m for case in MOVEGEN for m in case["expected_moves"]} | {c["move"] for c in MAKE}
    assert len(texts) > 100
    for text in texts:
        assert str(parse_move(text)) == text


@pytest.mark.parametrize("text", ["", "wPc0", "xPc0", "wPc0xRb", "bxPc", "wPi0xPb1", "wxK", "wPc0xPb1Q"])
def test_bad_notation_is_rejected(text: str) -> None:
    with pytest.raises(InvalidKernelMoveError):
        parse_move(text)


@pytest.mark.parametrize("case", MAKE, ids=[c["source"] for c in MAKE])
def test_make_move_reaches_texel_goal(case: dict) -> None:
    init, goal = chess.Board(case["init_fen"]), chess.Board(case["goal_fen"])
    target = Goal.from_boards(goal, blocked_squares(goal, init), init)
    after = apply_move(KernelState.from_board(init), parse_move(case["move"]))
    assert target.promotions_fit(after)


def _texel_moves_we_must_generate(case: dict) -> set[str]:
    """texel's generator applies pruning rules of its own (e.g. no queen promotion next
    to an immovable king); ours is a relaxation, so it must generate every texel move."""
    return set(case["expected_moves"])


@pytest.mark.parametrize(
    "case",
    [c for c in MOVEGEN if not c["only_piece_x_piece"]],
    ids=[c["source"] for c in MOVEGEN if not c["only_piece_x_piece"]],
)
def test_generation_contains_texel_moves(case: dict) -> None:
    init, goal = chess.Board(case["init_fen"]), chess.Board(case["goal_fen"])
    target = Goal.from_boards(goal, blocked_squares(goal, init), init)
    state = KernelState.from_board(init)
    ours = {str(m) for color in chess.COLORS for m in generate_moves(state, target, color)}
    missing = _texel_moves_we_must_generate(case) - ours
    assert not missing


def test_generation_respects_blocked_pawns() -> None:
    # texel: "Blocked pawns" - the a2/b2 pawns are blocked, only the c-pawn moves
    init = chess.Board("4k3/1p6/8/8/8/8/PPP5/4K3 w - - 0 1")
    goal = chess.Board("4k3/1n6/8/8/8/8/PP6/4K3 w - - 0 1")
    target = Goal.from_boards(goal, blocked_squares(goal, init), init)
    ours = {str(m) for m in generate_moves(KernelState.from_board(init), target, chess.WHITE)}
    assert ours == {"wPc0xPb1", "wxPb1"}


def test_derived_counts_follow_the_state_along_random_kernel_moves() -> None:
    """A state's pawns per column and units (computed once when the state is made, and
    shared between states with the same columns) always equal the counts read from its
    columns and pieces, along random sequences of generated kernel moves."""
    import random

    rng = random.Random(7)
    goal = Goal.from_boards(chess.Board("4k3/8/8/8/8/8/8/4K3 w - - 0 1"), 0)
    for _ in range(20):
        state = KernelState.from_board(chess.Board())
        while True:
            for color in chess.COLORS:
                black = tuple(column.count("b") for column in state.columns)
                white = tuple(column.count("w") for column in state.columns)
                assert state.column_pawns == (black, white)
                pawns = sum(white if color == chess.WHITE else black)
                assert state.pawns(color) == pawns
                assert state.units(color) == pawns + sum(state.pieces[:5] if color == chess.WHITE else state.pieces[5:])
            moves = generate_moves(state, goal, rng.choice(chess.COLORS))
            if not moves:
                break
            state = apply_move(state, rng.choice(moves))
        # a copy made from the fields alone is the same state
        assert KernelState(state.columns, state.pieces) == state
        assert hash(KernelState(state.columns, state.pieces)) == hash(state)

"""The frozen-units rule (retro.lastmove.frozen): constructed positions for each variant,
the last-move problem it settles, and soundness on legal positions."""

from __future__ import annotations

from pathlib import Path

import chess
from hypothesis import given, settings
from hypothesis import strategies as st

from retro.core.rules import _Facts, check_static, promotion_captures
from retro.lastmove.frozen import _Freezer, frozen_units_reason
from retro.lastmove.solver import solve
from tests.retro.revmoves_games import random_game_positions

DATA = Path(__file__).resolve().parents[2] / "data"

# Hwa 2022, Figure 5 (Darvall's problem KBrk4/1pppRp2/1p2p3 before Ba7xNb8, White to
# move): the black knight on b8 shields the white king a8 from the rook c8. Every other
# unit is stuck while b8 is occupied, and the knight can only leave b8 with check.
FIGURE_5 = "Knrk4/BpppRp2/1p2p3/8/8/8/8/8 w - - 0 1"


def test_shielded_king_figure_5() -> None:
    board = chess.Board(FIGURE_5)
    assert check_static(board).status == "unknown"
    reason = frozen_units_reason(board)
    assert reason is not None and "b8 shields the king on a8 from c8" in reason
    # The plain variant alone does not see it: the knight may leave b8, and then so may
    # the bishop and the king.
    plain = _Freezer(board, None).fixpoint()
    assert chess.A8 not in plain and chess.A7 not in plain


def test_shield_needs_the_premise() -> None:
    # Same units, Black to move and b8 empty: the white king is in check with Black to
    # move (illegal anyway, but not by this rule's premise: s must be occupied or the
    # shielded side to move). With b8 empty and White to move the premise holds.
    assert frozen_units_reason(chess.Board("K1rk4/BpppRp2/1p2p3/8/8/8/8/8 b - - 0 1")) is None
    assert frozen_units_reason(chess.Board("K1rk4/BpppRp2/1p2p3/8/8/8/8/8 w - - 0 1")) is not None


def test_plain_deadlock() -> None:
    # Darvall before Ba7xBb8: the bishops a7 and b8 block each other (each can only have
    # come from the other's square or a square held since then), so the pawn b6, which
    # could only have come from b7, a7 or c7, never moved: but it is not on its home rank.
    # The static rules promotion-captures and pawn-paths (first in check_static) prove the
    # same independently: no initial unit and no promoted pawn can reach b8.
    board = chess.Board("Kbrk4/BpppRp2/1p2p3/8/8/8/8/8 w - - 0 1")
    assert check_static(board).rule == "pawn-paths"
    assert promotion_captures(_Facts(board, "-", "-")) == (
        "no initial unit can reach the black bishop on b8, and no black pawn can have promoted to it"
    )
    reason = frozen_units_reason(board)
    assert reason is not None and "(frozen units)" in reason and "shields" not in reason


def test_king_walked_into_check() -> None:
    # Darvall before Ka7xNa8: the white king on a7 can only have come from a6 (the rest
    # is held), where the pawn b7, which never moved, attacks it: with this refutation
    # the king is frozen, so the bishop b8, the pawn b6 and the rest are too.
    board = chess.Board("nBrk4/KpppRp2/1p2p3/8/8/8/8/8 w - - 0 1")
    assert check_static(board).status == "unknown"
    freezer = _Freezer(board, None)
    assert chess.A7 in freezer.fixpoint()
    assert frozen_units_reason(board) is not None


def test_darvall_solved() -> None:
    # Darvall (lastmove-dev.jsonl): the published answer PxN=B is the only survivor;
    # without the shield variant Ba7xNb8 survives every other filter (Hwa 2022, Sec. 4).
    verdict = solve(chess.Board("KBrk4/1pppRp2/1p2p3/8/8/8/8/8"), None, use_legality=False, auto_cages=False)
    assert [(s.side, s.type) for s in verdict.solutions] == [(chess.WHITE, "PxN=B")]
    assert any(r.rule == "frozen units" and r.moves == ("Ba7xNb8",) for r in verdict.rejections)


def test_legal_positions_never_fire() -> None:
    # Real games (Lichess): every position is legal.
    lines = (DATA / "lichess-30k-positions.txt").read_text().splitlines()[:3000]
    fired = [line for line in lines if frozen_units_reason(chess.Board(" ".join(line.split()[:6])))]
    assert fired == []


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000))
def test_random_games_never_fire(seed: int) -> None:
    for board, _ in random_game_positions(seed, 200):
        assert frozen_units_reason(board) is None, board.fen()

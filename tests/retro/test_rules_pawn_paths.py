"""The pawn-paths rule (:func:`retro.core.rules.pawn_paths`): the pawns' captures counted
along the squares a pawn can have passed, and the assignment it rests on."""

from __future__ import annotations

import chess
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linear_sum_assignment

import retro.core.rules as rules
from retro.core.assignment import min_cost_assignment
from retro.core.position import parse_fen
from retro.core.rules import check_static, pawn_path_captures
from retro.lastmove.solver import solve


def _without_pawn_paths(fen: str, monkeypatch: pytest.MonkeyPatch) -> str:
    # promotion-files, which runs after pawn-paths, reaches the same verdicts through the
    # pawn fates with the promotion squares of the regions: both go
    kept = [rule for rule in rules.RULES if rule[0] not in ("pawn-paths", "promotion-files")]
    monkeypatch.setattr(rules, "RULES", kept)
    status = check_static(parse_fen(fen)).status
    monkeypatch.undo()
    return status


@settings(max_examples=300, deadline=None)
@given(
    st.tuples(st.integers(1, 9), st.integers(0, 6)).flatmap(
        lambda shape: st.lists(
            st.lists(
                st.sampled_from([0, 1, 2, 3, 5, 7, 10_000]), min_size=shape[0] + shape[1], max_size=shape[0] + shape[1]
            ),
            min_size=shape[0],
            max_size=shape[0],
        )
    )
)
def test_assignment_equals_scipy(cost: list[list[int]]) -> None:
    matrix = np.array(cost)
    rows, columns = linear_sum_assignment(matrix)
    assert min_cost_assignment(cost) == int(matrix[rows, columns].sum())


def test_assignment_refuses_more_rows_than_columns() -> None:
    assert min_cost_assignment([]) == 0
    with pytest.raises(ValueError):
        min_cost_assignment([[0], [0]])


# Black's f-pawn on f6 with e7 and g7 at home is a wall: a white pawn enters f7 only by
# capturing from e6 or g6, and promotes on e8 or g8 (f8 holds Black's bishop, shut in
# all game) by a second capture; c8 and b8 are shut off by b7, c7, d7 at home. White's
# third knight is such a promotion: two captures, but Black is missing only the g8 knight.
WALLED = "rnbqkb1r/ppppp1pp/5p2/8/3N4/8/PPPP1PPP/RNBQKBNR b - - 0 1"


def test_a_promotion_behind_a_wall_costs_two_captures(monkeypatch: pytest.MonkeyPatch) -> None:
    verdict = check_static(parse_fen(WALLED))
    assert verdict.status == "illegal" and verdict.rule == "pawn-paths"
    assert _without_pawn_paths(WALLED, monkeypatch) == "unknown"
    # The same with Black's f-pawn on f5: a white pawn still cannot step onto f7 from f6
    # (the way to f6 is by capture too); with a second black unit missing it is possible.
    assert check_static(parse_fen(WALLED.replace("5p2/8", "8/5p2"))).rule == "pawn-paths"
    assert check_static(parse_fen(WALLED.replace("rnbqkb1r", "r1bqkb1r"))).status == "unknown"


def test_distances_follow_the_squares_not_the_files() -> None:
    board = chess.Board(WALLED)
    sealed, _ = rules._sealed_squares(board)
    assert pawn_path_captures(board, chess.WHITE, sealed) == 2
    assert pawn_path_captures(board, chess.BLACK, sealed) == 0
    assert pawn_path_captures(chess.Board(), chess.WHITE, rules._sealed_squares(chess.Board())[0]) == 0


# Kuner, last move PxB=B: White's bishop on f8 promoted there from f7 (e7, g7 at home), two
# of the three light bishops promoted on e8 or g8 by captures, Black's c8 and f8 bishops
# were taken at home by pieces: with the white pawns' eight captures that is all ten
# missing black units, so no last move of White put a black unit back, except the
# promotion f7xBg8=B, after which one capture fewer is needed (h7xBg8=B needs one more).
KUNER = "5BBK/1p1pp1p1/5pPk/7B/5P1P/5B2/8/8"


@pytest.mark.parametrize(
    "before",
    [
        "5BBK/1p1pp1p1/5pPk/7B/5P1P/5n2/8/3B4 w - - 0 1",  # Bd1xNf3
        "5BbK/1p1pp1pP/5pPk/7B/5P1P/5B2/8/8 w - - 0 1",  # h7xBg8=B
        "5BBK/1p1pp1p1/5pnk/5P1B/5P1P/5B2/8/8 w - - 0 1",  # f5xNg6
    ],
)
def test_kuner_captures_need_too_many_pawn_captures(before: str, monkeypatch: pytest.MonkeyPatch) -> None:
    verdict = check_static(parse_fen(before))
    assert verdict.status == "illegal" and verdict.rule == "pawn-paths", verdict
    assert _without_pawn_paths(before, monkeypatch) == "unknown"


def test_kuner_answer_passes() -> None:
    assert check_static(parse_fen("5BbK/1p1ppPp1/5pPk/7B/5P1P/5B2/8/8 w - - 0 1")).status == "unknown"


@pytest.mark.slow
def test_pawn_paths_settles_kuner() -> None:
    verdict = solve(chess.Board(KUNER + " w - - 0 1"), None, use_legality=False, auto_cages=False)
    assert [(s.side, s.moves) for s in verdict.solutions] == [(chess.WHITE, ("f7xBg8=B",))]


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_positions_of_random_games_pass_pawn_paths(seed: int) -> None:
    """Every position of random games that push and capture with pawns often (so pawns
    change files, promote, and leave walls and sealed squares behind) passes the rule."""
    import random

    rng = random.Random(seed)
    for _ in range(25):
        board = chess.Board()
        for _ in range(rng.randint(20, 160)):
            moves = list(board.legal_moves)
            if not moves:
                break
            pawn_moves = [m for m in moves if board.piece_type_at(m.from_square) == chess.PAWN]
            captures = [m for m in moves if board.is_capture(m)]
            pick = rng.random()
            pool = pawn_moves if pawn_moves and pick < 0.5 else captures if captures and pick < 0.7 else moves
            board.push(rng.choice(pool))
            assert rules.pawn_paths(rules._Facts(board, "-", "-")) is None, board.fen()


# Borodatow, last move O-O: the white pawns on g4, g6, h4, h5, h7 came from the c- to g-files
# with 13 captures, and one of the light bishops on f3, f5 is promoted; on a8 it would be shut
# in by Black's b7 at home, so it promoted on c8, e8 or g8 and costs one capture more: 14, all
# that Black is missing. Every other last move of White put a black unit back.
BORODATOW = "8/1p5P/6P1/5B1P/6PP/5BNk/7P/5RK1"


def test_borodatow_captures_need_too_many_pawn_captures(monkeypatch: pytest.MonkeyPatch) -> None:
    before = "8/1p5P/2B3P1/5B1P/6PP/5nNk/7P/5RK1 w - - 0 1"  # Bc6xNf3
    verdict = check_static(parse_fen(before))
    assert verdict.status == "illegal" and verdict.rule == "pawn-paths", verdict
    assert _without_pawn_paths(before, monkeypatch) == "unknown"
    board = chess.Board(BORODATOW + " b - - 0 1")
    assert pawn_path_captures(board, chess.WHITE, rules._sealed_squares(board)[0]) == 14


def test_pawn_paths_settles_borodatow() -> None:
    verdict = solve(chess.Board(BORODATOW + " w - - 0 1"), None, use_legality=False, auto_cages=False)
    assert [(s.side, s.moves) for s in verdict.solutions] == [(chess.WHITE, ("O-O",))]


def test_nine_pawns_of_one_side_have_no_assignment() -> None:
    """No game gives a side a ninth pawn: a direct call answers None (no assignment
    explains the board) instead of failing in the matching."""
    board = chess.Board("4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1")
    assert pawn_path_captures(board, chess.WHITE, rules._sealed_squares(board)[0]) is None
    assert pawn_path_captures(board, chess.BLACK, rules._sealed_squares(board)[0]) == 0

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
from tests.conftest import read_jsonl
from tests.random_games import game_positions, play_random

START = chess.Board()
# the first legal positions of the dev file (Texel's proof games are 176-204 plies long)
_LEGAL = [row["fen"] for row in read_jsonl("cpr-923-dev.jsonl") if row["legal"]]
DEV_LEGAL = _LEGAL[1:4]
# paths that failed before the leg guide saw obstacles: a black knight standing on the
# f-file where the f-pawn must pass (14), white's light bishop behind the e2 pawn (19),
# black's light bishop behind b7/d7 until the plan released it (20)
DEV_OBSTRUCTED = [_LEGAL[14], _LEGAL[19], _LEGAL[20]]
# approaches that failed before the guide charged the pieces on a unit's way: a rook to
# be taken by a pawn on g3 (56, Black's), f5 (108, White's: the h1 rook behind Ng1 and
# Bf1, its relaxed distance 2 whatever those two did) and e7 (158, Black's)
DEV_ROOK_WAYS = [_LEGAL[56], _LEGAL[108], _LEGAL[158]]


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


@pytest.mark.slow
@pytest.mark.parametrize("fen", DEV_LEGAL + DEV_OBSTRUCTED + DEV_ROOK_WAYS)
def test_initial_path_plays_every_capture_of_the_kernel(fen: str) -> None:
    goal = chess.Board(fen)
    kernel, extended = _plan(goal)
    path = initial_path(START, kernel, extended.moves, extended.pawn_plan, blocked_squares(goal, START), time_limit=60)
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


@pytest.mark.parametrize("fen", DEV_LEGAL + DEV_OBSTRUCTED)
def test_late_pawn_plan_lets_home_bishops_out_before_their_capture(fen: str) -> None:
    """A bishop still on its home square can only be taken elsewhere after a pawn in
    front of it has moved; the plan must say so before the capture."""
    goal = chess.Board(fen)
    kernel, extended = _plan(goal)
    exits = {
        (chess.WHITE, True): (chess.E2, chess.G2),
        (chess.WHITE, False): (chess.B2, chess.D2),
        (chess.BLACK, True): (chess.B7, chess.D7),
        (chess.BLACK, False): (chess.E7, chess.G7),
    }
    taken: dict[chess.Color, set[tuple[chess.Color, bool]]] = {chess.WHITE: set(), chess.BLACK: set()}
    checked = 0
    for step, move in enumerate(kernel):
        text = str(move)
        if "LB" not in text and "DB" not in text:
            continue
        victim, light = not move.color, "LB" in text
        if (victim, light) in taken[victim]:
            continue  # the home bishop of this colour may already be gone
        taken[victim].add((victim, light))
        pawn_squares = {sq for sq, _color in extended.pawn_plan[step]}
        assert not all(sq in pawn_squares for sq in exits[(victim, light)]), (text, step)
        checked += 1
    if fen == _LEGAL[20]:
        assert checked == 2  # wPa0xLBb0 and bPc1xLBb0


def test_path_stops_with_a_reason_on_a_mismatched_plan() -> None:
    goal = chess.Board(DEV_LEGAL[0])
    kernel, extended = _plan(goal)
    path = initial_path(START, kernel, extended.moves[:-1], extended.pawn_plan, 0)
    assert path.done == 0 and path.moves == () and "does not match" in path.reason


def test_an_approach_may_end_in_check_only_when_the_planned_capture_answers_it() -> None:
    """1.a3 Nc6 2.a4 Nd4 3.a5 Nf3+: the knight to be taken by e2xf3 checks the king from
    the capture square. The approach leg of that capture ends there (exf3 is legal);
    the same position does not end a leg whose next capture is not a legal answer."""
    from astar.initial_path import _Leg

    board = chess.Board()
    for san in "a3 Nc6 a4 Nd4 a5 Nf3+".split():
        board.push_san(san)
    pawns = {color: board.pawns & board.occupied_co[color] for color in chess.COLORS}
    unit: list[tuple[chess.Color, tuple[chess.PieceType, ...], chess.Square]] = [
        (chess.BLACK, (chess.KNIGHT,), chess.F3)
    ]
    assert board.is_check()
    assert _Leg(pawns, unit, capture_color=chess.WHITE, answer=chess.Move(chess.E2, chess.F3)).ends(board)
    assert not _Leg(pawns, unit, capture_color=chess.WHITE, answer=chess.Move(chess.D2, chess.D3)).ends(board)
    assert not _Leg(pawns, unit).ends(board)


def _kinds(board: chess.Board, color: chess.Color) -> tuple[int, ...]:
    """Queens, rooks, light bishops, dark bishops, knights of ``color``."""
    bishops = board.pieces_mask(chess.BISHOP, color)
    return (
        chess.popcount(board.pieces_mask(chess.QUEEN, color)),
        chess.popcount(board.pieces_mask(chess.ROOK, color)),
        chess.popcount(bishops & chess.BB_LIGHT_SQUARES),
        chess.popcount(bishops & chess.BB_DARK_SQUARES),
        chess.popcount(board.pieces_mask(chess.KNIGHT, color)),
    )


@pytest.mark.slow
@pytest.mark.parametrize("fen", DEV_LEGAL[:2] + [_LEGAL[16]])
def test_initial_path_with_the_goal_plays_every_quiet_promotion(fen: str) -> None:
    """After the kernel's captures the pawns beyond the goal's promote quietly; the
    path promotes each to a kind the goal still lacks, so it ends with the goal's
    pawns per file and the goal's pieces per kind (bishops by square colour), and the
    goal is still reachable by the admissible heuristic."""
    from astar.heuristic import INF, Heuristic

    goal = chess.Board(fen)
    kernel, extended = _plan(goal)
    path = initial_path(
        START, kernel, extended.moves, extended.pawn_plan, blocked_squares(goal, START), goal=goal, time_limit=60
    )
    assert path.done == len(kernel) and path.reason == "", path.reason
    assert path.promoted > 0
    replay = ProofGame(START.fen(), path.moves).final_board()
    assert replay.board_fen() == path.board.board_fen()
    for color in chess.COLORS:
        assert _kinds(path.board, color) == _kinds(goal, color)
        for file_mask in chess.BB_FILES:
            have = path.board.pawns & path.board.occupied_co[color] & file_mask
            assert chess.popcount(have) == chess.popcount(goal.pawns & goal.occupied_co[color] & file_mask)
    assert Heuristic(goal, blocked_squares(goal, path.board)).value(path.board) < INF


def test_promotion_kinds_keep_the_lacking_bishops_makeable() -> None:
    """White lacks a queen and a dark-squared bishop; its pawns promote on b8 (dark,
    one step) and c8 (light, two steps). The nearer b-pawn may not become the queen:
    then no pawn could make the dark bishop. So every offered b-pawn leg makes the
    bishop, and the c-pawn's the queen."""
    from astar.initial_path import _promotions

    board = chess.Board("4k3/1P6/2P5/8/8/8/8/4K3 w - - 0 1")
    goal = chess.Board("4k3/8/8/8/8/1Q6/8/2B1K3 w - - 0 1")
    offered = {(leg.promotion_square, leg.ptype) for leg, _kind in _promotions(board, goal, 0)}
    assert offered == {(chess.B8, chess.BISHOP), (chess.C8, chess.QUEEN)}


def test_promotion_kinds_before_a_capture_count_the_plans_later_squares() -> None:
    """Before a capture, Black's d2 pawn promotes now and the a5 and h5 pawns later; the
    goal lacks a queen and two light bishops. By count alone (two later promotions) d1
    may make the queen. But the plan's later squares are b1 and h1, and a bishop born
    on h1 never leaves it past the g2 pawn that stays: one light square is left for
    two light bishops, so d1 must make a light bishop (Tromp's 1bQ2b2/..., whose path
    made a queen on d1)."""
    from astar.initial_path import _promotions

    board = chess.Board("4k3/8/8/p6p/8/K7/3p2P1/8 b - - 0 1")
    goal = chess.Board("q3k3/8/8/5b2/8/K2b4/6P1/8 b - - 0 1")
    target = {chess.WHITE: chess.BB_G2, chess.BLACK: chess.BB_A5 | chess.BB_H5}

    def offered(later):
        return {
            (leg.promotion_square, leg.ptype) for leg, _kind in _promotions(board, goal, chess.BB_G2, target, later)
        }

    assert offered(None) == {(chess.D1, chess.QUEEN), (chess.D1, chess.BISHOP)}
    assert offered({chess.WHITE: [], chess.BLACK: [chess.B1, chess.H1]}) == {(chess.D1, chess.BISHOP)}
    # with the later squares b1 and f1 (two light ones) the queen is offered again
    assert offered({chess.WHITE: [], chess.BLACK: [chess.B1, chess.F1]}) == {
        (chess.D1, chess.QUEEN),
        (chess.D1, chess.BISHOP),
    }


def test_later_promotion_squares_follow_the_pawns_across_captures() -> None:
    """White's b4 pawn takes a knight on c5 (kernel wPb0xNc0); the plan then ends with
    the a2 pawn only: the pawn now on c5 promotes on c8, not b8 (pawns change files only
    by capturing). With the c5 pawn kept in the end, the a-pawn promotes instead. After
    the last capture (index 1) none are left: the path then promotes toward the goal.
    A capture that promotes counts its landing square."""
    from astar.initial_path import _later_promotion_squares

    kernel = (parse_move("wPb0xNc0"),)
    before = {chess.WHITE: chess.BB_A2 | chess.BB_B4, chess.BLACK: 0}
    for end, promoted in ((chess.BB_A2, [chess.C8]), (chess.BB_C5, [chess.A8])):
        plans = [before, {chess.WHITE: end, chess.BLACK: 0}]
        assert _later_promotion_squares(kernel, ("wPb4xc5",), plans, 0) == {chess.WHITE: promoted, chess.BLACK: []}
        assert _later_promotion_squares(kernel, ("wPb4xc5",), plans, 1) == {chess.WHITE: [], chess.BLACK: []}
    # a capture that promotes (to a light bishop on c8) counts its landing square
    plans = [{chess.WHITE: chess.BB_B7, chess.BLACK: 0}, {chess.WHITE: 0, chess.BLACK: 0}]
    assert _later_promotion_squares((parse_move("wPb0xNcLB"),), ("wPb7xc8",), plans, 0) == {
        chess.WHITE: [chess.C8],
        chess.BLACK: [],
    }


TROMP_LIGHT_SQUARES = "1bQ2b2/1K1Nr3/2p5/1kPQpb2/N2QP3/1q1bR3/1nnN2P1/nq1N1bn1 b - - 0 1"


@pytest.mark.slow
def test_initial_path_keeps_light_squares_for_the_light_bishops(monkeypatch) -> None:
    """Tromp's 1bQ2b2/...: Black's d-pawn promotes before the captures that send the a-
    and b-pawns to b1 and a1; Black lacks two light bishops, and h1 (the h-pawns'
    square) is shut in by the g2 pawn. With the plan of seed 38 (one that lets the
    black rook into c7 and the white bishop onto a4) the path plays all 5 captures
    and all 10 promotions; counting only the number of later promotions, it made a
    queen on d1 and stopped after 5 promotions."""
    import astar.initial_path as module

    goal = chess.Board(TROMP_LIGHT_SQUARES)
    found = find_kernel(goal, time_limit=20)
    kernel = tuple(parse_move(text) for text in found.kernel)
    extended = extend_kernel(kernel, START, goal, blocked_squares(goal, START), late_pawns=True, shuffle=38)
    blocked = blocked_squares(goal, START)

    def path():
        return initial_path(START, kernel, extended.moves, extended.pawn_plan, blocked, goal=goal, time_limit=60)

    complete = path()
    assert (complete.done, complete.promoted, complete.reason) == (5, 10, ""), extended.moves
    for color in chess.COLORS:
        assert _kinds(complete.board, color) == _kinds(goal, color)
    monkeypatch.setattr(module, "_later_promotion_squares", lambda *args: None)
    assert path().reason != ""


def test_leg_guide_charges_the_pieces_on_the_way_of_a_unit() -> None:
    """From the start position a white rook needs two moves to f5 on the empty board
    (h1-h5-f5 or h1-f1-f5, a1-a5-f5 or a1-f1-f5); the least obstructed of those ways
    has one piece on it (the h2 or a2 pawn), so the guide says 3. A square already
    holding another piece costs one more move (it must leave first)."""
    from astar.initial_path import _Leg

    board = chess.Board()
    assert _Leg._nearest(board, chess.WHITE, (chess.ROOK,), chess.F5, 0) == 3
    # g1 holds White's knight: the h1 rook's way is free, the knight must still go
    assert _Leg._nearest(board, chess.WHITE, (chess.ROOK,), chess.G1, 0) == 2
    # the piece is there already
    assert _Leg._nearest(board, chess.WHITE, (chess.KNIGHT,), chess.G1, 0) == 0


def test_leg_guide_is_infinite_when_a_unit_must_stand_on_a_pawn_that_stays() -> None:
    """A leg that keeps the pawns where they stand cannot put a knight on e2, which
    the e2 pawn keeps (the guide said 2 before: g1-e2 plus one for the pawn there)."""
    from astar.heuristic import INF
    from astar.initial_path import _Leg

    board = chess.Board()
    pawns = {color: board.pawns & board.occupied_co[color] for color in chess.COLORS}
    assert _Leg(pawns, [(chess.WHITE, (chess.KNIGHT,), chess.E2)]).guide(board, 0) == INF
    assert _Leg(pawns, [(chess.WHITE, (chess.KNIGHT,), chess.F3)]).guide(board, 0) == 1


def test_pieces_of_a_key_are_the_pieces_of_the_position() -> None:
    """The leg search reads a child's pieces from its key (``child_key``, which equals
    the key after the move) without playing the move: along random games those pieces,
    and so a leg's guide, are the ones python-chess has."""
    import random

    from astar.heuristic import node_key, pieces_of_key
    from astar.initial_path import _Leg

    leg = _Leg({chess.WHITE: chess.BB_RANK_2, chess.BLACK: chess.BB_RANK_7}, [(chess.WHITE, (chess.KNIGHT,), chess.D4)])
    for seed in range(5):
        for board in game_positions(play_random(random.Random(seed), 150)):
            pieces = pieces_of_key(node_key(board))
            assert pieces.piece_map() == board.piece_map(), board.fen()
            assert leg.guide(pieces, 0) == leg.guide(board, 0)


def test_promoted_piece_walks_elsewhere_after_a_failed_walk() -> None:
    """Black has just promoted a queen on c1 and the goal wants black queens on a1 and
    g6. a1 is nearer (one move; it holds White's rook, boxed in by its a2 pawn and b1
    knight, as on dev #50's path, which sent five promoted queens there, each walk
    failing after the whole leg budget); once a walk to a1 has failed, the walk goes to
    g6 (two moves); with both failed there is no walk."""
    from astar.initial_path import _nearest_unfilled

    board = chess.Board("4k3/8/8/8/8/7K/P7/RNq5 w - - 0 1")
    goal = chess.Board("4k3/8/6q1/8/8/7K/P7/qN6 w - - 0 1")
    queen = 0  # the kind index of queens
    assert _nearest_unfilled(board, goal, chess.BLACK, queen, chess.C1, 0, set())[1] == chess.A1
    assert _nearest_unfilled(board, goal, chess.BLACK, queen, chess.C1, 0, {chess.A1})[1] == chess.G6
    assert _nearest_unfilled(board, goal, chess.BLACK, queen, chess.C1, 0, {chess.G6, chess.A1})[1] is None


# dev #94: the extended kernel has a white pawn promote quietly (on b8) before the
# capture wPc0xLBb2, while the goal lacks two dark bishops besides; dev #109: Black's
# e-pawn takes a white rook on f2 while the plan keeps White's e- and g-pawns at home,
# which shuts the rook out (f1 holds the bishop, boxed in by those pawns) until the
# g-pawn goes on to its last square, g4, early
@pytest.mark.slow
@pytest.mark.parametrize("fen", [_LEGAL[94], _LEGAL[109]])
def test_initial_path_promotes_before_a_capture_and_advances_pawns_that_shut_a_unit_out(fen: str) -> None:
    goal = chess.Board(fen)
    kernel, extended = _plan(goal)
    path = initial_path(
        START,
        kernel,
        extended.moves,
        extended.pawn_plan,
        blocked_squares(goal, START),
        goal=goal,
        time_limit=60,
        seed=0,
    )
    assert path.done == path.total == len(kernel) and path.reason == "", path.reason
    assert ProofGame(START.fen(), path.moves).final_board().board_fen() == path.board.board_fen()
    for color in chess.COLORS:
        assert _kinds(path.board, color) == _kinds(goal, color)


def test_steady_files_are_those_without_captures_or_promotions() -> None:
    """Over a plan in which a white b-pawn takes on c3 and then promotes on c8, the
    white b- and c-files change their pawn counts; every other file keeps them, and
    advancing those files puts their pawns on the last plan's squares."""
    from astar.initial_path import _advance, _steady_files

    def masks(*squares: chess.Square) -> dict[chess.Color, int]:
        return {chess.WHITE: int(chess.SquareSet(squares)), chess.BLACK: 0}

    plans = [masks(chess.B2, chess.C2, chess.G2), masks(chess.C3, chess.C2, chess.G3), masks(chess.C2, chess.G4)]
    steady = _steady_files(plans)
    assert steady[chess.WHITE] == ~(chess.BB_FILE_B | chess.BB_FILE_C) & chess.BB_ALL
    assert steady[chess.BLACK] == chess.BB_ALL
    assert _advance(plans[0], plans[-1], steady) == masks(chess.B2, chess.C2, chess.G4)


# Tromp's sample (data/cpr-sample-10k-undecided.fen): the paths of the late and the early
# plans stopped after the first of four captures (bPb1xPc0), before wPd0xNc2 (the white
# d-pawn takes a knight on c3): Black's c-pawn promotes on c1 first, and the plan kept
# White's b- and d-pawns at home, shutting in the c1 bishop
TROMP_SHUT_IN = "5b2/5B2/pPbB3b/P1nb1p2/q4NQR/1qP2rp1/1kr2N2/R2NKRrr b - - 0 1"


@pytest.mark.slow
def test_a_promotion_before_a_capture_advances_the_pawns_that_shut_its_square() -> None:
    """When the quiet promotion a capture needs first fails, the pawns that take part in
    nothing more go to their last squares (as for a capture's legs) and it is tried
    again: the late plan's path now promotes on c1 and plays three of the four
    captures (it stopped after one)."""
    goal = chess.Board(TROMP_SHUT_IN)
    kernel, extended = _plan(goal)
    path = initial_path(
        START, kernel, extended.moves, extended.pawn_plan, blocked_squares(goal, START), goal=goal, time_limit=60
    )
    replay = ProofGame(START.fen(), path.moves)
    assert replay.final_board().board_fen() == path.board.board_fen()
    assert path.done >= 3 and path.promoted >= 1
    assert "c1=" in " ".join(replay.san())


@pytest.mark.slow
def test_a_shuffled_plan_plays_every_capture_where_the_late_one_stops() -> None:
    goal = chess.Board(TROMP_SHUT_IN)
    kernel, _ = _plan(goal)
    blocked = blocked_squares(goal, START)
    complete = []
    for seed in range(4):  # (the first seed plays all four today)
        extended = extend_kernel(kernel, START, goal, blocked_squares(goal, START), late_pawns=True, shuffle=seed)
        path = initial_path(START, kernel, extended.moves, extended.pawn_plan, blocked, goal=goal, time_limit=60)
        assert ProofGame(START.fen(), path.moves).final_board().board_fen() == path.board.board_fen()
        complete.append(path.done == path.total == len(kernel))
        if complete[-1]:
            break
    assert any(complete)


@pytest.mark.slow
def test_more_random_plans_find_the_pawn_that_must_make_way(monkeypatch) -> None:
    """Tromp's 1rrb1k2/... (data/cpr-sample-10k-undecided.fen): the late and the early
    plans both stop before the first capture, bxPg0 (with the pawns they keep home, only
    a knight reaches g2, and its check has no answer the kernel allows), and so does
    the first random plan of seed 2; one of the next three plays every capture and
    promotion."""
    import time

    from retro import proofgame

    goal = chess.Board("1rrb1k2/2BPbrqp/3R2Q1/7P/2q2pBN/6n1/RqbQ1Bp1/2N1K1nn w - - 0 1")
    found = find_kernel(goal, time_limit=20)
    monkeypatch.setattr(proofgame, "SHUFFLED_PLANS", 1)
    one = proofgame._Plans(found, START, goal, goal, 2).next_path(time.monotonic() + 120, have_complete=False)
    assert one is not None and one.done == 0
    monkeypatch.setattr(proofgame, "SHUFFLED_PLANS", 4)
    four = proofgame._Plans(found, START, goal, goal, 2).next_path(time.monotonic() + 120, have_complete=False)
    assert four is not None
    assert four.done == four.total == 4 and four.reason == ""
    assert ProofGame(START.fen(), four.moves).final_board().board_fen() == four.board.board_fen()

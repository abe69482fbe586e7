"""Heuristic and path tests: paper examples, constructed positions, texel expectations."""

from __future__ import annotations

import chess
import pytest

from astar.heuristic import INF, Heuristic, deadlocked_mask, node_key
from astar.paths import king_forbidden_mask, pawn_distance, piece_distances
from tests.conftest import texel_cases
from tests.random_games import game_moves, play_random


def test_knight_assignment_cost_4_not_6() -> None:
    # Paper, A* section: knights on a2 and f2 must reach c3 and c8. a2->c3 (1) +
    # f2->c8 (3) = 4 beats a2->c8 (4) + f2->c3 (2) = 6; the assignment must find 4.
    # Kings stand on the same squares in both positions, so they cost 0.
    start = chess.Board("7k/8/8/8/8/8/N4N2/7K w - - 0 1")
    goal = chess.Board("2N4k/8/8/8/8/2N5/8/7K w - - 0 1")
    knight = piece_distances(chess.KNIGHT, chess.C3, 0)
    assert knight[chess.A2] == 1 and knight[chess.F2] == 2
    knight_c8 = piece_distances(chess.KNIGHT, chess.C8, 0)
    assert knight_c8[chess.A2] == 4 and knight_c8[chess.F2] == 3
    h = Heuristic(goal)
    assert h.side_moves(start, chess.WHITE) == 4
    assert h.side_moves(start, chess.BLACK) == 0
    # 4 white moves with white to move and the same side to move at the goal: 8 plies
    # would be needed if black must also move; black can shuffle its king, so n must be
    # even with >= 4 white moves: 8 plies (white moves on plies 1,3,5,7).
    assert h.value(start) == 8


def test_blocked_square_lengthens_knight_path() -> None:
    # Paper: with a blocked pawn on d6 the f2 knight needs 5 moves to c8 (d6 is on every
    # 3-move route f2-e4/d3/g4...-d6-c8 or via e7/b6: all 3-move paths end through d6 or b6/a7/e7;
    # computing it on the relaxed graph gives 5 as the paper states).
    d6 = chess.BB_SQUARES[chess.D6]
    assert piece_distances(chess.KNIGHT, chess.C8, 0)[chess.F2] == 3
    assert piece_distances(chess.KNIGHT, chess.C8, d6)[chess.F2] == 5


def test_king_detour_around_squares_attacked_by_blocked_pawns() -> None:
    # Constructed: black pawns on a5..f5, blocked (never move), attack a4..g4, so the
    # white king may use only h4 on rank 4 and only g5/h5 on rank 5. From a3 to a6 it
    # must go a3-b3-...-g3-h4-g5-f6-e6-...-a6: 7 files east then 7 files west = 14 moves
    # (each king move changes the file by at most one).
    board = chess.Board("7k/8/8/pppppp2/8/K7/8/8 w - - 0 1")
    blocked = chess.BB_RANK_5 & board.pawns
    forbidden = king_forbidden_mask(chess.WHITE, board, blocked)
    assert forbidden == chess.BB_RANK_4 & ~chess.BB_H4
    assert piece_distances(chess.KING, chess.A6, blocked, forbidden)[chess.A3] == 14
    # without the attacked squares the king would walk a3-b4... in far fewer moves
    assert piece_distances(chess.KING, chess.A6, blocked, 0)[chess.A3] < 14


def test_pawn_cone_makes_goal_unreachable() -> None:
    # Goal has a white pawn on f5. Current white pawn on e2, all black pieces already
    # equal to the goal count: no capture is left, so the cone of f5 is the f-file only
    # (truncated cone) and holds no white pawn now: unreachable.
    goal = chess.Board("4k3/8/8/5P2/8/8/8/4K3 w - - 0 1")
    current = chess.Board("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
    assert Heuristic(goal).value(current) == INF
    # With one black knight still to be captured the pawn can go e2-e4xf5: reachable.
    current_with_capture = chess.Board("4k3/8/8/8/8/8/n3P3/4K3 w - - 0 1")
    assert Heuristic(goal).value(current_with_capture) < INF


def test_too_few_pieces_and_promotion() -> None:
    goal = chess.Board("4k3/8/8/8/8/8/8/N3K3 w - - 0 1")
    assert Heuristic(goal).value(chess.Board("4k3/8/8/8/8/8/8/4K3 w - - 0 1")) == INF
    # a pawn on b7 can under-promote to a knight on b8 (1 move) and go b8-a6-b4-c2-a1
    # or b8-c6-b4-c2-a1: 4 more moves; 5 white moves in total.
    current = chess.Board("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
    assert Heuristic(goal).side_moves(current, chess.WHITE) == 5


def test_surplus_pieces_are_captured_but_never_the_king() -> None:
    # Goal: white Ke1 and Na1. Now: white Kh8 and knights on a1 and e1. One knight is
    # surplus (it will be captured, cost 0); the king cannot be: its 7 moves h8-e1
    # count, while the a1 knight already stands on its square.
    goal = chess.Board("k7/8/8/8/8/8/8/N3K3 w - - 0 1")
    now = chess.Board("k6K/8/8/8/8/8/8/N3N3 w - - 0 1")
    assert Heuristic(goal).side_moves(now, chess.WHITE) == 7
    # With the king on e2 the rest is the cheaper knight: b3-a1 (1) while the h8
    # knight is the surplus one: 1 king move + 1 knight move.
    now = chess.Board("k6N/8/8/8/8/1N6/4K3/8 w - - 0 1")
    assert Heuristic(goal).side_moves(now, chess.WHITE) == 2
    # No white knight at all: the goal's a1 knight cannot be made.
    assert Heuristic(goal).side_moves(chess.Board("k7/8/8/8/8/8/4K3/8 w - - 0 1"), chess.WHITE) == INF


@pytest.mark.parametrize(
    "case", texel_cases("pawn_reachable"), ids=lambda c: f"{c['color']}{c['square']}{c['max_captures']}"
)
def test_texel_pawn_reachable(case: dict) -> None:
    color = chess.WHITE if case["color"] == "white" else chess.BLACK
    sq = chess.parse_square(case["square"])
    last = 7 if color == chess.WHITE else 0
    got = {
        chess.square_name(t)
        for t in chess.SQUARES
        if chess.square_rank(t) != last
        and pawn_distance(color, sq, t) < INF
        and abs(chess.square_file(t) - chess.square_file(sq)) <= case["max_captures"]
    }
    assert got == set(case["expected_squares"])


def _bound(case: dict) -> int:
    return INF if case["bound"] == "INT_MAX" else int(case["bound"])


@pytest.mark.parametrize(
    "case",
    [c for c in texel_cases("heuristic_bound") if not c["use_non_admissible"]],
    ids=lambda c: c["source"].split(":")[-1],
)
def test_texel_heuristic_is_admissible(case: dict) -> None:
    """Our bound never exceeds texel's proven distance (finite '==' or '<=' bounds)."""
    from astar.last_move import forced_last_moves
    from proofkernel.blocked import blocked_squares

    init, goal = chess.Board(case["init_fen"]), chess.Board(case["goal_fen"])
    from astar.proofgame import same_position

    candidates = [] if same_position(init, goal) else forced_last_moves(goal)
    last = candidates[0] if candidates else None
    target = last.predecessor if last else goal  # texel measures to the goal before forced last moves
    h = Heuristic(target, blocked_squares(goal, init)).value(init)
    bound = _bound(case)
    if case["relation"] in ("==", "<=") and bound < INF:
        assert h <= bound
    if case["relation"] == "==" and bound == 0:
        assert h == 0


def test_obstruction_depends_only_on_the_pieces_inside_the_region() -> None:
    """``obstruction`` is remembered per pieces inside the region of the shortest-path
    graph; that is right only if the pieces outside never matter. Random pieces,
    starts, targets and occupancies: it equals ``path_obstruction`` on the full
    occupancy, whatever stands outside the region."""
    import random

    from astar.paths import obstruction, path_obstruction, shortest_path_layers

    rng = random.Random(5)
    for _ in range(3000):
        ptype = rng.choice((chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN, chess.KING))
        start, target = rng.sample(chess.SQUARES, 2)
        blocked = (
            sum(chess.BB_SQUARES[sq] for sq in rng.sample(chess.SQUARES, 4))
            & ~chess.BB_SQUARES[start]
            & ~chess.BB_SQUARES[target]
        )
        occupied = rng.getrandbits(64) & rng.getrandbits(64)
        placed = occupied & rng.getrandbits(64)
        region, layers = shortest_path_layers(ptype, start, target, blocked)
        full = path_obstruction(layers, occupied, placed)
        assert path_obstruction(layers, occupied & region, placed & region) == full
        assert obstruction(ptype, start, target, blocked, occupied, placed) == full


def test_deadlocked_piece_off_its_goal_square_makes_the_goal_unreachable() -> None:
    # Constructed: both sides already have their goal material, so nothing is captured
    # again. White Pa2/Pc2 face Black Pa3/Pc3 (neither can push), Bb1's diagonal
    # neighbours are a2 and c2, Ra1's neighbours a2 and b1: none of the four white units
    # can ever move, so the goal's rook on h1 (a1 empty) cannot be reached.
    start = chess.Board("4k3/8/8/8/8/p1p5/P1P5/RB2K3 w - - 0 1")
    goal = chess.Board("4k3/8/8/8/8/p1p5/P1P5/1B2K2R w - - 0 1")
    key = node_key(start)
    assert chess.SquareSet(deadlocked_mask(key[:6], key[6])) == chess.SquareSet(
        [chess.A1, chess.B1, chess.A2, chess.C2, chess.A3, chess.C3]
    )
    heuristic = Heuristic(goal)
    assert heuristic._value(key) < INF  # the relaxed distances alone see a 1-move rook path
    assert heuristic.value(start) == INF
    # with one black piece still to be captured the deadlock could be broken: no verdict
    with_capture = chess.Board("4k3/8/8/8/8/p1p5/P1P5/RB2K2n w - - 0 1")
    capture_key = node_key(with_capture)
    assert deadlocked_mask(capture_key[:6], capture_key[6])
    assert heuristic.value(with_capture) < INF


def test_deadlocked_pieces_on_their_goal_squares_block_a_promotion() -> None:
    # The paper's deadlock example, constructed: White Ph7, Rh8, Bg8, Pf6 and Black Pf7
    # stand on their goal squares and none can move (h7 faces h8, h8's neighbours are
    # h7 and g8, g8's are h7 and f7, f6 and f7 face each other). The goal's extra
    # white knight (c1) must come from the h3 pawn, which may not capture (the material
    # is the goal's) and so must promote on h8: blocked, the goal is unreachable.
    goal = chess.Board("6BR/5p1P/5P2/8/8/8/8/k1N4K w - - 0 1")
    start = chess.Board("6BR/5p1P/5P2/8/8/7P/8/k6K w - - 0 1")
    heuristic = Heuristic(goal)
    assert heuristic._value(node_key(start)) < INF
    assert heuristic.value(start) == INF
    # The paper: with the pawn on h6 instead, it is reachable (the rook steps aside, the
    # h6 pawn promotes, the rook comes back, the h3 pawn walks to h7); nothing deadlocks
    # but the f-pawns, which stand on their goal squares.
    reachable = chess.Board("6BR/5p2/5P1P/8/8/7P/8/k6K w - - 0 1")
    assert heuristic.value(reachable) < INF


def test_deadlocked_pieces_never_move_until_a_capture() -> None:
    """Property, along random games that mostly avoid captures: the pieces that
    ``deadlocked_mask`` reports never leave their squares before the next capture."""
    import random

    rng = random.Random(11)
    checked = 0
    for _ in range(25):
        board = play_random(rng, 140, prefer=lambda board, move: not board.is_capture(move), rate=0.97)
        history = [(before, before.is_capture(move)) for before, move in game_moves(board)]
        history.append((board, True))
        for i, (position, _capture) in enumerate(history):
            key = node_key(position)
            stuck = deadlocked_mask(key[:6], key[6])
            if not stuck:
                continue
            checked += 1
            for j in range(i, len(history) - 1):
                if history[j][1]:
                    break  # the move from position j captures: the rule no longer applies
                later = history[j + 1][0]
                for sq in chess.scan_forward(stuck):
                    assert later.piece_at(sq) == position.piece_at(sq), (position.fen(), later.fen())
    assert checked > 100  # deadlocks do occur along these games

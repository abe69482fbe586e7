"""The speed-ups of the proof-game search change nothing it computes: the king's danger
equals its straightforward computation, generating no moves of blocked pieces leaves
the other moves and their order, and pausing the garbage collector restores it.
(``bench/search_cost.py`` checks whole dev searches node for node.)"""

from __future__ import annotations

import gc
import random
from collections.abc import Iterator

import chess
import pytest

from astar.heuristic import _MAX_DEADLOCK_BOUNDS, INF, Heuristic, node_key
from astar.nonadmissible import NonAdmissibleHeuristic
from astar.paths import attacks_mask, path_obstruction, shortest_path_layers
from astar.search import cyclic_gc_paused, search
from proofkernel.blocked import blocked_squares
from tests.random_games import game_positions, play_random


def test_no_moves_of_blocked_pieces_leaves_the_other_moves_in_order() -> None:
    """The searches pass the unblocked squares as ``from_mask`` to python-chess's move
    generator and skip the moves from or to a blocked square: property, over random
    games (checks and castling included) and random blocked masks, the moves they keep
    are those of the full generator, in the same order."""
    rng = random.Random(17)
    compared = 0
    for _ in range(40):
        for board in game_positions(play_random(rng, 80)):
            blocked = rng.getrandbits(64) & rng.getrandbits(64) & board.occupied
            kept = [
                m
                for m in board.generate_legal_moves()
                if not blocked & (chess.BB_SQUARES[m.from_square] | chess.BB_SQUARES[m.to_square])
            ]
            fewer = [
                m
                for m in board.generate_legal_moves(chess.BB_ALL & ~blocked)
                if not blocked & (chess.BB_SQUARES[m.from_square] | chess.BB_SQUARES[m.to_square])
            ]
            assert fewer == kept, (board.fen(), blocked)
            compared += 1
    assert compared > 2000


def _reference_king_danger(heuristic: NonAdmissibleHeuristic, key: tuple, placed_enemy: int, color: bool) -> int:
    """The king's danger computed straightforwardly (astar.nonadmissible's docstring):
    every placed opponent piece's attacks, the obstruction over the whole path graph."""
    own = key[6] if color else (key[0] | key[1] | key[2] | key[3] | key[4] | key[5]) & ~key[6]
    goal = heuristic._goal_masks[(color, chess.KING)]
    king = key[5] & own
    if not goal or not king or king & goal or not placed_enemy:
        return 0
    start, target = chess.lsb(king), chess.lsb(goal)
    forbidden = heuristic._forbidden[color]
    region, layers = shortest_path_layers(chess.KING, start, target, heuristic.blocked_mask, forbidden)
    if not layers:
        return 0
    way = region | goal
    occupied = (key[0] | key[1] | key[2] | key[3] | key[4] | key[5]) & ~king
    attacked = 0
    for type_index in range(6):
        for square in chess.scan_forward(key[type_index] & placed_enemy):
            if type_index == 0:
                attacked |= chess.BB_PAWN_ATTACKS[not color][square]
            else:
                attacked |= attacks_mask(type_index + 1, square, occupied)
    attacked &= way
    if not attacked:
        return 0
    return path_obstruction(layers, attacked, attacked) + (2 if attacked & goal else 0)


def _heuristic_cases(
    rng: random.Random, games: int
) -> Iterator[tuple[NonAdmissibleHeuristic, chess.Board, chess.Board, chess.Color]]:
    """For ``games`` random games of 90 plies toward their last position (the goal), with
    and without the goal's blocked squares: the heuristic, the goal, each earlier
    position and each side."""
    for _ in range(games):
        game = game_positions(play_random(rng, 90))
        goal = game[-1]
        for mask in (0, blocked_squares(goal, chess.Board())):
            heuristic = NonAdmissibleHeuristic(goal, mask)
            for board in game[:-1]:
                for color in chess.COLORS:
                    yield heuristic, goal, board, color


def test_king_danger_equals_its_straightforward_computation() -> None:
    """Property: the remembered way, the attack pre-filter and the remembered obstruction
    of ``_king_danger`` give the straightforward value, for random games toward a later
    position of theirs and random sets of placed opponent pieces."""
    rng = random.Random(3)
    compared = dangerous = 0
    for heuristic, goal, board, color in _heuristic_cases(rng, 12):
        key = node_key(board)
        own = board.occupied_co[color]
        enemy = board.occupied_co[not color]
        for placed in (enemy, enemy & rng.getrandbits(64), enemy & goal.occupied_co[not color]):
            value = heuristic._king_danger(key, placed, own, color)
            assert value == _reference_king_danger(heuristic, key, placed, color), (board.fen(), goal.fen())
            compared += 1
            dangerous += value > 0
    assert compared > 3000 and dangerous > 300


def test_the_garbage_collector_is_paused_during_a_search_and_restored() -> None:
    board = chess.Board()
    goal = chess.Board("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1")
    seen = []

    class Spy(Heuristic):
        def value_of_key(self, key: tuple, stuck: int | None = None) -> int:
            seen.append(gc.isenabled())
            return super().value_of_key(key, stuck)

    assert gc.isenabled()
    assert search(board, goal, heuristic=Spy(goal), max_nodes=50).status == "found"
    assert seen and not any(seen) and gc.isenabled()
    with pytest.raises(RuntimeError), cyclic_gc_paused():
        raise RuntimeError
    assert gc.isenabled()
    gc.disable()
    try:
        with cyclic_gc_paused():
            pass
        assert not gc.isenabled()  # left as the caller had it
    finally:
        gc.enable()


def test_renewed_heuristics_give_the_values_of_new_ones() -> None:
    """Property: a heuristic renewed for the next leg (caches warmed by other positions)
    gives, for every position of random games toward a later position, the value of a
    new heuristic of the same goal and blocked squares; both kinds of heuristic."""
    rng = random.Random(5)
    compared = 0
    for _ in range(3):
        game = game_positions(play_random(rng, 50))
        goal = game[-1]
        for mask in (0, blocked_squares(goal, chess.Board())):
            for kind in (Heuristic, NonAdmissibleHeuristic):
                warm = kind(goal, mask)
                for board in reversed(game):
                    warm.value_of_key(node_key(board))
                renewed = warm.renewed()
                for board in game:
                    key = node_key(board)
                    assert renewed.value_of_key(key) == kind(goal, mask).value_of_key(key), board.fen()
                    compared += 1
    assert compared > 400


def test_a_renewed_heuristic_counts_its_deadlock_bounds_afresh() -> None:
    """A new heuristic gives at most ``_MAX_DEADLOCK_BOUNDS`` deadlocked sets a bound of
    their own (then the plain bound): a renewed one must count from zero too, or its
    values would depend on the legs before. The paper's deadlock (test_heuristic.py):
    Ph7, Rh8, Bg8, Pf6, Pf7 never move, so the h3 pawn cannot promote to the goal's
    knight, which only the bound with those squares blocked sees."""
    goal = chess.Board("6BR/5p1P/5P2/8/8/8/8/k1N4K w - - 0 1")
    start = chess.Board("6BR/5p1P/5P2/8/8/7P/8/k6K w - - 0 1")
    used = Heuristic(goal)
    used._deadlock_bounds.update({1 << square: used for square in range(_MAX_DEADLOCK_BOUNDS)})
    assert used.value(start) < INF  # the cap reached: the plain bound
    assert Heuristic(goal).value(start) == INF
    assert used.renewed().value(start) == INF


def _reference_stuck_pawns(heuristic: NonAdmissibleHeuristic, board: chess.Board, color: bool) -> int:
    """The stuck pawns counted square by square (astar.nonadmissible's docstring)."""
    own, enemy = board.occupied_co[color], board.occupied_co[not color]
    can_capture = chess.popcount(enemy) > heuristic._goal_count[not color]
    pawns = board.pawns & own & ~heuristic._goal_masks[(color, chess.PAWN)] & ~heuristic.blocked_mask
    stuck = 0
    for square in chess.scan_forward(pawns):
        ahead = square + (8 if color == chess.WHITE else -8)
        if 0 <= ahead < 64 and board.occupied & chess.BB_SQUARES[ahead]:
            stuck += not (can_capture and chess.BB_PAWN_ATTACKS[color][square] & enemy)
    return stuck


def test_stuck_pawns_counted_by_shifts_equal_their_square_by_square_count() -> None:
    """Property: the stuck pawns counted by shifts are those of the square-by-square
    definition, over random games toward a later position of theirs."""
    stuck = 0
    for heuristic, _, board, color in _heuristic_cases(random.Random(11), 5):
        own, enemy = board.occupied_co[color], board.occupied_co[not color]
        value = heuristic._stuck_pawns(node_key(board)[:6], board.occupied, own, enemy, color)
        assert value == _reference_stuck_pawns(heuristic, board, color), board.fen()
        stuck += value
    assert stuck > 40


def test_heuristics_sharing_caches_give_the_values_of_new_ones() -> None:
    """Property: a non-admissible heuristic sharing the caches of the admissible one of the
    same goal and blocked squares (as each leg's pair does), both warmed by other
    positions, gives the values of new heuristics; and it does read the shared side
    bounds (no side bound computed twice)."""
    rng = random.Random(7)
    compared = 0
    for _ in range(3):
        game = game_positions(play_random(rng, 50))
        goal = game[-1]
        for mask in (0, blocked_squares(goal, chess.Board())):
            admissible, guide = Heuristic(goal, mask), NonAdmissibleHeuristic(goal, mask)
            guide.share_caches(admissible)
            for board in reversed(game[::2]):
                admissible.value_of_key(node_key(board))
                guide.value_of_key(node_key(board))
            for board in game:
                key = node_key(board)
                assert admissible.value_of_key(key) == Heuristic(goal, mask).value_of_key(key), board.fen()
                assert guide.value_of_key(key) == NonAdmissibleHeuristic(goal, mask).value_of_key(key), board.fen()
                compared += 1
            fresh_admissible, fresh_guide = Heuristic(goal, mask), NonAdmissibleHeuristic(goal, mask)
            fresh_guide.share_caches(fresh_admissible)
            for board in game:
                fresh_admissible.value_of_key(node_key(board))
            setattr(fresh_guide, "_compute_side", _never)  # noqa: B010 (an instance attribute over the method)
            for board in game:
                fresh_guide.value_of_key(node_key(board))
    assert compared > 200


def _never(*args: object) -> int:
    raise AssertionError("a side bound computed twice")

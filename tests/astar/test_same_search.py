"""The speed-ups of the proof-game search change nothing it computes: the heuristics'
shared memos (:class:`astar.heuristic._Memo`) give the values a fresh heuristic gives,
the king's danger equals its straightforward computation, and pausing the garbage
collector restores it. (``bench/search_cost.py`` checks whole dev searches node for node.)"""

from __future__ import annotations

import gc
import random

import chess
import pytest

import astar.heuristic as heuristic_module
from astar.heuristic import INF, Heuristic, _Memo, deadlocked_mask, position_key
from astar.nonadmissible import NonAdmissibleHeuristic
from astar.paths import attacks_mask, path_obstruction, shortest_path_layers
from astar.search import cyclic_gc_paused, search
from proofkernel.blocked import blocked_squares


def _game(rng: random.Random, plies: int, quiet_only: bool = False) -> list[chess.Board]:
    """The positions of a random game (only quiet moves with ``quiet_only``)."""
    board, positions = chess.Board(), [chess.Board()]
    for _ in range(plies):
        moves = [m for m in board.legal_moves if not (quiet_only and board.is_capture(m))]
        if not moves:
            break
        board.push(rng.choice(moves))
        positions.append(board.copy(stack=False))
    return positions


def _stuck_for(key: tuple) -> int | None:
    """What the search passes as ``stuck``: the position's deadlocked set (the parent's,
    in the search) or, half of the time here, nothing."""
    return deadlocked_mask(key[:6], key[6]) if hash(key) % 2 else None


@pytest.mark.parametrize("kind", [Heuristic, NonAdmissibleHeuristic])
def test_shared_memo_values_equal_fresh_ones(kind: type[Heuristic]) -> None:
    """Property, over random games toward the position a random game reaches later:
    heuristics built one after the other for the same goal (sharing one memo, warmed by
    the previous ones, and interleaved with another blocked mask whose memo must not be
    confused with it) give every position the value of a heuristic with a memo of its own."""
    rng = random.Random(41)
    compared = finite = 0
    by_mask: dict[tuple, set[int]] = {}  # the values of a position under the masks
    for _ in range(6):
        game = _game(rng, 70)
        goal = game[-1]
        # the blocked squares of searches from the start, the middle and the last quarter of the game
        masks = tuple(blocked_squares(goal, game[len(game) * part // 4]) for part in (0, 2, 3))
        heuristic_module._memos.clear()
        for round_ in range(3):
            for mask in masks:
                shared = kind(goal, mask)
                fresh = kind(goal, mask, memo=_Memo())
                positions = game[:-1] if round_ % 2 == 0 else game[-2::-1]
                for board in positions:
                    key = position_key(board)
                    stuck = _stuck_for(key)
                    value = fresh.value_of_key(key, stuck)
                    assert shared.value_of_key(key, stuck) == value, (board.fen(), goal.fen(), mask)
                    by_mask.setdefault((goal.fen(), key, stuck), set()).add(value)
                    compared += 1
                    finite += value < INF
    assert compared > 1000 and finite > 200
    # the masks matter: a memo shared across them would give some wrong values
    assert sum(len(values) > 1 for values in by_mask.values()) > 20


def test_deadlock_bounds_are_capped_per_instance_with_a_shared_memo(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each heuristic bounds at most ``_MAX_DEADLOCK_BOUNDS`` deadlocked sets of its own,
    the first ones it meets, as when it had its own memo: a second heuristic sharing the
    memo of one that used its quota still gets its own (a cap on the shared table would
    give it none, and other values)."""
    monkeypatch.setattr(heuristic_module, "_MAX_DEADLOCK_BOUNDS", 1)
    # test_heuristic's paper example: Ph7, Rh8, Bg8, Pf6 and pf7 deadlocked on their goal
    # squares, so the h3 pawn cannot promote on h8 to become the goal's knight: INF with
    # the bound, finite without. In `other`, with the bishop off g8, only f6 and f7 are
    # deadlocked (another set, also on its goal squares).
    goal = chess.Board("6BR/5p1P/5P2/8/8/8/8/k1N4K w - - 0 1")
    start = chess.Board("6BR/5p1P/5P2/8/8/7P/8/k6K w - - 0 1")
    other = chess.Board("7R/5p1P/5P2/8/8/7P/8/kB5K w - - 0 1")
    heuristic_module._memos.clear()
    first = Heuristic(goal)
    assert first.value(other) < INF and first.value(start) < INF  # its quota went to `other`'s set
    assert Heuristic(goal).value(start) == INF == Heuristic(goal, memo=_Memo()).value(start)
    # property, along quiet random games toward their last position (the material never
    # changes, and locked pawns make ever new deadlocked sets): the same values in any order
    monkeypatch.setattr(heuristic_module, "_MAX_DEADLOCK_BOUNDS", 2)
    rng = random.Random(7)
    for _ in range(8):
        game = _game(rng, 120, quiet_only=True)
        goal = game[-1]
        keys = [position_key(board) for board in game]
        heuristic_module._memos.clear()
        for order in (keys, keys[::-1], keys):
            shared, fresh = Heuristic(goal), Heuristic(goal, memo=_Memo())
            assert [shared.value_of_key(k) for k in order] == [fresh.value_of_key(k) for k in order], goal.fen()


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


def test_king_danger_equals_its_straightforward_computation() -> None:
    """Property: the remembered way, the attack pre-filter and the remembered obstruction
    of ``_king_danger`` give the straightforward value, for random games toward a later
    position of theirs and random sets of placed opponent pieces."""
    rng = random.Random(3)
    compared = dangerous = 0
    for _ in range(12):
        game = _game(rng, 90)
        goal = game[-1]
        for mask in (0, blocked_squares(goal, chess.Board())):
            heuristic = NonAdmissibleHeuristic(goal, mask)
            for board in game[:-1]:
                key = position_key(board)
                for color in chess.COLORS:
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


def test_a_search_with_warm_memos_is_the_search_with_cold_ones() -> None:
    """The same search twice (the second one with the memos the first one filled) and
    once with every memo dropped: the same moves, nodes and best line."""
    goal = chess.Board("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
    mask = blocked_squares(goal, chess.Board())

    def run() -> tuple:
        result = search(chess.Board(), goal, heuristic=NonAdmissibleHeuristic(goal, mask), max_nodes=400, seed=3)
        return result.status, result.moves, result.nodes, result.best_moves

    heuristic_module._memos.clear()
    cold = run()
    assert run() == cold
    heuristic_module._memos.clear()
    assert run() == cold

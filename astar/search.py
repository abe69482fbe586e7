"""Weighted A* over real chess positions (texel documentation, A* section).

* Priority ``a*g + b*h`` (texel ``-w a:b``, default 1:5; ``1:1`` is plain A* and,
  with the admissible heuristic, returns a shortest proof game).
* Ties are broken in the paper's order: captures first, then king moves getting the
  king closer to its goal square, promotions, pawn moves, then a seeded random number.
* A node limit and a time limit; running out is a normal ``budget`` result.
  :func:`search_with_restarts` restarts with a ~20% larger node limit and a new seed,
  and on failure tries the non-admissible heuristic from the best node found.
* Moves that move or capture a piece on a blocked square are never generated (that
  piece stays put in every proof game), and positions with an infinite heuristic are
  pruned. Because both prunings are sound, an exhausted queue means the goal is
  unreachable from the start of this search (``unreachable``).
"""

from __future__ import annotations

import heapq
import itertools
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

import chess

from astar.heuristic import INF, Heuristic
from astar.paths import piece_distances

__all__ = ["SearchResult", "search", "search_with_restarts", "position_key"]


@dataclass(frozen=True)
class SearchResult:
    status: str  # "found", "unreachable", "budget"
    moves: tuple[chess.Move, ...]
    nodes: int
    seconds: float
    best_moves: tuple[chess.Move, ...] = ()
    best_h: int = INF


def position_key(board: chess.Board) -> tuple:
    ep = board.ep_square if board.ep_square is not None and board.has_legal_en_passant() else None
    return (board.pawns, board.knights, board.bishops, board.rooks, board.queens, board.kings,
            board.occupied_co[chess.WHITE], board.turn, board.castling_rights, ep)


def _path(parents: dict, key: tuple) -> tuple[chess.Move, ...]:
    moves = []
    while True:
        parent, move, _ = parents[key]
        if parent is None:
            break
        moves.append(move)
        key = parent
    return tuple(reversed(moves))


def search(
    init: chess.Board, goal: chess.Board, *, heuristic: Heuristic, weight: tuple[int, int] = (1, 5),
    max_nodes: int = 50_000, time_limit: float | None = None, seed: int = 0,
    on_improve: Callable[[int, tuple[chess.Move, ...]], None] | None = None,
) -> SearchResult:
    """Weighted A* from ``init`` to ``goal``; see the module docstring."""
    start = time.monotonic()
    rng = random.Random(seed)
    a, b = weight
    blocked = heuristic.blocked_mask
    goal_key = position_key(goal)
    king_dist = {}
    for color in chess.COLORS:
        ksq = goal.king(color)
        king_dist[color] = piece_distances(chess.KING, ksq, blocked, heuristic._forbidden[color]) if ksq is not None else None
    root = init.copy(stack=False)
    h0 = heuristic.value(root)
    root_key = position_key(root)
    parents: dict[tuple, tuple] = {root_key: (None, None, 0)}
    best_key, best_h = root_key, h0
    if h0 >= INF:
        return SearchResult("unreachable", (), 0, time.monotonic() - start)
    counter = itertools.count()
    # heap entries hold the parent board and the move; the child board is built only
    # when the entry is popped (most generated children are never expanded)
    heap = [(b * h0, 0, 0, 0, 0, 0, next(counter), 0, root, None)]
    closed: set[tuple] = set()
    nodes = 0
    while heap:
        entry = heapq.heappop(heap)
        g, parent_board, pmove = entry[7], entry[8], entry[9]
        if pmove is None:
            board = parent_board
        else:
            board = parent_board.copy(stack=False)
            board.push(pmove)
        key = position_key(board)
        if key in closed:
            continue
        closed.add(key)
        nodes += 1
        if key == goal_key:
            return SearchResult("found", _path(parents, key), nodes, time.monotonic() - start)
        if nodes >= max_nodes or (time_limit is not None and nodes % 128 == 0 and time.monotonic() - start > time_limit):
            return SearchResult("budget", (), nodes, time.monotonic() - start, _path(parents, best_key), best_h)
        mover = board.turn
        for move in list(board.legal_moves):
            if blocked & (chess.BB_SQUARES[move.from_square] | chess.BB_SQUARES[move.to_square]):
                continue
            capture = board.is_capture(move)
            piece_type = board.piece_type_at(move.from_square)
            board.push(move)
            ckey = position_key(board)
            if ckey in closed:
                board.pop()
                continue
            h = heuristic.value(board)
            board.pop()
            if h >= INF:
                continue
            old = parents.get(ckey)
            if old is not None and old[2] <= g + 1:
                continue
            parents[ckey] = (key, move, g + 1)
            if h < best_h:
                best_h, best_key = h, ckey
                if on_improve is not None:
                    on_improve(h, _path(parents, ckey))
            king_closer = 0
            if piece_type == chess.KING and king_dist[mover] is not None:
                kd = king_dist[mover]
                king_closer = 1 if kd[move.to_square] < kd[move.from_square] else 0
            heapq.heappush(heap, (
                a * (g + 1) + b * h, -int(capture), -king_closer, -int(move.promotion is not None),
                -int(piece_type == chess.PAWN), rng.random(), next(counter), g + 1, board, move,
            ))
    return SearchResult("unreachable", (), nodes, time.monotonic() - start)


def search_with_restarts(
    init: chess.Board, goal: chess.Board, *, heuristic: Heuristic, weight: tuple[int, int] = (1, 5),
    max_nodes: int = 200_000, time_limit: float | None = None, seed: int = 0, first_limit: int = 50_000,
    fallback: Heuristic | None = None,
    on_improve: Callable[[int, tuple[chess.Move, ...]], None] | None = None,
) -> SearchResult:
    """Restart with +20% node limit and a new seed until ``max_nodes`` total or the time is used.

    When a run fails and ``fallback`` (the non-admissible heuristic) is given, a shorter
    search with it is tried from that run's best node (texel ``-na``).
    """
    start = time.monotonic()
    total = 0
    limit = min(first_limit, max_nodes)
    attempt = 0
    last: SearchResult | None = None
    while total < max_nodes:
        left = None if time_limit is None else time_limit - (time.monotonic() - start)
        if left is not None and left <= 0:
            break
        result = search(init, goal, heuristic=heuristic, weight=weight, max_nodes=min(limit, max_nodes - total),
                        time_limit=left, seed=seed + attempt, on_improve=on_improve)
        total += result.nodes
        if result.status != "budget":
            return SearchResult(result.status, result.moves, total, time.monotonic() - start)
        last = result
        if fallback is not None and result.best_moves:
            mid = init.copy(stack=False)
            for move in result.best_moves:
                mid.push(move)
            left = None if time_limit is None else time_limit - (time.monotonic() - start)
            if left is None or left > 0:
                extra = search(mid, goal, heuristic=fallback, weight=weight, max_nodes=max(1, min(limit // 4, max_nodes - total)),
                               time_limit=left, seed=seed + attempt)
                total += extra.nodes
                if extra.status == "found":
                    return SearchResult("found", result.best_moves + extra.moves, total, time.monotonic() - start)
        attempt += 1
        limit = int(limit * 1.2) + 1
    return SearchResult("budget", (), total, time.monotonic() - start,
                        last.best_moves if last else (), last.best_h if last else INF)

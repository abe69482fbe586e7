"""Weighted A* over real chess positions (texel documentation, A* section).

* Priority ``a*g + b*h`` (texel ``-w a:b``, default 1:5; ``1:1`` is plain A* and,
  with the admissible heuristic, returns a shortest proof game).
* Ties are broken in the paper's order: captures first, then king moves getting the
  king closer to its goal square, promotions, pawn moves, then a seeded random number.
* A node limit and a time limit; running out is a normal ``budget`` result.
  :func:`search_with_restarts` restarts with a ~20% larger node limit and a new seed,
  and on failure tries the non-admissible heuristic from the best node found.
* :func:`search_descending` (what ``retro proofgame`` uses; our addition to the paper):
  short legs that each commit to the best node of the previous leg and rebuild the
  heuristics there, with the blocked squares recomputed between that node and the goal
  (a pawn already on its goal square with nothing behind it that could replace it is
  blocked from then on, which the first leg could not know). A leg's best node is the
  expanded node of lowest heuristic that has at least one child of finite heuristic (the
  lowest generated node is often a near-mate with every answer losing material:
  committing to it wasted the next leg). A leg also ends when its best node has not
  improved for ``patience`` nodes (700): a leg on a plateau rarely leaves it later, and
  the other heuristic or a fresh leg does better with the time (``bench/NOTES.md`` has
  the runs that chose 700). A leg that
  makes no progress with the leading heuristic is retried with the other one, which then
  leads the following legs (switching back at once let the admissible leg undo what the
  non-admissible one had prepared, e.g. a king stepping off the file a rook must cross);
  a dead end (unreachable from the committed node) or a committed position met again in
  the same attempt starts over from the beginning with a new seed. Except near the goal:
  when both legs made no progress from a node at most :data:`FINISH_H` from the goal by
  the first (admissible) heuristic, a *finishing* leg with that heuristic follows,
  without patience and with :data:`FINISH_LEG_FACTOR` times the nodes, before the
  search starts over. Near the goal the last moves often climb before they descend
  (e.g. the king steps off d1 to let a rook pass to c1, and steps back: h stays 2 for
  several plies), which patience cuts off, and then the whole committed line would be
  thrown away. Only a line that would be thrown away gets a finishing leg: running it
  after every stalled leg costs easy positions their time. :class:`Descent` is
  the same search, resumable in slices (:mod:`astar.portfolio`). Committing is what
  makes it incomplete, never unsound: the moves are real and the final game is
  replay-checked.
* Moves that move or capture a piece on a blocked square are never generated (that
  piece stays put in every proof game), and positions with an infinite heuristic are
  pruned. Because both prunings are sound, an exhausted queue means the goal is
  unreachable from the start of this search (``unreachable``).
"""

from __future__ import annotations

import gc
import heapq
import itertools
import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from enum import StrEnum

import chess

from astar.heuristic import INF, Heuristic, deadlocked_mask, node_key
from astar.legal_moves import legal_moves
from astar.paths import piece_distances

__all__ = [
    "Descent",
    "SearchResult",
    "SearchStatus",
    "search",
    "search_with_restarts",
    "search_descending",
    "node_key",
    "child_key",
]


@dataclass(frozen=True)
class SearchResult:
    status: SearchStatus
    moves: tuple[chess.Move, ...]
    nodes: int
    seconds: float
    best_moves: tuple[chess.Move, ...] = ()
    best_h: int = INF


def child_key(board: chess.Board, key: tuple, move: chess.Move) -> tuple | None:
    """The :func:`node_key` after ``move`` without playing it, for the common moves
    (quiet moves and plain captures); None for castling, promotions, en passant and
    double steps, which the caller plays out instead. Mirrors ``chess.Board.push``:
    the moved piece's mask, the captured piece's mask, White's occupancy, the side to
    move, castling rights cleared on both squares and on the back rank of a moving
    king, and no en-passant square. Reads the pieces from ``key`` alone (``board`` is
    the position it describes)."""
    if move.promotion is not None:
        return None
    from_sq, to_sq = move.from_square, move.to_square
    from_bb, to_bb = chess.BB_SQUARES[from_sq], chess.BB_SQUARES[to_sq]
    pawns, knights, bishops, rooks, queens, kings, white, turn, castling, _ep = key
    occupied = pawns | knights | bishops | rooks | queens | kings
    if not occupied & from_bb or (white if turn else occupied & ~white) & to_bb:
        return None  # no piece to move, or castling written as king takes rook
    if pawns & from_bb and (abs(to_sq - from_sq) == 16 or ((to_sq - from_sq) % 8 and not occupied & to_bb)):
        return None  # double step or en passant
    king_move = kings & from_bb
    if king_move and abs(to_sq - from_sq) not in (1, 7, 8, 9):
        return None
    changed = from_bb | to_bb
    if occupied & to_bb:  # a capture: the captured piece leaves its mask
        keep = ~to_bb
        pawns, knights, bishops, rooks, queens = (
            pawns & keep,
            knights & keep,
            bishops & keep,
            rooks & keep,
            queens & keep,
        )
    if pawns & from_bb:
        pawns ^= changed
    elif knights & from_bb:
        knights ^= changed
    elif bishops & from_bb:
        bishops ^= changed
    elif rooks & from_bb:
        rooks ^= changed
    elif queens & from_bb:
        queens ^= changed
    else:
        kings ^= changed
    white = white ^ changed if turn else white & ~to_bb
    castling &= ~changed
    if king_move:
        castling &= ~(chess.BB_RANK_1 if turn else chess.BB_RANK_8)
    return (pawns, knights, bishops, rooks, queens, kings, white, not turn, castling, None)


@contextmanager
def cyclic_gc_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off for the duration (and back on after, if it
    was on). A best-first search keeps hundreds of thousands of tracked objects alive
    (the parents map and the queue: tuples holding moves and boards) and allocates
    millions more, so the collector traverses them again and again, for about a quarter
    of the CPU of a long search (``bench/search_cost.py`` measures it). The
    search creates no reference cycles (its tuples, boards and moves are freed by
    reference counting alone), and any cycle made meanwhile is collected once the
    collector is back on. Speed only: what is searched does not change."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _path(parents: dict, key: tuple) -> tuple[chess.Move, ...]:
    moves = []
    while True:
        parent, move, _ = parents[key]
        if parent is None:
            break
        moves.append(move)
        key = parent
    return tuple(reversed(moves))


class SearchStatus(StrEnum):
    """How a search ended: the goal reached, the goal unreachable (the queue ran dry, every
    pruning being sound), or a budget (nodes, time, patience) spent."""

    FOUND = "found"
    UNREACHABLE = "unreachable"
    BUDGET = "budget"


#: A queue entry: ``(priority, -capture, -king closer, -promotion, -pawn move, random
#: draw, counter, g, parent board, move, child key, child h)``. The first seven fields
#: order the queue (the paper's tie-breaks, then a seeded draw, then the counter, which
#: is unique); the entry holds the parent board and the move, and the child board is
#: built only when the entry is popped (most generated children are never expanded). A
#: plain tuple: a ``NamedTuple`` costs about a microsecond more per child pushed.
_Entry = tuple[float, int, int, int, int, float, int, int, chess.Board, "chess.Move | None", tuple, int]


@cyclic_gc_paused()
def search(
    init: chess.Board,
    goal: chess.Board,
    *,
    heuristic: Heuristic,
    weight: tuple[int, int] = (1, 5),
    max_nodes: int = 50_000,
    time_limit: float | None = None,
    seed: int = 0,
    patience: int | None = None,
    on_improve: Callable[[int, tuple[chess.Move, ...]], None] | None = None,
) -> SearchResult:
    """Weighted A* from ``init`` to ``goal``; see the module docstring. With
    ``patience``, a search whose best node has not improved for that many nodes
    stops early (a ``budget`` result)."""
    start = time.monotonic()
    astar = _AStar(goal, heuristic, weight, random.Random(seed))
    root = init.copy(stack=False)
    h0 = heuristic.value(root)
    if h0 >= INF:
        return SearchResult(SearchStatus.UNREACHABLE, (), 0, time.monotonic() - start)
    return astar.run(
        root, h0, start=start, max_nodes=max_nodes, time_limit=time_limit, patience=patience, on_improve=on_improve
    )


def _king_distances(goal: chess.Board, heuristic: Heuristic) -> dict[chess.Color, tuple[int, ...] | None]:
    """Per colour, each square's king distance to the goal king's square (None without one)."""
    distances: dict[chess.Color, tuple[int, ...] | None] = {}
    for color in chess.COLORS:
        ksq = goal.king(color)
        distances[color] = (
            piece_distances(chess.KING, ksq, heuristic.blocked_mask, heuristic._forbidden[color])
            if ksq is not None
            else None
        )
    return distances


class _AStar:
    """The state of one :func:`search`: the queue, the parents map (key -> parent key,
    move, g) and the closed set."""

    def __init__(self, goal: chess.Board, heuristic: Heuristic, weight: tuple[int, int], rng: random.Random) -> None:
        self.goal_key = node_key(goal)
        self.heuristic = heuristic
        self.a, self.b = weight
        self.blocked = heuristic.blocked_mask
        self.unblocked = chess.BB_ALL & ~self.blocked
        self.king_dist = _king_distances(goal, heuristic)
        self.draw = rng.random
        self.counter = itertools.count()
        self.parents: dict[tuple, tuple] = {}
        self.closed: set[tuple] = set()
        self.heap: list[_Entry] = []

    def run(
        self,
        root: chess.Board,
        h0: int,
        *,
        start: float,
        max_nodes: int,
        time_limit: float | None,
        patience: int | None,
        on_improve: Callable[[int, tuple[chess.Move, ...]], None] | None,
    ) -> SearchResult:
        """Expand nodes best first from ``root`` (heuristic ``h0``) until the goal, an
        empty queue or a budget."""
        root_key = node_key(root)
        parents, closed, heap, goal_key = self.parents, self.closed, self.heap, self.goal_key
        parents[root_key] = (None, None, 0)
        best_key, best_h = root_key, INF
        heap.append((self.b * h0, 0, 0, 0, 0, 0, next(self.counter), 0, root, None, root_key, h0))
        nodes = improved_at = 0
        while heap:
            g, board, move, key, node_h = heapq.heappop(heap)[7:]
            if key in closed:
                continue
            if move is not None:
                board = board.copy(stack=False)
                board.push(move)
            closed.add(key)
            nodes += 1
            if key == goal_key:
                return SearchResult(SearchStatus.FOUND, _path(parents, key), nodes, time.monotonic() - start)
            out_of_time = time_limit is not None and nodes % 8 == 0 and time.monotonic() - start > time_limit
            if nodes >= max_nodes or out_of_time or (patience is not None and nodes - improved_at > patience):
                elapsed = time.monotonic() - start
                return SearchResult(SearchStatus.BUDGET, (), nodes, elapsed, _path(parents, best_key), best_h)
            if self.expand(board, key, g + 1) and node_h < best_h:
                best_h, best_key, improved_at = node_h, key, nodes
                if on_improve is not None:
                    on_improve(best_h, _path(parents, key))
        return SearchResult(SearchStatus.UNREACHABLE, (), nodes, time.monotonic() - start)

    def expand(self, board: chess.Board, key: tuple, child_g: int) -> bool:
        """Push the children of ``board`` (position key ``key``) at depth ``child_g``;
        whether one of them has a finite heuristic (or was already reached no deeper)."""
        heuristic, blocked, parents, closed = self.heuristic, self.blocked, self.parents, self.closed
        a, b, draw, counter = self.a, self.b, self.draw, self.counter
        kd = self.king_dist[board.turn]
        occupied, pawns, kings = board.occupied, board.pawns, board.kings
        # (local names for what the inner loop calls for every child)
        bb_squares, value_of_key, heappush, heap = chess.BB_SQUARES, heuristic.value_of_key, heapq.heappush, self.heap
        alive = False  # a child with a finite heuristic exists
        # the deadlocked pieces here stay deadlocked after any quiet move (Heuristic.value_of_key)
        stuck = deadlocked_mask(key[:6], key[6]) if heuristic.without_captures(key) else None
        # (the moves of blocked pieces are skipped below: not generating them changes nothing)
        for move in legal_moves(board, self.unblocked):
            from_sq, to_sq = move.from_square, move.to_square
            from_bb, to_bb = bb_squares[from_sq], bb_squares[to_sq]
            if blocked & (from_bb | to_bb):
                continue
            ckey = child_key(board, key, move)
            if ckey is None:
                board.push(move)
                ckey = node_key(board)
                board.pop()
            if ckey in closed:
                continue
            old = parents.get(ckey)
            if old is not None and old[2] <= child_g:
                alive = True
                continue
            pawn_move = pawns & from_bb
            # a capture: the target square is occupied (castling never is), or a pawn steps diagonally (en passant)
            capture = occupied & to_bb or (pawn_move and (to_sq - from_sq) % 8)
            h = value_of_key(ckey, None if capture else stuck)
            if h >= INF:
                continue
            alive = True
            parents[ckey] = (key, move, child_g)
            king_closer = kings & from_bb and kd is not None and kd[to_sq] < kd[from_sq]
            heappush(
                heap,
                (
                    a * child_g + b * h,
                    -bool(capture),
                    -bool(king_closer),
                    -(move.promotion is not None),
                    -bool(pawn_move),
                    draw(),
                    next(counter),
                    child_g,
                    board,
                    move,
                    ckey,
                    h,
                ),
            )
        return alive


def search_with_restarts(
    init: chess.Board,
    goal: chess.Board,
    *,
    heuristic: Heuristic,
    weight: tuple[int, int] = (1, 5),
    max_nodes: int = 200_000,
    time_limit: float | None = None,
    seed: int = 0,
    first_limit: int = 50_000,
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
        result = search(
            init,
            goal,
            heuristic=heuristic,
            weight=weight,
            max_nodes=min(limit, max_nodes - total),
            time_limit=left,
            seed=seed + attempt,
            on_improve=on_improve,
        )
        total += result.nodes
        if result.status != SearchStatus.BUDGET:
            return SearchResult(result.status, result.moves, total, time.monotonic() - start)
        last = result
        if fallback is not None and result.best_moves:
            mid = init.copy(stack=False)
            for move in result.best_moves:
                mid.push(move)
            left = None if time_limit is None else time_limit - (time.monotonic() - start)
            if left is None or left > 0:
                extra = search(
                    mid,
                    goal,
                    heuristic=fallback,
                    weight=weight,
                    max_nodes=max(1, min(limit // 4, max_nodes - total)),
                    time_limit=left,
                    seed=seed + attempt,
                )
                total += extra.nodes
                if extra.status == SearchStatus.FOUND:
                    return SearchResult(
                        SearchStatus.FOUND, result.best_moves + extra.moves, total, time.monotonic() - start
                    )
        attempt += 1
        limit = int(limit * 1.2) + 1
    return SearchResult(
        SearchStatus.BUDGET,
        (),
        total,
        time.monotonic() - start,
        last.best_moves if last else (),
        last.best_h if last else INF,
    )


def search_descending(
    init: chess.Board,
    goal: chess.Board,
    *,
    heuristics: Callable[[chess.Board], tuple[Heuristic, Heuristic]],
    weight: tuple[int, int] = (1, 5),
    leg_nodes: int = 5_000,
    max_nodes: int = 200_000,
    time_limit: float | None = None,
    seed: int = 0,
    patience: int | None = 700,
    on_improve: Callable[[int, tuple[chess.Move, ...]], None] | None = None,
) -> SearchResult:
    """Legs of at most ``leg_nodes`` nodes, each from the best node of the previous one
    (see the module docstring). ``heuristics(board)`` gives the admissible and the
    non-admissible heuristic for a search starting at ``board``."""
    descent = Descent(
        init, goal, heuristics=heuristics, weight=weight, leg_nodes=leg_nodes, seed=seed, patience=patience
    )
    return descent.run(max_nodes=max_nodes, time_limit=time_limit, on_improve=on_improve)


#: A leg from a node whose first heuristic (the admissible one, unless the caller swaps
#: them) is at most this is a *finishing* leg (module docstring).
FINISH_H = 4

#: A finishing leg's nodes, in ordinary legs.
FINISH_LEG_FACTOR = 4


class Descent:
    """The committed-leg search of :func:`search_descending`, resumable: each
    :meth:`run` goes on from where the previous one stopped (the committed line, the
    leading heuristic, the positions committed to, the seed), so a search cut into
    slices makes the moves of one long run, except that the leg a run's budget cuts
    short commits to its best node early (or, when it had not progressed, is run again
    by the next run instead of starting over)."""

    def __init__(
        self,
        init: chess.Board,
        goal: chess.Board,
        *,
        heuristics: Callable[[chess.Board], tuple[Heuristic, Heuristic]],
        weight: tuple[int, int] = (1, 5),
        leg_nodes: int = 5_000,
        seed: int = 0,
        patience: int | None = 700,
    ) -> None:
        self.init, self.goal, self.heuristics = init, goal, heuristics
        self.weight, self.leg_nodes, self.seed, self.patience = weight, leg_nodes, seed, patience
        self.current = init
        self.path: tuple[chess.Move, ...] = ()
        self.best_h = INF
        self.best_path: tuple[chess.Move, ...] = ()
        self.fallback = 0  # 1 while the non-admissible heuristic leads
        self.committed = {node_key(init)}  # the positions the legs of this attempt started from
        self.finish_nodes = FINISH_LEG_FACTOR * leg_nodes

    def run(
        self,
        *,
        max_nodes: int,
        time_limit: float | None = None,
        on_improve: Callable[[int, tuple[chess.Move, ...]], None] | None = None,
    ) -> SearchResult:
        """At most ``max_nodes`` more nodes; ``best_moves`` and ``best_h`` of the result
        are the best over every run so far."""
        start = time.monotonic()
        total = 0
        while total < max_nodes:
            left = None if time_limit is None else time_limit - (time.monotonic() - start)
            if left is not None and left <= 0:
                break
            result: SearchResult | None = None
            pair = self.heuristics(self.current)
            # the leading heuristic, the other one, then (near the goal) a finishing leg
            legs = [(self.fallback, self.leg_nodes, self.patience), (1 - self.fallback, self.leg_nodes, self.patience)]
            if pair[0].value(self.current) <= FINISH_H:
                legs.append((0, self.finish_nodes, None))
            for index, leg_nodes, patience in legs:
                if total >= max_nodes:
                    break
                if time_limit is not None:
                    left = max(0.0, time_limit - (time.monotonic() - start))
                result = search(
                    self.current,
                    self.goal,
                    heuristic=pair[index],
                    weight=self.weight,
                    max_nodes=max(1, min(leg_nodes, max_nodes - total)),
                    time_limit=left,
                    seed=self.seed,
                    patience=patience,
                )
                self.seed += 1
                total += result.nodes
                if result.status == SearchStatus.FOUND:
                    return SearchResult(SearchStatus.FOUND, self.path + result.moves, total, time.monotonic() - start)
                if result.status == SearchStatus.UNREACHABLE or result.best_moves:
                    self.fallback = index  # the heuristic that progressed leads the next leg
                    break
            dead_end = result is None or result.status == SearchStatus.UNREACHABLE or not result.best_moves
            if dead_end and total >= max_nodes and (result is None or result.status == SearchStatus.BUDGET):
                break  # cut by this run's budget, not a dead end: the next run goes on from here
            if dead_end and not self.path and result is not None and result.status == SearchStatus.UNREACHABLE:
                return SearchResult(SearchStatus.UNREACHABLE, (), total, time.monotonic() - start)
            if not dead_end:
                assert result is not None  # a leg without a result is a dead end
                self.path = self.path + result.best_moves
                self.current = self.current.copy(stack=False)
                for move in result.best_moves:
                    self.current.push(move)
                key = node_key(self.current)
                dead_end = key in self.committed  # the legs go round in circles (one heuristic undoing the other)
                self.committed.add(key)
            if dead_end:
                self.current, self.path, self.fallback = self.init, (), 0  # start over with a new seed
                self.committed = {node_key(self.init)}
                continue
            assert result is not None
            if result.best_h < self.best_h:
                self.best_h, self.best_path = result.best_h, self.path
                if on_improve is not None:
                    on_improve(self.best_h, self.best_path)
        return SearchResult(SearchStatus.BUDGET, (), total, time.monotonic() - start, self.best_path, self.best_h)

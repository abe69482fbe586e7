"""The compiled core of the unwinnability searches (numba): the move generator of
:mod:`~retro.unwinnable.movegen` compiled (the same functions the pure-Python path runs,
not a copy), and ports of the Score of :mod:`~retro.unwinnable.helpmate`, one iteration
of Find-Helpmate with its transposition table and its mate scans, and the quick routine's forced moves and
bounded search.

Rule: the compiled search is the pure-Python search, run faster. Each function computes
what its pure-Python original computes, in the same order: the legal moves in
python-chess's order (pieces and targets from the highest square down, promotions Q, R,
B, N, castling, then pawn captures, pushes, double pushes and en passant; in check the
evasions of ``_generate_evasions``), the position after a move, the transposition key
(en passant square kept only when the capture is legal), the Reward / Normal / Punish
split and the insufficient-material leaves. So a query visits the same positions in the
same order, counts the same nodes, cuts at the same places and finds the same line;
whatever the pure-Python search proves, this one proves. The quick search generates
less without changing what it visits: at its depth limit it asks only whether the
position has a legal move (a position with one is where ``_bounded_dfs`` gives up, one
without is a mate or a dead end, whatever the list holds), and below it a frame's first
move first and the others only when the search comes back to the frame (the first ``k``
moves of the list are the list's first ``k``: ``movegen._leading_moves``).
``tests/retro/test_unwinnable_jitcore.py``
compares them move for move on random-game positions and their children, and verdict for
verdict (status, line, nodes, reason); the lines it returns are replayed with
python-chess like every other line (:func:`retro.unwinnable._replayed`).

Representation: a position is a tuple of 11 int64 (python-chess's ``State`` fields;
bitboards as two's-complement int64, ``turn`` 1 for White, ``ep`` -1 for none); moves are
the same ints as in :mod:`~retro.unwinnable.fastboard`. The transposition table is an
open-addressing hash table in numpy arrays; an entry stores the whole key (8 bitboards
and one word packing turn, castling and en passant), so a hash collision can never be
mistaken for a hit (a false hit would make an incomplete search look complete).

Compiled once with ``cache=True`` (the machine code is kept in ``__pycache__`` for the
next processes; the first compile takes about 13 s of CPU, a later process loads it in
about 0.5 s, plus 0.3-0.6 s to import numba). :func:`warm_up` compiles or loads it and
makes it the default of :func:`retro.unwinnable.analyze` in the process; long batches
and the benchmark call it, a single query does not (loading costs more than most
queries). Without numba (or with ``RETRO_JIT=0`` in the environment) :data:`AVAILABLE`
is False and the pure-Python path runs.

Cache validity: numba keys a cached function by its own source file's time stamp and
bytecode, but the machine code of this module's searches embeds the generator (whose
source is ``movegen.py``), and the generator's embeds this module's bit primitives and
tables. So every compiled function here is cached with :class:`_SourceKeyedCache`, whose
index key adds a digest of the sources compiled together (``movegen.py``, this file,
``helpmate.py``) and python-chess's version: after any change to them (a ``git pull``
touching ``movegen.py`` alone included) the old entries no longer match and the code is
compiled afresh, never loaded stale.
"""

from __future__ import annotations

import hashlib
import os
import threading
import time
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import chess
import numpy as np

from retro.unwinnable import deadline as clock
from retro.unwinnable import fastboard, movegen
from retro.unwinnable.fastboard import State
from retro.unwinnable.helpmate import KNIGHT_DISTANCE


def _no_jit(*args: Any, **kwargs: Any) -> Callable[[Any], Any]:
    return lambda function: function


def _source_digest() -> str:
    """The digest of what the compiled code is made from (module docstring, "Cache validity")."""
    here = Path(__file__).resolve().parent
    digest = hashlib.sha256(chess.__version__.encode())
    for name in ("movegen.py", "jitcore.py", "helpmate.py"):
        digest.update((here / name).read_bytes())
    return digest.hexdigest()


SOURCE_DIGEST = _source_digest()

njit: Callable[..., Any] = _no_jit
AVAILABLE = False
try:
    if os.environ.get("RETRO_JIT", "1") != "0":
        import numba
        from numba.core.caching import FunctionCache
        from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

        class _SourceKeyedCache(FunctionCache):
            """numba's cache of one function, its index key extended with :data:`SOURCE_DIGEST`."""

            def _index_key(self, sig: Any, codegen: Any) -> tuple[Any, ...]:
                return (*super()._index_key(sig, codegen), SOURCE_DIGEST)

        def _keyed_njit(**options: Any) -> Callable[[Any], Any]:
            """``numba.njit(**options)``, its cache (if any) a :class:`_SourceKeyedCache`."""

            def compile_(function: Any) -> Any:
                dispatcher = numba.njit(**options)(function)
                if options.get("cache"):
                    dispatcher._cache = _SourceKeyedCache(dispatcher.py_func)
                return dispatcher

            return compile_

        njit = _keyed_njit
        AVAILABLE = True
except ImportError:  # pragma: no cover - numba is a dependency; without it the pure-Python path runs
    pass

#: A position inside the core: the 11 fields of a State as int64 (see the module docstring).
Pos = tuple[int, int, int, int, int, int, int, int, int, int, int]

__all__ = [
    "AVAILABLE",
    "CompiledHelpmateSearch",
    "quick_search",
    "legal_moves",
    "has_legal_move",
    "play",
    "key",
    "to_pos",
    "from_pos",
    "warm_up",
]

_QUICK_DEPTH = 9
_QUICK_NODES = 5_000
_FORCED_LIMIT = 200
#: Nodes between two looks at the clock in ``_helpmate`` when a deadline is set (a power of
#: two; reading the clock leaves the compiled code, about a microsecond).
_CHECK_EVERY = 4096
_NONE = -1


def _i64(value: int) -> int:
    """A 64-bit bitboard as the two's-complement int64 of the same bits."""
    return value - (1 << 64) if value >= 1 << 63 else value


def _table(rows: list[list[int]] | list[int]) -> np.ndarray:
    array = np.array(rows, dtype=np.uint64) if rows else np.zeros(0, dtype=np.uint64)
    return array.view(np.int64)


# Attack tables (python-chess's, as int64 arrays).
_TABLES = {name: _table(rows) for name, rows in movegen.flat_tables().items()}
_KING_DISTANCE = np.array([[chess.square_distance(a, b) for b in chess.SQUARES] for a in chess.SQUARES], np.int64)


def _direction_rays() -> np.ndarray:
    """Empty-board rays: 0-3 towards higher squares (N, E, NE, NW), 4-7 towards lower
    squares (S, W, SW, SE); a ray excludes its start square."""
    steps = [(0, 1), (1, 0), (1, 1), (-1, 1), (0, -1), (-1, 0), (-1, -1), (1, -1)]
    rays = []
    for file_step, rank_step in steps:
        row = []
        for square in chess.SQUARES:
            bits = 0
            file, rank = chess.square_file(square) + file_step, chess.square_rank(square) + rank_step
            while 0 <= file < 8 and 0 <= rank < 8:
                bits |= chess.BB_SQUARES[chess.square(file, rank)]
                file, rank = file + file_step, rank + rank_step
            row.append(bits)
        rays.append(row)
    return _table(rays)


_RAY = _direction_rays()
_KNIGHT_DISTANCE = np.array(KNIGHT_DISTANCE, np.int64)
_LIGHT = _i64(chess.BB_LIGHT_SQUARES)
_DARK = _i64(chess.BB_DARK_SQUARES)
_MOVE_ROOM = movegen._MOVE_ROOM  # (a backend name: the compiled generator reads it here)


# --- bit tricks ------------------------------------------------------------------------


@njit(cache=True, inline="always")
def _bit(square: int) -> int:
    return 1 << square


@njit(cache=True, inline="always")
def _msb(bits: int) -> int:
    return 63 - leading_zeros(bits)  # type: ignore[call-arg]


@njit(cache=True, inline="always")
def _bitlen(bits: int) -> int:
    return 64 - leading_zeros(bits)  # type: ignore[call-arg]


@njit(cache=True, inline="always")
def _lsb(bits: int) -> int:
    return trailing_zeros(bits)  # type: ignore[call-arg]


@njit(cache=True, inline="always")
def _shift_down(bits: int, count: int) -> int:
    """Logical right shift of an int64 bitboard."""
    return (bits >> count) & ((1 << (64 - count)) - 1)


@njit(cache=True)
def _ray_attacks(direction: int, square: int, occ: int) -> int:
    attacks = _RAY[direction, square]
    blockers = attacks & occ
    if blockers:
        blocker = _lsb(blockers) if direction < 4 else _msb(blockers)
        attacks ^= _RAY[direction, blocker]
    return attacks


@njit(cache=True)
def _rook_attacks(square: int, occ: int) -> int:
    return (
        _ray_attacks(0, square, occ)
        | _ray_attacks(1, square, occ)
        | _ray_attacks(4, square, occ)
        | _ray_attacks(5, square, occ)
    )


@njit(cache=True)
def _rank_attacks(square: int, occ: int) -> int:
    return _ray_attacks(1, square, occ) | _ray_attacks(5, square, occ)


@njit(cache=True)
def _bishop_attacks(square: int, occ: int) -> int:
    return (
        _ray_attacks(2, square, occ)
        | _ray_attacks(3, square, occ)
        | _ray_attacks(6, square, occ)
        | _ray_attacks(7, square, occ)
    )


# --- the move generator (movegen's functions, compiled) ---------------------------------


def _compile_generator() -> dict[str, Any]:
    """:mod:`~retro.unwinnable.movegen`'s functions compiled with this module's backend:
    each code object rebound to a copy of movegen's globals in which the tables are int64
    arrays, the constants int64, no en passant square -1, ``turn`` 1 or 0, and the bit
    primitives the ones above."""
    names = dict(vars(movegen))
    for name in movegen.BACKEND_NAMES:  # the bitboard constants (bit 63 set: negative)
        if type(names[name]) is int:
            names[name] = _i64(names[name])
    names.update(_TABLES, _NONE=_NONE, _OTHER=np.array([1, 0], np.int64))
    here = globals()
    names.update((name, here[name]) for name in movegen.BACKEND_NAMES if callable(names[name]))
    if not AVAILABLE:  # the Python backend's own functions (never called: the core is off)
        return {name: getattr(movegen, name) for name in movegen.KERNELS}
    for name in movegen.KERNELS:
        function = getattr(movegen, name)
        names[name] = njit(cache=True)(types.FunctionType(function.__code__, names, name))
    return names


_GENERATOR = _compile_generator()
_legal_moves = _GENERATOR["_legal_moves"]
_play = _GENERATOR["_play"]
_in_check = _GENERATOR["_in_check"]
_ep_legal = _GENERATOR["_ep_legal"]
_has_legal_move = _GENERATOR["_has_legal_move"]
_leading_moves = _GENERATOR["_leading_moves"]


@njit(cache=True)
def _key_word(s: Pos, buf: np.ndarray, n: int) -> int:
    """The 9th word of the transposition key: turn, castling rights and the en passant
    square when the capture is legal (``fastboard.key``); ``buf`` from ``n`` on is scratch."""
    ep = s[10] if _ep_legal(s, buf, n) else _NONE
    castling = s[9]
    return s[8] | (ep + 1) << 1 | (castling & 0xFF) << 8 | (_shift_down(castling, 56) & 0xFF) << 16


# --- helpmate search (helpmate.py) -----------------------------------------------------


@njit(cache=True)
def _lemma_shape(knights: int, bishops: int, rooks: int, mine: int, theirs: int) -> bool:
    if mine and mine == mine & knights and not mine & (mine - 1):
        return not theirs & (knights | bishops | rooks)
    if mine and mine == mine & bishops:
        if not mine & _LIGHT:
            other = _LIGHT
        elif not mine & _DARK:
            other = _DARK
        else:
            return False
        return not theirs & (knights | (bishops & other))
    return False


@njit(cache=True)
def _insufficient(s: Pos, winner: int) -> bool:
    kings = s[5]
    mine = (s[6] if winner else s[7]) & ~kings
    if not mine:
        return True
    if s[0]:
        return False
    return _lemma_shape(s[1], s[2], s[3], mine, (s[7] if winner else s[6]) & ~kings)


@njit(cache=True)
def _split_by_score(s: Pos, winner: int, buf: np.ndarray, start: int, end: int, scratch: np.ndarray) -> tuple[int, int]:
    """Reorder ``buf[start:end]`` as Rewarded, Normal, Punished moves (``split_by_score``):
    each group in generation order, except the winner's groups, each ordered by the king
    distance from the moves' target squares to the loser's king (stably); return the sizes
    of the first two groups."""
    turn = s[8]
    us, them = (s[6], s[7]) if turn else (s[7], s[6])
    pawns, knights, kings = s[0], s[1], s[5]
    slow = (kings | knights) & us
    king_target = 0
    knight_target = 0
    if slow:
        wb = s[2] & (s[6] if winner else s[7])
        lb = s[2] & (s[7] if winner else s[6])
        dark = (wb & _DARK) != 0 or ((lb & _LIGHT) != 0 and not wb & _LIGHT)
        flip = 0 if winner else 63
        if turn == winner:
            king_target, knight_target = (47 if dark else 40) ^ flip, (63 if dark else 56) ^ flip
        else:
            king_target, knight_target = (63 if dark else 56) ^ flip, (62 if dark else 57) ^ flip
    lemma_like = turn != winner and _lemma_shape(knights, s[2], s[3], them & ~kings, us & ~kings)
    loser_king = _msb(kings & them) if turn == winner else 0
    count = end - start
    for i in range(count):  # group of each move: 0 reward, 1 normal, 2 punish
        move = buf[start + i]
        frm = move & 63
        to = (move >> 6) & 63
        from_bb = _bit(frm)
        group = 1
        if turn == winner:
            if them & _bit(to) or pawns & from_bb:
                group = 0
            elif slow & from_bb:
                if kings & from_bb:
                    closer = _KING_DISTANCE[king_target, to] < _KING_DISTANCE[king_target, frm]
                else:
                    closer = _KNIGHT_DISTANCE[knight_target, to] < _KNIGHT_DISTANCE[knight_target, frm]
                group = 0 if closer else 1
        else:
            decided = False
            if lemma_like:
                promotion = move >> 12
                if promotion == 5 or promotion == 4:
                    group = 2
                    decided = True
                elif pawns & from_bb:
                    group = 0
                    decided = True
            if not decided and slow & from_bb:
                if kings & from_bb:
                    closer = _KING_DISTANCE[king_target, to] < _KING_DISTANCE[king_target, frm]
                else:
                    closer = _KNIGHT_DISTANCE[knight_target, to] < _KNIGHT_DISTANCE[knight_target, frm]
                if closer:
                    group = 0
                    decided = True
            if not decided and (them & _bit(to) or (pawns & from_bb and to == s[10] and (frm - to) & 7)):
                group = 2
        scratch[i] = move
        # The rank that orders the moves: 8 * group, plus for the winner's moves the king
        # distance from the target to the loser's king (0-7).
        scratch[256 + i] = 8 * group + (_KING_DISTANCE[loser_king, to] if turn == winner else 0)
    # A stable counting sort by rank.
    firsts = np.zeros(25, np.int64)
    for i in range(count):
        firsts[scratch[256 + i] + 1] += 1
    for rank in range(24):
        firsts[rank + 1] += firsts[rank]
    rewarded, normal = firsts[8], firsts[16] - firsts[8]
    for i in range(count):
        rank = scratch[256 + i]
        buf[start + firsts[rank]] = scratch[i]
        firsts[rank] += 1
    return rewarded, normal


@njit(cache=True)
def _mating_move(s: Pos, buf: np.ndarray, start: int, end: int) -> int:
    """The index in ``buf[start:end]`` (legal moves of ``s``) of the first move after which
    the other side is checkmated, or -1 (``mating_move``); ``buf`` from ``end`` on is scratch."""
    for i in range(start, end):
        child = _play(s, buf[i])
        if _in_check(child) and not _has_legal_move(child, buf[end:]):
            return i
    return -1


@njit(cache=True)
def _hash(words: np.ndarray) -> int:
    h = 0x2545F4914F6CDD1D
    for i in range(9):
        h = (h ^ words[i]) * -7046029254386353131  # 0x9E3779B97F4A7C15
        h ^= _shift_down(h, 29)
    return h


@njit(cache=True)
def _find(keys: np.ndarray, used: np.ndarray, words: np.ndarray, h: int) -> int:
    """The slot of ``words`` in the table, or the empty slot where it would go."""
    mask = keys.shape[0] - 1
    slot = h & mask
    while used[slot]:
        same = True
        for i in range(9):
            if keys[slot, i] != words[i]:
                same = False
                break
        if same:
            return slot
        slot = (slot + 1) & mask
    return slot


@njit(cache=True)
def _grow(keys: np.ndarray, used: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    capacity = keys.shape[0] * 2
    new_keys = np.zeros((capacity, 9), np.int64)
    new_used = np.zeros(capacity, np.bool_)
    new_values = np.zeros((capacity, 2), np.int64)
    for slot in range(keys.shape[0]):
        if used[slot]:
            target = _find(new_keys, new_used, keys[slot], _hash(keys[slot]))
            new_keys[target] = keys[slot]
            new_used[target] = True
            new_values[target] = values[slot]
    return new_keys, new_used, new_values


@njit(cache=True)
def _row(states: np.ndarray, i: int) -> Pos:
    return (
        states[i, 0],
        states[i, 1],
        states[i, 2],
        states[i, 3],
        states[i, 4],
        states[i, 5],
        states[i, 6],
        states[i, 7],
        states[i, 8],
        states[i, 9],
        states[i, 10],
    )


@njit(cache=True)
def _helpmate(
    root: Pos,
    winner: int,
    max_depth: int,
    node_bound: int,
    iteration: int,
    keys: np.ndarray,
    used: np.ndarray,
    values: np.ndarray,
    size: int,
    deadline: float,
) -> tuple[bool, int, bool, bool, np.ndarray, np.ndarray, np.ndarray, np.ndarray, int, bool]:
    """One iteration of ``HelpmateSearch.search`` (``_visit`` made iterative; the table
    is ``keys``/``used``/``values``/``size``, kept by the caller between iterations).
    Returns (found, nodes counted, cut by the limit, cut by a stale hit, line, the table,
    stopped by the deadline). ``deadline``: a ``time.perf_counter()`` value looked at every
    ``_CHECK_EVERY`` nodes, or 0.0 for none (then the clock is never read)."""
    capacity = 64
    states = np.empty((capacity, 11), np.int64)
    depths = np.empty(capacity, np.int64)
    starts = np.empty(capacity, np.int64)  # the frame's moves: buf[starts[i]:ends[i]]
    ends = np.empty(capacity, np.int64)
    nexts = np.empty(capacity, np.int64)  # index in buf of the next move to try
    rewards = np.empty(capacity, np.int64)  # end of the Rewarded moves
    normals = np.empty(capacity, np.int64)  # end of the Normal moves
    afters = np.empty(capacity, np.bool_)  # reached by a Rewarded move
    path = np.empty(capacity, np.int64)
    buf = np.empty(capacity * 64, np.int64)
    scratch = np.empty(512, np.int64)
    words = np.empty(9, np.int64)
    count = 0
    cut_limit = False
    cut_stale = False
    ply = 0  # the frame being entered
    state = root
    depth = max_depth
    after = False
    top = 0  # first free index of buf
    while True:
        # Enter ``state`` at ``ply`` (the body of _visit up to the loop over the moves).
        if ply + 1 >= capacity:
            capacity *= 2
            states2 = np.empty((capacity, 11), np.int64)
            states2[:ply] = states[:ply]
            states = states2
            depths = np.concatenate((depths, np.empty(capacity - depths.shape[0], np.int64)))
            starts = np.concatenate((starts, np.empty(capacity - starts.shape[0], np.int64)))
            ends = np.concatenate((ends, np.empty(capacity - ends.shape[0], np.int64)))
            nexts = np.concatenate((nexts, np.empty(capacity - nexts.shape[0], np.int64)))
            rewards = np.concatenate((rewards, np.empty(capacity - rewards.shape[0], np.int64)))
            normals = np.concatenate((normals, np.empty(capacity - normals.shape[0], np.int64)))
            afters = np.concatenate((afters, np.empty(capacity - afters.shape[0], np.bool_)))
            path = np.concatenate((path, np.empty(capacity - path.shape[0], np.int64)))
        if top + 2 * _MOVE_ROOM > buf.shape[0]:
            buf = np.concatenate((buf, np.empty(buf.shape[0], np.int64)))
        end = _legal_moves(state, buf, top)
        expanded = False
        if end == top:  # no legal move: a mate by the winner or another dead end
            if state[8] != winner and _in_check(state):
                return True, count, cut_limit, cut_stale, path[:ply].copy(), keys, used, values, size, False
        elif not _insufficient(state, winner):
            for i in range(8):
                words[i] = state[i]
            words[8] = _key_word(state, buf, end)
            h = _hash(words)
            slot = _find(keys, used, words, h)
            if used[slot] and values[slot, 0] >= depth:
                if values[slot, 1] != iteration:
                    cut_stale = True
            else:
                count += 1
                if deadline > 0.0 and (count & (_CHECK_EVERY - 1)) == 0:
                    with numba.objmode(now="float64"):
                        now = time.perf_counter()
                    if now >= deadline:
                        return False, count, cut_limit, cut_stale, path[:0].copy(), keys, used, values, size, True
                if count > node_bound or depth < 0:
                    cut_limit = True
                    if depth < 0 and count <= node_bound and state[8] == winner:  # mate beyond the horizon
                        if top + 2 * _MOVE_ROOM <= buf.shape[0]:
                            mate = _mating_move(state, buf, top, end)
                            if mate >= 0:
                                path[ply] = buf[mate]
                                line = path[: ply + 1].copy()
                                return True, count, cut_limit, cut_stale, line, keys, used, values, size, False
                else:
                    if not used[slot]:
                        used[slot] = True
                        keys[slot] = words
                        size += 1
                    values[slot, 0] = depth
                    values[slot, 1] = iteration
                    if 2 * size > keys.shape[0]:
                        keys, used, values = _grow(keys, used, values)
                    reward, normal = _split_by_score(state, winner, buf, top, end, scratch)
                    for i in range(11):
                        states[ply, i] = state[i]
                    depths[ply] = depth
                    afters[ply] = after
                    starts[ply] = top
                    ends[ply] = end
                    nexts[ply] = top
                    rewards[ply] = top + reward
                    normals[ply] = top + reward + normal
                    top = end
                    expanded = True
                    if state[8] == winner:  # mate first
                        mate = _mating_move(state, buf, starts[ply], end)
                        if mate >= 0:
                            path[ply] = buf[mate]
                            line = path[: ply + 1].copy()
                            return True, count, cut_limit, cut_stale, line, keys, used, values, size, False
        if not expanded:
            ply -= 1  # back to the parent, which tries its next move
        # Find the next child to enter: the next move of the deepest frame that has one.
        while ply >= 0 and nexts[ply] == ends[ply]:
            top = starts[ply]
            ply -= 1
        if ply < 0:
            return False, count, cut_limit, cut_stale, path[:0].copy(), keys, used, values, size, False
        index = nexts[ply]
        nexts[ply] = index + 1
        move = buf[index]
        path[ply] = move
        frame_depth = depths[ply]
        if index < rewards[ply]:
            depth, after = frame_depth, True
        elif index < normals[ply]:
            depth, after = (frame_depth if afters[ply] else frame_depth - 1), False
        else:
            depth, after = frame_depth - 3, False
        state = _play(_row(states, ply), move)
        ply += 1


# --- quick routine (routines.py) -------------------------------------------------------


#: The quick routine's scratch, one int64 array: move buffer, positions seen while
#: advancing, the search's frames (positions, move ranges).
_QUICK_BUF = (_QUICK_DEPTH + 2) * _MOVE_ROOM + 2 * _MOVE_ROOM
_QUICK_SEEN = (_FORCED_LIMIT + 1) * 9
_QUICK_WORK = _QUICK_BUF + _QUICK_SEEN + (_QUICK_DEPTH + 1) * 15
#: The quick routine's answer: nodes, forced moves, line length, the line.
_QUICK_OUT = 3 + _FORCED_LIMIT + _QUICK_DEPTH + 1


@njit(cache=True)
def _advance_forced(state: Pos, buf: np.ndarray, line: np.ndarray, seen: np.ndarray) -> tuple[Pos, int, int]:
    """``advance_forced``: play the only legal move while there is exactly one, until a
    position repeats or ``_FORCED_LIMIT`` moves; the moves go to ``line``. Returns the
    position reached, the number of moves, and the end of its legal moves in ``buf``
    (from 0; -1 when they were not generated)."""
    forced = 0
    seen_count = 0
    end = -1
    while forced < _FORCED_LIMIT:
        end = _legal_moves(state, buf, 0)
        if end != 1:
            break
        end = -1
        if seen_count == 0:
            for i in range(8):
                seen[0, i] = state[i]
            seen[0, 8] = _key_word(state, buf, 2)
            seen_count = 1
        state = _play(state, buf[0])
        line[forced] = buf[0]
        forced += 1
        for i in range(8):
            seen[seen_count, i] = state[i]
        seen[seen_count, 8] = _key_word(state, buf, 2)
        repeated = False
        for j in range(seen_count):
            same = True
            for i in range(9):
                if seen[j, i] != seen[seen_count, i]:
                    same = False
                    break
            if same:
                repeated = True
                break
        if repeated:
            break
        seen_count += 1
    return state, forced, end


@njit(cache=True)
def _quick(root: Pos, winner: int, out: np.ndarray) -> int:
    """``advance_forced`` then ``_bounded_dfs`` of the quick routine. Returns the outcome:
    1 mate found (the line: forced moves and the search's path), 0 the whole tree seen
    without a mate, -1 interrupted (depth or node budget; the line: the forced moves);
    ``out`` gets the nodes, the number of forced moves, the line's length and the line."""
    work = np.empty(_QUICK_WORK, np.int64)
    buf = work[:_QUICK_BUF]
    frames = work[_QUICK_BUF + _QUICK_SEEN :]
    states = frames[: (_QUICK_DEPTH + 1) * 11].reshape((_QUICK_DEPTH + 1, 11))
    starts = frames[(_QUICK_DEPTH + 1) * 11 : (_QUICK_DEPTH + 1) * 12]
    ends = frames[(_QUICK_DEPTH + 1) * 12 : (_QUICK_DEPTH + 1) * 13]
    nexts = frames[(_QUICK_DEPTH + 1) * 13 : (_QUICK_DEPTH + 1) * 14]
    fulls = frames[(_QUICK_DEPTH + 1) * 14 :]  # 1: the frame's moves are all generated
    line = out[3:]
    seen = work[_QUICK_BUF : _QUICK_BUF + _QUICK_SEEN].reshape((_FORCED_LIMIT + 1, 9))
    state, forced, pending = _advance_forced(root, buf, line, seen)
    out[1] = forced
    out[2] = forced
    budget = _QUICK_NODES
    ply = 0
    top = 0
    while True:
        # Enter ``state`` at ``ply`` with depth QUICK_DEPTH - ply. At the depth limit only
        # whether it has a legal move matters (a mate, a dead end, or the search gives up).
        # Below it, only the first move is generated; the others when the search comes back
        # (it usually gives up first): the same moves in the same order.
        if ply < _QUICK_DEPTH:
            full = pending >= 0
            end = pending if full else _leading_moves(state, buf, top, 1)
            pending = -1
            moves = end > top
        else:
            moves = _has_legal_move(state, buf[top:])
        expanded = False
        if not moves:
            if state[8] != winner and _in_check(state):
                out[0] = _QUICK_NODES - budget
                out[2] = forced + ply
                return 1
        elif not _insufficient(state, winner):
            budget -= 1
            if ply >= _QUICK_DEPTH or budget < 0:
                out[0] = _QUICK_NODES - budget
                return -1
            for i in range(11):
                states[ply, i] = state[i]
            starts[ply] = top
            ends[ply] = end
            nexts[ply] = top
            fulls[ply] = full
            top = end
            expanded = True
        if not expanded:
            ply -= 1
        while ply >= 0 and nexts[ply] == ends[ply]:
            if not fulls[ply]:  # the rest of the frame's moves, after the first one
                ends[ply] = _legal_moves(_row(states, ply), buf, starts[ply])
                fulls[ply] = 1
                top = ends[ply]
                if nexts[ply] < ends[ply]:
                    break
            top = starts[ply]
            ply -= 1
        if ply < 0:
            out[0] = _QUICK_NODES - budget
            out[2] = 0
            return 0
        move = buf[nexts[ply]]
        nexts[ply] += 1
        line[forced + ply] = move
        state = _play(_row(states, ply), move)
        ply += 1


# Entry points taking a position as 11 scalars: numba types a tuple argument element by
# element on every call (about 2.5 us for 11 ints), scalars almost for free.


@njit(cache=True)
def _quick_entry(
    p0: int, p1: int, p2: int, p3: int, p4: int, p5: int, p6: int, p7: int, p8: int, p9: int, p10: int,
    winner: int, out: np.ndarray,
) -> int:  # fmt: skip
    return _quick((p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10), winner, out)


@njit(cache=True)
def _helpmate_entry(
    p0: int, p1: int, p2: int, p3: int, p4: int, p5: int, p6: int, p7: int, p8: int, p9: int, p10: int,
    winner: int, max_depth: int, node_bound: int, iteration: int,
    keys: np.ndarray, used: np.ndarray, values: np.ndarray, size: int, deadline: float,
) -> tuple[bool, int, bool, bool, np.ndarray, np.ndarray, np.ndarray, np.ndarray, int, bool]:  # fmt: skip
    root = (p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10)
    return _helpmate(root, winner, max_depth, node_bound, iteration, keys, used, values, size, deadline)


@njit(cache=True)
def _legal_moves_array(root: Pos) -> np.ndarray:
    buf = np.empty(_MOVE_ROOM, np.int64)
    end = _legal_moves(root, buf, 0)
    return buf[:end].copy()


@njit(cache=True)
def _has_legal_move_flag(root: Pos) -> bool:
    return _has_legal_move(root, np.empty(_MOVE_ROOM, np.int64))


@njit(cache=True)
def _play_tuple(root: Pos, move: int) -> Pos:
    return _play(root, move)


@njit(cache=True)
def _key_array(root: Pos) -> np.ndarray:
    buf = np.empty(_MOVE_ROOM, np.int64)
    out = np.empty(9, np.int64)
    for i in range(8):
        out[i] = root[i]
    out[8] = _key_word(root, buf, 0)
    return out


# --- Python side -----------------------------------------------------------------------


_WRAP = 1 << 64


def to_pos(state: State) -> Pos:
    """The :data:`Pos` of a :data:`~retro.unwinnable.fastboard.State` (bitboards with bit 63
    set become negative int64). Only a piece on h8 sets bit 63 (clean castling rights are
    squares of rooks), so without one the bitboards are kept as they are."""
    p, n, b, r, q, k, white, black, turn, castling, ep = state
    if not (white | black) >> 63:
        return (p, n, b, r, q, k, white, black, 1 if turn else 0, castling, -1 if ep is None else ep)
    return (
        p - _WRAP if p >> 63 else p,
        n - _WRAP if n >> 63 else n,
        b - _WRAP if b >> 63 else b,
        r - _WRAP if r >> 63 else r,
        q - _WRAP if q >> 63 else q,
        k - _WRAP if k >> 63 else k,
        white - _WRAP if white >> 63 else white,
        black - _WRAP if black >> 63 else black,
        1 if turn else 0,
        castling - _WRAP if castling >> 63 else castling,
        -1 if ep is None else ep,
    )


def from_pos(pos: Pos) -> State:
    """The :data:`~retro.unwinnable.fastboard.State` of a :data:`Pos`."""
    words = [int(value) % _WRAP for value in pos]
    ep = int(pos[10])
    return (*words[:8], bool(words[8]), words[9], None if ep < 0 else ep)  # type: ignore[return-value]


def legal_moves(state: State) -> list[int]:
    """``fastboard.legal_moves`` computed by the compiled core (for tests)."""
    return [int(move) for move in _legal_moves_array(to_pos(state))]


def has_legal_move(state: State) -> bool:
    """``fastboard.has_legal_move`` computed by the compiled core (for tests)."""
    return bool(_has_legal_move_flag(to_pos(state)))


def play(state: State, move: int) -> State:
    """``fastboard.play`` computed by the compiled core (for tests)."""
    return from_pos(_play_tuple(to_pos(state), move))


def key(state: State) -> tuple[int, ...]:
    """The compiled transposition key: 8 bitboards and one word (turn, castling, legal en passant)."""
    return tuple(int(value) for value in _key_array(to_pos(state)))


_SCRATCH = threading.local()


def quick_search(state: State, winner: chess.Color) -> tuple[int, list[int], int, State]:
    """The quick routine's forced moves and bounded search: (1 mate found / 0 no mate in
    the whole tree / -1 gave up, the line (when 1), nodes, the position after the forced
    moves (when -1; replayed here with :func:`fastboard.play`, usually zero moves)). The
    answer array is kept per thread; only the moves made are read back."""
    out = getattr(_SCRATCH, "quick", None)
    if out is None:
        out = _SCRATCH.quick = np.empty(_QUICK_OUT, np.int64)
    outcome = _quick_entry(*to_pos(state), 1 if winner else 0, out)
    nodes, _, length = out[:3].tolist()
    if not length:
        return outcome, [], nodes, state
    moves = out[3 : 3 + length].tolist()
    if outcome == -1:
        for move in moves:
            state = fastboard.play(state, move)
        moves = []
    return outcome, moves, nodes, state


class CompiledHelpmateSearch:
    """:class:`~retro.unwinnable.helpmate.HelpmateSearch` with the compiled iteration: the
    same attributes (``nodes``, ``cut``, ``cut_limit``, ``line``) and the same answers."""

    def __init__(self, winner: chess.Color) -> None:
        self.winner = int(winner)
        self.iteration = 0
        self.nodes = 0
        self.cut_limit = False
        self.cut_stale = False
        self.line: list[int] = []
        self.clear_table()

    @property
    def cut(self) -> bool:
        return self.cut_limit or self.cut_stale

    def clear_table(self) -> None:
        self._keys = np.zeros((256, 9), np.int64)
        self._used = np.zeros(256, np.bool_)
        self._values = np.zeros((256, 2), np.int64)
        self._size = 0

    def search(self, state: State, max_depth: int, node_bound: int) -> bool:
        self.iteration += 1
        deadline = clock.current()
        outcome = _helpmate_entry(
            *to_pos(state),
            self.winner,
            max_depth,
            node_bound,
            self.iteration,
            self._keys,
            self._used,
            self._values,
            self._size,
            0.0 if deadline is None else deadline,
        )
        found, count, self.cut_limit, self.cut_stale, line, self._keys, self._used, self._values, self._size, late = (
            outcome
        )
        self.nodes += count
        if late:
            raise clock.TimeLimitReached
        self.line = line.tolist() if found else []
        return found


#: Whether :func:`warm_up` has loaded the core in this process (``analyze``'s default).
READY = False


def warm_up() -> float:
    """Compile (first run) or load from the cache the compiled entry points, and make the
    core the default of :func:`retro.unwinnable.analyze` in this process; the seconds it took."""
    global READY
    start = time.perf_counter()
    if AVAILABLE and not READY:
        state = fastboard.from_board(chess.Board())
        quick_search(state, chess.WHITE)
        CompiledHelpmateSearch(chess.WHITE).search(state, 1, 10)
        READY = True
    return time.perf_counter() - start

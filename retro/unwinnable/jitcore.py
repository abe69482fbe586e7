"""The compiled core of the unwinnability searches (numba): the move generator of
:mod:`~retro.unwinnable.fastboard`, the Score of :mod:`~retro.unwinnable.helpmate`, one
iteration of Find-Helpmate with its transposition table, and the quick routine's forced
moves and bounded search, each a line-for-line port of the pure-Python code.

Rule: the compiled search is the pure-Python search, run faster. Each function computes
what its pure-Python original computes, in the same order: the legal moves in
python-chess's order (pieces and targets from the highest square down, promotions Q, R,
B, N, castling, then pawn captures, pushes, double pushes and en passant; in check the
evasions of ``_generate_evasions``), the position after a move, the transposition key
(en passant square kept only when the capture is legal), the Reward / Normal / Punish
split and the insufficient-material leaves. So a query visits the same positions in the
same order, counts the same nodes, cuts at the same places and finds the same line;
whatever the pure-Python search proves, this one proves. ``tests/retro/test_unwinnable_jitcore.py``
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
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any

import chess
import numpy as np

from retro.unwinnable import deadline as clock
from retro.unwinnable import fastboard
from retro.unwinnable.fastboard import State
from retro.unwinnable.helpmate import KNIGHT_DISTANCE


def _no_jit(*args: Any, **kwargs: Any) -> Callable[[Any], Any]:
    return lambda function: function


njit: Callable[..., Any] = _no_jit
AVAILABLE = False
try:
    if os.environ.get("RETRO_JIT", "1") != "0":
        import numba
        from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

        njit = numba.njit
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
_KNIGHT = _table(list(chess.BB_KNIGHT_ATTACKS))
_KING = _table(list(chess.BB_KING_ATTACKS))
_PAWN = _table([list(chess.BB_PAWN_ATTACKS[chess.BLACK]), list(chess.BB_PAWN_ATTACKS[chess.WHITE])])
_RAYS = _table([list(row) for row in chess.BB_RAYS])
_BETWEEN = _table([[chess.between(a, b) for b in chess.SQUARES] for a in chess.SQUARES])
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
# Castling by rook square: king to, rook to, squares to be empty, squares not attacked (0 rows for other squares).
_CASTLE = np.zeros((64, 4), np.int64)
for _rook, (_king_to, _rook_to, _empty, _safe) in {
    chess.H1: (chess.G1, chess.F1, chess.BB_F1 | chess.BB_G1, chess.BB_E1 | chess.BB_F1 | chess.BB_G1),
    chess.A1: (chess.C1, chess.D1, chess.BB_B1 | chess.BB_C1 | chess.BB_D1, chess.BB_E1 | chess.BB_D1 | chess.BB_C1),
    chess.H8: (chess.G8, chess.F8, chess.BB_F8 | chess.BB_G8, chess.BB_E8 | chess.BB_F8 | chess.BB_G8),
    chess.A8: (chess.C8, chess.D8, chess.BB_B8 | chess.BB_C8 | chess.BB_D8, chess.BB_E8 | chess.BB_D8 | chess.BB_C8),
}.items():
    _CASTLE[_rook] = (_king_to, _rook_to, _i64(_empty), _i64(_safe))

_BACK_RANKS = _i64(chess.BB_RANK_1 | chess.BB_RANK_8)
_RANK_1 = chess.BB_RANK_1
_RANK_8 = _i64(chess.BB_RANK_8)
_RANK_4 = chess.BB_RANK_4
_RANK_5 = chess.BB_RANK_5
_EP_RANK_WHITE = chess.BB_RANK_5  # where a white pawn captures en passant from
_EP_RANK_BLACK = chess.BB_RANK_4
_LIGHT = _i64(chess.BB_LIGHT_SQUARES)
_DARK = _i64(chess.BB_DARK_SQUARES)
_ALL = -1
_MOVE_ROOM = 256  # more than the legal moves of any position (218 at most)


# --- bit tricks ------------------------------------------------------------------------


@njit(cache=True, inline="always")
def _bit(square: int) -> int:
    return 1 << square


@njit(cache=True, inline="always")
def _msb(bits: int) -> int:
    return 63 - leading_zeros(bits)  # type: ignore[call-arg]


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


# --- move generation (fastboard) -------------------------------------------------------


@njit(cache=True)
def _attackers(square: int, occ: int, them: int, s: Pos, white_attacks: bool) -> int:
    """Pieces of ``them`` attacking ``square`` with occupancy ``occ``."""
    rq = s[3] | s[4]
    bq = s[2] | s[4]
    attackers = (_KNIGHT[square] & s[1]) | (_KING[square] & s[5]) | (_PAWN[0 if white_attacks else 1, square] & s[0])
    if rq & them:
        attackers |= _rook_attacks(square, occ) & rq
    if bq & them:
        attackers |= _bishop_attacks(square, occ) & bq
    return them & attackers


@njit(cache=True)
def _piece_attacks(square: int, bit: int, s: Pos, occ: int) -> int:
    if bit & s[1]:
        return _KNIGHT[square]
    if bit & s[5]:
        return _KING[square]
    attacks = 0
    if bit & (s[2] | s[4]):
        attacks = _bishop_attacks(square, occ)
    if bit & (s[3] | s[4]):
        attacks |= _rook_attacks(square, occ)
    return attacks


@njit(cache=True)
def _safe_king_targets(s: Pos, targets: int, them: int, occ: int) -> int:
    safe = 0
    white_attacks = s[8] == 0
    while targets:
        to = _msb(targets)
        bit = _bit(to)
        targets ^= bit
        if not _attackers(to, occ, them, s, white_attacks):
            safe |= bit
    return safe


@njit(cache=True)
def _append(buf: np.ndarray, n: int, frm: int, targets: int) -> int:
    while targets:
        to = _msb(targets)
        targets ^= _bit(to)
        buf[n] = frm | to << 6
        n += 1
    return n


@njit(cache=True)
def _append_pawn(buf: np.ndarray, n: int, move: int, to: int) -> int:
    if _bit(to) & _BACK_RANKS:
        buf[n] = move | 5 << 12
        buf[n + 1] = move | 4 << 12
        buf[n + 2] = move | 3 << 12
        buf[n + 3] = move | 2 << 12
        return n + 4
    buf[n] = move
    return n + 1


@njit(cache=True)
def _pinned(king: int, us: int, them: int, occ: int, s: Pos) -> int:
    rq = s[3] | s[4]
    bq = s[2] | s[4]
    snipers = them & ((_rook_attacks(king, 0) & rq) | (_bishop_attacks(king, 0) & bq))
    pinned = 0
    while snipers:
        sniper = _lsb(snipers)
        snipers ^= _bit(sniper)
        between = _BETWEEN[king, sniper] & occ
        if between and not between & (between - 1):
            pinned |= between
    return pinned & us


@njit(cache=True)
def _in_check(s: Pos) -> bool:
    us, them = (s[6], s[7]) if s[8] else (s[7], s[6])
    king = _msb(s[5] & us)
    return _attackers(king, s[6] | s[7], them, s, s[8] == 0) != 0


@njit(cache=True)
def _ep_moves(buf: np.ndarray, n: int, s: Pos, us: int, them: int, occ: int, king: int, pinned: int) -> int:
    ep = s[10]
    if ep < 0 or _bit(ep) & occ:
        return n
    turn = s[8]
    capturers = s[0] & us & _PAWN[1 - turn, ep] & (_EP_RANK_WHITE if turn else _EP_RANK_BLACK)
    captured = ep - 8 if turn else ep + 8
    while capturers:
        frm = _msb(capturers)
        capturers ^= _bit(frm)
        if pinned & _bit(frm) and not _RAYS[king, frm] & _bit(ep):
            continue
        occupancy = (occ & ~_bit(captured) & ~_bit(frm)) | _bit(ep)
        if _rank_attacks(king, occupancy) & them & (s[3] | s[4]):
            continue
        if _bishop_attacks(king, occupancy) & them & (s[2] | s[4]):
            continue
        buf[n] = frm | ep << 6
        n += 1
    return n


@njit(cache=True)
def _pawn_moves(
    buf: np.ndarray, n: int, s: Pos, us: int, them: int, occ: int, king: int, pinned: int, to_mask: int
) -> int:
    turn = s[8]
    pawns = s[0] & us
    if not pawns:
        return n
    left = pawns
    while left:
        frm = _msb(left)
        left ^= _bit(frm)
        targets = _PAWN[turn, frm] & them & to_mask
        if targets and pinned & _bit(frm):
            targets &= _RAYS[king, frm]
        while targets:
            to = _msb(targets)
            targets ^= _bit(to)
            n = _append_pawn(buf, n, frm | to << 6, to)
    if turn:
        single = (pawns << 8) & ~occ
        double = (single << 8) & ~occ & _RANK_4
        step = -8
    else:
        single = _shift_down(pawns, 8) & ~occ
        double = _shift_down(single, 8) & ~occ & _RANK_5
        step = 8
    single &= to_mask
    while single:
        to = _msb(single)
        single ^= _bit(to)
        frm = to + step
        if pinned & _bit(frm) and not _RAYS[king, frm] & _bit(to):
            continue
        n = _append_pawn(buf, n, frm | to << 6, to)
    double &= to_mask
    while double:
        to = _msb(double)
        double ^= _bit(to)
        frm = to + 2 * step
        if pinned & _bit(frm) and not _RAYS[king, frm] & _bit(to):
            continue
        buf[n] = frm | to << 6
        n += 1
    return n


@njit(cache=True)
def _castling_moves(buf: np.ndarray, n: int, s: Pos, castling: int, them: int, occ: int, king: int) -> int:
    white_attacks = s[8] == 0
    while castling:
        rook = _msb(castling)
        castling ^= _bit(rook)
        king_to, rook_to, empty, safe = _CASTLE[rook, 0], _CASTLE[rook, 1], _CASTLE[rook, 2], _CASTLE[rook, 3]
        if (occ ^ _bit(king) ^ _bit(rook)) & (empty | _bit(king_to) | _bit(rook_to)):
            continue
        through = occ ^ _bit(king)
        path = safe & ~_bit(king_to)
        attacked = False
        while path:
            square = _msb(path)
            path ^= _bit(square)
            if _attackers(square, through, them, s, white_attacks):
                attacked = True
                break
        if attacked:
            continue
        after = occ ^ _bit(king) ^ _bit(rook) ^ _bit(rook_to)
        if _attackers(king_to, after, them, s, white_attacks):
            continue
        buf[n] = king | king_to << 6
        n += 1
    return n


@njit(cache=True)
def _legal_moves(s: Pos, buf: np.ndarray, n: int) -> int:
    """Write the legal moves of ``s`` into ``buf`` from index ``n`` on, in python-chess's
    order (``fastboard.legal_moves``); return the index after the last one."""
    white, black, turn = s[6], s[7], s[8]
    us, them = (white, black) if turn else (black, white)
    occ = white | black
    king = _msb(s[5] & us)
    checkers = _attackers(king, occ, them, s, turn == 0)
    if checkers:
        behind = 0  # the lines of the checking sliders through the king
        sliders = checkers & (s[2] | s[3] | s[4])
        while sliders:
            checker = _msb(sliders)
            sliders ^= _bit(checker)
            behind |= _RAYS[king, checker] & ~_bit(checker)
        n = _append(buf, n, king, _safe_king_targets(s, _KING[king] & ~us & ~behind, them, occ))
        if checkers & (checkers - 1):
            return n
        pinned = _pinned(king, us, them, occ, s)
        checker = _msb(checkers)
        target = _BETWEEN[king, checker] | checkers
        pieces = us & ~s[0] & ~s[5]
        while pieces:
            frm = _msb(pieces)
            bit = _bit(frm)
            pieces ^= bit
            targets = _piece_attacks(frm, bit, s, occ) & target
            if targets and pinned & bit:
                targets &= _RAYS[king, frm]
            n = _append(buf, n, frm, targets)
        n = _pawn_moves(buf, n, s, us, them, occ, king, pinned, target)
        ep = s[10]
        if ep >= 0 and (_bit(ep) & target or (ep - 8 if turn else ep + 8) == checker):
            n = _ep_moves(buf, n, s, us, them, occ, king, pinned)
        return n
    pinned = _pinned(king, us, them, occ, s)
    not_us = ~us
    pieces = us & ~s[0]
    while pieces:
        frm = _msb(pieces)
        bit = _bit(frm)
        pieces ^= bit
        if frm == king:
            targets = _safe_king_targets(s, _KING[king] & not_us, them, occ)
        else:
            targets = _piece_attacks(frm, bit, s, occ) & not_us
            if targets and pinned & bit:
                targets &= _RAYS[king, frm]
        n = _append(buf, n, frm, targets)
    castling = s[9] & (_RANK_1 if turn else _RANK_8)
    if castling:
        n = _castling_moves(buf, n, s, castling, them, occ, king)
    n = _pawn_moves(buf, n, s, us, them, occ, king, pinned, _ALL)
    return _ep_moves(buf, n, s, us, them, occ, king, pinned)


@njit(cache=True)
def _play(s: Pos, move: int) -> Pos:
    """The position after the legal ``move`` (``fastboard.play``)."""
    pawns, knights, bishops, rooks, queens, kings, white, black, turn, castling, ep = s
    frm = move & 63
    to = (move >> 6) & 63
    promotion = move >> 12
    from_bb = _bit(frm)
    to_bb = _bit(to)
    keep = ~to_bb
    new_ep = _NONE
    castling &= ~from_bb & keep
    if from_bb & pawns:
        pawns &= ~from_bb
        diff = to - frm
        if diff == 16 or diff == -16:
            new_ep = frm + (8 if diff > 0 else -8)
        elif to == ep and diff != 8 and diff != -8 and not (white | black) & to_bb:
            captured = ~_bit(to - 8 if turn else to + 8)
            pawns &= captured
            white &= captured
            black &= captured
        knights &= keep
        bishops &= keep
        rooks &= keep
        queens &= keep
        if promotion == 0:
            pawns |= to_bb
        elif promotion == 5:
            queens |= to_bb
        elif promotion == 2:
            knights |= to_bb
        elif promotion == 4:
            rooks |= to_bb
        else:
            bishops |= to_bb
    else:
        pawns &= keep
        if from_bb & kings:
            castling &= ~(_RANK_1 if turn else _RANK_8)
            kings = (kings & ~from_bb) | to_bb
            knights &= keep
            bishops &= keep
            rooks &= keep
            queens &= keep
            if to - frm == 2 or frm - to == 2:
                if to > frm:
                    rook_move = _bit(frm + 3) | _bit(frm + 1)
                else:
                    rook_move = _bit(frm - 4) | _bit(frm - 1)
                rooks ^= rook_move
                if turn:
                    white ^= rook_move
                else:
                    black ^= rook_move
        elif from_bb & knights:
            knights = (knights & ~from_bb) | to_bb
            bishops &= keep
            rooks &= keep
            queens &= keep
        elif from_bb & bishops:
            bishops = (bishops & ~from_bb) | to_bb
            knights &= keep
            rooks &= keep
            queens &= keep
        elif from_bb & rooks:
            rooks = (rooks & ~from_bb) | to_bb
            knights &= keep
            bishops &= keep
            queens &= keep
        else:
            queens = (queens & ~from_bb) | to_bb
            knights &= keep
            bishops &= keep
            rooks &= keep
    if turn:
        white = (white & ~from_bb) | to_bb
        black &= keep
    else:
        black = (black & ~from_bb) | to_bb
        white &= keep
    return (pawns, knights, bishops, rooks, queens, kings, white, black, 1 - turn, castling, new_ep)


@njit(cache=True)
def _key_word(s: Pos, buf: np.ndarray, n: int) -> int:
    """The 9th word of the transposition key: turn, castling rights and the en passant
    square when the capture is legal (``fastboard.key``); ``buf`` from ``n`` on is scratch."""
    ep = s[10]
    if ep >= 0:
        us = s[6] if s[8] else s[7]
        legal = False
        if not _bit(ep) & (s[6] | s[7]) and s[0] & us & _PAWN[1 - s[8], ep]:
            end = _legal_moves(s, buf, n)
            for i in range(n, end):
                move = buf[i]
                if (move >> 6) & 63 == ep and _bit(move & 63) & s[0]:
                    legal = True
                    break
        if not legal:
            ep = _NONE
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
    """Reorder ``buf[start:end]`` as Rewarded, Normal, Punished moves (``split_by_score``),
    each group in generation order; return the sizes of the first two groups."""
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
        scratch[256 + i] = group
    n = start
    ends = np.zeros(3, np.int64)
    for group in range(3):
        for i in range(count):
            if scratch[256 + i] == group:
                buf[n] = scratch[i]
                n += 1
        ends[group] = n - start
    return ends[0], ends[1] - ends[0]


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


@njit(cache=True)
def _quick(root: Pos, winner: int) -> tuple[int, np.ndarray, int, int]:
    """``advance_forced`` then ``_bounded_dfs`` of the quick routine. Returns (outcome,
    line, nodes, number of forced moves) with outcome 1 mate found (the line: forced moves
    and the search's path), 0 the whole tree seen without a mate, -1 interrupted (depth or
    node budget; the line: the forced moves)."""
    buf = np.empty((_QUICK_DEPTH + 2) * _MOVE_ROOM + 2 * _MOVE_ROOM, np.int64)
    state = root
    line = np.empty(_FORCED_LIMIT + _QUICK_DEPTH + 1, np.int64)
    forced = 0
    seen = np.empty((_FORCED_LIMIT + 1, 9), np.int64)
    seen_count = 0
    while forced < _FORCED_LIMIT:
        end = _legal_moves(state, buf, 0)
        if end != 1:
            break
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
    states = np.empty((_QUICK_DEPTH + 1, 11), np.int64)
    starts = np.empty(_QUICK_DEPTH + 1, np.int64)
    ends = np.empty(_QUICK_DEPTH + 1, np.int64)
    nexts = np.empty(_QUICK_DEPTH + 1, np.int64)
    budget = _QUICK_NODES
    ply = 0
    top = 0
    while True:
        # Enter ``state`` at ``ply`` with depth QUICK_DEPTH - ply.
        end = _legal_moves(state, buf, top)
        expanded = False
        if end == top:
            if state[8] != winner and _in_check(state):
                return 1, line[: forced + ply].copy(), _QUICK_NODES - budget, forced
        elif not _insufficient(state, winner):
            budget -= 1
            if ply >= _QUICK_DEPTH or budget < 0:
                return -1, line[:forced].copy(), _QUICK_NODES - budget, forced
            for i in range(11):
                states[ply, i] = state[i]
            starts[ply] = top
            ends[ply] = end
            nexts[ply] = top
            top = end
            expanded = True
        if not expanded:
            ply -= 1
        while ply >= 0 and nexts[ply] == ends[ply]:
            top = starts[ply]
            ply -= 1
        if ply < 0:
            return 0, line[:0].copy(), _QUICK_NODES - budget, forced
        move = buf[nexts[ply]]
        nexts[ply] += 1
        line[forced + ply] = move
        state = _play(_row(states, ply), move)
        ply += 1


@njit(cache=True)
def _legal_moves_array(root: Pos) -> np.ndarray:
    buf = np.empty(_MOVE_ROOM, np.int64)
    end = _legal_moves(root, buf, 0)
    return buf[:end].copy()


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
    set become negative int64; a tuple is the cheapest argument to pass to the core)."""
    p, n, b, r, q, k, white, black, turn, castling, ep = state
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


def play(state: State, move: int) -> State:
    """``fastboard.play`` computed by the compiled core (for tests)."""
    return from_pos(_play_tuple(to_pos(state), move))


def key(state: State) -> tuple[int, ...]:
    """The compiled transposition key: 8 bitboards and one word (turn, castling, legal en passant)."""
    return tuple(int(value) for value in _key_array(to_pos(state)))


def quick_search(state: State, winner: chess.Color) -> tuple[int, list[int], int, State]:
    """The quick routine's forced moves and bounded search: (1 mate found / 0 no mate in
    the whole tree / -1 gave up, the line (when 1), nodes, the position after the forced
    moves (when -1; replayed here with :func:`fastboard.play`, usually zero moves))."""
    outcome, line, nodes, forced = _quick(to_pos(state), int(winner))
    moves = line.tolist()
    for move in moves[:forced] if outcome == -1 else ():
        state = fastboard.play(state, move)
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
        outcome = _helpmate(
            to_pos(state),
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

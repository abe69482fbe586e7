"""The move generator of the unwinnability searches, written once for two backends.

The functions of this module are plain Python over a position ``s`` (the 11 fields of a
:data:`~retro.unwinnable.fastboard.State`: 8 bitboards, turn, castling rights as rook
squares, en passant square) and a move buffer ``buf`` they write into from an index on
and whose new end they return. They run twice, from the same code objects:

- as they are, with this module's globals (the *Python backend*): bitboards are
  non-negative Python ints, ``turn`` a bool, no en passant square ``None``; the slider
  attacks are python-chess's lookup tables. :mod:`~retro.unwinnable.fastboard` is this.
- compiled by numba (:mod:`retro.unwinnable.jitcore`, which rebinds each function's
  code object to globals of its own: the same tables as int64 arrays, ``turn`` 1 or 0, no
  en passant square ``-1``, ``_bitlen``/``_lsb`` as machine instructions, slider attacks
  by rays on the empty board cut at the first blocker).

So there is one generator, not a port: only the primitives listed in
:data:`BACKEND_NAMES` differ between the backends, and each of them is a few lines that
``tests/retro/test_unwinnable_jitcore.py`` compares too (every move list, child position
and key computed by both executions on random-game positions).

Rule: :func:`_legal_moves` writes exactly ``Board.generate_legal_moves()`` of the
position, in the same order (:func:`_leading_moves` its first ``count`` moves: the same
loops, stopped); :func:`_play` the position ``Board.push`` gives (standard
chess: castling, en passant and promotions included); :func:`_ep_legal` whether the en
passant capture is legal (``Board.has_legal_en_passant``); :func:`_has_legal_move`
whether the list is non-empty. Why: it applies python-chess's own tests, written out on
bitboards: pieces pinned to their king (``_slider_blockers``) keep to the line through
the king, the king steps to unattacked squares, in check the evasions of
``_generate_evasions`` (king steps off the checking rays; with one checker, a capture of
it or an interposition), en passant under ``pin_mask`` and ``_ep_skewered``, castling
under ``generate_castling_moves``'s conditions; the loops visit pieces and targets in
python-chess's order (``scan_reversed``: highest square first; promotions Q, R, B, N;
castling, then pawn captures, pushes, double pushes and en passant), so the lists are
equal, not only as sets. :func:`_has_legal_move`'s shortcut: not in check, a piece that
is neither the king nor pinned and attacks a square not ours has that legal move (it
cannot uncover a check), as has such a pawn with a free square ahead or an enemy piece
diagonally ahead; otherwise the full list decides. ``tests/retro/test_unwinnable_fastboard.py``
compares them with python-chess on random games and on constructed positions with pins,
checks, castling and en passant.
"""

from __future__ import annotations

from typing import Any

import chess
from chess import BB_DIAG_ATTACKS, BB_DIAG_MASKS, BB_FILE_ATTACKS, BB_FILE_MASKS, BB_RANK_ATTACKS, BB_RANK_MASKS

__all__ = ["BACKEND_NAMES", "KERNELS", "flat_tables"]

#: A position's 11 fields (see the module docstring: ints or int64, bool or 0/1, None or -1).
Fields = tuple[Any, ...]
#: A move buffer: a Python list or a numpy int64 array, written from an index on.
Buffer = Any


def flat_tables() -> dict[str, list[int]]:
    """python-chess's tables, flattened to one index (``a * 64 + b``; castling ``rook * 4 + i``)."""
    castle = [0] * 256  # by rook square: king to, rook to, squares to be empty, squares not attacked
    for rook in (chess.H1, chess.A1, chess.H8, chess.A8):
        king = chess.square(4, chess.square_rank(rook))
        side = 1 if rook > king else -1
        castle[rook * 4 : rook * 4 + 4] = (
            king + 2 * side,
            king + side,
            chess.between(king, rook),
            chess.between(king - side, king + 3 * side),  # the king's square to its target
        )
    return {
        "_KNIGHT": list(chess.BB_KNIGHT_ATTACKS),
        "_KING": list(chess.BB_KING_ATTACKS),
        # Row 0: the squares a black pawn attacks (= where a white pawn attacks a square from).
        "_PAWN": list(chess.BB_PAWN_ATTACKS[chess.BLACK]) + list(chess.BB_PAWN_ATTACKS[chess.WHITE]),
        "_RAYS": [ray for row in chess.BB_RAYS for ray in row],
        "_BETWEEN": [chess.between(a, b) for a in chess.SQUARES for b in chess.SQUARES],
        "_CASTLE": castle,
    }


# --- the Python backend's primitives (jitcore binds its own to the same names) ---------

_KNIGHT, _KING, _PAWN, _RAYS, _BETWEEN, _CASTLE = flat_tables().values()
_NONE: Any = None  # no en passant square
_OTHER: Any = (True, False)  # the other side, indexed by ``turn``
_BACK_RANKS = chess.BB_RANK_1 | chess.BB_RANK_8
_RANK_1, _RANK_4, _RANK_5, _RANK_8 = chess.BB_RANK_1, chess.BB_RANK_4, chess.BB_RANK_5, chess.BB_RANK_8
_FILE_A, _FILE_H, _ALL = chess.BB_FILE_A, chess.BB_FILE_H, chess.BB_ALL
_MOVE_ROOM = 256  # more than the legal moves of any position (218 at most)


#: The number of significant bits (the highest set bit's square + 1); a C method here.
_bitlen = int.bit_length


def _lsb(bits: int) -> int:
    return (bits & -bits).bit_length() - 1


def _shift_down(bits: int, count: int) -> int:
    """Logical right shift of a 64-bit bitboard (an int64 one has its sign bits masked off)."""
    return (bits >> count) & ((1 << (64 - count)) - 1)


def _rook_attacks(square: int, occ: int) -> int:
    return BB_RANK_ATTACKS[square][BB_RANK_MASKS[square] & occ] | BB_FILE_ATTACKS[square][BB_FILE_MASKS[square] & occ]


def _rank_attacks(square: int, occ: int) -> int:
    return BB_RANK_ATTACKS[square][BB_RANK_MASKS[square] & occ]


def _bishop_attacks(square: int, occ: int) -> int:
    return BB_DIAG_ATTACKS[square][BB_DIAG_MASKS[square] & occ]


#: The globals a backend sets: tables, constants and the bit primitives above.
BACKEND_NAMES = (
    "_KNIGHT _KING _PAWN _RAYS _BETWEEN _CASTLE _NONE _OTHER _BACK_RANKS _RANK_1 _RANK_8 _RANK_4 _RANK_5 "
    "_FILE_A _FILE_H _ALL _MOVE_ROOM _bitlen _lsb _shift_down _rook_attacks _rank_attacks _bishop_attacks"
).split()


# --- the generator (one source) ------------------------------------------------------


def _attackers(square: int, occ: int, them: int, s: Fields, white_attacks: bool) -> int:
    """Pieces of ``them`` attacking ``square`` with occupancy ``occ``."""
    rq = s[3] | s[4]
    bq = s[2] | s[4]
    attackers = (
        (_KNIGHT[square] & s[1]) | (_KING[square] & s[5]) | (_PAWN[(0 if white_attacks else 64) + square] & s[0])
    )
    if rq & them:
        attackers |= _rook_attacks(square, occ) & rq
    if bq & them:
        attackers |= _bishop_attacks(square, occ) & bq
    return them & attackers


def _piece_attacks(square: int, bit: int, s: Fields, occ: int) -> int:
    """Attacks of the non-pawn piece on ``square`` (``bit`` = its bit)."""
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


def _safe_king_targets(s: Fields, targets: int, them: int, occ: int, limit: int) -> int:
    """The squares of ``targets`` no enemy piece attacks with occupancy ``occ``; only the
    ``limit`` highest such squares."""
    safe = 0
    white_attacks = s[8] == 0
    while targets:
        to = _bitlen(targets) - 1
        bit = 1 << to
        targets ^= bit
        if not _attackers(to, occ, them, s, white_attacks):
            safe |= bit
            limit -= 1
            if limit == 0:
                break
    return safe


def _append(buf: Buffer, n: int, frm: int, targets: int, stop: int) -> int:
    """Write the moves from ``frm`` to each square of ``targets``, highest square first,
    until index ``stop``."""
    while targets and n < stop:
        to = _bitlen(targets) - 1
        targets ^= 1 << to
        buf[n] = frm | to << 6
        n += 1
    return n


def _append_pawn(buf: Buffer, n: int, move: int, to: int) -> int:
    """Write a pawn move, as four promotions (Q, R, B, N) on the last rank."""
    if (1 << to) & _BACK_RANKS:
        buf[n] = move | 5 << 12
        buf[n + 1] = move | 4 << 12
        buf[n + 2] = move | 3 << 12
        buf[n + 3] = move | 2 << 12
        return n + 4
    buf[n] = move
    return n + 1


def _pinned(king: int, us: int, them: int, occ: int, s: Fields) -> int:
    """Our pieces alone between our king and an enemy slider (``_slider_blockers``)."""
    rq = s[3] | s[4]
    bq = s[2] | s[4]
    snipers = them & ((_rook_attacks(king, 0) & rq) | (_bishop_attacks(king, 0) & bq))
    pinned = 0
    while snipers:
        sniper = _lsb(snipers)
        snipers ^= 1 << sniper
        between = _BETWEEN[king * 64 + sniper] & occ
        if between and not between & (between - 1):
            pinned |= between
    return pinned & us


def _in_check(s: Fields) -> bool:
    us, them = (s[6], s[7]) if s[8] else (s[7], s[6])
    king = _bitlen(s[5] & us) - 1
    return _attackers(king, s[6] | s[7], them, s, s[8] == 0) != 0


def _ep_moves(buf: Buffer, n: int, s: Fields, us: int, them: int, occ: int, king: int, pinned: int) -> int:
    """``generate_pseudo_legal_ep`` filtered by ``_is_safe`` (pin mask and skewer)."""
    ep = s[10]
    if ep == _NONE or (1 << ep) & occ:
        return n
    turn = s[8]
    capturers = s[0] & us & _PAWN[(0 if turn else 64) + ep] & (_RANK_5 if turn else _RANK_4)
    captured = ep - 8 if turn else ep + 8
    while capturers:
        frm = _bitlen(capturers) - 1
        capturers ^= 1 << frm
        if pinned & (1 << frm) and not _RAYS[king * 64 + frm] & (1 << ep):
            continue
        occupancy = (occ & ~(1 << captured) & ~(1 << frm)) | (1 << ep)
        if _rank_attacks(king, occupancy) & them & (s[3] | s[4]):
            continue
        if _bishop_attacks(king, occupancy) & them & (s[2] | s[4]):
            continue
        buf[n] = frm | ep << 6
        n += 1
    return n


def _pawn_moves(
    buf: Buffer, n: int, s: Fields, us: int, them: int, occ: int, king: int, pinned: int, to_mask: int
) -> int:
    """Pawn captures, single and double pushes (python-chess's order), pins applied."""
    turn = s[8]
    pawns = s[0] & us
    if not pawns:
        return n
    attacks = 64 if turn else 0
    left = pawns
    while left:
        frm = _bitlen(left) - 1
        left ^= 1 << frm
        targets = _PAWN[attacks + frm] & them & to_mask
        if targets and pinned & (1 << frm):
            targets &= _RAYS[king * 64 + frm]
        while targets:
            to = _bitlen(targets) - 1
            targets ^= 1 << to
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
        to = _bitlen(single) - 1
        single ^= 1 << to
        frm = to + step
        if pinned & (1 << frm) and not _RAYS[king * 64 + frm] & (1 << to):
            continue
        n = _append_pawn(buf, n, frm | to << 6, to)
    double &= to_mask
    while double:
        to = _bitlen(double) - 1
        double ^= 1 << to
        frm = to + 2 * step
        if pinned & (1 << frm) and not _RAYS[king * 64 + frm] & (1 << to):
            continue
        buf[n] = frm | to << 6
        n += 1
    return n


def _castling_moves(buf: Buffer, n: int, s: Fields, castling: int, them: int, occ: int, king: int) -> int:
    """``generate_castling_moves`` (standard chess; not called in check)."""
    white_attacks = s[8] == 0
    while castling:
        rook = _bitlen(castling) - 1
        castling ^= 1 << rook
        king_to, rook_to, empty, safe = (
            _CASTLE[rook * 4],
            _CASTLE[rook * 4 + 1],
            _CASTLE[rook * 4 + 2],
            _CASTLE[rook * 4 + 3],
        )
        if (occ ^ (1 << king) ^ (1 << rook)) & (empty | (1 << king_to) | (1 << rook_to)):
            continue
        through = occ ^ (1 << king)
        path = safe & ~(1 << king_to)
        attacked = False
        while path:
            square = _bitlen(path) - 1
            path ^= 1 << square
            if _attackers(square, through, them, s, white_attacks):
                attacked = True
                break
        if attacked:
            continue
        after = occ ^ (1 << king) ^ (1 << rook) ^ (1 << rook_to)
        if _attackers(king_to, after, them, s, white_attacks):
            continue
        buf[n] = king | king_to << 6
        n += 1
    return n


def _evasions(buf: Buffer, n: int, s: Fields, us: int, them: int, occ: int, king: int, checkers: int) -> int:
    """``_generate_evasions`` filtered by ``_is_safe``: the legal moves in check."""
    behind = 0  # the lines of the checking sliders through the king
    sliders = checkers & (s[2] | s[3] | s[4])
    while sliders:
        checker = _bitlen(sliders) - 1
        sliders ^= 1 << checker
        behind |= _RAYS[king * 64 + checker] & ~(1 << checker)
    room = n + _MOVE_ROOM  # no stop: all the evasions
    n = _append(buf, n, king, _safe_king_targets(s, _KING[king] & ~us & ~behind, them, occ, 8), room)
    if checkers & (checkers - 1):
        return n
    pinned = _pinned(king, us, them, occ, s)
    checker = _bitlen(checkers) - 1
    target = _BETWEEN[king * 64 + checker] | checkers
    pieces = us & ~s[0] & ~s[5]
    while pieces:
        frm = _bitlen(pieces) - 1
        bit = 1 << frm
        pieces ^= bit
        targets = _piece_attacks(frm, bit, s, occ) & target
        if targets and pinned & bit:
            targets &= _RAYS[king * 64 + frm]
        n = _append(buf, n, frm, targets, room)
    n = _pawn_moves(buf, n, s, us, them, occ, king, pinned, target)
    ep = s[10]
    if ep != _NONE and ((1 << ep) & target or (ep - 8 if s[8] else ep + 8) == checker):
        n = _ep_moves(buf, n, s, us, them, occ, king, pinned)
    return n


def _legal_moves(s: Fields, buf: Buffer, n: int) -> int:
    """Write the legal moves of ``s`` into ``buf`` from index ``n`` on, in python-chess's
    order; return the index after the last one."""
    return _leading_moves(s, buf, n, _MOVE_ROOM)


def _leading_moves(s: Fields, buf: Buffer, n: int, count: int) -> int:
    """:func:`_legal_moves` stopped once ``count`` moves are written (the index after the
    first ``count`` moves, or after all of them if fewer; ``buf`` may hold more). The pins
    are computed only when a piece on a line through the king has a target (a piece off
    those lines is never pinned), or before the pawn moves."""
    white, black, turn = s[6], s[7], s[8]
    us, them = (white, black) if turn else (black, white)
    occ = white | black
    king = _bitlen(s[5] & us) - 1
    checkers = _attackers(king, occ, them, s, turn == 0)
    stop = n + count
    if checkers:
        return min(stop, _evasions(buf, n, s, us, them, occ, king, checkers))
    pinned = -1  # not computed yet
    lines = _rook_attacks(king, 0) | _bishop_attacks(king, 0)
    not_us = ~us
    pieces = us & ~s[0]
    while pieces:
        frm = _bitlen(pieces) - 1
        bit = 1 << frm
        pieces ^= bit
        if frm == king:
            targets = _safe_king_targets(s, _KING[king] & not_us, them, occ, stop - n)
        else:
            targets = _piece_attacks(frm, bit, s, occ) & not_us
            if targets and bit & lines:
                if pinned == -1:
                    pinned = _pinned(king, us, them, occ, s)
                if pinned & bit:
                    targets &= _RAYS[king * 64 + frm]
        n = _append(buf, n, frm, targets, stop)
        if n >= stop:
            return stop
    castling = s[9] & (_RANK_1 if turn else _RANK_8)
    if castling:
        n = _castling_moves(buf, n, s, castling, them, occ, king)
    if n < stop:
        if pinned == -1:
            pinned = _pinned(king, us, them, occ, s)
        n = _pawn_moves(buf, n, s, us, them, occ, king, pinned, _ALL)
        if n < stop:
            n = _ep_moves(buf, n, s, us, them, occ, king, pinned)
    return min(stop, n)


def _has_legal_move(s: Fields, buf: Buffer) -> bool:
    """Whether the side to move has a legal move (the shortcut of the module docstring)."""
    white, black, turn = s[6], s[7], s[8]
    us, them = (white, black) if turn else (black, white)
    occ = white | black
    king = _bitlen(s[5] & us) - 1
    if not _attackers(king, occ, them, s, turn == 0):
        free = us & ~s[5] & ~_pinned(king, us, them, occ, s)
        pawns = free & s[0]
        if turn:
            if (pawns << 8) & ~occ or (((pawns & ~_FILE_A) << 7) | ((pawns & ~_FILE_H) << 9)) & them:
                return True
        elif (
            _shift_down(pawns, 8) & ~occ or (_shift_down(pawns & ~_FILE_A, 9) | _shift_down(pawns & ~_FILE_H, 7)) & them
        ):
            return True
        pieces = free & ~pawns
        while pieces:
            square = _bitlen(pieces) - 1
            bit = 1 << square
            pieces ^= bit
            if _piece_attacks(square, bit, s, occ) & ~us:
                return True
    return _leading_moves(s, buf, 0, 1) > 0


def _ep_legal(s: Fields, buf: Buffer, n: int) -> bool:
    """Whether the side to move can capture en passant (``buf`` from ``n`` on is scratch)."""
    ep = s[10]
    if ep == _NONE or (1 << ep) & (s[6] | s[7]):
        return False
    if not s[0] & (s[6] if s[8] else s[7]) & _PAWN[(0 if s[8] else 64) + ep]:
        return False
    end = _legal_moves(s, buf, n)
    for i in range(n, end):
        move = buf[i]
        if (move >> 6) & 63 == ep and (1 << (move & 63)) & s[0]:
            return True
    return False


def _play(s: Fields, move: int) -> Fields:
    """The position after the legal ``move`` (as ``Board.push``)."""
    pawns, knights, bishops, rooks, queens, kings, white, black, turn, castling, ep = s
    frm, to, promotion = move & 63, (move >> 6) & 63, move >> 12
    from_bb, to_bb = 1 << frm, 1 << to
    keep = ~to_bb
    new_ep = _NONE
    castling &= ~from_bb & keep
    if from_bb & pawns:
        pawns &= ~from_bb
        diff = to - frm
        if diff == 16 or diff == -16:
            new_ep = frm + (8 if diff > 0 else -8)
        elif to == ep and diff != 8 and diff != -8 and not (white | black) & to_bb:
            captured = ~(1 << (to - 8 if turn else to + 8))
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
            if to - frm == 2 or frm - to == 2:  # castling: move the rook too
                if to > frm:
                    rook_move = (1 << (frm + 3)) | (1 << (frm + 1))
                else:
                    rook_move = (1 << (frm - 4)) | (1 << (frm - 1))
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
    return (pawns, knights, bishops, rooks, queens, kings, white, black, _OTHER[turn], castling, new_ep)


#: The functions of the generator, in call order (each calls only earlier ones and primitives).
KERNELS = (
    "_attackers _piece_attacks _safe_king_targets _append _append_pawn _pinned _in_check _ep_moves "
    "_pawn_moves _castling_moves _evasions _leading_moves _legal_moves _has_legal_move _ep_legal _play"
).split()

"""Positions as tuples of bitboards, moves as ints: the move generator of the searches.

A :data:`State` is the tuple ``(pawns, knights, bishops, rooks, queens, kings, white,
black, turn, castling, ep)`` of python-chess's ``Board`` fields (``castling`` = the clean
castling rights as a bitboard of rook squares, ``ep`` = the en passant square python-chess
would hold: set after every double push). A move is the int ``from | to << 6 | promotion
<< 12``. A move is played by building the next tuple (no undo, no move stack), so a
search node costs a few bitboard expressions instead of python-chess's ``push``,
``Move`` objects and generators.

Rule: :func:`legal_moves` returns exactly ``Board.generate_legal_moves()`` of the same
position, in the same order (:func:`leading_moves` its first moves, :func:`has_legal_move`
whether it is empty), and :func:`play` the position ``Board.push`` gives (standard
chess: castling, en passant and promotions included). Why: it applies python-chess's own
tests, written out on the tuple: pieces pinned to their king (``_slider_blockers``) keep
to the line through the king, the king steps to unattacked squares, in check the
evasions of ``_generate_evasions`` (king steps off the checking rays; with one checker, a
capture of it or an interposition), en passant under ``pin_mask`` and ``_ep_skewered``,
castling under ``generate_castling_moves``'s conditions; the loops visit pieces and
targets in python-chess's order (``scan_reversed``), so the lists are equal, not only as
sets. ``tests/retro/test_unwinnable_fastboard.py`` compares both on random games and on
constructed positions with pins, checks, castling and en passant.
:func:`key` equals ``Board._transposition_key()`` of the position.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from typing import NamedTuple

import chess
from chess import (
    BB_DIAG_ATTACKS,
    BB_DIAG_MASKS,
    BB_FILE_ATTACKS,
    BB_FILE_MASKS,
    BB_KING_ATTACKS,
    BB_KNIGHT_ATTACKS,
    BB_PAWN_ATTACKS,
    BB_RANK_ATTACKS,
    BB_RANK_MASKS,
    BB_RAYS,
    BB_SQUARES,
)

from retro.core.position import position_key

__all__ = [
    "State",
    "from_board",
    "to_board",
    "legal_moves",
    "iter_legal_moves",
    "has_legal_move",
    "first_legal_move",
    "leading_moves",
    "play",
    "in_check",
    "key",
    "to_move",
    "from_move",
    "MoveGenerator",
    "FAST",
    "REFERENCE",
]

State = tuple[int, int, int, int, int, int, int, int, bool, int, "int | None"]

PAWN_ATTACKS_W = BB_PAWN_ATTACKS[chess.WHITE]
PAWN_ATTACKS_B = BB_PAWN_ATTACKS[chess.BLACK]
_BETWEEN = [[chess.between(a, b) for b in chess.SQUARES] for a in chess.SQUARES]
_BACK_RANKS = chess.BB_RANK_1 | chess.BB_RANK_8
_ALL_MOVES = 1 << 10  # more than any position has (218 at most)
# The squares on a line (rank, file, diagonal) through each square: where a pinned piece can stand.
_KING_LINES = [BB_RANK_ATTACKS[sq][0] | BB_FILE_ATTACKS[sq][0] | BB_DIAG_ATTACKS[sq][0] for sq in chess.SQUARES]
_RANK_1, _RANK_8 = chess.BB_RANK_1, chess.BB_RANK_8
_PROMOTIONS = (chess.QUEEN << 12, chess.ROOK << 12, chess.BISHOP << 12, chess.KNIGHT << 12)
# Castling (standard chess): rook square -> (king to, rook to, squares to be empty, squares not attacked).
_CASTLING = {
    chess.H1: (chess.G1, chess.F1, chess.BB_F1 | chess.BB_G1, chess.BB_E1 | chess.BB_F1 | chess.BB_G1),
    chess.A1: (chess.C1, chess.D1, chess.BB_B1 | chess.BB_C1 | chess.BB_D1, chess.BB_E1 | chess.BB_D1 | chess.BB_C1),
    chess.H8: (chess.G8, chess.F8, chess.BB_F8 | chess.BB_G8, chess.BB_E8 | chess.BB_F8 | chess.BB_G8),
    chess.A8: (chess.C8, chess.D8, chess.BB_B8 | chess.BB_C8 | chess.BB_D8, chess.BB_E8 | chess.BB_D8 | chess.BB_C8),
}


def from_board(board: chess.Board) -> State:
    """The tuple of ``board`` (standard chess only)."""
    return (
        board.pawns,
        board.knights,
        board.bishops,
        board.rooks,
        board.queens,
        board.kings,
        board.occupied_co[chess.WHITE],
        board.occupied_co[chess.BLACK],
        board.turn,
        board.clean_castling_rights(),
        board.ep_square,
    )


def to_board(state: State) -> chess.Board:
    """A python-chess board of the tuple (for replays and the reference generator)."""
    board = chess.Board(None)
    (
        board.pawns,
        board.knights,
        board.bishops,
        board.rooks,
        board.queens,
        board.kings,
        white,
        black,
        board.turn,
        board.castling_rights,
        board.ep_square,
    ) = state
    board.occupied_co[chess.WHITE], board.occupied_co[chess.BLACK] = white, black
    board.occupied = white | black
    return board


def to_move(move: int) -> chess.Move:
    return chess.Move(move & 63, (move >> 6) & 63, (move >> 12) or None)


def from_move(move: chess.Move) -> int:
    return move.from_square | move.to_square << 6 | (move.promotion or 0) << 12


def _attackers(square: int, occ: int, them: int, state: State, white_attacks: bool) -> int:
    """Pieces of ``them`` (a colour's occupancy) attacking ``square`` with occupancy ``occ``."""
    pawns, knights, bishops, rooks, queens, kings = state[0], state[1], state[2], state[3], state[4], state[5]
    rq = rooks | queens
    bq = bishops | queens
    return them & (
        (BB_KNIGHT_ATTACKS[square] & knights)
        | (BB_KING_ATTACKS[square] & kings)
        | (BB_RANK_ATTACKS[square][BB_RANK_MASKS[square] & occ] & rq)
        | (BB_FILE_ATTACKS[square][BB_FILE_MASKS[square] & occ] & rq)
        | (BB_DIAG_ATTACKS[square][BB_DIAG_MASKS[square] & occ] & bq)
        | ((PAWN_ATTACKS_B if white_attacks else PAWN_ATTACKS_W)[square] & pawns)
    )


def _piece_attacks(square: int, bb: int, state: State, occ: int) -> int:
    """Attacks of the non-pawn piece on ``square`` (``bb`` = its bit)."""
    if bb & state[1]:
        return BB_KNIGHT_ATTACKS[square]
    if bb & state[5]:
        return BB_KING_ATTACKS[square]
    attacks = 0
    if bb & (state[2] | state[4]):
        attacks = BB_DIAG_ATTACKS[square][BB_DIAG_MASKS[square] & occ]
    if bb & (state[3] | state[4]):
        attacks |= (
            BB_RANK_ATTACKS[square][BB_RANK_MASKS[square] & occ] | BB_FILE_ATTACKS[square][BB_FILE_MASKS[square] & occ]
        )
    return attacks


def _safe_king_targets(state: State, targets: int, them: int, occ: int, limit: int = 64) -> int:
    """The squares of ``targets`` no enemy piece attacks with occupancy ``occ``
    (``_attackers`` unrolled: the step pieces are tested first and the sliders only when
    those found nothing); with ``limit``, only the ``limit`` highest such squares."""
    knights = state[1] & them
    kings = state[5] & them
    pawns = state[0] & them
    rq = (state[3] | state[4]) & them
    bq = (state[2] | state[4]) & them
    pawn_attacks = PAWN_ATTACKS_W if state[8] else PAWN_ATTACKS_B  # squares from which they attack
    safe = 0
    while targets:
        to = targets.bit_length() - 1
        bb = BB_SQUARES[to]
        targets ^= bb
        if (
            BB_KNIGHT_ATTACKS[to] & knights
            or BB_KING_ATTACKS[to] & kings
            or pawn_attacks[to] & pawns
            or BB_RANK_ATTACKS[to][BB_RANK_MASKS[to] & occ] & rq
            or BB_FILE_ATTACKS[to][BB_FILE_MASKS[to] & occ] & rq
            or BB_DIAG_ATTACKS[to][BB_DIAG_MASKS[to] & occ] & bq
        ):
            continue
        safe |= bb
        limit -= 1
        if not limit:
            break
    return safe


def _append_moves(moves: list[int], frm: int, targets: int) -> None:
    """Append the moves from ``frm`` to each square of ``targets``, highest square first."""
    while targets:
        to = targets.bit_length() - 1
        targets ^= BB_SQUARES[to]
        moves.append(frm | to << 6)


def _pinned(king: int, us: int, them: int, occ: int, state: State) -> int:
    """Our pieces alone between our king and an enemy slider (``_slider_blockers``)."""
    rq = state[3] | state[4]
    bq = state[2] | state[4]
    snipers = them & (((BB_RANK_ATTACKS[king][0] | BB_FILE_ATTACKS[king][0]) & rq) | (BB_DIAG_ATTACKS[king][0] & bq))
    pinned = 0
    between = _BETWEEN[king]
    while snipers:
        low = snipers & -snipers
        snipers ^= low
        b = between[low.bit_length() - 1] & occ
        if b and not b & (b - 1):
            pinned |= b
    return pinned & us


def in_check(state: State) -> bool:
    white, black, turn = state[6], state[7], state[8]
    us, them = (white, black) if turn else (black, white)
    king = (state[5] & us).bit_length() - 1
    return bool(_attackers(king, white | black, them, state, not turn))


def _ep_moves(moves: list[int], state: State, us: int, them: int, occ: int, king: int, pinned: int) -> None:
    """``generate_pseudo_legal_ep`` filtered by ``_is_safe`` (pin mask and skewer)."""
    ep = state[10]
    if not ep or BB_SQUARES[ep] & occ:
        return
    turn = state[8]
    capturers = state[0] & us & (PAWN_ATTACKS_B if turn else PAWN_ATTACKS_W)[ep] & chess.BB_RANKS[4 if turn else 3]
    captured = ep - 8 if turn else ep + 8
    for frm in chess.scan_reversed(capturers):
        if pinned & BB_SQUARES[frm] and not BB_RAYS[king][frm] & BB_SQUARES[ep]:
            continue
        occupancy = (occ & ~BB_SQUARES[captured] & ~BB_SQUARES[frm]) | BB_SQUARES[ep]
        if BB_RANK_ATTACKS[king][BB_RANK_MASKS[king] & occupancy] & them & (state[3] | state[4]):
            continue
        if BB_DIAG_ATTACKS[king][BB_DIAG_MASKS[king] & occupancy] & them & (state[2] | state[4]):
            continue
        moves.append(frm | ep << 6)


def _pawn_moves(
    moves: list[int], state: State, us: int, them: int, occ: int, king: int, pinned: int, to_mask: int
) -> None:
    """Pawn captures, single and double pushes (python-chess's order), pins applied."""
    turn = state[8]
    pawns = state[0] & us
    if not pawns:
        return
    attacks = PAWN_ATTACKS_W if turn else PAWN_ATTACKS_B
    rays = BB_RAYS[king]
    append = moves.append
    left = pawns
    while left:
        frm = left.bit_length() - 1
        left ^= BB_SQUARES[frm]
        targets = attacks[frm] & them & to_mask
        if targets and pinned & BB_SQUARES[frm]:
            targets &= rays[frm]
        while targets:
            to = targets.bit_length() - 1
            targets ^= BB_SQUARES[to]
            move = frm | to << 6
            if BB_SQUARES[to] & _BACK_RANKS:
                moves.extend([move | p for p in _PROMOTIONS])
            else:
                append(move)
    if turn:
        single = pawns << 8 & ~occ
        double = single << 8 & ~occ & chess.BB_RANK_4
        step = -8
    else:
        single = pawns >> 8 & ~occ
        double = single >> 8 & ~occ & chess.BB_RANK_5
        step = 8
    single &= to_mask
    while single:
        to = single.bit_length() - 1
        single ^= BB_SQUARES[to]
        frm = to + step
        if pinned & BB_SQUARES[frm] and not rays[frm] & BB_SQUARES[to]:
            continue
        move = frm | to << 6
        if BB_SQUARES[to] & _BACK_RANKS:
            moves.extend([move | p for p in _PROMOTIONS])
        else:
            append(move)
    double &= to_mask
    while double:
        to = double.bit_length() - 1
        double ^= BB_SQUARES[to]
        frm = to + 2 * step
        if pinned & BB_SQUARES[frm] and not rays[frm] & BB_SQUARES[to]:
            continue
        append(frm | to << 6)


def _check_rays(state: State, king: int, checkers: int) -> int:
    """The squares behind the king on the lines of the checking sliders (and the lines
    themselves, checkers excluded): the king cannot step there (``_generate_evasions``)."""
    attacked = 0
    for checker in chess.scan_reversed(checkers & (state[2] | state[3] | state[4])):
        attacked |= BB_RAYS[king][checker] & ~BB_SQUARES[checker]
    return attacked


def _evasions(state: State, us: int, them: int, occ: int, king: int, checkers: int) -> list[int]:
    """``_generate_evasions`` filtered by ``_is_safe``: the legal moves in check."""
    moves: list[int] = []
    rays = BB_RAYS[king]
    steps = BB_KING_ATTACKS[king] & ~us & ~_check_rays(state, king, checkers)
    _append_moves(moves, king, _safe_king_targets(state, steps, them, occ))
    if checkers & (checkers - 1):
        return moves
    pinned = _pinned(king, us, them, occ, state)
    checker = checkers.bit_length() - 1
    target = _BETWEEN[king][checker] | checkers
    for frm in chess.scan_reversed(us & ~state[0] & ~state[5]):
        targets = _piece_attacks(frm, BB_SQUARES[frm], state, occ) & target
        if targets and pinned & BB_SQUARES[frm]:
            targets &= rays[frm]
        _append_moves(moves, frm, targets)
    _pawn_moves(moves, state, us, them, occ, king, pinned, target)
    ep = state[10]
    if ep and (BB_SQUARES[ep] & target or (ep - 8 if state[8] else ep + 8) == checker):
        _ep_moves(moves, state, us, them, occ, king, pinned)
    return moves


def legal_moves(state: State) -> list[int]:
    """``Board.generate_legal_moves()`` of the position, as ints, in python-chess's order."""
    return leading_moves(state, _ALL_MOVES)


def iter_legal_moves(state: State) -> Iterator[int]:
    """An iterator over :func:`legal_moves` (the :class:`MoveGenerator` interface)."""
    return iter(legal_moves(state))


def leading_moves(state: State, count: int) -> list[int]:
    """The first ``count`` moves of :func:`legal_moves` (all of them if fewer), without
    generating the others: the pieces are visited in the same order and the loop stops
    when ``count`` moves are found; the pins are computed only when a piece on a line
    through the king has a target (a piece off those lines is never pinned). In check, the
    king steps come first, the other evasions are generated only if needed."""
    white, black, turn = state[6], state[7], state[8]
    us, them = (white, black) if turn else (black, white)
    occ = white | black
    king = (state[5] & us).bit_length() - 1
    checkers = _attackers(king, occ, them, state, not turn)
    moves: list[int] = []
    if checkers:
        if count < _ALL_MOVES:  # the king steps may be enough
            steps = BB_KING_ATTACKS[king] & ~us & ~_check_rays(state, king, checkers)
            _append_moves(moves, king, _safe_king_targets(state, steps, them, occ, count))
            if len(moves) == count:
                return moves
        return _evasions(state, us, them, occ, king, checkers)[:count]
    knights = state[1]
    bq = state[2] | state[4]
    rq = state[3] | state[4]
    not_us = ~us
    lines = _KING_LINES[king]
    pinned = -1  # not computed yet
    append = moves.append
    pieces = us & ~state[0]
    while pieces:
        frm = pieces.bit_length() - 1
        bb = BB_SQUARES[frm]
        pieces ^= bb
        if frm == king:
            targets = _safe_king_targets(state, BB_KING_ATTACKS[king] & not_us, them, occ, count - len(moves))
        else:
            if bb & knights:
                targets = BB_KNIGHT_ATTACKS[frm] & not_us
            else:
                targets = BB_DIAG_ATTACKS[frm][BB_DIAG_MASKS[frm] & occ] if bb & bq else 0
                if bb & rq:
                    targets |= (
                        BB_RANK_ATTACKS[frm][BB_RANK_MASKS[frm] & occ] | BB_FILE_ATTACKS[frm][BB_FILE_MASKS[frm] & occ]
                    )
                targets &= not_us
            if targets and bb & lines:
                if pinned < 0:
                    pinned = _pinned(king, us, them, occ, state)
                if pinned & bb:
                    targets &= BB_RAYS[king][frm]
        while targets:
            to = targets.bit_length() - 1
            targets ^= BB_SQUARES[to]
            append(frm | to << 6)
            if len(moves) == count:
                return moves
    castling = state[9] & (_RANK_1 if turn else _RANK_8)
    if castling:
        _castling_moves(moves, state, castling, them, occ, king)
    if len(moves) < count:
        if pinned < 0:
            pinned = _pinned(king, us, them, occ, state)
        _pawn_moves(moves, state, us, them, occ, king, pinned, chess.BB_ALL)
        if len(moves) < count:
            _ep_moves(moves, state, us, them, occ, king, pinned)
    return moves[:count]


def first_legal_move(state: State) -> int | None:
    """The first move of :func:`legal_moves`, None if there is none (see :func:`leading_moves`)."""
    moves = leading_moves(state, 1)
    return moves[0] if moves else None


def has_legal_move(state: State) -> bool:
    """Whether the side to move has a legal move.

    Not in check, a piece that is neither the king nor pinned moves legally to any square
    it attacks that is not ours (a pawn: any push or capture), since the move cannot
    uncover a check; that settles most positions without generating moves. Then a safe
    king step. Without those, only a pinned piece or an en passant capture can still
    move: castling needs the king's first square empty and safe (a legal king step). In
    check: a safe king step, else (one checker) the other evasions."""
    white, black, turn = state[6], state[7], state[8]
    us, them = (white, black) if turn else (black, white)
    occ = white | black
    kings = state[5]
    king = (kings & us).bit_length() - 1
    checkers = _attackers(king, occ, them, state, not turn)
    if checkers:
        steps = BB_KING_ATTACKS[king] & ~us & ~_check_rays(state, king, checkers)
        if _safe_king_targets(state, steps, them, occ, 1):
            return True
        return not checkers & (checkers - 1) and bool(_evasions(state, us, them, occ, king, checkers))
    pinned = _pinned(king, us, them, occ, state)
    free = us & ~kings & ~pinned
    pawns = free & state[0]
    if pawns:
        if turn:
            if (pawns << 8) & ~occ or ((pawns & ~chess.BB_FILE_A) << 7 | (pawns & ~chess.BB_FILE_H) << 9) & them:
                return True
        elif (pawns >> 8) & ~occ or ((pawns & ~chess.BB_FILE_A) >> 9 | (pawns & ~chess.BB_FILE_H) >> 7) & them:
            return True
    pieces = free & ~pawns
    while pieces:
        square = pieces.bit_length() - 1
        bb = BB_SQUARES[square]
        pieces ^= bb
        if _piece_attacks(square, bb, state, occ) & ~us:
            return True
    if _safe_king_targets(state, BB_KING_ATTACKS[king] & ~us, them, occ, 1):
        return True
    if not pinned and state[10] is None:
        return False
    return first_legal_move(state) is not None


def _castling_moves(moves: list[int], state: State, castling: int, them: int, occ: int, king: int) -> None:
    """``generate_castling_moves`` (standard chess; not called in check)."""
    turn = state[8]
    for rook in chess.scan_reversed(castling):
        king_to, rook_to, empty, safe = _CASTLING[rook]
        if (occ ^ BB_SQUARES[king] ^ BB_SQUARES[rook]) & (empty | BB_SQUARES[king_to] | BB_SQUARES[rook_to]):
            continue
        through = occ ^ BB_SQUARES[king]
        path = safe & ~BB_SQUARES[king_to]
        if any(_attackers(sq, through, them, state, not turn) for sq in chess.scan_reversed(path)):
            continue
        after = occ ^ BB_SQUARES[king] ^ BB_SQUARES[rook] ^ BB_SQUARES[rook_to]
        if _attackers(king_to, after, them, state, not turn):
            continue
        moves.append(king | king_to << 6)


def play(state: State, move: int) -> State:
    """The position after the legal ``move`` (as ``Board.push``)."""
    pawns, knights, bishops, rooks, queens, kings, white, black, turn, castling, ep = state
    frm = move & 63
    to = (move >> 6) & 63
    promotion = move >> 12
    from_bb = BB_SQUARES[frm]
    to_bb = BB_SQUARES[to]
    keep = ~to_bb
    new_ep = None
    castling &= ~from_bb & keep
    if from_bb & pawns:
        pawns &= ~from_bb
        diff = to - frm
        if diff == 16 or diff == -16:
            new_ep = frm + (8 if diff > 0 else -8)
        elif to == ep and diff not in (8, -8) and not (white | black) & to_bb:
            captured = ~BB_SQUARES[to - 8 if turn else to + 8]
            pawns &= captured
            white &= captured
            black &= captured
        knights &= keep
        bishops &= keep
        rooks &= keep
        queens &= keep
        if promotion == 0:
            pawns |= to_bb
        elif promotion == chess.QUEEN:
            queens |= to_bb
        elif promotion == chess.KNIGHT:
            knights |= to_bb
        elif promotion == chess.ROOK:
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
                rook_from, rook_to = (frm + 3, frm + 1) if to > frm else (frm - 4, frm - 1)
                rook_move = BB_SQUARES[rook_from] | BB_SQUARES[rook_to]
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
    return (pawns, knights, bishops, rooks, queens, kings, white, black, not turn, castling, new_ep)


def _has_legal_ep(state: State, ep: int) -> bool:
    white, black, turn = state[6], state[7], state[8]
    us = white if turn else black
    if BB_SQUARES[ep] & (white | black):
        return False
    if not state[0] & us & (PAWN_ATTACKS_B if turn else PAWN_ATTACKS_W)[ep]:
        return False
    return any((m >> 6) & 63 == ep and BB_SQUARES[m & 63] & state[0] for m in iter_legal_moves(state))


def key(state: State) -> State:
    """``Board._transposition_key()``: the tuple, with ``ep`` kept only when en passant is legal."""
    ep = state[10]
    if ep is None or _has_legal_ep(state, ep):
        return state
    return state[:10] + (None,)


class MoveGenerator(NamedTuple):
    """The three operations the searches need: legal moves, playing one, the table key."""

    iter_legal_moves: Callable[[State], Iterator[int]]
    has_legal_move: Callable[[State], bool]
    play: Callable[[State, int], State]
    key: Callable[[State], Hashable]


def _reference_legal_moves(state: State) -> Iterator[int]:
    return (from_move(move) for move in to_board(state).generate_legal_moves())


def _reference_has_legal_move(state: State) -> bool:
    return any(to_board(state).generate_legal_moves())


def _reference_play(state: State, move: int) -> State:
    board = to_board(state)
    board.push(to_move(move))
    return from_board(board)


def _reference_key(state: State) -> Hashable:
    return position_key(to_board(state))


#: The generator of this module (the default of every search).
FAST = MoveGenerator(iter_legal_moves, has_legal_move, play, key)
#: The same operations done by python-chess on a board rebuilt from the tuple: the
#: reference the fast generator is tested against (slow; tests and ``--reference``).
REFERENCE = MoveGenerator(_reference_legal_moves, _reference_has_legal_move, _reference_play, _reference_key)

"""The legal moves of a position as a list, in python-chess's own order, faster.

:func:`legal_moves` returns ``list(board.generate_legal_moves(from_mask))``: the same
moves in the same order (the searches number their children in generation order and
draw their random tie-breaks in that order, so the order is part of what they search).

Rule, for a standard ``chess.Board`` whose side to move has a king and is not in check
(any other position is handed to python-chess itself): python-chess generates the
pseudo-legal moves (pieces by descending square, each piece's targets by descending
square; castling; pawn captures; single steps; double steps; en passant) and keeps a
move when ``Board._is_safe`` holds. ``_is_safe`` of a king move that is not castling is
"the target square is not attacked" (``is_attacked_by`` with the king still on its
square), of castling true, of en passant the pin and skewer test, and of any other
move "the piece is not a pinned slider blocker, or it moves along the ray through its
king". Here the pseudo-legal loop is written out once with that test inlined per
piece (a piece that is no blocker keeps every target, with no test per move); en
passant moves still go through ``_is_safe``. Same generation order, same filter, hence
the same list (test: every position of random games, against python-chess).
"""

from __future__ import annotations

from collections.abc import Callable

import chess

__all__ = ["legal_moves"]

_BB_SQUARES = chess.BB_SQUARES
_BB_KNIGHT_ATTACKS = chess.BB_KNIGHT_ATTACKS
_BB_KING_ATTACKS = chess.BB_KING_ATTACKS
_BB_PAWN_ATTACKS = chess.BB_PAWN_ATTACKS
_BB_DIAG_ATTACKS, _BB_DIAG_MASKS = chess.BB_DIAG_ATTACKS, chess.BB_DIAG_MASKS
_BB_RANK_ATTACKS, _BB_RANK_MASKS = chess.BB_RANK_ATTACKS, chess.BB_RANK_MASKS
_BB_FILE_ATTACKS, _BB_FILE_MASKS = chess.BB_FILE_ATTACKS, chess.BB_FILE_MASKS
_BB_BACKRANKS = chess.BB_RANK_1 | chess.BB_RANK_8
_PROMOTIONS = (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT)
_Move = chess.Move
#: the plain move of every (from, to) pair, shared (python-chess never changes a move)
_PLAIN = [[chess.Move(from_square, to_square) for to_square in chess.SQUARES] for from_square in chess.SQUARES]
_ray = chess.ray


def _targets_high_first(mask: int) -> list[int]:
    """The squares of ``mask`` from the highest down (``chess.scan_reversed``)."""
    squares = []
    while mask:
        square = mask.bit_length() - 1
        squares.append(square)
        mask ^= _BB_SQUARES[square]
    return squares


def legal_moves(board: chess.Board, from_mask: int = chess.BB_ALL) -> list[chess.Move]:
    """``list(board.generate_legal_moves(from_mask))`` (module docstring)."""
    turn = board.turn
    us = board.occupied_co[turn]
    king_mask = board.kings & us
    if type(board) is not chess.Board or not king_mask:
        return list(board.generate_legal_moves(from_mask))
    king = king_mask.bit_length() - 1
    if board.attackers_mask(not turn, king):
        return list(board.generate_legal_moves(from_mask))
    blockers = board._slider_blockers(king)
    occupied, pawns, knights, kings = board.occupied, board.pawns, board.knights, board.kings
    diagonal, straight = board.bishops | board.queens, board.rooks | board.queens
    attackers_mask = board.attackers_mask
    moves: list[chess.Move] = []
    append = moves.append
    for from_square in _targets_high_first(us & ~pawns & from_mask):
        bit = _BB_SQUARES[from_square]
        if bit & knights:
            targets = _BB_KNIGHT_ATTACKS[from_square]
        elif bit & kings:
            for to_square in _targets_high_first(_BB_KING_ATTACKS[from_square] & ~us):
                if not attackers_mask(not turn, to_square):
                    append(_PLAIN[from_square][to_square])
            continue
        else:
            targets = 0
            if bit & diagonal:
                targets = _BB_DIAG_ATTACKS[from_square][_BB_DIAG_MASKS[from_square] & occupied]
            if bit & straight:
                targets |= (
                    _BB_RANK_ATTACKS[from_square][_BB_RANK_MASKS[from_square] & occupied]
                    | _BB_FILE_ATTACKS[from_square][_BB_FILE_MASKS[from_square] & occupied]
                )
        targets &= ~us
        plain = _PLAIN[from_square]
        if blockers & bit:
            for to_square in _targets_high_first(targets):
                if _ray(from_square, to_square) & king_mask:
                    append(plain[to_square])
        else:
            for to_square in _targets_high_first(targets):
                append(plain[to_square])
    if from_mask & kings:
        moves.extend(board.generate_castling_moves(from_mask))
    own_pawns = pawns & us & from_mask
    if own_pawns:
        _pawn_moves(board, own_pawns, king_mask, blockers, append)
    return moves


def _pawn_moves(
    board: chess.Board, pawns: int, king_mask: int, blockers: int, append: Callable[[chess.Move], None]
) -> None:
    """The legal pawn moves of the side to move (``pawns``: its pawns in the from-mask),
    appended in python-chess's order: captures, single steps, double steps, en passant."""
    turn = board.turn
    occupied, them = board.occupied, board.occupied_co[not turn]

    def add(from_square: int, to_square: int) -> None:
        if blockers & _BB_SQUARES[from_square] and not _ray(from_square, to_square) & king_mask:
            return
        if _BB_SQUARES[to_square] & _BB_BACKRANKS:
            for promotion in _PROMOTIONS:
                append(_Move(from_square, to_square, promotion))
        else:
            append(_PLAIN[from_square][to_square])

    attacks = _BB_PAWN_ATTACKS[turn]
    for from_square in _targets_high_first(pawns):
        for to_square in _targets_high_first(attacks[from_square] & them):
            add(from_square, to_square)
    if turn == chess.WHITE:
        single = pawns << 8 & ~occupied
        double = single << 8 & ~occupied & (chess.BB_RANK_3 | chess.BB_RANK_4)
        back = -8
    else:
        single = pawns >> 8 & ~occupied
        double = single >> 8 & ~occupied & (chess.BB_RANK_6 | chess.BB_RANK_5)
        back = 8
    for to_square in _targets_high_first(single):
        add(to_square + back, to_square)
    for to_square in _targets_high_first(double):
        add(to_square + 2 * back, to_square)
    if board.ep_square:
        king = king_mask.bit_length() - 1
        for move in board.generate_pseudo_legal_ep(pawns):
            if board._is_safe(king, blockers, move):
                append(move)

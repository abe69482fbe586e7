"""Last moves that come from outside KRK: the paper's warning (section 2, Figures 6-7).

A KRK position without a predecessor *inside* KRK is derivedly illegal as a KRK
position, yet it may be legal in chess: the last move may have captured a unit ("the
rook could come from a1 and capture a black knight at a4", Figure 7), promoted a pawn
to the rook, or castled. This module lists those predecessors for one KRK position.

The last move was made by the side not to move. If Black is to move, White has only
K and R after the move, so it was: a king or rook move capturing some black unit on
its arrival square, a pawn promoting to the rook on the eighth rank (with or without a
capture), or castling (the only ways a White KR pair can arise besides the KRK moves;
en passant leaves a pawn). If White is to move, Black moved its lone king, so it was a
capture of some white unit. Nothing else can have happened.

A predecessor counts when it is *initially legal* in Lippold's sense (the side not to
move is not in check, no pawn on a back rank) and the move is legal in it, both
checked with python-chess, and playing it gives the KRK position exactly. The captured
unit's kind does not matter for these conditions except that a pawn cannot stand on
a back rank, so each capture is tried with a knight first and then the other kinds.

Such a predecessor makes the position *possibly* legal: proving it legal needs the
larger endgame (KRKN, KRKR, KRPK, ...), which this module does not analyse; the paper
stops at the same point. If there is none, the position has no predecessor in chess
at all, so it is illegal.
"""

from __future__ import annotations

from dataclasses import dataclass

import chess

from astar.proofgame import same_position
from retro.krk.position import KrkPosition, rook_attacks

__all__ = ["OutsideRetraction", "outside_predecessors"]

_CAPTURED_KINDS = (chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN, chess.PAWN)


@dataclass(frozen=True)
class OutsideRetraction:
    """A predecessor outside KRK: its FEN and the last move (SAN in that position)."""

    kind: str  # "capture", "promotion", "castling"
    before_fen: str
    move: str


def _try(after: chess.Board, before: chess.Board, move: chess.Move, kind: str) -> OutsideRetraction | None:
    """The predecessor if it is initially legal, the move legal, and the result ``after``."""
    if before.was_into_check() or not before.is_legal(move):
        return None
    san = before.san(move)
    played = before.copy(stack=False)
    played.push(move)
    return OutsideRetraction(kind, before.fen(), san) if same_position(played, after) else None


def _with_captured(board: chess.Board, square: chess.Square, color: chess.Color) -> list[chess.Board]:
    boards = []
    for kind in _CAPTURED_KINDS:
        if kind == chess.PAWN and chess.square_rank(square) in (0, 7):
            continue
        copy = board.copy(stack=False)
        copy.set_piece_at(square, chess.Piece(kind, color))
        boards.append(copy)
    return boards


def _first(after: chess.Board, boards: list[chess.Board], move: chess.Move, kind: str) -> OutsideRetraction | None:
    for before in boards:
        found = _try(after, before, move, kind)
        if found is not None:
            return found
    return None


def outside_predecessors(position: KrkPosition) -> list[OutsideRetraction]:
    """One predecessor outside KRK per possible last move (the first captured kind that works)."""
    after = position.board()
    occupied = after.occupied
    found: list[OutsideRetraction | None] = []
    if position.white_to_move:  # the black king captured a white unit on its square
        target = position.black_king
        for origin in chess.scan_forward(chess.BB_KING_ATTACKS[target] & ~occupied):
            before = after.copy(stack=False)
            before.remove_piece_at(target)
            before.set_piece_at(origin, chess.Piece(chess.KING, chess.BLACK))
            before.turn = chess.BLACK
            found.append(
                _first(after, _with_captured(before, target, chess.WHITE), chess.Move(origin, target), "capture")
            )
        return [f for f in found if f is not None]
    kings = chess.BB_SQUARES[position.white_king] | chess.BB_SQUARES[position.black_king]
    for target, piece, origins in (
        (position.white_king, chess.KING, chess.BB_KING_ATTACKS[position.white_king]),
        (position.white_rook, chess.ROOK, rook_attacks(position.white_rook, kings)),
    ):
        for origin in chess.scan_forward(origins & ~occupied):
            before = after.copy(stack=False)
            before.remove_piece_at(target)
            before.set_piece_at(origin, chess.Piece(piece, chess.WHITE))
            before.turn = chess.WHITE
            found.append(
                _first(after, _with_captured(before, target, chess.BLACK), chess.Move(origin, target), "capture")
            )
    rook = position.white_rook
    if chess.square_rank(rook) == 7:  # a pawn promoted to this rook
        for origin in chess.scan_forward(chess.BB_PAWN_ATTACKS[chess.BLACK][rook] | chess.BB_SQUARES[rook - 8]):
            if occupied & chess.BB_SQUARES[origin]:
                continue
            before = after.copy(stack=False)
            before.remove_piece_at(rook)
            before.set_piece_at(origin, chess.Piece(chess.PAWN, chess.WHITE))
            before.turn = chess.WHITE
            move = chess.Move(origin, rook, promotion=chess.ROOK)
            boards = [before] if origin == rook - 8 else _with_captured(before, rook, chess.BLACK)
            found.append(_first(after, boards, move, "promotion"))
    for king, rook_now, rook_before, move in (
        (chess.G1, chess.F1, chess.H1, chess.Move(chess.E1, chess.G1)),
        (chess.C1, chess.D1, chess.A1, chess.Move(chess.E1, chess.C1)),
    ):
        if position.white_king == king and rook == rook_now:
            before = after.copy(stack=False)
            before.remove_piece_at(king)
            before.remove_piece_at(rook_now)
            before.set_piece_at(chess.E1, chess.Piece(chess.KING, chess.WHITE))
            before.set_piece_at(rook_before, chess.Piece(chess.ROOK, chess.WHITE))
            before.castling_rights = chess.BB_SQUARES[rook_before]
            before.turn = chess.WHITE
            found.append(_first(after, [before], move, "castling"))
    return [f for f in found if f is not None]

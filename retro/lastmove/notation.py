"""Retro-problem notation for moves that have been retracted.

Composers write a retracted move in long forward notation, naming the captured unit
(Retractor's convention, used by ``data/lastmove-dev.jsonl``):

* ``Kf5xNe5`` — the king went from f5 to e5 capturing a knight; pawns get no letter
  (``g2-g4``, ``c7xNd8=R``);
* ``f4xg3ep`` — en passant; ``O-O`` / ``O-O-O`` — castling;
* a ``+`` suffix when the move gave check.

The *move type* of a last move (type-A problems: "what kind of move was it?") is the
moving unit's letter, then ``-`` for a quiet move or ``x`` and the captured unit's
letter, then ``=X`` for a promotion; a pawn's quiet moves are ``P-`` (single step) and
``P--`` (double step), an en-passant capture is ``ep`` and castling ``O-O``/``O-O-O``.
Examples: ``K-``, ``KxQ``, ``P--``, ``ep``, ``PxR=Q``, ``P-=N``.
"""

from __future__ import annotations

import chess

__all__ = ["forward_notation", "move_type"]


def _parts(before: chess.Board, move: chess.Move) -> tuple[str, str, str]:
    """(unit letter, capture part, promotion part) of ``move`` played in ``before``."""
    piece = before.piece_at(move.from_square)
    if piece is None:
        raise ValueError(f"no unit on {chess.square_name(move.from_square)} for {move.uci()}")
    unit = piece.symbol().upper()
    captured = before.piece_at(move.to_square)
    capture = "x" + captured.symbol().upper() if captured is not None else "-"
    promotion = "=" + chess.piece_symbol(move.promotion).upper() if move.promotion else ""
    return unit, capture, promotion


def forward_notation(before: chess.Board, move: chess.Move) -> str:
    """``move`` (legal in ``before``) in retro-problem long notation, with ``+`` for check."""
    check = "+" if before.gives_check(move) else ""
    if before.is_castling(move):
        return ("O-O" if chess.square_file(move.to_square) > chess.square_file(move.from_square) else "O-O-O") + check
    frm, to = chess.square_name(move.from_square), chess.square_name(move.to_square)
    if before.is_en_passant(move):
        return f"{frm}x{to}ep{check}"
    unit, capture, promotion = _parts(before, move)
    letter = "" if unit == "P" else unit
    if capture == "-":
        return f"{letter}{frm}-{to}{promotion}{check}"
    return f"{letter}{frm}x{capture[1:]}{to}{promotion}{check}"


def move_type(before: chess.Board, move: chess.Move) -> str:
    """The move type of ``move`` (legal in ``before``), e.g. ``KxQ``, ``P--``, ``ep``, ``PxR=Q``."""
    if before.is_castling(move):
        return "O-O" if chess.square_file(move.to_square) > chess.square_file(move.from_square) else "O-O-O"
    if before.is_en_passant(move):
        return "ep"
    unit, capture, promotion = _parts(before, move)
    if unit == "P" and capture == "-" and not promotion:
        return "P--" if abs(move.to_square - move.from_square) == 16 else "P-"
    return unit + capture + promotion

"""Attack masks of one piece on a bitboard of occupied squares.

:func:`attacks_mask` gives the squares a knight, bishop, rook, queen or king standing
on ``square`` attacks when exactly the squares of ``occupied`` hold pieces: python-chess's
attack tables (``chess.BB_*_ATTACKS``), indexed by the occupied squares of the piece's
rays, as :meth:`chess.BaseBoard.attacks_mask` does for a piece on a real board. A slider's
ray stops at (and includes) the first occupied square. Pawns attack nothing here (their
attacks depend on the colour: ``chess.BB_PAWN_ATTACKS``).
"""

from __future__ import annotations

import chess

__all__ = ["attacks_mask"]


def attacks_mask(piece_type: chess.PieceType, square: chess.Square, occupied: chess.Bitboard) -> chess.Bitboard:
    """Squares a knight, bishop, rook, queen or king on ``square`` attacks when the
    squares of ``occupied`` hold pieces (0 for a pawn)."""
    if piece_type == chess.KNIGHT:
        return chess.BB_KNIGHT_ATTACKS[square]
    if piece_type == chess.KING:
        return chess.BB_KING_ATTACKS[square]
    attacks = 0
    if piece_type in (chess.BISHOP, chess.QUEEN):
        attacks |= chess.BB_DIAG_ATTACKS[square][chess.BB_DIAG_MASKS[square] & occupied]
    if piece_type in (chess.ROOK, chess.QUEEN):
        attacks |= chess.BB_RANK_ATTACKS[square][chess.BB_RANK_MASKS[square] & occupied]
        attacks |= chess.BB_FILE_ATTACKS[square][chess.BB_FILE_MASKS[square] & occupied]
    return attacks

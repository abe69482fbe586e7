"""Contact attacks: attacks that no unit can block.

A unit of type T on square s attacks a square t *by contact* when t is one of its pawn
capture squares (a pawn), knight squares (a knight), adjacent squares (a king), or a
square adjacent to s in one of its directions (a queen, rook or bishop). Nothing
stands between s and t, so no interposition can ever block such an attack: while the
unit stands on s, t is attacked. The solo game (:mod:`retro.spg.solo`) uses this for the
enemy's fixed units, which stand on their squares to the end.
"""

from __future__ import annotations

import chess

__all__ = ["contact_attacks", "contact_mask", "contact_checkers"]


def contact_attacks(color: chess.Color, kind: chess.PieceType, square: chess.Square) -> chess.Bitboard:
    """The squares a ``color`` unit of type ``kind`` on ``square`` attacks by contact."""
    if kind == chess.PAWN:
        return chess.BB_PAWN_ATTACKS[color][square]
    if kind == chess.KNIGHT:
        return chess.BB_KNIGHT_ATTACKS[square]
    near = chess.BB_KING_ATTACKS[square]
    if kind == chess.KING or kind == chess.QUEEN:
        return near
    straight = chess.BB_RANK_ATTACKS[square][0] | chess.BB_FILE_ATTACKS[square][0]
    return near & straight if kind == chess.ROOK else near & ~straight


def contact_mask(board: chess.Board, squares: chess.Bitboard) -> chess.Bitboard:
    """The squares attacked by contact by the units of ``board`` on ``squares``."""
    mask = 0
    for square in chess.scan_forward(squares & board.occupied):
        piece = board.piece_at(square)
        assert piece is not None
        mask |= contact_attacks(piece.color, piece.piece_type, square)
    return mask


def contact_checkers(masks: tuple[int, int, int, int, int, int], color: chess.Color, target: chess.Square) -> bool:
    """Whether a unit of ``color`` (its six masks, pawns .. kings) attacks ``target`` by contact."""
    near = chess.BB_KING_ATTACKS[target]
    straight = near & (chess.BB_RANK_ATTACKS[target][0] | chess.BB_FILE_ATTACKS[target][0])
    return bool(
        chess.BB_PAWN_ATTACKS[not color][target] & masks[0]
        or chess.BB_KNIGHT_ATTACKS[target] & masks[1]
        or near & (masks[4] | masks[5])
        or straight & masks[3]
        or near & ~straight & masks[2]
    )

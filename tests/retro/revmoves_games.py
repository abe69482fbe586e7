"""Seeded random legal games for the reverse-move-generator property test and bench.

Each position comes with its real last move as a :class:`retro.core.revmoves.Retraction`
(real captured unit, and the predecessor's castling rights and en-passant square in
python-chess's conventions). Moves are drawn uniformly, except that with probability
1/2 a "special" move is preferred when one exists (castling, en passant, promotion, or
a double push next to an enemy pawn), so that the rare cases are well represented.
"""

from __future__ import annotations

import random

import chess

from retro.core.revmoves import Retraction
from tests.random_games import play_random

__all__ = ["random_game_positions", "real_retraction"]


def real_retraction(before: chess.Board, move: chess.Move) -> Retraction:
    """The retraction describing ``move`` played in ``before`` (python-chess conventions)."""
    captured = chess.PAWN if before.is_en_passant(move) else before.piece_type_at(move.to_square)
    ep = before.ep_square if before.has_legal_en_passant() else None
    return Retraction(move, captured, before.clean_castling_rights(), ep)


def _special(board: chess.Board, move: chess.Move) -> bool:
    if move.promotion or board.is_castling(move) or board.is_en_passant(move):
        return True
    if board.pawns & chess.BB_SQUARES[move.from_square] and abs(move.to_square - move.from_square) == 16:
        neighbours = chess.BB_RANK_MASKS[move.to_square] & chess.BB_KING_ATTACKS[move.to_square]
        return bool(neighbours & board.pawns & board.occupied_co[not board.turn])
    return False


def random_game_positions(seed: int, count: int, *, max_plies: int = 200) -> list[tuple[chess.Board, Retraction]]:
    """``count`` positions (after each ply of seeded random games) with their real last move."""
    rng = random.Random(seed)
    positions: list[tuple[chess.Board, Retraction]] = []
    while len(positions) < count:
        board = chess.Board()
        for move in play_random(rng, min(max_plies, count - len(positions)), prefer=_special).move_stack:
            real = real_retraction(board, move)
            board.push(move)
            positions.append((board.copy(stack=False), real))
    return positions

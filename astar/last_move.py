"""Forced irreversible last moves (texel "If the last move before the goal ...").

Rule implemented: when the goal has an en-passant square at which python-chess sees a
legal en-passant capture, the last move was necessarily the double step of the pawn
now beside it (FIDE 3.7(d), the only way an ep capture right arises). The search then
targets the predecessor: the pawn back on its start square, the other side to move,
the same castling rights, no ep square; the proof game is the predecessor's proof
game plus the double step. Soundness: the final proof game is replay-checked anyway.

The general case of the paper (several irreversible last moves such as Bxg3+ from f4
or h2, picking one arbitrarily) needs the reverse-move generator and is not done here
yet: without it the search simply targets the goal itself, which is still correct,
only sometimes slower.
"""

from __future__ import annotations

from dataclasses import dataclass

import chess

__all__ = ["ForcedLastMove", "forced_last_move"]


@dataclass(frozen=True)
class ForcedLastMove:
    predecessor: chess.Board
    move: chess.Move


def forced_last_move(goal: chess.Board) -> ForcedLastMove | None:
    """The forced double step behind a legal ep square, else None."""
    if goal.ep_square is None or not goal.has_legal_en_passant():
        return None
    mover = not goal.turn
    step = 8 if mover == chess.WHITE else -8
    to_sq = goal.ep_square + step
    from_sq = goal.ep_square - step
    pred = goal.copy(stack=False)
    pawn = pred.remove_piece_at(to_sq)
    if pawn is None or pawn != chess.Piece(chess.PAWN, mover) or pred.piece_at(from_sq) is not None:
        return None
    pred.set_piece_at(from_sq, pawn)
    pred.turn = mover
    pred.ep_square = None
    pred.fullmove_number = max(1, goal.fullmove_number - (1 if mover == chess.BLACK else 0))
    pred.halfmove_clock = 0
    move = chess.Move(from_sq, to_sq)
    if not pred.is_legal(move):
        return None
    return ForcedLastMove(pred, move)

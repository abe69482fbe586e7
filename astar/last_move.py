"""Forced irreversible last moves (texel "If the last move before the goal ...").

Rule implemented: when the goal's FEN has an en-passant square, the last move was the
double step of the pawn in front of it (the PGN standard writes the field after every
double step; FIDE 3.7(d) for the capture right; :meth:`astar.proofgame.ProofGame.replay_check`
requires that last move too). The search then
targets the predecessor: the pawn back on its start square, the other side to move,
the same castling rights, no ep square; the proof game is the predecessor's proof
game plus the double step. Soundness: the final proof game is replay-checked anyway.

General case (the paper's Bxg3+ example): when every retraction that
``retro.core.revmoves.retractions`` finds is irreversible (a capture or a pawn move),
:func:`forced_last_moves` lists them all; where texel picks one arbitrarily,
``retro.proofgame`` takes the first whose predecessor has a proof kernel. The choice
can only cost completeness (the picked predecessor may be unreachable while another
is not), never soundness: every move listed is checked to be legal in its predecessor and to give
exactly the goal.
"""

from __future__ import annotations

from dataclasses import dataclass

import chess

__all__ = ["ForcedLastMove", "forced_last_moves"]


@dataclass(frozen=True)
class ForcedLastMove:
    predecessor: chess.Board
    move: chess.Move


def forced_last_moves(goal: chess.Board) -> list[ForcedLastMove]:
    """The forced double step behind the goal's ep square, or every irreversible last
    move when all of the retractions are irreversible; else none."""
    if goal.ep_square is None:
        return _irreversible_last_moves(goal)
    mover = not goal.turn
    step = 8 if mover == chess.WHITE else -8
    to_sq = goal.ep_square + step
    from_sq = goal.ep_square - step
    pred = goal.copy(stack=False)
    pawn = pred.remove_piece_at(to_sq)
    if pawn is None or pawn != chess.Piece(chess.PAWN, mover) or pred.piece_at(from_sq) is not None:
        return []
    pred.set_piece_at(from_sq, pawn)
    pred.turn = mover
    pred.ep_square = None
    pred.fullmove_number = max(1, goal.fullmove_number - (1 if mover == chess.BLACK else 0))
    pred.halfmove_clock = 0
    move = chess.Move(from_sq, to_sq)
    if not pred.is_legal(move):
        return []
    return [ForcedLastMove(pred, move)]


def _irreversible_last_moves(goal: chess.Board) -> list[ForcedLastMove]:
    from astar.proofgame import same_position

    try:
        from retro.core.revmoves import predecessor, retractions

        found = retractions(goal)
    except (ImportError, ValueError):
        return []
    candidates = []
    for retraction in found:
        try:
            pred = predecessor(goal, retraction)
        except ValueError:
            return []
        moved = pred.piece_type_at(retraction.move.from_square)
        if retraction.captured is None and moved != chess.PAWN:
            return []  # a reversible last move is possible: nothing is forced
        candidates.append((pred, retraction.move))
    result = []
    for pred, move in candidates:
        if not pred.is_legal(move):
            continue
        after = pred.copy(stack=False)
        after.push(move)
        if same_position(after, goal):
            result.append(ForcedLastMove(pred, move))
    return result

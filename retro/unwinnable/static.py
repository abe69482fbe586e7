"""Unwinnable-static: the semi-static check of Ambrona's Figure 8.

Rule: given the mobility regions of :func:`retro.unwinnable.mobility.mobility`, the
position is unwinnable for ``winner`` when

1. no castling right and no (pseudo-legal) en passant capture exist (otherwise: no
   answer; Lemma 8 does not cover them);
2. every winner piece whose region meets the loser king's region (an *intruder*) is a
   bishop, and all intruders stand on squares of one colour;
3. no square s of the loser king's region is both attacked by some winner piece
   (``att-region``) and such that the loser's non-king pieces that can reach an
   orthogonal neighbour of s (*blockers*) plus the winner pieces that can attack an
   orthogonal neighbour of s (*assistants*) are at least as many as those neighbours.

Why it is sound (Lemma 11, Lemma 10, Theorem 12): on the true mobility solution the
conditions leave the loser's king, whenever it is in check, an orthogonal neighbour that
is neither blocked nor attacked (each blocker fills one square and, as the only winner
pieces in the king's region are same-coloured bishops that never see those
opposite-coloured squares, each assistant covers at most one), so it always has a legal
move; the check is monotone decreasing in the regions (Lemma 10) and the fixpoint
over-approximates the true solution (Corollary 9), so the answer carries over.

Choice left open by the paper's text: ``blockers(s)`` excludes the loser's *king* (it
stands on s and cannot block its own neighbour); counting fewer blockers than that would
be unsound, counting the king would only make the check weaker.
"""

from __future__ import annotations

import chess

from retro.unwinnable.mobility import ORTHOGONAL_NEIGHBOURS, Mobility, mobility, step_targets

__all__ = ["static_applicable", "unwinnable_static"]


def static_applicable(board: chess.Board) -> bool:
    """Step 1 of Figure 8: the check answers only without castling rights and en passant."""
    if board.castling_rights:
        return False
    if board.ep_square is not None and board.has_pseudo_legal_en_passant():
        return False
    return True


def unwinnable_static(board: chess.Board, winner: chess.Color, mob: Mobility | None = None) -> bool:
    """True only if the semi-static argument proves ``board`` unwinnable for ``winner``."""
    if not static_applicable(board):
        return False
    if mob is None:
        mob = mobility(board)
    loser_king = next(i for i, (_, c, t) in enumerate(mob.pieces) if t == chess.KING and c != winner)
    king_region = mob.region[loser_king]
    bishop_colour: int | None = None
    att_region: list[chess.Bitboard] = []
    for i, (sq, c, t) in enumerate(mob.pieces):
        att_region.append(step_targets(t, c, mob.region[i]))
        if c == winner and mob.region[i] & king_region:
            if t != chess.BISHOP:
                return False
            colour = 1 if chess.BB_SQUARES[sq] & chess.BB_LIGHT_SQUARES else 0
            if bishop_colour is not None and colour != bishop_colour:
                return False
            bishop_colour = colour
    winner_attacks = 0
    for i, (_, c, _) in enumerate(mob.pieces):
        if c == winner:
            winner_attacks |= att_region[i]
    candidates = king_region & winner_attacks
    for s in chess.SquareSet(candidates):
        around = ORTHOGONAL_NEIGHBOURS[s]
        count = 0
        for i, (_, c, t) in enumerate(mob.pieces):
            if c != winner:
                if t != chess.KING and mob.region[i] & around:
                    count += 1
            elif att_region[i] & around:
                count += 1
        if count >= chess.popcount(around):
            return False
    return True

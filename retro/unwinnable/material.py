"""Insufficient winning material: Ambrona's Lemmas 5 and 6 (plus a lone king).

Rule: a position is unwinnable for ``winner`` when

* the winner has only the king; or
* (Lemma 5) the position has no pawns, the winner has exactly one knight besides the king
  and the loser has no knights, bishops or rooks; or
* (Lemma 6) the position has no pawns, the winner's only non-king pieces are bishops, all
  on squares of one colour, and the loser has no knight and no bishop of the other colour.

Why it is sound: a lone king never gives check. Lemma 5: in any mate by a lone knight the
two orthogonal neighbours of the king nearest the knight are not covered by the knight,
the winner's king covers at most one, so a loser queen must block one and it attacks the
knight. Lemma 6: the mating bishop cannot cover the two opposite-coloured orthogonal
neighbours nearest to it, the king covers at most one, so a loser rook or queen blocks one
and can interpose or capture. Both proofs in the paper, Section 2.1.
"""

from __future__ import annotations

import chess

__all__ = ["insufficient_material"]


def insufficient_material(board: chess.Board, winner: chess.Color) -> bool:
    """True when Lemma 5, Lemma 6 or the lone-king rule proves no mate for ``winner``."""
    mine = board.occupied_co[winner] & ~board.kings
    if not mine:
        return True
    if board.pawns:
        return False
    theirs = board.occupied_co[not winner]
    if mine & board.knights and not mine & (mine - 1):  # exactly one piece, a knight
        return not theirs & (board.knights | board.bishops | board.rooks)
    if mine == mine & board.bishops:
        if not mine & chess.BB_LIGHT_SQUARES:
            other = chess.BB_LIGHT_SQUARES
        elif not mine & chess.BB_DARK_SQUARES:
            other = chess.BB_DARK_SQUARES
        else:
            return False
        return not theirs & (board.knights | (board.bishops & other))
    return False

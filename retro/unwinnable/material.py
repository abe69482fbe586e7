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

__all__ = ["insufficient_material", "insufficient_state", "lemma_shape"]


def lemma_shape(knights: int, bishops: int, rooks: int, mine: int, theirs: int) -> bool:
    """The piece conditions of Lemma 5 or 6, ignoring pawn-freeness (``mine`` / ``theirs``:
    the squares of the winner's / the loser's pieces, kings excluded; ``mine`` not empty)."""
    if mine and mine == mine & knights and not mine & (mine - 1):  # exactly one piece, a knight
        return not theirs & (knights | bishops | rooks)
    if mine and mine == mine & bishops:
        if not mine & chess.BB_LIGHT_SQUARES:
            other = chess.BB_LIGHT_SQUARES
        elif not mine & chess.BB_DARK_SQUARES:
            other = chess.BB_DARK_SQUARES
        else:
            return False
        return not theirs & (knights | (bishops & other))
    return False


def insufficient_state(state: tuple, winner: chess.Color) -> bool:
    """:func:`insufficient_material` of a :data:`retro.unwinnable.fastboard.State`."""
    kings = state[5]
    mine = (state[6] if winner else state[7]) & ~kings
    if not mine:
        return True
    if state[0]:
        return False
    return lemma_shape(state[1], state[2], state[3], mine, (state[7] if winner else state[6]) & ~kings)


def insufficient_material(board: chess.Board, winner: chess.Color) -> bool:
    """True when Lemma 5, Lemma 6 or the lone-king rule proves no mate for ``winner``."""
    mine = board.occupied_co[winner] & ~board.kings
    if not mine:
        return True
    if board.pawns:
        return False
    return lemma_shape(board.knights, board.bishops, board.rooks, mine, board.occupied_co[not winner] & ~board.kings)

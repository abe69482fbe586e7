"""Net score: how far a position looks from a mate by the winner (lower = closer).

The closure search (:mod:`retro.unwinnable.closure`) expands positions in the order of
this score. It is a heuristic only: it changes which positions are seen first, never
which positions are seen (the closure is exhausted or the node bound is hit either way),
so no soundness argument rests on it.

Score = flights + corner distance + blocker distance, where

* *flights*: the squares next to the loser's king that hold no loser piece and that no
  winner piece attacks (with the king lifted off its square): a mate has none;
* *corner distance*: the king distance from the loser's king to the corner that
  Going-to-corner (Ambrona, Figure 13) aims at, chosen by the bishops' square colours;
* *blocker distance*: for each square next to that corner whose colour the loser has
  bishops of, 0 if a loser piece stands on it, 1 if such a bishop is on a diagonal
  through it, 2 otherwise. Bishop-heavy blocked positions mate in a corner whose
  neighbours of the other colour are blocked by the loser's own bishops.
"""

from __future__ import annotations

import chess

from retro.unwinnable.fastboard import State
from retro.unwinnable.helpmate import KING_DISTANCE, corner_targets

__all__ = ["net_score", "flights"]

_EMPTY_DIAGONALS = [chess.BB_DIAG_ATTACKS[square][0] for square in chess.SQUARES]


def _attacked(square: int, occupied: int, attackers: int, state: State, by_white: bool) -> bool:
    pawns, knights, bishops, rooks, queens, kings = state[0], state[1], state[2], state[3], state[4], state[5]
    straight = rooks | queens
    diagonal = bishops | queens
    return bool(
        attackers
        & (
            (chess.BB_KNIGHT_ATTACKS[square] & knights)
            | (chess.BB_KING_ATTACKS[square] & kings)
            | (chess.BB_PAWN_ATTACKS[not by_white][square] & pawns)
            | (chess.BB_RANK_ATTACKS[square][chess.BB_RANK_MASKS[square] & occupied] & straight)
            | (chess.BB_FILE_ATTACKS[square][chess.BB_FILE_MASKS[square] & occupied] & straight)
            | (chess.BB_DIAG_ATTACKS[square][chess.BB_DIAG_MASKS[square] & occupied] & diagonal)
        )
    )


def flights(state: State, winner: chess.Color) -> int:
    """The squares the loser's king could step to if it were its turn (pins ignored)."""
    loser_units = state[7] if winner else state[6]
    winner_units = state[6] if winner else state[7]
    king = (state[5] & loser_units).bit_length() - 1
    occupied = (state[6] | state[7]) & ~(1 << king)
    free = chess.BB_KING_ATTACKS[king] & ~loser_units
    count = 0
    while free:
        low = free & -free
        if not _attacked(low.bit_length() - 1, occupied, winner_units, state, winner):
            count += 1
        free ^= low
    return count


def net_score(state: State, winner: chess.Color) -> int:
    """See the module docstring."""
    loser_units = state[7] if winner else state[6]
    king = (state[5] & loser_units).bit_length() - 1
    corner = corner_targets(state, winner)[2]
    score = flights(state, winner) + KING_DISTANCE[king][corner]
    bishops = state[2] & loser_units
    if not bishops:
        return score
    around = chess.BB_KING_ATTACKS[corner]
    while around:
        low = around & -around
        around ^= low
        same_colour = bishops & (chess.BB_LIGHT_SQUARES if low & chess.BB_LIGHT_SQUARES else chess.BB_DARK_SQUARES)
        if not same_colour or low & loser_units:
            continue
        score += 1 if _EMPTY_DIAGONALS[low.bit_length() - 1] & same_colour else 2
    return score

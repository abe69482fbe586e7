"""Tempo parity of a side whose only moving units are knights.

Rule. Let F be the frozen squares (:mod:`retro.spg.frozen`). Suppose a colour C has as
many units in ``goal`` as in ``init`` (no unit of C is captured in any game between
them) and every unit of C off F, in ``init`` and in ``goal``, is a knight. Then in every
game from ``init`` to ``goal``, the number of moves of C has the parity of
``sum(colour of the squares of C's free knights in init) + sum(same in goal)``, where a
square's colour is 0 (dark) or 1 (light).

Proof. Units on F never move, so every move of C is a move of one of C's knights off F
(C's pawns are all on F, so none promotes and no new unit appears; none of C's knights
is captured since C keeps all its units). A knight move always changes the colour of
the knight's square, so a knight that goes from square a to square b in k moves has
``k = colour(a) + colour(b) (mod 2)``. Summing over C's knights (whichever goes where)
gives the total, because the multiset of start squares is the free knights of ``init``
and the multiset of end squares the free knights of ``goal``.

Example: the start position with all castling rights and Black to move. The
rights freeze kings and rooks, then bishops and queens are boxed in: only knights move.
Each side's knights start and end on b1, g1 (b8, g8): the parity is even for both, but
with Black to move White has made one move more than Black, so one of the two counts is
odd: no game of any length reaches it.
"""

from __future__ import annotations

import chess

__all__ = ["knight_parity"]


def _light(square: chess.Square) -> int:
    return (chess.square_file(square) + chess.square_rank(square)) & 1


def knight_parity(init: chess.Board, goal: chess.Board, frozen: int, color: chess.Color) -> int | None:
    """The parity (0 or 1) of ``color``'s number of moves in every game from ``init`` to
    ``goal`` when the rule applies, else ``None``."""
    mine_init, mine_goal = init.occupied_co[color], goal.occupied_co[color]
    if chess.popcount(mine_init) != chess.popcount(mine_goal):
        return None
    free_init, free_goal = mine_init & ~frozen, mine_goal & ~frozen
    if free_init & ~init.knights or free_goal & ~goal.knights:
        return None
    total = sum(_light(sq) for sq in chess.scan_forward(free_init))
    total += sum(_light(sq) for sq in chess.scan_forward(free_goal))
    return total & 1

"""Promotion march: a scout for helpmates that need a pawn of the winner to promote first.

A heuristic only, like the king march (:mod:`retro.unwinnable.march`) it extends: it
chooses which lines are searched first; a mate it finds is a line of legal moves (shortened
and replayed with python-chess before it is shown), and exhausting it proves nothing.

The king march takes the pawns to stay where they are, so a position whose mate needs a
new piece gets no mating pattern. This scout goes there in two stages:

1. *Promote* (:class:`PromotionSearch`). A best-first search of the whole game (every
   legal move; the closure search's machinery) in the order of
   ``8 * promotion_cost + king distance``. ``promotion_cost`` is the cheapest way, over the
   winner's pawns, to the last rank when only the pawns count
   (:func:`promotion_costs`): a step forward costs 1, plus ``_CLEAR`` when an enemy pawn
   stands on the square (something must take it first) and 1 when a pawn of the winner's
   does (it must move on first); a capture costs 1 plus ``_CLEAR`` when no enemy pawn
   stands on the square (a unit must come there to be taken). A pawn of the winner that
   attacks a piece of the loser (an *offered* piece: not a pawn, not the king) costs 1
   plus the cost from the piece's square: there the unit to be taken has come, so the
   ``_CLEAR`` of that capture is not due. Without this term a position where the loser
   offers a piece scores as if the piece were elsewhere, and the search does not prefer
   the capture that opens the pawn's way (the pawn costs are per pawn structure and
   cached; the offered pieces are looked at per position). The king distance is the
   winner king's distance (in king steps, the board's walls ignored) to the nearest enemy
   pawn that stands in front of a winner pawn: in blocked positions the winner's king is
   the unit that opens a file, by taking a pawn. The search records every position reached
   by a promotion of the winner to a queen (a queen checks wherever a rook or a bishop
   would; underpromotions are left to the other searches, as each would cost a march).
2. *March* from each such position in turn (:func:`retro.unwinnable.march.march_search`,
   at most ``PROMOTED_MARCH_NODES`` positions each), now that a new piece gives the mating
   patterns; the line is the promotion line followed by the march's line, shortened.

:class:`PromotionMarch` alternates the two stages and can be resumed with more positions
(:mod:`retro.unwinnable.routines` gives it a share after each closure search).

Example (dev set, Black to win): ``B1B1B3/pBpBpBp1/P1P1P1P1/8/8/8/8/k1K5 w``. White's
light-squared bishops and the rammed pawns lock every pawn; Black has only its king, so
the king march has no pattern. Black's king walks up and takes a6, the a-pawn promotes, and
from the new queen the king march meets a mate: about 2,100 positions in all.

Example of an offered piece (dev set, White to win):
``knQ5/1q1p4/p1pPp3/P1P1Pp2/1K3Pp1/PbB3P1/8/8 w``. After ``Qxb7+ Kxb7`` White's pawns are
rammed; Black's bishop walks to b5, ``axb5 axb5`` opens the a-file and the a-pawn
promotes with mate: 156 positions (the offered term is what sends the march there first).
"""

from __future__ import annotations

import functools

import chess

from retro.unwinnable.closure import ClosureSearch, shorten_line
from retro.unwinnable.fastboard import FAST, MoveGenerator, State
from retro.unwinnable.march import march_search
from retro.unwinnable.mobility import step_targets

__all__ = ["promotion_costs", "PromotionSearch", "PromotionMarch", "promotion_march"]

_CLEAR = 3
_NO_PAWN = 99
#: At most this many positions per promotion go to the king march (its first rounds).
PROMOTED_MARCH_NODES = 4_000
#: The promotion search runs in chunks of this many positions between marches.
PROMOTION_CHUNK = 1_000


def promotion_table(winner_pawns: int, loser_pawns: int, winner_white: bool) -> tuple[int, ...]:
    """Per square, the promotion cost of a winner's pawn standing there when only the pawns
    count (module docstring; 0 on the last rank). Computed rank by rank from the last rank
    back."""
    ranks = range(6, 0, -1) if winner_white else range(1, 7)
    forward = 8 if winner_white else -8
    table = [0] * 64
    cost = [0] * 8  # per file, on the rank just processed (the last rank first)
    for rank in ranks:
        row = [0] * 8
        for file in range(8):
            square = rank * 8 + file
            ahead = square + forward
            step = 1 + cost[file]
            if loser_pawns >> ahead & 1:
                step += _CLEAR
            elif winner_pawns >> ahead & 1:
                step += 1
            for side in (file - 1, file + 1):
                if 0 <= side < 8:
                    capture = 1 + cost[side] + (0 if loser_pawns >> (ahead - file + side) & 1 else _CLEAR)
                    step = min(step, capture)
            row[file] = table[square] = step
        cost = row
    return tuple(table)


@functools.lru_cache(maxsize=100_000)  # few pawn structures per query: pawns rarely move in blocked positions
def _structure_costs(winner_pawns: int, loser_pawns: int, winner_white: bool) -> tuple[tuple[int, ...], int]:
    """:func:`promotion_table` and the cheapest cost over the winner's pawns in it."""
    table = promotion_table(winner_pawns, loser_pawns, winner_white)
    return table, min((table[square] for square in chess.scan_forward(winner_pawns)), default=_NO_PAWN)


def promotion_costs(winner_pawns: int, loser_pawns: int, winner_white: bool) -> int:
    """The cheapest promotion cost over the winner's pawns (module docstring), or
    ``_NO_PAWN`` without pawns."""
    return _structure_costs(winner_pawns, loser_pawns, winner_white)[1]


def _front_spans(pawns: int, white: bool) -> int:
    """The squares in front of ``pawns`` on their files."""
    span = 0
    while pawns:
        pawns = (pawns << 8 if white else pawns >> 8) & chess.BB_ALL
        span |= pawns
    return span


def _offered_cost(winner_pawns: int, loser_pawns: int, offered: int, white: bool) -> int:
    """The cheapest promotion cost of a winner's pawn that starts by taking one of the
    loser's pieces ``offered`` (module docstring), or ``_NO_PAWN``."""
    table = _structure_costs(winner_pawns, loser_pawns, white)[0]
    best = _NO_PAWN
    attacked = offered & step_targets(chess.PAWN, white, winner_pawns)
    for square in chess.scan_forward(attacked):
        best = min(best, 1 + table[square])
    return best


class PromotionSearch(ClosureSearch):
    """The closure search (every legal move) in the order of the winner's way to a
    promotion (module docstring); ``promoted`` lists the (id, position) of the positions
    reached by a promotion of the winner. An exhausted search proves nothing."""

    exhaustive = False

    def __init__(self, state: State, winner: chess.Color, generator: MoveGenerator = FAST):
        super().__init__(state, winner, generator, tempo=False)
        self.promoted: list[tuple[int, State]] = []
        self._last: State = state

    def _score(self, state: State) -> int:
        self._last = state  # the position :meth:`_entered` is called for next
        white = self.winner == chess.WHITE
        units, enemy = (state[6], state[7]) if white else (state[7], state[6])
        winner_pawns, loser_pawns = state[0] & units, state[0] & enemy
        cost = promotion_costs(winner_pawns, loser_pawns, white)
        offered = enemy & ~state[0] & ~state[5]
        if offered and winner_pawns:
            cost = min(cost, _offered_cost(winner_pawns, loser_pawns, offered, white))
        targets = _front_spans(winner_pawns, white) & loser_pawns
        distance = 0
        if targets:
            king = (state[5] & units).bit_length() - 1
            distance = min(chess.square_distance(king, square) for square in chess.scan_forward(targets))
        return 8 * cost + distance

    def _entered(self, parent_id: int, move: int) -> None:
        if move >> 12 == chess.QUEEN and self._last[8] != self.winner:
            self.promoted.append((len(self._parent) - 1, self._last))


class PromotionMarch:
    """Stage 1 in chunks of ``PROMOTION_CHUNK`` positions, and after each chunk stage 2 (at
    most ``PROMOTED_MARCH_NODES`` positions) from each new promotion. :meth:`run` can be
    called again with a new budget; stage 1 goes on where it stopped."""

    def __init__(self, state: State, winner: chess.Color, generator: MoveGenerator = FAST):
        self.root = state
        self.winner = winner
        self.generator = generator
        winner_pawns = state[0] & (state[6] if winner == chess.WHITE else state[7])
        self.search = PromotionSearch(state, winner, generator) if winner_pawns else None
        self.marched = 0  # the promotions already marched from

    def run(self, node_bound: int) -> tuple[bool, list[int], int]:
        """Enter at most ``node_bound`` more positions; return ``(found, line, nodes)``."""
        search, used = self.search, 0
        while search is not None and search.done is None and used < node_bound:
            allowed = min(PROMOTION_CHUNK, node_bound - used)
            found, line, _, entered = search.run(allowed)
            used += entered
            if found:
                return True, line, used
            if not entered and allowed == node_bound - used:
                break  # the next position has more children than the budget left (see KingMarch)
            for position_id, promoted in search.promoted[self.marched :]:
                spend = min(PROMOTED_MARCH_NODES, node_bound - used)
                if not spend:
                    break
                self.marched += 1
                found, line, nodes = march_search(promoted, self.winner, spend, self.generator)
                used += nodes
                if found:
                    line = search.moves_to(position_id) + line
                    return True, shorten_line(self.root, line, self.generator), used
        return False, [], used


def promotion_march(
    state: State, winner: chess.Color, node_bound: int, generator: MoveGenerator = FAST
) -> tuple[bool, list[int], int]:
    """One :meth:`PromotionMarch.run` of ``node_bound`` positions; return ``(found, line,
    nodes)``."""
    return PromotionMarch(state, winner, generator).run(node_bound)

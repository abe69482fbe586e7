"""King march: a goal-directed scout for long helpmates where the kings must travel.

A heuristic only, like the scout of :mod:`retro.unwinnable.focus`: it chooses which lines
are searched first; a mate it finds is a line of legal moves (shortened and replayed with
python-chess before it is shown), and exhausting it proves nothing.

The mating pattern is chosen first, then the kings are routed to it:

1. *Targets* (:func:`march_targets`). The pawns are taken to stay where they are (in the
   blocked positions the march is for, they mostly do): a piece's region is what it
   reaches by steps of its kind without crossing a pawn, a king's region avoids the pawns
   and the squares the enemy pawns attack. A square t of the loser king's region is a
   candidate mate square when a winner unit other than the king can attack t from its
   region (the check), and the squares next to t that no winner unit can attack are
   either next to a square w of the winner king's region (at king distance 2 or more from
   t, so both kings may stand there) or matched one to one with loser units whose regions
   contain them (self-blocks). The winner king gets target w when it is needed, none
   otherwise. Patterns are tried in the order of the kings' steps to their targets
   inside their regions. A position with no pattern (with pawns that stay, no mate is
   in sight: it needs a pawn move, a capture of a pawn or a promotion) gets no march.
2. *Routing* (:class:`MarchSearch`). A best-first search of the whole game (every legal
   move; the closure search's machinery) in the order of ``4 * (d(loser king, t) +
   d(winner king, w)) + flights``, where d is a king's distance counted on the current
   board: a step costs 1 onto a square free for it, 3 onto a square that is attacked by
   the enemy or holds a unit of its own (a unit that must first get out of the way, or a
   guard that must first be moved), and squares with a pawn of its own, the enemy king or
   an enemy pawn's attack are walls; flights are those of :func:`retro.unwinnable.netscore.flights`.
   The cost of 3 makes the moves that clear a king's way (a guard stepping off a line, a
   piece leaving a square) lower the score, so the search does not wander on a plateau of
   moves that change nothing.

Cost: the caller gives a bound in positions (:mod:`retro.unwinnable.routines`: 20,000 at
first, more after each later closure search; :class:`KingMarch` goes on where it stopped),
and each position costs a bounded amount of work: its moves, and two route searches of at
most 60 layers of bitboard shifts. A position costs about 30 us, twice a closure search's.

Example (dev set, White to win): ``BkB5/pBp5/P1P5/4b3/8/8/8/5K2 w``. The pawns are rammed,
White's bishops are light-squared and Black's king stands on a dark square, boxed in by
them: no check is possible there. The mate: Black's king on h1, its bishop on h2, White's
king on f1 (covering g1 and g2) and a white bishop checking on the long diagonal. The
bishops on c8 and b7 must first unguard c8 so that Black's king can walk out; the closure
search meets no mate within 3 million positions. The march tries the patterns (a8, c8),
(h1, f1) and (c8, a8) in turn and meets the mate after about 6,300 positions in all.
"""

from __future__ import annotations

import chess

from retro.core.attacks import attacks_mask
from retro.unwinnable.closure import ClosureSearch
from retro.unwinnable.fastboard import FAST, MoveGenerator, State, to_board
from retro.unwinnable.mobility import PRED_MASKS, step_targets
from retro.unwinnable.netscore import flights

__all__ = ["march_targets", "king_route_length", "MarchSearch", "KingMarch", "march_search", "MARCH_TARGETS"]

#: At most this many (loser king, winner king) target pairs are tried.
MARCH_TARGETS = 6
#: The node bound of each search in the first round (doubled every round).
MARCH_FIRST_BOUND = 1_000
_STEP, _DETOUR, _UNREACHABLE = 1, 3, 60
_NOT_FILE_A = chess.BB_ALL & ~chess.BB_FILE_A
_NOT_FILE_H = chess.BB_ALL & ~chess.BB_FILE_H


def _dilate(mask: chess.Bitboard) -> chess.Bitboard:
    """``mask`` and the squares a king steps to from it (by shifts, not square by square)."""
    row = mask | (mask << 1) & _NOT_FILE_A | (mask >> 1) & _NOT_FILE_H
    return (row | row << 8 | row >> 8) & chess.BB_ALL


def _empty_board_attacks(piece_type: chess.PieceType, color: chess.Color, region: chess.Bitboard) -> chess.Bitboard:
    """The squares a piece of this type attacks from some square of ``region`` on an empty board."""
    if piece_type in (chess.PAWN, chess.KNIGHT, chess.KING):
        return step_targets(piece_type, color, region)
    attacks = 0
    for square in chess.SquareSet(region):
        if piece_type != chess.ROOK:
            attacks |= chess.BB_DIAG_ATTACKS[square][0]
        if piece_type != chess.BISHOP:
            attacks |= chess.BB_RANK_ATTACKS[square][0] | chess.BB_FILE_ATTACKS[square][0]
    return attacks


def _pawn_attacks(board: chess.Board, color: chess.Color) -> chess.Bitboard:
    return step_targets(chess.PAWN, color, board.pawns & board.occupied_co[color])


def _region_distances(start: chess.Square, region: chess.Bitboard) -> dict[chess.Square, int]:
    """King steps from ``start`` to the squares of ``region`` without leaving it."""
    distances = {start: 0}
    layer = chess.BB_SQUARES[start]
    seen = layer
    steps = 0
    while layer:
        steps += 1
        layer = _dilate(layer) & region & ~seen
        seen |= layer
        for square in chess.SquareSet(layer):
            distances[square] = steps
    return distances


def _matched(squares: list[chess.Square], regions: list[chess.Bitboard]) -> bool:
    """Whether each square gets its own region containing it (augmenting paths)."""
    owner: dict[int, chess.Square] = {}

    def place(square: chess.Square, tried: set[int]) -> bool:
        for i, region in enumerate(regions):
            if region & chess.BB_SQUARES[square] and i not in tried:
                tried.add(i)
                if i not in owner or place(owner[i], tried):
                    owner[i] = square
                    return True
        return False

    return all(place(square, set()) for square in squares)


def _pawns_stay_region(piece_type: chess.PieceType, square: chess.Square, walls: chess.Bitboard) -> chess.Bitboard:
    """The squares a piece reaches by steps of its kind (a slide is a run of steps) from
    ``square`` without entering ``walls``."""
    table = chess.BB_KING_ATTACKS if piece_type == chess.KING else PRED_MASKS[piece_type]
    region = frontier = chess.BB_SQUARES[square]
    while frontier:
        grown = 0
        for step in chess.SquareSet(frontier):
            grown |= table[step]
        frontier = grown & ~walls & ~region
        region |= frontier
    return region


def march_targets(board: chess.Board, winner: chess.Color) -> list[tuple[int, chess.Square, chess.Square | None]]:
    """Candidate (king steps, loser king square, winner king square or None) triples,
    cheapest first (module docstring)."""
    pawns = board.pawns
    cover = _pawn_attacks(board, winner)
    blockers = [chess.BB_SQUARES[square] for square in chess.SquareSet(pawns & board.occupied_co[not winner])]
    for square in chess.SquareSet(board.occupied & ~pawns & ~board.kings):
        piece_type = board.piece_type_at(square)
        assert piece_type is not None
        region = _pawns_stay_region(piece_type, square, pawns)
        if board.color_at(square) == winner:
            cover |= _empty_board_attacks(piece_type, winner, region)
        else:
            blockers.append(region)
    loser_king, winner_king = board.king(not winner), board.king(winner)
    assert loser_king is not None and winner_king is not None
    loser_region = _pawns_stay_region(chess.KING, loser_king, pawns | _pawn_attacks(board, winner))
    winner_region = _pawns_stay_region(chess.KING, winner_king, pawns | _pawn_attacks(board, not winner))
    loser_steps = _region_distances(loser_king, loser_region)
    winner_steps = _region_distances(winner_king, winner_region)
    pairs: list[tuple[int, chess.Square, chess.Square | None]] = []
    for target in chess.SquareSet(loser_region & cover):
        if target not in loser_steps:
            continue
        around = chess.BB_KING_ATTACKS[target]
        uncovered = around & ~cover
        best: tuple[int, chess.Square | None] | None = None
        if _matched(list(chess.SquareSet(uncovered)), blockers):
            best = (0, None)
        for square, steps in winner_steps.items():
            if (best is None or steps < best[0]) and chess.square_distance(square, target) >= 2:
                rest = uncovered & ~chess.BB_KING_ATTACKS[square]
                if rest != uncovered and _matched(list(chess.SquareSet(rest)), blockers):
                    best = (steps, square)
        if best is not None:
            pairs.append((loser_steps[target] + best[0], target, best[1]))
    pairs.sort(key=lambda pair: (pair[0], pair[1], -1 if pair[2] is None else pair[2]))
    return pairs


def _attacked(state: State, white: bool) -> chess.Bitboard:
    """The squares the units of one colour attack (their own units' squares included)."""
    units = state[6] if white else state[7]
    occupied = state[6] | state[7]
    attacks = step_targets(chess.PAWN, white, state[0] & units)
    for piece_type, pieces in zip(
        (chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN, chess.KING), state[1:6], strict=True
    ):
        for square in chess.scan_forward(pieces & units):
            attacks |= attacks_mask(piece_type, square, occupied)
    return attacks


def king_route_length(state: State, white: bool, target: chess.Square) -> int:
    """The cost of the king's cheapest way to ``target`` on the current board (module
    docstring: 1 per free square, 3 per square to be cleared, walls excluded), or 60."""
    units, enemy = (state[6], state[7]) if white else (state[7], state[6])
    king = (state[5] & units).bit_length() - 1
    if king == target:
        return 0
    walls = state[0] & units | state[5] & enemy | step_targets(chess.PAWN, not white, state[0] & enemy)
    goal = chess.BB_SQUARES[target]
    open_squares = chess.BB_ALL & ~walls
    free = open_squares & ~units & ~_attacked(state, not white) | goal & ~walls
    detour = open_squares & ~free
    layers = [chess.BB_SQUARES[king]]
    seen = layers[0]
    for cost in range(1, _UNREACHABLE):
        new = _dilate(layers[cost - _STEP]) & free
        if cost >= _DETOUR:
            new |= _dilate(layers[cost - _DETOUR]) & detour
        new &= ~seen
        if new & goal:
            return cost
        if not new and not any(layers[-_DETOUR + 1 :]):
            break
        seen |= new
        layers.append(new)
    return _UNREACHABLE


class MarchSearch(ClosureSearch):
    """The closure search (every legal move) in the order of the kings' routes to a target
    pair (module docstring). Its lines are legal lines; an exhausted search proves nothing
    (``complete`` is always False)."""

    exhaustive = False

    def __init__(
        self,
        state: State,
        winner: chess.Color,
        loser_target: chess.Square,
        winner_target: chess.Square | None,
        generator: MoveGenerator = FAST,
    ):
        super().__init__(state, winner, generator, tempo=False)
        self.loser_target = loser_target
        self.winner_target = winner_target

    def _score(self, state: State) -> int:
        winner = self.winner
        distance = king_route_length(state, not winner, self.loser_target)
        if self.winner_target is not None:
            distance += king_route_length(state, winner, self.winner_target)
        return 4 * distance + flights(state, winner)


class KingMarch:
    """A :class:`MarchSearch` for each of the first ``MARCH_TARGETS`` patterns, run in
    rounds: each search is resumed with a doubled bound (``MARCH_FIRST_BOUND`` first) until
    a mate is found. :meth:`run` can be called again with a new budget; the searches go on
    where they stopped.

    A search enters a position's children all at once, so a call enters nothing when the
    next position has more children than the call allows. With a bound below the budget
    left, a later round (doubled bound) lets it go on; with the whole budget left it cannot
    in this call (the budget only shrinks), so it is set aside until the next :meth:`run`.
    Hence every round either doubles a bound that is still below the budget, or enters
    positions, or sets a search aside: a call ends after a bounded number of rounds."""

    def __init__(self, state: State, winner: chess.Color, generator: MoveGenerator = FAST):
        pairs = march_targets(to_board(state), winner)[:MARCH_TARGETS]
        self.searches = [MarchSearch(state, winner, target, king, generator) for _, target, king in pairs]
        self.bound = MARCH_FIRST_BOUND

    def run(self, node_bound: int) -> tuple[bool, list[int], int]:
        """Enter at most ``node_bound`` more positions; return ``(found, line, nodes)``."""
        used = 0
        set_aside: list[MarchSearch] = []
        while used < node_bound:
            active = [search for search in self.searches if search.done is None and search not in set_aside]
            if not active:
                break
            for search in active:
                allowed = min(self.bound, node_bound - used)
                if not allowed:
                    break
                found, line, _, nodes = search.run(allowed)
                used += nodes
                if found:
                    self.searches = []
                    return True, line, used
                if not nodes and allowed == node_bound - used:
                    set_aside.append(search)  # its next position has more children than the budget left
            else:
                self.bound *= 2  # a whole round was run
        self.searches = [search for search in self.searches if search.done is None]
        return False, [], used


def march_search(
    state: State, winner: chess.Color, node_bound: int, generator: MoveGenerator = FAST
) -> tuple[bool, list[int], int]:
    """One :meth:`KingMarch.run` of ``node_bound`` positions; return ``(found, line, nodes)``."""
    return KingMarch(state, winner, generator).run(node_bound)

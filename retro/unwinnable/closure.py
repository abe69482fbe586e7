"""Closure search: explore every position reachable from the root, each once.

Rule: a traversal of the graph of legal moves with a visited set keyed by the full
position (the key of ``Board._transposition_key()``: pieces, side to move, castling
rights, legal en passant square) and no depth limit. Leaves are checkmates, stalemates and
positions with insufficient material for the winner (Lemmas 5 and 6,
:mod:`retro.unwinnable.material`). Positions are expanded best-first in the order of
:func:`retro.unwinnable.netscore.net_score` (a heuristic distance to a mating net; it
only decides which positions come first).

Why it is sound: if the traversal ends without hitting its node bound, the visited set
contains the root and, for each visited (expanded) position, every child that is not a
dead-end leaf; so it is closed under legal moves, and none of its members nor leaves is a
mate by the winner: no sequence of legal moves from the root ends in such a mate. If a
mate is met, the chain of parents from it back to the root is a legal line to it (the
caller replays it).

Move exhaustion (:mod:`retro.unwinnable.exhaustion`): when its rule applies at the root
(and there are no tempo units), a child whose chain of parents holds no promotion (so it
is in the rule's phase) and that the rule cuts is a dead-end leaf as well, and the root
is one when the rule cuts it. The argument above still holds: a line from the root to a
mate that meets such a child would continue from it to a mate, which the rule excludes.

Tempo units (:mod:`retro.unwinnable.tempo`): when the position has units that only ever
provide waiting moves, the traversal runs on the abstract game where they stay on their
squares and their side may pass instead; that module proves the abstract closure has a
mate by the winner exactly when the real one does, and a mate found is turned back into
real moves (:func:`retro.unwinnable.tempo.realize`) before shortening.

A line of the traversal wanders (hundreds of plies in blocked positions), so a found line
is shortened by :func:`shorten_line` before it is returned: from each position of the
line we jump to the latest position of the line that one legal move reaches, or that two
legal moves reach when that gets at least two plies further. Every jump is made of legal
moves and the last position (the mate) is kept, so the result is still a helpmate. Why two
moves: a wandering line is mostly detours of both sides in turn (a bishop goes to and fro
while the other side's unit walks), and a one-move jump cannot skip a pair of moves that
lands on a position of the line with the other side to move; the lines of the closure
search shrink by a factor of about 2.8 (539 plies to 195 for the dev position
``k7/p1p1p3/8/8/8/6p1/P1P1P1Pp/7K w``), for about one move generation per child.

Scout (:class:`FocusedSearch`): the same best-first search on the game restricted to the
moves of the units :func:`retro.unwinnable.focus.active_units` names, plus one waiting move
per position. Its lines are made of legal moves, so a mate it finds is a helpmate (shortened
and replayed like the others); exhausting it proves nothing.

Why it exists (a choice of ours, not in the paper): the depth-limited Find-Helpmate of
Figure 5 can only prove unwinnability when *no* branch hits the depth limit, which in
positions with a few thousand reachable positions needs a depth close to the longest
path. A plain closure needs only as many nodes as there are positions, so the full
routine alternates it with iterative deepening (:mod:`retro.unwinnable.routines`).
"""

from __future__ import annotations

import heapq

import chess

from retro.unwinnable import deadline as clock
from retro.unwinnable.exhaustion import Exhaustion, exhaustion
from retro.unwinnable.fastboard import FAST, MoveGenerator, State, in_check, to_board
from retro.unwinnable.focus import active_units
from retro.unwinnable.material import insufficient_state
from retro.unwinnable.netscore import net_score
from retro.unwinnable.tempo import NO_TEMPO_UNITS, PASS, abstract_moves, pass_turn, realize, tempo_units

__all__ = ["ClosureSearch", "FocusedSearch", "closure_search", "focused_search", "shorten_line"]


class ClosureSearch:
    """A closure search that can be resumed: :meth:`run` with a node bound continues where
    the previous call stopped (the visited set and the frontier are kept)."""

    def __init__(self, state: State, winner: chess.Color, generator: MoveGenerator = FAST, *, tempo: bool = True):
        self.root = state
        self.winner = winner
        self.generator = generator
        self.tempo = tempo
        self.units = NO_TEMPO_UNITS  # set by the first run
        self.exhaustion: Exhaustion | None = None  # set by the first run
        self._phase = [True]  # per position id: entered by a line without a promotion
        self.done: tuple[bool, list[int], bool] | None = None  # the final answer, once known
        # Every position entered gets an id: its parent's id and the move from it.
        self._ids: dict[object, int] = {}
        self._parent = [-1]
        self._via = [0]
        self._frontier = [(0, 0, state)]  # (score, -id, position)

    def _start(self) -> None:
        state, winner, generator = self.root, self.winner, self.generator
        self._ids[generator.key(state)] = 0
        if not generator.has_legal_move(state):
            self.done = (state[8] != winner and in_check(state), [], True)
        elif insufficient_state(state, winner):
            self.done = (False, [], True)
        else:
            board = to_board(state)
            if self.tempo:
                self.units = tempo_units(board)
            if self.exhaustive and not self.units:
                self.exhaustion = exhaustion(board, winner)
                if self.exhaustion is not None and self.exhaustion.exhausted(state):
                    self.done = (False, [], True)

    def _play(self, position: State, move: int) -> State:
        return pass_turn(position) if move == PASS else self.generator.play(position, move)

    def moves_to(self, position_id: int) -> list[int]:
        """The moves from the root to the position with this id (abstract moves included)."""
        line = []
        while position_id:
            line.append(self._via[position_id])
            position_id = self._parent[position_id]
        line.reverse()
        return line

    def _line_to(self, position_id: int, move: int) -> list[int] | None:
        line = self.moves_to(position_id) + [move]
        real = realize(self.root, line, self.units, self.generator) if self.units else line
        return None if real is None else shorten_line(self.root, real, self.generator)

    def run(self, node_bound: int) -> tuple[bool, list[int], bool, int]:
        """Enter at most ``node_bound`` more positions; return ``(found, line, complete,
        nodes entered by this call)`` (see :func:`closure_search`). Raises
        :class:`~retro.unwinnable.deadline.TimeLimitReached` when the query's deadline
        passes (between two expansions: the search can be resumed)."""
        if not self._ids:
            self._start()
        if self.done is not None:
            return *self.done, 0
        iter_legal_moves, has_legal_move, _, key = self.generator
        winner, units, ids, parent, via, frontier, ex, phase = (
            self.winner,
            self.units,
            self._ids,
            self._parent,
            self._via,
            self._frontier,
            self.exhaustion,
            self._phase,
        )
        start = len(parent)
        limit = start + node_bound
        deadline = clock.current()
        expanded = 0
        while frontier:
            if deadline is not None:
                expanded += 1
                if not expanded & (clock.CHECK_EVERY_EXPANSIONS - 1):
                    clock.check(deadline)
            _, minus_id, position = frontier[0]
            position_id = -minus_id
            moves = list(iter_legal_moves(position))
            if units:
                moves = abstract_moves(position, moves, units)
            moves = self._restrict(position_id, moves)
            children = []
            for move in moves:
                child = self._play(position, move)
                child_key = key(child)
                if child_key in ids:  # seen, and not a mate (mates end the search)
                    continue
                if not has_legal_move(child):
                    if child[8] != winner and in_check(child):
                        line = self._line_to(position_id, move)
                        self.done = (False, [], False) if line is None else (True, line, False)
                        return *self.done, len(parent) - start
                    continue
                if insufficient_state(child, winner):
                    continue
                in_phase = phase[position_id] and not move >> 12
                if in_phase and ex is not None and ex.exhausted(child):
                    continue
                children.append((move, child, child_key, in_phase))
            if len(parent) + len(children) > limit:  # expand this position next call
                return False, [], False, len(parent) - start
            heapq.heappop(frontier)
            for move, child, child_key, in_phase in children:
                ids[child_key] = len(parent)
                phase.append(in_phase)
                heapq.heappush(frontier, (self._score(child), -len(parent), child))
                parent.append(position_id)
                via.append(move)
                self._entered(position_id, move)
        self.done = (False, [], self.exhaustive)
        return *self.done, len(parent) - start

    #: Whether an exhausted search has seen every reachable position (a proof).
    exhaustive = True

    def _score(self, state: State) -> int:
        """The order of expansion (lower first): the net score here."""
        return net_score(state, self.winner)

    def _restrict(self, position_id: int, moves: list[int]) -> list[int]:
        """The moves searched from the position with this id (all of them here)."""
        return moves

    def _entered(self, parent_id: int, move: int) -> None:
        """Called for every new position, entered by ``move`` from ``parent_id``."""


class FocusedSearch(ClosureSearch):
    """The closure search restricted to the moves of the active units
    (:func:`retro.unwinnable.focus.active_units`, tracked as they move) plus the first
    legal move of the other units (one waiting move): a scout for long helpmates in
    blocked positions. Its lines are legal lines, but an exhausted search proves nothing
    (``complete`` is always False)."""

    exhaustive = False

    def __init__(self, state: State, winner: chess.Color, active: chess.Bitboard, generator: MoveGenerator = FAST):
        super().__init__(state, winner, generator, tempo=False)
        self._active = [active]  # per position id: the squares of the active units

    def _restrict(self, position_id: int, moves: list[int]) -> list[int]:
        active = self._active[position_id]
        kept = [move for move in moves if active >> (move & 63) & 1]
        waiting = next((move for move in moves if not active >> (move & 63) & 1), None)
        if waiting is not None:
            kept.append(waiting)
        return kept

    def _entered(self, parent_id: int, move: int) -> None:
        active = self._active[parent_id]
        origin, target = chess.BB_SQUARES[move & 63], chess.BB_SQUARES[(move >> 6) & 63]
        self._active.append(active & ~origin & ~target | (target if active & origin else 0))


def focused_search(
    state: State, winner: chess.Color, node_bound: int, generator: MoveGenerator = FAST
) -> tuple[bool, list[int], int]:
    """Run a :class:`FocusedSearch` (when some unit is not active); return ``(found,
    line, nodes)``."""
    board = to_board(state)
    active = active_units(board, winner)
    if active == board.occupied:
        return False, [], 0
    found, line, _, nodes = FocusedSearch(state, winner, active, generator).run(node_bound)
    return found, line, nodes


def closure_search(
    state: State, winner: chess.Color, node_bound: int, generator: MoveGenerator = FAST, *, tempo: bool = True
) -> tuple[bool, list[int], bool, int]:
    """Return ``(found, line, complete, nodes)``; ``complete`` means the whole reachable
    graph was seen (so ``found == False`` proves unwinnability). Best-first in the order of
    :func:`retro.unwinnable.netscore.net_score` (ties: the newest position first).
    ``tempo``: search the abstract game of :mod:`retro.unwinnable.tempo` (tempo units
    replaced by a pass) when the position has tempo units."""
    return ClosureSearch(state, winner, generator, tempo=tempo).run(node_bound)


def shorten_line(state: State, line: list[int], generator: MoveGenerator = FAST) -> list[int]:
    """A line from ``state`` to the same final position, made of jumps between positions of
    ``line``: from each position, to the latest position of ``line`` that one legal move
    reaches, or two legal moves when they get at least two plies further than one move
    does (module docstring)."""
    iter_legal_moves, _, play, key = generator
    index = {key(state): 0}
    replay = state
    for i, move in enumerate(line, 1):
        replay = play(replay, move)
        index[key(replay)] = i  # the latest occurrence wins
    short: list[int] = []
    work = state
    i = 0
    while i < len(line):
        best, jump = i + 1, [line[i]]
        children = []
        for move in iter_legal_moves(work):
            child = play(work, move)
            children.append((move, child))
            j = index.get(key(child), -1)
            if j > best:
                best, jump = j, [move]
        further = best + 1  # a pair of moves must beat one move and one more ply
        for move, child in children:
            for second in iter_legal_moves(child):
                j = index.get(key(play(child, second)), -1)
                if j > further:
                    best, further, jump = j, j, [move, second]
        for move in jump:
            work = play(work, move)
        short.extend(jump)
        i = best
    return short

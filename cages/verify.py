"""Verifying a claimed cage by the zone-based retraction tree (Hwa 2022, §3).

A *cage* is a partial position that stays illegal whatever units are added on its
empty squares. Given the partial position and a zone of squares (default: the occupied
squares and every square a king's move from one), the verifier explores every state
reachable by retractions (:mod:`cages.retractions`) and answers ``cage`` only if none
of them *fails*: a state fails when all units are gone, when all remaining units stand
on home squares (where a unit of that kind and colour starts the game; pawns on their
second rank), or when the depth bound is reached on the way to it.

Why a ``cage`` verdict is sound. Suppose some extension E of the position is legal,
with a game G reaching it. Undo G move by move from E and watch only the units of the
partial position that are still in the zone: each undone move of one of them is one
of the retractions we enumerate (the extension principle: a retraction legal in E is
legal in the partial position, because units added to E only remove possibilities;
uncaptured units are not ours to track; a unit leaving the zone is dropped), moves of
other units change nothing, and at the start of G every unit is on a home square or
has been dropped. So a failing state is reachable, and a search that visits every
reachable state (breadth first, each state once: plain graph reachability, so
nothing is missed; a state's depth is its distance from the given position) finds it,
or reaches the depth bound first, which also fails. (A depth-first probe runs first
because it finds most failures at once; its depth-bound failures are re-examined
breadth first, within a state budget whose exhaustion is also a failure.) A state is
skipped only when it is illegal in every extension:

* the side that did *not* just retract has its king in unblockable check (§3 (a));
* the side that just retracted has its king in two unblockable checks (§3 (b)), or in
  one after a castling retraction (one may not castle out of check);
* it contains a cage of the known-cage library whose assumptions (frozen units,
  forbidden retractions) are among this run's (asked of the library narrowed to the cages
  that a state of this run can hold, :meth:`cages.library.Library.narrowed`, which gives
  the same answers);
* it holds a *stranded* unit: one away from home that no retraction can ever move, as
  every square it could come from is held by a unit that never moves either (pawns on
  their second rank, frozen units; :mod:`cages.stranded`, rule and proof there); such a
  state is visited but not expanded (no failing state is reachable from it, so its
  successors need no search; a state holding it plus one unit holds it too, so
  subsumption by it and the cache of safe states stay sound);
* after a retraction leaves the retractor's king in unblockable check, only the
  checking unit may retract next (§2 principle 2: that unit gave the check; an
  unblockable check cannot be discovered), and if it cannot, the state is illegal.

**Reductions** (:class:`Reductions`). Each skip below either drops a state that is
illegal in every extension (as the rules above do) or a state or transition whose
failures are reached another way; a ``cage`` verdict then still means that no failing
state is reachable, so it stays sound. All but sleep sets are on by default (sleep sets
are off: see there).

*Interchangeable units (the canonical form).* A state is the position itself: the map
square -> (kind, colour) of the units still in the zone, and the pending checker's square
(:func:`_units_key`). Two units of one kind and colour are never told apart, so states
that differ only by exchanging them are one state. Proof that this is exactly the
position-level identity and loses nothing: every rule of the search reads only that map
and the pending square. The retractions of the unit on a square depend on its kind,
colour and square and on which squares are occupied (:func:`cages.retractions.retractions`);
the unblockable checks on the kind, colour and square of each unit; a failure on the
squares' home-ness for the kind and colour (a promoted unit has the home squares of its
kind, so no unit's history matters); the known-cage lookup on the map; frozen units are
given by square and, never moving, keep their square to themselves. So two labelled states
with the same map have the same successors (as maps) and the same failure status, at the
same distance: identifying them is a bisimulation, and a failing state is reachable from
one iff from the other. (Test: two knights wandering round a3-a2-b2 make 106 positions,
211 labelled states.)

*Subsumption.* The search skips a state whose units are those of a state already seen plus
one unit that is not a rook, with the same pending checker or none (:func:`_subsumed`
proves that every failure reachable from it is reachable, no deeper, from the smaller
state, which the search explores). Units that wander round the zone (a bishop and a rook
going round ``k1br2b1/ppKppp1B/2p3p1``) then cost one state per square, not one per
combination of squares (state counts with and without it: ``bench/NOTES.md``).

*Lemma cages.* A state that contains a king with all the pawns of the state (a strict part
of it) is skipped if that part is verified as a cage by this same procedure (its own
default zone, the same options, a budget of ``lemma_nodes`` states; results are kept for
the run in ``lemmas``). A verified cage is illegal in every extension, so every state that
contains it is, exactly as for the known-cage library (Hwa's bootstrapping, done on the
fly). The inner verification is an independent run of this sound procedure (it uses no
lemmas itself), so no circularity arises. This is what verifies cages in which a king is
shut in behind pawns while other units wander, such as ``nK1k4/r1ppRppp/pp2p3`` (state
counts with and without lemmas: ``bench/NOTES.md``). Lemmas are tried only once a search has visited 16 states
(most cages are done sooner), and their states count in the search's budget.

*Commuting retractions (sleep sets, off by default).* Two retractions a and b from a state
s with no unblockable check commute when they move different units, neither enters the
other's squares or crosses them on its way (so each stays possible after the other, with
the same effect), there is no castling, and the two moved units do not give each other an
unblockable check where they land. Then s after a, s after b and s after a then b have no
unblockable check (every other pair of units stands as in s or in s after one move, which
have none), so both orders are allowed, leave no pending checker, and reach the same
state. The breadth-first search explores the retractions of a state in a fixed order and
passes to the state reached by b the set of retractions a explored before it (and those
still asleep in s) that commute with b; these sleep there and are not explored, since the
state they lead to is reached through a first (Godefroid's sleep sets). A state reached
again with a smaller sleep set has the retractions that have woken up explored then (the
state-caching rule), and a skipped state (subsumed, or illegal) never puts its retraction
to sleep. With these rules every state reachable in the full search is still visited
(Godefroid 1996, Theorem 6.2; a skipped intermediate state is either illegal in every
extension or covered by subsumption), only at a path length that may be longer, which
can only add depth-bound failures. So a ``cage`` verdict stays sound. Sleep sets never
save states (every state is still visited), only transitions, and few of them in the
compact positions of cages, while their bookkeeping costs more than the transitions
saved, so they are off by default (measurements: ``bench/NOTES.md``).

Choices where the paper is silent, made conservatively: promoted units have the home
squares of their kind (a unit may always retract a promotion instead, so nothing is
lost); a castling retraction needs the king and rook on g1/f1 (c1/d1) and e1 and the
rook's corner empty; the depth of a state is the least number of retractions that reach it from the given
position (breadth-first search), so a cage whose units wander is verified as soon as
every state within the bound has been seen.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterable
from typing import Protocol, runtime_checkable

import chess

from cages.retractions import HOME_SQUARES, Retraction, retractions, unblockable_checkers
from cages.stranded import stranded
from retro.core.status import CageStatus

__all__ = ["CageVerdict", "CageLookup", "default_zone", "verify", "Options", "Reductions"]

Units = dict[chess.Square, chess.Piece]
State = tuple[tuple[tuple[int, int], ...], int]  # sorted (square, piece code), pending checker square (-1: none)


@dataclasses.dataclass(frozen=True)
class Options:
    """Assumptions of a verification: units that may not move and forbidden pawn
    captures as (from file, to file) pairs, e.g. ``dxe`` = (3, 4), for either side."""

    frozen: frozenset[chess.Square] = frozenset()
    forbid: frozenset[tuple[int, int]] = frozenset()


class CageLookup(Protocol):
    """What the verifier asks of a library of verified cages (:class:`cages.library.Library`):
    a known cage (anything but None) among ``units`` under ``options``."""

    def contains(self, units: Units, options: Options) -> object | None: ...


@runtime_checkable
class NarrowableLookup(CageLookup, Protocol):
    """A library that can leave out the cages that cannot matter to one verification
    (:meth:`cages.library.Library.narrowed`: same answers, from fewer cages)."""

    def narrowed(self, zone: chess.Bitboard, units: Units) -> CageLookup: ...


@dataclasses.dataclass(frozen=True)
class CageVerdict:
    """``cage`` when no retraction sequence gets out, else ``not_verified`` with the
    ``line`` that did (or reached the depth bound). ``fen`` is the partial board."""

    fen: str
    status: CageStatus
    line: tuple[str, ...]  # the retractions that reached the failing state, in order
    reason: str
    zone: tuple[str, ...]
    nodes: int
    seconds: float

    def as_dict(self) -> dict[str, object]:
        return {
            "fen": self.fen,
            "status": self.status,
            "line": list(self.line),
            "reason": self.reason,
            "zone": list(self.zone),
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
        }


def default_zone(units: Iterable[chess.Square]) -> chess.Bitboard:
    """The occupied squares and every square a king's move from one (Hwa, footnote 4)."""
    zone = 0
    for square in units:
        zone |= chess.BB_SQUARES[square] | chess.BB_KING_ATTACKS[square]
    return zone


_CODE = {chess.Piece(kind, color): kind + 8 * color for kind in chess.PIECE_TYPES for color in chess.COLORS}
_ROOKS = (_CODE[chess.Piece(chess.ROOK, chess.WHITE)], _CODE[chess.Piece(chess.ROOK, chess.BLACK)])


def _units_key(units: Units) -> tuple[tuple[int, int], ...]:
    """The canonical form of a set of units: the position itself, (square, kind and colour)
    sorted by square. Units of one kind and colour are not told apart (see the module
    docstring: every rule of the search reads only this map)."""
    return tuple(sorted((square, _CODE[piece]) for square, piece in units.items()))


def _key(units: Units, pending: int) -> State:
    return _units_key(units), pending


def _all_home(units: Units) -> bool:
    return all(HOME_SQUARES[piece] & chess.BB_SQUARES[square] for square, piece in units.items())


def _king(units: Units, color: chess.Color) -> chess.Square | None:
    for square, piece in units.items():
        if piece.piece_type == chess.KING and piece.color == color:
            return square
    return None


def _checkers(units: Units, color: chess.Color) -> list[chess.Square]:
    king = _king(units, color)
    return [] if king is None else unblockable_checkers(units, king, color)


def _apply(units: Units, retraction: Retraction, zone: chess.Bitboard) -> Units:
    new = dict(units)
    del new[retraction.to]
    if zone & chess.BB_SQUARES[retraction.from_square]:
        new[retraction.from_square] = retraction.piece
    if retraction.rook is not None:
        rook_to, rook_from = retraction.rook
        rook = new.pop(rook_to)
        if zone & chess.BB_SQUARES[rook_from]:
            new[rook_from] = rook
    return new


def _transition(units: Units, retraction: Retraction, zone: chess.Bitboard) -> tuple[Units, int] | None:
    """The state after ``retraction`` (units, pending checker square or -1), or None if it
    is illegal in every extension (see the module docstring)."""
    mover = retraction.piece.color
    new = _apply(units, retraction, zone)
    if _checkers(new, not mover):
        return None  # the side not to move is in check
    checks = _checkers(new, mover)
    if len(checks) >= 2 or (checks and retraction.rook is not None):
        return None
    return new, checks[0] if checks else -1


def _subsumed(
    units: Units, pending: int, seen: dict[State, tuple[State, str] | None], safe: set[State] | None = None
) -> bool:
    """Is the state (``units``, ``pending``) a superset of a state already in the breadth-first
    search, with one more unit (not a rook) and the same pending checker or none?

    Subsumption (sound; the verification skips the state). Let T be a seen state whose
    units are S's minus one unit u that is not a rook, with no pending checker or S's.
    Every retraction line from S has a matching line from T: drop the retractions of u
    (and of what u becomes; a retracted unit never becomes a rook unless it is one,
    since un-promotion only turns a piece into a pawn) and keep the others. Each kept
    retraction is possible from T's state: with fewer units there are fewer blockers,
    fewer unblockable checks (so no more states are illegal and the pending-checker rule
    constrains no more: a checker in T's state checks in S's state too, where a second
    checker would make S's state illegal), the same zone and frozen squares, and no known
    cage in a subset of a state that contains none; castling needs its rook, which is
    never u. T's states hold S's states' units minus u's, so when S's line reaches a
    failing state (no units, all on home squares) T's line does, at no greater depth since
    T was seen first in breadth-first order (its depth is at most S's). So if a failing
    state is reachable from S, one is from T, which the search explores: skipping S loses
    no failure, and a ``cage`` verdict stays sound. The same holds when T is one of the
    ``safe`` states of the cache (from which an earlier verification explored every
    reachable state and found no failure): then no failure is reachable from S either."""
    if len(units) < 2:
        return False
    key = _units_key(units)
    for index, (_square, code) in enumerate(key):
        if code in _ROOKS:
            continue
        rest = key[:index] + key[index + 1 :]
        for smaller in ((rest, -1), (rest, pending)) if pending >= 0 else ((rest, -1),):
            if smaller in seen or (safe is not None and smaller in safe):
                return True
    return False


@dataclasses.dataclass(frozen=True)
class Reductions:
    """The state-space reductions of the breadth-first search (module docstring), each
    sound on its own; switching one off only makes the search larger (for measurements
    and for the tests that show each one at work)."""

    subsumption: bool = True
    sleep_sets: bool = False  # sound, but in Python it costs more time than it saves (see the docstring)
    lemmas: bool = True
    stranded: bool = True  # states with a stranded unit (cages.stranded) are skipped


_LEMMAS_AFTER = 16
_CLOCK_EVERY = 64  # states between two looks at the clock (some 30 ms at half a millisecond a state)
Label = tuple[int, int, int, bool]  # a retraction: (unit's square, origin, piece code, capture)


def _label(retraction: Retraction) -> Label:
    return retraction.to, retraction.from_square, _CODE[retraction.piece], retraction.capture


_PIECE = {code: piece for piece, code in _CODE.items()}


def _independent(a: Label, b: Retraction) -> bool:
    """Do the retraction labelled ``a`` and ``b`` commute from a state with no unblockable
    check (module docstring, "Commuting retractions")? Two units, no castling, neither
    crossing or entering the other's squares, and the two retracted units not giving
    each other an unblockable check."""
    a_to, a_from = a[0], a[1]
    if b.rook is not None or a_to == b.to or a_from == b.from_square:
        return False
    if chess.between(a_from, a_to) & chess.BB_SQUARES[b.from_square]:
        return False
    if chess.between(b.from_square, b.to) & chess.BB_SQUARES[a_from]:
        return False
    a_piece = _PIECE[a[2]]
    if a_piece.piece_type != chess.KING and b.piece.piece_type != chess.KING:
        return True
    pair = {a_from: a_piece, b.from_square: b.piece}
    return not any(
        piece.piece_type == chess.KING and unblockable_checkers(pair, square, piece.color)
        for square, piece in pair.items()
    )


class _Search:
    def __init__(
        self,
        zone: chess.Bitboard,
        options: Options,
        depth: int,
        library: CageLookup | None,
        cache: set[State] | None,
        max_nodes: int,
        reductions: Reductions = Reductions(),
        lemma_nodes: int = 0,
        lemmas: dict[tuple[object, ...], bool] | None = None,
        deadline: float | None = None,
    ) -> None:
        self.zone, self.options, self.max_depth, self.max_nodes = zone, options, depth, max_nodes
        self.deadline = deadline
        self.library, self.cache, self.reductions = library, cache, reductions
        self.lemma_nodes = lemma_nodes if reductions.lemmas else 0
        self.lemmas: dict[tuple[object, ...], bool] = {} if lemmas is None else lemmas
        self.visited: set[State] = set()
        self.nodes = 0
        self._clock_at = 0  # the node count at which the clock is read next
        self.edges = 0
        self.subsumed = 0

    def _exhausted(self) -> str | None:
        """Why the search must stop now (the state budget or the time limit), or None;
        stopping is a failure (``not_verified``), never a ``cage``."""
        if self.nodes > self.max_nodes:
            return f"the state budget {self.max_nodes} was exhausted"
        if self.nodes >= self._clock_at:  # not nodes % N: lemma searches add many nodes at once
            self._clock_at = self.nodes + _CLOCK_EVERY
            if self._late():
                return "the time limit was reached"
        return None

    def _late(self) -> bool:
        return self.deadline is not None and time.perf_counter() > self.deadline

    def _allowed(self, retraction: Retraction) -> bool:
        if retraction.capture and retraction.piece.piece_type == chess.PAWN:
            pair = (chess.square_file(retraction.from_square), chess.square_file(retraction.to))
            return pair not in self.options.forbid
        return True

    def _stranded(self, units: Units) -> bool:
        """Does the state hold a stranded unit (:mod:`cages.stranded`)? Then no failing state
        is reachable from it, and the search does not expand it (checked once per state,
        not per transition)."""
        return self.reductions.stranded and stranded(units, self.options.frozen) is not None

    def _known_cage(self, units: Units) -> bool:
        if self.library is not None and self.library.contains(units, self.options) is not None:
            return True
        # Lemmas only once the search has visited _LEMMAS_AFTER states: most cages finish
        # sooner without them (a lemma's skip is sound at any time).
        return self.lemma_nodes > 0 and self.nodes > _LEMMAS_AFTER and self._lemma(units)

    def _lemma(self, units: Units) -> bool:
        """Does the state contain a *lemma cage*: a king with all the pawns of the state
        (a strict part of it), verified now by a search of at most ``lemma_nodes`` states
        under the same options (once per part and search; see the module docstring)."""
        pawns = {square: piece for square, piece in units.items() if piece.piece_type == chess.PAWN}
        if not pawns:
            return False
        for square, piece in units.items():
            if piece.piece_type != chess.KING or len(pawns) + 1 >= len(units):
                continue
            part = dict(pawns)
            part[square] = piece
            key = (_units_key(part), self.options, self.max_depth, self.lemma_nodes)
            if key not in self.lemmas:
                inner = _Search(
                    default_zone(part),
                    self.options,
                    self.max_depth,
                    self.library,
                    None,
                    self.lemma_nodes,
                    dataclasses.replace(self.reductions, lemmas=False),
                    deadline=self.deadline,
                )
                verified = inner.verifies(part)
                self.nodes += inner.nodes
                if not verified and self._late():
                    return False  # cut short by the clock: no lemma, and nothing kept for later runs
                self.lemmas[key] = verified
            if self.lemmas[key]:
                return True
        return False

    def verifies(self, units: Units) -> bool:
        """Is ``units`` a cage by this search (no failure found within the budget)?"""
        checks = _checkers(units, chess.WHITE) + _checkers(units, chess.BLACK)
        if len(checks) > 1:
            return True
        pending = checks[0] if checks else -1
        found = self.probe(units, pending, 0, [], set())
        if found is not None and found[1].startswith("the depth bound"):
            found = self.failure(units, pending)
        return found is None

    def moves(
        self, units: Units, pending: int, skip: Callable[[Label], bool] | None = None
    ) -> Iterable[tuple[Retraction, Units, int, str]]:
        """The retractions from a state that lead to a state not known to be illegal
        (except those whose label ``skip`` accepts)."""
        movers = [pending] if pending >= 0 else sorted(units)
        for square in movers:
            if square in self.options.frozen:
                continue
            piece = units[square]
            for retraction in retractions(units, square):
                if not self._allowed(retraction) or (skip is not None and skip(_label(retraction))):
                    continue
                self.edges += 1
                result = _transition(units, retraction, self.zone)
                if result is None or self._known_cage(result[0]):
                    continue
                yield retraction, result[0], result[1], retraction.notation(piece)

    def successors(self, units: Units, pending: int) -> Iterable[tuple[Units, int, str]]:
        for _retraction, new_units, new_pending, note in self.moves(units, pending):
            yield new_units, new_pending, note

    def probe(
        self, units: Units, pending: int, depth: int, line: list[str], seen: set[State]
    ) -> tuple[list[str], str] | None:
        """Depth-first search (the prototype's order): a quick way to find a failing
        state; a depth-bound failure here is only a candidate, since the state may be
        reachable by a shorter path (see :meth:`failure`)."""
        key = _key(units, pending)
        if key in seen or (self.cache is not None and key in self.cache):
            return None
        seen.add(key)
        self.nodes += 1
        exhausted = self._exhausted()
        if exhausted is not None:
            return list(line), exhausted
        if not units:
            return list(line), "all units are gone"
        if _all_home(units):
            return list(line), "all remaining units stand on home squares"
        if self._stranded(units):
            return None
        if depth >= self.max_depth:
            return list(line), f"the depth bound {self.max_depth} was reached"
        for new_units, new_pending, note in self.successors(units, pending):
            line.append(note)
            found = self.probe(new_units, new_pending, depth + 1, line, seen)
            line.pop()
            if found is not None:
                return found
        return None

    def failure(self, units: Units, pending: int) -> tuple[list[str], str] | None:
        """Breadth-first search over the reachable states (with the sleep sets of the
        module docstring); the failing line and reason, or None."""
        root = _key(units, pending)
        parents: dict[State, tuple[State, str] | None] = {root: None}
        sleep: dict[State, frozenset[Label]] = {root: frozenset()}
        depth_of: dict[State, int] = {root: 0}  # the length of the path that found the state
        expanded: set[State] = set()
        # A frontier entry: units, pending, and the transitions still to explore (None: all
        # but the state's sleep set; a set: a re-expansion of transitions that had slept).
        frontier: list[tuple[Units, int, frozenset[Label] | None]] = [(units, pending, None)]
        use_sleep = self.reductions.sleep_sets
        while frontier:
            next_frontier: list[tuple[Units, int, frozenset[Label] | None]] = []
            for state_units, state_pending, only in frontier:
                key = _key(state_units, state_pending)
                self.nodes += 1
                exhausted = self._exhausted()
                if exhausted is not None:
                    return self._line(parents, key), exhausted
                reason = None
                if not state_units:
                    reason = "all units are gone"
                elif _all_home(state_units):
                    reason = "all remaining units stand on home squares"
                elif self._stranded(state_units):
                    expanded.add(key)
                    continue  # no failure is reachable from it: not expanded
                elif depth_of[key] >= self.max_depth:
                    reason = f"the depth bound {self.max_depth} was reached"
                if reason is not None:
                    return self._line(parents, key), reason
                asleep = sleep[key] if only is None else frozenset()
                expanded.add(key)
                done: list[Label] = []  # explored calm transitions, for the children's sleep sets

                def skip(label: Label, asleep: frozenset[Label] = asleep, only: frozenset[Label] | None = only) -> bool:
                    return label in asleep or (only is not None and label not in only)

                for retraction, new_units, new_pending, note in self.moves(state_units, state_pending, skip):
                    label = _label(retraction)
                    new_key = _key(new_units, new_pending)
                    calm = use_sleep and only is None and state_pending < 0 and new_pending < 0
                    child_sleep = (
                        frozenset([x for x in (*asleep, *done) if _independent(x, retraction)]) if calm else frozenset()
                    )
                    if (self.cache is not None and new_key in self.cache) or new_key in parents:
                        if calm and retraction.rook is None:
                            done.append(label)
                        if new_key in parents:
                            missing = sleep[new_key] - child_sleep
                            sleep[new_key] &= child_sleep
                            if missing and new_key in expanded:
                                self.nodes -= 1  # a re-expansion is no new state
                                next_frontier.append((new_units, new_pending, missing))
                        continue
                    if self.reductions.subsumption and _subsumed(new_units, new_pending, parents, self.cache):
                        self.subsumed += 1
                        continue
                    parents[new_key] = (key, note)
                    depth_of[new_key] = depth_of[key] + 1
                    sleep[new_key] = child_sleep
                    if calm and retraction.rook is None:
                        done.append(label)
                    next_frontier.append((new_units, new_pending, None))
            frontier = next_frontier
        self.visited = set(parents)
        return None

    @staticmethod
    def _line(parents: dict[State, tuple[State, str] | None], key: State) -> list[str]:
        line = []
        while parents[key] is not None:
            key, note = parents[key]  # type: ignore[misc]
            line.append(note)
        return line[::-1]


def verify(
    board: chess.Board,
    *,
    zone: chess.Bitboard | None = None,
    extra_zone: chess.Bitboard = 0,
    options: Options = Options(),
    depth: int = 20,
    library: CageLookup | None = None,
    cache: dict[tuple[chess.Bitboard, Options], set[State]] | None = None,
    max_nodes: int = 100_000,
    reductions: Reductions = Reductions(),
    lemma_nodes: int = 300,
    lemmas: dict[tuple[object, ...], bool] | None = None,
    time_limit: float | None = None,
) -> CageVerdict:
    """Verify that ``board`` (a partial position; side to move and other fields are
    ignored) is a cage. ``library`` is a known-cage library (:class:`cages.library.Library`);
    ``cache`` maps (zone, options) to the states from which earlier verified runs found
    no failing state; it is extended with this run's states when it verifies (each of
    them is then itself verified: every state reachable from it was visited).
    ``max_nodes`` bounds the search (states, with those of the lemma cages tried) and
    ``time_limit`` its seconds; running out of either is ``not_verified``. ``lemma_nodes``
    is the budget of each lemma cage and ``lemmas`` keeps their results (see the module
    docstring); ``reductions`` switches the reductions (for measurements)."""
    start = time.perf_counter()
    units: Units = board.piece_map()
    if zone is None:
        zone = default_zone(units)
    zone |= extra_zone
    for square in units:
        zone |= chess.BB_SQUARES[square]
    safe = None if cache is None else cache.setdefault((zone, options), set())
    if isinstance(library, NarrowableLookup):
        # The lemma searches' zones reach one king step beyond this zone.
        library = library.narrowed(default_zone(chess.SquareSet(zone)), units)
    deadline = None if time_limit is None else start + time_limit
    search = _Search(zone, options, depth, library, safe, max_nodes, reductions, lemma_nodes, lemmas, deadline)
    zone_names = tuple(chess.square_name(s) for s in chess.SquareSet(zone))

    def verdict(status: str, line: Iterable[str], reason: str) -> CageVerdict:
        return CageVerdict(
            board.board_fen(),
            CageStatus(status),
            tuple(line),
            reason,
            zone_names,
            search.nodes,
            time.perf_counter() - start,
        )

    white_checks, black_checks = _checkers(units, chess.WHITE), _checkers(units, chess.BLACK)
    if (white_checks and black_checks) or len(white_checks) > 1 or len(black_checks) > 1:
        return verdict("cage", (), "the position itself has impossible unblockable checks")
    if library is not None and library.contains(units, options) is not None:
        return verdict("cage", (), "the position contains a known cage")
    away = stranded(units, options.frozen) if reductions.stranded else None
    if away is not None:
        return verdict("cage", (), f"the unit on {chess.square_name(away)} can never move and is away from home")
    pending = (white_checks or black_checks or [-1])[0]
    # A depth-first probe finds most failures at once; only when it fails by the depth
    # bound is the breadth-first search (shortest distances) run, within max_nodes states.
    found = search.probe(units, pending, 0, [], set())
    if found is not None and found[1].startswith("the depth bound"):
        found = search.failure(units, pending)
    if found is not None:
        line, reason = found
        return verdict("not_verified", line, reason)
    if safe is not None:
        safe.update(search.visited)
    return verdict("cage", (), f"no retraction sequence reaches home squares ({search.nodes} states)")

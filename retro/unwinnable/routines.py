"""The quick (Figure 10) and full (Figure 9) unwinnability routines.

Both return a :class:`Result` ``(status, line, nodes, reason)`` with status ``winnable``
(``line`` = the moves from the given position to the winner's checkmate), ``unwinnable``
or ``undetermined`` (:class:`~retro.core.status.UnwinnabilityStatus`) and the :class:`Reason`
naming the rule or search that decided; :mod:`retro.unwinnable` wraps them in a verdict
after replaying the line.

Quick routine (Figure 10):

1. advance while there is exactly one legal move (a forced move changes nothing about
   which mates are reachable; repeated positions stop the loop);
2. exhaustive depth-first search to depth ``QUICK_DEPTH`` (9 plies, the paper's D) that
   gives up as soon as any branch reaches that depth or ``QUICK_NODES`` nodes; leaves are
   mates, stalemates and Lemmas 5/6. Finishing without giving up proves unwinnability
   (the whole tree was seen);
3. on positions with only kings, pawns and bishops and no semi-open file, the
   semi-static check (Theorem 12).

Full routine (Figure 9): Find-Helpmate in iterative deepening (depth 1, 2, ...) with a
per-iteration node bound ``bound(d) = 10,000 * (1 + d // 8)`` (increasing in d, so the
routine is complete with an unlimited budget), and the semi-static check after the first
iteration, or, when at least half of the pawns are rammed, after a probe: the depth-1
iteration with the node bound ``RAMMED_PROBE_NODES``, the transposition table then emptied so the
iterations that follow search exactly as without it (Figure 9 runs the check first; the
depth-1 iteration answers nearly every position of real games for less than the check
costs, most within the probe's nodes, and the order cannot change a verdict: a mate found
contradicts no sound "unwinnable", and a probe without cut is a complete iteration), until
a mate is found, an iteration ends without a cut (unwinnable, see the argument in
:mod:`retro.unwinnable.helpmate`), or the total ``max_nodes`` budget is spent
(undetermined). An iteration whose only cuts are hits on entries of earlier iterations is
repeated once at the same depth with an empty table, so that completeness never rests on
stale entries. From depth ``CLOSURE_FROM`` on the closure search (:mod:`retro.unwinnable.closure`, our
addition) runs in rounds, resumed where it stopped, with a doubling node bound (from
``CLOSURE_FIRST_BOUND``) to exhaust the reachable positions outright; when the next doubling
would not fit in the budget, this closure search takes all that remains (blocked positions
are decided by the closure, not by the iterations). Once, at depth ``CLOSURE_FROM``, the
semi-static check runs again on the position after the forced moves, with the king and
knight moves that stalemate excluded from the mobility fixpoint
(:mod:`retro.unwinnable.stalemate`; too costly for the positions the first iterations
answer), and then the focused closure search (:class:`retro.unwinnable.closure.FocusedSearch`,
at most ``SCOUT_NODES`` positions) looks for a long helpmate among the moves of the units
near the loser's king. Each round's closure search is followed by two scouts: the king
march (:mod:`retro.unwinnable.march`: the kings travel to a mating pattern) and the
promotion march (:mod:`retro.unwinnable.promotion`: a pawn of the winner promotes first,
then the king march). In the first round the king march gets ``MARCH_FIRST_NODES``
positions, the promotion march a ``PROMOTION_FIRST_SHARE``-th of ``max_nodes`` (it is the
costlier bet: it runs on every position where the winner has a pawn); in each later round
each gets a ``SCOUT_SHARE``-th of that round's closure bound, going on where it stopped:
their share grows with the query's budget, and a query the closure search decides early
pays little for them. The scouts only find lines; they prove nothing.

How the budget is divided once a query is hard (the schedule decides only how nodes are
spent, never a verdict: "unwinnable" still comes only from an iteration without cut, a
complete closure search or a semi-static check). A query that reaches the closure search
has no helpmate the first ``CLOSURE_FROM`` iterations could find; on such queries the
closure search decides most, the scouts most of the rest, and the deeper iterations few,
while they would take a large part of those queries' nodes (the figures on the dev set
are in ``bench/NOTES.md``). Three rules follow:

1. Before the closure search starts, the iteration of depth d gets at most
   ``d * max_nodes / PRE_CLOSURE_DIVISOR`` nodes (besides ``bound(d)``): the first
   ``CLOSURE_FROM`` iterations together take at most a quarter of a small budget, and the
   deeper of them get more (with mate first and mate beyond the horizon a deeper
   iteration often meets in a few thousand nodes the mate a shallower one missed in
   10,000). From 400k nodes up (the default is 1M) the cap is above ``bound(d)`` and
   changes nothing, so the positions the early iterations answer (nearly all positions of
   real games) are searched as without the cap.
2. Once the closure search has started, the next iteration runs only when the closure
   search alone has spent at least ``ITERATION_SHARE`` times what the iterations have spent
   since it started, that iteration's bound included; otherwise another round (closure
   search and scouts) comes first. The iterations keep this fixed share: they still
   deepen, so a helpmate out
   of the closure search's reach is still found with a large budget, and with an unlimited
   budget the routine stays complete (the closure search alone is: the reachable positions
   are finitely many).
3. In the last round (the closure search takes all that remains), the scouts run first,
   each with at most a ``LAST_SCOUT_SHARE``-th of the remaining budget: the share of the
   other rounds, a ``SCOUT_SHARE``-th of the closure search's, so the closure search keeps
   at least two thirds. So the scouts run even when the budget ends inside the first
   round (below about 105k nodes), where a mate the king or promotion march finds in a few
   thousand positions would otherwise be out of reach.
"""

from __future__ import annotations

import functools
import itertools
import sys
from collections.abc import Callable, Iterable
from enum import StrEnum
from typing import TYPE_CHECKING, Any, NamedTuple

import chess

from retro.core.status import UnwinnabilityStatus
from retro.unwinnable import deadline as clock
from retro.unwinnable.closure import ClosureSearch, focused_search
from retro.unwinnable.fastboard import FAST, MoveGenerator, State, first_legal_move, in_check, leading_moves, to_board
from retro.unwinnable.helpmate import HelpmateSearch
from retro.unwinnable.march import KingMarch
from retro.unwinnable.material import insufficient_state
from retro.unwinnable.promotion import PromotionMarch
from retro.unwinnable.stalemate import unwinnable_without_stalemates
from retro.unwinnable.static import unwinnable_static

if TYPE_CHECKING:
    from retro.unwinnable.jitcore import CompiledHelpmateSearch

__all__ = ["quick_routine", "full_routine", "advance_forced", "Result", "Reason", "QUICK_DEPTH", "QUICK_NODES"]

QUICK_DEPTH = 9
QUICK_NODES = 5_000
LAZY_NODES = 30
CLOSURE_FROM = 4
CLOSURE_FIRST_BOUND = 20_000
SCOUT_NODES = 50_000
MARCH_FIRST_NODES = 20_000
PROMOTION_FIRST_SHARE = 50
SCOUT_SHARE = 4
PRE_CLOSURE_DIVISOR = 40  # with CLOSURE_FROM = 4: (1 + 2 + 3 + 4) / 40, a quarter in all
ITERATION_SHARE = 4
LAST_SCOUT_SHARE = SCOUT_SHARE + 2
RAMMED_PROBE_NODES = 100

WINNABLE = UnwinnabilityStatus.WINNABLE
UNWINNABLE = UnwinnabilityStatus.UNWINNABLE
UNDETERMINED = UnwinnabilityStatus.UNDETERMINED


class Reason(StrEnum):
    """What decided a query (the verdict's ``reason``; the JSON writes the value)."""

    SEARCH = "search"  # Find-Helpmate found the line / the quick routine's search did
    EXHAUSTIVE_SEARCH = "exhaustive search"  # a search saw every reachable position
    SEMI_STATIC = "semi-static"  # Theorem 12 (retro.unwinnable.static)
    SEMI_STATIC_WITHOUT_STALEMATES = "semi-static without stalemates"  # retro.unwinnable.stalemate
    CLOSURE_SEARCH = "closure search"  # retro.unwinnable.closure: a line, or every position seen
    FOCUSED_CLOSURE_SEARCH = "focused closure search"  # retro.unwinnable.closure.FocusedSearch
    KING_MARCH = "king march"  # retro.unwinnable.march
    PROMOTION_MARCH = "promotion march"  # retro.unwinnable.promotion
    QUICK_GAVE_UP = "quick routine gave up"
    NODE_BUDGET = "node budget exhausted"
    TIME_LIMIT = "time limit reached"
    REPLAY_FAILED = "internal error: helpmate line failed replay"


class Result(NamedTuple):
    """A routine's answer: the status, the line (moves as ints, from the position given to
    the winner's mate; empty unless winnable), the nodes spent and the reason."""

    status: UnwinnabilityStatus
    line: list[int]
    nodes: int
    reason: Reason


sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))


def advance_forced(
    state: State, limit: int = 200, generator: MoveGenerator = FAST
) -> tuple[State, list[int], list[int] | None]:
    """Play the moves that are the only legal move; return the position reached, them, and
    the first two legal moves of the position reached (None when the loop stopped on a
    repetition before looking at them)."""
    played: list[int] = []
    if generator is FAST:
        leading: Callable[[State], list[int]] = functools.partial(leading_moves, count=2)
    else:
        leading = lambda s: list(itertools.islice(generator.iter_legal_moves(s), 2))  # noqa: E731
    seen = None
    while len(played) < limit:
        moves = leading(state)
        if len(moves) != 1:
            return state, played, moves
        if seen is None:
            seen = {generator.key(state)}
        state = generator.play(state, moves[0])
        played.append(moves[0])
        key = generator.key(state)
        if key in seen:
            break
        seen.add(key)
    return state, played, None


class _Interrupted(Exception):
    pass


def _bounded_dfs(
    state: State,
    winner: chess.Color,
    depth: int,
    budget: list[int],
    path: list[int],
    generator: MoveGenerator,
    first_move: Callable[[State], int | None],
    first: int | None = -1,
) -> bool:
    """Exhaustive DFS; raises _Interrupted when depth or node budget runs out.

    ``first_move(state)`` is the first of ``generator``'s legal moves: the DFS almost
    always dives down the first moves until the depth runs out, so the other moves are
    generated only when it comes back. ``first``: that move when the caller knows it.
    Once ``LAZY_NODES`` nodes are spent the search is coming back often (an exhaustive
    search of a small tree), and each node generates all its moves at once instead."""
    if depth <= 0:  # a leaf or an interruption: no move is needed, only whether one exists
        if not generator.has_legal_move(state):
            return state[8] != winner and in_check(state)
        if insufficient_state(state, winner):
            return False
        budget[0] -= 1
        raise _Interrupted
    moves: list[int] | None = None
    if first == -1:
        if budget[0] < QUICK_NODES - LAZY_NODES:
            moves = list(generator.iter_legal_moves(state))
            first = moves[0] if moves else None
        else:
            first = first_move(state)
    if first is None:
        return state[8] != winner and in_check(state)
    if insufficient_state(state, winner):
        return False
    budget[0] -= 1
    if budget[0] < 0:
        raise _Interrupted
    search = (state, winner, depth - 1, budget, path, generator, first_move)
    if moves is not None:
        return _children(search, moves)
    # The other moves are generated only if the first child fails without interruption.
    return _children(search, (first,)) or _children(
        search, itertools.islice(generator.iter_legal_moves(state), 1, None)
    )


def _children(search: tuple, moves: Iterable[int]) -> bool:
    """:func:`_bounded_dfs` on the child of each move, ``search`` = (position, then the
    arguments of the children's calls)."""
    state, winner, depth, budget, path, generator, first_move = search
    play = generator.play
    for move in moves:
        path.append(move)
        if _bounded_dfs(play(state, move), winner, depth, budget, path, generator, first_move):
            return True
        path.pop()
    return False


def _only_kings_pawns_bishops_closed(state: State) -> bool:
    """Line 5 of Figure 10: only K, P, B and no semi-open file (a file with pawns of one colour)."""
    if state[1] | state[3] | state[4]:
        return False
    white_pawns = state[0] & state[6]
    black_pawns = state[0] & state[7]
    for file_mask in chess.BB_FILES:
        if bool(white_pawns & file_mask) != bool(black_pawns & file_mask):
            return False
    return True


def quick_routine(
    state: State, winner: chess.Color, generator: MoveGenerator = FAST, *, compiled: bool = False
) -> Result:
    """Figure 10. ``compiled``: steps 1 and 2 by the compiled core
    (:func:`retro.unwinnable.jitcore.quick_search`, the same search)."""
    if compiled:
        core: Any = sys.modules.get("retro.unwinnable.jitcore")  # loaded by the caller: no import per query
        if core is None:
            from retro.unwinnable import jitcore as core
        outcome, line, nodes, state = core.quick_search(state, winner)
        if outcome == 1:
            return Result(WINNABLE, line, nodes, Reason.SEARCH)
        if outcome == 0:
            return Result(UNWINNABLE, [], nodes, Reason.EXHAUSTIVE_SEARCH)
        if state[1] | state[3] | state[4]:  # a knight, rook or queen: step 3 does not apply
            return Result(UNDETERMINED, [], nodes, Reason.QUICK_GAVE_UP)
        return _quick_static(state, winner, nodes)
    state, forced, leading = advance_forced(state, generator=generator)
    budget = [QUICK_NODES]
    path: list[int] = []
    first_move = first_legal_move if generator is FAST else lambda s: next(generator.iter_legal_moves(s), None)
    first = -1 if leading is None else leading[0] if leading else None
    try:
        if _bounded_dfs(state, winner, QUICK_DEPTH, budget, path, generator, first_move, first):
            return Result(WINNABLE, forced + path, QUICK_NODES - budget[0], Reason.SEARCH)
        return Result(UNWINNABLE, [], QUICK_NODES - budget[0], Reason.EXHAUSTIVE_SEARCH)
    except _Interrupted:
        pass
    return _quick_static(state, winner, QUICK_NODES - budget[0])


def _quick_static(state: State, winner: chess.Color, nodes: int) -> Result:
    """Step 3 of Figure 10, once the search gave up."""
    if _only_kings_pawns_bishops_closed(state) and unwinnable_static(to_board(state), winner):
        return Result(UNWINNABLE, [], nodes, Reason.SEMI_STATIC)
    return Result(UNDETERMINED, [], nodes, Reason.QUICK_GAVE_UP)


def bound(depth: int) -> int:
    """Per-iteration node bound of Figure 9 (increasing in the depth)."""
    return 10_000 * (1 + depth // 8)


def _mostly_rammed(state: State) -> bool:
    """At least half of the pawns are rammed (an enemy pawn right in front): the blocked
    structures the semi-static check is made for (most of the queries it decides)."""
    pawns = state[0]
    rammed = 2 * chess.popcount(pawns & state[6] & (pawns & state[7]) >> 8)
    return rammed > 0 and 2 * rammed >= chess.popcount(pawns)


class _ClosureRounds:
    """The closure search and the two scouts after it, in rounds (see the module docstring).
    ``nodes``: all the nodes they spent; ``closure_nodes``: the closure search's alone."""

    def __init__(self, state: State, winner: chess.Color, generator: MoveGenerator, max_nodes: int) -> None:
        self.state, self.winner, self.generator, self.max_nodes = state, winner, generator, max_nodes
        self.closure = ClosureSearch(state, winner, generator)
        self.bound = CLOSURE_FIRST_BOUND
        self.closure_nodes = 0
        self.nodes = 0
        self.scouts: list[tuple[KingMarch | PromotionMarch, Reason, int]] = []  # (scout, its name, its first share)

    def run(self, remaining: int) -> Result | None:
        """One round within ``remaining`` nodes; the verdict if the closure search or a scout
        decided (its ``nodes`` is 0: the caller knows the query's total)."""
        first = not self.scouts
        if first:
            self.scouts = [
                (KingMarch(self.state, self.winner, self.generator), Reason.KING_MARCH, MARCH_FIRST_NODES),
                (
                    PromotionMarch(self.state, self.winner, self.generator),
                    Reason.PROMOTION_MARCH,
                    self.max_nodes // PROMOTION_FIRST_SHARE,
                ),
            ]
        later_share = self.bound // SCOUT_SHARE
        before = self.nodes
        if remaining < 3 * self.bound:  # the last round (rule 3): the scouts, then all that is left
            outcome = self._scouts(first, remaining, later_share, LAST_SCOUT_SHARE)
            return outcome or self._closure(remaining - (self.nodes - before))
        outcome = self._closure(self.bound)
        return outcome or self._scouts(first, remaining - (self.nodes - before), later_share, 1)

    def _closure(self, node_bound: int) -> Result | None:
        found, line, complete, used = self.closure.run(node_bound)
        self.closure_nodes += used
        self.nodes += used
        if found:
            return Result(WINNABLE, line, 0, Reason.CLOSURE_SEARCH)
        if complete:
            return Result(UNWINNABLE, [], 0, Reason.CLOSURE_SEARCH)
        self.bound *= 2
        return None

    def _scouts(self, first: bool, remaining: int, later_share: int, cap: int) -> Result | None:
        """Each scout gets its share (the first or ``later_share``), at most a ``cap``-th of
        what remains."""
        for scout, name, first_share in self.scouts:
            spend = min(first_share if first else later_share, remaining // cap)
            found, line, used = scout.run(spend) if spend > 0 else (False, [], 0)
            self.nodes += used
            remaining -= used
            if found:
                return Result(WINNABLE, line, 0, name)
        return None


def full_routine(
    state: State,
    winner: chess.Color,
    *,
    max_nodes: int,
    generator: MoveGenerator = FAST,
    compiled: bool = False,
    time_limit: float | None = None,
) -> Result:
    """Figure 9, spending at most about ``max_nodes`` nodes; the semi-static check runs
    after a short probe on blocked-looking positions (:func:`_mostly_rammed`), otherwise
    after the first iteration (either answers most winnable positions at a fraction of its
    cost), or at the end if the budget did not allow one. ``compiled``: the Find-Helpmate iterations run in
    the compiled core (:class:`retro.unwinnable.jitcore.CompiledHelpmateSearch`, the same
    search); the closure search stays in Python.

    ``time_limit`` (seconds, None: none): the searches stop once it has passed
    (:mod:`retro.unwinnable.deadline`) and the answer is ``undetermined``, reason "time
    limit reached"; its nodes are those of the steps run, except the part of an
    interrupted scout or closure round not yet added up. A verdict reached before the
    deadline is the one reached without a limit (the searches visit the same nodes)."""
    with clock.time_limit(time_limit):
        deadline = clock.current()
        tally: list[Callable[[], int]] = []  # the routine's count of the nodes spent
        try:
            return _full_routine(state, winner, max_nodes, generator, compiled, deadline, tally)
        except clock.TimeLimitReached:
            return Result(UNDETERMINED, [], tally[0]() if tally else 0, Reason.TIME_LIMIT)


def _helpmate_search(
    winner: chess.Color, generator: MoveGenerator, compiled: bool
) -> HelpmateSearch | CompiledHelpmateSearch:
    """The Find-Helpmate search of a query: the compiled one or the pure-Python one."""
    if compiled:
        from retro.unwinnable.jitcore import CompiledHelpmateSearch

        return CompiledHelpmateSearch(winner)
    return HelpmateSearch(winner, generator)


def _rammed_probe(state: State, search: HelpmateSearch | CompiledHelpmateSearch, max_nodes: int) -> Result | None:
    """The probe before the semi-static check (see the module docstring): the depth-1
    iteration with the node bound ``RAMMED_PROBE_NODES``; its verdict if it decided, else None
    with the transposition table emptied (so the iterations that follow search as
    without the probe)."""
    if search.search(state, 1, min(RAMMED_PROBE_NODES, max_nodes)):
        return Result(WINNABLE, search.line, search.nodes, Reason.SEARCH)
    if not search.cut:
        return Result(UNWINNABLE, [], search.nodes, Reason.EXHAUSTIVE_SEARCH)
    search.clear_table()
    return None


def _full_routine(
    state: State,
    winner: chess.Color,
    max_nodes: int,
    generator: MoveGenerator,
    compiled: bool,
    deadline: float | None,
    tally: list[Callable[[], int]],
) -> Result:
    """:func:`full_routine`; puts its count of the nodes spent in ``tally`` (called when the
    deadline stops the routine)."""
    search = _helpmate_search(winner, generator, compiled)
    static_checked = _mostly_rammed(state)
    if static_checked:
        probe = _rammed_probe(state, search, max_nodes)
        if probe:
            return probe
        if unwinnable_static(to_board(state), winner):
            return Result(UNWINNABLE, [], search.nodes, Reason.SEMI_STATIC)
    rounds: _ClosureRounds | None = None
    focused_nodes = 0
    iteration_nodes_before = 0  # the iterations' nodes when the closure search started

    def spent() -> int:
        return search.nodes + focused_nodes + (rounds.nodes if rounds else 0)

    tally.append(spent)

    def closure_round() -> Result | None:
        assert rounds is not None
        outcome = rounds.run(max_nodes - spent())
        return outcome._replace(nodes=spent()) if outcome else None

    depth = 1
    while spent() < max_nodes:
        clock.check(deadline)
        node_bound = bound(depth)
        if rounds is None:  # rule 1
            node_bound = min(node_bound, max(1, max_nodes * depth // PRE_CLOSURE_DIVISOR))
        else:  # rule 2: closure rounds first, until the iterations' share allows this one
            while rounds.closure_nodes < ITERATION_SHARE * (search.nodes - iteration_nodes_before + node_bound):
                before = spent()
                if before >= max_nodes:
                    break
                result = closure_round()
                if result:
                    return result
                if spent() == before:  # nothing fitted in the budget left
                    break
            if spent() >= max_nodes:
                break
        node_bound = min(node_bound, max_nodes - spent())
        if search.search(state, depth, node_bound):
            return Result(WINNABLE, search.line, spent(), Reason.SEARCH)
        if not search.cut:
            return Result(UNWINNABLE, [], spent(), Reason.EXHAUSTIVE_SEARCH)
        if not static_checked:
            static_checked = True
            if unwinnable_static(to_board(state), winner):
                return Result(UNWINNABLE, [], spent(), Reason.SEMI_STATIC)
        if not search.cut_limit:
            # Only stale transposition hits: redo this depth from an empty table.
            search.clear_table()
            continue
        if depth == CLOSURE_FROM:
            if unwinnable_without_stalemates(to_board(advance_forced(state, generator=generator)[0]), winner):
                return Result(UNWINNABLE, [], spent(), Reason.SEMI_STATIC_WITHOUT_STALEMATES)
            spend = max(0, min(SCOUT_NODES, max_nodes - spent()))
            found, line, focused_nodes = focused_search(state, winner, spend, generator) if spend else (False, [], 0)
            if found:
                return Result(WINNABLE, line, spent(), Reason.FOCUSED_CLOSURE_SEARCH)
            rounds = _ClosureRounds(state, winner, generator, max_nodes)
            iteration_nodes_before = search.nodes
            if spent() < max_nodes:
                result = closure_round()
                if result:
                    return result
        depth += 1
    if not static_checked and unwinnable_static(to_board(state), winner):
        return Result(UNWINNABLE, [], spent(), Reason.SEMI_STATIC)
    return Result(UNDETERMINED, [], spent(), Reason.NODE_BUDGET)

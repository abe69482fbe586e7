"""The quick (Figure 10) and full (Figure 9) unwinnability routines.

Both return ``(status, line, nodes, reason)`` with status ``winnable`` (``line`` = the
moves from the given position to the winner's checkmate), ``unwinnable`` or
``undetermined``; :mod:`retro.unwinnable` wraps them in a verdict after replaying the line.

Quick routine (Figure 10):

1. advance while there is exactly one legal move (a forced move changes nothing about
   which mates are reachable; repeated positions stop the loop);
2. exhaustive depth-first search to depth ``QUICK_DEPTH`` (9 plies, the paper's D) that
   gives up as soon as any branch reaches that depth or ``QUICK_NODES`` nodes; leaves are
   mates, stalemates and Lemmas 5/6. Finishing without giving up proves unwinnability
   (the whole tree was seen);
3. on positions with only kings, pawns and bishops and no semi-open file, the
   semi-static check (Theorem 12).

Full routine (Figure 9): the semi-static check, then Find-Helpmate in iterative deepening
(depth 1, 2, ...) with a per-iteration node bound ``bound(d) = 10,000 * (1 + d // 8)``
(increasing in d, so the routine is complete with an unlimited budget) until a mate is
found, an iteration ends without a cut (unwinnable, see the argument in
:mod:`retro.unwinnable.helpmate`), or the total ``max_nodes`` budget is spent
(undetermined). An iteration whose only cuts are hits on entries of earlier iterations is
repeated once at the same depth with an empty table, so that completeness never rests on
stale entries. From depth ``CLOSURE_FROM`` on, every ``CLOSURE_EVERY`` depths a closure search
(:mod:`retro.unwinnable.closure`, our addition), resumed where it stopped, gets a doubling
node bound to exhaust the reachable positions outright; when the next doubling would not fit in the
budget, this closure search takes all that remains (blocked positions are decided by the
closure, not by the iterations).
"""

from __future__ import annotations

import itertools
import sys

import chess

from retro.unwinnable.closure import ClosureSearch
from retro.unwinnable.fastboard import FAST, MoveGenerator, State, in_check, to_board
from retro.unwinnable.helpmate import HelpmateSearch
from retro.unwinnable.material import insufficient_state
from retro.unwinnable.static import unwinnable_static

__all__ = ["quick_routine", "full_routine", "advance_forced", "QUICK_DEPTH", "QUICK_NODES"]

QUICK_DEPTH = 9
QUICK_NODES = 5_000
CLOSURE_FROM = 4
CLOSURE_EVERY = 2
CLOSURE_FIRST_BOUND = 20_000
Result = tuple[str, list[int], int, str]

sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))


def advance_forced(state: State, limit: int = 200, generator: MoveGenerator = FAST) -> tuple[State, list[int]]:
    """Play the moves that are the only legal move; return the position reached and them."""
    played: list[int] = []
    seen = {generator.key(state)}
    while len(played) < limit:
        moves = list(itertools.islice(generator.iter_legal_moves(state), 2))
        if len(moves) != 1:
            break
        state = generator.play(state, moves[0])
        played.append(moves[0])
        key = generator.key(state)
        if key in seen:
            break
        seen.add(key)
    return state, played


class _Interrupted(Exception):
    pass


def _bounded_dfs(
    state: State, winner: chess.Color, depth: int, budget: list[int], path: list[int], generator: MoveGenerator
) -> bool:
    """Exhaustive DFS; raises _Interrupted when depth or node budget runs out."""
    moves = generator.iter_legal_moves(state)
    first = next(moves, None)
    if first is None:
        return state[8] != winner and in_check(state)
    if insufficient_state(state, winner):
        return False
    budget[0] -= 1
    if depth <= 0 or budget[0] < 0:
        raise _Interrupted
    play = generator.play
    for move in itertools.chain((first,), moves):
        path.append(move)
        if _bounded_dfs(play(state, move), winner, depth - 1, budget, path, generator):
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


def quick_routine(state: State, winner: chess.Color, generator: MoveGenerator = FAST) -> Result:
    """Figure 10."""
    state, forced = advance_forced(state, generator=generator)
    budget = [QUICK_NODES]
    path: list[int] = []
    try:
        if _bounded_dfs(state, winner, QUICK_DEPTH, budget, path, generator):
            return "winnable", forced + path, QUICK_NODES - budget[0], "search"
        return "unwinnable", [], QUICK_NODES - budget[0], "exhaustive search"
    except _Interrupted:
        pass
    nodes = QUICK_NODES - budget[0]
    if _only_kings_pawns_bishops_closed(state) and unwinnable_static(to_board(state), winner):
        return "unwinnable", [], nodes, "semi-static"
    return "undetermined", [], nodes, "quick routine gave up"


def bound(depth: int) -> int:
    """Per-iteration node bound of Figure 9 (increasing in the depth)."""
    return 10_000 * (1 + depth // 8)


def full_routine(state: State, winner: chess.Color, *, max_nodes: int, generator: MoveGenerator = FAST) -> Result:
    """Figure 9, spending at most about ``max_nodes`` nodes."""
    if unwinnable_static(to_board(state), winner):
        return "unwinnable", [], 0, "semi-static"
    search = HelpmateSearch(winner, generator)
    closure = ClosureSearch(state, winner, generator)
    closure_nodes = 0
    closure_bound = CLOSURE_FIRST_BOUND
    depth = 1
    while search.nodes + closure_nodes < max_nodes:
        node_bound = min(bound(depth), max_nodes - search.nodes - closure_nodes)
        if search.search(state, depth, node_bound):
            return "winnable", search.line, search.nodes + closure_nodes, "search"
        if not search.cut:
            return "unwinnable", [], search.nodes + closure_nodes, "exhaustive search"
        if not search.cut_limit:
            # Only stale transposition hits: redo this depth from an empty table.
            search.table.clear()
            continue
        if depth >= CLOSURE_FROM and depth % CLOSURE_EVERY == 0:
            remaining = max_nodes - search.nodes - closure_nodes
            # The last closure search that fits takes the whole remaining budget.
            spend = remaining if remaining < 3 * closure_bound else closure_bound
            found, line, complete, used = closure.run(spend)
            closure_nodes += used
            if found:
                return "winnable", line, search.nodes + closure_nodes, "closure search"
            if complete:
                return "unwinnable", [], search.nodes + closure_nodes, "closure search"
            closure_bound *= 2
        depth += 1
    return "undetermined", [], search.nodes + closure_nodes, "node budget exhausted"

"""Closure search: explore every position reachable from the root, each once.

Rule: a depth-first traversal of the graph of legal moves with a visited set keyed by the
full position (the key of ``Board._transposition_key()``: pieces, side to move, castling
rights, legal en passant square) and no depth limit. Leaves are checkmates, stalemates and
positions with insufficient material for the winner (Lemmas 5 and 6,
:mod:`retro.unwinnable.material`).

Why it is sound: if the traversal ends without hitting its node bound, the visited set
contains the root and, for each visited position, every child that is not a dead-end
leaf; so it is closed under legal moves, and none of its members nor leaves is a mate by
the winner: no sequence of legal moves from the root ends in such a mate. If a mate is
met, the current DFS path is a legal line to it (the caller replays it).

Tempo units (:mod:`retro.unwinnable.tempo`): when the position has units that only ever
provide waiting moves, the traversal runs on the abstract game where they stay on their
squares and their side may pass instead; that module proves the abstract closure has a
mate by the winner exactly when the real one does, and a mate found is turned back into
real moves (:func:`retro.unwinnable.tempo.realize`) before shortening.

A depth-first path wanders (thousands of plies in blocked positions), so a found line is
shortened by :func:`shorten_line` before it is returned: from each position of the line
we jump to the latest position of the line that one legal move reaches. Every jump is a
legal move and the last position (the mate) is kept, so the result is still a helpmate.

Why it exists (a choice of ours, not in the paper): the depth-limited Find-Helpmate of
Figure 5 can only prove unwinnability when *no* branch hits the depth limit, which in
positions with a few thousand reachable positions needs a depth close to the longest
DFS path. A plain closure needs only as many nodes as there are positions, so the full
routine alternates it with iterative deepening (:mod:`retro.unwinnable.routines`).
"""

from __future__ import annotations

import chess

from retro.unwinnable.fastboard import FAST, MoveGenerator, State, in_check, to_board
from retro.unwinnable.material import insufficient_state
from retro.unwinnable.tempo import NO_TEMPO_UNITS, PASS, abstract_moves, pass_turn, realize, tempo_units

__all__ = ["closure_search", "shorten_line"]


def closure_search(
    state: State, winner: chess.Color, node_bound: int, generator: MoveGenerator = FAST, *, tempo: bool = True
) -> tuple[bool, list[int], bool, int]:
    """Return ``(found, line, complete, nodes)``; ``complete`` means the whole reachable
    graph was seen (so ``found == False`` proves unwinnability). Depth-first: a line found
    may be long (every position on it distinct). ``tempo``: search the abstract game of
    :mod:`retro.unwinnable.tempo` (tempo units replaced by a pass) when the position has
    tempo units."""
    iter_legal_moves, _, real_play, key = generator
    root_moves = list(iter_legal_moves(state))
    if not root_moves:
        return state[8] != winner and in_check(state), [], True, 0
    if insufficient_state(state, winner):
        return False, [], True, 0
    units = tempo_units(to_board(state)) if tempo else NO_TEMPO_UNITS

    def play(position: State, move: int) -> State:
        return pass_turn(position) if move == PASS else real_play(position, move)

    if units:
        root_moves = abstract_moves(state, root_moves, units)
    visited = {key(state)}
    nodes = 1
    # Per depth: the position, its legal moves and the index of the next move to try.
    positions = [state]
    move_lists = [root_moves]
    next_index = [0]
    path: list[int] = []
    while positions:
        moves = move_lists[-1]
        i = next_index[-1]
        if i == len(moves):
            positions.pop()
            move_lists.pop()
            next_index.pop()
            if path:
                path.pop()
            continue
        next_index[-1] = i + 1
        move = moves[i]
        child = play(positions[-1], move)
        child_key = key(child)
        if child_key in visited:  # seen, and not a mate (mates end the search)
            continue
        child_moves = list(iter_legal_moves(child))
        if not child_moves:
            if child[8] != winner and in_check(child):
                path.append(move)
                real = realize(state, path, units, generator) if units else path
                if real is None:
                    return False, [], False, nodes
                return True, shorten_line(state, real, generator), False, nodes
            continue
        if units:
            child_moves = abstract_moves(child, child_moves, units)
        if insufficient_state(child, winner):
            continue
        nodes += 1
        if nodes > node_bound:
            return False, [], False, nodes
        visited.add(child_key)
        path.append(move)
        positions.append(child)
        move_lists.append(child_moves)
        next_index.append(0)
    return False, [], True, nodes


def shorten_line(state: State, line: list[int], generator: MoveGenerator = FAST) -> list[int]:
    """A line from ``state`` to the same final position, made of jumps between positions of
    ``line`` (each by one legal move, to the latest position of ``line`` it reaches)."""
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
        best, best_move = i + 1, line[i]
        for move in iter_legal_moves(work):
            j = index.get(key(play(work, move)), -1)
            if j > best:
                best, best_move = j, move
        work = play(work, best_move)
        short.append(best_move)
        i = best
    return short

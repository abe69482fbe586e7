"""Closure search: explore every position reachable from the root, each once.

Rule: a depth-first traversal of the graph of legal moves with a visited set keyed by the
full position (``board._transposition_key()``: pieces, side to move, castling rights,
legal en passant square) and no depth limit. Leaves are checkmates, stalemates and
positions with insufficient material for the winner (Lemmas 5 and 6,
:mod:`retro.unwinnable.material`).

Why it is sound: if the traversal ends without hitting its node bound, the visited set
contains the root and, for each visited position, every child that is not a dead-end
leaf; so it is closed under legal moves, and none of its members nor leaves is a mate by
the winner: no sequence of legal moves from the root ends in such a mate. If a mate is
met, the current DFS path is a legal line to it (the caller replays it).

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

from collections.abc import Iterator

import chess

from retro.unwinnable.material import insufficient_material

__all__ = ["closure_search", "shorten_line"]


def closure_search(board: chess.Board, winner: chess.Color, node_bound: int) -> tuple[bool, list[chess.Move], bool, int]:
    """Return ``(found, line, complete, nodes)``; ``complete`` means the whole reachable
    graph was seen (so ``found == False`` proves unwinnability). Depth-first: a line found
    may be long (every position on it distinct)."""
    work = board.copy(stack=False)
    root_moves = list(work.generate_legal_moves())
    if not root_moves:
        return work.turn != winner and work.is_check(), [], True, 0
    if insufficient_material(work, winner):
        return False, [], True, 0
    visited = {work._transposition_key()}
    nodes = 1
    stack: list[Iterator[chess.Move]] = [iter(root_moves)]
    path: list[chess.Move] = []
    while stack:
        move = next(stack[-1], None)
        if move is None:
            stack.pop()
            if path:
                path.pop()
                work.pop()
            continue
        work.push(move)
        path.append(move)
        moves = list(work.generate_legal_moves())
        if not moves:
            if work.turn != winner and work.is_check():
                return True, shorten_line(board, path), False, nodes
            path.pop()
            work.pop()
            continue
        key = work._transposition_key()
        if key in visited or insufficient_material(work, winner):
            path.pop()
            work.pop()
            continue
        nodes += 1
        if nodes > node_bound:
            return False, [], False, nodes
        visited.add(key)
        stack.append(iter(moves))
    return False, [], True, nodes


def shorten_line(board: chess.Board, line: list[chess.Move]) -> list[chess.Move]:
    """A line from ``board`` to the same final position, made of jumps between positions of
    ``line`` (each by one legal move, to the latest position of ``line`` it reaches)."""
    index = {}
    replay = board.copy(stack=False)
    index[replay._transposition_key()] = 0
    for i, move in enumerate(line, 1):
        replay.push(move)
        index[replay._transposition_key()] = i  # the latest occurrence wins
    short: list[chess.Move] = []
    work = board.copy(stack=False)
    i = 0
    while i < len(line):
        best, best_move = i + 1, line[i]
        for move in work.generate_legal_moves():
            work.push(move)
            j = index.get(work._transposition_key(), -1)
            work.pop()
            if j > best:
                best, best_move = j, move
        work.push(best_move)
        short.append(best_move)
        i = best
    return short

"""Closure search: explore every position reachable from the root, each once.

Rule: a breadth-first traversal of the graph of legal moves with a visited set keyed by the
full position (``board._transposition_key()``: pieces, side to move, castling rights,
legal en passant square) and no depth limit. Leaves are checkmates, stalemates and
positions with insufficient material for the winner (Lemmas 5 and 6,
:mod:`retro.unwinnable.material`).

Why it is sound: if the traversal ends without hitting its node bound, the visited set
contains the root and, for each visited position, every child that is not a dead-end
leaf; so it is closed under legal moves, and none of its members nor leaves is a mate by
the winner: no sequence of legal moves from the root ends in such a mate. If a mate is
met, the parent links give a (shortest) legal line to it (the caller replays it).

Why it exists (a choice of ours, not in the paper): the depth-limited Find-Helpmate of
Figure 5 can only prove unwinnability when *no* branch hits the depth limit, which in
positions with a few thousand reachable positions needs a depth close to the longest
DFS path. A plain closure needs only as many nodes as there are positions, so the full
routine alternates it with iterative deepening (:mod:`retro.unwinnable.routines`).
"""

from __future__ import annotations

import collections

import chess

from retro.unwinnable.material import insufficient_material

__all__ = ["closure_search"]


def closure_search(board: chess.Board, winner: chess.Color, node_bound: int) -> tuple[bool, list[chess.Move], bool, int]:
    """Return ``(found, line, complete, nodes)``; ``complete`` means the whole reachable
    graph was seen (so ``found == False`` proves unwinnability). Breadth-first, so a line
    found is a shortest one."""
    root = board.copy(stack=False)
    if not any(root.generate_legal_moves()):
        return root.turn != winner and root.is_check(), [], True, 0
    if insufficient_material(root, winner):
        return False, [], True, 0
    root_key = root._transposition_key()
    parent: dict[object, tuple[object, chess.Move] | None] = {root_key: None}
    queue: collections.deque[tuple[chess.Board, object]] = collections.deque([(root, root_key)])
    nodes = 0
    while queue:
        current, current_key = queue.popleft()
        nodes += 1
        if nodes > node_bound:
            return False, [], False, nodes
        for move in current.generate_legal_moves():
            child = current.copy(stack=False)
            child.push(move)
            key = child._transposition_key()
            if key in parent:
                continue
            if not any(child.generate_legal_moves()):
                if child.turn != winner and child.is_check():
                    line = [move]
                    back = parent[current_key]
                    while back is not None:
                        line.append(back[1])
                        back = parent[back[0]]
                    return True, line[::-1], False, nodes
                continue
            if insufficient_material(child, winner):
                continue
            parent[key] = (current_key, move)
            queue.append((child, key))
    return False, [], True, nodes

"""Find-Helpmate (Ambrona, Figure 5) with the Score and Going-to-corner heuristics
(Figures 12 and 13) and a transposition table.

A :class:`HelpmateSearch` looks for a sequence of legal moves from a position that ends
with ``winner`` checkmating the other side. One call of :meth:`HelpmateSearch.search`
with a depth limit is one iteration of the iterative deepening of Figure 9.

Leaves (no expansion): checkmate by the winner (success); checkmate of the winner,
stalemate, and :func:`retro.unwinnable.material.insufficient_material` (Lemmas 5, 6,
lone king) — all proven dead ends, so they never make the search incomplete.

Depth: a move whose Score is Reward costs 0 plies, Normal 1, Punish 3 (``maxDepth + inc``
of Figure 5 with inc = 1, 0, -2). Reward-after-reward (footnote b of Figure 5): a Normal
move right after a Rewarded move is rewarded too. Moves are tried Reward first, then
Normal, then Punish (our stand-in for Stockfish's move order).

Move order: inside each group the moves keep python-chess's order, except the winner's
(Rewarded, then Normal), which are tried those landing nearer the loser's king first
(king distance from the target square; ties in python-chess's order): the depth-first
search dives down the first moves, and a dive that brings the winner's units to the
loser's king meets a mate sooner (on Lichess positions about 14 % shorter lines and
fewer nodes). The order of the moves inside a group decides nothing that the completeness
argument below rests on (it holds for any order) and no verdict rule: it only decides
which helpmate is met first and how many nodes that takes.

Mate first: when a position where the winner is to move is expanded (counted as a node
and entered in the table), its moves are first scanned, in the order they would be tried,
for one after which the loser is checkmated (:func:`mating_move`); if there is one, the
iteration ends there with that move as the last of the line. Why this changes no verdict
for the worse: without the scan the same move would be tried later at this node, and its
child is recognised as a mate before any depth or node-bound test, so the iteration would
also succeed here unless it first found another mate deeper in an earlier move's subtree
(or ran out of nodes). The scan only examines children, which are leaves (not nodes), so
until the first expanded winner node that has a mating move the search visits the same
nodes in the same order with and without the scan; from there the iteration with the scan
stops with success, having counted no more nodes. An iteration that ends without a mate
expanded no winner node with a mating move, so the scan changed nothing in it (nor its
cuts, nor the completeness argument below). What changes is the line: it ends at the first
position of the search path where the winner can mate at once, where the plain depth-first
order went on down an earlier move (the lines found on real games are about a third
shorter), and the nodes of a successful iteration (fewer).

Mate beyond the horizon: a position where the winner is to move that is refused for
negative depth (but within the node bound; it is counted as a node, as before) is scanned
the same way, its legal moves in generation order, and a mating move ends the iteration
with success. The refusal stays a cut when the scan finds nothing. The same argument holds:
an iteration whose scans all find nothing visits, counts and cuts exactly as without them,
so up to the first successful scan the search is unchanged, and a scan only turns a failure
into a real helpmate (the mate is one legal move away). Every iteration thus sees the mates
one ply beyond its depth, which finds them in earlier iterations and from positions
earlier in the depth-first order (nodes per Lichess query about 29 % fewer).

Transposition table: key = ``board._transposition_key()`` (pieces, side to move,
castling rights, legal en passant square), value = (remaining depth, iteration). A
position met again with no more remaining depth than stored is not re-searched; such a
hit is looked up before the node bound and does not count as a node (only positions
entered in the table are nodes; entries are written only for expanded positions).

Positions are :data:`~retro.unwinnable.fastboard.State` tuples and moves ints; the legal
moves, in python-chess's order, come from a
:class:`~retro.unwinnable.fastboard.MoveGenerator` (the fast one by default, python-chess
itself as the reference), so both give the same search, node for node. Iterative
deepening meets the same positions in every iteration, so what the search needs of a
position (leaf test, key; moves sorted by Score once it is expanded) is computed once per
query and kept (a pure function
of the position: the search is unchanged, only cheaper).

Completeness argument (when :attr:`HelpmateSearch.cut` stays False): we count as a *cut*
every node refused for the node bound or negative depth, and every transposition hit on
an entry written by an earlier iteration (that earlier search may itself have been cut).
If an iteration ends without a cut, every position visited in it had all its moves
examined, and each child was a dead-end leaf or a position visited in this same iteration
(hits only on entries of this iteration). So the set of visited positions is closed under
legal moves and contains no mate by the winner: the root is unwinnable. Repetitions are
covered by the same closure argument. (The 75-move and fivefold-repetition rules are
ignored, as in the paper: they only shorten games.)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import chess

from retro.unwinnable import deadline as clock
from retro.unwinnable.fastboard import FAST, MoveGenerator, State, in_check, legal_moves
from retro.unwinnable.material import insufficient_state, lemma_shape

__all__ = ["HelpmateSearch", "mating_move", "split_by_score", "corner_targets", "KNIGHT_DISTANCE", "KING_DISTANCE"]

#: Positions whose expansion (leaf test, table key, scored moves) is kept between the
#: iterations of one query; the cache is emptied when it reaches this size.
EXPANSION_CACHE = 200_000


def _knight_distances() -> list[list[int]]:
    table = []
    for start in chess.SQUARES:
        dist = [-1] * 64
        dist[start] = 0
        queue = [start]
        for sq in queue:
            for nxt in chess.SquareSet(chess.BB_KNIGHT_ATTACKS[sq]):
                if dist[nxt] < 0:
                    dist[nxt] = dist[sq] + 1
                    queue.append(nxt)
        table.append(dist)
    return table


KNIGHT_DISTANCE: list[list[int]] = _knight_distances()
KING_DISTANCE: list[list[int]] = [[chess.square_distance(a, b) for b in chess.SQUARES] for a in chess.SQUARES]


def corner_targets(state: State, winner: chess.Color) -> tuple[int, int, int, int]:
    """Targets of Figure 13: (winner king, winner knight, loser king, loser knight)."""
    bishops = state[2]
    wb = bishops & (state[6] if winner else state[7])
    lb = bishops & (state[7] if winner else state[6])
    dark = bool(wb & chess.BB_DARK_SQUARES) or (bool(lb & chess.BB_LIGHT_SQUARES) and not wb & chess.BB_LIGHT_SQUARES)
    targets = (chess.H6, chess.H8, chess.H8, chess.G8) if dark else (chess.A6, chess.A8, chess.A8, chess.B8)
    if winner == chess.BLACK:
        return (targets[0] ^ 63, targets[1] ^ 63, targets[2] ^ 63, targets[3] ^ 63)
    return targets


def split_by_score(state: State, moves: list[int], winner: chess.Color) -> tuple[list[int], list[int], list[int]]:
    """Figure 12 (Score, with Going-to-corner of Figure 13) of every move of ``moves``
    (legal in ``state``): the moves Rewarded, Normal and Punished, each list in the order
    of ``moves``, except the winner's moves (Rewarded and Normal; the winner's are never
    Punished): in each list those whose target square is nearer the loser's king (king
    distance) first, ties in the order of ``moves`` (module docstring, "Move order")."""
    turn = state[8]
    white, black = state[6], state[7]
    us, them = (white, black) if turn else (black, white)
    pawns, knights, kings = state[0], state[1], state[5]
    bits = chess.BB_SQUARES
    reward: list[int] = []
    normal: list[int] = []
    punish: list[int] = []
    # Figure 13 looks at king and knight moves only; a step is rewarded when it gets closer
    # to the target of its piece (king: king distance, knight: knight distance).
    slow = (kings | knights) & us
    king_row = knight_row = KING_DISTANCE[0]
    if slow:
        targets = corner_targets(state, winner)
        first = 0 if turn == winner else 2
        king_row = KING_DISTANCE[targets[first]]
        knight_row = KNIGHT_DISTANCE[targets[first + 1]]
    if turn == winner:
        for move in moves:
            frm = move & 63
            to = (move >> 6) & 63
            from_bb = bits[frm]
            if them & bits[to] or pawns & from_bb:
                reward.append(move)  # capture (en passant is a pawn move) or pawn move
            elif slow & from_bb:
                row = king_row if kings & from_bb else knight_row
                (reward if row[to] < row[frm] else normal).append(move)
            else:
                normal.append(move)
        # Nearer the loser's king first (module docstring, "Move order").
        row = KING_DISTANCE[(kings & them).bit_length() - 1]
        reward.sort(key=lambda move: row[(move >> 6) & 63])
        normal.sort(key=lambda move: row[(move >> 6) & 63])
        return reward, normal, punish
    lemma_like = lemma_shape(knights, state[2], state[3], them & ~kings, us & ~kings)
    ep = state[10]
    for move in moves:
        frm = move & 63
        to = (move >> 6) & 63
        from_bb = bits[frm]
        if lemma_like:
            promotion = move >> 12
            if promotion == chess.QUEEN or promotion == chess.ROOK:
                punish.append(move)
                continue
            if pawns & from_bb:
                reward.append(move)
                continue
        if slow & from_bb:
            row = king_row if kings & from_bb else knight_row
            if row[to] < row[frm]:
                reward.append(move)
                continue
        if them & bits[to] or (pawns & from_bb and to == ep and (frm - to) & 7):
            punish.append(move)
        else:
            normal.append(move)
    return reward, normal, punish


def mating_move(state: State, moves: Iterable[int], generator: MoveGenerator = FAST) -> int | None:
    """The first of ``moves`` (legal in ``state``) after which the side not to move in
    ``state`` is checkmated, or None."""
    play, has_legal_move = generator.play, generator.has_legal_move
    for move in moves:
        child = play(state, move)
        if in_check(child) and not has_legal_move(child):
            return move
    return None


class HelpmateSearch:
    """Find-Helpmate for ``winner`` with a table shared by the iterations of one query."""

    def __init__(self, winner: chess.Color, generator: MoveGenerator = FAST) -> None:
        self.winner = winner
        self.generator = generator
        self.table: dict[object, tuple[int, int]] = {}
        self.expansions: dict[State, Any] = {}
        self.iteration = 0
        self.nodes = 0  # nodes over all iterations
        self.cut_limit = False  # a node refused for the node bound or negative depth
        self.cut_stale = False  # a hit on an entry written by an earlier iteration
        self.line: list[int] = []
        self._bound = 0
        self._count = 0
        self._deadline: float | None = None

    @property
    def cut(self) -> bool:
        """Whether the last iteration was incomplete (see the module docstring)."""
        return self.cut_limit or self.cut_stale

    def clear_table(self) -> None:
        """Forget the transposition table (the next iteration starts from an empty one)."""
        self.table.clear()

    def search(self, state: State, max_depth: int, node_bound: int) -> bool:
        """One iteration: True if a mate was found (:attr:`line` then holds it).

        After False, :attr:`cut` tells whether the search was incomplete. Raises
        :class:`~retro.unwinnable.deadline.TimeLimitReached` when the query's deadline
        passes (:attr:`nodes` then includes this iteration's nodes)."""
        self.iteration += 1
        self.cut_limit = False
        self.cut_stale = False
        self._bound = node_bound
        self._count = 0
        self._deadline = clock.current()
        self.line = []
        path: list[int] = []
        try:
            found = self._visit(state, max_depth, False, path)
        finally:
            self.nodes += self._count
        if found:
            self.line = path
        return found

    def _scored_moves(self, state: State) -> tuple[list[int], list[int], list[int]]:
        """The legal moves split by Score (Rewarded, Normal, Punished), each list in
        python-chess's order."""
        moves = legal_moves(state) if self.generator is FAST else list(self.generator.iter_legal_moves(state))
        return split_by_score(state, moves, self.winner)

    def _visit(self, state: State, depth: int, after_reward: bool, path: list[int]) -> bool:
        # The cache entry of a position: a bool for a leaf, else [table key, scored moves or
        # None, the mating move (winner to move) or None].
        expansions = self.expansions
        known = expansions.get(state)
        if known is None:
            if len(expansions) >= EXPANSION_CACHE:
                expansions.clear()
            generator = self.generator
            # Leaves: True for a mate by the winner, False for another dead end (no legal
            # move, Lemmas 5/6, lone king).
            if not generator.has_legal_move(state):
                expansions[state] = leaf = state[8] != self.winner and in_check(state)
                return leaf
            if insufficient_state(state, self.winner):
                expansions[state] = False
                return False
            known = expansions[state] = [generator.key(state), None, None]
        elif known is True or known is False:
            return known
        key = known[0]
        # Transposition table before the node bound: a hit is a position already expanded
        # (or being expanded) with at least this depth, so it is not a new node.
        entry = self.table.get(key)
        if entry is not None and entry[0] >= depth:
            if entry[1] != self.iteration:
                self.cut_stale = True
            return False
        self._count += 1
        if not self._count & (clock.CHECK_EVERY - 1) and self._deadline is not None:
            clock.check(self._deadline)
        if self._count > self._bound or depth < 0:
            self.cut_limit = True
            if depth < 0 and self._count <= self._bound and state[8] == self.winner:  # mate beyond the horizon
                generator = self.generator
                moves = legal_moves(state) if generator is FAST else list(generator.iter_legal_moves(state))
                mate = mating_move(state, moves, generator)
                if mate is not None:
                    path.append(mate)
                    return True
            return False
        self.table[key] = (depth, self.iteration)
        scored = known[1]
        if scored is None:
            scored = known[1] = self._scored_moves(state)
            if state[8] == self.winner:
                known[2] = mating_move(state, (*scored[0], *scored[1], *scored[2]), self.generator)
        if known[2] is not None:  # mate first (module docstring)
            path.append(known[2])
            return True
        # Reward-after-reward: a Normal move right after a Rewarded one costs no depth either.
        normal_depth = depth if after_reward else depth - 1
        play = self.generator.play
        for move_list, child_depth, rewarded in (
            (scored[0], depth, True),
            (scored[1], normal_depth, False),
            (scored[2], depth - 3, False),
        ):
            for move in move_list:
                path.append(move)
                if self._visit(play(state, move), child_depth, rewarded, path):
                    return True
                path.pop()
        return False

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

Transposition table: key = ``board._transposition_key()`` (pieces, side to move,
castling rights, legal en passant square), value = (remaining depth, iteration). A
position met again with no more remaining depth than stored is not re-searched.

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

import chess

from retro.unwinnable.material import insufficient_material

__all__ = ["HelpmateSearch", "going_to_corner", "KNIGHT_DISTANCE"]

REWARD, NORMAL, PUNISH = 1, 0, -2


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


def _corner_targets(board: chess.Board, winner: chess.Color) -> dict[tuple[bool, chess.PieceType], chess.Square]:
    """Targets of Figure 13, keyed by (goal is Win, piece type)."""
    wb = board.bishops & board.occupied_co[winner]
    lb = board.bishops & board.occupied_co[not winner]
    dark = bool(wb & chess.BB_DARK_SQUARES) or (bool(lb & chess.BB_LIGHT_SQUARES) and not wb & chess.BB_LIGHT_SQUARES)
    if dark:
        targets = {(True, chess.KING): chess.H6, (True, chess.KNIGHT): chess.H8,
                   (False, chess.KING): chess.H8, (False, chess.KNIGHT): chess.G8}
    else:
        targets = {(True, chess.KING): chess.A6, (True, chess.KNIGHT): chess.A8,
                   (False, chess.KING): chess.A8, (False, chess.KNIGHT): chess.B8}
    if winner == chess.BLACK:
        targets = {key: sq ^ 63 for key, sq in targets.items()}
    return targets


def going_to_corner(board: chess.Board, move: chess.Move, winner: chess.Color, goal_win: bool) -> bool:
    """Figure 13: does this king or knight move get closer to its mating-corner target?"""
    piece = board.piece_type_at(move.from_square)
    if piece not in (chess.KING, chess.KNIGHT):
        return False
    target = _corner_targets(board, winner)[(goal_win, piece)]
    if piece == chess.KING:
        return chess.square_distance(move.to_square, target) < chess.square_distance(move.from_square, target)
    return KNIGHT_DISTANCE[move.to_square][target] < KNIGHT_DISTANCE[move.from_square][target]


def _lemma_like(board: chess.Board, winner: chess.Color) -> bool:
    """Line 5 of Figure 12: Lemma 5 or 6 conditions, ignoring pawn-freeness."""
    mine = board.occupied_co[winner] & ~board.kings
    theirs = board.occupied_co[not winner] & ~board.kings
    if mine and mine == mine & board.knights and not mine & (mine - 1):
        return theirs == theirs & (board.pawns | board.queens)
    if mine and mine == mine & board.bishops:
        if not mine & chess.BB_LIGHT_SQUARES:
            other = chess.BB_LIGHT_SQUARES
        elif not mine & chess.BB_DARK_SQUARES:
            other = chess.BB_DARK_SQUARES
        else:
            return False
        return not theirs & (board.knights | (board.bishops & other))
    return False


def score(board: chess.Board, move: chess.Move, winner: chess.Color) -> int:
    """Figure 12: REWARD, NORMAL or PUNISH for playing ``move`` in ``board``."""
    if board.turn == winner:
        if board.is_capture(move) or board.pawns & chess.BB_SQUARES[move.from_square] \
                or going_to_corner(board, move, winner, True):
            return REWARD
        return NORMAL
    if _lemma_like(board, winner):
        if move.promotion in (chess.QUEEN, chess.ROOK):
            return PUNISH
        if board.pawns & chess.BB_SQUARES[move.from_square]:
            return REWARD
    if going_to_corner(board, move, winner, False):
        return REWARD
    if board.is_capture(move):
        return PUNISH
    return NORMAL


class HelpmateSearch:
    """Find-Helpmate for ``winner`` with a table shared by the iterations of one query."""

    def __init__(self, winner: chess.Color) -> None:
        self.winner = winner
        self.table: dict[object, tuple[int, int]] = {}
        self.iteration = 0
        self.nodes = 0  # nodes over all iterations
        self.cut_limit = False  # a node refused for the node bound or negative depth
        self.cut_stale = False  # a hit on an entry written by an earlier iteration
        self.line: list[chess.Move] = []
        self._bound = 0
        self._count = 0

    @property
    def cut(self) -> bool:
        """Whether the last iteration was incomplete (see the module docstring)."""
        return self.cut_limit or self.cut_stale

    def search(self, board: chess.Board, max_depth: int, node_bound: int) -> bool:
        """One iteration: True if a mate was found (:attr:`line` then holds it).

        After False, :attr:`cut` tells whether the search was incomplete."""
        self.iteration += 1
        self.cut_limit = False
        self.cut_stale = False
        self._bound = node_bound
        self._count = 0
        self.line = []
        path: list[chess.Move] = []
        found = self._visit(board.copy(stack=False), max_depth, False, path)
        self.nodes += self._count
        if found:
            self.line = path
        return found

    def _visit(self, board: chess.Board, depth: int, after_reward: bool, path: list[chess.Move]) -> bool:
        winner = self.winner
        moves = list(board.generate_legal_moves())
        if not moves:
            return board.turn != winner and board.is_check()
        if insufficient_material(board, winner):
            return False
        self._count += 1
        if self._count > self._bound or depth < 0:
            self.cut_limit = True
            return False
        key = board._transposition_key()
        entry = self.table.get(key)
        if entry is not None and entry[0] >= depth:
            if entry[1] != self.iteration:
                self.cut_stale = True
            return False
        self.table[key] = (depth, self.iteration)
        scored = []
        for move in moves:
            s = score(board, move, winner)
            if s == NORMAL and after_reward:
                s_eff = REWARD
            else:
                s_eff = s
            scored.append((-s_eff, s == REWARD, move))
        scored.sort(key=lambda item: item[0])
        for neg, rewarded, move in scored:
            board.push(move)
            path.append(move)
            if self._visit(board, depth - 1 - neg, rewarded, path):
                board.pop()
                return True
            path.pop()
            board.pop()
        return False

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
position met again with no more remaining depth than stored is not re-searched; such a
hit is looked up before the node bound and does not count as a node (only positions
entered in the table are nodes; entries are written only for expanded positions).

Move generation (a speed choice; the moves tried are exactly the legal ones): in check,
python-chess's evasions filtered by ``_is_safe``; otherwise the pseudo-legal moves, each
tested with ``_is_safe`` only when its turn comes (``Board.generate_legal_moves`` applies
the same two tests). Stalemate is recognised before that by looking for one legal move.

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


def _corner_targets(board: chess.Board, winner: chess.Color) -> tuple[chess.Square, chess.Square, chess.Square, chess.Square]:
    """Targets of Figure 13: (winner king, winner knight, loser king, loser knight)."""
    wb = board.bishops & board.occupied_co[winner]
    lb = board.bishops & board.occupied_co[not winner]
    dark = bool(wb & chess.BB_DARK_SQUARES) or (bool(lb & chess.BB_LIGHT_SQUARES) and not wb & chess.BB_LIGHT_SQUARES)
    targets = (chess.H6, chess.H8, chess.H8, chess.G8) if dark else (chess.A6, chess.A8, chess.A8, chess.B8)
    if winner == chess.BLACK:
        targets = tuple(sq ^ 63 for sq in targets)
    return targets  # type: ignore[return-value]


def going_to_corner(board: chess.Board, move: chess.Move, winner: chess.Color, goal_win: bool) -> bool:
    """Figure 13: does this king or knight move get closer to its mating-corner target?"""
    piece = board.piece_type_at(move.from_square)
    if piece not in (chess.KING, chess.KNIGHT):
        return False
    king_target, knight_target, loser_king_target, loser_knight_target = _corner_targets(board, winner)
    if goal_win:
        target = king_target if piece == chess.KING else knight_target
    else:
        target = loser_king_target if piece == chess.KING else loser_knight_target
    return _closer(piece, move, target)


def _closer(piece: chess.PieceType | None, move: chess.Move, target: chess.Square) -> bool:
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
    return score_moves(board, [move], winner)[0]


def score_moves(board: chess.Board, moves: list[chess.Move], winner: chess.Color) -> list[int]:
    """Figure 12 for every move of ``moves`` (legal in ``board``), with the per-position
    facts (corner targets, Lemma 5/6 shape) computed once."""
    them = board.occupied_co[not board.turn]
    pawns = board.pawns
    slow = board.kings | board.knights  # Figure 13 looks at king and knight moves only
    targets = _corner_targets(board, winner) if slow & board.occupied_co[board.turn] else None
    kings = board.kings
    scores = []
    if board.turn == winner:
        for move in moves:
            from_bb = chess.BB_SQUARES[move.from_square]
            if them & chess.BB_SQUARES[move.to_square] or pawns & from_bb:
                scores.append(REWARD)  # capture (en passant is a pawn move) or pawn move
            elif targets is not None and slow & from_bb and _closer(
                    chess.KING if kings & from_bb else chess.KNIGHT, move,
                    targets[0] if kings & from_bb else targets[1]):
                scores.append(REWARD)
            else:
                scores.append(NORMAL)
        return scores
    lemma_like = _lemma_like(board, winner)
    for move in moves:
        from_bb = chess.BB_SQUARES[move.from_square]
        if lemma_like:
            if move.promotion in (chess.QUEEN, chess.ROOK):
                scores.append(PUNISH)
                continue
            if pawns & from_bb:
                scores.append(REWARD)
                continue
        if targets is not None and slow & from_bb and _closer(
                chess.KING if kings & from_bb else chess.KNIGHT, move,
                targets[2] if kings & from_bb else targets[3]):
            scores.append(REWARD)
        elif them & chess.BB_SQUARES[move.to_square] or (pawns & from_bb and move.to_square == board.ep_square
                                                        and chess.square_file(move.from_square) != chess.square_file(move.to_square)):
            scores.append(PUNISH)
        else:
            scores.append(NORMAL)
    return scores


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
        king = board.king(board.turn)
        assert king is not None
        blockers = board._slider_blockers(king)
        checkers = board.attackers_mask(not board.turn, king)
        moves: list[chess.Move] | None = None
        if checkers:
            # In check: python-chess's evasion generator, filtered now (few moves).
            moves = [move for move in board._generate_evasions(king, checkers)
                     if board._is_safe(king, blockers, move)]
            if not moves:
                return board.turn != winner  # checkmate
        elif not any(board._is_safe(king, blockers, move) for move in board.generate_pseudo_legal_moves()):
            return False  # stalemate (the generator stops at the first legal move)
        if insufficient_material(board, winner):
            return False
        # Transposition table before the node bound: a hit is a position already expanded
        # (or being expanded) with at least this depth, so it is not a new node.
        key = board._transposition_key()
        entry = self.table.get(key)
        if entry is not None and entry[0] >= depth:
            if entry[1] != self.iteration:
                self.cut_stale = True
            return False
        self._count += 1
        if self._count > self._bound or depth < 0:
            self.cut_limit = True
            return False
        self.table[key] = (depth, self.iteration)
        if moves is None:
            # Not in check: pseudo-legal moves, legality tested lazily before each move is
            # tried (most nodes are left after their first moves).
            moves = list(board.generate_pseudo_legal_moves())
            unchecked = True
        else:
            unchecked = False
        rewarded_moves: list[chess.Move] = []
        normal_moves: list[chess.Move] = []
        punished_moves: list[chess.Move] = []
        buckets = {REWARD: rewarded_moves, NORMAL: normal_moves, PUNISH: punished_moves}
        for move, s in zip(moves, score_moves(board, moves, winner)):
            buckets[s].append(move)
        # Reward-after-reward: a Normal move right after a Rewarded one costs no depth either.
        normal_depth = depth if after_reward else depth - 1
        for move_list, child_depth, rewarded in ((rewarded_moves, depth, True),
                                                  (normal_moves, normal_depth, False),
                                                  (punished_moves, depth - 3, False)):
            for move in move_list:
                if unchecked and not board._is_safe(king, blockers, move):
                    continue
                board.push(move)
                path.append(move)
                if self._visit(board, child_depth, rewarded, path):
                    board.pop()
                    return True
                path.pop()
                board.pop()
        return False

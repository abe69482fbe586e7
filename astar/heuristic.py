"""Admissible heuristic: a lower bound on the plies from a position to the goal.

Rules (Österlund, texel proof-game documentation, A* section):

* Relaxed problem: pieces do not interfere; each piece's cost to a goal square is its
  shortest path on the empty board minus blocked squares (:mod:`astar.paths`).
* Which piece goes where is an assignment problem, solved per colour with
  ``scipy.optimize.linear_sum_assignment`` (the paper's Hungarian method; loaded by
  :mod:`retro.core.lsap`). Columns are
  the goal pieces; with more pieces than goal pieces, the rows left unassigned are the
  pieces still to be captured (cost 0). The king stays out of the assignment: it is
  never captured and only it can take its goal square, so its distance is added apart.
  Pawns may take a goal piece of another type by promotion, including under-promotion
  (:func:`astar.paths.promotion_distance`). A pawn can change file only by capturing,
  so file changes are limited by the number of enemy pieces that still may be
  captured (current minus goal count).
* Infinity (the goal is unreachable from this node) when a colour has fewer pieces than
  in the goal, when the assignment has no finite solution, when a (possibly truncated)
  pawn cone holds more goal pawns than current pawns, or a truncated cone (at most
  the captures still available) of a goal pawn holds no current pawn, when a goal castling right is
  already lost, or when a blocked goal square holds a different piece.
* White moves W and black moves B both are lower bounds; the plies bound is the
  smallest n with the parity of the side-to-move change such that the n plies contain
  at least W white and B black moves.

Why admissible: each piece's real moves are at least its relaxed distance; in a real
continuation the pieces of a colour end on distinct goal squares or are captured, so
the real move count is at least the minimum-cost assignment. Pawn cones: a pawn's
cone of origin only shrinks forward in time, so the count of own pawns inside the cone
of a goal pawn square can only decrease.

Deadlocks (texel's fourth case, :func:`deadlocked_mask`): when both colours already
have their goal piece counts, no capture can happen on the way to the goal. A piece can
then move only onto an empty square, and every move of it first enters one of its
*first-step* squares (a pawn: the square in front; a knight: its knight squares; a
slider or king, castling included: the adjacent squares in its directions). Call
*movable* the least set M such that a piece is in M when one of its first-step squares
is empty or holds a piece of M; the pieces outside M never move: before the first move
of any of them, all of them still stand where they stand now, and every first-step
square of that piece holds one of them. So each piece outside M must already be its
goal piece on its goal square (else infinity), and those squares are blocked for the
rest of the way: the bound is then computed with them added to the blocked squares.
"""

from __future__ import annotations

import copy
from array import array
from typing import Self

import chess
import numpy as np

from astar.paths import INF, king_forbidden_mask, pawn_cone_mask, pawn_distance, piece_distances, promotion_distance
from retro.core.lsap import linear_sum_assignment

__all__ = ["Heuristic", "INF", "plies_for_moves", "node_key", "pieces_of_key"]

_BIG = 1_000_000

_MAX_DEADLOCK_BOUNDS = 256  # distinct deadlocked sets whose bound is kept per heuristic

_MAX_DEADLOCK_POOL = 4096  # deadlock bounds kept for a heuristic and its renewed copies


def _piece_type(board: chess.Board, square: chess.Square) -> chess.PieceType:
    """The type of the piece on the occupied ``square``."""
    piece_type = board.piece_type_at(square)
    assert piece_type is not None
    return piece_type


def _orthogonal_neighbours(mask: int) -> int:
    """Squares with an orthogonally adjacent square in ``mask``."""
    return chess.shift_up(mask) | chess.shift_down(mask) | chess.shift_left(mask) | chess.shift_right(mask)


def _diagonal_neighbours(mask: int) -> int:
    """Squares with a diagonally adjacent square in ``mask``."""
    return (
        chess.shift_up_left(mask)
        | chess.shift_up_right(mask)
        | chess.shift_down_left(mask)
        | chess.shift_down_right(mask)
    )


def _knight_neighbours(mask: int) -> int:
    """Squares a knight's move away from a square in ``mask``."""
    vertical = chess.shift_2_up(mask) | chess.shift_2_down(mask)
    horizontal = chess.shift_2_left(mask) | chess.shift_2_right(mask)
    return (
        chess.shift_left(vertical)
        | chess.shift_right(vertical)
        | chess.shift_up(horizontal)
        | chess.shift_down(horizontal)
    )


def deadlocked_mask(types: tuple[int, ...], white: int) -> int:
    """The pieces that can never move while no capture happens (module docstring,
    deadlocks): the complement S of the least movable set, which is the greatest set of
    pieces whose first-step squares all hold pieces of S. Computed from the pieces with
    no empty first-step square, dropping those with a first-step square outside the set
    until none is left to drop. ``types`` are the six piece-type masks (pawns ...
    kings), ``white`` White's occupancy."""
    pawns, knights, bishops, rooks, queens, kings = types
    occupied = pawns | knights | bishops | rooks | queens | kings
    white_pawns, black_pawns = pawns & white, pawns & ~white
    orthogonal, diagonal = rooks | queens | kings, bishops | queens | kings
    stuck = occupied
    while stuck:
        outside = ~stuck & chess.BB_ALL  # empty squares and pieces that may move
        freed = stuck & (
            (white_pawns & chess.shift_down(outside))
            | (black_pawns & chess.shift_up(outside))
            | (orthogonal & _orthogonal_neighbours(outside))
            | (diagonal & _diagonal_neighbours(outside))
            | (knights & _knight_neighbours(outside))
        )
        if not freed:
            return stuck
        stuck &= ~freed
    return 0


def plies_for_moves(white_moves: int, black_moves: int, turn: chess.Color, goal_turn: chess.Color) -> int:
    """Smallest ply count with the right parity giving ``white_moves`` and ``black_moves``."""
    base = 0 if turn == goal_turn else 1
    mover, other = (white_moves, black_moves) if turn == chess.WHITE else (black_moves, white_moves)
    # the side to move makes ceil(n/2) moves, the other floor(n/2)
    n = max(2 * mover - 1, 2 * other, base)
    return n + ((n - base) & 1)


class Heuristic:
    """Lower bound on plies to ``goal``; one instance per (goal, blocked mask)."""

    def __init__(self, goal: chess.Board, blocked_mask: int = 0) -> None:
        self.goal = goal
        self.blocked_mask = blocked_mask
        self.goal_turn = goal.turn
        self.goal_castling = goal.clean_castling_rights()
        # the goal pieces off the blocked squares, the king apart (module docstring)
        self._goal_pieces: dict[chess.Color, list[tuple[chess.PieceType, chess.Square]]] = {}
        self._goal_king: dict[chess.Color, chess.Square | None] = {}
        self._goal_count: dict[chess.Color, int] = {}
        self._goal_pawns: dict[chess.Color, int] = {}
        self._forbidden: dict[chess.Color, int] = {}
        for color in chess.COLORS:
            free = goal.occupied_co[color] & ~blocked_mask
            self._goal_pieces[color] = [(_piece_type(goal, sq), sq) for sq in chess.scan_forward(free & ~goal.kings)]
            self._goal_king[color] = chess.lsb(free & goal.kings) if free & goal.kings else None
            self._goal_count[color] = chess.popcount(goal.occupied_co[color])
            self._goal_pawns[color] = goal.pawns & goal.occupied_co[color]
            self._forbidden[color] = king_forbidden_mask(color, goal, blocked_mask)
        # per goal pawn: its full cone, the goal pawns inside it, and its cones truncated
        # at 0..6 captures (module docstring, pawn cones)
        self._cones = {
            color: [
                (
                    pawn_cone_mask(color, gsq, 7),
                    chess.popcount(self._goal_pawns[color] & pawn_cone_mask(color, gsq, 7)),
                    tuple(pawn_cone_mask(color, gsq, c) for c in range(7)),
                )
                for gsq in chess.scan_forward(self._goal_pawns[color])
            ]
            for color in chess.COLORS
        }
        # the goal's pieces on blocked squares, per type (pawns ... kings) and per colour
        blocked_goal = blocked_mask & goal.occupied
        self._goal_types = (goal.pawns, goal.knights, goal.bishops, goal.rooks, goal.queens, goal.kings)
        self._blocked_types = [
            (index, mask & blocked_goal) for index, mask in enumerate(self._goal_types) if mask & blocked_goal
        ]
        self._blocked_white = blocked_goal & goal.occupied_co[chess.WHITE]
        self._blocked_black = blocked_goal & goal.occupied_co[chess.BLACK]
        self._goal_white = goal.occupied_co[chess.WHITE]
        self._deadlock_bounds: dict[int, Heuristic] = {}  # at most _MAX_DEADLOCK_BOUNDS per instance
        self._deadlock_pool: dict[int, Heuristic] = {}  # shared with the renewed copies
        self._row_blob_cache: dict[tuple[chess.Color, chess.PieceType, chess.Square, int], bytes] = {}
        self._side_cache: dict[chess.Color, dict[tuple, int]] = {chess.WHITE: {}, chess.BLACK: {}}
        self._side_cache_white, self._side_cache_black = self._side_cache[chess.WHITE], self._side_cache[chess.BLACK]
        self._goal_count_white = self._goal_count[chess.WHITE]
        self._goal_count_black = self._goal_count[chess.BLACK]

    def renewed(self) -> Self:
        """A heuristic of the same values as a new ``type(self)(goal, blocked_mask)``,
        sharing this one's caches: they remember pure functions of their keys (the same
        goal, the same blocked squares), so a leg that starts with warm caches searches
        the very nodes it would search with cold ones. Only the deadlocked sets given a
        bound of their own (at most :data:`_MAX_DEADLOCK_BOUNDS`, then the plain bound)
        are counted afresh, as in a new instance; their bounds come from a shared pool."""
        twin = copy.copy(self)
        twin._deadlock_bounds = {}
        return twin

    def share_caches(self, other: Heuristic) -> None:
        """Use ``other``'s caches of pure functions of the goal and the blocked squares
        (the side bounds, the packed cost rows, the pool of deadlock bounds), ``other``
        having the same goal and blocked squares: a side bound one of them computed is
        then read by the other (e.g. the non-admissible heuristic, whose base is this
        bound, and the admissible one of the same leg). The same values: only work is
        saved."""
        assert other.goal == self.goal and other.blocked_mask == self.blocked_mask
        self._row_blob_cache = other._row_blob_cache
        self._side_cache = other._side_cache
        self._side_cache_white, self._side_cache_black = other._side_cache_white, other._side_cache_black
        self._deadlock_pool = other._deadlock_pool

    # -- per-piece cost rows ----------------------------------------------------
    def _row(self, color: chess.Color, ptype: chess.PieceType, sq: chess.Square, captures: int) -> list[int]:
        """The costs of the piece to each goal square (remembered, packed, by
        :meth:`_compute_side`'s row cache)."""
        row = []
        for gtype, gsq in self._goal_pieces[color]:
            if ptype == chess.PAWN:
                if gtype == chess.PAWN:
                    cost = pawn_distance(color, sq, gsq)
                    if abs(chess.square_file(sq) - chess.square_file(gsq)) > captures:
                        cost = INF
                else:
                    cost = self._promotion_cost(color, sq, gtype, gsq, captures)
            elif ptype == gtype:
                cost = piece_distances(ptype, gsq, self.blocked_mask)[sq]
            else:
                cost = INF
            row.append(cost)
        return row

    def _promotion_cost(
        self, color: chess.Color, sq: chess.Square, gtype: chess.PieceType, gsq: chess.Square, captures: int
    ) -> int:
        if captures >= 7:
            return promotion_distance(color, sq, gtype, gsq, self.blocked_mask)
        last_rank = 7 if color == chess.WHITE else 0
        dist = piece_distances(gtype, gsq, self.blocked_mask)
        best = INF
        for file in range(8):
            if abs(file - chess.square_file(sq)) > captures:
                continue
            promo = chess.square(file, last_rank)
            if self.blocked_mask & chess.BB_SQUARES[promo]:
                continue
            d = pawn_distance(color, sq, promo)
            if d < INF and dist[promo] < INF:
                best = min(best, d + dist[promo])
        return best

    # -- one colour -------------------------------------------------------------
    def side_moves(self, board: chess.Board, color: chess.Color) -> int:
        """Lower bound on the moves of ``color`` (INF when its goal is unreachable)."""
        return self._side(
            color,
            board.occupied_co[color],
            (board.pawns, board.knights, board.bishops, board.rooks, board.queens, board.kings),
            chess.popcount(board.occupied_co[not color]),
        )

    def _side(self, color: chess.Color, own: int, types: tuple[int, ...], enemy_count: int) -> int:
        """``side_moves`` from raw bitboards: ``types`` are the six piece-type masks
        (pawns ... kings, both colours), ``own`` this colour's occupancy."""
        pawns, knights, bishops, rooks, queens, kings = types
        captures = enemy_count - self._goal_count[not color]
        key = (own & pawns, own & knights, own & bishops, own & rooks, own & queens, own & kings, captures)
        cached = self._side_cache[color].get(key)
        return self._side_miss(color, own, key) if cached is None else cached

    def _side_miss(self, color: chess.Color, own: int, key: tuple) -> int:
        """:meth:`_side` of the side cache's ``key`` (its six piece masks, then the
        captures still available), computed and remembered."""
        cache = self._side_cache[color]
        value = self._compute_side(color, own, key[:6], key[6])
        if len(cache) > 1_000_000:
            cache.clear()
        cache[key] = value
        return value

    def _compute_side(self, color: chess.Color, own: int, own_types: tuple[int, ...], captures: int) -> int:
        if chess.popcount(own) < self._goal_count[color] or captures < 0:
            return INF
        # pawn cones (truncated by the captures still available)
        own_pawns = own_types[0]
        for cone, goal_pawns, truncated in self._cones[color]:
            # full cone: closed under pawn moves backwards, so its pawn count never grows
            if goal_pawns > chess.popcount(own_pawns & cone):
                return INF
            # truncated cone: the pawn that ends on the goal square uses at most `captures` captures
            if captures < 7 and not own_pawns & truncated[captures]:
                return INF
        kings = own_types[5] & ~self.blocked_mask
        goal_king = self._goal_king[color]
        if chess.popcount(kings) != (goal_king is not None):
            return INF
        total = 0
        if kings:
            total = piece_distances(chess.KING, goal_king, self.blocked_mask, self._forbidden[color])[chess.lsb(kings)]
            if total >= INF:
                return INF
        columns = len(self._goal_pieces[color])
        if not columns:
            return total
        # one row per piece (the king apart), as packed int64 rows of cost_row
        blobs = []
        blob_cache, free = self._row_blob_cache, ~self.blocked_mask
        for ptype in (chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN):
            pieces = own_types[ptype - 1] & free
            while pieces:
                bit = pieces & -pieces
                pieces ^= bit
                key = (color, ptype, bit.bit_length() - 1, captures)
                blob = blob_cache.get(key)
                if blob is None:
                    blob = blob_cache[key] = array("q", self._row(*key)).tobytes()
                blobs.append(blob)
        if len(blobs) < columns:
            return INF
        # more rows than columns: the rows left unassigned are the pieces to be captured
        matrix = np.frombuffer(b"".join(blobs), dtype=np.int64).reshape(len(blobs), columns)  # entries <= INF
        r, c = linear_sum_assignment(matrix)
        total += int(matrix[r, c].sum())
        return INF if total >= INF else total

    def _home_pieces_in_goal(self, color: chess.Color, lost: int) -> bool:
        """True when the king and every rook of the lost rights stand on those squares in the goal too."""
        rank = chess.BB_RANK_1 if color == chess.WHITE else chess.BB_RANK_8
        king_home = chess.E1 if color == chess.WHITE else chess.E8
        if self.goal.piece_at(king_home) != chess.Piece(chess.KING, color):
            return False
        for sq in chess.scan_forward(lost & rank):
            if self.goal.piece_at(sq) != chess.Piece(chess.ROOK, color):
                return False
        return True

    # -- whole position ---------------------------------------------------------
    def value(self, board: chess.Board) -> int:
        """Lower bound on plies from ``board`` to the goal, INF when provably unreachable."""
        return self.value_of_key(node_key(board))

    def without_captures(self, key: tuple) -> bool:
        """True when both colours of the position ``key`` have their goal piece counts,
        so no capture can happen on the way to the goal (the deadlock rule applies)."""
        white = key[6]
        return (
            white.bit_count() == self._goal_count_white
            and ((key[0] | key[1] | key[2] | key[3] | key[4] | key[5]) & ~white).bit_count() == self._goal_count_black
        )

    def value_of_key(self, key: tuple, stuck: int | None = None) -> int:
        """:meth:`value` of the position whose :func:`node_key` is ``key``.

        ``stuck``, when given, is a set of pieces known never to move before a capture
        (the search passes the parent's :func:`deadlocked_mask` for a quiet move: the
        moved piece was not in it and landed on an empty square, so every piece of the
        set still has its first-step squares filled by the set); by default it is
        computed here."""
        white = key[6]
        if (
            white.bit_count() == self._goal_count_white
            and ((key[0] | key[1] | key[2] | key[3] | key[4] | key[5]) & ~white).bit_count() == self._goal_count_black
        ):
            # no capture is left (:meth:`without_captures`, written out): deadlocked pieces (module docstring)
            types = key[:6]
            if stuck is None:
                stuck = deadlocked_mask(types, white)
            stuck &= ~self.blocked_mask
            if stuck:
                if (white ^ self._goal_white) & stuck:
                    return INF
                for mask, goal_mask in zip(types, self._goal_types, strict=True):
                    if (mask ^ goal_mask) & stuck:
                        return INF
                bound = self._deadlock_bounds.get(stuck)
                if bound is None:
                    if len(self._deadlock_bounds) >= _MAX_DEADLOCK_BOUNDS:
                        return self._value(key)
                    bound = self._deadlock_pool.get(stuck)
                    if bound is None:
                        if len(self._deadlock_pool) >= _MAX_DEADLOCK_POOL:
                            self._deadlock_pool.clear()
                        bound = self._deadlock_pool[stuck] = Heuristic(self.goal, self.blocked_mask | stuck)
                    self._deadlock_bounds[stuck] = bound
                return bound._value(key)
        return self._value(key)

    def _value(self, key: tuple) -> int:
        """:meth:`value_of_key` without the deadlock rule (:meth:`_side` written out for
        both colours: a call for every child the search generates)."""
        pawns, knights, bishops, rooks, queens, kings, white, turn, castling, _ep = key
        if self.goal_castling & ~castling:
            return INF
        # every blocked goal square holds its goal piece (a blocked piece never moves)
        for type_index, mask in self._blocked_types:
            if key[type_index] & mask != mask:
                return INF
        if white & self._blocked_white != self._blocked_white or white & self._blocked_black:
            return INF
        black = (pawns | knights | bishops | rooks | queens | kings) & ~white
        side_key = (
            white & pawns,
            white & knights,
            white & bishops,
            white & rooks,
            white & queens,
            white & kings,
            black.bit_count() - self._goal_count_black,
        )
        w = self._side_cache_white.get(side_key)
        if w is None:
            w = self._side_miss(chess.WHITE, white, side_key)
        if w >= INF:
            return INF
        side_key = (
            black & pawns,
            black & knights,
            black & bishops,
            black & rooks,
            black & queens,
            black & kings,
            white.bit_count() - self._goal_count_white,
        )
        b = self._side_cache_black.get(side_key)
        if b is None:
            b = self._side_miss(chess.BLACK, black, side_key)
        if b >= INF:
            return INF
        lost = castling & ~self.goal_castling
        if lost:
            # a right still to be lost: the king or that rook must move at least once;
            # each such piece of the goal on its home square must also come back.
            if lost & chess.BB_RANK_1:
                w = max(w, 2 if self._home_pieces_in_goal(chess.WHITE, lost) else 1)
            if lost & chess.BB_RANK_8:
                b = max(b, 2 if self._home_pieces_in_goal(chess.BLACK, lost) else 1)
        # plies_for_moves(w, b, turn, self.goal_turn), written out
        base = 0 if turn == self.goal_turn else 1
        mover, other = (2 * w - 1, 2 * b) if turn else (2 * b - 1, 2 * w)
        n = mover if mover > other else other
        if n < base:
            n = base
        return n + ((n - base) & 1)


def node_key(board: chess.Board) -> tuple:
    """What identifies a search node: the piece masks, White's occupancy, the side to
    move, the castling rights and the en-passant square when a legal ep capture exists.
    The same identity as :func:`retro.core.position.position_key`, in a layout that
    :func:`astar.search.child_key` updates from a parent's key without playing the move."""
    ep = board.ep_square if board.ep_square is not None and board.has_legal_en_passant() else None
    return (
        board.pawns,
        board.knights,
        board.bishops,
        board.rooks,
        board.queens,
        board.kings,
        board.occupied_co[chess.WHITE],
        board.turn,
        board.castling_rights,
        ep,
    )


def pieces_of_key(key: tuple) -> chess.BaseBoard:
    """The pieces of a :func:`node_key` as a ``chess.BaseBoard``, without playing
    the move that leads there."""
    pieces = chess.BaseBoard.__new__(chess.BaseBoard)  # (its __init__ would clear the board first)
    pieces.promoted = 0
    pieces.pawns, pieces.knights, pieces.bishops, pieces.rooks, pieces.queens, pieces.kings, white = key[:7]
    pieces.occupied = pieces.pawns | pieces.knights | pieces.bishops | pieces.rooks | pieces.queens | pieces.kings
    pieces.occupied_co = [pieces.occupied & ~white, white]
    return pieces

"""Pawns that face each other on a file: one of them must leave it (or be taken) before they pass.

**Rule.** At a node, let a White pawn W stand on (f, rw) and a Black pawn B on (f, rb)
with rw < rb. Unless the goal has a White pawn on f at a rank wr and a Black pawn on f
at a rank br with rw <= wr < br <= rb ("case N"), a game from the node reaches the goal
only if one of these holds, where ``A[X: mode]`` is X's side's assignment ``A``
(:mod:`retro.spg.bounds`; settled units kept as rows) with X's row replaced as the mode
says, and ``k_C`` is the number of captures side C still makes (the enemy's units now
minus in the goal):

1. ``A[W: leaves]`` fits White's moves left, and, if ``k_White = 1``,
   ``A[B: stays]`` fits Black's;
2. ``A[W: captured]`` fits White's moves left and ``A[B: fewer]`` fits Black's;
3. and 4.: the same with the colours exchanged (B leaves; B is captured).

The rows of W (B's: the board turned, ranks counted downwards):

* *leaves*: to every column, the least over the ranks r with rw <= r < rb and the sides
  f-1, f+1 of ``d(W, (f, r)) + 1 + cost(L -> column)``: ``d`` is W's forward distance
  along f avoiding the units that stay for good (frozen units, pawns settled for good),
  L = (f +- 1, r + 1) holds no such unit, and ``cost`` is the row of a White pawn on L
  with one capture fewer left (:meth:`MoveBounds.unit_row`); INF without a capture left.
* *captured*: the plain row on the capture columns, INF on the goal columns.
* *stays*: the plain row on the goal columns, INF on the capture columns.
* *fewer*: the plain row computed with one capture fewer left.

A frozen W neither leaves nor is captured (INF), and its *stays* and *fewer* bounds are
the plain bound. The search (:mod:`retro.spg.search`) prunes a node where a pair of
pawns fits none of 1-4.

**Proof.** While W and B both stand on f, W's rank stays below B's: a pawn's move along
its file is a forward step (a double step crosses one square, which must be empty, as
must its landing square), and neither can step onto or across the other. A pawn's only
moves off its file are captures (en passant too lands diagonally); W promotes along f
only on the eighth rank, above B. Take the first move T after which W or B is no longer
on f: W captures, W is captured, B captures or B is captured -- one move does only one
of these, since neither pawn can take the other while both are on f (a pawn takes
diagonally, and en passant takes a pawn beside the capturer). If there is no such move,
both end on f as pawns (never captured, never promoting) on goal squares of their
colour, W's below B's, within [rw, rb]: case N, excluded. In every case each unit's own
moves are at least its row's cost to its real destination, the destinations form an
assignment (every unit of a side ends on a goal square of its side or is captured), and
a side's moves are at least the sum of its units' own moves: so a side's moves are at
least its assignment with the rows below.

1. W captures at T. It stood on (f, r) below B, whose rank is at most rb (B only moves
   down), reached it by forward steps along f, took a unit on L = (f +- 1, r + 1) (a unit
   that stays for good is never taken), and went on from L with at most White's
   captures left minus one: its moves are at least its *leaves* row's cost. The unit
   taken on L is not B (B is on f); if it is the only Black unit White still takes
   (``k_White = 1``), B is never captured and ends on a goal square: *stays*.
2. W is captured at T: its destination is a capture column (*captured*). The capturer is
   a Black unit other than B, so B's captures are at most ``k_Black - 1``: B's file
   changes, its captures, fit its *fewer* row.
3. and 4. are 1. and 2. with the colours exchanged.
"""

from __future__ import annotations

import chess

from astar.paths import INF
from retro.spg.bounds import _BIG, MoveBounds, RowFunction, side_masks

__all__ = ["PassingPawns"]

_MEMO_LIMIT = 500_000  # memoised restricted bounds; cleared beyond (memo lost, never soundness)


class PassingPawns:
    """The rule of the module docstring for a goal and its bounds."""

    def __init__(self, goal: chess.Board, bounds: MoveBounds) -> None:
        self.bounds = bounds
        self.goal_pawns = {color: goal.pawns & goal.occupied_co[color] for color in chess.COLORS}
        self._memo: dict[tuple, int] = {}

    def exceeds(self, board: chess.Board, white_moves: int, black_moves: int) -> bool:
        """Whether a facing pair of pawns on ``board`` passes none of the four cases within
        the moves left (module docstring)."""
        white_pawns = board.pawns & board.occupied_co[chess.WHITE]
        black_pawns = board.pawns & board.occupied_co[chess.BLACK]
        moves = {chess.WHITE: white_moves, chess.BLACK: black_moves}
        for w in chess.scan_forward(white_pawns):
            ahead = black_pawns & chess.BB_FILES[chess.square_file(w)] & _above(chess.square_rank(w))
            for b in chess.scan_forward(ahead):
                if not self._case_n(w, b) and not self._passes(board, (w, b), moves):
                    return True
        return False

    def _passes(self, board: chess.Board, pair: tuple[chess.Square, chess.Square], moves: dict[bool, int]) -> bool:
        """Whether one of the cases (1)-(4) of the pair fits the moves left."""
        squares = {chess.WHITE: pair[0], chess.BLACK: pair[1]}
        limits = {chess.WHITE: chess.square_rank(pair[1]), chess.BLACK: chess.square_rank(pair[0])}

        def fits(color: chess.Color, mode: str) -> bool:
            return self._bound(board, color, squares[color], limits[color], mode) <= moves[color]

        # the captures each side still makes: the enemy's units now minus in the goal
        left = {c: chess.popcount(board.occupied_co[not c]) - self.bounds.goal_count[not c] for c in chess.COLORS}
        for color in chess.COLORS:
            # W leaves by a capture of its own side's, W is captured by one of the enemy's
            if left[color] >= 1 and fits(color, _LEAVES) and (left[color] != 1 or fits(not color, _STAYS)):
                return True
            if left[not color] >= 1 and fits(color, _CAPTURED) and fits(not color, _FEWER):
                return True
        return False

    def _case_n(self, w: chess.Square, b: chess.Square) -> bool:
        """Whether the goal has a White pawn and a Black pawn on the file, in order, within [rw, rb]."""
        file_mask = chess.BB_FILES[chess.square_file(w)]
        low, high = chess.square_rank(w), chess.square_rank(b)
        for white in chess.scan_forward(self.goal_pawns[chess.WHITE] & file_mask):
            rank = chess.square_rank(white)
            if low <= rank < high and self.goal_pawns[chess.BLACK] & file_mask & _above(rank) & _below(high + 1):
                return True
        return False

    def _bound(self, board: chess.Board, color: chess.Color, square: chess.Square, limit: int, mode: str) -> int:
        """``color``'s assignment with the row of its pawn on ``square`` restricted by ``mode``
        (module docstring), the enemy pawn of the pair standing on rank ``limit``."""
        bounds = self.bounds
        if bounds.frozen & chess.BB_SQUARES[square]:
            # a frozen pawn never moves and is never captured: it neither leaves nor is taken,
            # and the other modes restrict nothing it does (the plain bound holds)
            return INF if mode in (_LEAVES, _CAPTURED) else bounds.needs(board, color)
        enemy = not color
        masks = side_masks(board, color)
        rights = board.clean_castling_rights() & (chess.BB_RANK_1 if color == chess.WHITE else chess.BB_RANK_8)
        enemy_units = chess.popcount(board.occupied_co[enemy])
        enemy_pawns = board.pawns & board.occupied_co[enemy]
        key = (color, masks, rights, enemy_units, enemy_pawns, square, limit, mode)
        cached = self._memo.get(key)
        if cached is None:
            if len(self._memo) >= _MEMO_LIMIT:
                self._memo.clear()
            row = _restricted_row(bounds, color, square, limit, mode)
            cached = self._memo[key] = bounds.restricted(color, masks, rights, enemy_units, enemy_pawns, square, row)
        return cached


def _restricted_row(bounds: MoveBounds, color: chess.Color, square: chess.Square, limit: int, mode: str) -> RowFunction:
    """The row (module docstring) of ``color``'s pawn on ``square`` in ``mode``, the enemy
    pawn of its pair on rank ``limit``."""

    def row(
        goals: list[tuple[chess.PieceType, chess.Square]],
        size: int,
        captures: int,
        regions: list[int],
        blocked: chess.Bitboard,
    ) -> list[int]:
        if mode == _FEWER:
            return bounds.unit_row(color, chess.PAWN, square, None, goals, size, 0, captures - 1, regions, blocked)
        plain = bounds.unit_row(color, chess.PAWN, square, None, goals, size, 0, captures, regions, blocked)
        if mode == _CAPTURED:
            return [_BIG] * len(goals) + plain[len(goals) :]
        if mode == _STAYS:
            return plain[: len(goals)] + [_BIG] * (size - len(goals))
        return [
            min(value, _BIG)
            for value in _leaving_costs(bounds, color, square, limit, goals, size, captures, regions, blocked)
        ]

    return row


def _leaving_costs(
    bounds: MoveBounds,
    color: chess.Color,
    square: chess.Square,
    limit: int,
    goals: list[tuple[chess.PieceType, chess.Square]],
    size: int,
    captures: int,
    regions: list[int],
    blocked: chess.Bitboard,
) -> list[int]:
    """Per column, the least cost of the pawn on ``square`` that leaves its file by a
    capture from a rank before ``limit`` (module docstring, case (1))."""
    best = [INF] * size
    if captures < 1:
        return best
    step = 1 if color == chess.WHITE else -1
    file, rank = chess.square_file(square), chess.square_rank(square)
    stay = bounds.frozen | blocked
    for r in range(rank, limit, step):
        here = chess.square(file, r)
        forward = 0 if here == square else bounds.pawn_path(color, square, here, 0, stay)
        if forward >= INF:
            break  # a square of the file stays occupied: no further rank either
        for side in (-1, 1):
            if not 0 <= file + side < 8:
                continue
            landing = chess.square(file + side, r + step)
            if stay & chess.BB_SQUARES[landing]:
                continue
            after = bounds.unit_row(color, chess.PAWN, landing, None, goals, size, 0, captures - 1, regions, blocked)
            for j in range(size):
                best[j] = min(best[j], forward + 1 + after[j])
    return best


_LEAVES, _CAPTURED, _FEWER, _STAYS = "leaves", "captured", "fewer", "stays"


def _above(rank: int) -> chess.Bitboard:
    """The squares of the ranks above ``rank``."""
    return chess.BB_ALL << (8 * (rank + 1)) & chess.BB_ALL if rank < 7 else 0


def _below(rank: int) -> chess.Bitboard:
    """The squares of the ranks below ``rank``."""
    return chess.BB_ALL >> (8 * (8 - rank)) if rank > 0 else 0

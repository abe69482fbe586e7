"""Route squares: the squares a piece of each type and colour can ever stand on in a game
of N plies from ``init`` to the goal, so that the search generates only moves to them.

Rule. Let C be a colour with ``M`` moves in the game, and ``A`` the assignment bound of
:mod:`retro.spg.bounds` at ``init``: each free unit of C (a row) goes to a free goal
square of C or to a capture column, a row's cost to a column being a lower bound on
that unit's own moves to end there (castling: the least of the plain and castled
costs, each a lower bound on the unit's own moves whatever castling is played). For a
unit u of C and a square t, let ``A_t(u)`` be the least assignment where u's row is
replaced by the costs *through t*: for a column of u's type T, ``d_T(u, t) + d_T(t, g)``;
for a capture column, ``d_T(u, t)`` (plus the distance from t to the column's region).
For a pawn u and a piece type T it may promote to, the same with ``d_T(u, t)`` replaced
by the pawn's moves to a promotion square q plus ``d_T(q, t)``, and only columns of type
T or capture columns. A piece of type T of C stands on t in some game only
if ``A_t(u) <= M`` for some unit u of C of type T, or some pawn u of C promoting to T.

Proof. Take a game and a moment when a piece of type T of C stands on t. That piece is
a unit u of ``init`` (units are never created; a promoted piece is its pawn, which
then became T). Its route goes through t, so its own moves are at least its cost
through t to its real destination (the moves before t at least ``d_T(u, t)`` or the
promotion route to t, those after at least the distance from t). Every other unit's
own moves are at least its row's cost to its destination, the destinations form a
perfect assignment of rows to columns (:mod:`retro.spg.bounds`, rule A), and C's moves
are at least the sum of its units' own moves (castling counted once, as the king's).
So ``M >= A_t(u)``. The same holds for a pawn standing on t as a pawn (its costs
through t: its pawn moves to t, then to a pawn square, a promotion or a capture) and
for a king that cannot castle; a king that may castle is not restricted.

A move of a piece of type T to a square outside T's route squares is therefore in no
game, and the search does not generate it (:mod:`retro.spg.search`).
"""

from __future__ import annotations

from dataclasses import dataclass

import chess

from astar.paths import INF, piece_distances
from retro.core.assignment import RowChange
from retro.spg.bounds import _BIG, _CASTLE, MoveBounds, side_masks

__all__ = ["SideRows", "route_squares", "row_through", "side_rows"]

RouteSquares = dict[chess.PieceType, chess.Bitboard]

_PROMOTED = (chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN)
_LAST_RANK = {color: list(chess.SquareSet(chess.BB_RANK_8 if color else chess.BB_RANK_1)) for color in chess.COLORS}


@dataclass
class SideRows:
    """A side's assignment at a node without settled units left out (module docstring):
    its free units (rows), its free goal squares (the first columns; the capture columns
    follow), the cost matrix (castling folded into the king's and rooks' rows), the
    units that may castle, its captures left and the capture regions."""

    rows: list[tuple[chess.PieceType, chess.Square]]
    goals: list[tuple[chess.PieceType, chess.Square]]
    base: list[list[int]]
    castles: chess.Bitboard
    captures: int
    regions: list[int]
    blocked: chess.Bitboard = 0


def side_rows(bounds: MoveBounds, board: chess.Board, color: chess.Color, blocked: int = 0) -> SideRows | None:
    """``color``'s :class:`SideRows` on ``board`` (``None`` when the unit counts or the
    castling rights leave no assignment to build); routes avoid ``blocked`` (squares of
    units that stay for good and are never captured) besides the frozen squares."""
    enemy = not color
    masks = side_masks(board, color)
    rights = board.clean_castling_rights() & (chess.BB_RANK_1 if color == chess.WHITE else chess.BB_RANK_8)
    setup = bounds.side_setup(color, masks, rights, chess.popcount(board.occupied_co[enemy]))
    if setup is None:
        return None
    captures, spare, must, castles = setup
    regions = bounds.usable_regions(enemy, board.pawns & board.occupied_co[enemy], spare)[:spare] if spare else []
    rows: list[tuple[chess.PieceType, chess.Square]] = []
    goals: list[tuple[chess.PieceType, chess.Square]] = []
    for kind in chess.PIECE_TYPES:
        rows.extend((kind, s) for s in chess.scan_forward(masks[kind - 1] & ~bounds.frozen))
        goals.extend((kind, g) for g in chess.scan_forward(bounds.goal_mask[color, kind]))
    size = len(rows)
    if not rows or size != len(goals) + spare:
        return None
    base = [[_BIG] * size for _ in range(size)]
    for i, (kind, s) in enumerate(rows):
        row = bounds.unit_row(color, kind, s, None, goals, size, must, captures, regions, blocked)
        if castles & chess.BB_SQUARES[s]:
            for corner in chess.scan_forward(castles & masks[chess.ROOK - 1]):
                rook_to, king_to = _CASTLE[corner]
                if kind == chess.KING:
                    other = bounds.unit_row(color, kind, s, king_to, goals, size, must, captures, [], blocked)
                elif s == corner:
                    other = bounds.unit_row(color, kind, s, rook_to, goals, size, must, captures, regions, blocked)
                else:
                    continue
                row = [min(a, b) for a, b in zip(row, other, strict=True)]
        base[i] = row
    return SideRows(rows, goals, base, castles, captures, regions, blocked)


def route_squares(bounds: MoveBounds, board: chess.Board, color: chess.Color, moves: int) -> RouteSquares:
    """Per piece type, the squares ``color``'s pieces of that type can
    stand on in a game of ``moves`` moves of ``color`` from ``board`` (module docstring)."""
    side = side_rows(bounds, board, color)
    if side is None:
        return {kind: chess.BB_ALL for kind in chess.PIECE_TYPES}
    rows, goals, base, castles, captures, regions = (
        side.rows,
        side.goals,
        side.base,
        side.castles,
        side.captures,
        side.regions,
    )
    size = len(rows)
    change = RowChange(base)  # the least assignment of base, and of base with one row replaced
    if change.total > moves:
        return {kind: 0 for kind in chess.PIECE_TYPES}
    allowed = {kind: 0 for kind in chess.PIECE_TYPES}
    for i, (kind, s) in enumerate(rows):
        if kind == chess.KING and castles:
            allowed[chess.KING] = chess.BB_ALL
            continue
        for piece in (chess.PAWN, *_PROMOTED) if kind == chess.PAWN else (kind,):
            for t in chess.SQUARES:
                if allowed[piece] & chess.BB_SQUARES[t] or bounds.frozen & chess.BB_SQUARES[t]:
                    continue
                start = _cost_to(bounds, color, kind, piece, s, t, castles, captures)
                if start >= INF:
                    continue
                if change.within(
                    i, _row_through(bounds, color, piece, t, start, goals, size, regions, captures), moves
                ):
                    allowed[piece] |= chess.BB_SQUARES[t]
    return allowed


def row_through(
    bounds: MoveBounds,
    color: chess.Color,
    side: SideRows,
    i: int,
    t: chess.Square,
    only: chess.PieceType | None = None,
    approach: chess.Bitboard = 0,
) -> list[int]:
    """The row of ``side``'s unit ``i`` when its route goes through ``t`` (as itself, or,
    for a pawn, as a pawn or a piece it promotes to; with ``only``, as a unit of that
    type only): per column the least of ``_row_through`` over those types (module
    docstring, ``A_t(u)``). A king that may castle reaches ``t`` at least as fast as by
    walking or by castling first. With ``approach``, the unit, not a knight, enters
    ``t`` by a move from a square of ``approach``: its moves to ``t`` are at least its
    least moves to such a square, plus one."""
    kind, s = side.rows[i]
    size = len(side.rows)
    row = [_BIG] * size
    for piece in (chess.PAWN, *_PROMOTED) if kind == chess.PAWN else (kind,):
        if only is not None and piece != only or approach and piece == chess.KNIGHT:
            continue
        targets = list(chess.scan_forward(approach)) if approach else [t]
        start = min(
            _cost_to(bounds, color, kind, piece, s, q, side.castles, side.captures, side.blocked) for q in targets
        )
        if kind == chess.KING and side.castles & chess.BB_SQUARES[s]:
            for corner in chess.scan_forward(side.castles & ~chess.BB_SQUARES[s]):
                table = piece_distances(chess.KING, _CASTLE[corner][1], bounds.frozen | side.blocked)
                start = min(start, 1 + min(table[q] for q in targets))
        if approach and start < INF:
            start += 1
        if start >= INF:
            continue
        through = _row_through(
            bounds, color, piece, t, start, side.goals, size, side.regions, side.captures, side.blocked
        )
        row = [min(a, b) for a, b in zip(row, through, strict=True)]
    return row


def _cost_to(
    bounds: MoveBounds,
    color: chess.Color,
    kind: chess.PieceType,
    piece: chess.PieceType,
    s: chess.Square,
    t: chess.Square,
    castles: chess.Bitboard,
    captures: int,
    blocked: chess.Bitboard = 0,
) -> int:
    """Least own moves of the unit of type ``kind`` on ``s`` to stand on ``t`` as a ``piece``.
    A piece's distance between two squares avoiding the frozen ones is symmetric (its
    moves are), so the distances are read from the tables of the few start squares (``s``,
    a rook's castling square, the promotion squares) rather than of every ``t``."""
    if piece == chess.PAWN:
        return bounds.pawn_to(color, s, t, captures) if t != s else 0
    frozen = bounds.frozen
    if kind != chess.PAWN:
        cost = piece_distances(piece, s, frozen | blocked)[t]
        if castles & chess.BB_SQUARES[s] and kind == chess.ROOK and s in _CASTLE:
            cost = min(cost, piece_distances(piece, _CASTLE[s][0], frozen | blocked)[t])
        return cost
    table = [INF] * 64  # distances to t, on the promotion squares (all via_promotion reads)
    for q in _LAST_RANK[color]:
        table[q] = piece_distances(piece, q, frozen | blocked)[t]
    return bounds.via_promotion(color, s, tuple(table), captures, blocked)


def _row_through(
    bounds: MoveBounds,
    color: chess.Color,
    piece: chess.PieceType,
    t: chess.Square,
    start: int,
    goals: list[tuple[chess.PieceType, chess.Square]],
    size: int,
    regions: list[int],
    captures: int,
    blocked: chess.Bitboard = 0,
) -> list[int]:
    """The costs of a unit that stands on ``t`` as a ``piece`` after ``start`` own moves
    (a pawn on t may still end on a pawn square or promote); piece routes avoid ``blocked``."""
    row = [_BIG] * size
    for j, (target, g) in enumerate(goals):
        if piece == chess.PAWN:
            if target == chess.PAWN:
                row[j] = min(start + (0 if t == g else bounds.pawn_to(color, t, g, captures)), _BIG)
            elif target != chess.KING:
                row[j] = min(start + bounds.promotion(color, t, g, captures), _BIG)
        elif target == piece:
            row[j] = min(start + bounds.table(color, g, blocked)[t], _BIG)
    if piece == chess.KING:
        return row
    for j in range(len(goals), size):
        k = j - len(goals)
        extra = bounds.reach_cost(color, piece, t, regions[k], captures) if k < len(regions) else 0
        row[j] = min(start + extra, _BIG)
    return row

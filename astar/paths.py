"""Per-piece shortest paths on the empty board minus blocked squares.

Rule (Österlund, texel proof-game documentation, "A common way to construct a
heuristic function ... relaxed problem"): the number of moves a piece needs to go
from one square to another, assuming no other piece is on the board except those on
*blocked squares* (squares whose piece never moves during the whole proof game), is a
lower bound on the moves it needs in the real game. Kings also avoid the squares
attacked by blocked enemy pawns (the "king detour" example: those pawns attack the
squares for the whole game, so the king can never stand there).

Soundness: every real move of the piece is a move in the relaxed graph (a real path
never crosses a blocked square, because that square is occupied by a piece that never
moves), so the relaxed distance never exceeds the real one.

Pawns: a pawn needs at least ``dr`` moves to advance ``dr`` ranks (one less if it
starts on its second rank and can use a straight double step), at least ``df``
captures to change file by ``df``, so it can only reach squares with ``df <= dr``.
Pawn distances ignore blocked squares other than the target (weaker but still a
lower bound).

Tables depend only on (piece type, colour, blocked mask, forbidden mask, target) and
are cached.

For guides that are not bounds (:mod:`astar.nonadmissible`, :mod:`astar.initial_path`),
:func:`shortest_path_layers` gives every relaxed shortest path of a piece as a layered
graph and :func:`path_obstruction` the fewest pieces standing on one of them (texel's
"pieces that are blocking sliding pieces from getting to their target squares");
:func:`obstruction` is the same for one piece, remembered per pieces inside the
graph's region, the only ones it depends on.
"""

from __future__ import annotations

from functools import cache, lru_cache

import chess

from retro.core.attacks import attacks_mask

__all__ = [
    "INF",
    "attacks_mask",
    "piece_distances",
    "pawn_distance",
    "pawn_cone_mask",
    "king_forbidden_mask",
    "promotion_distance",
    "shortest_path_layers",
    "path_obstruction",
    "obstruction",
    "region_obstruction",
]

INF = 10_000


def _moves_mask(piece_type: chess.PieceType, square: chess.Square, blocked_mask: int) -> int:
    """Squares a piece reaches in one move on a board whose only pieces are blocked."""
    return attacks_mask(piece_type, square, blocked_mask) & ~blocked_mask


@lru_cache(maxsize=1 << 14)
def piece_distances(
    piece_type: chess.PieceType, target: chess.Square, blocked_mask: int, forbidden_mask: int = 0
) -> tuple[int, ...]:
    """``d[s]`` = fewest moves for a non-pawn piece from ``s`` to ``target`` (INF if none).

    Moves of these pieces are symmetric, so a breadth-first search from the target
    gives the distance *to* it. ``forbidden_mask`` squares may not be used (kings).
    """
    assert piece_type != chess.PAWN
    avoid = blocked_mask | forbidden_mask
    dist = [INF] * 64
    if avoid & chess.BB_SQUARES[target]:
        return tuple(dist)
    dist[target] = 0
    frontier = [target]
    d = 0
    while frontier:
        d += 1
        nxt: list[chess.Square] = []
        for sq in frontier:
            for to in chess.scan_forward(_moves_mask(piece_type, sq, blocked_mask) & ~forbidden_mask):
                if dist[to] == INF:
                    dist[to] = d
                    nxt.append(to)
        frontier = nxt
    # A king may stand on a forbidden square at the start (the initial position can
    # have it in check by a blocked pawn); it can still step off.
    for sq in chess.scan_forward(forbidden_mask & ~blocked_mask):
        steps = [dist[to] for to in chess.scan_forward(_moves_mask(piece_type, sq, blocked_mask) & ~forbidden_mask)]
        dist[sq] = min(INF, 1 + min(steps, default=INF))
    return tuple(dist)


def pawn_distance(color: chess.Color, start: chess.Square, target: chess.Square) -> int:
    """Lower bound on moves of a ``color`` pawn from ``start`` to ``target`` (INF if impossible)."""
    sr, tr = chess.square_rank(start), chess.square_rank(target)
    dr = tr - sr if color == chess.WHITE else sr - tr
    df = abs(chess.square_file(start) - chess.square_file(target))
    if dr < df or (dr == 0 and start != target):
        return INF
    second = 1 if color == chess.WHITE else 6
    if sr == second and dr - df >= 2:
        return dr - 1
    return dr


@cache
def pawn_cone_mask(color: chess.Color, top: chess.Square, max_captures: int) -> int:
    """Squares from which a ``color`` pawn can reach ``top`` using at most ``max_captures`` captures.

    Source: the "pawn cone" paragraphs of the texel documentation (including the
    truncated cone when captures are limited). Only ranks 2-7 hold pawns.
    """
    mask = 0
    for sq in chess.SQUARES:
        if not 1 <= chess.square_rank(sq) <= 6:
            continue
        sr, tr = chess.square_rank(sq), chess.square_rank(top)
        dr = tr - sr if color == chess.WHITE else sr - tr
        df = abs(chess.square_file(sq) - chess.square_file(top))
        if dr >= 0 and df <= dr and df <= max_captures:
            mask |= chess.BB_SQUARES[sq]
    return mask


def king_forbidden_mask(king_color: chess.Color, board: chess.Board, blocked_mask: int) -> int:
    """Squares attacked by enemy pawns that stand on blocked squares (never usable by the king)."""
    mask = 0
    for sq in chess.scan_forward(board.pawns & board.occupied_co[not king_color] & blocked_mask):
        mask |= chess.BB_PAWN_ATTACKS[not king_color][sq]
    return mask


@lru_cache(maxsize=1 << 16)
def promotion_distance(
    color: chess.Color,
    start: chess.Square,
    piece_type: chess.PieceType,
    target: chess.Square,
    blocked_mask: int,
    forbidden_mask: int = 0,
) -> int:
    """Lower bound on moves for a pawn on ``start`` to promote to ``piece_type`` and reach ``target``.

    Minimum over promotion squares of (pawn moves to the last rank, the promotion move
    included) + (moves of the new piece from there to ``target``).
    """
    last_rank = 7 if color == chess.WHITE else 0
    best = INF
    dist = piece_distances(piece_type, target, blocked_mask, forbidden_mask)
    for file in range(8):
        promo = chess.square(file, last_rank)
        if blocked_mask & chess.BB_SQUARES[promo]:
            continue
        d = pawn_distance(color, start, promo)
        if d < INF and dist[promo] < INF:
            best = min(best, d + dist[promo])
    return best


_Steps = tuple[tuple[chess.Square, int], ...]  # (next square, mask of the squares crossed or stopped on)


@lru_cache(maxsize=1 << 16)
def shortest_path_layers(
    piece_type: chess.PieceType, start: chess.Square, target: chess.Square, blocked_mask: int, forbidden_mask: int = 0
) -> tuple[int, tuple[tuple[chess.Square, _Steps], ...]]:
    """Every relaxed shortest path from ``start`` to ``target`` as a layered graph:
    ``(region, nodes)``, the region being every square the paths cross or stop on
    (the target excluded), the nodes ``(square, steps toward the target)`` nearest the
    target first, ``start`` last. Empty when ``target`` is ``start`` or unreachable."""
    dist = piece_distances(piece_type, target, blocked_mask, forbidden_mask)
    if not 0 < dist[start] < INF:
        return 0, ()
    layer, nodes, region = {start}, [], 0
    while layer:
        nxt = set()
        for sq in sorted(layer):
            steps = []
            for to in chess.scan_forward(attacks_mask(piece_type, sq, blocked_mask) & ~blocked_mask & ~forbidden_mask):
                if dist[to] == dist[sq] - 1:
                    crossed = chess.between(sq, to) if piece_type in (chess.BISHOP, chess.ROOK, chess.QUEEN) else 0
                    if to != target:
                        crossed |= chess.BB_SQUARES[to]
                        nxt.add(to)
                    steps.append((to, crossed))
                    region |= crossed
            nodes.append((sq, tuple(steps)))
        layer = nxt
    return region, tuple(reversed(nodes))


def path_obstruction(paths: tuple, occupied: int, placed: int) -> int:
    """Fewest pieces standing on one of the shortest ``paths`` (a
    :func:`shortest_path_layers` graph), in moves: 1 per piece of ``occupied``, 2 per
    piece also in ``placed`` (on its goal square: it must step aside and come back)."""
    best: dict[chess.Square, int] = {}
    for sq, steps in paths:
        cost = INF
        for to, crossed in steps:
            here = chess.popcount(crossed & occupied) + chess.popcount(crossed & placed) + best.get(to, 0)
            cost = min(cost, here)
        best[sq] = cost
    return best[paths[-1][0]] if paths else 0


def obstruction(
    piece_type: chess.PieceType,
    start: chess.Square,
    target: chess.Square,
    blocked_mask: int,
    occupied: int,
    placed: int = 0,
    forbidden_mask: int = 0,
) -> int:
    """:func:`path_obstruction` of the :func:`shortest_path_layers` graph from ``start``
    to ``target``; 0 when there is no such graph (the target reached or unreachable)."""
    region, _ = shortest_path_layers(piece_type, start, target, blocked_mask, forbidden_mask)
    return region_obstruction(
        piece_type, start, target, blocked_mask, forbidden_mask, occupied & region, placed & region
    )


@lru_cache(maxsize=1 << 18)
def region_obstruction(
    piece_type: chess.PieceType,
    start: chess.Square,
    target: chess.Square,
    blocked_mask: int,
    forbidden_mask: int,
    occupied: int,
    placed: int,
) -> int:
    """:func:`obstruction` given the pieces inside the graph's region only (``occupied``
    and ``placed`` masked by it: the pieces elsewhere stand on no path), remembered."""
    _, layers = shortest_path_layers(piece_type, start, target, blocked_mask, forbidden_mask)
    return path_obstruction(layers, occupied, placed)

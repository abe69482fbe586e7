"""The KRK move graph over all 2^19 position codes, as numpy arrays.

Same notions as :mod:`retro.krk.position` (which works on one position at a time), built
for every code at once from python-chess's tables (``BB_KING_ATTACKS``, the rank and file
slider tables, ``chess.between``):

* :func:`initially_legal_codes` -- a boolean per code; its sum is the paper's count of
  initially legal positions (section 4.2: 399,112);
* :func:`measure_codes` -- the paper's measure M per code (section 5.2);
* :func:`move_edges` -- every move between two initially legal positions, as parallel
  arrays ``(source code, destination code)``. A predecessor of ``d`` is any ``s`` with an
  edge ``s -> d``.

Tests compare these arrays with the one-position functions of :mod:`retro.krk.position`.
"""

from __future__ import annotations

import chess
import numpy as np

from retro.krk.position import CODE_COUNT, PFIX_SQUARES, rook_attacks, rook_distance

__all__ = ["initially_legal_codes", "measure_codes", "move_edges", "WHITE_TO_MOVE"]

WHITE_TO_MOVE = 1 << 18
"""Bit of the code that says White is to move."""

_LOW = np.arange(4096, dtype=np.int32)
"""The 12 low bits of a code: ``black_king << 6 | white_king``; also ``rook << 6 | black_king``
once shifted, or ``rook << 6 | white_king`` for black king moves (see :func:`move_edges`)."""


def _bits(mask: int) -> np.ndarray:
    """A bitboard as 64 booleans (index = square)."""
    return np.unpackbits(np.array([mask], dtype="<u8").view(np.uint8), bitorder="little").astype(bool)


def initially_legal_codes() -> np.ndarray:
    """Boolean array over codes: the paper's ``LegalKRKPosition`` (section 4.2)."""
    near = np.zeros((64, 64), dtype=bool)  # [white king, black king]: same or adjacent squares
    for square in chess.SQUARES:
        near[square] = _bits(chess.BB_KING_ATTACKS[square] | chess.BB_SQUARES[square])
    hits = np.zeros((64, 64, 64), dtype=bool)  # [rook, black king, white king]: rook attacks the black king
    for rook in chess.SQUARES:
        for king in chess.SQUARES:
            hits[rook, :, king] = _bits(rook_attacks(rook, chess.BB_SQUARES[king]))
    squares = np.arange(64)
    rooks, blacks, whites = squares[:, None, None], squares[None, :, None], squares[None, None, :]
    common = (rooks != whites) & (rooks != blacks) & ~near.T[None, :, :]
    legal = np.stack([common, common & ~hits])  # [turn] with turn 1 = White to move
    return legal.reshape(CODE_COUNT)


def measure_codes() -> np.ndarray:
    """The measure M of every code (int16), whatever its legality."""
    wk_target, bk_target, _ = PFIX_SQUARES
    king = np.array(
        [
            [2 * chess.square_distance(s, t) + chess.square_manhattan_distance(s, t) for s in chess.SQUARES]
            for t in (wk_target, bk_target)
        ],
        dtype=np.int16,
    )
    rook = np.array([rook_distance(s) for s in chess.SQUARES], dtype=np.int16)
    m = rook[:, None, None] + king[1][None, :, None] + king[0][None, None, :]
    return np.tile(m.reshape(-1), 2)


def move_edges(legal: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """All moves ``source -> destination`` between initially legal codes (int32 arrays).

    For each geometric move of one unit (king step from ``BB_KING_ATTACKS``, rook slide
    along a rank or file) the other two units range over all 4096 placements; a move is
    kept when both ends are initially legal and, for the rook, no king stands on a square
    of ``chess.between``. Landing on an occupied square always gives an initially illegal
    destination (same square, or the paper's "rook captured"), so it needs no test here.
    """
    sources: list[np.ndarray] = []
    destinations: list[np.ndarray] = []

    def keep(src: np.ndarray, dst: np.ndarray, ok: np.ndarray | None = None) -> None:
        mask = legal[src] & legal[dst]
        if ok is not None:
            mask &= ok
        sources.append(src[mask])
        destinations.append(dst[mask])

    for origin in chess.SQUARES:
        for target in chess.scan_forward(chess.BB_KING_ATTACKS[origin]):
            # White king: code = W | rook<<12 | bk<<6 | wk, the high 12 bits free.
            keep(WHITE_TO_MOVE | (_LOW << 6) | origin, (_LOW << 6) | target)
            # Black king: code = rook<<12 | bk<<6 | wk, rook and white king free.
            rook, white = _LOW >> 6, _LOW & 63
            keep((rook << 12) | (origin << 6) | white, WHITE_TO_MOVE | (rook << 12) | (target << 6) | white)
        for target in chess.scan_forward(rook_attacks(origin, 0)):
            between = _bits(chess.between(origin, target))
            blocked = between[_LOW >> 6] | between[_LOW & 63]
            keep(WHITE_TO_MOVE | (origin << 12) | _LOW, (target << 12) | _LOW, ~blocked)
    return np.concatenate(sources).astype(np.int32), np.concatenate(destinations).astype(np.int32)

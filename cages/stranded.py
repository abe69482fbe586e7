"""Stranded units: a unit away from home that no retraction can ever move.

**Rule.** In a state of a cage verification (:mod:`cages.verify`), call a unit *immovable*
when it is frozen by the verification's assumptions, or is a pawn on its own second rank,
or (recursively) every square it could have come from is held by an immovable unit, and
it takes no part in castling (a king on c1, g1, c8 or g8, a rook on d1, f1, d8 or f8 is
never counted). The squares a unit could have come from, whatever stands elsewhere:

* a pawn: the square behind it and the two diagonally behind it (the double step passes
  through the square behind);
* a knight: its knight-move squares; a king: its king-move squares;
* a bishop, rook or queen: the adjacent squares along its lines (every retraction of a
  slider passes through one of them);
* any piece on the other side's back rank (where a pawn of its colour promotes): also the
  squares behind it and diagonally behind it (an undone promotion).

If an immovable unit does not stand on a home square of its kind and colour
(:data:`cages.retractions.HOME_SQUARES`), the state is illegal in every extension.

**Proof.** A retraction of a unit puts it back on one of the squares listed for it
(:func:`cages.retractions.retractions`: a slider through the empty adjacent square on its
line, a step piece or pawn onto an empty square, an undone promotion onto an empty square
behind; uncaptured units are not put on the board, and castling is excluded above), so it
needs that square empty. A pawn on its own second rank has no retraction at all, and a
frozen unit is never moved by assumption. By induction on the order in which units were
found immovable, none of them ever moves in any retraction sequence from the state: each
square it could come from holds, at every later step back, the same immovable unit. So
every state reachable from this one contains the stranded unit on its square (it never
moves, so it never leaves the zone either), which is neither "no units left" nor "all
units on home squares": no failing state of the verifier is reachable. Skipping the state
drops no failure that a legal extension would need (the proof in :mod:`cages.verify`:
the states of a game undone from a legal extension would all be reachable from it and end
in a failing state), so a ``cage`` verdict stays sound; and a position that is itself such
a state is a cage. Example: a black bishop on d8 between Black's pawns c7 and e7
(``3b4/2p1p3``, one of the cages a person gave Retractor for Frolkin's dev2 163): c7 and e7
hold pawns on their second rank, so the bishop never moves, and d8 is not its home.
"""

from __future__ import annotations

import functools

import chess

from cages.retractions import HOME_SQUARES

__all__ = ["stranded"]

Units = dict[chess.Square, chess.Piece]

_CASTLING_KINGS = chess.BB_C1 | chess.BB_G1 | chess.BB_C8 | chess.BB_G8
_CASTLING_ROOKS = chess.BB_D1 | chess.BB_F1 | chess.BB_D8 | chess.BB_F8
_LINES = {
    chess.BISHOP: (-9, -7, 7, 9),
    chess.ROOK: (-8, -1, 1, 8),
    chess.QUEEN: (-9, -8, -7, -1, 1, 7, 8, 9),
}


def _behind(square: chess.Square, color: chess.Color) -> chess.Bitboard:
    """The square behind ``square`` for a pawn of ``color`` and the two diagonally behind."""
    back = -8 if color == chess.WHITE else 8
    origin = square + back
    if not 0 <= origin < 64:
        return chess.BB_EMPTY
    return chess.BB_SQUARES[origin] | chess.BB_PAWN_ATTACKS[not color][square]


def _adjacent_on_lines(square: chess.Square, steps: tuple[int, ...]) -> chess.Bitboard:
    near = chess.BB_EMPTY
    for step in steps:
        target = square + step
        if 0 <= target < 64 and chess.square_distance(square, target) == 1:
            near |= chess.BB_SQUARES[target]
    return near


@functools.lru_cache(maxsize=1 << 12)
def origins(square: chess.Square, piece: chess.Piece) -> chess.Bitboard | None:
    """Every square the unit could have come from (module docstring), or None for a unit
    that may castle."""
    kind, color = piece.piece_type, piece.color
    mask = chess.BB_SQUARES[square]
    if (kind == chess.KING and mask & _CASTLING_KINGS) or (kind == chess.ROOK and mask & _CASTLING_ROOKS):
        return None
    if kind == chess.PAWN:
        relative = chess.square_rank(square) if color == chess.WHITE else 7 - chess.square_rank(square)
        return chess.BB_EMPTY if relative <= 1 else _behind(square, color)
    if kind == chess.KNIGHT:
        found = chess.BB_KNIGHT_ATTACKS[square]
    elif kind == chess.KING:
        found = chess.BB_KING_ATTACKS[square]
    else:
        found = _adjacent_on_lines(square, _LINES[kind])
    if kind != chess.KING and mask & (chess.BB_RANK_8 if color == chess.WHITE else chess.BB_RANK_1):
        found |= _behind(square, color)
    return found


def stranded(units: Units, frozen: frozenset[chess.Square] = frozenset()) -> chess.Square | None:
    """The square of an immovable unit away from home (module docstring), or None."""
    occupied = chess.BB_EMPTY
    for square in units:
        occupied |= chess.BB_SQUARES[square]
    immovable = chess.BB_EMPTY
    for square in frozen:
        if square in units:
            immovable |= chess.BB_SQUARES[square]
    # Only a unit whose every origin is occupied can become immovable.
    candidates: dict[chess.Square, chess.Bitboard] = {}
    for square, piece in units.items():
        found = origins(square, piece)
        if found is None or found & ~occupied:
            continue
        if found == chess.BB_EMPTY:
            immovable |= chess.BB_SQUARES[square]  # a pawn on its second rank
        else:
            candidates[square] = found
    if not immovable or all(
        HOME_SQUARES[units[sq]] & chess.BB_SQUARES[sq] for sq in (*candidates, *frozen) if sq in units
    ):
        return None  # no seed, or every unit that could become immovable is at home anyway
    grown = True
    while grown:
        grown = False
        for square, found in candidates.items():
            if not immovable & chess.BB_SQUARES[square] and found & ~immovable == 0:
                immovable |= chess.BB_SQUARES[square]
                grown = True
    for square in chess.SquareSet(immovable):
        if not HOME_SQUARES[units[square]] & chess.BB_SQUARES[square]:
            return square
    return None

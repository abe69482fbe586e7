"""Retractions of a partial position under the extension principle (Hwa 2022, §1-2).

A partial position is a set of units on squares, with no side to move and no other
units. For cage verification we must consider every retraction that is legal in
*some extension* of the position (units added on empty squares), so:

* A unit may retract to any empty square its kind could have come from: sliders
  through empty squares only (units on the board block; added units would only block
  more), kings and knights one step, pawns one step back, two steps back from their
  fourth rank (both squares empty), diagonally back (a capture: the captured unit is
  *not* added, §2 principle 3, which also covers en passant), and a piece on the last
  rank back to a pawn on the seventh (promotion, straight or capturing).
* Castling: a king on g1 with its rook on f1, e1 and h1 empty, retracts to Ke1 + Rh1
  (O-O-O: king c1, rook d1, with a1, b1, e1 empty); Black alike. The king must not stand
  in unblockable check on its home square (one may not castle out of check).
* Only *unblockable* checks count (§2 principle 1): by a pawn, knight or king, or by a
  slider with no square between it and the king. A check along a line with empty
  squares between could be blocked by an added unit, so it constrains nothing.

Sides do not alternate (principle 2): the other side's moves may have been made by
units outside the partial position. The one exception, a king left in unblockable
check, is handled by :mod:`cages.verify`.
"""

from __future__ import annotations

import dataclasses

import chess

from astar.paths import attacks_mask

__all__ = ["Retraction", "unblockable_checkers", "retractions", "HOME_SQUARES"]

Units = dict[chess.Square, chess.Piece]


def _home_squares() -> dict[chess.Piece, chess.Bitboard]:
    start = chess.Board()
    homes: dict[chess.Piece, chess.Bitboard] = {}
    for square, piece in start.piece_map().items():
        homes[piece] = homes.get(piece, 0) | chess.BB_SQUARES[square]
    return homes


HOME_SQUARES = _home_squares()
"""Where a unit of each kind and colour stands in the initial position."""


@dataclasses.dataclass(frozen=True)
class Retraction:
    """The unit on ``to`` goes back to ``from_square`` as ``piece`` (a pawn for an undone
    promotion); ``rook`` is the castling rook's (to, from) for castling. ``capture``
    marks a pawn's capturing move (nothing is put back: uncaptures are implicit, so a
    piece's capture and quiet move give the same partial position and only the quiet
    one is listed)."""

    to: chess.Square
    from_square: chess.Square
    piece: chess.Piece
    capture: bool = False
    rook: tuple[chess.Square, chess.Square] | None = None

    def notation(self, moved: chess.Piece) -> str:
        """The move that was played, forward: ``Ka2-a1``, ``b2xa3``, ``c7xd8=Q``, ``O-O``."""
        if self.rook is not None:
            return "O-O" if chess.square_file(self.to) == 6 else "O-O-O"
        letter = "" if self.piece.piece_type == chess.PAWN else self.piece.symbol().upper()
        sep = "x" if self.capture else "-"
        promotion = f"={moved.symbol().upper()}" if self.piece.piece_type != moved.piece_type else ""
        return f"{letter}{chess.square_name(self.from_square)}{sep}{chess.square_name(self.to)}{promotion}"


def unblockable_checkers(units: Units, king_square: chess.Square, king_color: chess.Color) -> list[chess.Square]:
    """Squares of the enemy units that give the king on ``king_square`` an unblockable check."""
    checkers = []
    for square, piece in units.items():
        if piece.color == king_color:
            continue
        kind = piece.piece_type
        if kind == chess.PAWN:
            attacks = chess.BB_PAWN_ATTACKS[piece.color][square]
        elif kind == chess.KNIGHT:
            attacks = chess.BB_KNIGHT_ATTACKS[square]
        elif kind == chess.KING:
            attacks = chess.BB_KING_ATTACKS[square]
        else:
            adjacent = chess.BB_KING_ATTACKS[square] & chess.BB_SQUARES[king_square]
            if not adjacent:
                continue
            diagonal = chess.square_file(square) != chess.square_file(king_square) and chess.square_rank(
                square
            ) != chess.square_rank(king_square)
            if (kind == chess.BISHOP and diagonal) or (kind == chess.ROOK and not diagonal) or kind == chess.QUEEN:
                checkers.append(square)
            continue
        if attacks & chess.BB_SQUARES[king_square]:
            checkers.append(square)
    return checkers


def _occupied(units: Units) -> chess.Bitboard:
    mask = 0
    for square in units:
        mask |= chess.BB_SQUARES[square]
    return mask


def retractions(units: Units, square: chess.Square) -> list[Retraction]:
    """Every retraction of the unit on ``square`` (see the module docstring)."""
    piece = units[square]
    occupied = _occupied(units)
    empty = chess.BB_ALL & ~occupied
    color, kind = piece.color, piece.piece_type
    result: list[Retraction] = []
    if kind == chess.PAWN:
        back = -8 if color == chess.WHITE else 8
        rank = chess.square_rank(square)
        relative = rank if color == chess.WHITE else 7 - rank
        if relative >= 2:  # the square behind is on the 2nd rank or higher
            one = square + back
            if empty & chess.BB_SQUARES[one]:
                result.append(Retraction(square, one, piece))
                if relative == 3 and empty & chess.BB_SQUARES[one + back]:
                    result.append(Retraction(square, one + back, piece))
            for origin in chess.SquareSet(chess.BB_PAWN_ATTACKS[not color][square] & empty):
                result.append(Retraction(square, origin, piece, capture=True))
        return result
    if kind == chess.KNIGHT:
        origins = chess.BB_KNIGHT_ATTACKS[square] & empty
    elif kind == chess.KING:
        origins = chess.BB_KING_ATTACKS[square] & empty
    else:
        origins = attacks_mask(kind, square, occupied) & empty
    for origin in chess.SquareSet(origins):
        result.append(Retraction(square, origin, piece))
    if kind != chess.KING and chess.square_rank(square) == (7 if color == chess.WHITE else 0):
        pawn = chess.Piece(chess.PAWN, color)
        below = square + (-8 if color == chess.WHITE else 8)
        if empty & chess.BB_SQUARES[below]:
            result.append(Retraction(square, below, pawn))
        for origin in chess.SquareSet(chess.BB_PAWN_ATTACKS[not color][square] & empty):
            result.append(Retraction(square, origin, pawn, capture=True))
    if kind == chess.KING:
        result.extend(_castling(units, square, piece, empty))
    return result


def _castling(units: Units, square: chess.Square, king: chess.Piece, empty: chess.Bitboard) -> list[Retraction]:
    home_rank = 0 if king.color == chess.WHITE else 7
    e, rook = chess.square(4, home_rank), chess.Piece(chess.ROOK, king.color)
    result = []
    for king_to, rook_to, rook_from, must_be_empty in (
        (6, 5, 7, (4, 7)),
        (2, 3, 0, (4, 0, 1)),
    ):
        if square != chess.square(king_to, home_rank):
            continue
        if units.get(chess.square(rook_to, home_rank)) != rook:
            continue
        if all(empty & chess.BB_SQUARES[chess.square(f, home_rank)] for f in must_be_empty):
            result.append(
                Retraction(square, e, king, rook=(chess.square(rook_to, home_rank), chess.square(rook_from, home_rank)))
            )
    return result

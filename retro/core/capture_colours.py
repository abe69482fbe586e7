"""The colours of the squares where captures happened (the static rule ``capture-colours``).

Rule. Let Y be a side and X its opponent. Let ``F_c`` be the number of Y's pieces that are
promoted pawns which can only have promoted by a capture onto a square of colour ``c``
(:func:`forced_capture_colours`), and ``k_c`` be 1 when X has no bishop on squares of
colour ``c`` on the board, else 0. Then for each colour ``c``::

    F_c + k_(not c) <= X's missing units.

(Keym, dev2 335 before Black's ...Bb1xNa2: Black's bishop on b1 can only be a pawn that
promoted by a2xb1, a capture on a light square, and White, missing only the dark-squared
bishop, has no unit that can have been taken there: so the last move was not Bb1xNa2.)

Which promoted pieces count. A piece of Y (not a king) that no initial unit of its type
and colour can reach is a promoted pawn (:func:`retro.core.rules.promoted_pieces`, by
the argument of :func:`retro.core.rules.promotion_captures`, with its regions that never
step across sealed squares, walls and gates). It became a
piece on a square q of Y's promotion rank whose region (for its type) holds it, coming
from an origin of q that is not sealed. When every such (q, origin) is a diagonal step
(a capture) and every such q has the colour ``c``, the piece counts in ``F_c``.

Proof. Every X unit that is not on the board was captured by Y (a unit leaves the board
only by capture; a promoted pawn is still on the board as a piece), and each capture
removes one X unit, so Y made exactly ``missing`` captures, of distinct X units. The
pieces counted in ``F_c`` are distinct promotions, so distinct capturing moves, each onto
a square of colour ``c``, each taking the X unit standing there. A bishop stands only on
squares of one colour all game (a promoted bishop too, from its promotion square on), so
none of those units was a bishop of the other colour. When X has no bishop of colour
``not c`` on the board, X's initial bishop of that colour (a unit that never changes type
or square colour) was captured, on a square of colour ``not c``: one more capture, not
among the ``F_c``. So Y captured at least ``F_c + k_(not c)`` distinct X units.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

import chess

if TYPE_CHECKING:
    from retro.core.rules import PromotedPiece

__all__ = ["forced_capture_colours", "capture_colours_objection"]

_COLOURS = ((chess.BB_LIGHT_SQUARES, "light"), (chess.BB_DARK_SQUARES, "dark"))


def _single_colour(squares: chess.Bitboard) -> chess.Bitboard | None:
    """The colour mask (light or dark squares) holding every square of ``squares``, or None."""
    for mask, _ in _COLOURS:
        if squares and not squares & ~mask:
            return mask
    return None


def forced_capture_colours(pieces: Iterable[PromotedPiece]) -> dict[int, int]:
    """Per colour mask (:data:`chess.BB_LIGHT_SQUARES` / :data:`chess.BB_DARK_SQUARES`), how
    many of the promoted ``pieces`` (one side's, :func:`retro.core.rules.promoted_pieces`)
    can only have promoted by a capture onto a square of that colour (see the module
    docstring)."""
    counts: dict[int, int] = {}
    for piece in pieces:
        squares = 0
        for promotion, _, capture in piece.promotions:
            if not capture:
                break
            squares |= chess.BB_SQUARES[promotion]
        else:
            colour = _single_colour(squares)
            if colour is not None:
                counts[colour] = counts.get(colour, 0) + 1
    return counts


def capture_colours_objection(
    board: chess.Board, promoted: Mapping[chess.Color, Iterable[PromotedPiece]]
) -> str | None:
    """The rule of the module docstring: the reason the position is illegal, or None.
    ``promoted``: each side's promoted pieces (:func:`retro.core.rules.promoted_pieces`)."""
    for color in chess.COLORS:
        opponent = not color
        missing = 16 - chess.popcount(board.occupied_co[opponent])
        if missing > chess.popcount(board.occupied_co[color] & ~board.pawns & ~board.kings):
            continue  # F_c + k is at most the pieces of ``color`` plus one: the rule cannot fire
        forced = forced_capture_colours(promoted[color])
        if not forced:
            continue
        for mask, name in _COLOURS:
            other = chess.BB_ALL & ~mask
            bishop_gone = not board.pieces_mask(chess.BISHOP, opponent) & other
            needed = forced.get(mask, 0) + bishop_gone
            if forced.get(mask, 0) and needed > missing:
                side, them = ("white", "black") if color == chess.WHITE else ("black", "white")
                return (
                    f"{forced[mask]} {side} piece(s) promoted by capturing on {name} squares"
                    + (
                        f" and {them}'s {'dark' if name == 'light' else 'light'}-squared bishop was captured"
                        if bishop_gone
                        else ""
                    )
                    + f": {needed} captures of {them} units, but {them} is missing only {missing}"
                )
    return None

"""Reading a last-move problem: which position, and which side made the last move.

A problem is given in one of two forms, and neither can be misread:

* **A bare piece placement** (the first FEN field, as problems are printed). The side
  that made the last move comes from ``retract`` (``w``, ``b``, or ``None`` for both);
  castling rights and the en-passant square are not given, so the solver tries each
  that fits (:func:`retro.lastmove.solver.diagram_positions`).
* **A full FEN** (4 to 6 fields). Its side to move is the side that did *not* make the
  last move: ``... b - - 0 1`` means White moved last. Its castling rights and
  en-passant square are taken as given (one that cannot be true of the board is refused,
  never dropped); the move counters are ignored (problems print
  ``0 1`` without meaning it). A ``retract`` that names the other side, or both sides,
  contradicts the FEN and is an error, never silently overridden.

In batch mode a line is ``<placement or FEN> [retract=w|b|both]``; a line of two or
three fields (``<placement> w``) is refused, because ``w`` could mean either "White to
move" (so Black moved last) or "White moved last".
"""

from __future__ import annotations

import dataclasses

import chess

from retro.core.position import InvalidFenError, parse_board, parse_fen, require_stated_fields

__all__ = ["Problem", "read_problem", "SIDE_NAMES", "parse_side"]

SIDE_NAMES: dict[str, chess.Color | None] = {
    "w": chess.WHITE,
    "white": chess.WHITE,
    "b": chess.BLACK,
    "black": chess.BLACK,
    "both": None,
}
"""The accepted names of the side that made the last move (``None``: try both sides)."""


@dataclasses.dataclass(frozen=True)
class Problem:
    """A board, the side that made the last move (``None``: both are tried) and whether
    the board's side to move, castling rights and en-passant square are given (full FEN)."""

    board: chess.Board
    retract: chess.Color | None
    full_fen: bool

    @property
    def fen(self) -> str:
        return self.board.fen() if self.full_fen else self.board.board_fen()


def parse_side(name: str) -> chess.Color | None:
    """``w``/``white``, ``b``/``black`` or ``both`` (None)."""
    key = name.strip().lower()
    if key not in SIDE_NAMES:
        raise InvalidFenError(f"the side that moved last must be w, b or both, got {name!r}")
    return SIDE_NAMES[key]


def _side_name(color: chess.Color) -> str:
    return "White" if color == chess.WHITE else "Black"


def read_problem(text: str, retract: str | None = None) -> Problem:
    """Read a placement or a full FEN, optionally followed by ``retract=w|b|both``;
    ``retract`` is the command line's ``--retract`` (None when not given). A side given
    both on the line and by ``retract`` must agree."""
    fields = text.split()
    if fields and fields[-1].lower().startswith("retract="):
        named = fields.pop()[len("retract=") :]
        if retract is not None and parse_side(named) != parse_side(retract):
            raise InvalidFenError(f"the line says retract={named} but --retract says {retract}")
        retract = named
    if not fields:
        raise InvalidFenError("empty board")
    if len(fields) in (2, 3):
        raise InvalidFenError(
            f"{len(fields)} fields: give a bare piece placement or a full FEN (4 to 6 fields); "
            f"to name the side that made the last move after a placement, write retract=w or use --retract"
        )
    if len(fields) == 1:
        return Problem(parse_board(fields[0]), parse_side(retract) if retract is not None else None, False)
    position = parse_fen(" ".join(fields))
    require_stated_fields(position)  # the FEN's rights are the user's statement: refused, never dropped
    board = position.board
    mover = not board.turn
    if retract is not None and parse_side(retract) != mover:
        raise InvalidFenError(
            f"--retract {retract} contradicts the FEN: {_side_name(board.turn)} is to move there, so "
            f"{_side_name(mover)} made the last move (drop --retract, or give only the piece placement)"
        )
    return Problem(board, mover, True)

"""Parsing positions from user input, with errors a user understands.

A FEN given to ``retro`` may have 4 to 6 fields (piece placement, side to move,
castling, en passant, then optionally the halfmove clock and the fullmove number).
Tromp's ChessPositionRanking samples reuse fields 5 and 6 for the rank of the
position among its equivalents and its multiplicity ``m``; those two numbers are kept
as :attr:`Position.field5` and :attr:`Position.field6` and never interpreted as clocks
by this module (callers that know the input is a Tromp sample read
:attr:`Position.multiplicity`).

Problems and cages are often given as a bare placement (``8/8/8/8/8/1P6/1PkPP3/KR1b4``),
which :func:`parse_board` accepts.

What is checked here is *syntax*: eight ranks of eight files, known piece letters, a
side to move, a castling field made of ``KQkq`` (or ``-``), an en-passant field that is
``-`` or a square. Whether the position could arise in a game is the business of
:mod:`retro.core.rules`; in particular a position with the wrong number of kings parses
here (``retro check`` reports it as illegal) unless ``require_kings=True`` is asked
for by commands that must play moves on the board.

The raw castling and en-passant fields are kept as given, because python-chess
silently cleans castling rights that cannot be valid and the static rules must be able
to object to them.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Hashable

import chess

__all__ = [
    "InvalidFenError",
    "InvalidPositionError",
    "Position",
    "parse_fen",
    "parse_board",
    "excerpt",
    "require_valid",
    "require_stated_fields",
    "stated_fields_objection",
    "position_key",
    "castling_field_objection",
    "ep_field_objection",
]

_PIECE_CHARS = set("PNBRQKpnbrqk")
_CASTLING_RE = re.compile(r"^(-|K?Q?k?q?)$")
_EP_RE = re.compile(r"^(-|[a-h][1-8])$")


class InvalidFenError(ValueError):
    """Raised for input that is not a well-formed FEN or board; the message says why."""


class InvalidPositionError(InvalidFenError):
    """Raised by :func:`require_valid` for a well-formed FEN of a position no game reaches
    for a reason anyone can see (two white kings, 24 black units, ...)."""


def excerpt(text: str, limit: int = 60) -> str:
    """``text`` fit for a one-line message: characters that are not printable (NUL,
    control bytes, line breaks) written as Python escapes, and anything beyond ``limit``
    characters cut, saying how long the whole was."""
    shown = "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text[:limit])
    return shown if len(text) <= limit else f"{shown}... ({len(text):,} characters)"


def _quoted(text: str) -> str:
    return f"'{excerpt(text)}'"


@dataclasses.dataclass(frozen=True)
class Position:
    """A parsed position: the python-chess board plus the raw fields python-chess drops."""

    board: chess.Board
    castling_field: str
    ep_field: str
    field5: int | None = None
    field6: int | None = None

    @property
    def fen(self) -> str:
        """The 4-field FEN (placement, side, castling as given, ep as given)."""
        return " ".join([self.board.board_fen(), "w" if self.board.turn else "b", self.castling_field, self.ep_field])

    def clocked_board(self) -> chess.Board:
        """A copy of the board with fields 5 and 6 as the halfmove clock and the move
        number, for callers that know the input is a game position (``proofgame -i``),
        not a Tromp sample line."""
        board = self.board.copy(stack=False)
        if self.field5 is not None:
            board.halfmove_clock = self.field5
        if self.field6 is not None:
            if self.field6 < 1:
                raise InvalidFenError(f"the move number (field 6) must be at least 1, got {self.field6}")
            board.fullmove_number = self.field6
        return board

    @property
    def multiplicity(self) -> int:
        """Tromp's multiplicity m (field 6 of a sample line); 1 when absent."""
        return self.field6 if self.field6 is not None else 1

    @property
    def raw_castling_mask(self) -> chess.Bitboard:
        """The rook squares named by the castling field, whether or not they make sense."""
        mask = 0
        for ch in self.castling_field.replace("-", ""):
            mask |= {"K": chess.BB_H1, "Q": chess.BB_A1, "k": chess.BB_H8, "q": chess.BB_A8}[ch]
        return mask


def _check_placement(placement: str) -> None:
    ranks = placement.split("/")
    if len(ranks) != 8:
        raise InvalidFenError(f"expected 8 ranks separated by '/', got {len(ranks)} in {_quoted(placement)}")
    for index, rank in enumerate(ranks):
        rank_number = 8 - index
        files = 0
        previous_digit = False
        for ch in rank:
            if ch in "0123456789":
                if ch in "09" or previous_digit:
                    raise InvalidFenError(f"rank {rank_number}: bad empty-square count in {_quoted(rank)}")
                files += int(ch)
                previous_digit = True
            elif ch in _PIECE_CHARS:
                files += 1
                previous_digit = False
            else:
                raise InvalidFenError(f"rank {rank_number}: unknown piece letter {_quoted(ch)} in {_quoted(rank)}")
        if files != 8:
            raise InvalidFenError(f"rank {rank_number}: {_quoted(rank)} covers {files} files, not 8")


def _check_kings(board: chess.Board) -> None:
    for color, name in ((chess.WHITE, "white"), (chess.BLACK, "black")):
        count = chess.popcount(board.kings & board.occupied_co[color])
        if count != 1:
            raise InvalidFenError(f"the position has {count} {name} kings, not 1")


# python-chess's Board.status() flags that make a position unreachable at a glance, with
# what to tell the user; castling and en-passant fields are left to ``retro check``.
_INVALID = {
    chess.STATUS_NO_WHITE_KING: "no white king",
    chess.STATUS_NO_BLACK_KING: "no black king",
    chess.STATUS_TOO_MANY_KINGS: "more than one king of a colour",
    chess.STATUS_TOO_MANY_WHITE_PAWNS: "more than 8 white pawns",
    chess.STATUS_TOO_MANY_BLACK_PAWNS: "more than 8 black pawns",
    chess.STATUS_PAWNS_ON_BACKRANK: "pawns on the first or last rank",
    chess.STATUS_TOO_MANY_WHITE_PIECES: "more than 16 white units",
    chess.STATUS_TOO_MANY_BLACK_PIECES: "more than 16 black units",
    chess.STATUS_OPPOSITE_CHECK: "the side not to move is in check",
    chess.STATUS_TOO_MANY_CHECKERS: "more than two pieces give check",
}


def position_key(board: chess.Board) -> Hashable:
    """What makes two positions the same (FIDE Article 9.2.3): the same units on the same
    squares, the same side to move, the same castling rights and the same en-passant
    capture possible; the move counters and the history do not count. It is python-chess's
    transposition key (the piece masks, the side to move, the clean castling rights, and
    the en-passant square only when a legal en-passant capture exists). The searches'
    transposition tables and memos key positions by it; the A* search keeps an equivalent
    tuple of its own (:func:`astar.heuristic.node_key`), whose layout lets a child's
    key be computed from its parent's without playing the move."""
    return board._transposition_key()


def castling_field_objection(board: chess.Board, castling_field: str) -> str | None:
    """Why the castling field cannot be true of ``board``, or None: every castling right
    has its king on e1/e8 and its rook on the corner. Sound: a right is lost for good
    when the king or that rook moves (or the rook is captured)."""
    for letter in castling_field.replace("-", ""):
        color = letter.isupper()
        king_home = chess.E1 if color else chess.E8
        rook_home = {"K": chess.H1, "Q": chess.A1, "k": chess.H8, "q": chess.A8}[letter]
        if board.piece_at(king_home) != chess.Piece(chess.KING, color):
            return f"castling right {letter} without the king on {chess.square_name(king_home)}"
        if board.piece_at(rook_home) != chess.Piece(chess.ROOK, color):
            return f"castling right {letter} without the rook on {chess.square_name(rook_home)}"
    return None


def ep_field_objection(board: chess.Board, ep_field: str) -> str | None:
    """Why the en-passant field cannot be true of ``board``, or None. An en-passant square
    follows a double step of the side that just moved: it lies on rank 6 (White to move)
    or 3 (Black to move), with that side's pawn in front of it and it and the pawn's
    starting square empty; and before that double step the side now to move was not in
    check. Sound: that is what a double step leaves behind, the square is cleared by any
    other move (so the field states the last move; see :mod:`astar.proofgame`), and the
    side not to move is never in check."""
    if ep_field == "-":
        return None
    ep = chess.parse_square(ep_field)
    rank, step = (5, -8) if board.turn == chess.WHITE else (2, 8)
    if chess.square_rank(ep) != rank:
        return f"en-passant square {ep_field} is not on rank {rank + 1}"
    pawn_square, origin = ep + step, ep - step
    if board.piece_at(pawn_square) != chess.Piece(chess.PAWN, not board.turn):
        return f"en-passant square {ep_field} without a pawn that just made a double step"
    if board.occupied & (chess.BB_SQUARES[ep] | chess.BB_SQUARES[origin]):
        return f"en-passant square {ep_field}: the squares the pawn passed are occupied"
    before = board.copy(stack=False)
    before.remove_piece_at(pawn_square)
    before.set_piece_at(origin, chess.Piece(chess.PAWN, not board.turn))
    king = before.king(board.turn)
    if king is not None and before.attackers_mask(not board.turn, king):
        side = "white" if board.turn == chess.WHITE else "black"
        return (
            f"en-passant square {ep_field}: before the double step "
            f"{chess.square_name(origin)}-{chess.square_name(pawn_square)} the {side} king was already in check"
        )
    return None


def stated_fields_objection(position: Position) -> str | None:
    """Why the FEN's castling or en-passant field cannot be true of its board, or None
    (:func:`castling_field_objection`, :func:`ep_field_objection`)."""
    return castling_field_objection(position.board, position.castling_field) or ep_field_objection(
        position.board, position.ep_field
    )


def require_stated_fields(position: Position) -> None:
    """Raise :class:`InvalidPositionError` when the FEN's castling or en-passant field
    cannot be true of its board (:func:`stated_fields_objection`). A full FEN's fields are
    the user's statement: commands that answer about the position (rather than judge its
    legality, as ``retro check`` and ``retro proofgame`` do) refuse such a FEN instead of
    answering about the position python-chess would make of it by dropping the field."""
    reason = stated_fields_objection(position)
    if reason:
        raise InvalidPositionError(f"invalid position: {reason} (see `retro check`)")


def require_valid(board: chess.Board) -> None:
    """Raise :class:`InvalidPositionError` for a position that breaks the basic rules
    (python-chess's ``Board.status()``): one king each, at most 8 pawns and 16 units a
    side, no pawn on a back rank, the side not to move not in check, at most two
    checkers. Commands that play or search from a position call it, so that they never
    answer about a board that is not a chess position. Finer legality (for example more
    promoted pieces than missing pawns) is a verdict of ``retro check``, not an input
    error: unwinnability is asked of such test positions too (the CHA test vectors)."""
    status = board.status()
    reasons = [text for flag, text in _INVALID.items() if status & flag]
    if reasons:
        raise InvalidPositionError(f"invalid position: {'; '.join(reasons)} (see `retro check`)")


def parse_board(text: str, *, require_kings: bool = False) -> chess.Board:
    """Parse a bare piece placement (the first FEN field; further fields are ignored
    only if the text is a full FEN, use :func:`parse_fen` for that). White to move."""
    placement = text.strip().split()[0] if text.strip() else ""
    if not placement:
        raise InvalidFenError("empty board")
    _check_placement(placement)
    board = chess.Board(None)
    board.set_board_fen(placement)
    if require_kings:
        _check_kings(board)
    return board


def parse_fen(text: str, *, require_kings: bool = False, valid: bool = False) -> Position:
    """Parse a FEN with 4 to 6 fields (see the module docstring); with ``valid``,
    also :func:`require_valid` and :func:`require_stated_fields`."""
    fields = text.strip().split()
    if not fields:
        raise InvalidFenError("empty FEN")
    if len(fields) < 4 or len(fields) > 6:
        raise InvalidFenError(f"a FEN has 4 to 6 fields, got {len(fields)}: {_quoted(text.strip())}")
    placement, side, castling, ep = fields[:4]
    _check_placement(placement)
    if side not in ("w", "b"):
        raise InvalidFenError(f"side to move must be 'w' or 'b', got {_quoted(side)}")
    if not _CASTLING_RE.match(castling):
        raise InvalidFenError(
            f"castling field must be '-' or letters from 'KQkq' in that order, got {_quoted(castling)}"
        )
    if not _EP_RE.match(ep):
        raise InvalidFenError(f"en-passant field must be '-' or a square, got {_quoted(ep)}")
    numbers: list[int] = []
    for name, value in zip(("field 5", "field 6"), fields[4:], strict=False):
        if not re.fullmatch(r"[0-9]+", value):
            raise InvalidFenError(f"{name} must be a non-negative integer, got {_quoted(value)}")
        numbers.append(int(value))
    board = chess.Board(None)
    board.set_board_fen(placement)
    board.turn = side == "w"
    board.castling_rights = Position(board, castling, ep).raw_castling_mask
    board.ep_square = None if ep == "-" else chess.parse_square(ep)
    if require_kings:
        _check_kings(board)
    position = Position(
        board=board,
        castling_field=castling,
        ep_field=ep,
        field5=numbers[0] if numbers else None,
        field6=numbers[1] if len(numbers) > 1 else None,
    )
    if valid:
        require_valid(board)
        require_stated_fields(position)
    return position

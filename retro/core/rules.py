"""Static illegality rules: properties of a position that no game can produce.

Each rule is a function ``rule(position) -> str | None`` returning the reason the
position is illegal, or None. Every rule states below why it is **sound**: it only
fires on positions that cannot arise from the initial position by legal moves.
:func:`check_static` applies them in the order of :data:`RULES` and reports the first
that fires. Sources: texel's static rules (paper 002, "Proving illegality": king
capture, more than 16 units, pawns plus queens above 9, double pawns against 16
units) generalized as described in each rule, python-chess's ``Board.status`` checks,
and the reverse move generator (paper 002, "Analyzing possible last moves").

Terms: the side to move is "them" below only in :func:`opponent_in_check`; "X" is
the side that made the last move (not to move). "Excess" pieces of a side are those
beyond the initial set (queens beyond 1, rooks beyond 2, knights beyond 2, bishops
beyond 1 per square colour); each of them is a promoted pawn.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from typing import NamedTuple

import chess

from retro.core.assignment import min_cost_assignment
from retro.core.capture_colours import capture_colours_objection
from retro.core.pawn_fates import ANY, DARK, LIGHT, PromotionFiles, excess_pieces, pawn_fates_feasible
from retro.core.position import Position, castling_field_objection, ep_field_objection
from retro.core.revmoves import retractions
from retro.core.status import CheckStatus

__all__ = [
    "NO_OBJECTION",
    "StaticVerdict",
    "RULES",
    "RULE_NAMES",
    "PromotedPiece",
    "check_static",
    "min_pawn_captures",
    "promoted_pieces",
]

_HOME_RANK_PAWNS = {chess.WHITE: chess.BB_RANK_2, chess.BLACK: chess.BB_RANK_7}
_PROMOTION_RANK = {chess.WHITE: 7, chess.BLACK: 0}


#: The reason of an ``unknown`` static verdict, in the record and in the text alike.
NO_OBJECTION = "no static objection"


@dataclasses.dataclass(frozen=True)
class StaticVerdict:
    """``status`` is ``illegal`` (with the ``rule`` name and a ``reason``) or ``unknown``
    (no static objection: the position may still be illegal for deeper reasons)."""

    fen: str
    status: CheckStatus
    rule: str | None = None
    reason: str = ""

    def as_dict(self) -> dict[str, str | None]:
        """The JSON record of ``retro check``."""
        return {"fen": self.fen, "status": self.status, "rule": self.rule, "reason": self.reason}


@dataclasses.dataclass(frozen=True)
class _Facts:
    board: chess.Board
    castling_field: str
    ep_field: str

    @functools.cached_property
    def sealed(self) -> tuple[chess.Bitboard, str | None]:
        """:func:`_sealed_squares` of the board, shared by the rules that use it."""
        return _sealed_squares(self.board)

    @functools.cached_property
    def promoted(self) -> dict[chess.Color, list[PromotedPiece]]:
        """:func:`promoted_pieces` per colour, shared by the rules that use it."""
        sealed, _ = self.sealed
        return {color: promoted_pieces(self.board, sealed, color) for color in chess.COLORS}

    @functools.cached_property
    def confined_promoted(self) -> dict[chess.Color, tuple[int, int, int]]:
        """:func:`_forced_excess` per colour, shared by the rules that use it."""
        sealed, _ = self.sealed
        return {color: _forced_excess(self.board, sealed, color) for color in chess.COLORS}


def _side_name(color: chess.Color) -> str:
    return "white" if color else "black"


def _count(board: chess.Board, piece_type: chess.PieceType, color: chess.Color) -> int:
    return chess.popcount(board.pieces_mask(piece_type, color))


def _excess_pieces(board: chess.Board, color: chess.Color) -> tuple[int, int]:
    """(excess ignoring bishop colours, excess counting bishops per square colour)."""
    other, light, dark = excess_pieces(board, color)
    bishops = chess.popcount(board.pieces_mask(chess.BISHOP, color))
    return other + max(0, bishops - 2), other + light + dark


# ----------------------------------------------------------------------------- rules


def king_count(facts: _Facts) -> str | None:
    """Each side has exactly one king. Sound: kings are never captured or created."""
    for color in chess.COLORS:
        count = _count(facts.board, chess.KING, color)
        if count != 1:
            return f"{_side_name(color)} has {count} kings"
    return None


def pawn_on_back_rank(facts: _Facts) -> str | None:
    """No pawn on rank 1 or 8. Sound: pawns start on ranks 2/7, move forward only and
    are replaced by a piece when they reach the last rank; they never move backward."""
    pawns = facts.board.pawns & chess.BB_BACKRANKS
    if pawns:
        return f"pawn on the first or last rank ({chess.square_name(chess.lsb(pawns))})"
    return None


def opponent_in_check(facts: _Facts) -> str | None:
    """The side not to move is not in check. Sound: it just moved, and a move may not
    leave one's own king in check (so the side to move could capture the king)."""
    board = facts.board
    king = board.king(not board.turn)
    if king is not None and board.attackers_mask(board.turn, king):
        return f"the side not to move ({_side_name(not board.turn)}) is in check"
    return None


def too_many_checkers(facts: _Facts) -> str | None:
    """At most two units give check. Sound: one move can give check with the moved
    unit and discover at most one line through its origin square; en passant also
    removes a captured pawn, but the capturing pawn's origin and the captured pawn's
    square lie on one rank next to each other, so at most one line through them
    reaches the king besides the pawn's own check; castling moves the rook (which may
    check) and the king (which cannot discover: the line king-e1 ends at the board edge
    behind e1 except along rank 1, where the castled rook and king block it)."""
    board = facts.board
    king = board.king(board.turn)
    if king is None:
        return None
    checkers = chess.popcount(board.attackers_mask(not board.turn, king))
    if checkers > 2:
        return f"{checkers} units give check"
    return None


_SLIDERS = (chess.BISHOP, chess.ROOK, chess.QUEEN)


def _promotion_origins(square: chess.Square, color: chess.Color) -> chess.Bitboard:
    """Squares a pawn of ``color`` can promote from onto ``square`` (on its last rank):
    the square behind it and the two diagonally behind it."""
    below = square + (-8 if color == chess.WHITE else 8)
    return chess.BB_SQUARES[below] | chess.BB_PAWN_ATTACKS[not color][square]


def _origins(board: chess.Board, square: chess.Square, color: chess.Color) -> chess.Bitboard:
    """Squares from which the unit of ``color`` now on ``square`` could have moved there
    in one non-castling move (empty in the position; pawn origins for a piece on the
    promotion rank). A superset is fine: it only makes the caller object less."""
    piece = board.piece_at(square)
    assert piece is not None
    occupied = board.occupied
    empty = ~occupied & chess.BB_ALL
    if piece.piece_type == chess.PAWN:
        back = -8 if color == chess.WHITE else 8
        origins = 0
        one = square + back
        if 0 <= one < 64 and empty & chess.BB_SQUARES[one]:
            origins |= chess.BB_SQUARES[one]
            two = one + back
            if 0 <= two < 64 and chess.BB_SQUARES[two] & _HOME_RANK_PAWNS[color] and empty & chess.BB_SQUARES[two]:
                origins |= chess.BB_SQUARES[two]
        origins |= chess.BB_PAWN_ATTACKS[not color][square] & empty
        return origins
    if piece.piece_type == chess.KNIGHT:
        origins = chess.BB_KNIGHT_ATTACKS[square] & empty
    elif piece.piece_type == chess.KING:
        origins = chess.BB_KING_ATTACKS[square] & empty
    else:
        origins = 0
        if piece.piece_type in (chess.BISHOP, chess.QUEEN):
            origins |= chess.BB_DIAG_ATTACKS[square][chess.BB_DIAG_MASKS[square] & occupied]
        if piece.piece_type in (chess.ROOK, chess.QUEEN):
            origins |= chess.BB_RANK_ATTACKS[square][chess.BB_RANK_MASKS[square] & occupied]
            origins |= chess.BB_FILE_ATTACKS[square][chess.BB_FILE_MASKS[square] & occupied]
        origins &= empty
    if chess.square_rank(square) == _PROMOTION_RANK[color] and piece.piece_type != chess.KING:
        origins |= _promotion_origins(square, color) & empty
    return origins


def impossible_double_check(facts: _Facts) -> str | None:
    """A double check must come from one move. Sound, by cases on the last move of X:

    * A non-capturing, non-castling move of a unit U can give check with U itself and
      discover one line: the line from the king through U's origin (two sliders on one
      line through the king cannot both check). So one checker A stands where U went,
      and its origin s (a square from which U could reach A's square, empty now) lies
      strictly between the other checker B and the king, B being a slider. A
      promotion is a pawn move ending on the last rank (its origins are included).
    * An ordinary capture is the same (the captured unit stood on A's square, which is
      not between B and the king since A checks).
    * Castling cannot give double check (see :func:`too_many_checkers`).
    * En passant may discover lines through two squares; whenever X has a pawn that
      could just have captured en passant (on its 6th rank with the square behind it
      empty) the rule does not object.
    If no checker pair fits, no single move gave the double check."""
    board = facts.board
    them = board.turn
    x = not them
    king = board.king(them)
    if king is None:
        return None
    checkers = list(chess.SquareSet(board.attackers_mask(x, king)))
    if len(checkers) != 2:
        return None
    sixth = chess.BB_RANK_6 if x == chess.WHITE else chess.BB_RANK_3
    behind = -8 if x == chess.WHITE else 8
    for pawn in chess.SquareSet(board.pieces_mask(chess.PAWN, x) & sixth):
        if not board.occupied & chess.BB_SQUARES[pawn + behind]:
            return None  # possibly en passant: do not object
    for a, b in ((checkers[0], checkers[1]), (checkers[1], checkers[0])):
        piece_b = board.piece_at(b)
        assert piece_b is not None
        if piece_b.piece_type not in _SLIDERS:
            continue
        line = chess.between(b, king)
        if _origins(board, a, x) & line:
            return None
    pieces = board.piece_map(mask=board.attackers_mask(x, king))
    names = " and ".join(f"{pieces[s].symbol()}{chess.square_name(s)}" for s in checkers)
    return f"double check by {names} that no single move can give"


def too_many_units(facts: _Facts) -> str | None:
    """At most 16 units per side. Sound: units are never created, promotion replaces a
    pawn."""
    for color in chess.COLORS:
        count = chess.popcount(facts.board.occupied_co[color])
        if count > 16:
            return f"{_side_name(color)} has {count} units"
    return None


def too_many_promotions(facts: _Facts) -> str | None:
    """Pawns plus excess pieces at most 8 per side. Sound: every excess piece is a
    promoted pawn and each of the side's 8 pawns is either still a pawn, promoted once,
    or gone. (Texel's "pawns + queens > 9" is a special case.)"""
    for color in chess.COLORS:
        pawns = _count(facts.board, chess.PAWN, color)
        excess, _ = _excess_pieces(facts.board, color)
        if pawns + excess > 8:
            return f"{_side_name(color)} has {pawns} pawns and at least {excess} promoted pieces"
    return None


def bishop_colours(facts: _Facts) -> str | None:
    """Pawns plus excess pieces at most 8 when bishops are counted per square colour.
    Sound: a side starts with one bishop of each square colour and bishops never change
    square colour, so every bishop beyond one per colour is promoted."""
    for color in chess.COLORS:
        pawns = _count(facts.board, chess.PAWN, color)
        plain, by_colour = _excess_pieces(facts.board, color)
        if pawns + by_colour > 8 and pawns + plain <= 8:
            return f"{_side_name(color)} has more bishops of one square colour than its promotions allow"
    return None


_INFEASIBLE = 10_000


def min_pawn_captures(
    board: chess.Board, color: chess.Color, *, promotions: bool = True, promotion_files: tuple[int, ...] = ()
) -> int | None:
    """The least number of captures the pawns of ``color`` must have made, or None if
    the pawns and promoted pieces cannot be explained at all.

    Model: the 8 original pawns (files a-h) are assigned to the current pawns and to
    the excess pieces, each original pawn to at most one. A pawn from file g standing
    on file f has made at least |f - g| captures, and can have made at most as many as
    the ranks it advanced (each capture advances one rank), else the assignment is
    impossible. An excess piece is a pawn that reached its last rank on some file p,
    costing |p - g| captures; p is free for queens, rooks and knights (cost 0), and for
    a bishop p must give a promotion square of the bishop's colour (cost 0 or 1).
    The minimum-cost assignment (:func:`min_cost_assignment`) is a lower
    bound on the pawn captures of every game reaching the position. With
    ``promotions=False`` only the pawns on the board are assigned (a lower bound on the
    captures made by the pawns that are still pawns). ``promotion_files`` adds promoted
    pieces known to have promoted on those files (not on ``board``), costing |p - g|."""
    targets: list[list[int]] = [[abs(p - g) for g in range(8)] for p in promotion_files]
    advance_from_home = 1 if color == chess.WHITE else 6
    for square in chess.SquareSet(board.pieces_mask(chess.PAWN, color)):
        f, r = chess.square_file(square), chess.square_rank(square)
        advanced = abs(r - advance_from_home)
        targets.append([abs(f - g) if abs(f - g) <= advanced else _INFEASIBLE for g in range(8)])
    free, light, dark = excess_pieces(board, color)
    if not promotions:
        free = light = dark = 0
    targets.extend([[0] * 8 for _ in range(free)])
    promotion_rank = _PROMOTION_RANK[color]
    for count, colour_mask in ((light, chess.BB_LIGHT_SQUARES), (dark, chess.BB_DARK_SQUARES)):
        files = [p for p in range(8) if chess.BB_SQUARES[chess.square(p, promotion_rank)] & colour_mask]
        for _ in range(count):
            targets.append([min(abs(p - g) for p in files) for g in range(8)])
    if not targets:
        return 0
    if len(targets) > 8:
        return None
    total = min_cost_assignment(targets)
    return None if total >= _INFEASIBLE else total


def pawn_captures(facts: _Facts) -> str | None:
    """The pawns' minimum number of captures (:func:`min_pawn_captures`) is at most the
    number of units the opponent is missing. Sound: each pawn capture removes a
    different opponent unit, and the opponent started with 16. (Texel's "16 black units
    and a white double pawn" is a special case.)"""
    board = facts.board
    for color in chess.COLORS:
        needed = min_pawn_captures(board, color)
        missing = 16 - chess.popcount(board.occupied_co[not color])
        if needed is None:
            return f"the {_side_name(color)} pawn structure cannot arise from the eight original pawns"
        if needed > missing:
            return (
                f"{_side_name(color)} pawns need at least {needed} captures but "
                f"{_side_name(not color)} is missing only {missing} units"
            )
    return None


def promotions_need_captures(facts: _Facts) -> str | None:
    """A side's promotions need captures: for White (Black alike, colours swapped)
    ``excess ≤ (c_W - s_W) + min(c_W, 8 - black pawns - black excess) + c_B``, where
    ``c_W`` is the number of captures White made (Black's missing units), ``c_B``
    Black's, and ``s_W`` the least number of captures made by the white pawns still on
    the board (:func:`min_pawn_captures` with ``promotions=False``).

    Sound: take a white pawn that promoted, originally on file g. (a) If it ever
    captured, charge its first capture (a white capture; one per pawn). (b) Otherwise
    it stayed on file g, and Black's g-pawn, which started ahead of it on that file,
    cannot pass it and must have left file g before the white pawn went by: either it
    was captured (charge that white capture of a black pawn; at most one white pawn
    per black pawn, and no more than the black pawns that are gone without promoting,
    8 - black pawns - black promotions) or it captured (charge that black pawn's first
    capture; at most one per black pawn, so at most ``c_B`` in all). A white capture is
    charged at most twice (once as a pawn's first capture, once as the capture of a
    black pawn), and the first captures of (a) are not captures of the pawns still on
    the board, which made at least ``s_W`` others; this gives the bound, and every
    excess piece is a promotion."""
    board = facts.board
    for color in chess.COLORS:
        own_captures = 16 - chess.popcount(board.occupied_co[not color])
        their_captures = 16 - chess.popcount(board.occupied_co[color])
        their_pawns_gone = 8 - _count(board, chess.PAWN, not color) - _excess_pieces(board, not color)[1]
        _, excess = _excess_pieces(board, color)
        by_pawns = min_pawn_captures(board, color, promotions=False) or 0
        bound = max(0, own_captures - by_pawns) + min(own_captures, max(0, their_pawns_gone)) + their_captures
        if excess > bound:
            return (
                f"{_side_name(color)} has at least {excess} promoted pieces but the captures "
                f"({own_captures} by {_side_name(color)}, {their_captures} by {_side_name(not color)}) "
                f"allow at most {bound} promotions"
            )
    return None


def pawn_fates(facts: _Facts) -> str | None:
    """The sixteen original pawns have fates (still a pawn, promoted, captured) that
    explain the pawn structure, the promoted pieces and the captures: see
    :mod:`retro.core.pawn_fates`, where each constraint's soundness is argued; the rule
    fires only when CP-SAT proves the constraints infeasible."""
    if pawn_fates_feasible(facts.board) is False:
        return "no fates of the sixteen original pawns explain the pawns, promotions and captures"
    return None


def castling_rights(facts: _Facts) -> str | None:
    """Every castling right has its king on e1/e8 and its rook on the corner
    (:func:`retro.core.position.castling_field_objection`, where the proof is)."""
    return castling_field_objection(facts.board, facts.castling_field)


def en_passant(facts: _Facts) -> str | None:
    """An en-passant square follows a double step of the side that just moved
    (:func:`retro.core.position.ep_field_objection`, where the proof is)."""
    return ep_field_objection(facts.board, facts.ep_field)


def _steps_of(piece: chess.Piece, square: chess.Square) -> chess.Bitboard:
    """The squares a unit on ``square`` attacks whatever stands between: a pawn's two
    captures, a knight's jumps, a king's steps, a slider's neighbours along its lines."""
    kind = piece.piece_type
    if kind == chess.PAWN:
        return chess.BB_PAWN_ATTACKS[piece.color][square]
    if kind == chess.KNIGHT:
        return chess.BB_KNIGHT_ATTACKS[square]
    neighbours = chess.BB_KING_ATTACKS[square]
    if kind == chess.BISHOP:
        return neighbours & chess.BB_DIAG_ATTACKS[square][0]
    if kind == chess.ROOK:
        return neighbours & (chess.BB_RANK_ATTACKS[square][0] | chess.BB_FILE_ATTACKS[square][0])
    return neighbours


def _entry_squares(square: chess.Square, piece: chess.Piece) -> chess.Bitboard:
    """Squares a unit must pass or start from to arrive on ``square`` as ``piece`` (a
    piece, not a pawn): the neighbours along its lines for a slider (the last step of a
    slide), the king's or knight's move squares (:func:`_steps_of`), and the pawn
    origins of a promotion (the square behind and the two diagonally behind) on its
    promotion rank. Castling moves the king and rook by steps along rank 1/8, so their
    entries are among these too."""
    entries = _steps_of(piece, square)
    if chess.square_rank(square) == _PROMOTION_RANK[piece.color] and piece.piece_type != chess.KING:
        entries |= _promotion_origins(square, piece.color)
    return entries


_INITIAL = chess.Board()


def _sealed_squares(board: chess.Board) -> tuple[chess.Bitboard, str | None]:
    """The *sealed* squares, where one unit has stood since the initial position, and
    the reason the position is illegal if a piece could not have reached its square.

    Sealed are a pawn on its home rank (it never moved, pawns do not move backwards,
    and it is the only pawn that can stand there) and, iteratively, a piece on its
    initial square all of whose entry squares (:func:`_entry_squares`) are sealed.
    No unit ever moved onto or through a sealed square (it would have captured the
    unit that stands there throughout the game). A unit arriving on a square comes
    from or passes one of its entry squares (a slide's last step, a king's or knight's
    move, castling's king and rook steps, a promotion's pawn origin), so a piece whose
    entry squares are all sealed has stood on its square since the start: it is the
    initial unit of that square (else the position is illegal), and it never left
    either (it would leave through an entry square), so its square is sealed in turn."""
    sealed = (board.pieces_mask(chess.PAWN, chess.WHITE) & chess.BB_RANK_2) | (
        board.pieces_mask(chess.PAWN, chess.BLACK) & chess.BB_RANK_7
    )
    changed = True
    while changed:
        changed = False
        for square in chess.SquareSet(board.occupied & ~board.pawns & ~sealed):
            piece = board.piece_at(square)
            assert piece is not None
            if _entry_squares(square, piece) & ~sealed:
                continue
            if _INITIAL.piece_at(square) != piece:
                return sealed, (
                    f"the {_side_name(piece.color)} {chess.piece_name(piece.piece_type)} on "
                    f"{chess.square_name(square)} could not have got there: every square it could "
                    f"come from has been occupied since the start"
                )
            sealed |= chess.BB_SQUARES[square]
            changed = True
    return sealed, None


def unreachable_square(facts: _Facts) -> str | None:
    """Every piece could have reached its square: a piece not on its initial square
    whose entry squares are all sealed is impossible (:func:`_sealed_squares`, where
    the soundness is argued)."""
    return facts.sealed[1]


def _kind(piece_type: chess.PieceType, square: chess.Square) -> tuple[chess.PieceType, bool]:
    """A piece's kind for promotion counting: its type, and for a bishop its square colour."""
    return piece_type, piece_type == chess.BISHOP and bool(chess.BB_SQUARES[square] & chess.BB_LIGHT_SQUARES)


def _unconfined_initial_units(
    color: chess.Color, sealed: chess.Bitboard
) -> tuple[dict[tuple[chess.PieceType, bool], int], chess.Bitboard]:
    """The initial pieces of ``color`` that can leave their squares, counted per kind
    (:func:`_kind`), and the initial squares of the confined ones (see
    :func:`confined_originals`)."""
    free: dict[tuple[chess.PieceType, bool], int] = {}
    confined_homes = 0
    for square in chess.SquareSet(_INITIAL.occupied_co[color] & ~_INITIAL.pawns & ~_INITIAL.kings):
        piece = _INITIAL.piece_at(square)
        assert piece is not None
        if _entry_squares(square, piece) & ~sealed:
            kind = _kind(piece.piece_type, square)
            free[kind] = free.get(kind, 0) + 1
        else:
            confined_homes |= chess.BB_SQUARES[square]
    return free, confined_homes


def confined_originals(facts: _Facts) -> str | None:
    """Pawns plus the promoted pieces are at most 8 per side, where a piece counts as
    promoted also when the initial unit of its kind that it could be never left its
    initial square. An initial piece is *confined* when all its exit squares (the entry
    squares of its initial square for its type, :func:`_entry_squares`) are sealed
    (:func:`_sealed_squares`). For each kind (queen, rook, knight, light bishop, dark
    bishop) of a side, the pieces of that kind beyond the unconfined initial units of
    the kind, not counting a piece standing on a confined unit's initial square, are
    promoted pawns.

    Sound: a confined unit can never have left its initial square (it would pass an
    exit square, occupied by the same unit throughout the game), so it is on that
    square now or was captured there; a piece of its kind elsewhere is another unit,
    i.e. an unconfined initial unit of the kind or a promoted pawn (pieces keep their
    type and bishops their square colour), and each of the side's 8 pawns is still a
    pawn, promoted once, or gone. (Example: Black's c8 bishop with pawns on b7 and
    d7 never left c8, so any other black light bishop is promoted.)"""
    board = facts.board
    sealed, _ = facts.sealed
    for color in chess.COLORS:
        free, confined_homes = _unconfined_initial_units(color, sealed)
        on_board: dict[tuple[chess.PieceType, bool], int] = {}
        pieces = board.piece_map(mask=board.occupied_co[color] & ~board.pawns & ~board.kings & ~confined_homes)
        for square, piece in pieces.items():
            kind = _kind(piece.piece_type, square)
            on_board[kind] = on_board.get(kind, 0) + 1
        promoted = sum(max(0, count - free.get(kind, 0)) for kind, count in on_board.items())
        pawns = _count(board, chess.PAWN, color)
        if pawns + promoted > 8:
            return (
                f"{_side_name(color)} has {pawns} pawns and at least {promoted} promoted pieces, "
                f"counting pieces whose initial units could never leave their squares"
            )
    return None


@functools.lru_cache(maxsize=1 << 14)
def _region(
    starts: chess.Bitboard, piece_type: chess.PieceType, sealed: chess.Bitboard, walls: chess.Bitboard = 0
) -> chess.Bitboard:
    """The squares a unit of ``piece_type`` starting on a square of ``starts`` can ever
    stand on when it never lands on or slides through a sealed square (other than its
    start) and never crosses a wall. ``walls`` holds the upper square of each vertical
    pair (x2, x3) or (x6, x7) that no move crosses (:func:`_walls`).

    A flood fill by single steps: a knight's jumps; a king's steps; for a slider the
    steps along its lines (a bishop's diagonal steps, a rook's orthogonal ones, a
    queen's both), since a slide is a run of such steps over squares that are not
    sealed, every square it passes being one the unit could also stop on; a vertical
    step between the two squares of a wall is left out."""
    open_squares = ~sealed & chess.BB_ALL
    region = starts
    while True:
        grown = region | (_single_steps(region, piece_type, walls) & open_squares)
        if grown == region:
            return region
        region = grown


_NOT_A = ~chess.BB_FILE_A & chess.BB_ALL
_NOT_H = ~chess.BB_FILE_H & chess.BB_ALL
_NOT_AB = ~(chess.BB_FILE_A | chess.BB_FILE_B) & chess.BB_ALL
_NOT_GH = ~(chess.BB_FILE_G | chess.BB_FILE_H) & chess.BB_ALL


def _single_steps(squares: chess.Bitboard, piece_type: chess.PieceType, walls: chess.Bitboard) -> chess.Bitboard:
    """The squares one step (a knight's jump, or one square along a line of the piece
    type) away from ``squares``, without the vertical steps across a wall."""
    if piece_type == chess.KNIGHT:
        east, west, east2, west2 = squares & _NOT_H, squares & _NOT_A, squares & _NOT_GH, squares & _NOT_AB
        jumps = (east << 17) | (west << 15) | (east2 << 10) | (west2 << 6)
        jumps |= (east >> 15) | (west >> 17) | (east2 >> 6) | (west2 >> 10)
        return jumps & chess.BB_ALL
    steps = 0
    if piece_type != chess.BISHOP:  # orthogonal steps: rook, queen, king
        up = (squares << 8) & ~walls
        down = (squares & ~walls) >> 8
        steps |= up | down | ((squares & _NOT_H) << 1) | ((squares & _NOT_A) >> 1)
    if piece_type != chess.ROOK:  # diagonal steps: bishop, queen, king
        steps |= ((squares & _NOT_H) << 9) | ((squares & _NOT_A) << 7)
        steps |= ((squares & _NOT_H) >> 7) | ((squares & _NOT_A) >> 9)
    return steps & chess.BB_ALL


def _walls(board: chess.Board, sealed: chess.Bitboard) -> chess.Bitboard:
    """The walls: a pawn on its third rank whose two capture origins on its second rank
    are sealed (or off the board) came there by a single step from its home square, so
    at every moment it stood on one of the two squares and no unit ever moved between
    them or slid through both. Each wall is given by the upper square of its pair."""
    walls = 0
    for color, third, back in ((chess.WHITE, chess.BB_RANK_3, -8), (chess.BLACK, chess.BB_RANK_6, 8)):
        for square in chess.SquareSet(board.pieces_mask(chess.PAWN, color) & third):
            if not chess.BB_PAWN_ATTACKS[not color][square] & ~sealed:
                walls |= chess.BB_SQUARES[max(square, square + back)]
    return walls


def _max_matching(options: list[list[int]]) -> int:
    """The largest number of rows that get distinct columns, row i taking a column of
    ``options[i]`` (augmenting paths; a side has at most 15 pieces)."""
    owner: dict[int, int] = {}

    def augment(row: int, seen: set[int]) -> bool:
        for column in options[row]:
            if column in seen:
                continue
            seen.add(column)
            if column not in owner or augment(owner[column], seen):
                owner[column] = row
                return True
        return False

    return sum(augment(row, set()) for row in range(len(options)))


def _promotion_squares(color: chess.Color, sealed: chess.Bitboard) -> chess.Bitboard:
    """The squares of ``color``'s promotion rank a pawn can ever have promoted on: not
    sealed, and with a pawn origin (behind or diagonally behind) that is not sealed."""
    squares = 0
    for square in chess.SquareSet(chess.BB_RANK_8 if color == chess.WHITE else chess.BB_RANK_1):
        if not sealed & chess.BB_SQUARES[square] and _promotion_origins(square, color) & ~sealed:
            squares |= chess.BB_SQUARES[square]
    return squares


def confined_regions(facts: _Facts) -> str | None:
    """Every piece is its own initial unit or a promoted pawn, and where it stands says
    which: an initial unit can only ever stand in its *region*, the squares reachable
    from its initial square by its jumps or slides without landing on or sliding through
    a sealed square (:func:`_sealed_squares`) or crossing a wall (:func:`_walls`); a
    promoted unit only in the region of its kind from a promotion square a pawn can
    reach (:func:`_promotion_squares`). So the pieces of a side must be matched, each
    to a different initial unit of its type whose region holds it, or to one of the
    ``8 - pawns`` promotions when a promotion region holds it. This generalizes
    :func:`confined_originals` (a region of one square) to units shut in a few squares,
    e.g. Black's h8 rook with Bf8, g7 and h7 at home, which can only ever stand on g8
    and h8, and to pieces no unit can reach at all (Black's rooks on f7 and g8 behind
    c8, d7, e7, g7 at home and f6, h6 single-stepped: only the h8 rook gets in).

    Sound: no unit ever moved onto or through a sealed square (one unit stands there
    throughout the game) nor across a wall, and a piece moves by its type's jumps or
    slides (castling moves the rook by a slide along the back rank), so an initial unit
    stays in its region all game; a promoted pawn became a piece on a promotion square
    it reached from a pawn origin (so that square and an origin were not sealed) and
    stayed in that square's region since; pieces keep their type. The initial units
    among the pieces, and the promoted ones, form such a matching; promoted pieces come
    from different pawns of the side, none of them on the board."""
    board = facts.board
    sealed, _ = facts.sealed
    walls = _walls(board, sealed)
    for color in chess.COLORS:
        promotions = _promotion_squares(color, sealed)
        slots = 8 - _count(board, chess.PAWN, color)
        options: list[list[int]] = []
        column = slots  # columns 0 .. slots-1 are promotions, the rest initial units
        for piece_type in (chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN):
            homes = list(chess.SquareSet(_INITIAL.pieces_mask(piece_type, color)))
            regions = [_region(chess.BB_SQUARES[home], piece_type, sealed, walls) for home in homes]
            promoted_region = _region(promotions, piece_type, sealed, walls) if promotions else 0
            for square in chess.SquareSet(board.pieces_mask(piece_type, color)):
                mask = chess.BB_SQUARES[square]
                row = [column + i for i, region in enumerate(regions) if region & mask]
                options.append(row + (list(range(slots)) if promoted_region & mask else []))
            column += len(homes)
        if _max_matching(options) < len(options):
            return (
                f"the {_side_name(color)} pieces cannot all be initial units or promoted pawns: "
                "some stand where no unit of their type could have gone, or there are too many promotions"
            )
    return None


def _never_king_squares(board: chess.Board, sealed: chess.Bitboard, color: chess.Color) -> chess.Bitboard:
    """Squares the king of ``color`` can never have stood on (see :func:`king_region`)."""
    them = not color
    forbidden = sealed
    still = board.occupied_co[them] & sealed  # their units that never moved
    if board.castling_rights & board.occupied_co[them]:
        king = board.king(them)
        if king is not None:
            still |= chess.BB_SQUARES[king]
        still |= board.castling_rights & board.occupied_co[them] & board.rooks
    for square in chess.SquareSet(still):
        piece = board.piece_at(square)
        assert piece is not None
        forbidden |= chess.BB_SQUARES[square] | _steps_of(piece, square)
    third, behind = (chess.BB_RANK_3, -8) if them == chess.WHITE else (chess.BB_RANK_6, 8)
    for square in chess.SquareSet(board.pieces_mask(chess.PAWN, them) & third):
        if sealed & chess.BB_SQUARES[square + behind]:
            forbidden |= chess.BB_SQUARES[square]
    return forbidden


def king_region(facts: _Facts) -> str | None:
    """Each king can have walked from its initial square to its square by king steps
    avoiding the squares it can never have stood on: those where one unit has stood all
    game (sealed squares, :func:`_sealed_squares`), and those attacked all game by an
    opponent unit that never moved, whatever stands between (a pawn's captures, a
    knight's jumps, a king's and a slider's neighbours along its lines). Units that never
    moved are the units on sealed squares and, when the opponent still has a castling
    right, its king and the right's rook. One more: an opponent pawn on its third rank
    whose square behind is sealed came there by a capture from its second rank, where it
    had stood since the start attacking that square; so that square was attacked or
    occupied by it all game. (Borodatov: with White's king still on e1, its f1 and f2,
    the h3 of the g2 pawn and the g3 of the pawn from f2 or h2 shut Black's king out of
    g1, h1 and h2.)

    Sound: a king never moves onto an occupied square, never moves into check, and is
    never put in check on a square by a unit that does not move (a check by a unit that
    never moved, along no line, would have to be given by it); so it never stood on
    those squares, at any time, and all its moves (castling too: the king passes the
    square between) are king steps between squares it stood on or passed. The square
    under the third-rank pawn: before the capture the pawn stood on the origin, attacking
    it (a capture goes to a square the pawn attacks), after it the pawn stands on it."""
    board = facts.board
    sealed, _ = facts.sealed
    for color in chess.COLORS:
        king = board.king(color)
        if king is None:
            continue
        home = chess.E1 if color == chess.WHITE else chess.E8
        never = _never_king_squares(board, sealed, color) & ~chess.BB_SQUARES[home]
        if not _region(chess.BB_SQUARES[home], chess.KING, never) & chess.BB_SQUARES[king]:
            return (
                f"the {_side_name(color)} king on {chess.square_name(king)} could not have got there from "
                f"{chess.square_name(home)}: every way passes squares occupied or attacked all game"
            )
    return None


def _promoted_in_place(board: chess.Board, sealed: chess.Bitboard, color: chess.Color) -> chess.Bitboard:
    """The pieces of ``color`` on its promotion rank whose entry squares, the pawn
    origins of a promotion aside, are all sealed (see :func:`promoted_in_place`)."""
    found = 0
    rank = chess.BB_RANK_8 if color == chess.WHITE else chess.BB_RANK_1
    for square in chess.SquareSet(board.occupied_co[color] & rank & ~board.pawns & ~board.kings):
        piece = board.piece_at(square)
        assert piece is not None
        if not _steps_of(piece, square) & ~sealed:  # the squares it could have moved from
            found |= chess.BB_SQUARES[square]
    return found


def promoted_in_place(facts: _Facts) -> str | None:
    """A piece on its side's promotion rank that no piece move can have brought there
    (every square it could have come from by its own move is sealed, see
    :func:`_sealed_squares`) is a pawn that promoted on that very square, so on that
    file; the pawns' least number of captures (:func:`min_pawn_captures`, with these
    pieces as promotions on their files and the rest of the board's pieces counted as
    usual) is at most the number of units the opponent is missing. (Willcocks: White's
    bishop on h8 with Black's g7 pawn at home came from h7 by promotion, so some white
    pawn walked to the h-file.)

    Sound: no unit ever moved onto or through a sealed square, so the piece did not
    arrive by a move of its own (nor did it ever leave: its exits are the same squares);
    a piece of one side never starts on the opponent's back rank; so it is a promoted
    pawn that promoted on its square. Its pawn, from file g, changed file at least
    |p - g| times, once per capture, p being the piece's file. The other pieces of each
    kind beyond the initial count are promoted pawns too; all these pawns are distinct,
    and :func:`pawn_captures` gives the rest of the argument."""
    board = facts.board
    sealed, _ = facts.sealed
    for color in chess.COLORS:
        pinned = _promoted_in_place(board, sealed, color)
        if not pinned:
            continue
        rest = board.copy(stack=False)
        for square in chess.SquareSet(pinned):
            rest.remove_piece_at(square)
        files = tuple(chess.square_file(square) for square in chess.SquareSet(pinned))
        needed = min_pawn_captures(rest, color, promotion_files=files)
        missing = 16 - chess.popcount(board.occupied_co[not color])
        if needed is None or needed > missing:
            names = ", ".join(chess.square_name(square) for square in chess.SquareSet(pinned))
            return (
                f"the {_side_name(color)} piece(s) on {names} promoted there, and with them the "
                f"{_side_name(color)} pawns need {'more' if needed is None else needed} captures; "
                f"{_side_name(not color)} is missing only {missing} units"
            )
    return None


def _forced_excess(board: chess.Board, sealed: chess.Bitboard, color: chess.Color) -> tuple[int, int, int]:
    """The promoted pieces of ``color`` that :func:`confined_originals` proves, as
    (queens, rooks and knights; light bishops; dark bishops): per kind, the pieces not
    standing on a confined unit's square beyond the kind's unconfined initial units."""
    free, confined_homes = _unconfined_initial_units(color, sealed)
    counts: dict[tuple[chess.PieceType, bool], int] = {}
    for square, piece in board.piece_map(mask=board.occupied_co[color] & ~board.pawns & ~board.kings).items():
        if not confined_homes & chess.BB_SQUARES[square]:
            kind = _kind(piece.piece_type, square)
            counts[kind] = counts.get(kind, 0) + 1
    promoted = {kind: max(0, count - free.get(kind, 0)) for kind, count in counts.items()}
    light = promoted.get((chess.BISHOP, True), 0)
    dark = promoted.get((chess.BISHOP, False), 0)
    return sum(promoted.values()) - light - dark, light, dark


def _larger(a: tuple[int, int, int], b: tuple[int, int, int]) -> tuple[int, int, int]:
    return max(a[0], b[0]), max(a[1], b[1]), max(a[2], b[2])


def _captured_at_home(board: chess.Board, sealed: chess.Bitboard, color: chess.Color) -> int:
    """The initial pieces of ``color`` that never left their square, are not on it, and
    cannot have been taken there by a pawn (see :func:`captured_at_home`)."""
    count = 0
    for home in chess.SquareSet(_INITIAL.occupied_co[color] & ~_INITIAL.pawns & ~_INITIAL.kings):
        unit = _INITIAL.piece_at(home)
        assert unit is not None
        if board.piece_at(home) != unit and not _entry_squares(home, unit) & ~sealed:
            count += not chess.BB_PAWN_ATTACKS[color][home] & ~sealed
    return count


def captured_at_home(facts: _Facts) -> str | None:
    """The pawn fates (:mod:`retro.core.pawn_fates`) with what the sealed squares prove: the
    promoted pieces of :func:`confined_originals` (a piece of a kind whose initial unit
    never left its square is promoted), and captures made by pieces: an initial piece
    whose every exit is sealed (:func:`_sealed_squares`) never left its square, so when
    the square does not hold it now it was captured there, and when both squares from
    which an opponent pawn captures onto it are sealed too, an opponent *piece* took it.
    (Eriksson: Black's c8 bishop, shut in by b7 and d7 at home, was taken on c8 by a
    white piece, so the e6 bishop is Black's promoted f-pawn, White's f-pawn left the
    f-file to let it pass, and the white pawns' captures and the one on c8 use up all
    of Black's missing units: Nb5 took nothing on c3.)

    Sound: the unit could not leave (its exits, the entries of its square for its type,
    are occupied all game by other units), so it is gone only by a capture on its
    square; a pawn captures onto a square only from the two squares diagonally behind
    it, sealed here, so the capturer was a piece, and that capture is not one of the
    pawns' captures. Each capture removes a different unit of the side, so the pawns'
    captures are at most the side's missing units less these; the promoted pieces are
    those of :func:`confined_originals`, whose argument is there. The model is then the
    pawn fates' with these bounds."""
    board = facts.board
    sealed, _ = facts.sealed
    piece_captures = {color: _captured_at_home(board, sealed, not color) for color in chess.COLORS}
    plain = {color: excess_pieces(board, color) for color in chess.COLORS}
    forced = {color: _larger(plain[color], facts.confined_promoted[color]) for color in chess.COLORS}
    excess = {color: forced[color] for color in chess.COLORS if forced[color] != plain[color]}
    if not any(piece_captures.values()) and not excess:
        return None
    if pawn_fates_feasible(board, excess=excess, piece_captures=piece_captures) is False:
        return (
            "no fates of the sixteen original pawns explain the pawns, the promoted pieces and the captures "
            "once the pieces shut in on their initial squares are counted (taken there by pieces, or promoted "
            "pieces of their kind)"
        )
    return None


def _promotion_file_facts(
    board: chess.Board, sealed: chess.Bitboard, color: chess.Color, confined_promoted: tuple[int, int, int]
) -> PromotionFiles:
    """The promotion files of ``color``'s proven promoted pieces, per class (any, light
    bishops, dark bishops; see :func:`promotion_files`): (class, k, files) with k the
    pieces of the class :func:`confined_originals` proves promoted (``confined_promoted``,
    :func:`_forced_excess`'s counts) and ``files`` the
    files of the promotion squares whose region for the piece's type holds one of the
    class's pieces not standing on a confined unit's square; only facts that exclude
    some promotion file."""
    promoted = dict(zip((ANY, LIGHT, DARK), confined_promoted, strict=True))
    if not any(promoted.values()):
        return ()  # no proven promoted piece (most positions): no regions to walk
    _, confined_homes = _unconfined_initial_units(color, sealed)
    walls = _walls(board, sealed)
    promotions = _promotion_squares(color, sealed)
    pieces = board.piece_map(mask=board.occupied_co[color] & ~board.pawns & ~board.kings & ~confined_homes)
    files = {ANY: 0, LIGHT: 0, DARK: 0}
    for square, piece in pieces.items():
        group = LIGHT if _kind(piece.piece_type, square)[1] else DARK if piece.piece_type == chess.BISHOP else ANY
        if not promoted[group]:
            continue  # a class with no proven promoted piece gives no fact
        for q in chess.SquareSet(promotions):
            if _region(chess.BB_SQUARES[q], piece.piece_type, sealed, walls) & chess.BB_SQUARES[square]:
                files[group] |= 1 << chess.square_file(q)
    return tuple(
        (group, promoted[group], files[group])
        for group in (ANY, LIGHT, DARK)
        if promoted[group] and files[group] != 0xFF
    )


def promotion_files(facts: _Facts) -> str | None:
    """The pawn fates (:mod:`retro.core.pawn_fates`) with the files where the proven promoted
    pieces were promoted (its rule 8), besides the facts of :func:`captured_at_home`:
    a piece that :func:`confined_originals` proves promoted became a piece on a
    promotion square from whose region (:func:`_region`, for its type) its square can
    be reached. (Christiaans: White's a3 bishop is promoted, c1's bishop being shut in
    by b2 and d2 at home, and with Black's e7 and g7 at home it promoted on b8 or d8, not
    f8 or h8; White's pawns from e-h then need all eleven captures on files c to g,
    one on the c-file, and Black's a-, b- and c-pawns, which White took as pawns there,
    need more captures than the white units Black's pawns can have taken.)

    Sound: the promoted pieces are those of :func:`confined_originals`, and the regions
    those of :func:`confined_regions`, whose arguments are there; each promoted piece
    is a different pawn's promotion, so at least k promotions of the class happened on
    the union of its pieces' promotion files; the other facts are
    :func:`captured_at_home`'s. The model is then the pawn fates' with these facts."""
    board = facts.board
    sealed, _ = facts.sealed
    confined_promoted = facts.confined_promoted
    promotion_facts = {
        color: _promotion_file_facts(board, sealed, color, confined_promoted[color]) for color in chess.COLORS
    }
    if not any(promotion_facts.values()):
        return None
    piece_captures = {color: _captured_at_home(board, sealed, not color) for color in chess.COLORS}
    forced = {color: _larger(excess_pieces(board, color), confined_promoted[color]) for color in chess.COLORS}
    feasible = pawn_fates_feasible(board, excess=forced, piece_captures=piece_captures, promotion_files=promotion_facts)
    if feasible is False:
        return (
            "no fates of the sixteen original pawns explain the pawns and the captures once the promoted "
            "pieces are counted on the files where they can have promoted"
        )
    return None


@functools.lru_cache(maxsize=1 << 12)
def _pawn_reach(color: chess.Color, sealed: chess.Bitboard, walls: chess.Bitboard) -> tuple[tuple[int, ...], ...]:
    """``reach[g][k]``: the squares the pawn of ``color`` starting on file ``g`` can have
    reached with at most ``k`` diagonal moves (captures), for k = 0 .. 7 (see
    :func:`pawn_paths`): a pawn moves forward one square straight or diagonally (a
    double step passes the square in between), never onto a sealed square, never
    straight between the two squares of an opponent's wall (pairs (x6, x7) for White's
    pawns, (x2, x3) for Black's, by upper square). A pawn sealed on its home square
    never left it."""
    white = color == chess.WHITE
    open_squares = ~sealed & chess.BB_ALL
    crossings = walls & (chess.BB_RANK_7 if white else chess.BB_RANK_3)
    # squares from which a straight step forward crosses a wall
    stuck = (crossings >> 8) if white else crossings

    def straight(squares: chess.Bitboard) -> chess.Bitboard:
        while True:
            moved = squares & ~stuck
            grown = squares | (((moved << 8) if white else (moved >> 8)) & open_squares)
            if grown == squares:
                return squares
            squares = grown

    def diagonal(squares: chess.Bitboard) -> chess.Bitboard:
        east, west = squares & _NOT_H, squares & _NOT_A
        steps = ((east << 9) | (west << 7)) if white else ((east >> 7) | (west >> 9))
        return steps & open_squares

    table = []
    for file in range(8):
        home = chess.BB_SQUARES[chess.square(file, 1 if white else 6)]
        levels = [home if home & sealed else straight(home)]
        for _ in range(7):
            levels.append(straight(levels[-1] | diagonal(levels[-1])))
        table.append(tuple(levels))
    return tuple(table)


def _captures_to(levels: tuple[int, ...], targets: chess.Bitboard) -> int:
    """The least k with a square of ``targets`` in ``levels[k]``, or ``_INFEASIBLE``."""
    return next((k for k, squares in enumerate(levels) if squares & targets), _INFEASIBLE)


def pawn_path_captures(board: chess.Board, color: chess.Color, sealed: chess.Bitboard) -> int | None:
    """The least number of captures the pawns of ``color`` made in any game reaching
    ``board``, by the cheapest assignment of the original units to the units on the
    board (:func:`pawn_paths`), or None when no assignment explains them."""
    walls = _walls(board, sealed)
    reach = _pawn_reach(color, sealed, walls)
    gates = tuple(sorted(_gates(board, sealed).items()))
    pawn_rows = [
        [_captures_to(levels, chess.BB_SQUARES[square]) for levels in reach]
        for square in chess.SquareSet(board.pieces_mask(chess.PAWN, color))
    ]
    originals = [
        (chess.BB_SQUARES[home], _INITIAL.piece_type_at(home))
        for home in chess.SquareSet(_INITIAL.occupied_co[color] & ~_INITIAL.pawns & ~_INITIAL.kings)
    ]
    pieces = [
        (chess.BB_SQUARES[square], board.piece_type_at(square))
        for square in chess.SquareSet(board.occupied_co[color] & ~board.pawns & ~board.kings)
    ]
    as_original = [
        [
            0
            if kind == home_kind and _gated_region_cached(home, home_kind, sealed, walls, gates) & mask
            else _INFEASIBLE
            for home, home_kind in originals
        ]
        for mask, kind in pieces
    ]
    if len(pawn_rows) > 8 or len(pawn_rows) + len(pieces) > 8 + len(originals):
        return None  # more pawns, or more units, than a side ever has
    if len(pieces) <= len(originals) and min_cost_assignment(as_original) == 0:
        total = min_cost_assignment(pawn_rows)  # every piece can be an original unit: the pawns pay alone
    else:
        last_rank = chess.BB_RANK_8 if color == chess.WHITE else chess.BB_RANK_1
        piece_rows = []
        for (mask, kind), originals_row in zip(pieces, as_original, strict=True):
            assert kind is not None
            squares = sum(
                chess.BB_SQUARES[q]
                for q in chess.SquareSet(last_rank)
                if _gated_region_cached(chess.BB_SQUARES[q], kind, sealed, walls, gates) & mask
            )
            piece_rows.append([_captures_to(levels, squares) for levels in reach] + originals_row)
        total = min_cost_assignment([row + [_INFEASIBLE] * len(originals) for row in pawn_rows] + piece_rows)
    return None if total >= _INFEASIBLE else total


def pawn_paths(facts: _Facts) -> str | None:
    """The pawns' captures counted along the squares they can have passed: every unit
    on the board is one of the side's original units, and the captures its pawns made
    plus the captures its pieces are known to have made are at most the number of
    units the opponent is missing.

    Model: an assignment (each original unit to at most one unit on the board) of cost
    at most the pawns' captures: a pawn on square s assigned the pawn from file g costs
    the least number of diagonal moves on a way from g's home square to s that never
    stands on a sealed square (:func:`_sealed_squares`) and never steps straight
    across an opponent's wall (:func:`_walls`; see :func:`_pawn_reach`); a piece on s
    assigned an original piece of its type whose region holds s costs 0; assigned the
    pawn from file g it costs the least such number to a promotion square q whose region
    for the piece's type holds s. Regions are those of :func:`_region` that also never
    step across a gate (:func:`_gated_region`). The pieces known taken by
    pieces are the opponent's initial pieces captured at home where no pawn could take
    them (:func:`_captured_at_home`). (Kuner: with Black's d7, e7, g7 at home and the
    f-pawn on f6 walled in, White's promoted bishop on f8 came from f7, which a white
    pawn entered only by a capture, and White's light bishops beyond one promoted on e8
    or g8 by captures; with Black's c8 and f8 bishops taken at home by pieces this uses
    up all ten missing black units, so White's last move captured nothing that way.
    Borodatow: a light bishop promoted on a8 behind Black's b7 at home could never leave
    a8, which makes White's pawns need all fourteen missing black units. Keym, dev2 308
    before White's e2xd3: with e2 and g2 at home, White's f1 bishop was taken at home,
    and Black's light bishops on h1 (behind g2) and a2 (in the pocket a2-b1 behind the
    gate a2-b3 of White's b3 pawn, with b2 and c2 at home) are pawns promoted on h1 and
    by a2xb1; with g7xh6, the f-pawn's two captures to the h-file and the bishop taken
    on f1, Black made five captures where White is missing four units.)

    Sound: in a game reaching the position each unit on the board is an original unit
    or a promoted pawn, all distinct (:func:`confined_regions`: an original piece stays
    in its region, a promoted one in the region of its promotion square; no unit steps
    across a gate, :func:`promotion_captures`). A pawn moves
    straight or, capturing (en passant too), diagonally, always forward; it never stands
    on a sealed square (another unit stands there all game) nor steps between the two
    squares of a wall (one of them is occupied at every moment by the wall's pawn); so
    the way it went is one the distances range over, and it made at least that many
    captures. Different units' captures remove different opponent units, and the
    captures by pieces on the opponent's home squares are not pawn captures."""
    board = facts.board
    sealed, _ = facts.sealed
    for color in chess.COLORS:
        needed = pawn_path_captures(board, color, sealed)
        if needed is None:
            return f"the {_side_name(color)} units cannot all be original units or promoted pawns that got there"
        by_pieces = _captured_at_home(board, sealed, not color)
        missing = 16 - chess.popcount(board.occupied_co[not color])
        if needed + by_pieces > missing:
            return (
                f"{_side_name(color)} pawns need at least {needed} captures on the squares they can have passed"
                + (f" and {_side_name(color)} pieces took {by_pieces} units at home" if by_pieces else "")
                + f", but {_side_name(not color)} is missing only {missing} units"
            )
    return None


def _gates(board: chess.Board, sealed: chess.Bitboard) -> dict[chess.Square, chess.Bitboard]:
    """The diagonal *gates*: a pawn on its third rank (square s) whose straight origin and
    other capture origin on its second rank are sealed (or off the board) came from its one
    remaining origin o by a single capture, the only move it ever made. Returned as a map
    from each of o and s to the other (as a bitboard; both squares of every gate)."""
    gates: dict[chess.Square, chess.Bitboard] = {}
    for color, third, back in ((chess.WHITE, chess.BB_RANK_3, -8), (chess.BLACK, chess.BB_RANK_6, 8)):
        for square in chess.SquareSet(board.pieces_mask(chess.PAWN, color) & third):
            origins = (chess.BB_SQUARES[square + back] | chess.BB_PAWN_ATTACKS[not color][square]) & ~sealed
            if chess.popcount(origins) == 1 and not origins & chess.BB_SQUARES[square + back]:
                origin = chess.lsb(origins)
                gates[origin] = gates.get(origin, 0) | chess.BB_SQUARES[square]
                gates[square] = gates.get(square, 0) | origins
    return gates


def _gated_region(
    starts: chess.Bitboard,
    piece_type: chess.PieceType,
    sealed: chess.Bitboard,
    walls: chess.Bitboard,
    gates: dict[chess.Square, chess.Bitboard],
) -> chess.Bitboard:
    """:func:`_region` that also never steps between the two squares of a gate
    (:func:`_gates`)."""
    open_squares = ~sealed & chess.BB_ALL
    ends = 0
    for square in gates:
        ends |= chess.BB_SQUARES[square]
    region = starts
    while True:
        grown = region | (_single_steps(region & ~ends, piece_type, walls) & open_squares)
        for square in chess.SquareSet(region & ends):
            grown |= _single_steps(chess.BB_SQUARES[square], piece_type, walls) & open_squares & ~gates[square]
        if grown == region:
            return region
        region = grown


@functools.lru_cache(maxsize=1 << 14)
def _gated_region_cached(
    starts: chess.Bitboard,
    piece_type: chess.PieceType,
    sealed: chess.Bitboard,
    walls: chess.Bitboard,
    gates: tuple[tuple[chess.Square, chess.Bitboard], ...],
) -> chess.Bitboard:
    """:func:`_gated_region` with the gates as a sorted tuple of (square, other squares),
    cached; :func:`_region` (cached too) when there is no gate."""
    if not gates:
        return _region(starts, piece_type, sealed, walls)
    return _gated_region(starts, piece_type, sealed, walls, dict(gates))


def _promotion_options(color: chess.Color, sealed: chess.Bitboard) -> list[tuple[chess.Square, int, int]]:
    """The ways a pawn of ``color`` can have promoted: (promotion square q, file of the
    square it came from, 1 for a capture and 0 for a straight step), for each square q of
    the promotion rank that is not sealed and each of its origins (behind, diagonally
    behind) that is not sealed."""
    rank, back = (chess.BB_RANK_8, -8) if color == chess.WHITE else (chess.BB_RANK_1, 8)
    options = []
    for square in chess.SquareSet(rank & ~sealed):
        straight = square + back
        for origin in chess.SquareSet(_promotion_origins(square, color) & ~sealed):
            options.append((square, chess.square_file(origin), int(origin != straight)))
    return options


class PromotedPiece(NamedTuple):
    """A piece (not the king) that no initial unit of its type and colour can reach, so a
    promoted pawn, with the ways it can have promoted: (promotion square, file of the
    square the pawn came from, 1 for a capture and 0 for a straight step), those of
    :func:`_promotion_options` whose region (:func:`_gated_region`) holds the piece."""

    square: chess.Square
    piece_type: chess.PieceType
    promotions: tuple[tuple[chess.Square, int, int], ...]


def promoted_pieces(board: chess.Board, sealed: chess.Bitboard, color: chess.Color) -> list[PromotedPiece]:
    """The pieces of ``color`` that are promoted pawns by the region argument of
    :func:`promotion_captures`, each with the promotions that can have made it."""
    walls, gates = _walls(board, sealed), _gates(board, sealed)
    options = _promotion_options(color, sealed)
    pieces = []
    for square, piece in board.piece_map(mask=board.occupied_co[color] & ~board.pawns & ~board.kings).items():
        mask = chess.BB_SQUARES[square]
        homes = _INITIAL.pieces_mask(piece.piece_type, color)
        if _gated_region(homes, piece.piece_type, sealed, walls, gates) & mask:
            continue
        promotions = tuple(
            option
            for option in options
            if _gated_region(chess.BB_SQUARES[option[0]], piece.piece_type, sealed, walls, gates) & mask
        )
        pieces.append(PromotedPiece(square, piece.piece_type, promotions))
    return pieces


def promotion_captures(facts: _Facts) -> str | None:
    """A piece (not the king) that no initial unit of its type and colour can reach is a
    promoted pawn, and it became a piece on a promotion square whose region holds it; when
    every such promotion came from a square diagonally behind (a capture), that capture
    counts besides the pawns' file changes: the pawns' least number of captures
    (:func:`min_pawn_captures`, with this piece as a pawn promoted from the origin's file,
    plus one for a capturing promotion, minimized over the promotions possible) is at most
    the number of units the opponent is missing. Regions are those of
    :func:`confined_regions` that also never step across a gate (:func:`_gated_region`).
    (Keym, dev2 223 before Black's ...Bb1xNa2, ...Qh4xNg3 or ...Re2xNf2: White has all
    sixteen units, and Black's bishop stands on a2 or b1, which its c8 bishop cannot reach,
    White's b3 pawn having come from a2 by its only move while b2 and c2 hold pawns at
    home; so it is a pawn promoted on b1 by a2xb1, a capture that Black never made.)

    Sound. An initial unit stays in the region of its initial square, and a promoted pawn
    in the region of its promotion square, by :func:`confined_regions`' argument (sealed
    squares, vertical walls) and one more: a gate (o, s) is never stepped across. Its
    pawn stood on o from the start until its move to s, and on s from then on (it is
    there now and pawns never move back), so at every moment one of the two squares held
    it: a unit stepping from o to s or from s to o, or sliding through both, would need
    the pawn's square empty or would capture it, and the pawn is still on the board (the
    pawn's own capture o-s is not a piece's move). So a piece in no initial unit's region
    is a promoted pawn, which promoted on a square q of its promotion rank whose region
    holds the piece, coming from an origin of q that is not sealed (a sealed square holds
    another unit all game). That pawn, from file g, made at least |f - g| captures to
    reach the origin's file f, and one more if it promoted by a capture; the assignment
    of :func:`min_pawn_captures` with this promotion (the piece removed from the board)
    is a lower bound on the other pawns' captures, all of them different captures, each
    removing a different opponent unit."""
    board = facts.board
    for color in chess.COLORS:
        missing = 16 - chess.popcount(board.occupied_co[not color])
        for square, piece_type, promotions in facts.promoted[color]:
            rest = board.copy(stack=False)
            rest.remove_piece_at(square)
            needed: int | None = None
            for _, origin_file, capture in promotions:
                pawns = min_pawn_captures(rest, color, promotion_files=(origin_file,))
                if pawns is not None and (needed is None or pawns + capture < needed):
                    needed = pawns + capture
            unit = f"{_side_name(color)} {chess.piece_name(piece_type)} on {chess.square_name(square)}"
            if needed is None:
                return f"no initial unit can reach the {unit}, and no {_side_name(color)} pawn can have promoted to it"
            if needed > missing:
                return (
                    f"the {unit} is a promoted pawn, and with it the {_side_name(color)} pawns need {needed} "
                    f"captures; {_side_name(not color)} is missing only {missing} units"
                )
    return None


def capture_colours(facts: _Facts) -> str | None:
    """Captures onto squares of one colour cannot take the other colour's bishop: see
    :mod:`retro.core.capture_colours`, where the rule and its proof are."""
    return capture_colours_objection(facts.board, facts.promoted)


def no_last_move(facts: _Facts) -> str | None:
    """The position has a possible last move. Sound: every legal position but the
    initial one was reached by a legal move from a legal predecessor, the initial
    position has predecessors too (e.g. the one with Black's knight on f6), and
    :func:`retro.core.revmoves.retractions` lists every legal predecessor."""
    if not retractions(facts.board):
        return "no possible last move"
    return None


Rule = Callable[[_Facts], "str | None"]

RULES: list[tuple[str, Rule]] = [
    ("king-count", king_count),
    ("pawn-on-back-rank", pawn_on_back_rank),
    ("too-many-units", too_many_units),
    ("too-many-promotions", too_many_promotions),
    ("bishop-colours", bishop_colours),
    ("castling-rights", castling_rights),
    ("en-passant", en_passant),
    ("opponent-in-check", opponent_in_check),
    ("too-many-checkers", too_many_checkers),
    ("impossible-double-check", impossible_double_check),
    ("pawn-captures", pawn_captures),
    ("promotions-need-captures", promotions_need_captures),
    ("pawn-fates", pawn_fates),
    ("unreachable-square", unreachable_square),
    ("confined-originals", confined_originals),
    ("confined-regions", confined_regions),
    ("king-region", king_region),
    ("promoted-in-place", promoted_in_place),
    ("captured-at-home", captured_at_home),
    ("pawn-paths", pawn_paths),
    ("promotion-files", promotion_files),
    ("promotion-captures", promotion_captures),
    ("capture-colours", capture_colours),
    ("no-last-move", no_last_move),
]
RULE_NAMES = [name for name, _ in RULES]


def check_static(position: Position | chess.Board) -> StaticVerdict:
    """Apply the static rules in order; the first that fires makes the verdict illegal.

    A :class:`chess.Board` is taken with its (python-chess) castling rights and
    en-passant square; a :class:`~retro.core.position.Position` keeps the raw fields."""
    if isinstance(position, Position):
        facts = _Facts(position.board, position.castling_field, position.ep_field)
        fen = position.fen
    else:
        board = position
        castling = board.castling_xfen() if board.castling_rights else "-"
        # Keep only K/Q/k/q letters; Chess960-style letters never come from parse_fen.
        castling = "".join(c for c in castling if c in "KQkq") or "-"
        ep = chess.square_name(board.ep_square) if board.ep_square is not None else "-"
        facts = _Facts(board, castling, ep)
        fen = board.fen()
    for name, rule in RULES:
        reason = rule(facts)
        if reason is not None:
            return StaticVerdict(fen, CheckStatus.ILLEGAL, name, reason)
    return StaticVerdict(fen, CheckStatus.UNKNOWN, reason=NO_OBJECTION)

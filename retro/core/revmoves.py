"""Reverse move generator: every possible last move of a position, with undo information.

For a position P (a :class:`chess.Board`; the side to move in P is "them", the side
that just moved is "us"), :func:`retractions` lists :class:`Retraction` values
``(move, captured, castling, ep)`` such that **every legal predecessor Q of P is
described by one of them**: ``move`` is the forward move that was played in Q,
``captured`` the type of the unit it captured (``None`` for none), ``castling`` Q's
castling rights and ``ep`` Q's en-passant square. :func:`predecessor` builds Q.
This is texel's ``RevMoveGen`` (``texelutil revmoves``, paper 002, sections
"Analyzing possible last moves" and "texelutil revmoves"): "for all legal positions
that lead to the target position by playing a suitable legal move, that legal move
is included in the list". The list may still contain predecessors that are illegal
for deeper reasons; deciding that is the legality pipeline's job.

Conventions (the same as python-chess's and texel's, so that Q, pushed forward with
python-chess, gives back P):

* A position's **en-passant square** is set only when an en-passant capture is
  *legal* in it (python-chess's ``en_passant="legal"`` FEN convention, the one
  ``Board.__eq__`` uses; texel's ``revmoves_ep`` cases follow it too).
* **Castling rights** are the cleaned rights of python-chess
  (``Board.clean_castling_rights``): a right needs its king on e1/e8 and its rook on
  its corner. A right of P that fails this is ignored (python-chess drops it too;
  ``retro check`` reports it).
* Clocks are not data: the halfmove clock and move number never reject a retraction.

How the candidates are enumerated (every unit of "us" in P is a candidate mover):

* **King, knight, bishop, rook, queen** standing on ``to`` came from any square ``from``
  it attacks that is empty in P (for sliders the squares between are then empty too).
* **Promoted pieces**: a knight, bishop, rook or queen on the last rank may also have
  been a pawn one rank lower, straight below (no capture) or diagonally (capture).
* **Pawns** came one square back (not from the first rank), two squares back from their
  second rank (double push, both squares empty), diagonally back (capture), or
  diagonally back by en passant (pawn on the sixth rank; the captured pawn's square and
  the square it came from, the seventh rank, empty in P).
* **Castling**: king on g1 with our rook on f1, e1 and h1 empty (O-O); king on c1
  with our rook on d1, a1, b1 and e1 empty (O-O-O); mirrored for Black.
* **Captured unit**: for every capturing candidate each of Q, R, B, N and P is tried
  (no pawn on the first/last rank, never a king); a pawn capture can also be a
  non-capture; castling never captures; en passant restores the pawn behind ``to``.

Why the list is complete: any legal (Q, m) with ``Q.push(m) == P`` moves one unit of
"us" from ``from`` to ``to`` (plus the castling rook), so ``from`` is empty in P and
the unit now stands on ``to``; the cases above are exactly the ways each unit type can
move, so (from, to, promotion, capture) is generated. The captured unit is any type
allowed on that square. Q's castling rights R and en-passant square are enumerated
exhaustively from their definitions, and the only candidates dropped are those that
break one of the rules below, each of which holds in every legal Q.

**Predecessor castling rights.** python-chess's ``push`` removes the rights of the
corners ``from`` and ``to`` (moved or captured rook) and, for a king move (castling
included), both rights of the mover. Call that set T. Hence R = rights(P) ∪ S with
S ⊆ T, and rights(P) ∩ T must be empty (else the move would have removed a right P
still has). Each right of R must be valid in Q (king and rook of its colour at home in
Q): a right of the opponent is possible only if a rook was captured on its corner. For
castling R must contain the right used. All such subsets S are listed.

**Predecessor en-passant square.** After an en-passant capture it is ``to``. Otherwise
it is "none" or any square x6 (x3 for Black to move in Q) such that in Q the
opponent's pawn stands on x5, x6 and x7 are empty, and one of our pawns can *legally*
capture it en passant (the convention above; a double push that allows no legal
capture leaves no en-passant square). With ``include_ep_square=False`` only "none"
is listed besides en-passant captures (texel's ``includeEpSquare=false`` mode, which
is **not** complete).

**Static rejections** (each is a property of every legal Q, so dropping is sound):

1. In Q the side not to move ("them", who is to move in P) is not in check, i.e. the
   king of P's side to move is not attacked by "us" in Q (no king capture was
   possible). Also, the move is legal in Q: "us" is not in check in P (else no
   retraction at all), castling starts from a square not attacked and does not pass an
   attacked square, a double push passes an empty square.
2. Piece counts (:func:`piece_counts_possible`): each side has at most 8 pawns, and at
   least as many missing pawns as units that must be promoted (queens beyond 1, rooks,
   knights beyond 2, light or dark bishops beyond 1), because each promotion consumes
   one of the side's 8 pawns. Checked for the captured unit's side and, when a
   promotion is undone, for the mover.
3. En passant: if P has an en-passant square (with a legal capture), the last move is
   the double push through it; if P has none, a double push after which the opponent
   could legally capture en passant is not the last move. An en-passant square of P
   that no double push can explain (no pawn in front of it, or its squares occupied)
   means P has no legal predecessor.
4. A position with a king count other than one per side, a pawn on the first or last
   rank, or "us" in check has no legal predecessor: the list is empty.

Source: texel ``RevMoveGen`` (paper 002, "texelutil revmoves", whose example is
``tests/retro/test_revmoves.py``), texel's unit test expectations in
``data/texel-cases.jsonl`` (kinds ``revmoves*``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

import chess
from chess import (
    BB_DIAG_ATTACKS,
    BB_DIAG_MASKS,
    BB_FILE_ATTACKS,
    BB_FILE_MASKS,
    BB_KING_ATTACKS,
    BB_KNIGHT_ATTACKS,
    BB_PAWN_ATTACKS,
    BB_RANK_ATTACKS,
    BB_RANK_MASKS,
    BB_SQUARES,
    BISHOP,
    KING,
    KNIGHT,
    PAWN,
    QUEEN,
    ROOK,
)

from retro.core.attacks import attacks_mask
from retro.core.status import RevmovesStatus

__all__ = [
    "Retraction",
    "RevmovesVerdict",
    "retractions",
    "predecessor",
    "piece_counts_possible",
    "castling_string",
]

#: Captured unit types in texel's output order.
CAPTURABLE: tuple[chess.PieceType, ...] = (QUEEN, ROOK, BISHOP, KNIGHT, PAWN)
_PIECES_ONLY: tuple[chess.PieceType, ...] = (QUEEN, ROOK, BISHOP, KNIGHT)
_CAPTURE_ORDER = {None: 0, QUEEN: 1, ROOK: 2, BISHOP: 3, KNIGHT: 4, PAWN: 5}

_NORMAL, _DOUBLE_PUSH, _EN_PASSANT, _CASTLING = range(4)
_NO_EP: list[chess.Square | None] = [None]
# index in _side_counts of each type (bishops: 2 light, 3 dark)
_GAIN_INDEX = {PAWN: 0, KNIGHT: 1, ROOK: 4, QUEEN: 5}

# (king from, king to) of castling -> (rook from, rook to)
_CASTLING_ROOK: dict[tuple[chess.Square, chess.Square], tuple[chess.Square, chess.Square]] = {
    (chess.E1, chess.G1): (chess.H1, chess.F1),
    (chess.E1, chess.C1): (chess.A1, chess.D1),
    (chess.E8, chess.G8): (chess.H8, chess.F8),
    (chess.E8, chess.C8): (chess.A8, chess.D8),
}
_HOME_KING = (chess.E8, chess.E1)  # indexed by colour (BLACK=0, WHITE=1)
_HOME_CORNERS = (chess.BB_A8 | chess.BB_H8, chess.BB_A1 | chess.BB_H1)
_LAST_RANK = (chess.BB_RANK_1, chess.BB_RANK_8)  # promotion rank of each colour
_EP_CAPTURER_RANK = (chess.BB_RANK_4, chess.BB_RANK_5)  # rank of pawns that may take e.p.
_FORWARD = (-8, 8)


def castling_string(mask: chess.Bitboard) -> str:
    """Castling rights (a mask of rook squares) as FEN letters ``KQkq`` or ``-``."""
    text = "".join(
        letter
        for letter, square in (("K", chess.H1), ("Q", chess.A1), ("k", chess.H8), ("q", chess.A8))
        if mask & BB_SQUARES[square]
    )
    return text or "-"


@dataclasses.dataclass(frozen=True, slots=True)
class Retraction:
    """One way P was reached: ``move`` (forward, as played in the predecessor Q, with
    ``promotion`` if it promoted), the ``captured`` unit type (``chess.PAWN`` for en
    passant), and Q's ``castling`` rights (rook-square mask) and en-passant square.

    The properties below are exact for retractions produced by :func:`retractions`:
    en passant is "a pawn captured on Q's en-passant square" (that square is empty in
    Q, so only an en-passant capture can capture there), castling is "e1g1-like move
    while Q has the matching right" (the right puts Q's king on the from-square)."""

    move: chess.Move
    captured: chess.PieceType | None
    castling: chess.Bitboard
    ep: chess.Square | None

    @property
    def is_en_passant(self) -> bool:
        return self.captured == PAWN and self.ep == self.move.to_square

    @property
    def is_castling(self) -> bool:
        rook = _CASTLING_ROOK.get((self.move.from_square, self.move.to_square))
        return rook is not None and bool(self.castling & BB_SQUARES[rook[0]])

    @property
    def is_promotion(self) -> bool:
        return self.move.promotion is not None

    @property
    def is_capture(self) -> bool:
        return self.captured is not None

    @property
    def capture_square(self) -> chess.Square | None:
        """Where the captured unit stood in Q (behind ``to`` for en passant)."""
        if self.captured is None:
            return None
        if self.is_en_passant:
            to = self.move.to_square
            return to - 8 if chess.square_rank(to) == 5 else to + 8
        return self.move.to_square

    def texel_line(self) -> str:
        """texelutil's format, e.g. ``c6d7 captP: Q castle: KQkq ep: -``.

        As in texel, the captured field names the unit that stood on the target square,
        so an en-passant capture shows ``captP: -`` (its ``ep`` is the target square)."""
        if self.captured is None or self.is_en_passant:
            captured = "-"
        else:
            captured = chess.piece_symbol(self.captured).upper()
        ep = "-" if self.ep is None else chess.square_name(self.ep)
        return f"{self.move.uci()} captP: {captured} castle: {castling_string(self.castling)} ep: {ep}"

    def as_dict(self) -> dict[str, str | None]:
        """JSON form: ``{move, captured, castling, ep}`` (captured as an upper-case type
        letter, ``P`` for en passant too; ``null`` for none; castling as ``KQkq``/``-``)."""
        return {
            "move": self.move.uci(),
            "captured": None if self.captured is None else chess.piece_symbol(self.captured).upper(),
            "castling": castling_string(self.castling),
            "ep": None if self.ep is None else chess.square_name(self.ep),
        }


# --------------------------------------------------------------------------- counts


def _counts_possible(pawns: int, knights: int, light: int, dark: int, rooks: int, queens: int) -> bool:
    promoted = max(0, queens - 1) + max(0, rooks - 2) + max(0, knights - 2) + max(0, light - 1) + max(0, dark - 1)
    return pawns <= 8 and pawns + promoted <= 8


def _side_counts(board: chess.Board, color: chess.Color) -> list[int]:
    """[pawns, knights, light bishops, dark bishops, rooks, queens] of ``color``."""
    mine = board.occupied_co[color]
    bishops = board.bishops & mine
    return [
        chess.popcount(board.pawns & mine),
        chess.popcount(board.knights & mine),
        chess.popcount(bishops & chess.BB_LIGHT_SQUARES),
        chess.popcount(bishops & chess.BB_DARK_SQUARES),
        chess.popcount(board.rooks & mine),
        chess.popcount(board.queens & mine),
    ]


def piece_counts_possible(board: chess.Board, color: chess.Color) -> bool:
    """Whether ``color``'s material can come from the initial army by promotions.

    Rule: a side starts with 8 pawns, 2 knights, a light and a dark bishop, 2 rooks
    and a queen; every unit beyond those counts is a promoted pawn, and a pawn that
    promoted is no longer a pawn. So pawns + (queens-1)+ + (rooks-2)+ + (knights-2)+ +
    (light bishops-1)+ + (dark bishops-1)+ <= 8. Captures only remove units, so the
    rule holds in every legal position (texel's piece-count check, paper 002)."""
    return _counts_possible(*_side_counts(board, color))


def _count_index(piece_type: chess.PieceType, square: chess.Square) -> int:
    if piece_type == BISHOP:
        return 2 if BB_SQUARES[square] & chess.BB_LIGHT_SQUARES else 3
    return {PAWN: 0, KNIGHT: 1, ROOK: 4, QUEEN: 5}[piece_type]


# --------------------------------------------------------------------------- attacks


def _attacked(
    square: chess.Square,
    by: chess.Color,
    pawns: int,
    knights: int,
    diagonal: int,
    straight: int,
    king: int,
    occupied: int,
) -> bool:
    """Whether the units of colour ``by`` given as masks attack ``square``."""
    return bool(
        (BB_KNIGHT_ATTACKS[square] & knights)
        or (BB_PAWN_ATTACKS[not by][square] & pawns)
        or (BB_KING_ATTACKS[square] & king)
        or (diagonal and BB_DIAG_ATTACKS[square][BB_DIAG_MASKS[square] & occupied] & diagonal)
        or (
            straight
            and (
                BB_FILE_ATTACKS[square][BB_FILE_MASKS[square] & occupied] & straight
                or BB_RANK_ATTACKS[square][BB_RANK_MASKS[square] & occupied] & straight
            )
        )
    )


# --------------------------------------------------------------------------- generator


def _ep_field_shape_ok(board: chess.Board, ep: chess.Square) -> bool:
    """P's en-passant square follows a double push of the side that just moved."""
    mover = not board.turn
    forward = _FORWARD[mover]
    pawn_square, origin = ep + forward, ep - forward
    expected_rank = 2 if mover == chess.WHITE else 5
    return (
        chess.square_rank(ep) == expected_rank
        and bool(board.pawns & board.occupied_co[mover] & BB_SQUARES[pawn_square])
        and not board.occupied & (BB_SQUARES[ep] | BB_SQUARES[origin])
    )


class _Generator:
    """State of one :func:`retractions` call (masks of P, precomputed once)."""

    def __init__(self, board: chess.Board, include_ep_square: bool) -> None:
        self.board = board
        self.include_ep_square = include_ep_square
        self.us = us = not board.turn
        self.them = them = board.turn
        self.occupied = board.occupied
        us_mask, them_mask = board.occupied_co[us], board.occupied_co[them]
        # piece masks indexed by piece type (index 0 unused)
        self.us_pieces = [
            0,
            board.pawns & us_mask,
            board.knights & us_mask,
            board.bishops & us_mask,
            board.rooks & us_mask,
            board.queens & us_mask,
            board.kings & us_mask,
        ]
        self.them_pieces = [
            0,
            board.pawns & them_mask,
            board.knights & them_mask,
            board.bishops & them_mask,
            board.rooks & them_mask,
            board.queens & them_mask,
            board.kings & them_mask,
        ]
        self.them_king = chess.msb(self.them_pieces[KING])
        self.rights = board.clean_castling_rights()
        them_counts = _side_counts(board, them)
        us_counts = _side_counts(board, us)
        # can "them" gain one unit of kind i (index of _side_counts)?
        self.them_gain_ok = []
        for index in range(6):
            counts = list(them_counts)
            counts[index] += 1
            self.them_gain_ok.append(_counts_possible(*counts))
        # can "us" turn one unit of kind i back into a pawn?
        self.us_unpromote_ok = []
        for index in range(6):
            counts = list(us_counts)
            counts[0] += 1
            counts[index] -= 1
            self.us_unpromote_ok.append(index > 0 and counts[index] >= 0 and _counts_possible(*counts))
        self.forced_double_push = False  # P has an en-passant square with a legal capture
        self.result: list[Retraction] = []

    # -- helpers on Q ------------------------------------------------------------

    def _them_pieces_in_q(self, captured: chess.PieceType | None, capture_square: chess.Square) -> list[int]:
        pieces = self.them_pieces
        if captured is None:
            return pieces
        pieces = list(pieces)
        pieces[captured] |= BB_SQUARES[capture_square]
        return pieces

    def _attacked_by_them(self, square: chess.Square, them_q: list[int], occupied: int) -> bool:
        return _attacked(
            square,
            self.them,
            them_q[PAWN],
            them_q[KNIGHT],
            them_q[BISHOP] | them_q[QUEEN],
            them_q[ROOK] | them_q[QUEEN],
            them_q[KING],
            occupied,
        )

    def _q_ep_squares(self, us_q: list[int], them_q: list[int], occupied: int) -> list[chess.Square]:
        """En-passant squares Q may have: the opponent's pawn just double-pushed and one
        of our pawns can legally take it."""
        us, them = self.us, self.them
        rank = _EP_CAPTURER_RANK[us]
        our_pawns = us_q[PAWN] & rank
        if not our_pawns:
            return []
        their_pawns = them_q[PAWN] & rank
        if not their_pawns:
            return []
        squares = []
        back = _FORWARD[us]  # from their pawn towards the square it came from
        king = chess.msb(us_q[KING])
        for pawn in chess.scan_forward(their_pawns):
            ep, origin = pawn + back, pawn + 2 * back
            if occupied & (BB_SQUARES[ep] | BB_SQUARES[origin]):
                continue
            capturers = our_pawns & BB_PAWN_ATTACKS[them][ep]
            for capturer in chess.scan_forward(capturers):
                after = (occupied & ~BB_SQUARES[capturer] & ~BB_SQUARES[pawn]) | BB_SQUARES[ep]
                if not _attacked(
                    king,
                    them,
                    them_q[PAWN] & ~BB_SQUARES[pawn],
                    them_q[KNIGHT],
                    them_q[BISHOP] | them_q[QUEEN],
                    them_q[ROOK] | them_q[QUEEN],
                    them_q[KING],
                    after,
                ):
                    squares.append(ep)
                    break
        return squares

    def _p_allows_ep_after(self, double_push_to: chess.Square) -> bool:
        """Had the last move been this double push, could the side to move in P take
        en passant legally? (Then P would carry an en-passant square.)"""
        passed = double_push_to - _FORWARD[self.us]
        if not self.them_pieces[PAWN] & BB_PAWN_ATTACKS[self.us][passed]:
            return False
        board = self.board.copy(stack=False)
        board.ep_square = passed
        return board.has_legal_en_passant()

    # -- one candidate -----------------------------------------------------------

    def consider(
        self,
        from_square: chess.Square,
        to_square: chess.Square,
        piece_type: chess.PieceType,
        origin_type: chess.PieceType,
        promotion: chess.PieceType | None,
        captures: Iterable[chess.PieceType | None],
        kind: int,
    ) -> None:
        """Add the retractions of the move ``from_square``-``to_square`` (a ``piece_type``
        that was an ``origin_type`` in Q) with each possible captured unit of ``captures``."""
        us_q, occupied_q, rook_from = self._our_units_in_q(from_square, to_square, piece_type, origin_type, kind)
        rights = self._castling_rights_in_q(from_square, to_square, origin_type, kind, us_q, rook_from)
        if rights is None:
            return
        if kind == _DOUBLE_PUSH and not self.forced_double_push and self._p_allows_ep_after(to_square):
            return
        if kind == _CASTLING and not self._castling_legal_in_q(from_square, to_square, occupied_q):
            return
        self._add_captures(chess.Move(from_square, to_square, promotion), kind, captures, us_q, occupied_q, *rights)

    def _our_units_in_q(
        self,
        from_square: chess.Square,
        to_square: chess.Square,
        piece_type: chess.PieceType,
        origin_type: chess.PieceType,
        kind: int,
    ) -> tuple[list[chess.Bitboard], chess.Bitboard, chess.Square | None]:
        """Our units by type and the occupied squares in Q (without the captured unit),
        and the castling rook's square in Q."""
        from_bb, to_bb = BB_SQUARES[from_square], BB_SQUARES[to_square]
        us_q = list(self.us_pieces)
        us_q[piece_type] &= ~to_bb
        us_q[origin_type] |= from_bb
        occupied_q = (self.occupied & ~to_bb) | from_bb
        rook_from = None
        if kind == _CASTLING:
            rook_from, rook_to = _CASTLING_ROOK[(from_square, to_square)]
            us_q[ROOK] = (us_q[ROOK] & ~BB_SQUARES[rook_to]) | BB_SQUARES[rook_from]
            occupied_q = (occupied_q & ~BB_SQUARES[rook_to]) | BB_SQUARES[rook_from]
        return us_q, occupied_q, rook_from

    def _castling_rights_in_q(
        self,
        from_square: chess.Square,
        to_square: chess.Square,
        origin_type: chess.PieceType,
        kind: int,
        us_q: list[chess.Bitboard],
        rook_from: chess.Square | None,
    ) -> tuple[chess.Bitboard, chess.Bitboard, chess.Bitboard] | None:
        """The castling rights Q must have (``required``: the castling's own right), may
        have (``optional_ours``, which the move removes) and may have only with a rook
        captured on its corner (``their_corner``); None when P keeps a right the move
        removes (python-chess push semantics: a right once lost never returns)."""
        us, them = self.us, self.them
        to_bb = BB_SQUARES[to_square]
        touched = (BB_SQUARES[from_square] | to_bb) & chess.BB_CORNERS
        if origin_type == KING:
            touched |= _HOME_CORNERS[us]
        if self.rights & touched:
            return None
        optional_ours = 0
        if touched & _HOME_CORNERS[us] and us_q[KING] & BB_SQUARES[_HOME_KING[us]]:
            optional_ours = touched & _HOME_CORNERS[us] & us_q[ROOK]
        their_corner = to_bb & touched & _HOME_CORNERS[them]
        if their_corner and not self.them_pieces[KING] & BB_SQUARES[_HOME_KING[them]]:
            their_corner = 0
        required = 0
        if kind == _CASTLING:
            assert rook_from is not None
            required = BB_SQUARES[rook_from]
            if not optional_ours & required:
                return None
            optional_ours &= ~required
        return required, optional_ours, their_corner

    def _castling_legal_in_q(
        self, from_square: chess.Square, to_square: chess.Square, occupied_q: chess.Bitboard
    ) -> bool:
        """Castling is legal in Q: the king is not in check and does not pass an attacked square."""
        for square in chess.scan_forward(
            BB_SQUARES[from_square] | chess.between(from_square, to_square) | BB_SQUARES[to_square]
        ):
            if self._attacked_by_them(square, self.them_pieces, occupied_q):
                return False
        return True

    def _add_captures(
        self,
        move: chess.Move,
        kind: int,
        captures: Iterable[chess.PieceType | None],
        us_q: list[chess.Bitboard],
        occupied_q: chess.Bitboard,
        required: chess.Bitboard,
        optional_ours: chess.Bitboard,
        their_corner: chess.Bitboard,
    ) -> None:
        """One retraction per captured unit (rules 1 and 2), castling rights and en-passant square of Q."""
        us = self.us
        to_square = move.to_square
        capture_square = to_square - _FORWARD[us] if kind == _EN_PASSANT else to_square
        capture_bb = BB_SQUARES[capture_square]
        light = bool(capture_bb & chess.BB_LIGHT_SQUARES)
        them_gain_ok = self.them_gain_ok
        # Rule 1: "them" (not to move in Q) may not be in check in Q; the captured unit
        # matters only as a blocker, so two cases: capture or not.
        them_king = self.them_king
        check_if_capture: bool | None = None
        check_if_quiet: bool | None = None
        our_diagonal = us_q[BISHOP] | us_q[QUEEN]
        our_straight = us_q[ROOK] | us_q[QUEEN]
        # Castling-right options (the captured rook adds their right when on its corner).
        rights_options = [self.rights | required]
        for bit in chess.scan_forward(optional_ours):
            rights_options += [r | BB_SQUARES[bit] for r in rights_options]
        rook_rights_options = rights_options
        if their_corner:
            rook_rights_options = rights_options + [r | their_corner for r in rights_options]
        # En-passant options: possible only if we have a pawn on the capturing rank.
        ep_rank = _EP_CAPTURER_RANK[us]
        ep_possible = kind != _EN_PASSANT and self.include_ep_square and bool(us_q[PAWN] & ep_rank)
        append = self.result.append
        for captured in captures:
            if captured is None:
                if check_if_quiet is None:
                    check_if_quiet = _attacked(
                        them_king, us, us_q[PAWN], us_q[KNIGHT], our_diagonal, our_straight, us_q[KING], occupied_q
                    )
                if check_if_quiet:
                    continue
                occupied = occupied_q
            else:
                # Rule 2: piece counts of the side whose unit is put back.
                if not them_gain_ok[_GAIN_INDEX[captured] if captured != BISHOP else (2 if light else 3)]:
                    continue
                occupied = occupied_q | capture_bb
                if check_if_capture is None:
                    check_if_capture = _attacked(
                        them_king, us, us_q[PAWN], us_q[KNIGHT], our_diagonal, our_straight, us_q[KING], occupied
                    )
                if check_if_capture:
                    continue
            ep_options: list[chess.Square | None]
            if kind == _EN_PASSANT:
                ep_options = [to_square]
            elif ep_possible and (self.them_pieces[PAWN] & ep_rank or (captured == PAWN and capture_bb & ep_rank)):
                them_q = self._them_pieces_in_q(captured, capture_square)
                ep_options = [None, *self._q_ep_squares(us_q, them_q, occupied)]
            else:
                ep_options = _NO_EP
            for rights in rook_rights_options if captured == ROOK else rights_options:
                for ep in ep_options:
                    append(Retraction(move, captured, rights, ep))

    # -- all candidates ----------------------------------------------------------

    def run(self) -> list[Retraction]:
        board, us, them = self.board, self.us, self.them
        occupied = self.occupied
        empty = ~occupied & chess.BB_ALL
        us_pieces = self.us_pieces
        last_rank = _LAST_RANK[us]
        forward = _FORWARD[us]

        # Rule 3: P's en-passant square.
        if board.ep_square is not None:
            if not _ep_field_shape_ok(board, board.ep_square):
                return []
            if board.has_legal_en_passant():
                to_square = board.ep_square + forward
                self.forced_double_push = True
                self.consider(to_square - 2 * forward, to_square, PAWN, PAWN, None, (None,), _DOUBLE_PUSH)
                return self.result

        for piece_type in (KING, QUEEN, ROOK, BISHOP, KNIGHT):
            for to_square in chess.scan_forward(us_pieces[piece_type]):
                to_bb = BB_SQUARES[to_square]
                on_back_rank = to_bb & chess.BB_BACKRANKS
                captures = (None, *_PIECES_ONLY) if on_back_rank else (None, *CAPTURABLE)
                for from_square in chess.scan_forward(attacks_mask(piece_type, to_square, occupied) & empty):
                    self.consider(from_square, to_square, piece_type, piece_type, None, captures, _NORMAL)
                if piece_type == KING:
                    self._castlings(to_square)
                elif to_bb & last_rank and self.us_unpromote_ok[_count_index(piece_type, to_square)]:
                    below = to_square - forward
                    if empty & BB_SQUARES[below]:
                        self.consider(below, to_square, piece_type, PAWN, piece_type, (None,), _NORMAL)
                    for from_square in chess.scan_forward(BB_PAWN_ATTACKS[them][to_square] & empty):
                        self.consider(from_square, to_square, piece_type, PAWN, piece_type, _PIECES_ONLY, _NORMAL)

        pawn_captures = (None, *CAPTURABLE)
        for to_square in chess.scan_forward(us_pieces[PAWN]):
            relative_rank = chess.square_rank(to_square) if us == chess.WHITE else 7 - chess.square_rank(to_square)
            if relative_rank <= 1:
                continue  # a pawn on its second rank has not moved
            below = to_square - forward
            if empty & BB_SQUARES[below]:
                self.consider(below, to_square, PAWN, PAWN, None, (None,), _NORMAL)
                if relative_rank == 3 and empty & BB_SQUARES[below - forward]:
                    self.consider(below - forward, to_square, PAWN, PAWN, None, (None,), _DOUBLE_PUSH)
            origins = BB_PAWN_ATTACKS[them][to_square] & empty
            for from_square in chess.scan_forward(origins):
                self.consider(from_square, to_square, PAWN, PAWN, None, pawn_captures[1:], _NORMAL)
            if relative_rank == 5 and not occupied & (BB_SQUARES[below] | BB_SQUARES[to_square + forward]):
                for from_square in chess.scan_forward(origins):
                    self.consider(from_square, to_square, PAWN, PAWN, None, (PAWN,), _EN_PASSANT)
        return self.result

    def _castlings(self, king_square: chess.Square) -> None:
        us = self.us
        home = _HOME_KING[us]
        rooks = self.us_pieces[ROOK]
        for (king_from, king_to), (rook_from, rook_to) in _CASTLING_ROOK.items():
            if king_from != home or king_to != king_square:
                continue
            must_be_empty = BB_SQUARES[king_from] | BB_SQUARES[rook_from] | chess.between(rook_from, king_from)
            must_be_empty &= ~BB_SQUARES[king_to] & ~BB_SQUARES[rook_to]
            if rooks & BB_SQUARES[rook_to] and not self.occupied & must_be_empty:
                self.consider(king_from, king_to, KING, KING, None, (None,), _CASTLING)


def _sort_key(retraction: Retraction) -> tuple[int, int, int, int, int, int]:
    move = retraction.move
    return (
        move.from_square,
        move.to_square,
        move.promotion or 0,
        _CAPTURE_ORDER[retraction.captured],
        retraction.castling,
        -1 if retraction.ep is None else retraction.ep,
    )


def retractions(board: chess.Board, *, include_ep_square: bool = True) -> list[Retraction]:
    """Every retraction of ``board`` that survives the static rejections (see the module
    docstring), sorted by from-square, to-square, promotion, captured type (none, Q, R,
    B, N, P), castling rights and en-passant square.

    An empty list means that the position has no legal predecessor, so it is illegal
    (unless it is the initial position of a game, which has no last move; the caller
    knows that case). ``include_ep_square=False`` lists predecessors with an en-passant
    square only for en-passant captures (texel's ``includeEpSquare=false``); the list is
    then not complete and must not be used for illegality verdicts."""
    us, them = not board.turn, board.turn
    kings = board.kings
    if chess.popcount(kings & board.occupied_co[us]) != 1 or chess.popcount(kings & board.occupied_co[them]) != 1:
        return []
    if board.pawns & chess.BB_BACKRANKS:
        return []
    if board.attackers_mask(them, chess.msb(kings & board.occupied_co[us])):
        return []  # the side that just moved is in check
    if not piece_counts_possible(board, chess.WHITE) or not piece_counts_possible(board, chess.BLACK):
        return []
    result = _Generator(board, include_ep_square).run()
    result.sort(key=_sort_key)
    return result


@dataclasses.dataclass(frozen=True)
class RevmovesVerdict:
    """The :func:`retractions` of the position ``fen``: ``found``, or ``none`` when it
    has no legal predecessor (it is illegal, or the start position)."""

    fen: str
    status: RevmovesStatus
    retractions: tuple[Retraction, ...]

    @classmethod
    def of(cls, fen: str, board: chess.Board, *, include_ep_square: bool = True) -> RevmovesVerdict:
        found = tuple(retractions(board, include_ep_square=include_ep_square))
        return cls(fen, RevmovesStatus.FOUND if found else RevmovesStatus.NONE, found)

    def as_dict(self) -> dict[str, object]:
        """The JSON record of ``retro revmoves``."""
        return {
            "fen": self.fen,
            "status": self.status,
            "count": len(self.retractions),
            "retractions": [r.as_dict() for r in self.retractions],
        }


_MASK_NAME = {PAWN: "pawns", KNIGHT: "knights", BISHOP: "bishops", ROOK: "rooks", QUEEN: "queens", KING: "kings"}


def _take(board: chess.Board, mask: chess.Bitboard, piece_type: chess.PieceType, color: chess.Color) -> None:
    """Remove a unit known to stand on ``mask`` (faster than ``remove_piece_at``)."""
    name = _MASK_NAME[piece_type]
    setattr(board, name, getattr(board, name) & ~mask)
    board.occupied_co[color] &= ~mask
    board.occupied &= ~mask
    board.promoted &= ~mask


def _put(board: chess.Board, mask: chess.Bitboard, piece_type: chess.PieceType, color: chess.Color) -> None:
    """Put a unit on the empty square ``mask`` (faster than ``set_piece_at``)."""
    name = _MASK_NAME[piece_type]
    setattr(board, name, getattr(board, name) | mask)
    board.occupied_co[color] |= mask
    board.occupied |= mask


def predecessor(board: chess.Board, retraction: Retraction) -> chess.Board:
    """The position Q before ``retraction.move`` (a new board; ``board`` is unchanged).

    Q's halfmove clock is P's minus one for a reversible move and 0 otherwise (the
    clock before a capture or pawn move is unknown); its move number is P's, minus one
    when Black made the move. Raises ``ValueError`` if the move does not fit the board
    (no unit of the side that just moved on the target square, or the squares it
    frees are occupied)."""
    us = not board.turn
    move = retraction.move
    piece = board.piece_at(move.to_square)
    if piece is None or piece.color != us:
        raise ValueError(
            f"{move.uci()} does not fit the position: no unit of the side that moved on "
            f"{chess.square_name(move.to_square)}"
        )
    if move.promotion is not None and piece.piece_type != move.promotion:
        raise ValueError(
            f"{move.uci()} does not fit the position: the unit on "
            f"{chess.square_name(move.to_square)} is not a {chess.piece_name(move.promotion)}"
        )
    if board.occupied & BB_SQUARES[move.from_square]:
        raise ValueError(f"{move.uci()} does not fit the position: {chess.square_name(move.from_square)} is occupied")
    q = board.copy(stack=False)
    to_bb = BB_SQUARES[move.to_square]
    _take(q, to_bb, piece.piece_type, us)
    _put(q, BB_SQUARES[move.from_square], PAWN if move.promotion else piece.piece_type, us)
    if retraction.is_castling:
        rook_from, rook_to = _CASTLING_ROOK[(move.from_square, move.to_square)]
        _take(q, BB_SQUARES[rook_to], ROOK, us)
        _put(q, BB_SQUARES[rook_from], ROOK, us)
    capture_square = retraction.capture_square
    if retraction.captured is not None and capture_square is not None:
        if q.occupied & BB_SQUARES[capture_square]:
            raise ValueError(
                f"{retraction.texel_line()} does not fit the position: {chess.square_name(capture_square)} is occupied"
            )
        _put(q, BB_SQUARES[capture_square], retraction.captured, not us)
    q.turn = us
    q.castling_rights = retraction.castling
    q.ep_square = retraction.ep
    reversible = retraction.captured is None and not move.promotion and piece.piece_type != PAWN
    q.halfmove_clock = board.halfmove_clock - 1 if reversible and board.halfmove_clock > 0 else 0
    q.fullmove_number = (
        board.fullmove_number - 1 if us == chess.BLACK and board.fullmove_number > 1 else board.fullmove_number
    )
    return q

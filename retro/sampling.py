"""The sample space S for counting legal chess positions: exact size, uniform draws, multiplicity.

Source: Österlund, Texel proof-game documentation (paper 002), "estimating the number of
legal chess positions": a multiset S with known size N, a way to draw uniform members,
and for every position P its multiplicity m(P) in S; then ``N * mean(Y)`` with
``Y = 1/m`` for legal samples (0 otherwise) is unbiased.

Definition of S (an element is a board of items 1-5 with a rights option of item 6 that it
satisfies; drawn uniformly by composing exact uniform choices):

1. A *material signature* per colour: counts (pawns p, knights n, bishops b, rooks r,
   queens q) with ``p <= 8`` and excess ``e = max(0,n-2)+max(0,b-2)+max(0,r-2)+max(0,q-1)
   <= 8-p``. Every legal position satisfies this: a unit beyond the initial count is a
   promoted pawn, and a promoted pawn is a pawn missing from the 8.
2. *Capture accounting between the colours.* With ``Cw = 15 - pb - ub`` the captures made
   by White (black units missing; u = n+b+r+q), ``Cb = 15 - pw - uw``, ``C = Cw + Cb``:

   * ``ew + eb <= 2*C + min(C, 16 - pw - pb - ew - eb)``
   * ``ew <= Cw + Cb + min(Cw, 8 - pb - eb)`` and symmetrically for Black.

   Proof (written for this project). Pair the two pawns of each file, white below black.
   While neither member of a pair captures or is captured, both stay on that file and
   cannot pass each other (a pawn moves straight ahead, a double step cannot jump), so
   neither can promote. Dissolve a pair at the first capture involving one of its
   members; dissolved pairs are never re-formed. A capture dissolves at most the
   capturer's pair (if the capturer is a paired pawn: it and its partner become free)
   and the captured unit's pair (if it is a paired pawn: its partner becomes free; the
   captured pawn is gone). So with A captures made by paired pawns and X captures of
   paired pawns, the promotions P satisfy ``P <= 2A + X <= 2C + min(C, pawns captured)``,
   and pawns captured = ``16 - pw - pb - P``. Per colour, white pawns are freed by white
   paired-pawn captures (<= Cw), black paired-pawn captures (<= Cb) and captures of
   paired black pawns (<= Cw and <= the black pawns captured, ``8 - pb - Pb``). The
   bounds only weaken as P grows and ``P >= e`` (item 1), so they hold with e for P.
   Example at the bound: after d4xe5 (taking the black e-pawn) both white e-pawns and
   the black d-pawn have free files: one capture, three promotions.
3. Two kings on distinct, non-adjacent squares (adjacent kings: the side to move could
   capture a king -- never legal). Ordered (white, black) pairs.
4. Pawns of both colours on distinct free squares of ranks 2-7 (a pawn on rank 1 or 8
   is never legal: it would have promoted / cannot move backwards).
5. The remaining units (N, B, R, Q of both colours) on distinct free squares anywhere.
6. A *rights option* (:data:`RIGHTS`, 480 of them): the side to move, a castling subset
   of KQkq, and an en-passant pair or none. An en-passant pair (f, g), g = f +- 1, says
   that the side not to move has just double-stepped a pawn on file f and that a pawn of
   the side to move stands beside it on file g. An element is a board *together with an
   option it satisfies*: each castling right has its king and rook on their initial
   squares, and for a pair (f, g) the pawn stands on file f of its fourth rank, the two
   squares behind it (start and passed square) are empty, and the side to move has a
   pawn on file g of that rank. The element maps to the position with that side to
   move, those castling rights, and the ep square behind f when the side to move has a
   legal en-passant capture there (none otherwise).

Identity of positions (FIDE 9.2.2, and python-chess's FEN writer): placement, side to
move, castling rights, and the ep square only when an ep capture is legal. A FEN whose ep
square has no legal ep capture denotes the position without it.

Every legal position is in S: items 1-5 are necessary conditions of legality (above). A
legal position's castling rights need the unmoved king and rook; a legal ep capture
needs the pawn that just double-stepped (both squares it left and passed empty) and a
capturing pawn beside it, which gives a pair the board satisfies.

Multiplicity: a position P with a (legal) ep square on file f comes from the elements
with P's board, side and castling rights and a satisfied pair (f, g): ``m`` = the number
of pawns of the side to move beside the ep pawn (1 or 2). A position without ep square
comes from the option without pair and from every satisfied pair (f, g) whose file has no
legal ep capture: ``m = 1 + that number``. Boards outside items 1-5, or castling rights
without king and rook at home, have m = 0.

Size: ``N = sum over the 480 options of the boards satisfying the option``. A rights
option fixes some pieces on some squares and some squares empty (a :class:`Constraint`);
boards of items 1-5 under a constraint are counted exactly per stratum (pw, uw, ew, pb,
ub, eb) allowed by items 1-2 and k = the number of free kings on pawn ranks:
``K(k) * C(A-k, pw') * C(A-k-pw', pb') * C(R-pw'-pb', uw'+ub') * C(uw'+ub', uw') *
W(pw, uw, ew) * W(pb, ub, eb)``, with K(k) the king pairs (fixed kings stay put, free
ones on free squares, never adjacent), A the free squares on pawn ranks, R the free
squares minus the free kings, primes the pawns and units left after the fixed ones,
and ``W(p, u, e)`` the sum of ``u'! / (n'! b'! r'! q'!)`` (the arrangements of the unit
list left after the fixed units) over the signatures of a colour with those totals. The
counting is parametrized by board size and material (:class:`SpaceShape`) and takes any
constraint, so tests check it against brute-force enumeration on small boards. Drawing
is a composition of exact uniform choices: an option with probability proportional to
its count, then a board under its constraint.

Options are tied to the board (an element holds an option its board satisfies) rather
than every board carrying every combination of rights: almost every board then
satisfies only the option without rights on each side, so S stays a small multiple of
the number of boards and a uniform draw is legal as often as it can be.

Choices the paper leaves open: bishops count against 2 regardless of square colour (a
tighter per-colour count would need square colours in the placement count), and nothing
about checks is in S (the static rules, :mod:`retro.core.rules`, reject such samples before
the expensive deciders; the estimator counts them as illegal, which they are).
"""

from __future__ import annotations

import bisect
import itertools
import math
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import TypeVar, cast

import chess

_T = TypeVar("_T")

__all__ = [
    "SpaceShape",
    "SampleSpace",
    "Constraint",
    "RightsOption",
    "RIGHTS",
    "EP_PAIRS",
    "STANDARD",
    "multiplicity",
    "board_in_space",
    "draws",
    "sample_fen",
]

PIECE_LETTERS = "NBRQ"
BASE_COUNTS = (2, 2, 2, 1)  # initial N, B, R, Q


@dataclass(frozen=True)
class SpaceShape:
    """Board size and initial material per colour; the real game is ``SpaceShape()``."""

    files: int = 8
    ranks: int = 8
    max_pawns: int = 8
    base_counts: tuple[int, int, int, int] = BASE_COUNTS

    @property
    def squares(self) -> int:
        return self.files * self.ranks

    @property
    def initial_units(self) -> int:
        """Units per colour at the start, the king aside (15 in chess)."""
        return self.max_pawns + sum(self.base_counts)

    def pawn_rank(self, square: int) -> bool:
        rank = square // self.files
        return 0 < rank < self.ranks - 1

    def adjacent(self, a: int, b: int) -> bool:
        return max(abs(a % self.files - b % self.files), abs(a // self.files - b // self.files)) <= 1


Signature = tuple[int, int, int, int, int]  # pawns, N, B, R, Q
Totals = tuple[int, int, int]  # pawns, units (N+B+R+Q), excess
Units = tuple[int, int, int, int]  # N, B, R, Q


def excess(signature: Signature, shape: SpaceShape) -> int:
    """Units beyond the initial counts: a lower bound on the promotions of that colour."""
    return sum(max(0, c - base) for c, base in zip(signature[1:], shape.base_counts, strict=False))


def totals(signature: Signature, shape: SpaceShape) -> Totals:
    return signature[0], sum(signature[1:]), excess(signature, shape)


def colour_signatures(shape: SpaceShape) -> list[Signature]:
    """All (p, n, b, r, q) allowed by promotion accounting (item 1)."""
    out: list[Signature] = []
    for p in range(shape.max_pawns + 1):
        spare = shape.max_pawns - p
        ranges = [range(base + spare + 1) for base in shape.base_counts]
        for n, b, r, q in itertools.product(*ranges):
            if excess((p, n, b, r, q), shape) <= spare:
                out.append((p, n, b, r, q))
    return out


def captures_allow(white: Totals, black: Totals, shape: SpaceShape) -> bool:
    """Item 2: the promotions the material needs are possible with the captures made."""
    (pw, uw, ew), (pb, ub, eb) = white, black
    cw = shape.initial_units - pb - ub  # captures made by White
    cb = shape.initial_units - pw - uw
    c = cw + cb
    promotions = ew + eb
    if promotions > 2 * c + min(c, 2 * shape.max_pawns - pw - pb - promotions):
        return False
    if ew > c + min(cw, shape.max_pawns - pb - eb):
        return False
    return eb <= c + min(cb, shape.max_pawns - pw - ew)


def _multinomial(total: int, parts: tuple[int, ...]) -> int:
    used = sum(parts)
    if used > total:
        return 0
    result = math.factorial(total) // math.factorial(total - used)
    for part in parts:
        result //= math.factorial(part)
    return result


def _pick(rng: random.Random, cumulative: list[int]) -> int:
    """Index i with probability proportional to cumulative[i] - cumulative[i-1]."""
    return bisect.bisect_right(cumulative, rng.randrange(cumulative[-1]))


@dataclass(frozen=True)
class Constraint:
    """The boards that hold the ``fixed`` pieces ((square, letter) pairs, kings included)
    and leave the ``empty`` squares empty. ``Constraint()`` is every board."""

    fixed: tuple[tuple[int, str], ...] = ()
    empty: frozenset[int] = frozenset()

    def material(self, color: chess.Color) -> Signature:
        """The fixed pawns, knights, bishops, rooks and queens of one colour."""
        p, n, b, r, q = (
            sum(letter == wanted for _, letter in self.fixed) for wanted in ("PNBRQ" if color else "pnbrq")
        )
        return p, n, b, r, q

    def holds(self, board: chess.Board) -> bool:
        return all(
            board.piece_at(square) == chess.Piece.from_symbol(letter) for square, letter in self.fixed
        ) and not any(board.piece_at(square) for square in self.empty)


@dataclass(frozen=True)
class _Group:
    """Signatures of one colour with the same totals, each weighted by the arrangements of
    its units left after the fixed ones."""

    signatures: list[Signature]
    cumulative: list[int]

    @property
    def weight(self) -> int:
        return self.cumulative[-1]


class SampleSpace:
    """The multiset S for a given shape: exact counting, uniform draws (see module doc).
    ``rights=False``: the boards of items 1-5 alone (any shape; for brute-force tests)."""

    def __init__(self, shape: SpaceShape = SpaceShape(), *, rights: bool = True) -> None:
        if rights and shape != SpaceShape():
            raise ValueError("castling and en passant exist only on the 8x8 board")
        self.shape = shape
        self.rights = rights
        self.signatures = colour_signatures(shape)
        self._cache: dict[tuple, object] = {}

    def _memo(self, key: tuple, make: Callable[[], _T]) -> _T:
        """``make()``, computed once per ``key``."""
        if key not in self._cache:
            self._cache[key] = make()
        return cast(_T, self._cache[key])

    def groups(self, fixed_units: Units = (0, 0, 0, 0)) -> dict[Totals, _Group]:
        """Signatures with at least the fixed units, grouped by (pawns, units, excess) and
        weighted by ``u'! / prod(c'!)`` (the ways to fill the u' = u - fixed free unit
        slots with the rest of that material)."""

        def make() -> dict[Totals, _Group]:
            groups: dict[Totals, _Group] = {}
            for sig in self.signatures:
                rest = tuple(c - f for c, f in zip(sig[1:], fixed_units, strict=False))
                if min(rest) < 0:
                    continue
                group = groups.setdefault(totals(sig, self.shape), _Group([], []))
                previous = group.cumulative[-1] if group.cumulative else 0
                group.signatures.append(sig)
                group.cumulative.append(previous + _multinomial(sum(rest), rest))
            return groups

        return self._memo(("groups", fixed_units), make)

    def _material(self, white_units: Units, black_units: Units) -> dict[tuple[int, int, int, int], tuple]:
        """Per (pw, uw, pb, ub): the excess pairs allowed by item 2 and their cumulative
        material weights."""

        def make() -> dict:
            white, black = self.groups(white_units), self.groups(black_units)

            def excesses(groups: dict[Totals, _Group]) -> dict[tuple[int, int], list[int]]:
                by_totals: dict[tuple[int, int], list[int]] = {}
                for p, u, e in groups:
                    by_totals.setdefault((p, u), []).append(e)
                return by_totals

            out = {}
            black_excesses = excesses(black)
            for (pw, uw), ews in excesses(white).items():
                for (pb, ub), ebs in black_excesses.items():
                    pairs, cumulative, material = [], [], 0
                    for ew in ews:
                        for eb in ebs:
                            if captures_allow((pw, uw, ew), (pb, ub, eb), self.shape):
                                material += white[(pw, uw, ew)].weight * black[(pb, ub, eb)].weight
                                pairs.append((ew, eb))
                                cumulative.append(material)
                    if material:
                        out[(pw, uw, pb, ub)] = (pairs, cumulative)
            return out

        return self._memo(("material", white_units, black_units), make)

    def _strata(
        self, white_fixed: Signature, black_fixed: Signature, pawn_room: int, room: int
    ) -> tuple[list, list[int]]:
        """Boards per (pw, uw, pb, ub) beside one king pair when ``pawn_room`` free squares
        on pawn ranks and ``room`` free squares in all take the pawns and units that are not
        fixed (items 4-5); the strata with cumulative counts."""

        def make() -> tuple[list, list[int]]:
            strata, cumulative, total = [], [], 0
            for (pw, uw, pb, ub), (_, material) in self._material(white_fixed[1:], black_fixed[1:]).items():
                free_pw, free_pb = pw - white_fixed[0], pb - black_fixed[0]
                if free_pw < 0 or free_pb < 0 or free_pw + free_pb > pawn_room:
                    continue
                free_uw, free_ub = uw - sum(white_fixed[1:]), ub - sum(black_fixed[1:])
                rest = room - free_pw - free_pb
                if free_uw + free_ub > rest:
                    continue
                total += (
                    math.comb(pawn_room, free_pw)
                    * math.comb(pawn_room - free_pw, free_pb)
                    * math.comb(rest, free_uw + free_ub)
                    * math.comb(free_uw + free_ub, free_uw)
                    * material[-1]
                )
                strata.append((pw, uw, pb, ub))
                cumulative.append(total)
            return strata, cumulative

        return self._memo(("strata", white_fixed, black_fixed, pawn_room, room), make)

    def _layout(self, constraint: Constraint) -> tuple[list[list[tuple[int, int]]], int, int] | None:
        """The king pairs by the number k of free kings on pawn ranks, the free squares on
        pawn ranks and the free squares (fixed and empty ones excluded); None when no board
        meets the constraint's fixed part (a pawn off the pawn ranks, two kings of a
        colour, a square both fixed and empty)."""

        def make() -> tuple[list[list[tuple[int, int]]], int, int] | None:
            shape = self.shape
            fixed = dict(constraint.fixed)
            if len(fixed) != len(constraint.fixed) or set(fixed) & constraint.empty:
                return None
            if any(letter in "Pp" and not shape.pawn_rank(square) for square, letter in fixed.items()):
                return None
            free = [s for s in range(shape.squares) if s not in fixed and s not in constraint.empty]
            kings = []
            for king in "Kk":
                at = [s for s, letter in fixed.items() if letter == king]
                if len(at) > 1:
                    return None
                kings.append(at or free)
            classes: list[list[tuple[int, int]]] = [[], [], []]
            for wk in kings[0]:
                for bk in kings[1]:
                    if wk != bk and not shape.adjacent(wk, bk):
                        on_pawn_ranks = sum(shape.pawn_rank(k) and k not in fixed for k in (wk, bk))
                        classes[on_pawn_ranks].append((wk, bk))
            pawn_room = sum(shape.pawn_rank(s) for s in free)
            free_kings = sum(1 for king in "Kk" if king not in fixed.values())
            return classes, pawn_room, len(free) - free_kings

        return self._memo(("layout", constraint), make)

    def _class_counts(self, constraint: Constraint) -> list[int]:
        """Boards of the constraint per king class k (items 1-5)."""

        def make() -> list[int]:
            layout = self._layout(constraint)
            if layout is None:
                return [0, 0, 0]
            classes, pawn_room, room = layout
            white, black = constraint.material(chess.WHITE), constraint.material(chess.BLACK)
            counts = []
            for k, kings in enumerate(classes):
                cumulative = self._strata(white, black, pawn_room - k, room)[1] if kings else []
                counts.append(len(kings) * cumulative[-1] if cumulative else 0)
            return counts

        return self._memo(("classes", constraint), make)

    def count(self, constraint: Constraint = Constraint()) -> int:
        """The boards of items 1-5 that meet the constraint."""
        return sum(self._class_counts(constraint))

    @property
    def board_size(self) -> int:
        """Number of boards (items 1-5)."""
        return self.count()

    @property
    def _option_cumulative(self) -> list[int]:
        def make() -> list[int]:
            return list(itertools.accumulate(self.count(option.constraint) for option in RIGHTS))

        return self._memo(("options",), make)

    @property
    def size(self) -> int:
        """N: the boards with each rights option they satisfy (item 6), or the boards alone."""
        return self._option_cumulative[-1] if self.rights else self.board_size

    def draw_board(self, rng: random.Random, constraint: Constraint = Constraint()) -> list[str]:
        """A uniform board of items 1-5 meeting the constraint, as a list of square contents
        ('.' for empty).

        Composition of exact uniform choices: a king class and a stratum with probability
        proportional to their counts, an excess pair and then each colour's signature with
        probability proportional to its arrangements, a king pair uniform in its class, a
        uniform set of free pawn squares (first ones white), then a uniform ordered tuple
        of free squares for the unit list (every arrangement of the multiset arises from
        the same number of tuples)."""
        layout = self._layout(constraint)
        counts = self._class_counts(constraint)
        if layout is None or not sum(counts):
            raise ValueError("no board meets the constraint")
        classes, pawn_room, room = layout
        k = _pick(rng, list(itertools.accumulate(counts)))
        white_fixed, black_fixed = constraint.material(chess.WHITE), constraint.material(chess.BLACK)
        strata, cumulative = self._strata(white_fixed, black_fixed, pawn_room - k, room)
        pw, uw, pb, ub = strata[_pick(rng, cumulative)]
        pairs, material = self._material(white_fixed[1:], black_fixed[1:])[(pw, uw, pb, ub)]
        ew, eb = pairs[_pick(rng, material)]
        white_group = self.groups(white_fixed[1:])[(pw, uw, ew)]
        black_group = self.groups(black_fixed[1:])[(pb, ub, eb)]
        white = white_group.signatures[_pick(rng, white_group.cumulative)]
        black = black_group.signatures[_pick(rng, black_group.cumulative)]
        cells = ["."] * self.shape.squares
        for square, letter in constraint.fixed:
            cells[square] = letter
        wk, bk = rng.choice(classes[k])
        cells[wk], cells[bk] = "K", "k"

        def free(square: int) -> bool:
            return cells[square] == "." and square not in constraint.empty

        pawn_free = [s for s in range(self.shape.squares) if self.shape.pawn_rank(s) and free(s)]
        free_pw, free_pb = pw - white_fixed[0], pb - black_fixed[0]
        for i, square in enumerate(rng.sample(pawn_free, free_pw + free_pb)):
            cells[square] = "P" if i < free_pw else "p"
        units = [
            letter
            for letter, count, fixed in zip(PIECE_LETTERS, white[1:], white_fixed[1:], strict=False)
            for _ in range(count - fixed)
        ]
        units += [
            letter.lower()
            for letter, count, fixed in zip(PIECE_LETTERS, black[1:], black_fixed[1:], strict=False)
            for _ in range(count - fixed)
        ]
        for square, letter in zip(
            rng.sample([s for s in range(self.shape.squares) if free(s)], len(units)), units, strict=True
        ):
            cells[square] = letter
        return cells

    def draw(self, rng: random.Random) -> chess.Board:
        """A uniform element of S (8x8 with rights only), mapped to its position."""
        if not self.rights:
            raise ValueError("positions are drawn only from the 8x8 space with rights")
        option = RIGHTS[_pick(rng, self._option_cumulative)]
        cells = self.draw_board(rng, option.constraint)
        board = chess.Board(None)
        for square, letter in enumerate(cells):
            if letter != ".":
                board.set_piece_at(square, chess.Piece.from_symbol(letter))
        board.turn = option.turn
        board.castling_rights = option.castling_mask
        if option.ep is not None:
            board.ep_square = _ep_square(board, option.ep[0])
            if not board.has_legal_en_passant():
                board.ep_square = None
        return board


# Rook squares of the rights K, Q, k, q (bits 0..3 of a castling subset).
_CASTLE_ROOKS = (chess.H1, chess.A1, chess.H8, chess.A8)


def _ep_square(board: chess.Board, file: int) -> chess.Square:
    return chess.square(file, 5 if board.turn else 2)


@dataclass(frozen=True)
class RightsOption:
    """Item 6: the side to move, a castling subset (bits 0-3: K, Q, k, q) and an
    en-passant pair (file of the pawn that just double-stepped, file of a pawn of the side
    to move beside it) or None."""

    turn: chess.Color
    castling: int
    ep: tuple[int, int] | None

    @property
    def castling_mask(self) -> int:
        return chess.SquareSet(sq for bit, sq in enumerate(_CASTLE_ROOKS) if self.castling >> bit & 1).mask

    @cached_property
    def constraint(self) -> Constraint:
        """The boards that satisfy this option: kings and rooks of the castling rights at
        home; for an ep pair the double-stepped pawn on its fourth rank with its start and
        passed squares empty, and the capturer beside it."""
        fixed: dict[int, str] = {}
        for bit, rook in enumerate(_CASTLE_ROOKS):
            if self.castling >> bit & 1:
                white = bit < 2
                fixed[rook] = "R" if white else "r"
                fixed[chess.E1 if white else chess.E8] = "K" if white else "k"
        empty: list[int] = []
        if self.ep is not None:
            pawn_file, capturer_file = self.ep
            mover_white = not self.turn
            rank = 3 if mover_white else 4
            fixed[chess.square(pawn_file, rank)] = "P" if mover_white else "p"
            fixed[chess.square(capturer_file, rank)] = "p" if mover_white else "P"
            empty = [chess.square(pawn_file, r) for r in ((1, 2) if mover_white else (5, 6))]
        return Constraint(tuple(sorted(fixed.items())), frozenset(empty))


EP_PAIRS = tuple((f, g) for f in range(8) for g in (f - 1, f + 1) if 0 <= g < 8)
RIGHTS = tuple(
    RightsOption(turn, castling, ep)
    for turn in (chess.WHITE, chess.BLACK)
    for castling in range(16)
    for ep in (None, *EP_PAIRS)
)
# the options of each side to move with an ep pair and no castling (multiplicity)
_EP_OPTIONS = {turn: [RightsOption(turn, 0, pair) for pair in EP_PAIRS] for turn in (chess.WHITE, chess.BLACK)}


def _castling_subset(board: chess.Board) -> int | None:
    """The castling rights of the board as a subset of KQkq (None for rights elsewhere)."""
    rights = board.castling_rights
    subset = sum(1 << bit for bit, sq in enumerate(_CASTLE_ROOKS) if rights & chess.BB_SQUARES[sq])
    return subset if rights == RightsOption(board.turn, subset, None).castling_mask else None


def board_in_space(board: chess.Board) -> bool:
    """Items 1-5: material signatures, capture accounting, kings distinct and
    non-adjacent, pawns on ranks 2-7."""
    shape = SpaceShape()
    white_king, black_king = board.king(chess.WHITE), board.king(chess.BLACK)
    if white_king is None or black_king is None or chess.popcount(board.kings) != 2:
        return False
    if shape.adjacent(white_king, black_king):
        return False
    if board.pawns & (chess.BB_RANK_1 | chess.BB_RANK_8):
        return False
    colour_totals = []
    for color in (chess.WHITE, chess.BLACK):
        p, n, b, r, q = (len(board.pieces(pt, color)) for pt in chess.PIECE_TYPES[:5])
        sig: Signature = (p, n, b, r, q)
        if sig not in _ALLOWED_SIGNATURES:
            return False
        colour_totals.append(totals(sig, shape))
    white, black = colour_totals
    return captures_allow(white, black, shape)


def multiplicity(board: chess.Board) -> int:
    """m: how many elements of S map to this position (0 when it is not in S).

    An ep square without a legal ep capture is ignored (identity of positions, module
    doc); a castling right whose king or rook is not at home puts the FEN outside S."""
    castling = _castling_subset(board)
    if castling is None or not board_in_space(board):
        return 0
    if not RightsOption(board.turn, castling, None).constraint.holds(board):
        return 0
    pairs = [
        option.ep for option in _EP_OPTIONS[board.turn] if option.ep is not None and option.constraint.holds(board)
    ]
    if board.ep_square is not None and board.has_legal_en_passant():
        return sum(pawn_file == chess.square_file(board.ep_square) for pawn_file, _ in pairs)
    trial = board.copy(stack=False)
    legal_files = set()
    for pawn_file in {pawn_file for pawn_file, _ in pairs}:
        trial.ep_square = _ep_square(board, pawn_file)
        if trial.has_legal_en_passant():
            legal_files.add(pawn_file)
    return 1 + sum(pawn_file not in legal_files for pawn_file, _ in pairs)


def draws(count: int, seed: int, space: SampleSpace | None = None) -> Iterator[chess.Board]:
    """``count`` independent uniform elements of S from ``random.Random(seed)``."""
    space = space or STANDARD
    rng = random.Random(seed)
    for _ in range(count):
        yield space.draw(rng)


def sample_fen(board: chess.Board) -> str:
    """The FEN of a drawn position in Tromp's sample format: field 5 = 0 (no equivalence
    classes here), field 6 = its multiplicity m in S."""
    placement_side_rights = " ".join(board.fen(en_passant="legal").split()[:4])
    return f"{placement_side_rights} 0 {multiplicity(board)}"


STANDARD = SampleSpace()
_ALLOWED_SIGNATURES = frozenset(STANDARD.signatures)

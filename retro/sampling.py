"""The sample space S for counting legal chess positions: exact size, uniform draws, multiplicity.

Source: Österlund, Texel proof-game documentation (paper 002), "estimating the number of
legal chess positions": a multiset S with known size N, a way to draw uniform members,
and for every position P its multiplicity m(P) in S; then ``N * mean(Y)`` with
``Y = 1/m`` for legal samples (0 otherwise) is unbiased.

Definition of S (an element is a tuple, drawn uniformly by composing exact uniform choices):

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
6. The side to move (2 choices).
7. A *rights option* among ``16 * 9 = 144``: a castling subset of KQkq and an en-passant
   file (or none). The option is *compatible* with the board when every castling right
   has its king and rook on their initial squares, and the ep file has a pawn of the side
   not to move on its fourth rank with the two squares behind it empty and the side to
   move has a legal en-passant capture there. An element whose option is compatible maps
   to the position with those rights; an incompatible option maps to the same board and
   side with *no* rights.

Identity of positions (FIDE 9.2.2, and python-chess's FEN writer): placement, side to
move, castling rights, and the ep square only when an ep capture is legal. A FEN whose ep
square has no legal ep capture denotes the position without it.

Every legal position is in S: items 1-5 are necessary conditions of legality (above), and
a legal position's castling rights and (legally capturable) ep square always satisfy
compatibility (castling needs the unmoved king and rook; an ep square means a pawn just
made a double step past it).

Multiplicity: a position with any castling right or ep square comes from exactly one
element (m = 1). A position without rights comes from the option (none, none) and from
every incompatible option: ``m = 1 + 144 - V`` where ``V = 2**c * (1 + e)`` is the number
of compatible options, c the number of castling rights with king and rook at home, e the
number of ep-compatible files. Boards outside items 1-5 have m = 0.

Size: ``N = 2 * 144 * sum K(k) * C(pawnsq-k, pw) * C(pawnsq-k-pw, pb) * C(62-pw-pb, uw+ub)
* C(uw+ub, uw) * W(pw, uw, ew) * W(pb, ub, eb)`` over the strata (pw, uw, ew, pb, ub, eb)
allowed by items 1-2 and k = the number of kings on ranks 2-7 (K(k) = number of
non-adjacent ordered king pairs with k of them on pawn ranks); ``W(p, u, e)`` sums
``u! / (n! b! r! q!)`` (the arrangements of a unit list) over the signatures of a colour
with those totals. The counting is parametrized by board size and material
(:class:`SpaceShape`) so tests can check it against brute-force enumeration.

Choices the paper leaves open: bishops count against 2 regardless of square colour (a
tighter per-colour count would need square colours in the placement count), and nothing
about checks is in S (the static rules, :mod:`retro.rules`, reject such samples before
the expensive deciders; the estimator counts them as illegal, which they are).
"""

from __future__ import annotations

import bisect
import itertools
import math
import random
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property

import chess

__all__ = [
    "SpaceShape",
    "SampleSpace",
    "RIGHTS_OPTIONS",
    "STANDARD",
    "multiplicity",
    "board_in_space",
    "draws",
    "sample_fen",
]

RIGHTS_OPTIONS = 16 * 9
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


def excess(signature: Signature, shape: SpaceShape) -> int:
    """Units beyond the initial counts: a lower bound on the promotions of that colour."""
    return sum(max(0, c - base) for c, base in zip(signature[1:], shape.base_counts))


def totals(signature: Signature, shape: SpaceShape) -> Totals:
    return signature[0], sum(signature[1:]), excess(signature, shape)


def colour_signatures(shape: SpaceShape) -> list[Signature]:
    """All (p, n, b, r, q) allowed by promotion accounting (item 1)."""
    out = []
    for p in range(shape.max_pawns + 1):
        spare = shape.max_pawns - p
        ranges = [range(base + spare + 1) for base in shape.base_counts]
        for counts in itertools.product(*ranges):
            if excess((p, *counts), shape) <= spare:
                out.append((p, *counts))
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


def king_pair_classes(shape: SpaceShape) -> list[list[tuple[int, int]]]:
    """Non-adjacent ordered king pairs, grouped by how many kings stand on pawn ranks."""
    classes: list[list[tuple[int, int]]] = [[], [], []]
    for wk in range(shape.squares):
        for bk in range(shape.squares):
            if wk != bk and not shape.adjacent(wk, bk):
                classes[shape.pawn_rank(wk) + shape.pawn_rank(bk)].append((wk, bk))
    return classes


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
class _Group:
    """Signatures of one colour with the same totals, each weighted by its unit arrangements."""

    signatures: list[Signature]
    cumulative: list[int]

    @property
    def weight(self) -> int:
        return self.cumulative[-1]


@dataclass(frozen=True)
class _Stratum:
    """Boards with given pawn and unit totals per colour and k kings on pawn ranks; the
    excess pairs allowed by item 2 with their cumulative material weights."""

    pw: int
    uw: int
    pb: int
    ub: int
    kings_on_pawn_ranks: int
    excess_pairs: list[tuple[int, int]]
    cumulative: list[int]


class SampleSpace:
    """The multiset S for a given shape: exact counting, uniform draws (see module doc)."""

    def __init__(self, shape: SpaceShape = SpaceShape(), *, rights: bool = True) -> None:
        self.shape = shape
        self.rights = rights  # False: only boards (for brute-force tests)
        self.signatures = colour_signatures(shape)
        self.king_classes = king_pair_classes(shape)
        self.pawn_squares = sum(shape.pawn_rank(s) for s in range(shape.squares))

    @cached_property
    def groups(self) -> dict[Totals, _Group]:
        """Signatures grouped by (pawns, units, excess), weighted by ``u! / prod(n_i!)``
        (the ways to fill u ordered slots with that material)."""
        groups: dict[Totals, _Group] = {}
        for sig in self.signatures:
            group = groups.setdefault(totals(sig, self.shape), _Group([], []))
            previous = group.cumulative[-1] if group.cumulative else 0
            group.signatures.append(sig)
            group.cumulative.append(previous + _multinomial(sum(sig[1:]), sig[1:]))
        return groups

    def placements(self, pw: int, uw: int, pb: int, ub: int, kings_on_pawn_ranks: int) -> int:
        """Ways to place the pawns (as a set per colour) and the unit slots (white ones
        first) beside one king pair of the class (items 4-5)."""
        free_pawn = self.pawn_squares - kings_on_pawn_ranks
        pawns = math.comb(free_pawn, pw) * math.comb(free_pawn - pw, pb)
        rest = self.shape.squares - 2 - pw - pb
        return pawns * math.comb(rest, uw + ub) * math.comb(uw + ub, uw)

    @cached_property
    def _table(self) -> tuple[list[_Stratum], list[int]]:
        """The strata with their cumulative weights (boards of items 1-5)."""
        excesses: dict[tuple[int, int], list[int]] = {}
        for p, u, e in sorted(self.groups):
            excesses.setdefault((p, u), []).append(e)
        strata: list[_Stratum] = []
        cumulative: list[int] = []
        total = 0
        for (pw, uw), white_excesses in excesses.items():
            for (pb, ub), black_excesses in excesses.items():
                pairs, weights, material = [], [], 0
                for ew in white_excesses:
                    for eb in black_excesses:
                        if captures_allow((pw, uw, ew), (pb, ub, eb), self.shape):
                            material += self.groups[(pw, uw, ew)].weight * self.groups[(pb, ub, eb)].weight
                            pairs.append((ew, eb))
                            weights.append(material)
                if not material:
                    continue
                for k, kings in enumerate(self.king_classes):
                    if pw + pb > self.pawn_squares - k or not kings:
                        continue
                    weight = len(kings) * self.placements(pw, uw, pb, ub, k) * material
                    if weight:
                        total += weight
                        strata.append(_Stratum(pw, uw, pb, ub, k, pairs, weights))
                        cumulative.append(total)
        return strata, cumulative

    @property
    def board_size(self) -> int:
        """Number of boards (items 1-5)."""
        return self._table[1][-1]

    @property
    def size(self) -> int:
        """N: boards x side to move x rights options."""
        return self.board_size * (2 * RIGHTS_OPTIONS if self.rights else 1)

    def draw_board(self, rng: random.Random) -> list[str]:
        """A uniform board of items 1-5, as a list of square contents ('.' for empty).

        Composition of exact uniform choices: a stratum with probability proportional to
        its count, an excess pair and then each colour's signature with probability
        proportional to its arrangements, a king pair uniform in its class, a uniform
        set of pawn squares (first ones white), then a uniform ordered tuple of free
        squares for the unit list (every arrangement of the multiset arises from the same
        number of tuples)."""
        strata, cumulative = self._table
        stratum = strata[_pick(rng, cumulative)]
        ew, eb = stratum.excess_pairs[_pick(rng, stratum.cumulative)]
        white_group = self.groups[(stratum.pw, stratum.uw, ew)]
        black_group = self.groups[(stratum.pb, stratum.ub, eb)]
        white = white_group.signatures[_pick(rng, white_group.cumulative)]
        black = black_group.signatures[_pick(rng, black_group.cumulative)]
        wk, bk = rng.choice(self.king_classes[stratum.kings_on_pawn_ranks])
        cells = ["."] * self.shape.squares
        cells[wk], cells[bk] = "K", "k"
        pawn_free = [s for s in range(self.shape.squares) if self.shape.pawn_rank(s) and cells[s] == "."]
        chosen = rng.sample(pawn_free, stratum.pw + stratum.pb)
        for i, square in enumerate(chosen):
            cells[square] = "P" if i < stratum.pw else "p"
        units = [letter for letter, count in zip(PIECE_LETTERS, white[1:]) for _ in range(count)]
        units += [letter.lower() for letter, count in zip(PIECE_LETTERS, black[1:]) for _ in range(count)]
        free = [s for s in range(self.shape.squares) if cells[s] == "."]
        for square, letter in zip(rng.sample(free, len(units)), units):
            cells[square] = letter
        return cells

    def draw(self, rng: random.Random) -> chess.Board:
        """A uniform element of S (8x8 only), mapped to its position."""
        if self.shape != SpaceShape():
            raise ValueError("positions exist only for the 8x8 space")
        cells = self.draw_board(rng)
        board = chess.Board(None)
        for square, letter in enumerate(cells):
            if letter != ".":
                board.set_piece_at(square, chess.Piece.from_symbol(letter))
        board.turn = rng.randrange(2) == 0
        castle_subset, ep_option = divmod(rng.randrange(RIGHTS_OPTIONS), 9)
        castle_squares = [sq for bit, sq in enumerate(_CASTLE_ROOKS) if castle_subset >> bit & 1]
        ep_file = ep_option - 1
        if all(sq in _compatible_castling(board) for sq in castle_squares) and (
            ep_file < 0 or ep_file in _compatible_ep_files(board)
        ):
            board.castling_rights = chess.SquareSet(castle_squares).mask
            if ep_file >= 0:
                board.ep_square = _ep_square(board, ep_file)
        return board


# Rook squares of the rights K, Q, k, q (bits 0..3 of a castling subset).
_CASTLE_ROOKS = (chess.H1, chess.A1, chess.H8, chess.A8)


def _compatible_castling(board: chess.Board) -> list[chess.Square]:
    """Castling rights whose king and rook stand on their initial squares."""
    out = []
    for rook_square in _CASTLE_ROOKS:
        color = chess.WHITE if rook_square < 8 else chess.BLACK
        king_square = chess.E1 if color else chess.E8
        if board.piece_at(king_square) == chess.Piece(chess.KING, color) and board.piece_at(
            rook_square
        ) == chess.Piece(chess.ROOK, color):
            out.append(rook_square)
    return out


def _ep_square(board: chess.Board, file: int) -> chess.Square:
    return chess.square(file, 5 if board.turn else 2)


def _compatible_ep_files(board: chess.Board) -> list[int]:
    """Files where the side not to move has a pawn that may just have double-stepped
    (start and passed squares empty) and the side to move can legally take it en passant."""
    mover = not board.turn
    rank = 3 if mover == chess.WHITE else 4
    passed, start = (2, 1) if mover == chess.WHITE else (5, 6)
    out = []
    for file in range(8):
        if board.piece_at(chess.square(file, rank)) != chess.Piece(chess.PAWN, mover):
            continue
        if board.piece_at(chess.square(file, passed)) or board.piece_at(chess.square(file, start)):
            continue
        trial = board.copy(stack=False)
        trial.castling_rights = 0
        trial.ep_square = _ep_square(board, file)
        if trial.has_legal_en_passant():
            out.append(file)
    return out


def board_in_space(board: chess.Board) -> bool:
    """Items 1-5: material signatures, capture accounting, kings distinct and
    non-adjacent, pawns on ranks 2-7."""
    shape = SpaceShape()
    kings = [board.king(chess.WHITE), board.king(chess.BLACK)]
    if None in kings or chess.popcount(board.kings) != 2 or shape.adjacent(kings[0], kings[1]):  # type: ignore[arg-type]
        return False
    if board.pawns & (chess.BB_RANK_1 | chess.BB_RANK_8):
        return False
    colour_totals = []
    for color in (chess.WHITE, chess.BLACK):
        sig = tuple(len(board.pieces(pt, color)) for pt in (chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN))
        if sig not in _ALLOWED_SIGNATURES:
            return False
        colour_totals.append(totals(sig, shape))  # type: ignore[arg-type]
    white, black = colour_totals
    return captures_allow(white, black, shape)


def multiplicity(board: chess.Board) -> int:
    """m: how many elements of S map to this position (0 when it is not in S).

    An ep square without a legal ep capture is ignored (identity of positions, module
    doc); a castling right whose king or rook is not at home puts the FEN outside S."""
    if not board_in_space(board):
        return 0
    castling = chess.SquareSet(board.castling_rights)
    compatible_castling = _compatible_castling(board)
    if any(sq not in compatible_castling for sq in castling):
        return 0
    ep_files = _compatible_ep_files(board)
    ep = board.ep_square
    has_ep = ep is not None and ep == _ep_square(board, chess.square_file(ep)) and chess.square_file(ep) in ep_files
    if castling or has_ep:
        return 1
    compatible = 2 ** len(compatible_castling) * (1 + len(ep_files))
    return 1 + RIGHTS_OPTIONS - compatible


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

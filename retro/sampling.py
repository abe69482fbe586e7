"""The sample space S for counting legal chess positions: exact size, uniform draws, multiplicity.

Source: Österlund, Texel proof-game documentation (paper 002), "estimating the number of
legal chess positions": a multiset S with known size N, a way to draw uniform members,
and for every position P its multiplicity m(P) in S; then ``N * mean(Y)`` with
``Y = 1/m`` for legal samples (0 otherwise) is unbiased.

Definition of S (an element is a tuple, drawn uniformly by composing exact uniform choices):

1. A *material signature* per colour: counts (pawns p, knights n, bishops b, rooks r,
   queens q) with ``p <= 8`` and ``max(0,n-2)+max(0,b-2)+max(0,r-2)+max(0,q-1) <= 8-p``.
   Every legal position satisfies this: each unit in excess of the initial count is a
   promoted pawn, and each promoted pawn is a pawn missing from the 8 (promotion
   accounting). It implies at most 16 units per colour.
2. Two kings on distinct, non-adjacent squares (adjacent kings: the side to move could
   capture a king — never legal). Ordered (white, black) pairs.
3. Pawns of both colours on distinct free squares of ranks 2-7 (a pawn on rank 1 or 8
   is never legal: it would have promoted / cannot move backwards).
4. The remaining units (N, B, R, Q of both colours) on distinct free squares anywhere.
5. The side to move (2 choices).
6. A *rights option* among ``16 * 9 = 144``: a castling subset of KQkq and an en-passant
   file (or none). The option is *compatible* with the board when every castling right
   has its king and rook on their initial squares and the ep file has an enemy pawn on
   its fourth/fifth rank (rank 5 for a white-to-move, rank 4 for black-to-move) with the
   two squares behind it empty. An element whose option is compatible maps to the
   position with those rights; an incompatible option maps to the same board and side
   with *no* rights.

Every legal position is in S: items 1-3 are necessary conditions of legality (above),
and a legal position's castling rights and ep square always satisfy compatibility
(castling needs the unmoved king and rook; an ep square means a pawn just made a double
step past it). Identity of a position is (placement, side, castling, ep file) as written
in the FEN (the ep square is kept whenever compatible, as in the FEN standard).

Multiplicity: a position with any castling right or ep file comes from exactly one
element (m = 1). A position without rights comes from the option (none, none) and from
every incompatible option: ``m = 1 + 144 - V`` where ``V = 2**c * (1 + e)`` is the number
of compatible options, c the number of castling rights with king and rook at home, e the
number of ep-compatible files. Boards outside items 1-4 have m = 0.

Size: ``N = 2 * 144 * sum_sig K(k) * C(48-k, Pw) * C(48-k-Pw, Pb) * multinomial(62-Pw-Pb; units)``
summed over signature pairs and over k = the number of kings on ranks 2-7 (K(k) = number
of non-adjacent ordered king pairs with k of them on pawn ranks). The counting is
parametrized by board size and maximum pawns (`SpaceShape`) so tests can check it
against brute-force enumeration on small boards.

Choice left open by the paper: S is not as tight as Tromp's (8.7e45) — no capture
accounting between colours; this keeps membership easy to prove. Tighter is future work.
"""

from __future__ import annotations

import bisect
import itertools
import math
import random
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
]

RIGHTS_OPTIONS = 16 * 9
PIECE_LETTERS = "NBRQ"
BASE_COUNTS = (2, 2, 2, 1)  # initial N, B, R, Q


@dataclass(frozen=True)
class SpaceShape:
    """Board size and material bounds; the real game is ``SpaceShape()``."""

    files: int = 8
    ranks: int = 8
    max_pawns: int = 8
    base_counts: tuple[int, int, int, int] = BASE_COUNTS

    @property
    def squares(self) -> int:
        return self.files * self.ranks

    def pawn_rank(self, square: int) -> bool:
        rank = square // self.files
        return 0 < rank < self.ranks - 1

    def adjacent(self, a: int, b: int) -> bool:
        return max(abs(a % self.files - b % self.files), abs(a // self.files - b // self.files)) <= 1


Signature = tuple[int, int, int, int, int]  # pawns, N, B, R, Q


def colour_signatures(shape: SpaceShape) -> list[Signature]:
    """All (p, n, b, r, q) allowed by promotion accounting (item 1)."""
    out = []
    for p in range(shape.max_pawns + 1):
        spare = shape.max_pawns - p
        ranges = [range(base + spare + 1) for base in shape.base_counts]
        for counts in itertools.product(*ranges):
            extra = sum(max(0, c - base) for c, base in zip(counts, shape.base_counts))
            if extra <= spare:
                out.append((p, *counts))
    return out


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


class SampleSpace:
    """The multiset S for a given shape: exact counting, uniform draws (see module doc)."""

    def __init__(self, shape: SpaceShape = SpaceShape(), *, rights: bool = True) -> None:
        self.shape = shape
        self.rights = rights  # False: only boards (for brute-force tests)
        self.signatures = colour_signatures(shape)
        self.king_classes = king_pair_classes(shape)
        self.pawn_squares = sum(shape.pawn_rank(s) for s in range(shape.squares))

    @cached_property
    def _colour_groups(self) -> dict[tuple[int, int], tuple[list[Signature], list[int], int]]:
        """Signatures grouped by (pawns, units), each weighted by its unit arrangements
        ``u! / prod(n_i!)`` (the ways to fill u ordered slots with that material)."""
        groups: dict[tuple[int, int], tuple[list[Signature], list[int], int]] = {}
        for sig in self.signatures:
            units = sum(sig[1:])
            weight = _multinomial(units, sig[1:])
            sigs, cumulative, total = groups.setdefault((sig[0], units), ([], [], 0))
            sigs.append(sig)
            cumulative.append(total + weight)
            groups[(sig[0], units)] = (sigs, cumulative, total + weight)
        return groups

    def stratum_count(self, pw: int, uw: int, pb: int, ub: int, kings_on_pawn_ranks: int) -> int:
        """Boards for one king pair of the class, pawns pw/pb and unit totals uw/ub,
        summed over the signatures of those totals (items 1, 3, 4)."""
        free_pawn = self.pawn_squares - kings_on_pawn_ranks
        pawns = math.comb(free_pawn, pw) * math.comb(free_pawn - pw, pb)
        rest = self.shape.squares - 2 - pw - pb
        places = math.comb(rest, uw + ub) * math.comb(uw + ub, uw)
        groups = self._colour_groups
        return pawns * places * groups[(pw, uw)][2] * groups[(pb, ub)][2]

    @cached_property
    def _table(self) -> tuple[list[tuple[int, int, int, int, int]], list[int], int]:
        """Cumulative weights of the strata (pw, uw, pb, ub, king class)."""
        strata: list[tuple[int, int, int, int, int]] = []
        cumulative: list[int] = []
        total = 0
        keys = sorted(self._colour_groups)
        for pw, uw in keys:
            for pb, ub in keys:
                for k, pairs in enumerate(self.king_classes):
                    if pw + pb > self.pawn_squares - k:
                        continue
                    weight = len(pairs) * self.stratum_count(pw, uw, pb, ub, k)
                    if weight:
                        total += weight
                        strata.append((pw, uw, pb, ub, k))
                        cumulative.append(total)
        return strata, cumulative, total

    @property
    def board_size(self) -> int:
        """Number of boards (items 1-4)."""
        return self._table[2]

    @property
    def size(self) -> int:
        """N: boards x side to move x rights options."""
        return self.board_size * (2 * RIGHTS_OPTIONS if self.rights else 1)

    def _draw_signature(self, rng: random.Random, pawns: int, units: int) -> Signature:
        sigs, cumulative, total = self._colour_groups[(pawns, units)]
        return sigs[bisect.bisect_right(cumulative, rng.randrange(total))]

    def draw_board(self, rng: random.Random) -> list[str]:
        """A uniform board of items 1-4, as a list of square contents ('.' for empty).

        Composition of exact uniform choices: a stratum with probability proportional to
        its count, a king pair uniform in its class, each colour's signature with
        probability proportional to its unit arrangements, a uniform set of pawn squares
        (first ones white), then a uniform ordered tuple of free squares for the unit list
        (every arrangement of the multiset arises from the same number of tuples)."""
        strata, cumulative, total = self._table
        pw, uw, pb, ub, k = strata[bisect.bisect_right(cumulative, rng.randrange(total))]
        white = self._draw_signature(rng, pw, uw)
        black = self._draw_signature(rng, pb, ub)
        wk, bk = rng.choice(self.king_classes[k])
        cells = ["."] * self.shape.squares
        cells[wk], cells[bk] = "K", "k"
        pawn_free = [s for s in range(self.shape.squares) if self.shape.pawn_rank(s) and cells[s] == "."]
        chosen = rng.sample(pawn_free, pw + pb)
        for i, square in enumerate(chosen):
            cells[square] = "P" if i < pw else "p"
        units = [l for l, c in zip(PIECE_LETTERS, white[1:]) for _ in range(c)]
        units += [l.lower() for l, c in zip(PIECE_LETTERS, black[1:]) for _ in range(c)]
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
        option = rng.randrange(RIGHTS_OPTIONS)
        castle_subset, ep_option = divmod(option, 9)
        castle_squares = [sq for bit, sq in enumerate(_CASTLE_ROOKS) if castle_subset >> bit & 1]
        ep_file = ep_option - 1
        if all(sq in _compatible_castling(board) for sq in castle_squares) and (
            ep_file < 0 or ep_file in _compatible_ep_files(board)
        ):
            board.castling_rights = chess.SquareSet(castle_squares).mask
            if ep_file >= 0:
                board.ep_square = chess.square(ep_file, 5 if board.turn else 2)
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


def _compatible_ep_files(board: chess.Board) -> list[int]:
    """Files where the side not to move has a pawn that may just have double-stepped."""
    mover = not board.turn
    rank = 3 if mover == chess.WHITE else 4
    passed, start = (2, 1) if mover == chess.WHITE else (5, 6)
    out = []
    for file in range(8):
        if board.piece_at(chess.square(file, rank)) == chess.Piece(chess.PAWN, mover) and not (
            board.piece_at(chess.square(file, passed)) or board.piece_at(chess.square(file, start))
        ):
            out.append(file)
    return out


def board_in_space(board: chess.Board) -> bool:
    """Items 1-4: material signature, kings distinct and non-adjacent, pawns on ranks 2-7."""
    shape = SpaceShape()
    kings = [board.king(chess.WHITE), board.king(chess.BLACK)]
    if None in kings or chess.popcount(board.kings) != 2 or shape.adjacent(kings[0], kings[1]):  # type: ignore[arg-type]
        return False
    if board.pawns & (chess.BB_RANK_1 | chess.BB_RANK_8):
        return False
    allowed = _ALLOWED_SIGNATURES
    for color in chess.COLORS:
        sig = tuple(len(board.pieces(pt, color)) for pt in (chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN))
        if sig not in allowed:
            return False
    return True


def multiplicity(board: chess.Board) -> int:
    """m: how many elements of S map to this position (0 when it is not in S)."""
    if not board_in_space(board):
        return 0
    castling = chess.SquareSet(board.castling_rights)
    compatible_castling = _compatible_castling(board)
    ep_files = _compatible_ep_files(board)
    if any(sq not in compatible_castling for sq in castling):
        return 0
    ep = board.ep_square
    if ep is not None:
        if ep != chess.square(chess.square_file(ep), 5 if board.turn else 2) or chess.square_file(ep) not in ep_files:
            return 0
    if castling or ep is not None:
        return 1
    compatible = 2 ** len(compatible_castling) * (1 + len(ep_files))
    return 1 + RIGHTS_OPTIONS - compatible


STANDARD = SampleSpace()
_ALLOWED_SIGNATURES = frozenset(STANDARD.signatures)

"""Proof-kernel state space (paper 002, "Relaxation" and the kernel state definition).

A :class:`KernelState` forgets where the units stand and keeps only

* ``columns``: for each file a-h the colours of its pawns in order, index 0 nearest
  rank 1 (``"w"``/``"b"`` characters of a string, e.g. ``"wb"``);
* ``pieces``: counts of the non-pawn, non-king units, per colour and per type, with
  light and dark bishops apart, in the order of :data:`PIECE_NAMES`.

Every capture of a real game is a kernel move; non-captures do not change the state.
Pieces born by a *quiet* promotion (one that is not a capture) are not counted in the
state until the goal test: the goal is reached when each column equals the goal's
column after removing pawns that promote quietly (white pawns above every black pawn
of their column, black pawns below every white one), and those promotions make up
exactly the goal's surplus pieces, bishops by the colour of their promotion square.
A quietly promoted piece that is captured later is, in kernel terms, a capture of its
pawn (``bxPc0``), or for a pawn capture, a capture "by file of origin" (``wPc0xfb0``).
``piece_captures`` (our addition) counts, per colour and kind, the units that only an
enemy *piece* may still capture: initial pieces that never leave their square and are
missing from the goal (:func:`proofkernel.blocked.taken_by_piece`). A piece taking a
piece of such a kind pays one off (which unit it took does not matter: paying first
leaves every continuation open), a pawn may only take the others, and the goal needs
them all paid.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import chess

__all__ = [
    "PIECE_NAMES",
    "QUEEN",
    "ROOK",
    "DARK_BISHOP",
    "LIGHT_BISHOP",
    "KNIGHT",
    "KernelState",
    "Goal",
    "piece_index",
    "promotion_bishop",
    "is_light",
    "bishop_may_leave",
]

PIECE_NAMES = ("Q", "R", "DB", "LB", "N")
QUEEN, ROOK, DARK_BISHOP, LIGHT_BISHOP, KNIGHT = range(5)
FILES = "abcdefgh"


def bishop_may_leave(square: chess.Square, blocked_mask: int) -> bool:
    """Whether a bishop on ``square`` can ever move: not when every diagonal neighbour
    is a blocked square (never vacated, its unit never captured)."""
    diagonal = (
        chess.BB_KING_ATTACKS[square]
        & ~chess.BB_RANKS[chess.square_rank(square)]
        & ~chess.BB_FILES[chess.square_file(square)]
    )
    return bool(diagonal & ~blocked_mask)


def is_light(square: chess.Square) -> bool:
    """a1 is dark."""
    return (chess.square_file(square) + chess.square_rank(square)) % 2 == 1


def promotion_bishop(color: chess.Color, file: int) -> int:
    """Bishop type a pawn of ``color`` gets by promoting on ``file``."""
    square = chess.square(file, 7 if color == chess.WHITE else 0)
    return LIGHT_BISHOP if is_light(square) else DARK_BISHOP


def piece_index(color: chess.Color, kind: int) -> int:
    """Index into :attr:`KernelState.pieces`: white 0-4, black 5-9."""
    return kind if color == chess.WHITE else 5 + kind


def _piece_counts(board: chess.Board, squares: int = chess.BB_ALL) -> tuple[int, ...]:
    """Pieces per :func:`piece_index` on ``squares`` (default: the whole board)."""
    counts = [0] * 10
    for color in chess.COLORS:
        mask = board.occupied_co[color] & squares
        counts[piece_index(color, QUEEN)] = chess.popcount(board.queens & mask)
        counts[piece_index(color, ROOK)] = chess.popcount(board.rooks & mask)
        counts[piece_index(color, KNIGHT)] = chess.popcount(board.knights & mask)
        light = chess.popcount(board.bishops & mask & chess.BB_LIGHT_SQUARES)
        counts[piece_index(color, LIGHT_BISHOP)] = light
        counts[piece_index(color, DARK_BISHOP)] = chess.popcount(board.bishops & mask) - light
    return tuple(counts)


def _columns(board: chess.Board) -> tuple[str, ...]:
    columns = []
    for file in range(8):
        column = ""
        for rank in range(8):
            piece = board.piece_at(chess.square(file, rank))
            if piece is not None and piece.piece_type == chess.PAWN:
                column += "w" if piece.color == chess.WHITE else "b"
        columns.append(column)
    return tuple(columns)


@functools.lru_cache(maxsize=1 << 16)
def _pawns_per_column(columns: tuple[str, ...]) -> tuple[tuple[int, ...], tuple[int, ...], int, int]:
    """Black and white pawns per column, and their totals (many states share columns:
    a capture by a piece of a piece leaves them as they were)."""
    black = tuple(column.count("b") for column in columns)
    white = tuple(column.count("w") for column in columns)
    return black, white, sum(black), sum(white)


@dataclass(frozen=True)
class KernelState:
    """Pawn columns and piece counts; hashable and compared exactly (the
    transposition table keys on the state itself, so there are no hash collisions)."""

    columns: tuple[str, ...]
    pieces: tuple[int, ...]
    #: per piece index: units only an enemy piece may capture, not yet captured
    piece_captures: tuple[int, ...] = (0,) * 10
    #: Pawns per column, indexed ``[color][file]``, and units per colour: derived from
    #: the fields when the state is made (the search evaluates its bound on every child).
    column_pawns: tuple[tuple[int, ...], tuple[int, ...]] = field(init=False, repr=False, compare=False)
    _units: tuple[int, int] = field(init=False, repr=False, compare=False)
    _pawns: tuple[int, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        black, white, black_pawns, white_pawns = _pawns_per_column(self.columns)
        object.__setattr__(self, "column_pawns", (black, white))
        object.__setattr__(self, "_pawns", (black_pawns, white_pawns))
        object.__setattr__(self, "_units", (black_pawns + sum(self.pieces[5:]), white_pawns + sum(self.pieces[:5])))

    @classmethod
    def from_board(cls, board: chess.Board, taken_by_piece: int = 0) -> KernelState:
        """The state of ``board``; ``taken_by_piece``: squares of its pieces that only an
        enemy piece may capture (:func:`proofkernel.blocked.taken_by_piece`)."""
        return cls(_columns(board), _piece_counts(board), _piece_counts(board, taken_by_piece))

    def pawns(self, color: chess.Color) -> int:
        return self._pawns[color]

    def units(self, color: chess.Color) -> int:
        """Pawns and pieces of ``color``, king excluded."""
        return self._units[color]

    def __str__(self) -> str:
        parts = [f"{FILES[f]}:{column}" for f, column in enumerate(self.columns) if column]
        for color, letter in ((chess.WHITE, "w"), (chess.BLACK, "b")):
            parts += [
                f"{letter}{name}={self.pieces[piece_index(color, k)]}"
                for k, name in enumerate(PIECE_NAMES)
                if self.pieces[piece_index(color, k)]
            ]
        return " ".join(parts)


@functools.lru_cache(maxsize=1 << 16)
def split_promotions(column: str, goal_column: str) -> tuple[int, int] | None:
    """``(black, white)``: how many black pawns at the bottom and white pawns at the top
    of ``column`` must promote quietly for it to equal ``goal_column``; ``None`` if no
    such split exists. The split is unique (a second one would make the goal column
    both all black and ending in a white pawn)."""
    extra = len(column) - len(goal_column)
    if extra < 0:
        return None
    for black in range(extra + 1):
        if black and column[black - 1] != "b":
            break
        white = extra - black
        if column[black : black + len(goal_column)] == goal_column and all(
            c == "w" for c in column[len(column) - white :]
        ):
            return black, white
    return None


@dataclass(frozen=True)
class Goal:
    """The goal's kernel state and what the blocked squares forbid.

    ``quiet_promotion[color][file]``: a pawn of ``color`` may promote on ``file``
    without capturing (neither its 7th-rank nor its promotion square is blocked, and
    the 7th-rank square does not attack a blocked enemy king: our rule, for a goal
    that keeps Black's castling rights, White's pawns never promote on d8 or f8. A
    pawn arriving there gives check, the king never moves, and a pawn's check cannot
    be blocked, so the very next move takes the pawn);
    ``capture_promotion[color][file][target]`` likewise for a capture from ``file``
    onto ``target``. ``bishop_promotion[color][file]``: a bishop born by a quiet
    promotion on ``file`` can be one of the goal's bishops - not when every diagonal
    neighbour of the promotion square is blocked (such a bishop never leaves the
    square: a blocked square is never vacated and its unit never captured; so it could
    only be a goal bishop standing on that very square, and the goal has none there;
    e.g. h1 beside a blocked g2 pawn).
    ``locked_bottom[file]``/``locked_top[file]``: the column's lowest
    (a white pawn on rank 2) / highest (a black pawn on rank 7) pawn is blocked, so it
    never moves nor is captured. ``capturable_min[i]``: blocked pieces of each kind,
    which can never be captured. ``sealed_bishops[i]`` (our rule): the goal's bishops,
    per :func:`piece_index`, on their colour's promotion rank on a square they can never
    leave (every diagonal neighbour blocked, e.g. White's a8 beside Black's blocked b7),
    unless the initial position has it there already. No bishop ever
    moves onto such a square either (moves are symmetric),
    and no pawn captures onto it (it would stand on a blocked square first), so each
    was born there by a quiet promotion: the goal test needs at least that many quiet
    promotions to that bishop, which the state's own bishops cannot stand in for."""

    state: KernelState
    quiet_promotion: tuple[tuple[bool, ...], tuple[bool, ...]]
    capture_promotion: tuple[tuple[tuple[bool, ...], ...], tuple[tuple[bool, ...], ...]]
    bishop_promotion: tuple[tuple[bool, ...], tuple[bool, ...]]
    locked_bottom: tuple[bool, ...]
    locked_top: tuple[bool, ...]
    blocked_pieces: tuple[int, ...]
    blocked_mask: int
    sealed_bishops: tuple[int, ...] = (0,) * 10

    @classmethod
    def from_boards(cls, goal: chess.Board, blocked_mask: int, init: chess.Board | None = None) -> Goal:
        """The goal ``goal`` of games from ``init`` (default: the start position), whose
        :func:`~proofkernel.blocked.blocked_squares` are ``blocked_mask``."""
        init = chess.Board() if init is None else init

        def free(file: int, rank: int) -> bool:
            return not blocked_mask & chess.BB_SQUARES[chess.square(file, rank)]

        def bishop_may_be_promoted(color: chess.Color, square: chess.Square) -> bool:
            return bishop_may_leave(square, blocked_mask) or goal.piece_at(square) == chess.Piece(chess.BISHOP, color)

        quiet: list[tuple[bool, ...]] = []
        capture: list[tuple[tuple[bool, ...], ...]] = []
        bishop: list[tuple[bool, ...]] = []
        for color in (chess.BLACK, chess.WHITE):  # index by bool: [False]=black, [True]=white
            seventh, last = (6, 7) if color == chess.WHITE else (1, 0)
            # a pawn giving check to a king that never moves is taken at once
            king = goal.king(not color)
            checking = (
                chess.BB_PAWN_ATTACKS[not color][king]
                if king is not None and blocked_mask & chess.BB_SQUARES[king]
                else 0
            )

            def leaves(file: int, seventh: int = seventh, checking: int = checking) -> bool:
                """A pawn may move on from the 7th-rank square (called in this iteration only)."""
                return free(file, seventh) and not checking & chess.BB_SQUARES[chess.square(file, seventh)]

            quiet.append(tuple(leaves(f) and free(f, last) for f in range(8)))
            capture.append(
                tuple(tuple(abs(f - g) == 1 and leaves(f) and free(g, last) for g in range(8)) for f in range(8))
            )
            bishop.append(tuple(bishop_may_be_promoted(color, chess.square(f, last)) for f in range(8)))
        locked_bottom = tuple(
            bool(blocked_mask & goal.pawns & goal.occupied_co[chess.WHITE] & chess.BB_SQUARES[chess.square(f, 1)])
            for f in range(8)
        )
        locked_top = tuple(
            bool(blocked_mask & goal.pawns & goal.occupied_co[chess.BLACK] & chess.BB_SQUARES[chess.square(f, 6)])
            for f in range(8)
        )
        sealed = 0
        for color, last_rank in ((chess.WHITE, chess.BB_RANK_8), (chess.BLACK, chess.BB_RANK_1)):
            # (a bishop of ``init`` may stand there all along)
            mine = goal.bishops & goal.occupied_co[color] & ~(init.bishops & init.occupied_co[color])
            for square in chess.scan_forward(mine & last_rank & ~blocked_mask):
                if not bishop_may_leave(square, blocked_mask):
                    sealed |= chess.BB_SQUARES[square]
        return cls(
            KernelState.from_board(goal),
            (quiet[0], quiet[1]),
            (capture[0], capture[1]),
            (bishop[0], bishop[1]),
            locked_bottom,
            locked_top,
            _piece_counts(goal, blocked_mask),
            blocked_mask,
            _piece_counts(goal, sealed),
        )

    def promotions_fit(self, state: KernelState) -> bool:
        """Goal test: columns equal up to quiet promotions that supply exactly the goal's
        surplus pieces (see the module docstring)."""
        files: dict[bool, list[int]] = {chess.WHITE: [], chess.BLACK: []}
        for f, (column, goal_column) in enumerate(zip(state.columns, self.state.columns, strict=True)):
            if column == goal_column:
                continue
            split = split_promotions(column, goal_column)
            if split is None:
                return False
            files[chess.BLACK] += [f] * split[0]
            files[chess.WHITE] += [f] * split[1]
        for color in chess.COLORS:
            if any(not self.quiet_promotion[color][f] for f in files[color]):
                return False
            surplus = [self.state.pieces[piece_index(color, k)] - state.pieces[piece_index(color, k)] for k in range(5)]
            if min(surplus) < 0 or sum(surplus) != len(files[color]):
                return False
            if any(surplus[k] < self.sealed_bishops[piece_index(color, k)] for k in (DARK_BISHOP, LIGHT_BISHOP)):
                return False
            bishop_files = [f for f in files[color] if self.bishop_promotion[color][f]]
            light = sum(promotion_bishop(color, f) == LIGHT_BISHOP for f in bishop_files)
            if surplus[LIGHT_BISHOP] > light or surplus[DARK_BISHOP] > len(bishop_files) - light:
                return False
        return True

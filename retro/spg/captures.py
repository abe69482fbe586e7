"""Capture moves and quiet arrivals: a side's captures and its quiet arrivals are distinct moves.

**Rule.** At a node, let C be a colour, E the enemy, ``k`` the number of E's units now
minus in the goal, and ``a`` the moves E still makes. Call a free goal square g of C
(not frozen, :mod:`retro.spg.frozen`) *quiet* when

* g does not hold, now, a unit of C of g's goal type;
* g is not a rook's goal square that a castling rook lands on while C still has that
  castling right (f1 with the h1 right, d1 with the a1 right; f8, d8 for Black);
* g is not a pawn square on C's en-passant landing rank (the sixth rank for White, the
  third for Black) -- there a pawn's capture lands on an empty square;
* no unit x of E that can be captured can stand on g before the end: x is not E's
  king, not frozen, not a pawn if E's pawns off frozen squares are at most the goal's
  free pawn squares, and, if x is a knight, bishop, rook or queen, not of a kind of
  which E has too few units to lose one (a kind: knights, rooks, queens, bishops of
  each square colour; E's units of the kind off frozen squares plus E's *spare
  promoters* at most the goal's free squares of the kind, the spare promoters being E's
  pawns that can promote within ``a`` moves, but at most E's pawns off frozen squares
  minus the goal's free pawn squares); and x needs
  more than ``a`` moves to reach g (a piece: its distance on the board without the
  squares of units that never move and are never captured -- frozen units and pawns
  settled for good of both colours, :mod:`retro.spg.bounds`; a pawn: its pawn distance
  within E's captures left, and it cannot promote within ``a - 1`` moves).

Then C still makes at least ``k + q`` moves, q the number of quiet squares.

**Proof.** Only C captures E's units, one per move, and E ends with its goal count:
C makes exactly ``k`` capture moves. At the end a quiet square g holds a unit of C of
g's goal type; it does not now, and a unit changes type only by promoting (a move), so
some move of C lands on g later; take the last one, m_g. If m_g captured, it captured
a unit x of E standing on g (the only capture that lands off the captured unit is en
passant, which lands on the en-passant rank, excluded). x is not a king (never
captured) and not frozen (frozen units never leave their squares, and g is not frozen).
x was on g after at most ``a`` of E's moves from now, so it could reach g that fast
(distances are lower bounds: a piece's moves on the board without the squares of units
that stand there to the end, which it can neither cross nor enter; a pawn's forward
distance and its file changes, one capture of E each; a pawn that promotes first
needs at least its distance to the last rank plus one move). And x is lost: E's goal
squares of x's kind are then filled by other units of the kind (pieces keep their
type, a bishop its square colour, and no unit becomes a pawn) or by promoted pawns;
every free goal pawn square needs a pawn of E that never promotes (pawns are never
created), so at most E's pawns minus those squares promote; so E lacks units when
the kind's units (x among them) plus the spare promoters are at most those squares.
So every m_g is a quiet move (no capture). The m_g of distinct quiet squares
are distinct moves: a move lands on one square, except castling, which lands its king
and its rook; if a castling move were m_g for the rook's square g, the unit ending on
g would be that rook, so g's goal type would be a rook: such a g is excluded while the
right lasts (without the right, castling never happens). So C makes ``k`` captures and
``q`` other moves.

The search (:mod:`retro.spg.search`) prunes a node where ``k + q`` exceeds C's moves
left, for either side.
"""

from __future__ import annotations

import chess

from astar.paths import pawn_distance, piece_distances
from retro.spg.bounds import MoveBounds

__all__ = ["CaptureMoves"]

# the kinds of units a side may run short of: bishops apart per square colour
_KINDS = (
    (chess.KNIGHT, chess.BB_ALL),
    (chess.BISHOP, chess.BB_LIGHT_SQUARES),
    (chess.BISHOP, chess.BB_DARK_SQUARES),
    (chess.ROOK, chess.BB_ALL),
    (chess.QUEEN, chess.BB_ALL),
)
_TABLE_LIMIT = 100_000  # cached distance tables; cleared beyond (memo lost, never soundness)
_EP_RANK = {chess.WHITE: 5, chess.BLACK: 2}
_LAST_RANK = {chess.WHITE: 7, chess.BLACK: 0}
# (castling corner, the rook's landing square)
_ROOK_LANDS = {
    chess.WHITE: ((chess.H1, chess.F1), (chess.A1, chess.D1)),
    chess.BLACK: ((chess.H8, chess.F8), (chess.A8, chess.D8)),
}


class CaptureMoves:
    """The bound ``k + q`` of each side (module docstring)."""

    def __init__(self, goal: chess.Board, bounds: MoveBounds) -> None:
        frozen = bounds.frozen
        self.bounds = bounds
        self.frozen = frozen
        self.goal_count = {color: chess.popcount(goal.occupied_co[color]) for color in chess.COLORS}
        # per colour: its free goal squares with their type (en-passant-rank pawn squares left out)
        self.squares: dict[chess.Color, list[tuple[chess.Square, chess.PieceType]]] = {}
        self.free_kind: dict[chess.Color, list[int]] = {}
        self.free_pawns: dict[chess.Color, int] = {}
        self.goal_type: dict[chess.Color, dict[chess.Square, chess.PieceType]] = {}
        for color in chess.COLORS:
            squares = []
            for square in chess.scan_forward(goal.occupied_co[color] & ~frozen):
                kind = goal.piece_type_at(square)
                assert kind is not None
                if not (kind == chess.PAWN and chess.square_rank(square) == _EP_RANK[color]):
                    squares.append((square, kind))
            self.squares[color] = squares
            self.goal_type[color] = dict(squares)
            self.free_pawns[color] = chess.popcount(goal.pawns & goal.occupied_co[color] & ~frozen)
            self.free_kind[color] = [
                chess.popcount(goal.pieces_mask(kind, color) & squares & ~frozen) for kind, squares in _KINDS
            ]
        self._tables: dict[tuple[chess.PieceType, chess.Square, chess.Bitboard], tuple[int, ...]] = {}

    def exceeds(self, board: chess.Board, color: chess.Color, moves: int, enemy_moves: int) -> bool:
        """Whether ``k + q`` of ``color`` on ``board`` exceeds its ``moves`` left, the enemy
        making ``enemy_moves`` more moves."""
        return self.needs(board, color, enemy_moves, moves) > moves

    def needs(self, board: chess.Board, color: chess.Color, enemy_moves: int, enough: int = -1) -> int:
        """``k + q`` for ``color`` on ``board``, the enemy making ``enemy_moves`` more moves;
        when ``k`` plus the open goal squares is at most ``enough``, that sum is returned
        (no quiet square counted)."""
        enemy = not color
        captures = chess.popcount(board.occupied_co[enemy]) - self.goal_count[enemy]
        rights = board.clean_castling_rights()
        excluded = 0
        for corner, lands in _ROOK_LANDS[color]:
            if rights & chess.BB_SQUARES[corner] and self.goal_type[color].get(lands) == chess.ROOK:
                excluded |= chess.BB_SQUARES[lands]
        open_squares = [
            square
            for square, kind in self.squares[color]
            if not excluded & chess.BB_SQUARES[square] and board.piece_at(square) != chess.Piece(kind, color)
        ]
        if captures + len(open_squares) <= enough or not open_squares:
            return captures + len(open_squares)
        takers = self.capturable(board, enemy, enemy_moves)
        pawns, bounds = board.pawns, self.bounds
        blocked = (
            self.frozen
            | bounds.settled_pawns(color, pawns & board.occupied_co[color], captures)
            | bounds.settled_pawns(
                enemy,
                pawns & board.occupied_co[enemy],
                chess.popcount(board.occupied_co[color]) - self.goal_count[color],
            )
        )
        quiet = sum(
            1 for square in open_squares if not self._reached(board, enemy, takers, square, enemy_moves, blocked)
        )
        return captures + quiet

    def capturable(self, board: chess.Board, enemy: chess.Color, moves: int) -> list[chess.Square]:
        """The squares of the enemy's units that may still be captured, the enemy making
        ``moves`` more moves (module docstring: no other unit of the enemy is ever captured)."""
        pawns = board.pawns & board.occupied_co[enemy] & ~self.frozen
        extra_pawns = chess.popcount(pawns) - self.free_pawns[enemy]
        promoting = sum(
            1
            for square in chess.scan_forward(pawns)
            if pawn_distance(enemy, square, chess.square(chess.square_file(square), _LAST_RANK[enemy])) <= moves
        )
        promoting = min(promoting, max(extra_pawns, 0))
        free = board.occupied_co[enemy] & ~self.frozen & ~board.kings
        if extra_pawns <= 0:
            free &= ~pawns
        for (kind, squares), wanted in zip(_KINDS, self.free_kind[enemy], strict=True):
            mine = board.pieces_mask(kind, enemy) & squares & ~self.frozen
            if chess.popcount(mine) + promoting <= wanted:
                free &= ~mine
        return list(chess.scan_forward(free))

    def _reached(
        self,
        board: chess.Board,
        enemy: chess.Color,
        takers: list[chess.Square],
        target: chess.Square,
        moves: int,
        blocked: chess.Bitboard,
    ) -> bool:
        """Whether a capturable enemy unit can stand on ``target`` within ``moves`` moves."""
        enemy_captures = chess.popcount(board.occupied_co[not enemy]) - self.goal_count[not enemy]
        for square in takers:
            kind = board.piece_type_at(square)
            assert kind is not None
            if kind == chess.PAWN:
                file_gap = abs(chess.square_file(square) - chess.square_file(target))
                if file_gap <= enemy_captures and pawn_distance(enemy, square, target) <= moves:
                    return True
                last = chess.square(chess.square_file(square), _LAST_RANK[enemy])
                if pawn_distance(enemy, square, last) <= moves - 1:
                    return True
            elif self._distance(kind, target, blocked)[square] <= moves:
                return True
        return False

    def _distance(self, kind: chess.PieceType, target: chess.Square, blocked: chess.Bitboard) -> tuple[int, ...]:
        key = (kind, target, blocked)
        table = self._tables.get(key)
        if table is None:
            if len(self._tables) >= _TABLE_LIMIT:
                self._tables.clear()
            table = self._tables[key] = piece_distances(kind, target, blocked)
        return table

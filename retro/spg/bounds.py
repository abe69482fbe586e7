"""Per-side lower bounds on the moves each side still needs to reach the goal.

In the remaining ``p`` plies the side to move makes ``ceil(p/2)`` moves and the other
``floor(p/2)``; a node is pruned when one side's bound exceeds its own allowance. The two
sides are bounded separately (a White move never counts for Black).

For a colour C at a node (current board), with F the frozen squares
(:mod:`retro.spg.frozen`, never vacated, so *blocked* for every path):

* **Distances** (:mod:`astar.paths`, paper 002 "relaxed problem"): a piece of type T on s
  needs at least ``d_T(s, g)`` moves to reach g on the empty board minus F (a king also
  avoids the squares a frozen enemy unit attacks by contact, :mod:`retro.spg.contact`:
  that unit stands on its square for the whole game and nothing can block a contact
  attack, so the king never moves onto such a square; one already there may step
  off); a pawn needs at least its forward
  distance, changing file only by captures, so by at most ``k`` files where ``k`` is
  the number of enemy units C still has to capture (each capture removes one enemy
  unit for good); a pawn reaching a piece's goal square must promote on the way
  (pawn moves to a promotion square, then the piece's moves).
* **Goal-side sum** ``G``: every free goal unit of C (a goal unit not on F) stands, at
  the end, on its square; it is some unit of C now (units are never created, a
  promoted piece is its pawn), so it costs at least the least distance from any current
  unit of C that can become it. Distinct goal squares are filled by distinct units and
  a move moves one unit, so the costs add up.
* **Unit-side sum** ``U``: every current unit of C either is captured or ends on a goal
  square of C holding a unit it can become, so it costs at least its least distance to
  such a square (0 if it is on one). At most ``e`` units of C are captured, ``e`` = C's
  units now minus in the goal; dropping the ``e`` largest costs leaves a bound.
* **Captures** ``K``: the enemy's units now minus in the goal must all be captured by C,
  one C move each.
* **Castling** moves two units in one move. While a side may still castle, its king on
  its home square is given the castling squares as one-move jumps (cost
  ``min(d(e1, g), 1 + d(g1, g), 1 + d(c1, g))``, the castling squares per right held) and
  a rook on its corner the castling move for free (cost ``min(d(h1, g), d(f1, g))``):
  in a real game the castling move is counted once, as the king's, and the rook's own
  moves start from f1 (d1), so both stay lower bounds. Castling needs the squares between
  king and rook empty, so a right with a frozen unit between them is ignored.
* **Castling rights to lose** (full-FEN goals only): a right the node has and the goal
  lacks must be lost, by moving the king or the rook, or by the rook's capture on its
  corner. When the king is frozen, the rook must move or be captured; a unit that must
  move and ends on its present square costs at least 2 moves (leave, come back), unless
  it is captured (the assignment's capture columns cost it 0). If the rook's only
  non-frozen first-step square holds a unit of C and C loses no more units (the rook is
  then not captured), that unit must move before the rook can, so it too must move.

* The king is never captured, so its cost is never left out of ``U``.
* **Units the enemy's pawns must capture** (added to ``U``). Let g be a free goal pawn
  square of the enemy E with no E pawn on it now, and suppose every E pawn that can
  still reach g (within E's captures left; a pawn settled for good, below, never moves
  again and does not count) stands on another file. The E pawn that ends
  on g then still makes at least one capture, landing on a square of some pawn path from
  its square to g by a diagonal step (the *region* of g: every square reached by a
  diagonal step from the pawn's square, or from a square it can reach, from which g can
  still be reached; a forward step captures nothing, so no capture lands elsewhere).
  So a unit of C is captured there later: it must reach the region first. The units
  captured are among the ``e`` that ``U`` leaves out, and distinct goal squares g mean
  distinct captures of distinct units, so
  ``U + sum over such g of (least distance from any capturable unit of C to g's region)``
  is still a lower bound (each minimum is taken over all units, a relaxation). Sharper,
  for one region taken apart: the unit u captured there is one of the ``e`` left out,
  so ``min over u of (u's distance to the region + the other units' costs without their
  e - 1 largest)`` plus the other regions' minima is a bound too; the largest over the
  choice of that region is used. A pawn's distance to a square is its pawn distance,
  or the moves it needs to promote at least; a pawn the enemy takes en passant stands one
  rank beyond the capture square it skipped, so for pawns the region also holds the
  squares beyond its third-rank (sixth-rank for Black) squares.

* **Assignment** ``A`` (the whole side at once, not a sum of per-unit minimums). Every
  free current unit of C ends the game either on exactly one free goal square of C (a
  unit it can become: its own type, or a pawn promoting) or captured, and distinct
  units end on distinct squares; so the units' destinations are an assignment of the
  free units (rows) to the free goal squares plus ``e`` *capture* columns (there are
  exactly as many rows as columns: frozen units stand on their own goal squares).
  A move moves one unit (castling is counted as the king's, as above), so C's moves are
  at least the sum over its units of each unit's least cost to its destination: the
  costs of ``G`` and ``U`` per pair, 0 for a capture column (the king: never). So the
  least-cost assignment is a lower bound (:mod:`retro.core.assignment`);
  it is at least ``G`` and at least ``U``, as both relax it. Capture columns are
  sharpened by the regions of the next rule: the units the enemy's pawns must capture in
  distinct regions are distinct units of C, so one capture column per region costs the
  unit's distance to the region (up to ``e`` regions; the other capture columns cost 0).
  *Settled units left out*: a unit s of C standing on a goal square g of its own type
  that it need not leave (and that cannot castle) is matched to g, and both are left
  out. Proof that this keeps a lower bound: in a real game the destinations form an
  assignment D. If D sends s to a column c and a unit x to g, match s to g (cost 0)
  and x to c: x's cost to c is at most x's real moves plus s's real moves, because x's
  real route to g followed by s's real route from g is a way from x's square to c
  (piece distances are shortest paths on one graph; a pawn's file changes on both
  routes are captures of C, so at most C's captures left; a promoting pawn reaches a
  piece's square through its own promotion route; a capture column costs 0, and a
  region column is a distance to a set, which obeys the same inequality). Repeating the
  exchange along chains of settled units uses each unit's real moves once, so the
  least assignment with every settled unit at home is still at most C's real moves.
  *Castling*: a game castles at most once per side (castling loses both rights), so
  ``A`` is the least over the options "no castling" (the king and rooks pay their plain
  distances) and "castling with the rook of corner c" (the king pays 1 for the castling
  move plus its distance from its castling square, the rook of c its distance from its
  own castling square, the other rook its plain distance). Per-unit minimums could give
  the castling move to both rooks at once; the options cannot.

* **Pawns settled for good** (used by ``A``). A pawn of a colour X on a free goal pawn
  square g of X, such that no other pawn of X can still reach g (within X's captures
  left), never moves again and is never captured: g must hold a pawn of X at the end,
  pawns are never created and never move back, and no other pawn of X can come to g.
  So g is blocked for every piece route from now on, and ``A``'s piece distances (and
  a promoted piece's, from its promotion square) avoid these squares of both colours
  (X's captures left: C's for C's pawns, ``e`` for the enemy's). C's king also avoids
  the squares such an enemy pawn attacks: the pawn never moves, so the king could
  only come there by moving into check (its goal square is not avoided: the pawn may
  have arrived giving check to a king already there; a king now on such a square may
  step off, :func:`astar.paths.piece_distances`).

* **Pawn paths** (used by ``A``). A square that holds, from now to the end, a unit that
  never moves and is never captured (a frozen unit; a pawn settled for good, of either
  colour; a piece staying for good, below) is never entered by a pawn: a pawn's step
  forward needs an empty square (a double step, both squares), a capture removes the
  unit on its landing square, and en passant lands on an empty square. So a pawn's
  moves from now on to a square t are at least the length of a shortest pawn path to t
  (single steps, a double step from its second rank, at most C's captures left diagonal
  steps) that never lands on nor crosses such a square (:func:`_pawn_walk`, exact by
  breadth-first search). ``A``'s pawn costs (to a pawn square, and to the promotion
  square of a promoting pawn) use these paths, avoiding the frozen squares and the
  squares blocked at the node; the exchange argument of ``A`` keeps holding, as the
  real routes avoid the same squares.

* **Pieces staying for good** (used by the search, :meth:`MoveBounds.staying`). Let a
  piece s of C stand on a goal square g of its type, need not move (no right to lose)
  and be unable to castle, and let no other unit of C be able to end on g (no other
  free unit of the type; a king, or no pawn of C that can promote and reach g). If C
  has at most ``A + 1`` moves left, s never moves again. Proof: at the end g holds s,
  so if s moves it moves at least twice (away and back); the other units' moves are at
  least ``A`` (the least assignment without s and g, by the exchange argument above),
  so C would make at least ``A + 2`` moves. So s's square is blocked for good, for both
  colours (nothing passes it, and it is never captured); the search adds these squares
  (of both colours) to the blocked squares of ``A`` for both sides' bounds.

The bound is ``max(U, K, A)``, each term being a lower bound on C's remaining moves
(``A >= G``, so ``G`` is not computed).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import chess

from astar.paths import INF, king_forbidden_mask, pawn_distance, piece_distances
from retro.core.assignment import least_assignment, least_assignment_dual
from retro.spg.contact import contact_mask
from retro.spg.frozen import first_step_mask

__all__ = ["MoveBounds", "INF", "SideMasks", "side_masks"]

SideMasks = tuple[int, int, int, int, int, int]
"""One colour's pawns, knights, bishops, rooks, queens and kings (bitboards)."""

RowFunction = Callable[[list[tuple[chess.PieceType, chess.Square]], int, int, list[int], chess.Bitboard], list[int]]
"""A unit's assignment row from (goal columns, row size, captures left, regions, blocked squares)."""

_REGION_LIMIT = 12  # larger capture regions are skipped (a weaker bound, never unsound)
_CONTEXT_LIMIT = 100_000  # assignment contexts whose rows are memoised; cleared beyond (memo lost)
_BIG = 10_000  # a forbidden pair of the assignment (any feasible assignment costs far less)
_MEMO_LIMIT = 1_000_000  # memoised side bounds; cleared beyond (memo lost, never soundness)

_PIECES = (chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN, chess.KING)
_BACK_RANK = {chess.WHITE: chess.BB_RANK_1, chess.BLACK: chess.BB_RANK_8}
_KING_HOME = {chess.WHITE: chess.E1, chess.BLACK: chess.E8}
# per rook corner: (the castling rook's landing square, the king's landing square)
_CASTLE = {
    chess.H1: (chess.F1, chess.G1),
    chess.A1: (chess.D1, chess.C1),
    chess.H8: (chess.F8, chess.G8),
    chess.A8: (chess.D8, chess.C8),
}


class MoveBounds:
    """Lower bounds on each colour's remaining moves from a node to ``goal`` (module docstring)."""

    def __init__(self, goal: chess.Board, frozen: int, *, rights_count: bool) -> None:
        self.frozen = frozen
        self.rights_count = rights_count
        self.goal_rights = goal.clean_castling_rights()
        self.goal_count = {c: chess.popcount(goal.occupied_co[c]) for c in chess.COLORS}
        # free goal units per (colour, type), and per goal square its piece type
        self.goal_mask: dict[tuple[chess.Color, chess.PieceType], int] = {}
        self.goal_type: dict[chess.Color, dict[chess.Square, chess.PieceType]] = {c: {} for c in chess.COLORS}
        self.dist: dict[tuple[chess.Color, chess.Square], tuple[int, ...]] = {}
        for color in chess.COLORS:
            for kind in chess.PIECE_TYPES:
                mask = goal.pieces_mask(kind, color) & ~frozen
                self.goal_mask[color, kind] = mask
                for g in chess.scan_forward(mask):
                    self.goal_type[color][g] = kind
                    if kind != chess.PAWN:
                        forbidden = _king_forbidden(color, goal, frozen) if kind == chess.KING else 0
                        self.dist[color, g] = piece_distances(kind, g, frozen, forbidden)
        # the same masks per colour, indexed by piece type (0 unused), for the assignment's loop
        self.goal_masks = {c: [0] + [self.goal_mask[c, kind] for kind in chess.PIECE_TYPES] for c in chess.COLORS}
        # least distance from each square to a free goal square of the type (and to another one)
        self.nearest: dict[tuple[chess.Color, chess.PieceType], list[int]] = {}
        self.nearest_other: dict[tuple[chess.Color, chess.PieceType], list[int]] = {}
        for color in chess.COLORS:
            for kind in _PIECES:
                near, other = [INF] * 64, [INF] * 64
                for g in chess.scan_forward(self.goal_mask[color, kind]):
                    table = self.dist[color, g]
                    for s in range(64):
                        if table[s] < near[s]:
                            near[s] = table[s]
                        if s != g and table[s] < other[s]:
                            other[s] = table[s]
                self.nearest[color, kind], self.nearest_other[color, kind] = near, other
        self._promo: dict[tuple[chess.Color, chess.Square, chess.Square, int], int] = {}
        self._pawn_unit: dict[tuple[chess.Color, chess.Square, int], int] = {}
        self._needs: dict[tuple[chess.Color, SideMasks, int, int, int, int], int] = {}
        self._tables: dict[tuple[chess.Color, chess.Square, int], tuple[int, ...]] = {}
        self._paths: dict[tuple[chess.Color, chess.Square, chess.Square, int, int], int] = {}
        self._forbidden = {color: _king_forbidden(color, goal, frozen) for color in chess.COLORS}
        # memo lost beyond the limit, never soundness: assignment rows; per side configuration
        # (the key of ``_needs`` without extra squares), A and the stay candidates
        self._rows: dict[tuple, dict[int, list[int]]] = {}
        self._goals: dict[tuple[chess.Color, chess.Bitboard], list[tuple[chess.PieceType, chess.Square]]] = {}
        self._info: dict[tuple, tuple[int, int]] = {}
        self._settled: dict[tuple[chess.Color, chess.Bitboard, int], chess.Bitboard] = {}

    # -- pawns ------------------------------------------------------------------------------------------

    def pawn_to(self, color: chess.Color, start: chess.Square, target: chess.Square, captures: int) -> int:
        """Moves for a pawn from ``start`` to the pawn square ``target`` with at most ``captures`` file changes."""
        if abs(chess.square_file(start) - chess.square_file(target)) > captures:
            return INF
        return pawn_distance(color, start, target)

    def pawn_path(
        self, color: chess.Color, start: chess.Square, target: chess.Square, captures: int, blocked: chess.Bitboard
    ) -> int:
        """:meth:`pawn_to` along paths that avoid ``blocked`` (module docstring, "Pawn paths")."""
        plain = self.pawn_to(color, start, target, captures)
        if plain >= INF or start == target:
            return plain
        near = blocked & _path_region(color, start, target)
        if not near:
            return plain
        key = (color, start, target, captures, near)
        cached = self._paths.get(key)
        if cached is None:
            if len(self._paths) >= _MEMO_LIMIT:
                self._paths.clear()
            cached = self._paths[key] = _pawn_walk(color, start, target, captures, near)
        return cached

    def promotion(self, color: chess.Color, start: chess.Square, goal_square: chess.Square, captures: int) -> int:
        """Moves for a pawn on ``start`` to promote and reach the free goal piece on ``goal_square``."""
        key = (color, start, goal_square, captures)
        cached = self._promo.get(key)
        if cached is not None:
            return cached
        table = self.dist[color, goal_square]
        last = 7 if color == chess.WHITE else 0
        best = INF
        if self.goal_type[color][goal_square] != chess.KING:
            for file in range(8):
                square = chess.square(file, last)
                if self.frozen & chess.BB_SQUARES[square] or table[square] >= INF:
                    continue
                steps = self.pawn_path(color, start, square, captures, self.frozen)
                if steps + table[square] < best:
                    best = steps + table[square]
        self._promo[key] = best
        return best

    def pawn_unit(self, color: chess.Color, start: chess.Square, captures: int) -> int:
        """Least moves for the pawn on ``start`` to end on a free goal square it can fill."""
        key = (color, start, captures)
        cached = self._pawn_unit.get(key)
        if cached is not None:
            return cached
        best = INF
        for g, kind in self.goal_type[color].items():
            cost = (
                self.pawn_to(color, start, g, captures)
                if kind == chess.PAWN
                else self.promotion(color, start, g, captures)
            )
            if cost < best:
                best = cost
        self._pawn_unit[key] = best
        return best

    # -- castling rights to lose ------------------------------------------------------------------------

    def must_move(
        self, color: chess.Color, mine: int, rooks: int, kings: int, rights: int, spare: int = 0
    ) -> int | None:
        """Squares of ``color``'s units that must still move (or be captured) to lose the
        castling rights the goal lacks (module docstring); ``None`` when that is impossible.
        ``rights`` are the clean rights, ``spare`` the units ``color`` still loses."""
        if not self.rights_count:
            return 0
        home = chess.BB_SQUARES[_KING_HOME[color]]
        lose = rights & rooks & ~self.goal_rights & _BACK_RANK[color]
        if not lose or not kings & home or not self.frozen & home:
            return 0
        must = 0
        rook = chess.Piece(chess.ROOK, color)
        for square in chess.scan_forward(lose):
            must |= chess.BB_SQUARES[square]
            exits = first_step_mask(rook, square) & ~self.frozen
            if not exits and not spare:
                return None
            if not spare and chess.popcount(exits) == 1 and exits & mine:
                must |= exits
        return must

    # -- castling ---------------------------------------------------------------------------------------

    def castling_units(self, color: chess.Color, rooks: int, kings: int, rights: int) -> int:
        """The king and rooks of ``color`` that may still castle (an over-approximation is sound):
        a right held, and no frozen unit between king and rook (it would stand there for good)."""
        home = _KING_HOME[color]
        castle_rooks = 0
        for corner in chess.scan_forward(rights & _BACK_RANK[color] & rooks):
            if not chess.between(home, corner) & self.frozen:
                castle_rooks |= chess.BB_SQUARES[corner]
        king = chess.BB_SQUARES[home] & kings
        if not castle_rooks or not king:
            return 0
        return castle_rooks | king

    @staticmethod
    def castled(table: list[int] | tuple[int, ...], square: chess.Square, kind: chess.PieceType, castles: int) -> int:
        """The cost of the king or rook on ``square`` when castling may be used (module docstring)."""
        best = INF
        for corner in chess.scan_forward(
            castles & ~chess.BB_SQUARES[square] if kind == chess.KING else chess.BB_SQUARES[square]
        ):
            rook_to, king_to = _CASTLE.get(corner, (None, None))
            if rook_to is None or king_to is None:
                continue
            cost = 1 + table[king_to] if kind == chess.KING else table[rook_to]
            if cost < best:
                best = cost
        return best

    # -- the bound ----------------------------------------------------------------------------------------

    def needs(self, board: chess.Board, color: chess.Color) -> int:
        """Lower bound on ``color``'s remaining moves from ``board`` to the goal (INF: unreachable)."""
        return self.side_needs(
            color,
            side_masks(board, color),
            board.clean_castling_rights() & _BACK_RANK[color],
            chess.popcount(board.occupied_co[not color]),
            board.pawns & board.occupied_co[not color],
        )

    def side_needs(
        self,
        color: chess.Color,
        masks: SideMasks,
        rights: int,
        enemy_units: int,
        enemy_pawns: int,
        extra: int = 0,
    ) -> int:
        """:meth:`needs` from what it depends on: ``color``'s six piece masks (pawns .. kings), its
        clean castling rights, the enemy's number of units and the enemy's pawns (memoised:
        the same side configuration recurs under many of the other side's). ``extra``: squares
        of units that stay for good (:meth:`staying`), blocked for the assignment's routes."""
        key = (color, masks, rights, enemy_units, enemy_pawns, extra)
        cached = self._needs.get(key)
        if cached is None:
            if len(self._needs) >= _MEMO_LIMIT:
                self._needs.clear()
                self._info.clear()
            cached = self._needs[key] = self._side_needs(color, masks, rights, enemy_units, enemy_pawns, extra)
        return cached

    def staying(
        self, color: chess.Color, masks: SideMasks, rights: int, enemy_units: int, enemy_pawns: int, allowance: int
    ) -> int:
        """Squares of ``color``'s pieces that stay for good with ``allowance`` moves left
        (module docstring, "Pieces staying for good")."""
        key = (color, masks, rights, enemy_units, enemy_pawns, 0)
        if key not in self._info:
            self._needs.pop(key, None)
            self.side_needs(color, masks, rights, enemy_units, enemy_pawns)
        assigned, candidates = self._info.get(key, (INF, 0))
        return candidates if allowance - assigned <= 1 else 0

    # -- units the enemy's pawns must capture ------------------------------------------------------------

    def usable_regions(self, enemy: chess.Color, enemy_pawns: int, enemy_captures: int) -> list[int]:
        """The :meth:`capture_regions` that the assignment uses: those of at most
        ``_REGION_LIMIT`` squares (a larger one is left out: a weaker bound, never unsound)."""
        return [
            r for r in self.capture_regions(enemy, enemy_pawns, enemy_captures) if chess.popcount(r) <= _REGION_LIMIT
        ]

    def capture_regions(self, enemy: chess.Color, enemy_pawns: int, enemy_captures: int) -> list[int]:
        """The regions (module docstring) of the enemy's free goal pawn squares that only a
        pawn from another file can still reach."""
        regions = []
        goal = self.goal_mask[enemy, chess.PAWN]
        free_pawns = enemy_pawns & ~self.frozen & ~self.settled_pawns(enemy, enemy_pawns, enemy_captures)
        for g in chess.scan_forward(goal & ~enemy_pawns):
            region = 0
            for p in chess.scan_forward(free_pawns):
                if self.pawn_to(enemy, p, g, enemy_captures) >= INF:
                    continue
                if chess.square_file(p) == chess.square_file(g):
                    region = 0
                    break
                region |= _capture_squares(enemy, p, g)
            if region:
                regions.append(region)
        return regions

    def reach_cost(
        self, color: chess.Color, kind: chess.PieceType, square: chess.Square, region: int, captures: int
    ) -> int:
        """Least moves for ``color``'s unit of type ``kind`` on ``square`` to stand on a square of ``region``."""
        if region & chess.BB_SQUARES[square]:
            return 0
        best = INF
        if kind == chess.PAWN:
            # en passant: the pawn taken stands beside the capturing pawn, one rank beyond the
            # square it skipped, which is the capture square in the region
            if color == chess.WHITE:
                region |= chess.shift_up(region & chess.BB_RANK_3)
            else:
                region |= chess.shift_down(region & chess.BB_RANK_6)
            if region & chess.BB_SQUARES[square]:
                return 0
            last = 7 if color == chess.WHITE else 0
            best = abs(last - chess.square_rank(square))  # promoting at least
            for q in chess.scan_forward(region):
                best = min(best, self.pawn_to(color, square, q, captures))
            return best
        for q in chess.scan_forward(region):
            best = min(best, piece_distances(kind, q, self.frozen)[square])
        return best

    def side_setup(
        self, color: chess.Color, masks: SideMasks, rights: int, enemy_units: int
    ) -> tuple[int, int, chess.Bitboard, chess.Bitboard] | None:
        """What every assignment of ``color`` starts from: (its captures left, the units it
        still loses, its units bound to move, its castling units), or None when no assignment
        can exist (a side already below its goal count; castling rights the goal lacks
        that can no longer be lost, :meth:`must_move`)."""
        mine = masks[0] | masks[1] | masks[2] | masks[3] | masks[4] | masks[5]
        captures = enemy_units - self.goal_count[not color]
        spare = chess.popcount(mine) - self.goal_count[color]
        if captures < 0 or spare < 0:
            return None
        rooks, kings = masks[chess.ROOK - 1], masks[chess.KING - 1]
        must = self.must_move(color, mine, rooks, kings, rights, spare)
        if must is None:
            return None
        return captures, spare, must, self.castling_units(color, rooks, kings, rights)

    def _side_needs(
        self,
        color: chess.Color,
        masks: SideMasks,
        rights: int,
        enemy_units: int,
        enemy_pawns: int,
        extra: int,
    ) -> int:
        enemy = not color
        setup = self.side_setup(color, masks, rights, enemy_units)
        if setup is None:
            return INF
        captures, spare, must, castles = setup
        units: list[tuple[int, chess.Square, chess.PieceType]] = []  # (cost, square, type), king apart
        king_cost = 0
        for kind in chess.PIECE_TYPES:
            have = masks[kind - 1] & ~self.frozen
            want = self.goal_mask[color, kind]
            # unit side: every free unit's least cost to a goal square it can fill (settled: 0)
            for s in _squares(have):
                cost = self._unit_cost(color, kind, s, want, must, castles, captures)
                if kind == chess.KING:
                    king_cost = cost
                else:
                    units.append((cost, s, kind))
        unit_sum = king_cost + _sum_without_largest([cost for cost, _, _ in units], spare)
        if unit_sum >= INF:
            return INF
        regions: list[int] = []
        if spare:
            regions = self.usable_regions(enemy, enemy_pawns, spare)
            unit_sum = king_cost + self._captured_units_cost(
                color, regions, spare, units, captures, unit_sum - king_cost
            )
        settled = self.blocked_for_good(color, masks[0], captures, enemy_pawns, spare)
        assigned = self.assignment(color, masks, must, castles, captures, spare, regions[:spare], settled | extra)
        if not extra:
            key = (color, masks, rights, enemy_units, enemy_pawns, 0)
            self._info[key] = (assigned, self._stay_candidates(color, masks, must, castles, captures))
        return max(unit_sum, captures, assigned)  # A >= G: G is not computed

    def blocked_for_good(
        self, color: chess.Color, pawns: chess.Bitboard, captures: int, enemy_pawns: chess.Bitboard, spare: int
    ) -> chess.Bitboard:
        """The pawns of both colours settled for good (``captures``: ``color``'s captures
        left; ``spare``: the units ``color`` still loses, the enemy's captures left)."""
        return self.settled_pawns(color, pawns, captures) | self.settled_pawns(not color, enemy_pawns, spare)

    def restricted(
        self,
        color: chess.Color,
        masks: SideMasks,
        rights: int,
        enemy_units: int,
        enemy_pawns: int,
        square: chess.Square | None,
        row: RowFunction | None,
        moving: chess.Bitboard = 0,
    ) -> int:
        """The assignment ``A`` of :meth:`side_needs` with the row of ``color``'s free pawn on
        ``square`` replaced by ``row(goals, size, captures, regions, blocked)`` and settled
        units kept as rows (:mod:`retro.spg.passing`); without a row, ``A`` with the units
        on ``moving`` bound to move as well (:mod:`retro.spg.stuck`: a unit bound to move
        that ends on its square costs at least 2). INF when no assignment is feasible."""
        enemy = not color
        setup = self.side_setup(color, masks, rights, enemy_units)
        if setup is None:
            return INF
        captures, spare, must, castles = setup
        regions = self.usable_regions(enemy, enemy_pawns, spare) if spare else []
        blocked = self.blocked_for_good(color, masks[0], captures, enemy_pawns, spare)
        override = None if square is None or row is None else (square, row)
        return self.assignment(
            color, masks, must | moving, castles, captures, spare, regions[:spare], blocked, override
        )

    def _stay_candidates(
        self, color: chess.Color, masks: SideMasks, must: int, castles: int, captures: int
    ) -> chess.Bitboard:
        """``color``'s pieces on a goal square of their type that no other unit of ``color``
        can fill (no other free unit of the type, no pawn that can promote there), and that
        need not move (not bound to move by lost rights, unable to castle)."""
        pawns = masks[0] & ~self.frozen
        candidates = 0
        for kind in _PIECES:
            have = masks[kind - 1] & ~self.frozen
            if chess.popcount(have) != 1 or not have & self.goal_mask[color, kind] & ~must & ~castles:
                continue
            g = chess.lsb(have)
            if kind != chess.KING and any(
                self.promotion(color, p, g, captures) < INF for p in chess.scan_forward(pawns)
            ):
                continue
            candidates |= have
        return candidates

    def assignment(
        self,
        color: chess.Color,
        masks: SideMasks,
        must: chess.Bitboard,
        castles: chess.Bitboard,
        captures: int,
        spare: int,
        regions: list[int],
        blocked: chess.Bitboard = 0,
        override: tuple[chess.Square, RowFunction] | None = None,
    ) -> int:
        """The least-cost assignment ``A`` (module docstring) of ``color``'s free units to its
        free goal squares, one column per region of ``regions`` and ``spare - len(regions)``
        free capture columns (INF when no assignment is feasible); piece routes avoid
        ``blocked`` (pawns settled for good). ``override``: the square of a free pawn and the
        function giving that pawn's row instead (:meth:`restricted`); settled units then
        keep their rows (no exchange argument is needed: every unit's real moves are at
        least its row's cost to its real destination)."""
        rows: list[tuple[chess.PieceType, chess.Square]] = []
        all_settled = 0
        free = ~self.frozen
        goal_masks = self.goal_masks[color]
        keep = ~must & ~castles if override is None else 0
        for kind in chess.PIECE_TYPES:
            have = masks[kind - 1] & free
            if have:
                settled = have & goal_masks[kind] & keep
                all_settled |= settled
                rows.extend([(kind, s) for s in _squares(have & ~settled)])
        goals = self._goals.get((color, all_settled))  # the free goal squares depend on these only
        if goals is None:
            if len(self._goals) >= _CONTEXT_LIMIT:
                self._goals.clear()
            goals = self._goals[color, all_settled] = [
                (kind, g) for kind in chess.PIECE_TYPES for g in _squares(goal_masks[kind] & ~all_settled)
            ]
        if not rows:
            return 0
        size = len(rows)
        if size != len(goals) + spare:
            return INF  # the unit counts do not match: no game (never happens once the counts are checked)
        context = (color, all_settled, spare, captures, tuple(regions), blocked)  # fixes the columns and the costs
        memo = self._rows.get(context)
        if memo is None:
            if len(self._rows) >= _CONTEXT_LIMIT:
                self._rows.clear()
            memo = self._rows[context] = {}
        cost = []
        for kind, s in rows:
            key = kind << 7 | s << 1 | (must >> s & 1)  # (type, square, bound to move) as one int
            row = memo.get(key)
            if row is None:
                row = memo[key] = self.unit_row(color, kind, s, None, goals, size, must, captures, regions, blocked)
            cost.append(row)
        if override is not None:
            square, row_function = override
            cost[rows.index((chess.PAWN, square))] = row_function(goals, size, captures, regions, blocked)
        # one game castles at most once: each castling option charges the king the
        # castling move and lets only that corner's rook start from its castling square
        king_row = next((i for i, (kind, _) in enumerate(rows) if kind == chess.KING), None) if castles else None
        if king_row is None:
            return _least_assignment(cost)
        total, u, v = least_assignment_dual(cost)
        best = INF if total >= _BIG else total
        king = rows[king_row][1]
        for corner in _squares(castles & masks[chess.ROOK - 1]):
            if (chess.ROOK, corner) not in rows:
                continue  # a frozen rook never castles
            rook_to, king_to = _CASTLE[corner]
            option = cost.copy()
            # the castled rows depend on the context and the squares only (``must`` is not read)
            king_key = -(king << 6 | king_to) - 1  # negative: (square, castled to) of the king
            king_castled = memo.get(king_key)
            if king_castled is None:
                king_castled = memo[king_key] = self.unit_row(
                    color, chess.KING, king, king_to, goals, size, must, captures, [], blocked
                )
            option[king_row] = king_castled
            rook_key = -(1 << 12 | corner << 6 | rook_to) - 1  # negative: (square, castled to) of a rook
            rook_castled = memo.get(rook_key)
            if rook_castled is None:
                rook_castled = memo[rook_key] = self.unit_row(
                    color, chess.ROOK, corner, rook_to, goals, size, must, captures, regions, blocked
                )
            rook_row = rows.index((chess.ROOK, corner))
            option[rook_row] = rook_castled
            # the option costs at least this (weak duality, ``least_assignment_dual``): no
            # lower total when it reaches ``best``, and the option is not solved
            low = total - u[king_row] - u[rook_row]
            low += min([value - v[j] for j, value in enumerate(king_castled)])
            low += min([value - v[j] for j, value in enumerate(rook_castled)])
            if low < best:
                best = min(best, _least_assignment(option))
        return best

    def unit_row(
        self,
        color: chess.Color,
        kind: chess.PieceType,
        s: chess.Square,
        castled_to: chess.Square | None,
        goals: list[tuple[chess.PieceType, chess.Square]],
        size: int,
        must: chess.Bitboard,
        captures: int,
        regions: list[int],
        blocked: chess.Bitboard = 0,
    ) -> list[int]:
        """The assignment costs of the unit of type ``kind`` on ``s`` to every column; with
        ``castled_to``, the unit (a king or rook) castles first and goes on from there
        (the king's castling move is charged to the king). Piece routes avoid ``blocked``."""
        row = [_BIG] * size
        bit = chess.BB_SQUARES[s]
        for j, (target, g) in enumerate(goals):
            if target == kind:
                if castled_to is not None:
                    value = self.table(color, g, blocked)[castled_to] + (1 if kind == chess.KING else 0)
                elif s == g:
                    value = 2 if must & bit else 0
                elif kind == chess.PAWN:
                    value = self.pawn_path(color, s, g, captures, self.frozen | blocked)
                else:
                    value = self.table(color, g, blocked)[s]
            elif kind == chess.PAWN and target != chess.KING:
                value = (
                    self.promotion(color, s, g, captures)
                    if not blocked
                    else self._promotion(color, s, g, captures, blocked)
                )
            else:
                continue
            row[j] = min(value, _BIG)
        if kind != chess.KING:
            start = s if castled_to is None else castled_to
            for j in range(len(goals), size):
                k = j - len(goals)
                row[j] = min(self.reach_cost(color, kind, start, regions[k], captures), _BIG) if k < len(regions) else 0
        return row

    def table(self, color: chess.Color, g: chess.Square, blocked: chess.Bitboard) -> tuple[int, ...]:
        """Distances to the free goal piece on ``g`` avoiding the frozen squares and ``blocked``."""
        if not blocked:
            return self.dist[color, g]
        key = (color, g, blocked)
        cached = self._tables.get(key)
        if cached is None:
            if len(self._tables) >= _MEMO_LIMIT:
                self._tables.clear()
            kind = self.goal_type[color][g]
            forbidden = 0
            if kind == chess.KING:  # squares attacked by frozen or settled enemy pawns
                forbidden = self._forbidden[color]
                for pawn in chess.scan_forward(blocked & self.goal_mask[not color, chess.PAWN]):
                    forbidden |= chess.BB_PAWN_ATTACKS[not color][pawn] & ~chess.BB_SQUARES[g]
            cached = self._tables[key] = piece_distances(kind, g, self.frozen | blocked, forbidden)
        return cached

    def _promotion(
        self, color: chess.Color, start: chess.Square, g: chess.Square, captures: int, blocked: chess.Bitboard
    ) -> int:
        """:meth:`promotion` with the piece's route from its promotion square avoiding ``blocked``."""
        return self.via_promotion(color, start, self.table(color, g, blocked), captures, blocked)

    def via_promotion(
        self, color: chess.Color, start: chess.Square, table: tuple[int, ...], captures: int, blocked: int = 0
    ) -> int:
        """Least moves of the pawn on ``start`` to promote on a free square of the last rank
        (its path avoiding the frozen squares and ``blocked``) and go on as a piece whose
        distances to its goal are ``table``."""
        last = 7 if color == chess.WHITE else 0
        best = INF
        for file in range(8):
            square = chess.square(file, last)
            if self.frozen & chess.BB_SQUARES[square] or table[square] >= INF:
                continue
            best = min(best, self.pawn_path(color, start, square, captures, self.frozen | blocked) + table[square])
        return best

    def settled_pawns(self, color: chess.Color, pawns: chess.Bitboard, captures: int) -> chess.Bitboard:
        """``color``'s pawns settled for good (module docstring): on a free goal pawn square
        that no other of its pawns can reach with ``captures`` captures (memoised)."""
        key = (color, pawns, captures)
        cached = self._settled.get(key)
        if cached is not None:
            return cached
        if len(self._settled) >= _MEMO_LIMIT:
            self._settled.clear()
        free = pawns & ~self.frozen
        settled = 0
        for g in chess.scan_forward(free & self.goal_mask[color, chess.PAWN]):
            if not any(p != g and self.pawn_to(color, p, g, captures) < INF for p in chess.scan_forward(free)):
                settled |= chess.BB_SQUARES[g]
        self._settled[key] = settled
        return settled

    def _unit_cost(
        self,
        color: chess.Color,
        kind: chess.PieceType,
        s: chess.Square,
        want: chess.Bitboard,
        must: chess.Bitboard,
        castles: chess.Bitboard,
        captures: int,
    ) -> int:
        """The least cost of the free unit on ``s`` to a goal square it can fill (0 when
        it is settled on one)."""
        if want & ~must & chess.BB_SQUARES[s]:
            return 0
        if kind == chess.PAWN:
            return self.pawn_unit(color, s, captures)
        near = self.nearest_other[color, kind] if want & chess.BB_SQUARES[s] else self.nearest[color, kind]
        cost = near[s]
        if want & chess.BB_SQUARES[s] and cost > 2:
            cost = 2
        if castles and castles & chess.BB_SQUARES[s]:
            cost = min(cost, self.castled(self.nearest[color, kind], s, kind, castles))
        return cost

    def _captured_units_cost(
        self,
        color: chess.Color,
        regions: list[int],
        spare: int,
        units: list[tuple[int, chess.Square, chess.PieceType]],
        captures: int,
        without_regions: int,
    ) -> int:
        """The units' sum (``without_regions`` when no capture region applies) raised by
        the ``regions`` where the enemy's pawns must capture one of this side's spare units:
        the unit taken in a region must reach it, and is one of those left out of the sum."""
        if not regions:
            return without_regions
        reach = [[self.reach_cost(color, kind, s, region, captures) for _, s, kind in units] for region in regions]
        least = [min(row, default=INF) for row in reach]
        if max(least) >= INF:
            return without_regions
        costs = [cost for cost, _, _ in units]
        best = 0
        for special, row in enumerate(reach):
            here = min(
                (row[i] + _sum_without_largest(costs[:i] + costs[i + 1 :], spare - 1) for i in range(len(units))),
                default=INF,
            )
            best = max(best, here + sum(least) - least[special])
        return best


def _king_forbidden(color: chess.Color, goal: chess.Board, frozen: int) -> int:
    """Squares ``color``'s king never steps onto: those a frozen enemy unit attacks by
    contact (module docstring, "Distances")."""
    return king_forbidden_mask(color, goal, frozen) | contact_mask(goal, frozen & goal.occupied_co[not color])


def _squares(mask: chess.Bitboard) -> list[chess.Square]:
    """The squares of ``mask``, lowest first (``chess.scan_forward`` as a list)."""
    squares = []
    while mask:
        low = mask & -mask
        squares.append(low.bit_length() - 1)
        mask ^= low
    return squares


def _least_assignment(cost: list[list[int]]) -> int:
    """The least total cost of a perfect assignment of ``cost``'s rows to its columns (INF: none)."""
    total = least_assignment(cost)
    return INF if total >= _BIG else total


def _sum_without_largest(costs: list[int], dropped: int) -> int:
    """The sum of ``costs`` without its ``dropped`` largest values."""
    if dropped <= 0:
        return sum(costs)
    return sum(sorted(costs)[: max(0, len(costs) - dropped)])


@cache
def _path_region(color: chess.Color, start: chess.Square, target: chess.Square) -> int:
    """Squares of every pawn path of ``color`` from ``start`` to ``target``, ``start`` excluded."""
    region = 0
    for q in chess.SQUARES:
        if q != start and pawn_distance(color, start, q) < INF and pawn_distance(color, q, target) < INF:
            region |= chess.BB_SQUARES[q]
    return region


def _pawn_walk(color: chess.Color, start: chess.Square, target: chess.Square, captures: int, blocked: int) -> int:
    """Least moves of a ``color`` pawn from ``start`` to ``target`` with at most ``captures``
    diagonal steps, never landing on nor (double step) crossing a square of ``blocked``."""
    ahead = 8 if color == chess.WHITE else -8
    second = 1 if color == chess.WHITE else 6
    frontier, seen, moves = [(start, 0)], {(start, 0)}, 0
    while frontier:
        moves += 1
        following = []
        for square, used in frontier:
            step = square + ahead
            if not 0 <= step < 64:
                continue
            options = []
            if not blocked & chess.BB_SQUARES[step]:
                options.append((step, used))
                if chess.square_rank(square) == second and not blocked & chess.BB_SQUARES[step + ahead]:
                    options.append((step + ahead, used))
            if used < captures:
                for side in (-1, 1):
                    file = chess.square_file(step) + side
                    if 0 <= file < 8 and not blocked & chess.BB_SQUARES[step + side]:
                        options.append((step + side, used + 1))
            for state in options:
                if state[0] == target:
                    return moves
                if state not in seen and pawn_distance(color, state[0], target) < INF:
                    seen.add(state)
                    following.append(state)
        frontier = following
    return INF


@cache
def _capture_squares(color: chess.Color, start: chess.Square, target: chess.Square) -> int:
    """Squares where a ``color`` pawn going from ``start`` to ``target`` may land by a
    capture: a square of a diagonal step from ``start`` or from a square it can reach,
    from which ``target`` can be reached (or ``target`` itself)."""
    squares = 0
    for q in chess.SQUARES:
        if q == start or pawn_distance(color, start, q) < INF:
            for landing in chess.scan_forward(chess.BB_PAWN_ATTACKS[color][q]):
                if landing == target or pawn_distance(color, landing, target) < INF:
                    squares |= chess.BB_SQUARES[landing]
    return squares


def side_masks(board: chess.Board, color: chess.Color) -> SideMasks:
    """``color``'s pawns, knights, bishops, rooks, queens and kings as six bitboards."""
    mine = board.occupied_co[color]
    return (
        board.pawns & mine,
        board.knights & mine,
        board.bishops & mine,
        board.rooks & mine,
        board.queens & mine,
        board.kings & mine,
    )

"""The non-admissible fallback heuristic (texel ``-na``).

Rule (texel documentation, "Because the heuristic function used by the A* search
ignores pieces interfering with each other ..."): after the regular search fails, a
shorter search from its best node uses a heuristic that also charges for pieces in
the way. Our choice (the paper leaves the formula open): the admissible bound plus

* 2 plies for every goal square occupied by a piece other than its goal piece (that
  piece must move away and the goal piece must come);
* for every piece (knight to king) off the goal squares of its kind, its *obstruction*:
  over the relaxed shortest paths (:mod:`astar.paths`) to an unfilled goal square of
  its kind, the fewest pieces standing on the squares the piece must cross or stop
  on, each counted 4 plies if it stands on its own goal square (it must step aside
  and come back) and 2 otherwise (it must move out of the way first) - texel's "pieces
  that are blocking sliding pieces from getting to their target squares"; the pieces
  of a kind share its open goal squares by the assignment that minimises distance plus
  obstruction (``linear_sum_assignment``; each piece on its own nearest square would
  send two rooks to the same easy square and miss the obstructed one);
* 2 plies for every pawn that must still advance straight with a piece in front of it
  and nothing to capture;
* for a king off its goal square, its *danger*: over its relaxed shortest paths, the
  fewest squares (its goal square included) attacked by an opponent piece that stands
  on its own goal square, 4 plies each (that piece must step aside and come back, or
  the king cannot pass: Tromp sample positions whose searches stalled with a king walled
  off by the opponent's placed queens, e.g. Kb4 to f8 beside a queen already on g8).

It may overestimate; that is acceptable because the proof game it finds is still
replay-checked, and shortness is not required.
"""

from __future__ import annotations

import chess
import numpy as np

from astar.heuristic import _BIG, INF, Heuristic
from astar.paths import attacks_mask, obstruction, piece_distances, region_obstruction, shortest_path_layers
from retro.core.lsap import linear_sum_assignment

__all__ = ["NonAdmissibleHeuristic"]


def _assigned_obstruction(rows: list[list[tuple[int, int]]]) -> int:
    """The obstructions of the pieces of one kind under the assignment of pieces (rows)
    to open goal squares (columns) that minimises distance plus obstruction; a piece
    left without a reachable square counts 0."""
    if not rows:
        return 0
    if len(rows) == 1:
        return min(((d + extra, extra) for d, extra in rows[0] if d < INF), default=(0, 0))[1]
    costs = [[min(d + extra, _BIG) for d, extra in row] for row in rows]
    pieces, squares = linear_sum_assignment(np.array(costs, dtype=np.int64))
    return sum(rows[i][j][1] for i, j in zip(pieces.tolist(), squares.tolist(), strict=True) if costs[i][j] < _BIG)


#: per colour, by type index (pawns ... kings): the attack table of a stepping piece, None for a slider
_STEP_TABLES = {
    color: (chess.BB_PAWN_ATTACKS[color], chess.BB_KNIGHT_ATTACKS, None, None, None, chess.BB_KING_ATTACKS)
    for color in chess.COLORS
}


def _attacks_of(types: tuple, placed: int, near: tuple[int, ...], occupied: int, color: chess.Color) -> int:
    """The squares attacked by the pieces of ``color`` on ``placed`` and on the squares of
    ``near`` of their type (pawns ... kings), the squares of ``occupied`` holding pieces:
    :func:`retro.core.attacks.attacks_mask` per piece and ``chess.BB_PAWN_ATTACKS``,
    written out (a loop of the non-admissible heuristic's every node)."""
    attacked = 0
    tables = _STEP_TABLES[color]
    for type_index in range(6):
        pieces = types[type_index] & placed & near[type_index]
        while pieces:
            bit = pieces & -pieces
            pieces ^= bit
            square = bit.bit_length() - 1
            table = tables[type_index]
            if table is not None:
                attacked |= table[square]
                continue
            if type_index != 3:  # bishop or queen
                attacked |= chess.BB_DIAG_ATTACKS[square][chess.BB_DIAG_MASKS[square] & occupied]
            if type_index != 2:  # rook or queen
                attacked |= chess.BB_RANK_ATTACKS[square][chess.BB_RANK_MASKS[square] & occupied]
                attacked |= chess.BB_FILE_ATTACKS[square][chess.BB_FILE_MASKS[square] & occupied]
    return attacked


class NonAdmissibleHeuristic(Heuristic):
    """Admissible bound plus penalties for pieces in the way (may overestimate)."""

    def __init__(self, goal: chess.Board, blocked_mask: int = 0) -> None:
        super().__init__(goal, blocked_mask)
        free = ~blocked_mask
        self._goal_masks = {
            (color, ptype): goal.pieces_mask(ptype, color) & free
            for color in chess.COLORS
            for ptype in chess.PIECE_TYPES
        }
        self._goal_kinds = [(color, ptype - 1, mask) for (color, ptype), mask in self._goal_masks.items() if mask]
        self._goal_free = goal.occupied & free
        # per type (pawns ... kings): its goal squares off the blocked ones, either colour
        self._goal_free_types = tuple(mask & free for mask in self._goal_types)
        # the kinds with goal squares (the others have no obstruction: no goal square to go to)
        self._obstructed_kinds = {
            color: [
                ptype
                for ptype in (chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN, chess.KING)
                if self._goal_masks[(color, ptype)]
            ]
            for color in chess.COLORS
        }
        self._obstruction_cache: dict[tuple, int] = {}
        self._kind_path_cache: dict[tuple, tuple[int, list]] = {}
        self._colour_plans: dict[tuple, list[tuple[chess.PieceType, int, int, list]]] = {}
        self._king_ways: dict[tuple[chess.Color, chess.Square], tuple[int, tuple[int, ...]]] = {}

    def value_of_key(self, key: tuple, stuck: int | None = None) -> int:
        base = Heuristic.value_of_key(self, key, stuck)
        if base >= INF:
            return INF
        types = key[:6]
        white = key[6]
        occupied = types[0] | types[1] | types[2] | types[3] | types[4] | types[5]
        black = occupied & ~white
        # goal squares held by their goal piece: its type there and its colour there
        right = (
            (types[0] & self._goal_free_types[0])
            | (types[1] & self._goal_free_types[1])
            | (types[2] & self._goal_free_types[2])
            | (types[3] & self._goal_free_types[3])
            | (types[4] & self._goal_free_types[4])
            | (types[5] & self._goal_free_types[5])
        ) & ~(white ^ self._goal_white)
        penalty = 2 * (self._goal_free & occupied & ~right).bit_count()
        penalty += 2 * (
            self._obstructions(types, occupied, right, white, chess.WHITE)
            + self._stuck_pawns(types, occupied, white, black, chess.WHITE)
            + self._king_danger(key, right & black, white, chess.WHITE)
            + self._obstructions(types, occupied, right, black, chess.BLACK)
            + self._stuck_pawns(types, occupied, black, white, chess.BLACK)
            + self._king_danger(key, right & white, black, chess.BLACK)
        )
        return base + penalty

    def _king_danger(self, key: tuple, placed_enemy: int, own: int, color: chess.Color) -> int:
        """The danger (module docstring) of ``color``'s king, in moves."""
        goal = self._goal_masks[(color, chess.KING)]
        king = key[chess.KING - 1] & own
        if not goal or not king or king & goal or not placed_enemy:
            return 0
        start, target = chess.lsb(king), chess.lsb(goal)
        reach = self._king_ways.get((color, start))
        if reach is None:
            reach = self._king_ways[(color, start)] = self._king_way(color, start, target)
        way, near = reach
        if not way:
            return 0
        # the squares of the way the placed pieces attack, the king off the board (it does not
        # shield the squares behind it); the pieces whose empty-board attacks miss the way are skipped
        occupied = (key[0] | key[1] | key[2] | key[3] | key[4] | key[5]) & ~king
        attacked = _attacks_of(key, placed_enemy, near, occupied, not color) & way
        if not attacked:
            return 0
        # the paths cross only squares of the region: the obstruction is remembered per attacked squares there
        forbidden = self._forbidden[color]
        return obstruction(chess.KING, start, target, self.blocked_mask, attacked, attacked, forbidden) + (
            2 if attacked & goal else 0
        )

    def _king_way(self, color: chess.Color, start: chess.Square, target: chess.Square) -> tuple[int, tuple[int, ...]]:
        """The *way* of ``color``'s king from ``start`` to ``target`` (every square of its
        relaxed shortest paths, ``target`` included; 0 when there is no path) and, per
        piece type (pawns ... kings), the squares from which an opponent piece of that
        type attacks a square of the way on the empty board (the pieces :meth:`_king_danger`
        looks at)."""
        region, layers = shortest_path_layers(chess.KING, start, target, self.blocked_mask, self._forbidden[color])
        if not layers:
            return 0, ()
        way = region | chess.BB_SQUARES[target]
        near = [0] * 6
        for square in chess.SQUARES:
            if chess.BB_PAWN_ATTACKS[not color][square] & way:
                near[0] |= chess.BB_SQUARES[square]
            for type_index in range(1, 6):
                if attacks_mask(type_index + 1, square, 0) & way:
                    near[type_index] |= chess.BB_SQUARES[square]
        return way, tuple(near)

    def _obstructions(self, types: tuple[int, ...], occupied: int, placed: int, own: int, color: chess.Color) -> int:
        """Sum of the obstructions (module docstring) of ``color``'s pieces, in moves.

        Per kind, the shortest-path graphs of its pieces off their goal squares depend
        only on where those pieces stand (:meth:`_kind_paths`); the obstruction depends
        besides only on the pieces inside the union of those graphs' regions, so it is
        cached per (kind, where its pieces stand, pieces in that union); and each graph's
        obstruction per pieces inside its own region (:func:`~astar.paths.obstruction`):
        a move changes only the graphs whose region it enters or leaves. The kinds with
        pieces to route are remembered per colour and pieces (:meth:`_plans_of`)."""
        total = 0
        own &= ~self.blocked_mask
        plans_key = (color, types[1] & own, types[2] & own, types[3] & own, types[4] & own, types[5] & own)
        plans = self._colour_plans.get(plans_key)
        if plans is None:
            plans = self._plans_of(color, plans_key)
        obstruction_cache = self._obstruction_cache
        for ptype, mine, region, rows in plans:
            cache_key = (color, ptype, mine, occupied & region, placed & region)
            value = obstruction_cache.get(cache_key)
            if value is None:
                forbidden = self._forbidden[color] if ptype == chess.KING else 0
                blocked = self.blocked_mask
                # (astar.paths.obstruction with each path graph's region read from the plan)
                value = _assigned_obstruction(
                    [
                        [
                            (
                                d,
                                region_obstruction(
                                    ptype, start, target, blocked, forbidden, occupied & where, placed & where
                                ),
                            )
                            for d, start, target, where in row
                        ]
                        for row in rows
                    ]
                )
                if len(self._obstruction_cache) > 1_000_000:
                    self._obstruction_cache.clear()
                self._obstruction_cache[cache_key] = value
            total += value
        return total

    def _plans_of(self, color: chess.Color, plans_key: tuple) -> list[tuple[chess.PieceType, int, int, list]]:
        """The kinds of ``color`` that have pieces to route (:meth:`_kind_paths` with
        rows), as (type, where its pieces stand, union of the regions, rows), for the
        colour's pieces ``plans_key[1:]`` (knights ... kings, off the blocked squares);
        remembered under ``plans_key``."""
        plans = []
        for ptype in self._obstructed_kinds[color]:
            mine = plans_key[ptype - 1]
            region, rows = self._kind_paths(color, ptype, mine)
            if rows:
                plans.append((ptype, mine, region, rows))
        if len(self._colour_plans) > 100_000:
            self._colour_plans.clear()
        self._colour_plans[plans_key] = plans
        return plans

    def _kind_paths(self, color: chess.Color, ptype: chess.PieceType, mine: int) -> tuple[int, list]:
        """For ``color``'s pieces of ``ptype`` on ``mine``: the union of the regions and,
        per piece off the goal squares, per open goal square of its kind, (relaxed
        distance, the piece's square, the goal square, the region of the shortest-path
        graph between them)."""
        plan_key = (color, ptype, mine)
        plan = self._kind_path_cache.get(plan_key)
        if plan is not None:
            return plan
        goal_mask = self._goal_masks[(color, ptype)]
        open_goals = goal_mask & ~mine
        forbidden = self._forbidden[color] if ptype == chess.KING else 0
        union, rows = 0, []
        if open_goals:
            for sq in chess.scan_forward(mine & ~goal_mask):
                row = []
                for target in chess.scan_forward(open_goals):
                    d = piece_distances(ptype, target, self.blocked_mask, forbidden)[sq]
                    where = shortest_path_layers(ptype, sq, target, self.blocked_mask, forbidden)[0]
                    union |= where
                    row.append((d, sq, target, where))
                rows.append(row)
        if len(self._kind_path_cache) > 100_000:
            self._kind_path_cache.clear()
        plan = self._kind_path_cache[plan_key] = (union, rows)
        return plan

    def _stuck_pawns(self, types: tuple[int, ...], occupied: int, own: int, enemy: int, color: chess.Color) -> int:
        """Pawns that must still advance straight but have a piece in front and nothing to take."""
        pawns = types[0] & own & ~self._goal_masks[(color, chess.PAWN)] & ~self.blocked_mask
        # the pawns with a piece on the square in front, and those attacking an enemy piece
        if color == chess.WHITE:
            blocked = pawns & (occupied >> 8)
            attacking = chess.shift_down_left(enemy) | chess.shift_down_right(enemy)
        else:
            blocked = pawns & (occupied << 8)
            attacking = chess.shift_up_left(enemy) | chess.shift_up_right(enemy)
        if enemy.bit_count() > self._goal_count[not color]:  # something may still be taken
            blocked &= ~attacking
        return blocked.bit_count()

"""Pieces staying for good, by an assignment that makes the piece move.

The assignment bound ``A`` of :mod:`retro.spg.bounds` matches each free unit of a colour
C to the square it ends on (or to a capture column) and charges each unit its least
moves to get there. A *settled* piece s of C -- a knight, bishop, rook, queen or king
standing on a goal square g of its own type, not bound to move by a castling right to
lose and unable to castle (:meth:`MoveBounds.must_move`, :meth:`MoveBounds.castling_units`)
-- is matched to g at cost 0 and left out.

**Rule.** Let ``A_s`` be the least assignment of C's free units in which s is a row
like the others and its cost to its own square g is 2 instead of 0 (``assignment``
with s among the units that must move), with C's pawns and the enemy's pawns settled
for good as blocked squares, and no capture regions. If C has fewer than ``A_s + 1``
moves left (``A_s`` > C's moves left), then s neither moves nor is captured from now to
the end of any game: g holds s, untouched, for good. The search blocks g for both
sides' routes (:mod:`retro.spg.search`, "Pieces staying for good").

**Proof.** Take a game in which s moves or is captured, and its destination
assignment D (each free unit of C to the goal square it ends on, or to a capture
column when it is captured), as in the proof of ``A``. Every cost of the ``A_s``
matrix along D is at most the unit's real moves: for s, if it ends on g it left g and
came back (at least 2 moves, the cost of s to g); if it ends on another goal square
g', it made at least its distance to g' (the cost of s to g'); if it is captured, its
cost to a capture column is 0. For the other units the costs are those of ``A``
(distances avoiding frozen squares and pawns settled for good, both of which hold
their squares to the end; the other settled units matched home by the exchange
argument of :mod:`retro.spg.bounds`, which does not involve s). Capture columns cost
0, and leaving out the capture regions only lowers costs. So ``A_s`` is at most C's
moves in such a game; with fewer moves left, no game lets s move or be captured.

*Relation to :meth:`MoveBounds.staying`*: when s is the only free unit of its type and
no pawn of C can promote to g, every column of s but g is a capture column that
leaves g to no unit, so ``A_s = A + 2`` and this rule is that one; here two knights,
two rooks or two bishops of a colour are covered as well (the other unit of the type
filling g is priced by the assignment). ``A_s <= A_base + 2``, where ``A_base`` is the
same assignment with s settled (move s home at cost 2 in an optimal matching without
it), and ``A_base`` is at most ``A`` (it has no region columns) and so at most C's bound
(:meth:`MoveBounds.side_needs`); so nothing is computed when C has at least its bound
plus 2 moves left.
"""

from __future__ import annotations

import chess

from retro.spg.bounds import MoveBounds, SideMasks

__all__ = ["StayingPieces"]

_PIECES = (chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN, chess.KING)
_MEMO_LIMIT = 500_000  # entries; cleared beyond it (memo lost, never soundness)


class _Side:
    """One colour's configuration: the assignment's inputs and ``A_s`` per settled piece."""

    def __init__(
        self,
        bounds: MoveBounds,
        color: chess.Color,
        masks: SideMasks,
        rights: chess.Bitboard,
        enemy_units: int,
        enemy_pawns: chess.Bitboard,
    ) -> None:
        self.bounds, self.color, self.masks = bounds, color, masks
        self.pieces: list[chess.Bitboard] | None = None
        self.costs: dict[chess.Bitboard, int] = {}
        setup = bounds.side_setup(color, masks, rights, enemy_units)
        self.feasible = setup is not None
        if setup is None:
            return
        self.captures, self.spare, self.must, self.castles = setup
        self.blocked = bounds.blocked_for_good(color, masks[0], self.captures, enemy_pawns, self.spare)

    def _assignment(self, must: chess.Bitboard) -> int:
        return self.bounds.assignment(
            self.color, self.masks, must, self.castles, self.captures, self.spare, [], self.blocked
        )

    def settled(self) -> list[chess.Bitboard]:
        """The squares of the settled pieces (module docstring)."""
        if self.pieces is None:
            self.pieces = []
            for kind in _PIECES:
                have = self.masks[kind - 1] & ~self.bounds.frozen
                settled = have & self.bounds.goal_mask[self.color, kind] & ~self.must & ~self.castles
                self.pieces.extend(chess.BB_SQUARES[square] for square in chess.scan_forward(settled))
        return self.pieces

    def cost(self, bit: chess.Bitboard) -> int:
        """``A_s`` for the settled piece on ``bit``."""
        value = self.costs.get(bit)
        if value is None:
            value = self.costs[bit] = self._assignment(self.must | bit)
        return value


class StayingPieces:
    """The squares of pieces staying for good (module docstring), memoised per side configuration."""

    def __init__(self, bounds: MoveBounds) -> None:
        self.bounds = bounds
        self._sides: dict[tuple, _Side] = {}

    def all_squares(
        self,
        color: chess.Color,
        masks: SideMasks,
        rights: chess.Bitboard,
        enemy_units: int,
        enemy_pawns: chess.Bitboard,
        allowance: int,
    ) -> chess.Bitboard:
        """The squares of all ``color``'s pieces staying for good with ``allowance`` moves
        left: those of :meth:`MoveBounds.staying` and those of this module's rule."""
        known = self.bounds.staying(color, masks, rights, enemy_units, enemy_pawns, allowance)
        return known | self.squares(color, masks, rights, enemy_units, enemy_pawns, allowance, known)

    def squares(
        self,
        color: chess.Color,
        masks: SideMasks,
        rights: chess.Bitboard,
        enemy_units: int,
        enemy_pawns: chess.Bitboard,
        allowance: int,
        known: chess.Bitboard = 0,
    ) -> chess.Bitboard:
        """The squares of ``color``'s pieces that stay for good when it has ``allowance`` moves
        left, but for those on ``known`` (already known to stay: not computed, not returned)."""
        if allowance >= self.bounds.side_needs(color, masks, rights, enemy_units, enemy_pawns) + 2:
            return 0  # A_s <= A + 2 <= the bound + 2 (module docstring)
        key = (color, masks, rights, enemy_units, enemy_pawns)
        side = self._sides.get(key)
        if side is None:
            if len(self._sides) >= _MEMO_LIMIT:
                self._sides.clear()
            side = self._sides[key] = _Side(self.bounds, color, masks, rights, enemy_units, enemy_pawns)
        if not side.feasible:
            return 0
        stay = 0
        for bit in side.settled():
            if not bit & known and side.cost(bit) > allowance:
                stay |= bit
        return stay

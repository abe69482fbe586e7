"""Captures of units that can no longer move: the capturer's route goes through their squares.

**Rule 1.** At a node, let C be a colour that still makes ``k >= 1`` captures (the enemy
E's units now minus in the goal), ``a`` the moves E still makes, and X the squares of
E's units that may still be captured (:meth:`CaptureMoves.capturable`: no other unit of E
is ever captured). Suppose every unit of X is a piece (not a pawn) all of whose
*first-step squares* (:func:`retro.spg.frozen.first_step_mask`) hold units that stay
to the end and are never captured: frozen units, and pawns settled for good of either
colour (:mod:`retro.spg.bounds`). For a square t of X let ``A_t`` be the least, over
C's free units u, of C's assignment (:func:`retro.spg.routes.side_rows`: settled units
kept as rows; routes avoid the pawns settled for good, as in ``A``) with u's row
replaced by its row *through t* (:func:`retro.spg.routes.row_through`). Then C's moves left are at least ``A_t`` for
some t of X, and, when X has exactly ``k`` squares, for every t of X.

**Rule 2 (making way).** Same hypotheses. For t in X, an *entry* of t is a square e
adjacent to t that holds no staying unit; its *ray* is e and the squares beyond it on
the line from t through e, up to a staying unit or the edge. e is *usable* when (a) a
walk of king steps that never enters a staying square nor t leads from the square of
a unit of C that is not a knight to a square of the ray, and (b) C's assignment with
some unit's row replaced by its row *approaching t from the ray* (not as a knight: its
least moves to a square of the ray, plus one, then on from t;
:func:`retro.spg.routes.row_through`) fits C's moves left. Let ``v(t)`` be E's plain
bound if some unit of C can pass through t as a knight in time (its row through t as a
knight, promoted or not, in the assignment, fits), and otherwise the least over the
usable entries e of: E's plain bound if e holds no unit of E now, or a unit of X (an
entry holds no staying unit, so no frozen one); else E's assignment ``A`` with the
unit on e bound to move (:meth:`MoveBounds.restricted`: one that ends on e then costs
at least 2, the rule of lost castling rights). Then E's moves left are at least ``v(t)`` for some t of X, and,
when X has exactly ``k`` squares, for every t of X.

The search (:mod:`retro.spg.search`) prunes a node where rule 1 or rule 2 fails for
either side.

**Proof.** Rule 1: every move of a piece enters or crosses one of its first-step squares (a
slider's adjacent square in its direction, a knight's landing square, a king's adjacent
square; a capture too). Those of a unit x of X hold, from now to the end, units that
never leave and are never captured, so x can neither enter nor cross them: x never
moves again. So a capture of x lands on x's present square t (en passant takes only
pawns), made by a unit u of C that stands on t at that moment: u's route goes through
t, and u's own moves are at least its row through t to its real destination (the
moves to t are at least the distance to t, as a pawn or after promoting, or by
castling first; those after at least the distance from t). Every other unit's own
moves are at least its row's cost, the destinations form an assignment (every unit
ends on a goal square of C or is captured), and C's moves are at least the sum of its
units' own moves (castling counted once, as the king's). C captures ``k >= 1`` units,
all in X: so some t of X is the landing square of a capture, and when X has ``k``
squares every unit of X is captured, each on its own square.

Rule 2: let u take x on t. If u is then a knight (a knight of now, or a pawn promoted to
one), its route passes through t as a knight: ``v(t)`` is E's plain bound. Otherwise u
is not a knight now (a knight stays one) and its capture is a king step, a pawn's
diagonal step or a slider's move: it starts on a square q of the ray of some entry e
(q = e for a step), and the squares between q and t are empty, e among them when q is
not e. Before, u went from its square to q without entering t (x stood there) nor a
staying square; every move of a unit that is not a knight goes square by adjacent
square (a slider crosses its line, a double step its middle square, castling the
squares between), so (a) holds; u's own moves are at least its moves to q, plus one,
plus its moves from t on, so (b) holds as in rule 1. At the capture e holds no unit of
E: a unit y of E on e now that is not in X (never captured) and not frozen has left e
before, so it moves at least once, and twice if it ends on e; so E's moves are at least
``A`` with y bound to move.
"""

from __future__ import annotations

import chess

from astar.paths import INF
from retro.core.assignment import RowChange
from retro.spg.bounds import MoveBounds, side_masks
from retro.spg.captures import CaptureMoves
from retro.spg.frozen import first_step_mask
from retro.spg.routes import row_through, side_rows

__all__ = ["StuckCaptures"]

_MEMO_LIMIT = 200_000  # memoised answers; cleared beyond (memo lost, never soundness)


class StuckCaptures:
    """The rule of the module docstring for a goal and its bounds."""

    def __init__(self, bounds: MoveBounds, captures: CaptureMoves) -> None:
        self.bounds = bounds
        self.captures = captures
        self._memo: dict[tuple, tuple[bool, tuple[chess.Bitboard | None, ...]]] = {}
        self._entries: dict[tuple, bool] = {}

    def exceeds(self, board: chess.Board, color: chess.Color, moves: int, enemy_moves: int) -> bool:
        """Whether ``color``, with ``moves`` moves left, cannot bring its captures to the
        stuck units that must be captured (module docstring)."""
        bounds, enemy = self.bounds, not color
        k = chess.popcount(board.occupied_co[enemy]) - bounds.goal_count[enemy]
        if k < 1:
            return False
        takers = self.captures.capturable(board, enemy, enemy_moves)
        if not takers or len(takers) < k:
            return False
        pawns = board.pawns
        stay = bounds.frozen | bounds.blocked_for_good(
            color,
            pawns & board.occupied_co[color],
            k,
            pawns & board.occupied_co[enemy],
            chess.popcount(board.occupied_co[color]) - bounds.goal_count[color],
        )
        for square in takers:
            piece = board.piece_at(square)
            if piece is None or piece.piece_type == chess.PAWN or first_step_mask(piece, square) & ~stay:
                return False
        # the answer depends on this side's units and rights, the enemy's unit count and
        # pawns (the settled pawns, the regions), the squares X and the moves left
        key = (
            color,
            side_masks(board, color),
            board.clean_castling_rights(),
            chess.popcount(board.occupied_co[enemy]),
            pawns & board.occupied_co[enemy],
            tuple(takers),
            moves,
        )
        cached = self._memo.get(key)
        if cached is None:
            if len(self._memo) >= _MEMO_LIMIT:
                self._memo.clear()
            cached = self._memo[key] = self._answer(board, color, takers, k, moves, stay)
        exceeds, entries = cached
        if exceeds:
            return True
        return self._entries_exceed(board, color, takers, k, entries, enemy_moves)

    def _answer(
        self,
        board: chess.Board,
        color: chess.Color,
        takers: list[chess.Square],
        k: int,
        moves: int,
        stay: chess.Bitboard,
    ) -> tuple[bool, tuple[chess.Bitboard | None, ...]]:
        """Whether ``color``'s moves cannot pass through the squares X (rule 1), and per
        square t of X the entries of t that a unit not a knight can use in time (rule 2;
        ``None`` when a knight, or a pawn promoting to one, can take on t in time)."""
        side = side_rows(self.bounds, board, color, stay & ~self.bounds.frozen)
        if side is None:
            return False, (None,) * len(takers)
        change = RowChange(side.base)
        if change.total > moves:
            return True, ()
        units = range(len(side.rows))
        reached = [
            any(change.within(i, row_through(self.bounds, color, side, i, t), moves) for i in units) for t in takers
        ]
        if not all(reached) if len(takers) == k else not any(reached):
            return True, ()
        entries: list[chess.Bitboard | None] = []
        for t in takers:
            if any(change.within(i, row_through(self.bounds, color, side, i, t, chess.KNIGHT), moves) for i in units):
                entries.append(None)
                continue
            outside = _king_walk(board.occupied_co[color] & ~board.knights, stay | chess.BB_SQUARES[t])
            usable = 0
            for entry in chess.scan_forward(chess.BB_KING_ATTACKS[t] & ~stay):
                ray = _ray(t, entry, stay)
                if ray & outside and any(
                    change.within(i, row_through(self.bounds, color, side, i, t, approach=ray), moves) for i in units
                ):
                    usable |= chess.BB_SQUARES[entry]
            entries.append(usable)
        return False, tuple(entries)

    def _entries_exceed(
        self,
        board: chess.Board,
        color: chess.Color,
        takers: list[chess.Square],
        k: int,
        entries: tuple[chess.Bitboard | None, ...],
        enemy_moves: int,
    ) -> bool:
        """Rule 2: whether the enemy's units on the usable entries of the squares of X
        cannot make way within ``enemy_moves``."""
        enemy, bounds = not color, self.bounds
        key = (
            color,
            board.occupied_co[color],
            board.occupied_co[enemy],
            board.pawns,
            board.knights,
            board.bishops,
            board.rooks,
            board.queens,
            board.clean_castling_rights(),
            tuple(takers),
            enemy_moves,
            entries,
        )
        cached = self._entries.get(key)
        if cached is not None:
            return cached
        if len(self._entries) >= _MEMO_LIMIT:
            self._entries.clear()
        masks = side_masks(board, enemy)
        rights = board.clean_castling_rights() & (chess.BB_RANK_1 if enemy == chess.WHITE else chess.BB_RANK_8)
        units, pawns = chess.popcount(board.occupied_co[color]), board.pawns & board.occupied_co[color]
        plain = bounds.needs(board, enemy)
        values = []
        for usable in entries:
            if usable is None:
                values.append(plain)
                continue
            best = INF
            for entry in chess.scan_forward(usable):
                bit = chess.BB_SQUARES[entry]
                if not board.occupied_co[enemy] & bit or entry in takers:  # entries hold no frozen unit
                    best = plain
                    break
                best = min(best, bounds.restricted(enemy, masks, rights, units, pawns, None, None, bit))
            values.append(best)
        need = max(values) if len(takers) == k else min(values)
        cached = self._entries[key] = need > enemy_moves
        return cached


def _king_walk(start: chess.Bitboard, walls: chess.Bitboard) -> chess.Bitboard:
    """The squares reachable from ``start`` by king steps that never enter ``walls``."""
    seen = start & ~walls
    frontier = seen
    while frontier:
        grown = 0
        for square in chess.scan_forward(frontier):
            grown |= chess.BB_KING_ATTACKS[square]
        frontier = grown & ~walls & ~seen
        seen |= frontier
    return seen


def _ray(t: chess.Square, entry: chess.Square, stay: chess.Bitboard) -> chess.Bitboard:
    """The squares from ``entry`` on, away from ``t`` along their line, up to a square of ``stay``."""
    step = entry - t
    ray, square = 0, entry
    while True:
        ray |= chess.BB_SQUARES[square]
        following = square + step
        if not 0 <= following < 64 or chess.square_distance(square, following) != 1:
            return ray
        if stay & chess.BB_SQUARES[following]:
            return ray
        square = following

"""Initial path: the extended proof kernel turned into real moves (paper 002, "To compute
an initial path ... corresponding to an extended proof kernel").

The extended kernel (:mod:`proofkernel.extended`) fixes the captures, their order, and
where every pawn stands before each capture. Texel plays the kernel out on a board that
allows several pieces per square, repairs the result, and runs A* to it. We reach the
same intermediate positions differently, with short searches toward *partial goals*
(our choice; the paper leaves the mechanics open, and the outcome is replay-checked
like any other move sequence):

For each kernel capture, in kernel order,

1. **approach leg**: every pawn on the square the extended kernel gives it before the
   capture, and the unit to be captured on the capture square (for a pawn capture of
   a piece: a piece of the captured kind on the landing square; of a pawn: that pawn
   there);
2. **capture leg**: the capture itself - the planned pawn from its square to the landing
   square (promoting to the planned kind), or any piece of the capturing side onto the
   captured pawn's square, or any piece of the capturing side taking a piece of the
   planned kind (bishops by square colour) for a piece-takes-piece capture.

A leg is a weighted best-first search (priority ``g + 10 * h``) over real positions in
which no other capture and no quiet promotion is allowed and pieces on blocked squares
never move. A leg may not end with a side in check, except an approach leg whose pawn
capture is then a legal answer (the victim giving the check). Its guide ``h`` (not a
bound) is the sum of

* the pawns' remaining steps to their planned squares; infinite if a pawn has passed
  its square, or, in a capture leg, if a pawn on a file the capture changes has left
  its square;
* one per piece standing on a pawn's way (two if it is a required unit, which must
  leave and come back);
* per required unit, the relaxed distance (:func:`astar.paths.piece_distances`) of the
  nearest piece of that kind around the blocked squares and the planned pawn squares
  (or, when they close every way, the pawns already on their planned squares: a piece
  may pass before a pawn arrives), plus one per piece standing on its least obstructed
  shortest way or on the square itself (:func:`astar.paths.obstruction`: a piece
  boxed in by its own units is further away than its relaxed distance says).

All other pieces are free; the leg ends as soon as the partial goal holds.

Then, when the goal is given, the **quiet promotions** (texel's extended kernel carries
them; ours stops at the last capture): the pawns beyond the goal's count on a file are the most advanced
ones there (pawns of a file never pass each other without captures, and none are
left). Repeatedly, one pawn whose way to the last rank holds no pawn and no blocked
square promotes, in a leg of its own (:class:`_PromotionLeg`: no capture; other pawns
may advance but not past their goal squares), to a kind the goal still lacks (bishops
by the colour of the promotion square), choosing the fewest pawn steps, then the kind
whose nearest unfilled goal square is closest; a kind is not offered when the
colour's remaining promotion squares could then no longer make the light or dark
bishops still lacking, nor a bishop for a goal bishop that only a promotion on its own
square can make (:func:`_promotions`). With ``place``, a capture-free leg then walks the new piece to
the nearest unfilled goal square of its kind, but not one a walk failed to reach
before, with a small node budget; a failure there is ignored.

The plan may have a pawn promote quietly *before* a capture (a file with fewer pawns in
the plan than on the board): those promotions are played first, in the same way, the
bishop-colour check then counting the squares of the plan's later promotions (its
pawns change files only by its captures; :func:`_later_promotion_squares`).

When a capture's legs fail, they are tried once more with the pawns that take part in
no capture and no promotion from there on (their file keeps its number of pawns in
every later plan) already on their last squares of the plan: the plan keeps pawns as
late as it can, which can shut a unit out (a rook to be taken behind a bishop boxed in
by two pawns of its home rank gets out once one of them advances). These files keep
their last squares for the rest of the path.

When a leg fails (node limit), or the plan needs something this construction does not
do (a capture of a promoted piece, en passant), the path stops there: the moves made
so far are kept and the final search starts from their end (texel instead splits the
kernel in halves; we do not). A promotion is tried with the three best choices
(squares whose promotion leg failed before come last) before the path stops.
"""

from __future__ import annotations

import heapq
import itertools
import random
import re
import time
from dataclasses import dataclass, field

import chess

from astar.heuristic import INF, node_key, pieces_of_key
from astar.legal_moves import legal_moves
from astar.paths import attacks_mask, obstruction, piece_distances
from astar.search import child_key, cyclic_gc_paused
from proofkernel.moves import PAWN_X_PAWN, PAWN_X_PIECE, PIECE_X_PAWN, PIECE_X_PIECE, KernelMove
from proofkernel.state import DARK_BISHOP, LIGHT_BISHOP, bishop_may_leave

__all__ = ["InitialPath", "initial_path"]

_KIND_TYPES = (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.BISHOP, chess.KNIGHT)  # Q R DB LB N
_PIECES = (chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN, chess.KING)
_PAWN_CAPTURE = re.compile(r"^[wb]P([a-h])(\d)x([a-h])(\d)$")
_PIECE_TAKES_PAWN = re.compile(r"^[wb]x([a-h])(\d)$")


@dataclass(frozen=True)
class InitialPath:
    """The moves realising the first ``done`` of ``total`` kernel captures, the position
    they reach, the nodes spent and, when the path stopped early, why."""

    moves: tuple[chess.Move, ...]
    board: chess.Board
    done: int
    total: int
    nodes: int
    reason: str = ""
    promoted: int = 0


@dataclass
class _Leg:
    """A partial goal: exact pawn masks, required units, which captures are allowed."""

    pawns: dict[chess.Color, int]
    units: list[tuple[chess.Color, tuple[chess.PieceType, ...], chess.Square]]
    capture_from: int = -1  # pawn capture: from square (-1: none)
    capture_to: int = -1  # the one square a capture may land on (-1: none)
    capture_color: chess.Color = chess.WHITE
    victim_kind: int = -1  # piece takes piece: the kind to take
    promotion: chess.PieceType | None = None
    victims_left: int = -1  # piece takes piece: victims of that kind left afterwards
    answer: chess.Move | None = None  # approach of a pawn capture: the capture that follows
    before: dict[chess.Color, int] | None = None  # capture leg: the pawn masks before the capture
    _by_pawns: dict = field(default_factory=dict, repr=False, compare=False)  # pawn masks -> _pawn_steps

    def ends(self, board: chess.Board) -> bool:
        """The partial goal holds and the next leg can start: no side is in check,
        unless the capture that follows is a legal answer to it (the captured unit
        may be the checking one)."""
        if not self.reached(board):
            return False
        if not board.is_check():
            return True
        return self.answer is not None and board.turn == self.capture_color and board.is_legal(self.answer)

    def allows(self, board: chess.Board, move: chess.Move) -> bool:
        if move.promotion is not None and (move.promotion != self.promotion or not board.is_capture(move)):
            return False
        if not board.is_capture(move):
            return True
        if board.turn != self.capture_color:
            return False
        if self.victim_kind >= 0:
            return board.piece_type_at(move.from_square) != chess.PAWN and _is_kind(
                board, move.to_square, self.victim_kind
            )
        if move.to_square != self.capture_to:
            return False
        if self.capture_from >= 0:
            return move.from_square == self.capture_from and not board.is_en_passant(move)
        return board.piece_type_at(move.from_square) != chess.PAWN

    def reached(self, board: chess.BaseBoard) -> bool:
        for color in chess.COLORS:
            if board.pawns & board.occupied_co[color] != self.pawns[color]:
                return False
        for color, types, square in self.units:
            if board.color_at(square) != color or board.piece_type_at(square) not in types:
                return False
        return self.victims_left < 0 or self._victims(board) == self.victims_left

    def _victims(self, board: chess.BaseBoard) -> int:
        return sum(
            1
            for sq in chess.scan_forward(board.occupied_co[not self.capture_color])
            if _is_kind(board, sq, self.victim_kind)
        )

    def guide(self, board: chess.BaseBoard, blocked: int) -> int:
        """Remaining moves, roughly (not a bound); INF when a pawn has passed its square
        or a required unit's square is one the leg's pawns must end on."""
        total, ways = _pawn_part(self, board)
        if total >= INF:
            return INF
        planned = self.pawns[chess.WHITE] | self.pawns[chess.BLACK]
        units = 0
        for _color, _types, square in self.units:
            units |= chess.BB_SQUARES[square]
        if units & planned:
            return INF
        # pieces standing on a pawn's way must step aside (and a required unit standing
        # there must also come back)
        pieces = board.occupied & ~board.pawns
        for way in ways:
            total += chess.popcount(way & pieces) + chess.popcount(way & pieces & units)
        # the planned pawn squares are obstacles (the pieces find their way around the
        # pawns as they will stand); when that closes every way, only the pawns already
        # in place are (a piece may pass before a pawn arrives)
        in_place = board.pawns & (
            (board.occupied_co[chess.WHITE] & self.pawns[chess.WHITE])
            | (board.occupied_co[chess.BLACK] & self.pawns[chess.BLACK])
        )
        for color, types, square in self.units:
            distance = self._nearest(board, color, types, square, blocked | planned)
            if distance >= INF:
                distance = self._nearest(board, color, types, square, blocked | in_place)
            total += distance
        if self.victims_left >= 0 and self._victims(board) > self.victims_left:
            best = INF
            for vsq in chess.scan_forward(board.occupied_co[not self.capture_color]):
                if _is_kind(board, vsq, self.victim_kind):
                    best = min(best, self._nearest(board, self.capture_color, _PIECES, vsq, blocked))
            total += max(1, best)
        return min(total, INF)

    def _pawn_steps(self, board: chess.BaseBoard) -> tuple[int, list[int]]:
        """The pawns' remaining steps (INF when one has passed its square) and the ways
        they still have to walk; a function of the pawn masks alone, cached per leg."""
        total, ways = 0, []
        for color in chess.COLORS:
            have = board.pawns & board.occupied_co[color]
            want = self.pawns[color]
            differ = have ^ want
            for file, file_mask in enumerate(chess.BB_FILES):
                if not differ & file_mask:
                    continue  # pawns in place: nothing to do on this file
                ranks = sorted(chess.square_rank(sq) for sq in chess.scan_forward(have & file_mask))
                goals = sorted(chess.square_rank(sq) for sq in chess.scan_forward(want & file_mask))
                if len(ranks) != len(goals):
                    # a file the capture changes: its pawns must still stand as before it
                    if self.before is not None and have & file_mask != self.before[color] & file_mask:
                        return INF, []
                    total += abs(len(ranks) - len(goals))
                    continue
                for rank, goal in zip(ranks, goals, strict=False):
                    step = goal - rank if color == chess.WHITE else rank - goal
                    if step < 0:
                        return INF, []
                    total += step
                    goal_square = chess.square(file, goal)
                    ways.append(chess.between(chess.square(file, rank), goal_square) | chess.BB_SQUARES[goal_square])
        return total, ways

    @staticmethod
    def _nearest(
        board: chess.BaseBoard,
        color: chess.Color,
        types: tuple[chess.PieceType, ...],
        square: chess.Square,
        blocked: int,
    ) -> int:
        """Moves of the nearest piece of ``types`` to ``square``: its relaxed distance
        plus one per piece standing on its least obstructed shortest way (and on the
        square itself), as they must step aside first."""
        if board.color_at(square) == color and board.piece_type_at(square) in types:
            return 0
        best = INF
        walls = blocked & ~chess.BB_SQUARES[square]
        for ptype in types:
            mask = board.pieces_mask(ptype, color) & ~blocked
            if not mask:
                continue
            dist = piece_distances(ptype, square, walls)
            for sq in chess.scan_forward(mask):
                if dist[sq] >= best:
                    continue
                best = min(best, dist[sq] + obstruction(ptype, sq, square, walls, board.occupied))
        if best < INF and board.occupied & chess.BB_SQUARES[square]:
            best += 1
        return best


@dataclass
class _PromotionLeg:
    """A quiet promotion as a partial goal: the ``color`` pawn on ``promotion_square``'s
    file promotes there to ``ptype``. No capture is allowed; the other pawns may
    advance, but none past its goal square (``goal_pawns``)."""

    color: chess.Color
    promotion_square: chess.Square
    ptype: chess.PieceType
    pawns_after: int  # pawns of ``color`` once it has promoted
    goal_pawns: dict[chess.Color, int]
    _by_pawns: dict = field(default_factory=dict, repr=False, compare=False)  # pawn masks -> _pawn_steps

    def ends(self, board: chess.Board) -> bool:
        return self.reached(board) and not board.is_check()

    def reached(self, board: chess.BaseBoard) -> bool:
        return chess.popcount(board.pawns & board.occupied_co[self.color]) == self.pawns_after and board.piece_at(
            self.promotion_square
        ) == chess.Piece(self.ptype, self.color)

    def allows(self, board: chess.Board, move: chess.Move) -> bool:
        if board.is_capture(move):
            return False
        return move.promotion is None or (move.promotion == self.ptype and move.to_square == self.promotion_square)

    def guide(self, board: chess.BaseBoard, blocked: int) -> int:
        """Steps of the promoting pawn plus one per piece on its way; INF when a pawn
        that stays has passed its goal square."""
        steps, way = _pawn_part(self, board)
        return steps if steps >= INF else steps + chess.popcount(way & board.occupied)

    def _pawn_steps(self, board: chess.BaseBoard) -> tuple[int, int]:
        """The promoting pawn's steps and way (INF when a pawn that stays has passed its
        goal square or a pawn bars the way); a function of the pawn masks alone."""
        for color in chess.COLORS:
            for file_mask in chess.BB_FILES:
                goals = sorted(chess.scan_forward(self.goal_pawns[color] & file_mask), reverse=color == chess.BLACK)
                have = sorted(
                    chess.scan_forward(board.pawns & board.occupied_co[color] & file_mask), reverse=color == chess.BLACK
                )
                # the least advanced pawns of a file are the ones that stay
                if any(sq > goal if color == chess.WHITE else sq < goal for sq, goal in zip(have, goals, strict=False)):
                    return INF, 0
        file_mask = chess.BB_FILES[chess.square_file(self.promotion_square)]
        file_pawns = board.pawns & board.occupied_co[self.color] & file_mask
        if chess.popcount(file_pawns) <= chess.popcount(self.goal_pawns[self.color] & file_mask):
            return 1, 0  # promoted, only the check is left to answer
        pawn = chess.msb(file_pawns) if self.color == chess.WHITE else chess.lsb(file_pawns)
        way = chess.between(pawn, self.promotion_square) | chess.BB_SQUARES[self.promotion_square]
        if way & board.pawns:
            return INF, 0
        return abs(chess.square_rank(self.promotion_square) - chess.square_rank(pawn)), way


def _pawn_part(leg: _Leg | _PromotionLeg, board: chess.BaseBoard) -> tuple:
    """``leg._pawn_steps(board)``, cached in ``leg._by_pawns`` per pawn masks (the pawn
    part of a leg's guide depends on nothing else, and most moves are piece moves)."""
    pawns = (board.pawns & board.occupied_co[chess.WHITE], board.pawns & board.occupied_co[chess.BLACK])
    cached = leg._by_pawns.get(pawns)
    if cached is None:
        cached = leg._by_pawns[pawns] = leg._pawn_steps(board)
    return cached


def _is_kind(board: chess.BaseBoard, square: chess.Square, kind: int) -> bool:
    return board.piece_type_at(square) == _KIND_TYPES[kind] and _is_kind_square(square, kind)


def _is_kind_square(square: chess.Square, kind: int) -> bool:
    """A piece of ``kind`` may stand on ``square`` (a bishop only on its colour)."""
    if kind in (LIGHT_BISHOP, DARK_BISHOP):
        return bool(chess.BB_LIGHT_SQUARES & chess.BB_SQUARES[square]) == (kind == LIGHT_BISHOP)
    return True


Unit = tuple[chess.Color, tuple[chess.PieceType, ...], chess.Square]
"""A unit to capture: its colour, the piece types it may be, its square."""


def _without_checks(board: chess.Board, unit: Unit) -> Unit:
    """A piece taking a pawn should not give check from there (the path would have to
    answer the check without capturing): keep the kinds that do not attack the enemy
    king from the capture square, if any."""
    color, types, square = unit
    king = board.king(not color)
    if king is None:
        return unit
    quiet = tuple(t for t in types if not attacks_mask(t, square, board.occupied) & chess.BB_SQUARES[king])
    return (color, quiet or types, square)


def _pawn_masks(plan: tuple[tuple[chess.Square, chess.Color], ...]) -> dict[chess.Color, int]:
    masks = {chess.WHITE: 0, chess.BLACK: 0}
    for square, color in plan:
        masks[color] |= chess.BB_SQUARES[square]
    return masks


def _steady_files(plans: list[dict[chess.Color, int]]) -> dict[chess.Color, int]:
    """Per colour, the files whose pawns take part in no capture and no promotion over
    ``plans`` (the same number of pawns there in each): they only advance."""
    steady = {}
    for color in chess.COLORS:
        steady[color] = 0
        for file_mask in chess.BB_FILES:
            if len({chess.popcount(plan[color] & file_mask) for plan in plans}) == 1:
                steady[color] |= file_mask
    return steady


def _advance(
    masks: dict[chess.Color, int], final: dict[chess.Color, int], files: dict[chess.Color, int]
) -> dict[chess.Color, int]:
    """``masks`` with the pawns on ``files`` on their ``final`` squares."""
    return {c: (masks[c] & ~files[c]) | (final[c] & files[c]) for c in chess.COLORS}


def _legs(move: KernelMove, text: str, before: dict[chess.Color, int]) -> list[_Leg] | str:
    """The approach and capture legs of one kernel capture, or why we cannot build them."""
    color, enemy = move.color, not move.color
    after = dict(before)
    if move.kind in (PAWN_X_PAWN, PAWN_X_PIECE):
        m = _PAWN_CAPTURE.match(text)
        if m is None:
            return f"unexpected extended move {text}"
        from_sq = chess.parse_square(m.group(1) + m.group(2))
        to_sq = chess.parse_square(m.group(3) + m.group(4))
        after[color] &= ~chess.BB_SQUARES[from_sq]
        promotion = _KIND_TYPES[move.promotion] if move.promotion >= 0 else None
        if promotion is None:
            after[color] |= chess.BB_SQUARES[to_sq]
        if move.kind == PAWN_X_PAWN:
            if not before[enemy] & chess.BB_SQUARES[to_sq]:
                return "en passant in the plan"
            after[enemy] &= ~chess.BB_SQUARES[to_sq]
            approach = _Leg(before, [])
        else:
            approach = _Leg(before, [(enemy, (_KIND_TYPES[move.captured],), to_sq)])
        approach.capture_color = color
        approach.answer = chess.Move(from_sq, to_sq, promotion)
        units: list[tuple[chess.Color, tuple[chess.PieceType, ...], chess.Square]] = (
            [(color, (promotion,), to_sq)] if promotion is not None else []
        )
        capture = _Leg(
            after,
            units,
            capture_from=from_sq,
            capture_to=to_sq,
            capture_color=color,
            promotion=promotion,
            before=before,
        )
        return [approach, capture]
    if move.kind == PIECE_X_PAWN:
        m = _PIECE_TAKES_PAWN.match(text)
        if m is None:
            return f"unexpected extended move {text}"
        square = chess.parse_square(m.group(1) + m.group(2))
        after[enemy] &= ~chess.BB_SQUARES[square]
        return [
            _Leg(before, []),
            _Leg(after, [(color, _PIECES, square)], capture_to=square, capture_color=color, before=before),
        ]
    if move.kind == PIECE_X_PIECE:
        return [_Leg(before, []), _Leg(before, [], capture_color=color, victim_kind=move.captured)]
    return "capture of a promoted piece"


@cyclic_gc_paused()
def _search_leg(
    board: chess.Board,
    leg: _Leg | _PromotionLeg,
    blocked: int,
    *,
    max_nodes: int,
    deadline: float | None,
    rng: random.Random,
) -> tuple[tuple[chess.Move, ...] | None, int]:
    """Best-first search from ``board`` until ``leg`` holds; (moves or None, nodes)."""
    if leg.ends(board):
        return (), 0
    h0 = leg.guide(board, blocked)
    if h0 >= INF:
        return None, 0
    counter = itertools.count()
    # a heap entry holds the parent board and the move: the child board is built only
    # when the entry is popped (most children are never expanded)
    heap: list[tuple[float, float, int, int, chess.Board, chess.Move | None, tuple[chess.Move, ...]]] = [
        (10 * h0, rng.random(), next(counter), 0, board.copy(stack=False), None, ())
    ]
    seen = {node_key(board)}
    nodes = 0
    unblocked = chess.BB_ALL & ~blocked
    while heap and nodes < max_nodes:
        if deadline is not None and nodes % 8 == 0 and time.monotonic() > deadline:
            break
        _, _, _, g, current, last, path = heapq.heappop(heap)
        if last is not None:
            current = current.copy(stack=False)
            current.push(last)
        nodes += 1
        current_key = node_key(current)
        for move in legal_moves(current, unblocked):  # (blocked pieces' moves: skipped anyway)
            if blocked & (chess.BB_SQUARES[move.from_square] | chess.BB_SQUARES[move.to_square]):
                continue
            if not leg.allows(current, move):
                continue
            key = child_key(current, current_key, move)
            if key is None:  # castling, a promotion, en passant or a double step: played out
                current.push(move)
                key = node_key(current)
                current.pop()
            if key in seen:
                continue
            seen.add(key)
            # the guide reads the pieces only: the child is played out only when the
            # leg may end there (whether a side is in check needs the full board)
            pieces = pieces_of_key(key)
            if leg.reached(pieces):
                current.push(move)
                done = leg.ends(current)
                current.pop()
                if done:
                    return path + (move,), nodes
            h = leg.guide(pieces, blocked)
            if h < INF:
                heapq.heappush(
                    heap, (g + 1 + 10 * h, rng.random(), next(counter), g + 1, current, move, path + (move,))
                )
    return None, nodes


def _kind_counts(board: chess.Board, color: chess.Color) -> list[int]:
    """Pieces of ``color`` per kind (Q R DB LB N; bishops by square colour)."""
    counts = [0] * len(_KIND_TYPES)
    for kind in range(len(_KIND_TYPES)):
        for sq in chess.scan_forward(board.pieces_mask(_KIND_TYPES[kind], color)):
            counts[kind] += _is_kind(board, sq, kind)
    return counts


def _pawn_masks_of(board: chess.BaseBoard) -> dict[chess.Color, int]:
    return {c: board.pawns & board.occupied_co[c] for c in chess.COLORS}


def _promoting_pawns(board: chess.Board, target_pawns: int, color: chess.Color) -> list[chess.Square]:
    """The pawns of ``color`` that must promote to leave the pawns ``target_pawns``: on
    each file the most advanced ones beyond the target's pawn count there (pawns of a
    file never pass each other)."""
    result = []
    for file_mask in chess.BB_FILES:
        mine = sorted(
            chess.scan_forward(board.pawns & board.occupied_co[color] & file_mask), reverse=color == chess.WHITE
        )
        extra = len(mine) - chess.popcount(target_pawns & file_mask)
        result.extend(mine[: max(0, extra)])
    return result


def _promotions(
    board: chess.Board,
    goal: chess.Board,
    blocked: int,
    target_pawns: dict[chess.Color, int] | None = None,
    later: dict[chess.Color, list[chess.Square]] | None = None,
) -> list[tuple[_PromotionLeg, int]]:
    """The quiet promotion legs that can be played next, best first, with the kind each
    makes, toward the goal's pawns or, before a capture, toward ``target_pawns`` (the
    plan's). A pawn qualifies when no pawn or blocked square stands between it and its
    promotion square; its kinds are those the goal still lacks (a bishop on its
    square's colour), but not one after which the colour's other promotion squares
    could no longer make the light and dark bishops still lacking. Before a capture,
    the other promotion squares are those of the pawns promoting now and ``later``
    (the squares of the plan's promotions after the capture,
    :func:`_later_promotion_squares`); without ``later`` only their number counts.
    Order: fewest pawn steps, then the kind whose nearest unfilled goal square is
    closest.

    A goal bishop on a square it can never leave (every diagonal neighbour blocked,
    e.g. a8 beside a blocked b7 pawn) is born there: only a promotion on that square
    makes it, and a bishop promoted there stays. So a bishop promoted elsewhere is not
    offered for it (it would use up a pawn the square needs), and no bishop is promoted
    there while another pawn still has to promote on the same square (it would bar the
    way)."""
    ranked: list[tuple[tuple[int, int, int], _PromotionLeg, int]] = []
    goal_pawns = _pawn_masks_of(goal) if target_pawns is None else target_pawns
    for color in chess.COLORS:
        pawns = _promoting_pawns(board, goal_pawns[color], color)
        last_rank = 7 if color == chess.WHITE else 0
        squares = [chess.square(chess.square_file(sq), last_rank) for sq in pawns]
        later_squares = later[color] if later is not None else []
        sealed = [
            sq
            for kind in (DARK_BISHOP, LIGHT_BISHOP)
            for sq in _unfilled_squares(board, goal, color, kind, blocked)
            if not bishop_may_leave(sq, blocked)
        ]
        # (a bishop promoted where it can never leave makes none of the goal's bishops)
        bishop_squares = [promo for promo in squares + later_squares if bishop_may_leave(promo, blocked)]
        light = sum(1 for promo in bishop_squares if _is_kind_square(promo, LIGHT_BISHOP))
        dark = len(bishop_squares) - light
        lacking = [g - h for g, h in zip(_kind_counts(goal, color), _kind_counts(board, color), strict=True)]
        after = chess.popcount(board.pawns & board.occupied_co[color]) - 1
        for sq, promo in zip(pawns, squares, strict=False):
            way = chess.between(sq, promo) | chess.BB_SQUARES[promo]
            if way & (board.pawns | blocked):
                continue
            steps = abs(last_rank - chess.square_rank(sq))
            # the promotion squares left for the others (before a capture without the
            # plan's later squares, only their number: any square colour)
            others = len(squares) + len(later_squares) - 1
            others_light = light - (promo in bishop_squares and _is_kind_square(promo, LIGHT_BISHOP))
            others_dark = dark - (promo in bishop_squares and _is_kind_square(promo, DARK_BISHOP))
            if target_pawns is not None and later is None:
                others = others_light = others_dark = after - chess.popcount(goal.pawns & goal.occupied_co[color])
            for kind in range(len(lacking)):
                if not _kind_wanted(kind, promo, lacking, sealed, squares, (others_light, others_dark, others)):
                    continue
                distance, _target = _nearest_unfilled(board, goal, color, kind, promo, blocked)
                if distance < INF:
                    leg = _PromotionLeg(color, promo, _KIND_TYPES[kind], after, goal_pawns)
                    ranked.append(((steps, distance, len(ranked)), leg, kind))
    ranked.sort(key=lambda item: item[0])
    return [(leg, kind) for _key, leg, kind in ranked]


def _kind_wanted(
    kind: int,
    promo: chess.Square,
    lacking: list[int],
    sealed: list[chess.Square],
    squares: list[chess.Square],
    others: tuple[int, int, int],
) -> bool:
    """Whether :func:`_promotions` offers ``kind`` on ``promo``: a kind of the square's
    colour the goal still lacks (``lacking``, per kind), the bishops born on ``sealed``
    squares aside, after which the other promotion squares (``others``: light, dark,
    all) can still make the light and dark bishops still lacking; a bishop on a sealed
    square only when no other pawn of ``squares`` promotes there."""
    if not _is_kind_square(promo, kind):
        return False
    missing = lacking[kind]
    if kind in (DARK_BISHOP, LIGHT_BISHOP):
        if promo in sealed:
            if squares.count(promo) > 1:
                return False
        else:
            missing -= sum(_is_kind_square(sq, kind) for sq in sealed)
    if missing <= 0:
        return False
    left = list(lacking)
    left[kind] -= 1
    others_light, others_dark, others_all = others
    return not (
        left[LIGHT_BISHOP] > others_light
        or left[DARK_BISHOP] > others_dark
        or left[LIGHT_BISHOP] + left[DARK_BISHOP] > others_all
    )


def _later_promotion_squares(
    kernel: tuple[KernelMove, ...], extended_moves: tuple[str, ...], plans: list[dict[chess.Color, int]], index: int
) -> dict[chess.Color, list[chess.Square]] | None:
    """Per colour, the promotion squares of the promotions the plan makes from kernel
    capture ``index`` on: pawns only change files by capturing, so the pawns a file
    has after capture ``j`` beyond those it has before capture ``j + 1`` (or in the
    end) promote quietly on that file; a capture that promotes lands on its square.
    None when a capture's legs cannot be built. (Counting the later promotions alone is
    not enough: a quiet promotion now must leave the later ones the square colours
    the goal's bishops still need.)"""
    squares: dict[chess.Color, list[chess.Square]] = {chess.WHITE: [], chess.BLACK: []}
    for j in range(index, len(kernel)):
        legs = _legs(kernel[j], extended_moves[j], plans[j])
        if isinstance(legs, str):
            return None
        capture = legs[-1]
        if capture.promotion is not None:
            squares[kernel[j].color].append(capture.capture_to)
        after = capture.pawns
        for color in chess.COLORS:
            last_rank = 7 if color == chess.WHITE else 0
            for file, file_mask in enumerate(chess.BB_FILES):
                gone = chess.popcount(after[color] & file_mask) - chess.popcount(plans[j + 1][color] & file_mask)
                squares[color] += [chess.square(file, last_rank)] * max(0, gone)
    return squares


def _unfilled_squares(
    board: chess.Board, goal: chess.Board, color: chess.Color, kind: int, blocked: int
) -> list[chess.Square]:
    """Goal squares of a ``color`` piece of ``kind`` that do not hold it yet."""
    return [
        sq
        for sq in chess.scan_forward(goal.pieces_mask(_KIND_TYPES[kind], color) & ~blocked)
        if _is_kind(goal, sq, kind) and not (board.color_at(sq) == color and _is_kind(board, sq, kind))
    ]


def _nearest_unfilled(
    board: chess.Board,
    goal: chess.Board,
    color: chess.Color,
    kind: int,
    square: chess.Square,
    blocked: int,
    skip: set[chess.Square] | frozenset[chess.Square] = frozenset(),
) -> tuple[int, chess.Square | None]:
    """The unfilled goal square of ``kind`` nearest (relaxed distance) to a piece on
    ``square``, with that distance; the first in square order on ties; squares in
    ``skip`` left out; (INF, None) when no goal square of that kind is unfilled and
    reachable."""
    best, nearest = INF, None
    for target in _unfilled_squares(board, goal, color, kind, blocked):
        distance = piece_distances(_KIND_TYPES[kind], target, blocked)[square]
        if target not in skip and distance < best:
            best, nearest = distance, target
    return best, nearest


def initial_path(
    init: chess.Board,
    kernel: tuple[KernelMove, ...],
    extended_moves: tuple[str, ...],
    pawn_plan: tuple[tuple[tuple[chess.Square, chess.Color], ...], ...],
    blocked: int,
    *,
    goal: chess.Board | None = None,
    place: bool = True,
    tries: int = 3,
    leg_nodes: int = 3_000,
    max_nodes: int | None = None,
    time_limit: float | None = None,
    seed: int = 0,
) -> InitialPath:
    """Realise ``kernel`` (with its extended-kernel moves and pawn plan) from ``init``;
    with ``goal``, then also the quiet promotions (and, with ``place``, each promoted
    piece's walk to an unfilled goal square of its kind). ``max_nodes`` bounds the
    nodes of all legs together (a leg gets at most what is left)."""
    path = _PathBuilder(
        init,
        kernel,
        blocked,
        goal=goal,
        place=place,
        tries=tries,
        leg_nodes=leg_nodes,
        max_nodes=max_nodes,
        time_limit=time_limit,
        seed=seed,
    )
    if len(extended_moves) != len(kernel) or len(pawn_plan) != len(kernel) + 1:
        return path.stop(0, "extended kernel does not match the kernel")
    plans = [_pawn_masks(plan) for plan in pawn_plan]
    for index, (move, text) in enumerate(zip(kernel, extended_moves, strict=True)):
        failed = path.play_capture(plans, index, move, text, extended_moves)
        if failed is not None:
            return path.stop(index, failed)
    if goal is not None:
        while path.must_promote(_pawn_masks_of(goal)):
            if not path.promote_one(goal, None):
                return path.stop(len(kernel), "no way found for the next quiet promotion")
    return path.stop(len(kernel), "")


class _PathBuilder:
    """An initial path under construction: the moves played from ``init``, the board they
    reach, the nodes spent, the quiet promotions played, and the squares that failed."""

    def __init__(
        self,
        init: chess.Board,
        kernel: tuple[KernelMove, ...],
        blocked: int,
        *,
        goal: chess.Board | None,
        place: bool,
        tries: int,
        leg_nodes: int,
        max_nodes: int | None,
        time_limit: float | None,
        seed: int,
    ) -> None:
        self.max_nodes = max_nodes
        self.deadline = None if time_limit is None else time.monotonic() + time_limit
        self.rng = random.Random(seed)
        self.kernel, self.blocked, self.goal = kernel, blocked, goal
        self.place, self.tries, self.leg_nodes = place, tries, leg_nodes
        self.board = init.copy(stack=False)
        self.moves: list[chess.Move] = []
        self.nodes = 0
        self.promoted = 0
        self.unreached: set[chess.Square] = set()  # goal squares a promoted piece's walk failed to reach
        self.stuck: set[chess.Square] = set()  # promotion squares a promotion leg failed to reach
        #: files whose pawns went to their last squares early, and the pawns before the capture at hand
        self.advanced: dict[chess.Color, int] = {chess.WHITE: 0, chess.BLACK: 0}
        self.before: dict[chess.Color, int] = {}

    def stop(self, done: int, reason: str) -> InitialPath:
        return InitialPath(tuple(self.moves), self.board, done, len(self.kernel), self.nodes, reason, self.promoted)

    def play(self, leg: _Leg | _PromotionLeg, budget: int) -> bool:
        """Search ``leg`` within ``budget`` nodes and play it; False when it was not found."""
        if self.max_nodes is not None:
            budget = min(budget, self.max_nodes - self.nodes)
            if budget <= 0:
                return False
        found, spent = _search_leg(
            self.board, leg, self.blocked, max_nodes=budget, deadline=self.deadline, rng=self.rng
        )
        self.nodes += spent
        if found is None:
            return False
        for real in found:
            self.board.push(real)
        self.moves.extend(found)
        self.board = self.board.copy(stack=False)
        return True

    def promote_one(
        self,
        goal: chess.Board,
        target_pawns: dict[chess.Color, int] | None,
        later: dict[chess.Color, list[chess.Square]] | None = None,
    ) -> bool:
        """One quiet promotion toward ``target_pawns`` (None: the goal's pawns), the
        plan's ``later`` promotion squares left for the others, then the new piece's
        walk."""
        # promotion squares whose leg failed come last (a failure there tends to repeat)
        ranked = _promotions(self.board, goal, self.blocked, target_pawns, later)
        candidates = sorted(ranked, key=lambda item: item[0].promotion_square in self.stuck)[: self.tries]
        # when every candidate fails, the best one gets a second try with twice the nodes
        attempts = [(leg, kind, self.leg_nodes) for leg, kind in candidates]
        attempts += [(leg, kind, 2 * self.leg_nodes) for leg, kind in candidates[:1]]
        played = next(((leg, kind) for leg, kind, budget in attempts if self._play_or_mark(leg, budget)), None)
        if played is None:
            return False
        leg, kind = played
        self.promoted += 1
        if self.place:
            self._walk_to_goal_square(goal, leg, kind)
        return True

    def _play_or_mark(self, leg: _PromotionLeg, budget: int) -> bool:
        """Play the promotion ``leg``, or mark its square as stuck."""
        if self.play(leg, budget):
            return True
        self.stuck.add(leg.promotion_square)
        return False

    def _walk_to_goal_square(self, goal: chess.Board, leg: _PromotionLeg, kind: int) -> None:
        """Walk the piece ``leg`` promoted to the nearest unfilled goal square of its kind.
        A walk to a square a pawn keeps ends at once (the leg's guide is INF there); never
        to a square a walk failed to reach (it would spend the whole leg budget again).
        A walk takes a few nodes when it succeeds, and its failure is ignored: a small budget."""
        target = _nearest_unfilled(
            self.board, goal, leg.color, kind, leg.promotion_square, self.blocked, self.unreached
        )[1]
        if target is not None:
            walk = _Leg(_pawn_masks_of(self.board), [(leg.color, (leg.ptype,), target)], capture_color=leg.color)
            if not self.play(walk, self.leg_nodes // 6):
                self.unreached.add(target)

    def must_promote(self, target_pawns: dict[chess.Color, int]) -> bool:
        return any(_promoting_pawns(self.board, target_pawns[c], c) for c in chess.COLORS)

    def realise(self, move: KernelMove, text: str) -> str | None:
        """Play the legs of the kernel capture ``move`` (extended move ``text``) with the
        pawns ``before`` it; None, or why not."""
        legs = _legs(move, text, self.before)
        if isinstance(legs, str):
            return legs
        for leg in legs:
            if leg.capture_to >= 0 and leg.capture_from < 0:
                leg.units = [_without_checks(self.board, unit) for unit in leg.units]
            if leg.victim_kind >= 0:
                leg.victims_left = leg._victims(self.board) - 1
            if not self.play(leg, self.leg_nodes):
                return f"no way found to {'capture' if leg is legs[-1] else 'prepare'} {move}"
        return None

    def advance_steady(self, plans: list[dict[chess.Color, int]], index: int) -> bool:
        """Send the pawns that take part in nothing from capture ``index`` on to their
        last squares (``advanced``, and ``before`` with them); False when they are
        there already."""
        steady = _steady_files(plans[index:])
        if steady == self.advanced:
            return False
        self.advanced, self.before = steady, _advance(plans[index], plans[-1], steady)
        return True

    def play_capture(
        self,
        plans: list[dict[chess.Color, int]],
        index: int,
        move: KernelMove,
        text: str,
        extended_moves: tuple[str, ...],
    ) -> str | None:
        """Kernel capture ``index``: first the quiet promotions of the pawns the plan no
        longer has before it, then its legs; None, or why not. When either gets stuck, the
        pawns that take part in nothing more advance early and it is tried again (a pawn
        kept home can shut in the piece to promote on or to be captured)."""
        self.before = _advance(plans[index], plans[-1], self.advanced)
        if self.goal is not None:
            later = _later_promotion_squares(self.kernel, extended_moves, plans, index)
            while self.must_promote(self.before):
                if self.promote_one(self.goal, self.before, later):
                    continue
                if not self.advance_steady(plans, index):
                    return "no way found for a quiet promotion before this capture"
        board = self.board
        for color in chess.COLORS:
            if chess.popcount(self.before[color]) != chess.popcount(board.pawns & board.occupied_co[color]):
                return "a pawn promotes quietly before this capture"
        while True:
            failed = self.realise(move, text)
            if failed is None:
                return None
            if not self.advance_steady(plans, index):
                return failed

"""Exact-length search: every game of exactly N plies from ``init`` that reaches the diagram.

A depth-first search over legal moves (python-chess), pruned by the per-side bounds of
:mod:`retro.spg.bounds` and memoised in a transposition table.

* **Allowance.** With ``p`` plies left, the side to move makes ``ceil(p/2)`` more moves
  and the other side ``floor(p/2)``. A child is searched only if each side's lower bound
  (:meth:`MoveBounds.needs`) fits its own allowance; otherwise no game through the child
  reaches the goal in time, so pruning it loses no solution. A side's bound depends
  only on its own units, its castling rights, the number of enemy units
  and pawns (:meth:`MoveBounds.side_needs`), so the child's bounds are computed from the move
  before it is played (the mover's units after the move, its rights as python-chess
  updates them: a king move loses both, a move from or to a corner loses that one; a
  capture removes an enemy unit and the right of a rook taken on its corner); a quiet
  move of a piece leaves the other side's bound unchanged. Only children within both allowances
  are played.
* **Pieces staying for good** (:meth:`MoveBounds.staying`, :mod:`retro.spg.staying`):
  at a child, the pieces of either side that can no longer move nor be captured (their
  side has at most its assignment bound plus one moves left, and no other unit can fill
  their goal square; or the assignment that makes the piece move exceeds its side's
  moves left) block every route of both sides; a child whose bounds with those squares
  blocked exceed an allowance is pruned as well.
* **Solo game** (:mod:`retro.spg.solo`): for a side that has its goal unit count, a
  child is pruned when that side alone, its own units in the way, cannot play its
  remaining moves to its goal units and captures (checked for the mover, and for the
  other side when the move was a pawn's or a capture); the solo moves examined count as
  nodes. The root is checked for both.
* **Captures and quiet arrivals** (:mod:`retro.spg.captures`): a node is pruned when a
  side's captures still to make plus its goal squares that it must still reach by a
  non-capturing move exceed its moves left.
* **Captures of units that can no longer move** (:mod:`retro.spg.stuck`): when every
  enemy unit that may still be captured is a piece boxed in for good, a node is pruned
  when the side's assignment with one unit's route through such a square exceeds its
  moves left.
* **Pawns facing each other on a file** (:mod:`retro.spg.passing`): a node is pruned
  when, for a White and a Black pawn on one file that must still pass each other, both
  sides' bounds with that pawn's route restricted to leaving the file first exceed their
  moves left.
* **Transposition table** on ``(position, plies left)``, the position being
  python-chess's transposition key (placement, side to move, castling rights and a
  *usable* en-passant square: exactly what decides the future legal moves). The games
  from a node depend only on that key and ``p``, so the table stores the full list of
  the node's solution suffixes (``()`` for none) and a repeated subtree is counted,
  not searched again. Each full solution is registered once: when the search reaches
  the goal, or a table entry with suffixes, along the path that got there.
* **Route squares** (:mod:`retro.spg.routes`): a unit moves (a pawn promotes) only to
  a square its type (the promoted type) can stand on in some game of N plies,
  computed once at the root for each side; the other moves are in no game and are not
  generated (python-chess generates the moves of each piece type to its squares only).
  Nor are the moves of a unit on a frozen square (:mod:`retro.spg.frozen`): such a unit
  stands on its square for the whole game, so no game contains a move of it.
* **Budgets.** ``max_nodes`` (moves generated and bounded) and ``time_limit`` end the search
  with :attr:`SearchOutcome.complete` false; ``cap`` solutions end it as well
  (``cap_reached``). Only a complete search supports "unique" or "no solution".

Draw rules are not part of orthodox SPG practice and are ignored: no game here is
long enough for the 75-move rule; a fivefold repetition inside a proof game would
need 16 wasted plies and does not occur in the shortest games this search is for.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import chess

from retro.core.position import position_key
from retro.spg.bounds import MoveBounds, SideMasks, side_masks
from retro.spg.captures import CaptureMoves
from retro.spg.passing import PassingPawns
from retro.spg.problem import SpgProblem
from retro.spg.routes import RouteSquares, route_squares
from retro.spg.solo import SoloGame
from retro.spg.staying import StayingPieces
from retro.spg.stuck import StuckCaptures

__all__ = ["SearchOutcome", "search_games", "Progress"]

Progress = Callable[[int, float, int, str], None]
"""``progress(nodes, seconds, solutions found, where)`` is called every few seconds."""

_TT_LIMIT = 2_000_000  # entries; the table is cleared (memo lost, never soundness) beyond it
_CHECK_EVERY = 4096  # nodes between clock checks
_ROUTED = (chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN, chess.KING)
_BACK_RANK = {chess.WHITE: chess.BB_RANK_1, chess.BLACK: chess.BB_RANK_8}
# castling as python-chess writes it (the king's two-square move) -> the rook's from and to squares
_CASTLING_ROOK = {
    (chess.E1, chess.G1): chess.BB_H1 | chess.BB_F1,
    (chess.E1, chess.C1): chess.BB_A1 | chess.BB_D1,
    (chess.E8, chess.G8): chess.BB_H8 | chess.BB_F8,
    (chess.E8, chess.C8): chess.BB_A8 | chess.BB_D8,
}


class _Stop(Exception):
    """Ends the search early (budget or cap)."""


@dataclass
class SearchOutcome:
    """The games found (move tuples, in the order found) and how the search ended."""

    games: list[tuple[chess.Move, ...]] = field(default_factory=list)
    complete: bool = False
    cap_reached: bool = False
    nodes: int = 0
    seconds: float = 0.0
    explored: str = ""


class _Search:
    def __init__(
        self,
        problem: SpgProblem,
        bounds: MoveBounds,
        *,
        max_nodes: int | None,
        time_limit: float | None,
        cap: int,
        progress: Progress | None,
        routes: dict[chess.Color, RouteSquares] | None = None,
        solo: bool = True,
        quiet: bool = True,
        passing: bool = True,
        stuck: bool = True,
        staying: bool = True,
    ) -> None:
        self.problem = problem
        self.staying = StayingPieces(bounds) if staying else None
        self.routes = routes
        self.bounds = bounds
        self.board = problem.init.copy(stack=False)
        self.max_nodes = max_nodes
        self.deadline = None if time_limit is None else time.monotonic() + time_limit
        self.cap = cap
        self.progress = progress
        self.outcome = SearchOutcome()
        self.table: dict[tuple, tuple[tuple[chess.Move, ...], ...]] = {}
        self.start = time.monotonic()
        self.next_report = self.start + 5.0
        self.root_moves: list[chess.Move] = []
        self.root_index = 0
        self.stop_reason = ""
        self.solo = SoloGame(bounds, problem.goal, routes, self.count, self.staying) if solo else None
        self.captures = CaptureMoves(problem.goal, bounds) if quiet else None
        self.passing = PassingPawns(problem.goal, bounds) if passing else None
        self.stuck = StuckCaptures(bounds, self.captures) if quiet and self.captures is not None and stuck else None

    def count(self) -> None:
        """One more node (a solo move examined counts as one, :mod:`retro.spg.solo`)."""
        self.outcome.nodes += 1
        if self.outcome.nodes % _CHECK_EVERY == 0:
            self.tick()

    def where(self) -> str:
        return f"root move {self.root_index}/{len(self.root_moves)}"

    def tick(self) -> None:
        nodes = self.outcome.nodes
        if self.max_nodes is not None and nodes >= self.max_nodes:
            self.stop_reason = f"node budget of {self.max_nodes} reached"
            raise _Stop
        now = time.monotonic()
        if self.deadline is not None and now >= self.deadline:
            self.stop_reason = "time limit reached"
            raise _Stop
        if self.progress is not None and now >= self.next_report:
            self.next_report = now + 5.0
            self.progress(nodes, now - self.start, len(self.outcome.games), self.where())

    def register(self, suffixes: tuple[tuple[chess.Move, ...], ...]) -> None:
        prefix = tuple(self.board.move_stack)
        for suffix in suffixes:
            self.outcome.games.append(prefix + suffix)
        if len(self.outcome.games) >= self.cap:
            self.outcome.cap_reached = True
            self.stop_reason = f"{self.cap} solutions found (the cap)"
            raise _Stop

    def moves(self, board: chess.Board) -> list[chess.Move]:
        """The mover's pseudo-legal moves, of units off the frozen squares, pieces and promotions
        to their route squares only (module docstring, "Route squares")."""
        if self.routes is None:
            return list(board.generate_pseudo_legal_moves(board.occupied_co[board.turn] & ~self.bounds.frozen))
        routes, own = self.routes[board.turn], board.occupied_co[board.turn] & ~self.bounds.frozen
        moves = [
            move
            for move in board.generate_pseudo_legal_moves(own & board.pawns, routes[chess.PAWN] | chess.BB_BACKRANKS)
            if not move.promotion or routes[move.promotion] & chess.BB_SQUARES[move.to_square]
        ]
        for kind in _ROUTED:
            if routes[kind]:
                moves.extend(board.generate_pseudo_legal_moves(board.pieces_mask(kind, board.turn) & own, routes[kind]))
        return moves

    def stay(self, *sides: tuple[chess.Color, SideMasks, chess.Bitboard, int, chess.Bitboard, int]) -> chess.Bitboard:
        """The squares of the pieces staying for good of each side given as (colour, its masks,
        its rights, the enemy's unit count, the enemy's pawns, its moves left): the rule of
        :meth:`MoveBounds.staying` and, when enabled, that of :mod:`retro.spg.staying`."""
        stay = 0
        for side in sides:
            stay |= self.bounds.staying(*side) if self.staying is None else self.staying.all_squares(*side)
        return stay

    def solo_fits(
        self,
        mover: chess.Color,
        mine: tuple[SideMasks, chess.Bitboard, int, int],
        theirs: tuple[SideMasks, chess.Bitboard, int, int],
        other_changed: bool,
    ) -> bool:
        """Whether the child passes the solo rule (:mod:`retro.spg.solo`) for the mover, and
        for the other side when the move changed what its solo game depends on; each side
        is given as (its masks, its rights, its unit count, its moves left)."""
        solo = self.solo
        assert solo is not None
        (masks, rights, count, allow), (their_masks, their_rights, their_count, their_allow) = mine, theirs
        if solo.applies(mover, count, their_count) and not solo.succeeds(
            mover, masks, rights, their_count, their_masks[0], allow
        ):
            return False
        return (
            not other_changed
            or not solo.applies(not mover, their_count, count)
            or solo.succeeds(not mover, their_masks, their_rights, count, masks[0], their_allow)
        )

    def dead(self, board: chess.Board, plies: int) -> bool:
        """Whether a node-level rule prunes the node with ``plies`` left: captures and quiet
        arrivals, captures of boxed-in units, pawns facing each other (module docstring)."""
        mover_moves, other_moves = plies - plies // 2, plies // 2
        for rule in (self.captures, self.stuck):
            if rule is not None and (
                rule.exceeds(board, board.turn, mover_moves, other_moves)
                or rule.exceeds(board, not board.turn, other_moves, mover_moves)
            ):
                return True
        if self.passing is None:
            return False
        white, black = (mover_moves, other_moves) if board.turn == chess.WHITE else (other_moves, mover_moves)
        return self.passing.exceeds(board, white, black)

    def visit(self, plies: int, white_need: int, black_need: int) -> tuple[tuple[chess.Move, ...], ...]:
        """Solution suffixes from the current board with ``plies`` left (bounds already checked)."""
        board = self.board
        if plies == 0:
            if self.problem.matches(board):
                self.register(((),))
                return ((),)
            return ()
        key = (position_key(board), plies)
        known = self.table.get(key)
        if known is not None:
            if known:
                self.register(known)
            return known
        if self.dead(board, plies):
            self.table[key] = ()
            return ()
        bounds = self.bounds
        mover, other = board.turn, not board.turn
        left = plies - 1
        # after the move, the mover has floor(left/2) moves left, the other ceil(left/2)
        mover_allow, other_allow = left // 2, left - left // 2
        other_need = black_need if mover == chess.WHITE else white_need
        rights = board.clean_castling_rights()
        mine, theirs = side_masks(board, mover), side_masks(board, other)
        mine_rights, their_rights = rights & _BACK_RANK[mover], rights & _BACK_RANK[other]
        mine_count, their_count = chess.popcount(board.occupied_co[mover]), chess.popcount(board.occupied_co[other])
        found: list[tuple[chess.Move, ...]] = []
        moves = self.moves(board)  # legality checked for the children kept
        root = not board.move_stack
        if root:
            self.root_moves = moves
        for index, move in enumerate(moves):
            if root:
                self.root_index = index
            self.count()
            # the child's bounds from the move alone (no push): module docstring, "Allowance"
            after, after_rights, captured = _after_move(board, move, mine, mine_rights)
            their_after = _masks([m & ~captured for m in theirs]) if captured else theirs
            after_masks = _masks(after)
            new_mover = bounds.side_needs(
                mover, after_masks, after_rights, their_count - (1 if captured else 0), their_after[0]
            )
            if new_mover > mover_allow:
                continue
            new_other = other_need
            if captured or chess.BB_SQUARES[move.from_square] & board.pawns:
                new_other = bounds.side_needs(other, their_after, their_rights & ~captured, mine_count, after[0])
                if new_other > other_allow:
                    continue
            stay = self.stay(
                (mover, after_masks, after_rights, their_count - (1 if captured else 0), their_after[0], mover_allow),
                (other, their_after, their_rights & ~captured, mine_count, after[0], other_allow),
            )
            if stay and (
                bounds.side_needs(
                    mover, after_masks, after_rights, their_count - (1 if captured else 0), their_after[0], stay
                )
                > mover_allow
                or bounds.side_needs(other, their_after, their_rights & ~captured, mine_count, after[0], stay)
                > other_allow
            ):
                continue
            if board.is_into_check(move):
                continue
            if self.solo is not None and not self.solo_fits(
                mover,
                (after_masks, after_rights, mine_count, mover_allow),
                (their_after, their_rights & ~captured, their_count - (1 if captured else 0), other_allow),
                bool(captured or chess.BB_SQUARES[move.from_square] & board.pawns),
            ):
                continue
            board.push(move)
            if mover == chess.WHITE:
                sub = self.visit(left, new_mover, new_other)
            else:
                sub = self.visit(left, new_other, new_mover)
            board.pop()
            found.extend((move,) + s for s in sub)
        if len(self.table) >= _TT_LIMIT:
            self.table.clear()
        result = tuple(found)
        self.table[key] = result
        return result


def _after_move(
    board: chess.Board, move: chess.Move, mine: SideMasks, mine_rights: chess.Bitboard
) -> tuple[list[int], chess.Bitboard, chess.Bitboard]:
    """The mover's unit masks and castling rights after ``move``, and the square of the
    unit it captures (0 for none; the passed pawn's square for en passant), without
    pushing the move."""
    from_bb, to_bb = chess.BB_SQUARES[move.from_square], chess.BB_SQUARES[move.to_square]
    kind = board.piece_type_at(move.from_square)
    assert kind is not None
    after = list(mine)
    after[kind - 1] ^= from_bb
    after[(move.promotion or kind) - 1] |= to_bb
    after_rights = mine_rights & ~from_bb & ~to_bb
    if kind == chess.KING:
        after_rights = 0
        rook_move = _CASTLING_ROOK.get((move.from_square, move.to_square))
        if rook_move is not None:
            after[chess.ROOK - 1] ^= rook_move
    captured = to_bb & board.occupied_co[not board.turn]
    if (
        not captured
        and kind == chess.PAWN
        and move.to_square == board.ep_square
        and (move.to_square - move.from_square) % 8
    ):
        captured = chess.BB_SQUARES[move.to_square - 8 if board.turn == chess.WHITE else move.to_square + 8]
    return after, after_rights, captured


def _masks(values: list[int]) -> SideMasks:
    return (values[0], values[1], values[2], values[3], values[4], values[5])


def search_games(
    problem: SpgProblem,
    bounds: MoveBounds,
    *,
    max_nodes: int | None = None,
    time_limit: float | None = None,
    cap: int = 8,
    progress: Progress | None = None,
    route: bool = True,
    solo: bool = True,
    quiet: bool = True,
    passing: bool = True,
    stuck: bool = True,
    staying: bool = True,
) -> SearchOutcome:
    """Every game of ``problem.plies`` plies from ``problem.init`` reaching the goal, up to ``cap``
    (module docstring). The root's bounds must already fit the allowance. ``route``: generate
    only moves to route squares (:mod:`retro.spg.routes`); ``solo``: prune by the solo
    rule (:mod:`retro.spg.solo`); ``quiet``: prune by the rule of :mod:`retro.spg.captures`;
    ``passing``: prune by the rule of :mod:`retro.spg.passing`; ``stuck``: prune by the rule
    of :mod:`retro.spg.stuck`; ``staying``: add the pieces staying for good of
    :mod:`retro.spg.staying`."""
    first = (problem.plies + 1) // 2
    moves = {problem.init.turn: first, not problem.init.turn: problem.plies - first}
    routes = (
        {color: route_squares(bounds, problem.init, color, moves[color]) for color in chess.COLORS} if route else None
    )
    search = _Search(
        problem,
        bounds,
        max_nodes=max_nodes,
        time_limit=time_limit,
        cap=cap,
        progress=progress,
        routes=routes,
        solo=solo,
        quiet=quiet,
        passing=passing,
        stuck=stuck,
        staying=staying,
    )
    board = search.board
    white_need, black_need = bounds.needs(board, chess.WHITE), bounds.needs(board, chess.BLACK)
    try:
        if _solo_at_root(search, moves):
            search.visit(problem.plies, white_need, black_need)
        search.outcome.complete = True
        search.outcome.explored = "exhaustive search"
    except _Stop:
        search.outcome.explored = f"{search.stop_reason} at {search.where()}"
    search.outcome.seconds = time.monotonic() - search.start
    return search.outcome


def _solo_at_root(search: _Search, moves: dict[chess.Color, int]) -> bool:
    """Whether both sides pass the solo rule at the root (true when it does not apply)."""
    board, solo = search.board, search.solo
    if solo is None:
        return True
    for color in chess.COLORS:
        mine, theirs = board.occupied_co[color], board.occupied_co[not color]
        if solo.applies(color, chess.popcount(mine), chess.popcount(theirs)) and not solo.succeeds(
            color,
            side_masks(board, color),
            board.clean_castling_rights() & _BACK_RANK[color],
            chess.popcount(theirs),
            board.pawns & theirs,
            moves[color],
        ):
            return False
    return True

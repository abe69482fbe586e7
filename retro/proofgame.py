"""Orchestrator of ``retro proofgame``: legality verdict with a replay-checked proof game.

Pipeline (texel documentation, "If a position cannot be proven illegal ..."):

1. Illegality: :func:`retro.legality.decide` (static rules, kernel search, extended
   kernel, last-move analysis); without the kernel (``use_kernel=False``) the static
   rules :func:`retro.rules.check_static` alone. Either runs once per position. An
   ``illegal`` from them is returned as is (their soundness is theirs).
2. A forced last move (:mod:`astar.last_move`) replaces the goal by its predecessor,
   the first candidate whose predecessor has a proof kernel, and that kernel replaces
   the goal's (which may count the last move itself).
3. The initial path (:mod:`astar.initial_path`): when the pipeline found a kernel, the
   extended kernel is solved again with pawns advancing as late as possible and its
   captures, then the quiet promotions the goal (or the forced last move's
   predecessor) needs, are played as real moves from the initial position (the start
   position unless ``init`` is given), using at most half of the attempt's time. When
   that path stops early, the extended kernel with the pawns as early as the solver
   likes is tried too, then up to :data:`SHUFFLED_PLANS` whose objective weights the
   pawns at random (seeded: some pawns go early, so each attempt and each batch pass
   plays other plans, e.g. one that moves a pawn out of the way the late and early
   plans keep home), until a path plays every capture and promotion; the path with
   more captures (then promotions) is kept.
4. Weighted A* in committed legs (:func:`astar.search.search_descending`) from the end
   of the initial path to the goal (or to the forced last move's predecessor); when the
   goal is unreachable from there, from the initial position with the attempt's time
   left. With a kernel and a time limit, steps 3 and 4 are two attempts with half of
   the time each, the second with new seeds (another path: whether the final search
   succeeds turns on the path's details, such as where its promoted pieces stand).
5. ``legal`` is returned only with a :class:`~astar.proofgame.ProofGame` that replays
   from the initial position to the goal exactly. Everything else is ``unknown``:
   an exhausted search is reported as unknown too (conservative choice), with the
   reason "search space exhausted".
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import chess

from astar.heuristic import Heuristic
from astar.initial_path import InitialPath, initial_path
from astar.last_move import ForcedLastMove, forced_last_moves
from astar.nonadmissible import NonAdmissibleHeuristic
from astar.proofgame import ProofGame, ProofGameError
from astar.search import SearchResult, search_descending
from proofkernel.blocked import blocked_squares
from proofkernel.extended import extend_kernel
from proofkernel.moves import parse_move
from retro.legality import KernelResult, KernelSearchStatus, LegalityVerdict, decide, find_kernel
from retro.rules import check_static
from retro.status import CheckStatus, LegalityStatus

__all__ = ["ProofGameVerdict", "prove"]


@dataclass(frozen=True)
class ProofGameVerdict:
    """``status`` legal (with ``proof_game``), illegal (with ``reason``) or unknown."""

    fen: str
    status: LegalityStatus
    reason: str = ""
    proof_game: ProofGame | None = None
    kernel: str | None = None
    nodes: int = 0
    seconds: float = 0.0
    best_line: tuple[str, ...] = field(default=())

    @property
    def proof(self) -> list[str]:
        return self.proof_game.san() if self.proof_game else []

    def as_dict(self) -> dict[str, Any]:
        """The JSON record of ``retro proofgame``."""
        return {
            "fen": self.fen,
            "status": self.status,
            "proof": self.proof,
            "reason": self.reason,
            "kernel": self.kernel,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
        }


def prove(
    board: chess.Board,
    *,
    max_nodes: int = 200_000,
    time_limit: float | None = 60.0,
    seed: int = 0,
    weight: tuple[int, int] = (1, 5),
    use_kernel: bool = True,
    init: chess.Board | None = None,
    non_admissible: bool = False,
    on_improve: Callable[[int, list[str]], None] | None = None,
) -> ProofGameVerdict:
    """Decide ``board``: legal with a replay-checked proof game, illegal, or unknown."""
    start = time.monotonic()
    fen = board.fen()
    pipeline = _illegality(board, use_kernel=use_kernel, max_nodes=max_nodes, time_limit=time_limit)
    if pipeline.status == LegalityStatus.ILLEGAL:
        return ProofGameVerdict(
            fen, LegalityStatus.ILLEGAL, pipeline.reason, nodes=pipeline.nodes, seconds=time.monotonic() - start
        )
    kernel = pipeline.kernel or None
    init_board = init.copy(stack=False) if init is not None else chess.Board()
    # the pipeline's kernel runs from the start position, so it only guides a search from there
    aim = _aim(
        board, pipeline.kernel_result if init is None else None, start=start, time_limit=time_limit, max_nodes=max_nodes
    )
    legs = _Legs(init_board, aim.target, weight, non_admissible, on_improve)
    result, path = _attempts(legs, aim, max_nodes=max_nodes, time_limit=time_limit, start=start, seed=seed)
    seconds = time.monotonic() - start
    if result.status == "found":
        return _replayed(
            board, init_board, result.moves + ((aim.last.move,) if aim.last else ()), kernel, result.nodes, seconds
        )
    best = tuple(ProofGame(init_board.fen(), result.best_moves).san()) if result.best_moves else ()
    return ProofGameVerdict(
        fen,
        LegalityStatus.UNKNOWN,
        _unknown_reason(result, path),
        kernel=kernel,
        nodes=result.nodes,
        seconds=seconds,
        best_line=best,
    )


def _illegality(board: chess.Board, *, use_kernel: bool, max_nodes: int, time_limit: float | None) -> LegalityVerdict:
    """The illegality pipeline's verdict, or without ``use_kernel`` the static rules' alone."""
    if use_kernel:
        # at most half the time: the rest is for the proof-game search
        return decide(board, max_nodes=max_nodes, time_limit=None if time_limit is None else time_limit / 2)
    static = check_static(board)
    if static.status == CheckStatus.ILLEGAL:
        return LegalityVerdict(static.fen, LegalityStatus.ILLEGAL, static.reason or str(static.rule))
    return LegalityVerdict(static.fen, LegalityStatus.UNKNOWN)


@dataclass(frozen=True)
class _Aim:
    """Where the searches go: ``target``, the goal or the predecessor of its forced last
    move ``last``; ``kernel``, the kernel leading to ``kernel_goal`` (None without one)."""

    last: ForcedLastMove | None
    kernel: KernelResult | None
    kernel_goal: chess.Board

    @property
    def target(self) -> chess.Board:
        return self.last.predecessor if self.last else self.kernel_goal


def _aim(
    goal: chess.Board, kernel: KernelResult | None, *, start: float, time_limit: float | None, max_nodes: int
) -> _Aim:
    """The forced last move of ``goal`` to search behind, if any (step 2 of the module docstring)."""
    candidates = forced_last_moves(goal)
    if candidates and kernel is not None:
        return _predecessor_with_kernel(candidates, goal, kernel, start, time_limit, max_nodes)
    return _Aim(candidates[0] if candidates else None, kernel, goal)


@dataclass(frozen=True)
class _Legs:
    """The weighted A* searches toward ``target`` in committed legs; improved lines are
    reported to ``on_improve`` as SAN from ``init``."""

    init: chess.Board
    target: chess.Board
    weight: tuple[int, int]
    non_admissible: bool
    on_improve: Callable[[int, list[str]], None] | None

    def heuristics(self, node: chess.Board) -> tuple[Heuristic, Heuristic]:
        """The admissible and the non-admissible heuristic (in that order unless
        ``non_admissible``) for a leg starting at ``node``."""
        mask = blocked_squares(self.target, node)
        admissible, guide = Heuristic(self.target, mask), NonAdmissibleHeuristic(self.target, mask)
        return (guide, admissible) if self.non_admissible else (admissible, guide)

    def search(
        self, begin: chess.Board, prefix: tuple[chess.Move, ...], *, max_nodes: int, time_limit: float | None, seed: int
    ) -> SearchResult:
        """Search from ``begin``, reached from ``init`` by ``prefix``."""
        report = None
        if self.on_improve is not None:
            on_improve, init_fen = self.on_improve, self.init.fen()

            def report(h: int, moves: tuple[chess.Move, ...]) -> None:
                on_improve(h, ProofGame(init_fen, prefix + moves).san())

        return search_descending(
            begin,
            self.target,
            heuristics=self.heuristics,
            weight=self.weight,
            max_nodes=max_nodes,
            time_limit=time_limit,
            seed=seed,
            on_improve=report,
        )


def _attempts(
    legs: _Legs, aim: _Aim, *, max_nodes: int, time_limit: float | None, start: float, seed: int
) -> tuple[SearchResult, InitialPath | None]:
    """Steps 3 and 4 of the module docstring: the search result (its ``nodes`` count every
    attempt) and the last attempt's initial path. With a kernel and a time limit, two
    attempts, each with half of the time: the second plays another initial path (new
    seed), as the final search's fate turns on the path's details (where its promoted
    pieces stand)."""
    # the searches end at the target: its pieces that never move
    blocked = blocked_squares(legs.target, legs.init)
    attempts = 2 if aim.kernel is not None and time_limit is not None else 1
    nodes = 0
    for attempt in range(attempts):
        began = time.monotonic()
        budget = None if time_limit is None else max(0.0, time_limit - (began - start))
        if budget is not None and attempt + 1 < attempts:
            budget /= attempts - attempt
        path = _initial_path(
            aim.kernel, legs.init, aim.kernel_goal, legs.target, blocked, began, budget, seed + attempt
        )
        result = _attempt(
            legs, path, nodes=nodes, max_nodes=max_nodes, began=began, budget=budget, seed=seed + 1000 * attempt
        )
        nodes = result.nodes
        if result.status == "found" or nodes >= max_nodes:
            break
    return result, path


def _attempt(
    legs: _Legs, path: InitialPath | None, *, nodes: int, max_nodes: int, began: float, budget: float | None, seed: int
) -> SearchResult:
    """One attempt: the search from the end of ``path`` (``nodes`` spent before it); when
    the target is unreachable from there, from the initial position instead. The result's
    moves start at the initial position and its ``nodes`` include ``nodes``."""
    begin = path.board if path is not None else legs.init
    prefix = path.moves if path is not None else ()
    nodes += path.nodes if path is not None else 0
    left = None if budget is None else max(0.0, budget - (time.monotonic() - began))
    result = legs.search(begin, prefix, max_nodes=max(1, max_nodes - nodes), time_limit=left, seed=seed)
    nodes += result.nodes
    if result.status == "unreachable" and prefix:
        # the initial path led into a dead end: search from the initial position instead
        left = None if budget is None else max(0.0, budget - (time.monotonic() - began))
        again = legs.search(legs.init, (), max_nodes=max(1, max_nodes - nodes), time_limit=left, seed=seed + 1)
        return dataclasses.replace(again, nodes=nodes + again.nodes)
    return dataclasses.replace(result, moves=prefix + result.moves, best_moves=prefix + result.best_moves, nodes=nodes)


def _replayed(
    goal: chess.Board, init: chess.Board, moves: tuple[chess.Move, ...], kernel: str | None, nodes: int, seconds: float
) -> ProofGameVerdict:
    """``legal`` with the proof game ``moves`` once it replays from ``init`` to ``goal``;
    ``unknown`` (an internal error, reported) when it does not."""
    game = ProofGame(init.fen(), moves)
    try:
        game.replay_check(goal)
    except ProofGameError as error:
        return ProofGameVerdict(
            goal.fen(),
            LegalityStatus.UNKNOWN,
            f"internal: proof game rejected ({error})",
            kernel=kernel,
            nodes=nodes,
            seconds=seconds,
        )
    return ProofGameVerdict(goal.fen(), LegalityStatus.LEGAL, "", game, kernel, nodes, seconds)


def _unknown_reason(result: SearchResult, path: InitialPath | None) -> str:
    """Why no proof game was found: the search's end, and how far the initial path got."""
    reason = "search space exhausted" if result.status == "unreachable" else "search budget exhausted"
    if path is not None:
        reason += (
            f"; initial path: {path.done} of {path.total} kernel captures, {path.promoted} promotions"
            f" in {len(path.moves)} plies"
        )
        if path.reason:
            reason += f" ({path.reason})"
    return reason


def _predecessor_with_kernel(
    candidates: list[ForcedLastMove],
    goal: chess.Board,
    goal_kernel: KernelResult,
    start: float,
    time_limit: float | None,
    max_nodes: int,
) -> _Aim:
    """Among ``candidates`` (:func:`~astar.last_move.forced_last_moves` of ``goal``), the
    forced last move to search behind, the kernel of its predecessor and that
    predecessor (the board the kernel leads to). The predecessor's kernel, not the
    goal's: the goal's may count the last move itself. The first candidate whose
    predecessor has a kernel (the kernel search proves the others illegal or does not
    decide them within a quarter of the time left, shared out); else the first candidate
    with the goal's kernel. Only completeness depends on this choice (see
    :mod:`astar.last_move`)."""
    left = None if time_limit is None else max(0.0, time_limit - (time.monotonic() - start))
    share = None if left is None else left / 4 / len(candidates)
    for candidate in candidates:
        found = find_kernel(
            candidate.predecessor,
            max_nodes=max_nodes,
            time_limit=share,
            model_time_limit=10.0 if share is None else share,
        )
        if found.status == KernelSearchStatus.FOUND:
            return _Aim(candidate, found, candidate.predecessor)
    return _Aim(candidates[0], goal_kernel, goal)


#: Plans with random weights the initial path tries, after the late and the early one,
#: until one plays every capture and promotion.
SHUFFLED_PLANS = 4


def _initial_path(
    kernel_result: KernelResult | None,
    init: chess.Board,
    goal: chess.Board,
    target: chess.Board,
    blocked: int,
    start: float,
    time_limit: float | None,
    seed: int,
) -> InitialPath | None:
    """The initial path of the kernel the pipeline found (None without one)."""
    if kernel_result is None or kernel_result.status != KernelSearchStatus.FOUND:
        return None
    kernel = tuple(parse_move(text) for text in kernel_result.kernel)
    kernel_blocked = blocked_squares(goal, init)
    best = None
    played = set()  # plans already played: the same plan gives the same path
    # pawns as late as possible first; when that path stops short (a piece that had to
    # pass before a pawn moved, e.g. a rook into a square the late pawns close), the
    # plan with pawns as early as the solver likes, then some with random weights (some
    # pawns early, seeded: each attempt and pass tries others)
    plans = [(True, None), (False, None)] + [(True, seed + 7919 * k) for k in range(SHUFFLED_PLANS)]
    for late, shuffle in plans:
        extended = extend_kernel(kernel, init, goal, kernel_blocked, late_pawns=late, shuffle=shuffle)
        if extended.status != "found" or (extended.moves, extended.pawn_plan) in played:
            continue
        played.add((extended.moves, extended.pawn_plan))
        left = None if time_limit is None else max(0.0, (time_limit - (time.monotonic() - start)) / 2)
        path = initial_path(
            init, kernel, extended.moves, extended.pawn_plan, blocked, goal=target, time_limit=left, seed=seed
        )
        if best is None or (path.done, path.promoted) > (best.done, best.promoted):
            best = path
        if not best.reason:  # every capture and promotion played
            break
    return best

"""Orchestrator of ``retro proofgame``: legality verdict with a replay-checked proof game.

Pipeline (texel documentation, "If a position cannot be proven illegal ..."):

1. Illegality: ``retro.legality.decide`` when it exists (kernel search, extended
   kernel, last-move analysis); otherwise the static rules ``retro.rules.check_static``.
   An ``illegal`` from them is returned as is (their soundness is theirs).
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
   plays other plans; Tromp's 1rrb1k2/... needs a pawn out of the way that the late
   and early plans keep home, and one random plan in four finds it), until a path
   plays every capture and promotion; the path with more captures (then promotions)
   is kept.
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
import importlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import chess

from astar.heuristic import Heuristic
from astar.last_move import ForcedLastMove, forced_last_moves
from astar.nonadmissible import NonAdmissibleHeuristic
from astar.initial_path import InitialPath, initial_path
from astar.proofgame import ProofGame, ProofGameError
from astar.search import search_descending
from proofkernel.blocked import blocked_squares
from proofkernel.extended import extend_kernel
from proofkernel.moves import parse_move

__all__ = ["ProofGameVerdict", "prove", "blocked_mask_for"]


@dataclass(frozen=True)
class ProofGameVerdict:
    """``status`` legal (with ``proof_game``), illegal (with ``reason``) or unknown."""

    fen: str
    status: str
    reason: str = ""
    proof_game: ProofGame | None = None
    kernel: str | None = None
    nodes: int = 0
    seconds: float = 0.0
    best_line: tuple[str, ...] = field(default=())

    @property
    def proof(self) -> list[str]:
        return self.proof_game.san() if self.proof_game else []


def _optional(module: str, name: str):
    try:
        return getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError):
        return None


def blocked_mask_for(goal: chess.Board, init: chess.Board) -> int:
    """Squares whose piece never moves in any game from ``init`` to ``goal``.

    Sources: :func:`proofkernel.blocked.blocked_squares` between ``init`` and the goal;
    plus the king and rook of every castling right the goal
    keeps (a right, once lost, never returns; FIDE 3.8.2.1).
    """
    mask = blocked_squares(goal, init)
    rights = goal.clean_castling_rights() & init.clean_castling_rights()
    for color, king_sq, rank in ((chess.WHITE, chess.E1, chess.BB_RANK_1), (chess.BLACK, chess.E8, chess.BB_RANK_8)):
        if rights & rank:
            mask |= chess.BB_SQUARES[king_sq] | (rights & rank)
    same = 0
    for sq in chess.scan_forward(mask):
        if goal.piece_at(sq) is not None and goal.piece_at(sq) == init.piece_at(sq):
            same |= chess.BB_SQUARES[sq]
    return same


def prove(
    board: chess.Board, *, max_nodes: int = 200_000, time_limit: float | None = 60.0, seed: int = 0,
    weight: tuple[int, int] = (1, 5), use_kernel: bool = True, init: chess.Board | None = None,
    non_admissible: bool = False, on_improve: Callable[[int, list[str]], None] | None = None,
) -> ProofGameVerdict:
    """Decide ``board``: legal with a replay-checked proof game, illegal, or unknown."""
    start = time.monotonic()
    fen = board.fen()
    kernel = None
    kernel_result = None
    if use_kernel:
        decide = _optional("retro.legality", "decide")
        if decide is not None:
            # at most half the time: the rest is for the proof-game search
            verdict = decide(board, max_nodes=max_nodes, time_limit=None if time_limit is None else time_limit / 2)
            if verdict.status == "illegal":
                return ProofGameVerdict(fen, "illegal", verdict.reason, nodes=verdict.nodes,
                                        seconds=time.monotonic() - start)
            kernel = getattr(verdict, "kernel", None)
            kernel = str(kernel) if kernel else None
            kernel_result = getattr(verdict, "kernel_result", None)
    check_static = _optional("retro.rules", "check_static")
    if check_static is not None:
        static = check_static(board)
        if static.status == "illegal":
            return ProofGameVerdict(fen, "illegal", static.reason or str(static.rule), kernel=kernel,
                                    seconds=time.monotonic() - start)
    init_board = init.copy(stack=False) if init is not None else chess.Board()
    # the pipeline's kernel runs from the start position, so it only guides a search from there
    kernel_result = kernel_result if init is None else None
    candidates = forced_last_moves(board)
    last, kernel_goal = (candidates[0] if candidates else None), board
    if candidates and kernel_result is not None:
        last, kernel_result, kernel_goal = _predecessor_with_kernel(candidates, board, kernel_result, start,
                                                                    time_limit, max_nodes)
    target = last.predecessor if last else board
    # the searches end at the target: its pieces that never move (dev #144: the g2 pawn
    # of the predecessor of g2-g3, which traps a bishop promoted on h1)
    blocked = blocked_mask_for(target, init_board)

    def heuristics(node: chess.Board) -> tuple[Heuristic, Heuristic]:
        mask = blocked_mask_for(target, node)
        pair = Heuristic(target, mask), NonAdmissibleHeuristic(target, mask)
        return pair[::-1] if non_admissible else pair

    def improve(h: int, moves: tuple[chess.Move, ...]) -> None:
        on_improve(h, ProofGame(init_board.fen(), prefix + moves).san())

    report = improve if on_improve is not None else None
    # with a kernel and a time limit, two attempts, each with half of the time: the
    # second plays another initial path (new seed), as the final search's fate turns
    # on the path's details (where its promoted pieces stand)
    attempts = 2 if kernel_result is not None and time_limit is not None else 1
    nodes = 0
    for attempt in range(attempts):
        began = time.monotonic()
        budget = None if time_limit is None else max(0.0, time_limit - (began - start))
        if budget is not None and attempt + 1 < attempts:
            budget /= attempts - attempt
        path = _initial_path(kernel_result, init_board, kernel_goal, target, blocked, began, budget, seed + attempt)
        begin = path.board if path is not None else init_board
        prefix = path.moves if path is not None else ()
        nodes += path.nodes if path is not None else 0
        left = None if budget is None else max(0.0, budget - (time.monotonic() - began))
        result = search_descending(begin, target, heuristics=heuristics, weight=weight,
                                   max_nodes=max(1, max_nodes - nodes), time_limit=left, seed=seed + 1000 * attempt,
                                   on_improve=report)
        nodes += result.nodes
        result = dataclasses.replace(result, moves=prefix + result.moves, best_moves=prefix + result.best_moves,
                                     nodes=nodes)
        if result.status == "unreachable" and prefix:
            # the initial path led into a dead end: search from the initial position instead
            prefix = ()
            left = None if budget is None else max(0.0, budget - (time.monotonic() - began))
            again = search_descending(init_board, target, heuristics=heuristics, weight=weight, time_limit=left,
                                      max_nodes=max(1, max_nodes - nodes), seed=seed + 1000 * attempt + 1,
                                      on_improve=report)
            nodes += again.nodes
            result = dataclasses.replace(again, nodes=nodes)
        if result.status == "found" or nodes >= max_nodes:
            break
    seconds = time.monotonic() - start
    if result.status == "found":
        moves = result.moves + ((last.move,) if last else ())
        game = ProofGame(init_board.fen(), moves)
        try:
            game.replay_check(board)
        except ProofGameError as error:
            return ProofGameVerdict(fen, "unknown", f"internal: proof game rejected ({error})", kernel=kernel,
                                    nodes=result.nodes, seconds=seconds)
        return ProofGameVerdict(fen, "legal", "", game, kernel, result.nodes, seconds)
    reason = "search space exhausted" if result.status == "unreachable" else "search budget exhausted"
    if path is not None:
        reason += (f"; initial path: {path.done} of {path.total} kernel captures, {path.promoted} promotions"
                   f" in {len(path.moves)} plies")
        if path.reason:
            reason += f" ({path.reason})"
    best = tuple(ProofGame(init_board.fen(), result.best_moves).san()) if result.best_moves else ()
    return ProofGameVerdict(fen, "unknown", reason, kernel=kernel, nodes=result.nodes, seconds=seconds, best_line=best)


def _predecessor_with_kernel(candidates: list[ForcedLastMove], goal: chess.Board, goal_kernel, start: float,
                             time_limit: float | None, max_nodes: int) -> tuple[ForcedLastMove, object, chess.Board]:
    """Among ``candidates`` (:func:`~astar.last_move.forced_last_moves` of ``goal``), the
    forced last move to search behind, the kernel of its predecessor and that
    predecessor (the board the kernel leads to). The predecessor's kernel, not the
    goal's: the goal's may count the last move itself. Among the candidates (dev #146:
    c3xd4 of five kinds of unit, or d3-d4), the first whose predecessor has a kernel
    (the kernel search proves the others illegal or does not decide them within a
    quarter of the time left, shared out); else the first candidate with the goal's
    kernel. Only completeness depends on this choice (see :mod:`astar.last_move`)."""
    find_kernel = _optional("retro.legality", "find_kernel")
    if find_kernel is not None:
        left = None if time_limit is None else max(0.0, time_limit - (time.monotonic() - start))
        share = None if left is None else left / 4 / len(candidates)
        for candidate in candidates:
            found = find_kernel(candidate.predecessor, max_nodes=max_nodes, time_limit=share,
                                solver_time=10.0 if share is None else share)
            if found.status == "found":
                return candidate, found, candidate.predecessor
    return candidates[0], goal_kernel, goal


#: Plans with random weights the initial path tries, after the late and the early one,
#: until one plays every capture and promotion.
SHUFFLED_PLANS = 4


def _initial_path(kernel_result, init: chess.Board, goal: chess.Board, target: chess.Board, blocked: int,
                  start: float, time_limit: float | None, seed: int) -> InitialPath | None:
    """The initial path of the kernel the pipeline found (None without one)."""
    if kernel_result is None or getattr(kernel_result, "status", None) != "found":
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
        path = initial_path(init, kernel, extended.moves, extended.pawn_plan, blocked, goal=target,
                            time_limit=left, seed=seed)
        if best is None or (path.done, path.promoted) > (best.done, best.promoted):
            best = path
        if not best.reason:  # every capture and promotion played
            break
    return best

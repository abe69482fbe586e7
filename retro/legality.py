"""The illegality pipeline: static rules, proof kernel, extended kernel, last moves.

``decide(board)`` answers ``illegal`` only with a proof, in this order (paper 002,
"Relaxation" to "Analyzing possible last moves"):

1. the static rules of :mod:`retro.core.rules` (reason = the rule), then tempo parity
   (:func:`tempo_parity`: with all 32 units on the board and only knights free to move,
   the knights' square colours fix each side's move parity, which the side to move can
   contradict);
2. the proof-kernel search from the start position (:mod:`proofkernel.search`), each
   kernel checked by its extended-kernel model (:mod:`proofkernel.extended`):
   ``no proof kernel`` when the whole kernel space was searched without reaching the
   goal, ``no extended proof kernel`` when kernels exist but every model is
   INFEASIBLE. A budget that runs out, or a model the solver could not decide, proves
   nothing;
3. last-move analysis: the predecessors given by the reverse move generator
   (:mod:`retro.core.revmoves`) are analysed recursively, exactly in the cases the paper
   allows, which keep the recursion finite: predecessors by a capture (a game has
   finitely many captures); all predecessors when the side to move is in check (the
   sides cannot check each other for ever); and the only remaining candidate when all
   others were refuted. The position is ``illegal`` (``no possible last move``) when
   every candidate predecessor is proven illegal. This is sound because a legal
   position other than the start position has a legal predecessor, and the generator
   lists every possible one. The recursion depth is bounded (``max_depth``).

Otherwise ``unknown``, carrying the kernel and extended kernel found (the proof-game
search starts from them).

Choices the paper leaves open, made here: before the kernel search, the cheap half of
the last-move analysis runs (:func:`_refuted_by_static_retraction`: every predecessor,
up to the same depth, refuted by the static rules alone), since it costs milliseconds
where a kernel search can cost seconds; then the kernel search (it is what the
proof-game search needs anyway), then the recursion of step 3; a predecessor that is
the start position itself is legal; recursion depth 3 by default.
"""

from __future__ import annotations

import time
from collections.abc import Hashable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING

import chess

from proofkernel.blocked import blocked_squares
from retro.core.position import position_key
from retro.core.revmoves import predecessor, retractions
from retro.core.rules import check_static
from retro.core.status import CheckStatus, LegalityStatus

if TYPE_CHECKING:
    from proofkernel.extended import ExtendedKernel
    from proofkernel.moves import KernelMove

__all__ = [
    "LegalityVerdict",
    "KernelMemo",
    "KernelResult",
    "KernelSearchStatus",
    "decide",
    "find_kernel",
    "memo_key",
    "tempo_parity",
]

_START = chess.Board()

#: predecessors the static last-move analysis examines per position before giving up
STATIC_RETRACTION_POSITIONS = 2_000


class KernelSearchStatus(StrEnum):
    """Outcome of :func:`find_kernel`: a kernel with a feasible (or undecided) extended
    kernel, no kernel at all, kernels whose extended kernels are all infeasible, or the
    budget ran out first."""

    FOUND = "found"
    NO_KERNEL = "no_kernel"
    NO_EXTENDED_KERNEL = "no_extended_kernel"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class KernelResult:
    """``status`` :attr:`~KernelSearchStatus.FOUND` comes with ``kernel`` (texel's notation)
    and ``extended``; ``nodes`` and ``models`` count the search nodes and the extended-kernel
    models solved."""

    status: KernelSearchStatus
    kernel: tuple[str, ...] = ()
    extended: ExtendedKernel | None = None
    nodes: int = 0
    models: int = 0


@dataclass(frozen=True)
class LegalityVerdict:
    """``illegal`` with ``reason``, or ``unknown`` with the kernel evidence found."""

    fen: str
    status: LegalityStatus
    reason: str = ""
    kernel: str | None = None
    extended_kernel: str | None = None
    nodes: int = 0
    seconds: float = 0.0
    #: the kernel search result behind ``kernel`` (the proof-game search starts from it)
    kernel_result: KernelResult | None = field(default=None, repr=False, compare=False)

    def as_dict(self) -> dict[str, str | int | float | None]:
        return {
            "fen": self.fen,
            "status": self.status,
            "reason": self.reason,
            "kernel": self.kernel,
            "extended_kernel": self.extended_kernel,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
        }


def find_kernel(
    goal: chess.Board,
    *,
    init: chess.Board | None = None,
    max_nodes: int = 200_000,
    time_limit: float | None = None,
    model_time_limit: float = 10.0,
) -> KernelResult:
    """Search a kernel from ``init`` (default the start position) to ``goal`` whose
    extended-kernel model is not infeasible; ``model_time_limit`` bounds the CP-SAT solve of
    each model (an undecided model counts as not infeasible). Every solve also ends by the
    search's own ``time_limit``, so the whole call ends by it (plus one node or one model
    build)."""
    deadline = None if time_limit is None else time.monotonic() + time_limit
    # here: OR-Tools (the extended kernel) is imported only when a kernel search runs; the
    # import (a second or more on a loaded machine) counts against the time limit
    from proofkernel.extended import extend_kernel
    from proofkernel.search import KernelSearch

    init = _START if init is None else init
    blocked = blocked_squares(goal, init)
    left = None if deadline is None else max(0.0, deadline - time.monotonic())
    search = KernelSearch.between(init, goal, blocked, max_nodes=max_nodes, time_limit=left)
    models: list[ExtendedKernel] = []

    def accept(kernel: tuple[KernelMove, ...]) -> bool:
        limit = model_time_limit if deadline is None else max(0.0, min(model_time_limit, deadline - time.monotonic()))
        extended = extend_kernel(kernel, init, goal, blocked, time_limit=limit)
        models.append(extended)
        return extended.status != "infeasible"

    kernel = next(search.kernels(accept), None)
    if kernel is not None:
        return KernelResult(
            KernelSearchStatus.FOUND, tuple(str(m) for m in kernel), models[-1], search.nodes, len(models)
        )
    if not search.exhausted:
        return KernelResult(KernelSearchStatus.UNKNOWN, nodes=search.nodes, models=len(models))
    status = KernelSearchStatus.NO_EXTENDED_KERNEL if models else KernelSearchStatus.NO_KERNEL
    return KernelResult(status, nodes=search.nodes, models=len(models))


#: The kernel searches a pipeline ran, by position (:func:`memo_key`): the result and the
#: time limit it had (None: none). A caller that needs the kernel of one of these
#: positions again (``retro.proofgame``: the predecessor behind a forced last move) reads it
#: here instead of searching again.
KernelMemo = dict[Hashable, tuple[KernelResult, float | None]]


def memo_key(board: chess.Board) -> Hashable:
    """The key of ``board`` in a :data:`KernelMemo`: the position's identity
    (:func:`retro.core.position.position_key`)."""
    return position_key(board)


class _Budget:
    def __init__(self, max_nodes: int, time_limit: float | None) -> None:
        self.max_nodes = max_nodes
        self.deadline = None if time_limit is None else time.monotonic() + time_limit
        self.nodes = 0

    def left(self) -> float | None:
        return None if self.deadline is None else max(0.0, self.deadline - time.monotonic())

    def out(self) -> bool:
        return self.nodes >= self.max_nodes or (self.deadline is not None and time.monotonic() >= self.deadline)


def _same_as_start(board: chess.Board) -> bool:
    return (
        board.board_fen() == _START.board_fen()
        and board.turn == chess.WHITE
        and board.clean_castling_rights() == _START.castling_rights
    )


def tempo_parity(board: chess.Board) -> str | None:
    """The tempo-parity rule of :mod:`retro.spg.parity`, for games of any length from the
    start position: the reason ``board`` is reachable by no game, or None.

    Rule. When every unit of both colours is still on the board (32 units) and each
    colour's units off the frozen squares (:func:`retro.spg.frozen.frozen_mask`) are
    knights, in ``board`` as at the start, each colour's number of moves in every game
    reaching ``board`` has a fixed parity p(C) (:func:`retro.spg.parity.knight_parity`).

    Proof that no game of any length exists when the parities disagree with the side to
    move. A game from the start position (White to move) in which White made w moves and
    Black b moves ends with White to move exactly when w = b, and with Black to move
    exactly when w = b + 1 (the sides alternate, White first). So with White to move
    p(White) = p(Black), and with Black to move p(White) != p(Black). The parities are
    fixed by the squares alone, whatever the number of moves, so a position violating
    this is reached by no game, of any length. Example: the start position with Black
    to move and all castling rights (the rights freeze kings and rooks, which box in
    queens and bishops: only knights move, and their parities are both even)."""
    if chess.popcount(board.occupied) != 32:  # a capture happened: the rule does not apply
        return None
    from retro.spg.frozen import frozen_mask  # here: only 32-unit positions pay for the import
    from retro.spg.parity import knight_parity

    frozen = frozen_mask(_START, board)
    white, black = (knight_parity(_START, board, frozen, color) for color in chess.COLORS)
    if white is None or black is None or (white == black) == (board.turn == chess.WHITE):
        return None
    return (
        f"tempo parity: only knights can move, White's moves are {'odd' if white else 'even'} and Black's "
        f"{'odd' if black else 'even'} in number, which no game ending with "
        f"{chess.COLOR_NAMES[board.turn]} to move allows"
    )


def _static_reason(board: chess.Board) -> str | None:
    """The reason of the first rule, static (:func:`retro.core.rules.check_static`) or tempo
    parity (:func:`tempo_parity`), proving ``board`` illegal, or None."""
    static = check_static(board)
    if static.status == CheckStatus.ILLEGAL:
        return static.reason or str(static.rule)
    return tempo_parity(board)


def _refuted_by_static_retraction(
    board: chess.Board, depth: int, max_positions: int = STATIC_RETRACTION_POSITIONS, deadline: float | None = None
) -> bool:
    """Whether every predecessor of ``board``, up to ``depth`` retractions back, is refuted
    by the static rules alone (texel's recursive last-move analysis, cheap half).

    Rule: a legal position other than the start position has a legal predecessor, and
    :func:`retro.core.revmoves.retractions` lists every possible one. So if each listed
    predecessor is illegal (the static rules say so, or recursively each of *its*
    predecessors is), ``board`` is illegal. Unlike the kernel recursion of
    :func:`_refute`, every candidate may be followed here, not only captures, checks and
    the last open one: a static check costs about a millisecond, and finiteness comes from
    ``depth`` and from ``max_positions``, the number of predecessors examined, past which
    the answer is False (nothing proved), as it is once the clock passes ``deadline``
    (a ``time.monotonic()`` value). The walk stops at the first predecessor that
    survives, so on a position with an ordinary last move it costs one predecessor per
    level. Only ``True`` is a verdict; the start position is never refuted.
    """
    examined = 0

    def refuted(position: chess.Board, levels: int) -> bool:
        nonlocal examined
        for retraction in retractions(position):
            examined += 1
            if examined > max_positions or (deadline is not None and time.monotonic() >= deadline):
                return False
            before = predecessor(position, retraction)
            if _same_as_start(before):
                return False
            if _static_reason(before) is not None:
                continue
            if levels <= 1 or not refuted(before, levels - 1):
                return False
        return True

    return refuted(board, depth)


def _refute(
    board: chess.Board, budget: _Budget, depth: int, kernels: KernelMemo | None = None
) -> tuple[str | None, KernelResult | None]:
    """A proven reason why ``board`` is illegal, or None; plus the kernel result. Every
    kernel search run is recorded in ``kernels``."""
    if _same_as_start(board):
        return None, None
    reason = _static_reason(board)
    if reason is not None:
        return reason, None
    if depth > 0 and _refuted_by_static_retraction(board, depth, deadline=budget.deadline):
        return "no possible last move", None
    time_limit = budget.left()
    result = find_kernel(board, max_nodes=max(1, budget.max_nodes - budget.nodes), time_limit=time_limit)
    budget.nodes += result.nodes
    if kernels is not None:
        kernels[memo_key(board)] = (result, time_limit)
    if result.status == KernelSearchStatus.NO_KERNEL:
        return "no proof kernel", result
    if result.status == KernelSearchStatus.NO_EXTENDED_KERNEL:
        return "no extended proof kernel", result
    if depth == 0 or budget.out():
        return None, result
    candidates = retractions(board)
    if not candidates:
        return "no possible last move", result
    in_check = board.is_check()
    open_candidates = []
    for retraction in candidates:
        if budget.out():
            return None, result
        if in_check or retraction.is_capture:
            reason, _ = _refute(predecessor(board, retraction), budget, depth - 1, kernels)
            if reason is None:
                return None, result
        else:
            open_candidates.append(retraction)
            if len(open_candidates) > 1:
                return None, result
    for retraction in open_candidates:
        reason, _ = _refute(predecessor(board, retraction), budget, depth - 1, kernels)
        if reason is None:
            return None, result
    return "no possible last move", result


def decide(
    board: chess.Board,
    *,
    max_nodes: int = 200_000,
    time_limit: float | None = 30.0,
    max_depth: int = 3,
    kernels: KernelMemo | None = None,
) -> LegalityVerdict:
    """Run the pipeline on ``board`` (see the module docstring); every kernel search it
    runs (the goal's, its predecessors') is recorded in ``kernels``."""
    start = time.monotonic()
    budget = _Budget(max_nodes, time_limit)
    reason, result = _refute(board, budget, max_depth, kernels)
    seconds = time.monotonic() - start
    if reason is not None:
        return LegalityVerdict(board.fen(), LegalityStatus.ILLEGAL, reason, nodes=budget.nodes, seconds=seconds)
    if result is None or result.status != KernelSearchStatus.FOUND:
        return LegalityVerdict(board.fen(), LegalityStatus.UNKNOWN, "", nodes=budget.nodes, seconds=seconds)
    return LegalityVerdict(
        board.fen(),
        LegalityStatus.UNKNOWN,
        "",
        " ".join(result.kernel),
        str(result.extended),
        budget.nodes,
        seconds,
        result,
    )

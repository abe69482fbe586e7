"""Orchestrator of ``retro proofgame``: legality verdict with a replay-checked proof game.

Pipeline (texel documentation, "If a position cannot be proven illegal ..."):

1. Illegality: :func:`retro.legality.decide` (static rules, kernel search, extended
   kernel, last-move analysis); without the kernel (``use_kernel=False``) the static
   rules :func:`retro.core.rules.check_static` alone. Either runs once per position. An
   ``illegal`` from them is returned as is (their soundness is theirs).
2. A forced last move (:mod:`astar.last_move`) replaces the goal by its predecessor,
   the first candidate whose predecessor has a proof kernel, and that kernel replaces
   the goal's (which may count the last move itself). When no predecessor's kernel is
   found, the goal stays the target, with its own kernel (whose initial paths could
   never reach a predecessor).
3. The initial paths (:mod:`astar.initial_path`): when the pipeline found a kernel, its
   extended kernel is solved with pawns advancing as late as possible, and its
   captures, then the quiet promotions the goal (or the forced last move's
   predecessor) needs, are played as real moves from the initial position (the start
   position unless ``init`` is given). When that path stops early, the extended kernel
   with the pawns as early as the solver likes is tried too, then the late plan again
   with its promoted pieces left where they promote (the other paths walk each one to a
   goal square of its kind at once; placed near a king's goal square, they can wall
   that king off before it has come, e.g. White's queens round e1 with Black's king
   still on g7), then up to :data:`SHUFFLED_PLANS` whose objective weights the pawns
   at random (seeded: some pawns go early, e.g. one that must move out of the way the
   late and early plans keep home), until a path plays every capture and promotion (the path with more
   captures, then promotions, is kept); at most half of the time. Later plans (up to
   :data:`MAX_SHUFFLED_PLANS` random ones) are played when the schedule below explores;
   one that stops short is passed over while a complete path exists, and the next plan
   is tried for the same slice (up to :data:`PLANS_PER_SLICE` plans).
4. Weighted A* in committed legs (:class:`astar.search.Descent`) toward the goal (or the
   forced last move's predecessor), on a restart portfolio (:mod:`astar.portfolio`):
   slices of Luby's sequence times :data:`SLICE_NODES` nodes. A one-unit slice explores
   a new start: the next plan's initial path; once the plans are exhausted or a start
   proved a dead end, the initial position; else the best start again with a new
   seed. A longer slice goes to the start whose best line came closest to the goal
   (among equals, the one that had fewer slices): its search goes on when its last
   slice improved that line, else a new search starts from a random committed prefix
   of it. An arm's searches (their seeds, the prefixes) depend on its own slices, not
   on the slot it gets. Whether the final search succeeds turns on the path's details
   (where its promoted pieces stand) and on where the legs commit, which no rule
   predicts: hence several seeds and plans in one run.
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
from typing import TYPE_CHECKING, Any

import chess

from astar.last_move import ForcedLastMove, forced_last_moves
from astar.proofgame import ProofGame, ProofGameError
from proofkernel.blocked import blocked_squares
from proofkernel.moves import parse_move
from retro.core.position import Position, stated_fields_objection
from retro.core.rules import check_static
from retro.core.status import CheckStatus, LegalityStatus
from retro.legality import (
    KernelMemo,
    KernelResult,
    KernelSearchStatus,
    LegalityVerdict,
    decide,
    find_kernel,
    memo_key,
    tempo_parity,
)

if TYPE_CHECKING:
    from astar.heuristic import Heuristic
    from astar.initial_path import InitialPath
    from astar.portfolio import Arm, Portfolio
    from astar.search import Descent, SearchResult

# The search's modules (SciPy, OR-Tools: most of the start-up time) are imported inside the
# functions that search, so that a position the static rules or the last-move walk decide
# never loads them.

__all__ = ["ProofGameVerdict", "prove", "stated_fields_verdict"]


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
    #: which start and slice of the restart portfolio found the proof game (not in the JSON record)
    found_by: str = field(default="", compare=False)

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


def stated_fields_verdict(position: Position) -> ProofGameVerdict | None:
    """``illegal`` when the FEN's castling right or en-passant square cannot be true of the
    board (:func:`retro.core.position.stated_fields_objection`, the rules ``castling-rights``
    and ``en-passant`` of ``retro check``), else None. A ``chess.Board`` cannot carry such a
    field (python-chess drops it), so the doors that read a FEN ask this first: the FEN's
    fields are the user's statement, judged, never dropped."""
    reason = stated_fields_objection(position)
    return None if reason is None else ProofGameVerdict(position.fen, LegalityStatus.ILLEGAL, reason)


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
    """Decide ``board``: legal with a replay-checked proof game, illegal, or unknown.

    Time contract: with ``time_limit`` T, the verdict is returned at most about 0.5 s
    after T past the call on an idle core. Every phase reads the same deadline: the
    static last-move walk, the kernel searches (each extended-kernel CP-SAT solve gets
    the time left at most), the initial paths (their CP-SAT plans likewise, their
    searches checking the clock every 8 nodes), and the A* legs (every 8 nodes); what
    remains is a few nodes, one model build or one heuristic set-up, and the replay of
    the proof game. On a loaded machine these take longer in wall time, in proportion."""
    start = time.monotonic()
    fen = board.fen()
    kernels: KernelMemo = {}  # the pipeline's kernel searches, for the forced last move's predecessor
    pipeline = _illegality(
        board, use_kernel=use_kernel, max_nodes=max_nodes, time_limit=time_limit, kernels=kernels, init=init
    )
    if pipeline.status == LegalityStatus.ILLEGAL:
        return ProofGameVerdict(
            fen, LegalityStatus.ILLEGAL, pipeline.reason, nodes=pipeline.nodes, seconds=time.monotonic() - start
        )
    kernel = pipeline.kernel or None
    init_board = init.copy(stack=False) if init is not None else chess.Board()
    # the pipeline's kernel runs from the start position, so it only guides a search from there
    aim = _aim(
        board,
        pipeline.kernel_result if init is None else None,
        start=start,
        time_limit=time_limit,
        max_nodes=max_nodes,
        kernels=kernels,
    )
    from astar.search import SearchStatus  # (loaded by now: the search ran)

    legs = _Legs(init_board, aim.target, weight, non_admissible, on_improve)
    result, path, found_by = _attempts(legs, aim, max_nodes=max_nodes, time_limit=time_limit, start=start, seed=seed)
    seconds = time.monotonic() - start
    if result.status == SearchStatus.FOUND:
        moves = result.moves + ((aim.last.move,) if aim.last else ())
        return dataclasses.replace(
            _replayed(board, init_board, moves, kernel, result.nodes, seconds), found_by=found_by
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


def _illegality(
    board: chess.Board,
    *,
    use_kernel: bool,
    max_nodes: int,
    time_limit: float | None,
    kernels: KernelMemo,
    init: chess.Board | None = None,
) -> LegalityVerdict:
    """The illegality pipeline's verdict (its kernel searches recorded in ``kernels``), or
    without ``use_kernel`` the static rules' and tempo parity's alone (the latter only
    from the start position, ``init`` None)."""
    if use_kernel:
        # at most half the time: the rest is for the proof-game search
        half = None if time_limit is None else time_limit / 2
        return decide(board, max_nodes=max_nodes, time_limit=half, kernels=kernels)
    static = check_static(board)
    if static.status == CheckStatus.ILLEGAL:
        return LegalityVerdict(static.fen, LegalityStatus.ILLEGAL, static.reason or str(static.rule))
    parity = tempo_parity(board) if init is None else None  # (the rule counts moves from the start position)
    if parity is not None:
        return LegalityVerdict(static.fen, LegalityStatus.ILLEGAL, parity)
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
    goal: chess.Board,
    kernel: KernelResult | None,
    *,
    start: float,
    time_limit: float | None,
    max_nodes: int,
    kernels: KernelMemo,
) -> _Aim:
    """The forced last move of ``goal`` to search behind, if any (step 2 of the module docstring)."""
    candidates = forced_last_moves(goal)
    if candidates and kernel is not None:
        return _predecessor_with_kernel(candidates, goal, kernel, start, time_limit, max_nodes, kernels)
    return _Aim(candidates[0] if candidates else None, kernel, goal)


#: Blocked masks whose heuristics (and their caches) :class:`_Legs` keeps at a time.
_KEPT_HEURISTICS = 8


@dataclass(frozen=True)
class _Legs:
    """The weighted A* searches toward ``target`` in committed legs; improved lines are
    reported to ``on_improve`` as SAN from ``init``."""

    init: chess.Board
    target: chess.Board
    weight: tuple[int, int]
    non_admissible: bool
    on_improve: Callable[[int, list[str]], None] | None
    #: per blocked mask, the heuristics of the legs so far (whose caches the next leg with that mask reuses)
    made: dict[int, tuple[Heuristic, Heuristic]] = field(default_factory=dict, compare=False, repr=False)

    def heuristics(self, node: chess.Board) -> tuple[Heuristic, Heuristic]:
        """The admissible and the non-admissible heuristic (in that order unless
        ``non_admissible``) for a leg starting at ``node``: those of the target and the
        squares blocked between ``node`` and it, renewed (``Heuristic.renewed``: the
        values of new ones, with the caches of the earlier legs)."""
        from astar.heuristic import Heuristic
        from astar.nonadmissible import NonAdmissibleHeuristic

        mask = blocked_squares(self.target, node)
        pair = self.made.get(mask)
        if pair is None:
            if len(self.made) >= _KEPT_HEURISTICS:
                self.made.clear()
            pair = self.made[mask] = (Heuristic(self.target, mask), NonAdmissibleHeuristic(self.target, mask))
            pair[1].share_caches(pair[0])
        admissible, guide = pair[0].renewed(), pair[1].renewed()
        return (guide, admissible) if self.non_admissible else (admissible, guide)

    def start(self, begin: chess.Board, prefix: tuple[chess.Move, ...], *, seed: int) -> _Search:
        """A committed-leg search from ``begin``, reached from ``init`` by ``prefix``."""
        from astar.search import Descent

        return _Search(prefix, Descent(begin, self.target, heuristics=self.heuristics, weight=self.weight, seed=seed))

    def run(self, search: _Search, *, max_nodes: int, time_limit: float | None) -> SearchResult:
        """Go on with ``search``; the result's lines start at ``init``."""
        from astar.search import SearchStatus

        report = None
        if self.on_improve is not None:
            on_improve, init_fen = self.on_improve, self.init.fen()

            def report(h: int, moves: tuple[chess.Move, ...]) -> None:
                on_improve(h, ProofGame(init_fen, search.prefix + moves).san())

        result = search.descent.run(max_nodes=max_nodes, time_limit=time_limit, on_improve=report)
        return dataclasses.replace(
            result,
            # (the start may be the target)
            moves=search.prefix + result.moves if result.status == SearchStatus.FOUND else (),
            best_moves=search.prefix + result.best_moves if result.best_moves else (),
        )


@dataclass(frozen=True)
class _Search:
    """A committed-leg search from the position ``prefix`` reaches."""

    prefix: tuple[chess.Move, ...]
    descent: Descent


def _attempts(
    legs: _Legs, aim: _Aim, *, max_nodes: int, time_limit: float | None, start: float, seed: int
) -> tuple[SearchResult, InitialPath | None, str]:
    """Steps 3 and 4 of the module docstring, on the restart schedule of
    :mod:`astar.portfolio`: the search result (its ``nodes`` count every initial path and
    every slice), the initial path of the arm that found it or came closest to the
    target, and which start and slice found it."""
    from astar.portfolio import Portfolio
    from astar.search import SearchResult, SearchStatus

    deadline = None if time_limit is None else start + time_limit
    plans = _Plans(aim.kernel, legs.init, aim.kernel_goal, legs.target, seed)
    portfolio: Portfolio[InitialPath | None] = Portfolio(seed)
    searched = 0
    while plans.nodes + searched < max_nodes and (deadline is None or time.monotonic() < deadline):
        units, explore = portfolio.next_slice()
        line: tuple[chess.Move, ...] | None
        if explore:
            arm = _explore(portfolio, plans, deadline, max_nodes - plans.nodes - searched)
            if arm is None:  # every start is a dead end
                break
            line = arm.prefix
        else:
            arm, line = portfolio.pick()
        if line is not None:  # a new search (a new seed) from ``line``, else the arm's own goes on
            begin = legs.init.copy(stack=False)
            for move in line:
                begin.push(move)
            arm.search = legs.start(begin, line, seed=portfolio.search_seed(arm))
        left = None if deadline is None else max(0.0, deadline - time.monotonic())
        budget = max(1, min(units * SLICE_NODES, max_nodes - plans.nodes - searched))
        result = legs.run(arm.search, max_nodes=budget, time_limit=left)
        searched += max(1, result.nodes)
        if result.status == SearchStatus.FOUND:
            how = "resumed" if line is None else "new search" if line == arm.prefix else f"restart at ply {len(line)}"
            found_by = f"{arm.label or 'start'}, slice {portfolio.slices} of {units} unit(s), {how}"
            return dataclasses.replace(result, nodes=plans.nodes + searched), arm.origin, found_by
        dead = result.status == SearchStatus.UNREACHABLE and arm.search.prefix == arm.prefix
        portfolio.report(arm, result.best_h, result.best_moves, dead=dead)
        if dead and not arm.prefix:  # unreachable from the initial position: from every start
            return (
                SearchResult(SearchStatus.UNREACHABLE, (), plans.nodes + searched, time.monotonic() - start),
                plans.best,
                "",
            )
    best = portfolio.best()
    seconds = time.monotonic() - start
    if best is None:
        return SearchResult(SearchStatus.BUDGET, (), plans.nodes + searched, seconds), plans.best, ""
    return (
        SearchResult(SearchStatus.BUDGET, (), plans.nodes + searched, seconds, best.best_moves, best.best_h),
        best.origin or plans.best,
        "",
    )


def _explore(
    portfolio: Portfolio[InitialPath | None], plans: _Plans, deadline: float | None, nodes_left: int | None = None
) -> Arm[InitialPath | None] | None:
    """The arm of an exploring slice: the next pawn plan's initial path (one that stops
    short only while no live arm has a complete one; else up to :data:`PLANS_PER_SLICE`
    plans are tried); the initial position, once, when the plans are exhausted or an arm
    proved a dead end (where texel and the previous searches restarted); else the best
    arm again, from its start with a new seed. None when no start is left. The initial
    paths spend at most ``nodes_left`` search nodes in all (the run's node budget)."""
    from astar.portfolio import Arm

    path, tries, began = None, 0, plans.nodes
    while path is None and not plans.exhausted and (deadline is None or time.monotonic() < deadline):
        complete = any(arm.origin is not None and not arm.origin.reason for arm in portfolio.live())
        left = None if nodes_left is None else nodes_left - (plans.nodes - began)
        if left is not None and left <= 0:
            break
        path = plans.next_path(deadline, have_complete=complete, max_nodes=left)
        tries += 1
        if portfolio.live() and tries >= PLANS_PER_SLICE:
            break  # while an arm can take the slice instead
    if path is not None:
        return portfolio.add(Arm(path, path.moves, plans.label))
    dead_end = len(portfolio.live()) < len(portfolio.arms)
    if (plans.exhausted or dead_end) and all(arm.prefix for arm in portfolio.arms):
        return portfolio.add(Arm(None, (), "initial position"))
    return portfolio.best()


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
    from astar.search import SearchStatus

    reason = "search space exhausted" if result.status == SearchStatus.UNREACHABLE else "search budget exhausted"
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
    kernels: KernelMemo,
) -> _Aim:
    """Among ``candidates`` (:func:`~astar.last_move.forced_last_moves` of ``goal``), the
    forced last move to search behind, the kernel of its predecessor and that
    predecessor (the board the kernel leads to). The predecessor's kernel, not the
    goal's: the goal's may count the last move itself. The first candidate whose
    predecessor has a kernel (the kernel search proves the others illegal or does not
    decide them within a quarter of the time left, shared out; a search the illegality
    pipeline ran already, recorded in ``kernels``, is not run again unless this one gets
    more time). Else no forced last move: the goal itself with its own kernel, since
    that kernel's initial paths reach the goal's material and pawns, which a
    predecessor differing by a capture or a pawn step can never be reached from. Only
    completeness depends on this choice (see :mod:`astar.last_move`)."""
    left = None if time_limit is None else max(0.0, time_limit - (time.monotonic() - start))
    share = None if left is None else left / 4 / len(candidates)
    for candidate in candidates:
        known = kernels.get(memo_key(candidate.predecessor))
        if known is not None and _settled(known, share):
            found = known[0]
        else:
            found = find_kernel(
                candidate.predecessor,
                max_nodes=max_nodes,
                time_limit=share,
                model_time_limit=10.0 if share is None else share,
            )
        if found.status == KernelSearchStatus.FOUND:
            return _Aim(candidate, found, candidate.predecessor)
    return _Aim(None, goal_kernel, goal)


def _settled(known: tuple[KernelResult, float | None], time_limit: float | None) -> bool:
    """Whether a recorded kernel search ``known`` (result, its time limit) answers a new
    one with ``time_limit``: it ended by itself, or had at least as much time."""
    result, had = known
    if result.status != KernelSearchStatus.UNKNOWN:
        return True
    return had is None or (time_limit is not None and had >= time_limit)


#: Nodes of a one-unit slice of the restart schedule (:mod:`astar.portfolio`): one
#: committed leg's worth (:func:`astar.search.search_descending`'s ``leg_nodes``).
SLICE_NODES = 5_000

#: Seconds of CP-SAT per pawn plan of an initial path (less when the run's time ends sooner).
MODEL_TIME_LIMIT = 10.0

#: Plans with random weights the first initial path tries, after the late and the early
#: one, until one plays every capture and promotion.
SHUFFLED_PLANS = 4

#: Plans with random weights tried in all (the later ones for the exploring slices).
MAX_SHUFFLED_PLANS = 32

#: Plans played at most for one exploring slice while an arm could take it instead: a
#: plan whose path stops short is passed over, and the next one tried, so that a plan
#: with a complete path comes on an earlier slice.
PLANS_PER_SLICE = 2


class _Plans:
    """The initial paths from ``init`` of ``kernel`` (none unless found) to ``goal``,
    with the quiet promotions of ``target``, one per distinct pawn plan: pawns as late
    as possible, as early as the solver likes, as late again with the promoted pieces
    left where they promote, then with random weights (seeds ``seed + 7919 k``)."""

    def __init__(
        self, kernel: KernelResult | None, init: chess.Board, goal: chess.Board, target: chess.Board, seed: int
    ) -> None:
        self.init, self.goal, self.target, self.seed = init, goal, target, seed
        found = kernel is not None and kernel.status == KernelSearchStatus.FOUND
        self.kernel = tuple(parse_move(text) for text in kernel.kernel) if found and kernel is not None else None
        # the searches end at the target: its pieces that never move; the kernel's goal may differ
        self.blocked = blocked_squares(target, init)
        self.kernel_blocked = blocked_squares(goal, init)
        # (label, pawns late, shuffle seed, promoted pieces walked to goal squares)
        self.queue: list[tuple[str, bool, int | None, bool]] = [
            ("late plan", True, None, True),
            ("early plan", False, None, True),
            ("late plan, promoted pieces unplaced", True, None, False),
        ]
        self.queue += [(f"random plan {k}", True, seed + 7919 * k, True) for k in range(MAX_SHUFFLED_PLANS)]
        self.played: set = set()  # plans already played: the same plan gives the same path
        self.best: InitialPath | None = None  # the path with most captures (then promotions)
        self.label = ""  # the plan of the path last returned
        self.nodes = 0

    def next_path(
        self, deadline: float | None, *, have_complete: bool, max_nodes: int | None = None
    ) -> InitialPath | None:
        """A new initial path, or None when no plan is left. The first call plays the
        late plan and, while the path stops short, the early one, the unplaced one and
        up to :data:`SHUFFLED_PLANS` random ones (half of the time left), returning the best
        path. A later call plays the next plan (a quarter of the time left, and the nodes
        of a one-unit slice: a plan that gets stuck must not eat the run); with
        ``have_complete``, a path that stops short is passed over. The plans of one call
        spend at most ``max_nodes`` search nodes in all."""
        from astar.initial_path import initial_path
        from proofkernel.extended import extend_kernel

        if self.kernel is None:
            return None
        first = self.best is None
        budget = None if deadline is None else (deadline - time.monotonic()) / (2 if first else 4)
        began = time.monotonic()
        tries = 3 + SHUFFLED_PLANS if first else 1
        path, label, best_label = None, "", ""
        spent = self.nodes
        while self.queue and tries > 0 and (deadline is None or time.monotonic() < deadline):
            cap = None if first else SLICE_NODES
            if max_nodes is not None:
                nodes_left = max_nodes - (self.nodes - spent)
                if nodes_left <= 0:
                    break
                cap = nodes_left if cap is None else min(cap, nodes_left)
            label, late, shuffle, place = self.queue.pop(0)
            solve = MODEL_TIME_LIMIT if deadline is None else min(MODEL_TIME_LIMIT, deadline - time.monotonic())
            extended = extend_kernel(
                self.kernel,
                self.init,
                self.goal,
                self.kernel_blocked,
                late_pawns=late,
                shuffle=shuffle,
                time_limit=max(0.0, solve),
            )
            if extended.status != "found" or (extended.moves, extended.pawn_plan, place) in self.played:
                continue
            tries -= 1
            self.played.add((extended.moves, extended.pawn_plan, place))
            left = None if budget is None else max(0.0, (budget - (time.monotonic() - began)) / 2)
            path = initial_path(
                self.init,
                self.kernel,
                extended.moves,
                extended.pawn_plan,
                self.blocked,
                goal=self.target,
                place=place,
                max_nodes=cap,
                time_limit=left,
                seed=self.seed,
            )
            self.nodes += path.nodes
            if self.best is None or (path.done, path.promoted) > (self.best.done, self.best.promoted):
                self.best, best_label = path, label
            if not path.reason:  # every capture and promotion played
                break
        if first:
            self.label = best_label if self.best is not None else ""
            return self.best
        self.label = label
        return path if path is not None and (not path.reason or not have_complete) else None

    @property
    def exhausted(self) -> bool:
        return self.kernel is None or not self.queue

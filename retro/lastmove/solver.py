"""The last-move solver: which retraction sequences of length N can have led to P?

Given a board and the side that made the last move (see :mod:`retro.lastmove.problem`
for how a problem is read), :func:`solve` enumerates the sequences of N alternating retractions from
the reverse move generator (:func:`retro.core.revmoves.retractions`) and keeps a sequence
when every position on it survives these filters, each of which is **sound** (it only
rejects a position that cannot occur in any game):

1. **Static rules** (:func:`retro.core.rules.check_static`): proven rules, see there; and
   **frozen units** (:mod:`retro.lastmove.frozen`: units that never moved, also while one
   square shields a king from a slider, Hwa's Figure 5).
2. **Known cages** (:class:`cages.library.Library`): a position that contains a cage
   verified by :mod:`cages` is illegal (Hwa 2022, definition of a cage). **Automatic
   cages** (:mod:`cages.propose`): when more than one candidate is left, the clusters
   (and the groups of clusters joined through a king, :func:`cages.propose.linked_groups`)
   of each candidate's earliest position, first those around the squares occupied in the
   diagram where it differs from it (:func:`cages.propose.focused_proposals`: where the
   captured unit stands, which tells KxN from KxB), and of the positions up to two retractions
   before it (:meth:`cages.propose.CageFinder.find`: rejected when every predecessor
   holds a cage or breaks a static rule), are proposed as cages and verified; a
   verified one rejects the candidate and joins the library (and its file). A quick pass
   first offers every candidate's own proposals with a small state budget each
   (:func:`_quick_cages`), so that the cheap cages are not left waiting behind the
   failing proposals of other candidates.
3. **The legality pipeline** within a budget (:func:`retro.legality.decide`): only
   an ``illegal`` verdict rejects; ``unknown`` (budget exhausted) keeps the position.
   It is asked about the earliest position of a candidate sequence only (the others
   are reached from it by the sequence's moves, so they are legal when it is, and it
   is illegal when one of them is), and only when filters 1, 2 and 4 leave more than
   one candidate: with one candidate left it could only say that the diagram is
   illegal, which a problem excludes (``check_single`` asks it anyway).
4. **Retro-stalemate**: after the sequence at least D more retractions (default 3,
   as Retractor uses) must exist, each position passing filters 1-2. Sound because
   every legal position has a legal predecessor (the position before the last move
   of a game reaching it; the initial position has one too, e.g. the start position
   with Black's knight on f6 and Black to move, reached by 1.Nf3 Nf6 2.Ng1), so from
   a legal position there are retraction chains of any length through legal positions.
5. **Dead reckoning** (FIDE Article 5.2.2, optional): a predecessor that is a dead
   position is impossible, because the game ended as soon as it arose. Deadness comes
   from :func:`retro.unwinnable.is_dead`; ``undetermined`` counts as not dead.

Choices where the problem statement is silent (what composers expect):

* A bare placement's castling rights are taken as none, and its en-passant square as any
  that a double step of the side that moved last could have created (one variant per
  square, plus none). Fewer rights in P admit at least the predecessors that more
  rights admit, so no possible last move is lost.
* Predecessors that differ only in castling rights or en-passant square are variants
  of one retraction: a sequence of moves survives when one variant survives. In the
  retro-stalemate search only the variant with the fewest castling rights is explored:
  a position with fewer rights has at least the retractions of one with more (the
  predecessor rights must include the successor's), so no chain is missed.
* The solutions are printed in forward notation, latest move first, with their move
  type (:mod:`retro.lastmove.notation`).
* The legality pipeline and dead reckoning stop once the answer to the question asked
  is settled (two survivors of every filter for "which last moves?"; see :func:`solve`):
  the remaining candidates are kept as solutions marked unchecked. Keeping them is
  sound (no candidate is rejected without a rule), and the legality checks skipped
  could not change the status (the automatic cages, which could, still see them all).
* The time limit stops every phase (see :func:`solve`); what was not checked by then is
  kept and marked, never rejected, and the status says whether the answer is settled
  (:func:`status_of`: ``unknown`` when it is not).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Literal

import chess

from cages.library import Library
from cages.propose import CageFinder
from retro.core.revmoves import Retraction, predecessor, retractions
from retro.core.rules import check_static
from retro.core.status import DeadStatus, LastMoveStatus, LegalityStatus
from retro.lastmove.frozen import frozen_units_reason
from retro.lastmove.notation import forward_notation, move_type
from retro.legality import decide
from retro.unwinnable import is_dead

__all__ = ["Solution", "Rejection", "LastMoveVerdict", "SolveOptions", "solve", "diagram_positions"]


def _side(color: chess.Color) -> str:
    return "w" if color == chess.WHITE else "b"


@dataclasses.dataclass(frozen=True)
class Solution:
    """A surviving sequence: ``side`` made the latest move; ``moves`` in forward
    notation, latest first; ``type`` is the move type of the latest move; ``positions``
    the FENs before each move (latest first); ``checked`` is False when a filter did not
    run on it with its full budget: its retro-stalemate search or costly check was cut by
    the time limit, or the answer was settled without its legality check."""

    side: chess.Color
    moves: tuple[str, ...]
    type: str
    positions: tuple[str, ...]
    checked: bool = True

    def as_dict(self) -> dict[str, object]:
        return {"side": _side(self.side), "moves": list(self.moves), "type": self.type, "checked": self.checked}


@dataclasses.dataclass(frozen=True)
class Rejection:
    """A retraction sequence of ``side`` (latest first; empty for the diagram itself),
    the ``rule`` that rejected its last position (a short name) and the ``reason``."""

    side: chess.Color
    moves: tuple[str, ...]
    rule: str
    reason: str

    def as_dict(self) -> dict[str, object]:
        return {"side": _side(self.side), "moves": list(self.moves), "rule": self.rule, "reason": self.reason}


@dataclasses.dataclass(frozen=True)
class LastMoveVerdict:
    """The answer to a last-move problem: the sequences that no filter refuted, for the
    side (or both sides, ``retract=None``) asked, and the rejected ones with the rule.
    ``unchecked`` counts the solutions that did not go through every filter; ``complete``
    is False when the enumeration of sequences stopped at the time limit (then sequences
    not listed may exist). ``status`` follows from these, see :func:`status_of`."""

    fen: str
    retract: chess.Color | None
    status: LastMoveStatus
    solutions: tuple[Solution, ...]
    rejections: tuple[Rejection, ...]
    filters: tuple[str, ...]
    nodes: int
    seconds: float
    unchecked: int = 0
    complete: bool = True

    @property
    def checked(self) -> int:
        """The solutions that went through every filter."""
        return len(self.solutions) - self.unchecked

    def as_dict(self) -> dict[str, object]:
        return {
            "fen": self.fen,
            "status": self.status,
            "retract": "both" if self.retract is None else _side(self.retract),
            "solutions": [s.as_dict() for s in self.solutions],
            "rejected": [r.as_dict() for r in self.rejections],
            "filters": list(self.filters),
            "nodes": self.nodes,
            "checked": self.checked,
            "unchecked": self.unchecked,
            "complete": self.complete,
            "seconds": round(self.seconds, 3),
            "results": self._per_side(),
        }

    def _per_side(self) -> list[dict[str, object]]:
        """The same answer split by the side that moved last, one record per side asked,
        each with its own status (:func:`status_of` of that side's solutions); the web page
        reads it. ``nodes`` and ``seconds`` are the whole problem's."""
        records: list[dict[str, object]] = []
        for side in (chess.WHITE, chess.BLACK) if self.retract is None else (self.retract,):
            mine = [s for s in self.solutions if s.side == side]
            solutions = [{"moves": list(s.moves), "type": s.type, "checked": s.checked} for s in mine]
            records.append(
                {
                    "fen": self.fen,
                    "retract": _side(side),
                    "status": status_of(mine, self.complete),
                    "unchecked": sum(not s.checked for s in mine),
                    "solutions": solutions,
                    "rejected": [
                        {"moves": list(r.moves), "reason": r.reason} for r in self.rejections if r.side == side
                    ],
                    "filters": list(self.filters),
                    "nodes": self.nodes,
                    "seconds": round(self.seconds, 3),
                }
            )
        return records


def status_of(solutions: Sequence[Solution], complete: bool = True) -> LastMoveStatus:
    """The status of a list of solutions (the sequences no filter refuted), ``complete``
    when every sequence was enumerated:

    * ``multiple`` when at least two solutions went through every filter (whatever the
      others, at least two sequences are then not refuted; the filters are sound but not
      complete, so this says that no rule we have tells them apart, not that each is
      proven possible);
    * ``none`` / ``unique`` when the enumeration is complete and every solution went
      through every filter: 0 / 1 of them (every other sequence is refuted by a rule);
    * ``unknown`` otherwise: fewer than two solutions went through every filter and some
      were not checked, or sequences were not enumerated at all (the time limit), so the
      answer could be none, unique or multiple."""
    checked = sum(s.checked for s in solutions)
    if checked >= 2:
        return LastMoveStatus.MULTIPLE
    if complete and checked == len(solutions):
        return LastMoveStatus.NONE if checked == 0 else LastMoveStatus.UNIQUE
    return LastMoveStatus.UNKNOWN


def diagram_positions(board: chess.Board, retract: chess.Color) -> list[chess.Board]:
    """The positions a diagram stands for: ``retract`` just moved, no castling rights,
    and each possible en-passant square (none, or behind a double-stepped pawn of
    ``retract`` that a pawn of the side to move could take)."""
    base = board.copy(stack=False)
    base.turn = not retract
    base.castling_rights = chess.BB_EMPTY
    base.ep_square = None
    result = [base]
    pawn_rank, behind, start = (3, -8, -16) if retract == chess.WHITE else (4, 8, 16)
    for square in chess.SquareSet(board.pawns & board.occupied_co[retract] & chess.BB_RANKS[pawn_rank]):
        ep, origin = square + behind, square + start
        if board.piece_at(ep) is None and board.piece_at(origin) is None:
            variant = base.copy(stack=False)
            variant.ep_square = ep
            if any(variant.is_en_passant(m) for m in variant.legal_moves):
                result.append(variant)
    return result


Question = Literal["moves", "types", "all"]
"""What the answer must settle, see :func:`solve`."""


Reason = tuple[str, str]
"""(rule name, explanation) of a rejection."""

Chain = tuple[chess.Board, ...]
"""The positions before each move of a candidate sequence, latest first."""


REPORT_EVERY = 2.0
"""Seconds between two progress lines while the sequences are enumerated."""

QUICK_CAGE_NODES = 200
"""The state budget of each proposal in the quick pass of :func:`_check_candidates`."""

QUICK_SHARE = 0.25
"""The share of the time left that the quick pass may use."""


class _OutOfTime(Exception):
    """The problem's time limit has passed."""


class _Clock:
    """The problem's deadline (a :func:`time.perf_counter` value, None: no limit), and a
    progress line every :data:`REPORT_EVERY` seconds from :meth:`tick`."""

    def __init__(self, start: float, time_limit: float | None, progress: Callable[[str], None] | None) -> None:
        self.deadline = None if time_limit is None else start + time_limit
        self._progress = progress
        self._next_report = start + REPORT_EVERY
        self.describe: Callable[[], str] = lambda: "enumerating the retractions"

    def expired(self) -> bool:
        return self.deadline is not None and time.perf_counter() > self.deadline

    def tick(self) -> None:
        """Raise :class:`_OutOfTime` once the deadline has passed; report progress."""
        now = time.perf_counter()
        if self.deadline is not None and now > self.deadline:
            raise _OutOfTime
        if self._progress is not None and now >= self._next_report:
            self._progress(self.describe())
            self._next_report = now + REPORT_EVERY


class _Filters:
    """The sound filters of the module docstring, with a cache and a node count."""

    def __init__(
        self,
        *,
        cages: Library | None,
        finder: CageFinder | None,
        use_legality: bool,
        legality_max_nodes: int,
        legality_time_limit: float,
        dead_reckoning: bool,
        dead_max_nodes: int,
        clock: _Clock,
    ) -> None:
        self.clock = clock
        self._cages = cages
        self._finder = finder
        self._use_legality = use_legality
        self._legality_max_nodes, self._legality_time_limit = legality_max_nodes, legality_time_limit
        self._dead_reckoning, self._dead_max_nodes = dead_reckoning, dead_max_nodes
        self.nodes = 0
        self.diagram: chess.Board | None = None
        self._cheap: dict[str, Reason | None] = {}
        self._illegal: dict[str, Reason | None] = {}
        self._dead: dict[str, Reason | None] = {}
        self._no_chain: set[tuple[str, int]] = set()

    @staticmethod
    def _memo(
        table: dict[str, Reason | None], board: chess.Board, compute: Callable[[], Reason | None]
    ) -> Reason | None:
        """``compute()`` for ``board``, once per position (keyed by its FEN) in ``table``."""
        key = board.fen()
        if key not in table:
            table[key] = compute()
        return table[key]

    def cheap(self, board: chess.Board) -> Reason | None:
        """Why the position is impossible by static rules or a known cage, or None."""

        def compute() -> Reason | None:
            self.nodes += 1
            verdict = check_static(board)
            reason: Reason | None = None
            if verdict.status == "illegal":
                reason = "static", f"static rule: {verdict.reason}"
            elif (frozen := frozen_units_reason(board)) is not None:
                reason = "frozen units", frozen
            elif self._cages is not None:
                cage = self._cages.contains_cage(board)
                if cage is not None:
                    reason = "cage", f"contains the known cage {cage}"
            return reason

        return self._memo(self._cheap, board, compute)

    def legality(self, board: chess.Board, deadline: float | None = None) -> Reason | None:
        """Why the legality pipeline (within its budget) proves the position illegal, or None.
        Its time budget is cut to what remains before ``deadline``; when that cut leaves it
        undecided, :class:`_OutOfTime` is raised (and nothing cached): the position was
        not checked with the full budget."""
        if not self._use_legality:
            return None
        key = board.fen()
        if key in self._illegal:
            return self._illegal[key]
        limit = self._legality_time_limit
        cut = deadline is not None and deadline - time.perf_counter() < limit
        if deadline is not None and cut:
            limit = max(deadline - time.perf_counter(), 0.0)
        verdict = decide(board, max_nodes=self._legality_max_nodes, time_limit=limit)
        reason: Reason | None = None
        if verdict.status == LegalityStatus.ILLEGAL:
            reason = "legality", f"illegal: {verdict.reason}"
        elif cut and verdict.status != LegalityStatus.LEGAL:
            raise _OutOfTime
        self._illegal[key] = reason
        return reason

    def dead(self, board: chess.Board) -> Reason | None:
        """Dead reckoning: the position is dead, so the game ended there (FIDE 5.2.2), or None."""
        if not self._dead_reckoning:
            return None

        def compute() -> Reason | None:
            if is_dead(board, max_nodes=self._dead_max_nodes).status == DeadStatus.DEAD:
                return "dead reckoning", "dead reckoning: the position before it is dead, so the game had ended"
            return None

        return self._memo(self._dead, board, compute)

    def costly_chain(self, chain: Chain, deadline: float | None = None, *, cages_only: bool = False) -> Reason | None:
        """Why a candidate's positions cannot occur by the costly filters, or None:

        * a cage among the proposals of the earliest position (with those around the
          diagram's squares where it differs from it), or in every position up to two
          retractions before it (:mod:`cages.propose`; no proposal is verified after
          ``deadline``, a :func:`time.perf_counter` value: the candidate's share of the time);
        * unless ``cages_only``, the legality pipeline on the earliest position (if it is
          legal, so is every later one, reached from it by the sequence's moves; if a
          later one is illegal, so is it), within its own time limit and the problem's
          deadline, not the candidate's share (:class:`_OutOfTime` when the time left was
          too short to decide);
        * unless ``cages_only``, dead reckoning on each position (the game would have
          ended there)."""
        if self._finder is not None:
            cage = self._finder.find(chain[-1], deadline=deadline, focus=self._focus(chain[-1]))
            if cage is not None:
                return "automatic cage", f"{cage} (found automatically)"
        if cages_only:
            return None
        reason = self.legality(chain[-1], self.clock.deadline)
        for position in chain if reason is None else ():
            reason = self.dead(position)
            if reason is not None:
                break
        return reason

    @property
    def has_finder(self) -> bool:
        """Whether automatic cages are proposed."""
        return self._finder is not None

    def _focus(self, earliest: chess.Board) -> chess.Bitboard:
        """The diagram's occupied squares where ``earliest`` differs from it."""
        if self.diagram is None:
            return chess.BB_EMPTY
        diagram = self.diagram
        return chess.SquareSet(
            sq for sq in chess.SquareSet(diagram.occupied) if earliest.piece_at(sq) != diagram.piece_at(sq)
        ).mask

    def quick_cage(self, chain: Chain, deadline: float | None) -> Reason | None:
        """A cage in the earliest position of ``chain`` among its own proposals, each
        verified within :data:`QUICK_CAGE_NODES` states or the finder's budget if smaller (the quick pass of
        :func:`_check_candidates`), or None; none is verified after ``deadline``."""
        if self._finder is None:
            return None
        earliest = chain[-1]
        budget = min(QUICK_CAGE_NODES, self._finder.max_nodes)
        cage = self._finder.cage_in(earliest, deadline=deadline, focus=self._focus(earliest), max_nodes=budget)
        return None if cage is None else ("automatic cage", f"{cage} (found automatically)")

    def forget(self) -> None:
        """Drop the cheap verdicts, after the library has grown."""
        self._cheap.clear()
        self._no_chain.clear()

    def has_retraction_chain(self, board: chess.Board, depth: int) -> bool:
        """Is there a chain of ``depth`` retractions through positions passing the cheap
        filters? (retro-stalemate; minimal-castling variants only, see the docstring)
        Raises :class:`_OutOfTime` at the deadline (nothing undecided is cached)."""
        if depth == 0:
            return True
        self.clock.tick()
        key = (board.fen(), depth)
        if key in self._no_chain:
            return False
        for retraction in _minimal_variants(retractions(board)):
            previous = predecessor(board, retraction)
            if self.cheap(previous) is None and self.has_retraction_chain(previous, depth - 1):
                return True
        self._no_chain.add(key)
        return False


def _minimal_variants(candidates: list[Retraction]) -> Iterator[Retraction]:
    """One retraction per (move, captured, ep), the one with the fewest castling rights."""
    best: dict[tuple[chess.Move, int | None, int | None], Retraction] = {}
    for r in candidates:
        key = (r.move, r.captured, r.ep)
        if key not in best or chess.popcount(r.castling) < chess.popcount(best[key].castling):
            best[key] = r
    return iter(best.values())


def _start_positions(board: chess.Board, retract: chess.Color, full_fen: bool) -> list[chess.Board]:
    """The positions to retract from: the full FEN's own, or the diagram's variants."""
    if not full_fen:
        return diagram_positions(board, retract)
    if board.turn == retract:
        raise ValueError(
            f"the FEN has {'White' if board.turn else 'Black'} to move, so "
            f"{'Black' if board.turn else 'White'} made the last move, not {_side(retract)}"
        )
    return [board.copy(stack=False)]


@dataclasses.dataclass(frozen=True)
class SolveOptions:
    """What :func:`solve` asks and with which budgets.

    ``moves``: the length of the retraction sequences; ``extra_depth``: the retro-stalemate
    depth D; ``cages``: the known-cage library (automatic cages join it; a new in-memory
    library when None); ``auto_cages``, ``cage_nodes``: propose and verify cages, with this
    state budget each; ``dead_reckoning``, ``dead_max_nodes``: filter 5 and its budget;
    ``use_legality``, ``legality_max_nodes``, ``legality_time_limit``: filter 3 and its
    budget per position; ``check_single``: run the costly filters on a lone candidate too;
    ``time_limit``: seconds for the whole problem (None: no limit); ``question``: what the
    answer must settle (see :func:`solve`)."""

    moves: int = 1
    extra_depth: int = 3
    cages: Library | None = None
    auto_cages: bool = True
    cage_nodes: int = 2_000
    dead_reckoning: bool = False
    use_legality: bool = True
    check_single: bool = False
    legality_max_nodes: int = 20_000
    legality_time_limit: float = 2.0
    dead_max_nodes: int = 100_000
    time_limit: float | None = 60.0
    question: Question = "moves"

    def filter_names(self) -> tuple[str, ...]:
        """The filters these options use, as the verdict lists them."""
        used = ["static rules", f"retro-stalemate (depth {self.extra_depth})"]
        used += ["known cages"] if self.cages is not None else []
        used += ["automatic cages"] if self.auto_cages else []
        used += ["legality pipeline"] if self.use_legality else []
        used += ["dead reckoning"] if self.dead_reckoning else []
        return tuple(used)


Key = tuple[chess.Color, tuple[str, ...]]
"""A sequence: the side that made the latest move, and the moves (latest first)."""

Candidates = dict[Key, tuple[str, list[Chain]]]
"""The sequences passing the cheap filters: the latest move's type and the chains of each
castling/en-passant variant (a sequence survives when one variant does)."""


def solve(
    board: chess.Board,
    retract: chess.Color | None = None,
    options: SolveOptions | None = None,
    *,
    full_fen: bool = False,
    progress: Callable[[str], None] | None = None,
    **settings: Any,
) -> LastMoveVerdict:
    """Solve a last-move problem: the sequences of ``options.moves`` retractions, the first
    by ``retract`` (``None``: each side in turn), whose positions all survive the filters of
    the module docstring. With ``full_fen`` the board's side to move, castling rights and
    en-passant square are taken as given (``retract``, if given, must be the side not to
    move); otherwise ``board`` is a diagram (placement only). ``settings`` are
    :class:`SolveOptions` fields that override ``options`` (``solve(board, moves=3)``).

    **A lone survivor.** A problem's diagram is taken to be legal (unless ``check_single``):
    then some sequence is its last moves, so when the enumeration is complete and every
    sequence but one is refuted by a sound filter, that one is the answer, and it counts as
    checked (``unique``) whether the costly filters ran on it or not: alone after the cheap
    filters (they do not run), or left when the time limit stopped them after they had
    refuted the others.

    The costly filters (automatic cages, legality pipeline, dead reckoning) run only when
    the cheap ones leave more than one candidate sequence, or always with ``check_single``;
    automatic cages join ``cages`` (a new in-memory library when it is None).

    **Time limit.** Every phase stops once ``time_limit`` seconds have passed: the
    enumeration (the candidates found so far are kept, ``complete`` is False, and a
    candidate whose retro-stalemate search was cut is kept unchecked), the costly filters
    (each candidate within an equal share of the time left, :func:`_share`; the candidates
    not checked within theirs are kept unchecked) and the recheck with the cages
    found (the solutions not rechecked are kept unchecked). The answer comes back by
    ``time_limit`` plus the check in progress at the deadline: one static-rule check of a
    position, or one costly check of a candidate (its legality check is bounded by
    ``legality_time_limit``, its automatic cages stop at the deadline, its dead reckoning
    by ``dead_max_nodes``). Nothing is rejected for want of time, so the verdict stays
    sound; its status says what was settled (:func:`status_of`).

    ``question`` says what the answer must settle, so that the legality pipeline and
    dead reckoning (seconds per candidate) stop once it is settled: ``moves`` (the
    default) once two candidates survived every filter, since the answer is then
    ``multiple`` whatever the others give; ``types`` (a type-A problem: what kind of
    move was the last?) once two survivors differ in side or move type; ``all`` never.
    The candidates left are still offered to the automatic cages (cheap, and a cage
    found may remove an earlier survivor), are kept as solutions with ``checked``
    False, and are counted in ``unchecked``. ``progress`` receives a line per costly
    check, and one every :data:`REPORT_EVERY` seconds during the enumeration."""
    options = dataclasses.replace(options or SolveOptions(), **settings)
    if options.moves < 1:
        raise ValueError("the number of moves to retract must be at least 1")
    if full_fen and retract is None:
        retract = not board.turn
    start = time.perf_counter()
    filters, finder = _filters_for(options, _Clock(start, options.time_limit, progress))
    filters.diagram = board
    sides = [chess.WHITE, chess.BLACK] if retract is None else [retract]
    rejections: dict[Key, Reason] = {}
    found = _enumerate(board, sides, full_fen, options, filters, rejections)
    solutions = _check_candidates(found, options, filters, rejections, progress)
    if finder is not None and finder.verified and len(solutions) > 1:
        solutions = _recheck(solutions, found.candidates, filters, options.extra_depth, rejections)
    if found.complete and len(solutions) == 1 and not options.check_single:
        solutions = [dataclasses.replace(solutions[0], checked=True)]  # the lone survivor (docstring)
    # A line rejected for one variant but surviving for another is not rejected.
    for solution in solutions:
        for prefix_length in range(1, len(solution.moves) + 1):
            rejections.pop((solution.side, solution.moves[:prefix_length]), None)
    return LastMoveVerdict(
        fen=board.fen() if full_fen else board.board_fen(),
        retract=retract,
        status=status_of(solutions, found.complete),
        solutions=tuple(solutions),
        rejections=tuple(
            Rejection(side, line, rule, reason)
            for (side, line), (rule, reason) in sorted(rejections.items(), key=_order)
        ),
        filters=options.filter_names(),
        nodes=filters.nodes,
        unchecked=sum(not s.checked for s in solutions),
        seconds=time.perf_counter() - start,
        complete=found.complete,
    )


def _filters_for(options: SolveOptions, clock: _Clock) -> tuple[_Filters, CageFinder | None]:
    """The filters of ``options``, and the automatic-cage finder (None without automatic
    cages), which adds the cages it verifies to ``options.cages`` (a new in-memory library
    when None)."""
    cages = options.cages
    if options.auto_cages and cages is None:
        cages = Library()
    finder = CageFinder(cages, max_nodes=options.cage_nodes) if options.auto_cages and cages is not None else None
    filters = _Filters(
        cages=cages,
        finder=finder,
        use_legality=options.use_legality,
        legality_max_nodes=options.legality_max_nodes,
        legality_time_limit=options.legality_time_limit,
        dead_reckoning=options.dead_reckoning,
        dead_max_nodes=options.dead_max_nodes,
        clock=clock,
    )
    return filters, finder


@dataclasses.dataclass
class _Enumeration:
    """Phase 1's result: the candidates, those whose retro-stalemate search was cut by the
    deadline (``undecided``), and whether every sequence was enumerated."""

    candidates: Candidates = dataclasses.field(default_factory=dict)
    undecided: set[Key] = dataclasses.field(default_factory=set)
    complete: bool = True


def _enumerate(
    board: chess.Board,
    sides: list[chess.Color],
    full_fen: bool,
    options: SolveOptions,
    filters: _Filters,
    rejections: dict[Key, Reason],
) -> _Enumeration:
    """Phase 1: every sequence whose positions pass the cheap filters and retro-stalemate,
    with each of its castling/en-passant variants; the rejected ones go to ``rejections``.
    Stops at the deadline (``complete`` False)."""
    found = _Enumeration()
    candidates = found.candidates
    moves, extra_depth = options.moves, options.extra_depth
    filters.clock.describe = lambda: (
        f"enumerating the retractions: {filters.nodes} positions checked, {len(candidates)} candidates so far"
    )

    def extend(side: chess.Color, position: chess.Board, line: tuple[str, ...], chain: Chain, kind: str) -> None:
        filters.clock.tick()
        if len(line) == moves:
            try:
                chained = filters.has_retraction_chain(position, extra_depth)
            except _OutOfTime:
                candidates.setdefault((side, line), (kind, []))[1].append(chain)
                found.undecided.add((side, line))
                raise
            if chained:
                candidates.setdefault((side, line), (kind, []))[1].append(chain)
            else:
                rejections.setdefault(
                    (side, line), ("retro-stalemate", f"retro-stalemate: fewer than {extra_depth} further retractions")
                )
            return
        for retraction in retractions(position):
            previous = predecessor(position, retraction)
            new_line = line + (forward_notation(previous, retraction.move),)
            reason = filters.cheap(previous)
            if reason is not None:
                rejections.setdefault((side, new_line), reason)
                continue
            extend(
                side,
                previous,
                new_line,
                chain + (previous,),
                move_type(previous, retraction.move) if not line else kind,
            )

    try:
        for side in sides:
            for position in _start_positions(board, side, full_fen):
                reason = filters.cheap(position)
                if reason is None:
                    extend(side, position, (), (), "")
                else:
                    rejections.setdefault((side, ()), (reason[0], f"the diagram itself: {reason[1]}"))
    except _OutOfTime:
        found.complete = False
    return found


def _costly_survivor(
    chains: list[Chain],
    filters: _Filters,
    settled: bool,
    rejections: dict[Key, Reason],
    key: Key,
    deadline: float | None,
) -> tuple[Chain | None, bool]:
    """The first variant of a candidate that the costly filters do not reject (None: all
    are rejected, the last reason in ``rejections``), and whether it was checked: not when
    the answer was settled (automatic cages only) or ``deadline`` (the candidate's share of
    the time left) cut a check short (then the variant is kept unchecked)."""
    for chain in chains:
        try:
            reason = filters.costly_chain(chain, deadline, cages_only=settled)
        except _OutOfTime:
            return chain, False
        if reason is None:
            return chain, not settled
        rejections[key] = reason
    return None, not settled


def _check_candidates(
    found: _Enumeration,
    options: SolveOptions,
    filters: _Filters,
    rejections: dict[Key, Reason],
    progress: Callable[[str], None] | None,
) -> list[Solution]:
    """Phase 2: the costly filters, only when they can make a difference (several
    candidates, or ``check_single``), until the deadline or the answer is settled, each
    candidate within its share of the time left (:func:`_share`). A candidate whose
    retro-stalemate search was cut is kept unchecked."""
    solutions: list[Solution] = []
    announced = False
    candidates = found.candidates
    costly = (options.use_legality or options.dead_reckoning or options.auto_cages) and (
        len(candidates) > 1 or options.check_single
    )
    if costly and options.auto_cages and filters.has_finder:
        candidates = _quick_cages(found, filters, rejections)
        costly = len(candidates) > 1 or options.check_single
    for number, ((side, line), (kind, chains)) in enumerate(sorted(candidates.items(), key=_order), 1):
        survivor: Chain | None = chains[0]
        checked = (side, line) not in found.undecided
        if not checked or costly and filters.clock.expired():
            checked = False
        elif costly:
            settled = _settled(solutions, options.question)
            if progress is not None and not settled:
                progress(f"checking candidate {number}/{len(candidates)}: {' '.join(line)}")
            elif progress is not None and not announced:
                progress(f"answer settled: candidates {number}-{len(candidates)} get the automatic cages only")
                announced = True
            share = _share(filters.clock.deadline, len(candidates) - number + 1, options.legality_time_limit)
            survivor, checked = _costly_survivor(chains, filters, settled, rejections, (side, line), share)
        if survivor is not None:
            rejections.pop((side, line), None)
            solutions.append(Solution(side, line, kind, tuple(p.fen() for p in survivor), checked))
    return solutions


def _quick_cages(found: _Enumeration, filters: _Filters, rejections: dict[Key, Reason]) -> Candidates:
    """The quick pass before the costly filters: every candidate's earliest positions are
    offered to the automatic cages with a small state budget per proposal
    (:data:`QUICK_CAGE_NODES`), within :data:`QUICK_SHARE` of the time left; the candidates
    left are returned. A candidate is refuted when each of its variants holds a verified
    cage (sound: a cage verified within any budget is a cage, and a position holding one
    is illegal, :mod:`cages.propose`); a proposal that fails here is tried again with the
    full budget in the costly filters. Most cages that refute a candidate are verified in
    a few dozen states, while the proposals that fail use up the full budget: so the
    cages that a later candidate holds are not left waiting behind the failing proposals of
    the earlier ones, and the candidates they refute take no share of the time."""
    deadline = filters.clock.deadline
    if deadline is not None:
        now = time.perf_counter()
        deadline = now + max(deadline - now, 0.0) * QUICK_SHARE
    left: Candidates = {}
    for key, (kind, chains) in sorted(found.candidates.items(), key=_order):
        reasons = []
        for chain in chains:
            reason = filters.quick_cage(chain, deadline)
            if reason is None:
                break
            reasons.append(reason)
        if len(reasons) < len(chains):
            left[key] = (kind, chains)
        else:
            rejections[key] = reasons[-1]
    return left


def _share(deadline: float | None, left: int, floor: float) -> float | None:
    """A candidate's deadline for the costly filters: an equal share of the time left
    among the ``left`` candidates not yet checked (one candidate whose proposals all fail
    must not use up the time of the others; what its share leaves undecided is kept
    unchecked, never rejected), but at least ``floor`` seconds (the legality check's own
    limit, so that with many candidates each check can still finish), within the
    problem's deadline."""
    if deadline is None:
        return None
    now = time.perf_counter()
    return min(deadline, now + max(max(deadline - now, 0.0) / left, floor))


def _settled(solutions: list[Solution], question: Question) -> bool:
    """Whether the candidates that survived every filter already fix the answer to
    ``question``: two of them for ``moves`` (the status is ``multiple`` whatever the
    other candidates give: a filter never removes a survivor, except the cages found
    later, whose recheck :func:`_recheck` still runs), two with different sides or move
    types for ``types``, never for ``all``."""
    survivors = [s for s in solutions if s.checked]
    if question == "moves":
        return len(survivors) >= 2
    if question == "types":
        return len({(s.side, s.type) for s in survivors}) >= 2
    return False


def _recheck(
    solutions: list[Solution],
    candidates: Candidates,
    filters: _Filters,
    extra_depth: int,
    rejections: dict[Key, Reason],
) -> list[Solution]:
    """The solutions that still pass the cheap filters and retro-stalemate once the cages
    found automatically have joined the library (those filters are sound with any library
    of verified cages, so a solution they now reject cannot be the answer). At the
    deadline the solutions not rechecked are kept, marked unchecked."""
    filters.forget()
    kept: list[Solution] = []
    for index, solution in enumerate(solutions):
        try:
            reason = _recheck_one(candidates[solution.side, solution.moves][1], filters, extra_depth)
        except _OutOfTime:
            return kept + [dataclasses.replace(s, checked=False) for s in solutions[index:]]
        if reason is None:
            kept.append(solution)
        else:
            rejections[solution.side, solution.moves] = reason
    return kept


def _recheck_one(chains: list[Chain], filters: _Filters, extra_depth: int) -> Reason | None:
    """Why every variant of a candidate is now rejected, or None (see :func:`_recheck`)."""
    reason: Reason | None = None
    for chain in chains:
        reason = next((r for r in map(filters.cheap, chain) if r is not None), None)
        if reason is None and not filters.has_retraction_chain(chain[-1], extra_depth):
            reason = (
                "retro-stalemate",
                f"retro-stalemate with the cages found: fewer than {extra_depth} further retractions",
            )
        if reason is None:
            break
    return reason


def _order(item: tuple[tuple[chess.Color, tuple[str, ...]], object]) -> tuple[bool, tuple[str, ...]]:
    """White's sequences first, then by moves."""
    return not item[0][0], item[0][1]

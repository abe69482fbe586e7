"""Extended proof kernel: the rows of a kernel's captures as a CP-SAT model (paper 002,
"extended proof game kernel").

A kernel says which captures happen in which order, but not on which rows. The model
gives every pawn an integer rank variable (0-7, a1 = rank 0) at each moment of the
kernel: before and after each capture and at the end, and asks whether the ranks can
be chosen so that:

* **start and goal**: each pawn starts on its square of the initial position; each
  surviving pawn ends on the goal square that its column order gives it;
* **pawns move forward**: a white pawn's rank never decreases (black: never increases);
* **captures**: a capturing pawn goes one rank forward onto the adjacent file; a pawn
  taken by a pawn stands on the landing square, or, en passant, beside it (white
  capturer on rank 5 = index 4, captured black pawn on the same rank);
  a capture promotion starts on the 7th rank;
* **never through each other**: in every column, at every moment, the pawns stand on
  strictly increasing ranks in their kernel order (two distinct pawns never share a
  square, and pawns on a file cannot pass each other);
* **promoted pawns**: rank 7 for white (0 for black) means "has promoted"; only a
  pawn that leaves the kernel as a piece (quiet promotion, or captured by a piece,
  which may be its promoted piece) may take that value, and two promoted pawns of a
  column are exempt from the order;
* **bishop colours**: a pawn capturing a light (dark) bishop lands on a light (dark)
  square;
* **blocked squares** (:mod:`proofkernel.blocked`): a blocked pawn never moves, and no
  other pawn ever stands on a blocked square.

Every real game gives a solution (take each pawn's actual ranks), so an INFEASIBLE
model proves that this kernel has no game. The paper's light-bishop example: the
black a-pawn taking a light bishop on the b-file below a white pawn on b3 needs an odd
landing rank below 3, i.e. b2, which is dark: infeasible. Its legal twin (white pawn
on b4) has b3.

The model is built by :func:`build_model` (as OR-Tools' public ``CpModelProto``, through
:mod:`retro.core.cpsat`, without loading ``cp_model.py``), which returns it with its
variables so a test can inspect it; :func:`extend_kernel` solves it and reads the ranks back as texel's
extended-kernel moves (``wPb2-b4 bPa7-a5 wPb4xa5``).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import chess

from proofkernel.moves import PAWN_X_PAWN, PAWN_X_PIECE, PAWN_X_PROMOTED, PIECE_X_PAWN, PIECE_X_PIECE, KernelMove
from proofkernel.state import DARK_BISHOP, FILES, LIGHT_BISHOP, QUEEN, ROOK, split_promotions
from retro.core import cpsat

__all__ = ["ExtendedModel", "ExtendedKernel", "build_model", "extend_kernel"]


@dataclass
class _Pawn:
    ident: int
    color: chess.Color
    start: chess.Square
    blocked: bool
    may_promote: bool = False
    ranks: list[cpsat.IntVar] = field(default_factory=list)


Rank = cpsat.IntVar | int  # a pawn's rank at one moment: a model variable, or known
Note = tuple[str, int, Rank, Rank]  # (kind, file, rank before, rank after) of one kernel move's pawn


@dataclass
class ExtendedModel:
    """The CP-SAT model of one kernel and what a reader needs to interpret it."""

    model: cpsat.Model
    feasible_by_construction: bool
    events: list[tuple[KernelMove, list[Note]]]
    pawns: list[_Pawn]
    #: before each kernel move and at the end: (pawn, file, rank) for every pawn still on the board
    moments: list[list[tuple[int, int, Rank]]] = field(default_factory=list)

    @property
    def variables(self) -> int:
        return len(self.model.domains)

    @property
    def constraints(self) -> int:
        return len(self.model.constraints)


@dataclass(frozen=True)
class ExtendedKernel:
    """Status ``found`` (with ``moves``), ``infeasible`` or ``unknown`` (time limit)."""

    status: str
    moves: tuple[str, ...] = ()
    #: the solution's pawns before each kernel move and at the end, as (square, colour);
    #: pawns that have promoted by then are left out
    pawn_plan: tuple[tuple[tuple[chess.Square, chess.Color], ...], ...] = ()
    variables: int = 0
    constraints: int = 0
    seconds: float = 0.0

    def __str__(self) -> str:
        return " ".join(self.moves)


def _forward(color: chess.Color) -> int:
    return 1 if color == chess.WHITE else -1


def build_model(
    kernel: tuple[KernelMove, ...],
    init: chess.Board,
    goal: chess.Board,
    blocked_mask: int,
    factory: Callable[[], cpsat.Model] = cpsat.Model,
) -> ExtendedModel:
    """Build the CP-SAT model of ``kernel`` (see the module docstring); ``factory`` makes
    the empty model (a test builds the same one with OR-Tools' ``cp_model.CpModel``)."""
    builder = _ModelBuilder(init, blocked_mask, factory())
    current: dict[int, Rank] = {p.ident: chess.square_rank(p.start) for p in builder.pawns}
    for step, move in enumerate(kernel):
        before = builder.moment_before(step, current)
        after, notes = builder.play(step, move, before)
        for column in builder.columns:
            builder.order(column, after)
        builder.events.append((move, notes))
        current = after
    builder.reach_goal(goal, current)
    return builder.result()


class _ModelBuilder:
    """The model under construction: the pawns of ``init`` by column (bottom to top), and
    whether the constraints decided without the solver all hold (``ok``)."""

    def __init__(self, init: chess.Board, blocked_mask: int, model: cpsat.Model) -> None:
        self.model = model
        self.blocked_mask = blocked_mask
        self.pawns: list[_Pawn] = []
        self.columns: list[list[int]] = []
        for file in range(8):
            column = []
            for rank in range(8):
                square = chess.square(file, rank)
                piece = init.piece_at(square)
                if piece is not None and piece.piece_type == chess.PAWN:
                    blocked = bool(blocked_mask & chess.BB_SQUARES[square])
                    self.pawns.append(_Pawn(len(self.pawns), piece.color, square, blocked))
                    column.append(len(self.pawns) - 1)
            self.columns.append(column)
        self.ok = True
        self.events: list[tuple[KernelMove, list[Note]]] = []
        self.moments: list[list[tuple[int, int, Rank]]] = []

    def new_rank(self, pawn: _Pawn, file: int, name: str) -> cpsat.IntVar:
        """A rank variable of ``pawn`` on ``file``: off the blocked squares, fixed if it is blocked."""
        low, high = (1, 7) if pawn.color == chess.WHITE else (0, 6)
        var = self.model.new_int_var(low, high, f"p{pawn.ident}_{name}")
        pawn.ranks.append(var)
        if pawn.blocked:
            self.model.add(var == chess.square_rank(pawn.start))
        else:
            for rank in range(8):
                if self.blocked_mask & chess.BB_SQUARES[chess.square(file, rank)]:
                    self.model.add(var != rank)
        return var

    @staticmethod
    def promoted_value(pawn: _Pawn) -> int:
        return 7 if pawn.color == chess.WHITE else 0

    def order(self, column: list[int], ranks: dict[int, Rank]) -> None:
        """The pawns of ``column`` stand in its order, bottom to top (two pawns of a colour
        may share the promotion rank: both have promoted)."""
        model = self.model
        for lower, upper in zip(column, column[1:], strict=False):
            low, up = self.pawns[lower], self.pawns[upper]
            low_rank, up_rank = ranks[lower], ranks[upper]
            if isinstance(low_rank, int) and isinstance(up_rank, int):
                front = up_rank if low.color == chess.WHITE else low_rank
                self.ok &= low_rank < up_rank or (low.color == up.color and front == self.promoted_value(low))
                continue
            if low.color == up.color:
                exempt = model.new_bool_var("")
                target = up_rank if low.color == chess.WHITE else low_rank
                model.add(target == self.promoted_value(low)).only_enforce_if(exempt)
                model.add(low_rank < up_rank).only_enforce_if(exempt.Not())
            else:
                model.add(low_rank < up_rank)

    def advance(self, pawn: _Pawn, earlier: Rank, later: Rank) -> None:
        """A pawn never moves backwards."""
        if isinstance(earlier, int) and isinstance(later, int):
            self.ok &= later >= earlier if pawn.color == chess.WHITE else later <= earlier
        elif pawn.color == chess.WHITE:
            self.model.add(later >= earlier)
        else:
            self.model.add(later <= earlier)

    def real_pawn(self, var: Rank) -> None:
        """A pawn (not a promoted one) stands on ranks 2 to 7."""
        self.model.add(var >= 1)
        self.model.add(var <= 6)

    def moment_before(self, step: int, current: dict[int, Rank]) -> dict[int, Rank]:
        """New rank variables of every pawn before kernel move ``step``, at or ahead of ``current``."""
        before: dict[int, Rank] = {}
        for file, column in enumerate(self.columns):
            for ident in column:
                var = self.new_rank(self.pawns[ident], file, f"b{step}")
                self.advance(self.pawns[ident], current[ident], var)
                before[ident] = var
            self.order(column, before)
        self.moments.append(
            [(ident, file, before[ident]) for file, column in enumerate(self.columns) for ident in column]
        )
        return before

    def play(self, step: int, move: KernelMove, before: dict[int, Rank]) -> tuple[dict[int, Rank], list[Note]]:
        """The pawn ranks after kernel move ``move`` and its notes; the columns are updated."""
        after = dict(before)
        notes: list[Note] = []
        if move.kind == PIECE_X_PIECE:
            pass
        elif move.kind == PIECE_X_PAWN:
            victim = self.columns[move.target].pop(move.target_index)
            self.pawns[victim].may_promote = True
            notes.append(("xP", move.target, before[victim], 0))
            del after[victim]
        else:
            notes.append(self._pawn_capture(step, move, before, after))
        return after, notes

    def _pawn_capture(self, step: int, move: KernelMove, before: dict[int, Rank], after: dict[int, Rank]) -> Note:
        """A pawn's capture (of a pawn, a piece or a promoted piece), maybe promoting."""
        model, columns, color = self.model, self.columns, move.color
        if move.kind == PAWN_X_PROMOTED:
            source = columns[move.captured]
            promoter = source.pop(-1 if color == chess.BLACK else 0)
            self.pawns[promoter].may_promote = True
            model.add(before[promoter] == self.promoted_value(self.pawns[promoter]))
            del after[promoter]
        mover = columns[move.file].pop(move.index)
        pawn = self.pawns[mover]
        self.real_pawn(before[mover])
        landing_rank: Rank
        if move.promotion >= 0:
            model.add(before[mover] == (6 if color == chess.WHITE else 1))
            landing_rank = 7 if color == chess.WHITE else 0
            del after[mover]
        else:
            landing_rank = self.new_rank(pawn, move.target, f"a{step}")
            model.add(landing_rank == before[mover] + _forward(color))
            self.real_pawn(landing_rank)
            after[mover] = landing_rank
        if move.kind == PAWN_X_PAWN:
            victim = columns[move.target][move.target_index]
            self.real_pawn(before[victim])
            en_passant = model.new_bool_var("")
            model.add(before[victim] == landing_rank).only_enforce_if(en_passant.Not())
            ep_rank = 4 if color == chess.WHITE else 3
            model.add(before[victim] == ep_rank).only_enforce_if(en_passant)
            model.add(before[mover] == ep_rank).only_enforce_if(en_passant)
            columns[move.target][move.target_index] = mover
            del after[victim]
        elif move.promotion < 0:
            columns[move.target].insert(move.target_index, mover)
        if move.kind == PAWN_X_PIECE and move.captured in (LIGHT_BISHOP, DARK_BISHOP):
            parity = 1 if move.captured == LIGHT_BISHOP else 0
            if isinstance(landing_rank, int):
                self.ok &= (move.target + landing_rank) % 2 == parity
            else:
                helper = model.new_int_var(0, 7, "")
                model.add(move.target + landing_rank == 2 * helper + parity)
        return ("P", move.file, before[mover], landing_rank)

    def reach_goal(self, goal: chess.Board, current: dict[int, Rank]) -> None:
        """After the last kernel move, every column's pawns end on the goal's squares of
        that file, the ones below and above them promoting (:func:`split_promotions`)."""
        final: dict[int, Rank] = {}
        for file, column in enumerate(self.columns):
            goal_squares = list(chess.SquareSet(goal.pawns & chess.BB_FILES[file]))
            goal_column = "".join("w" if goal.color_at(sq) == chess.WHITE else "b" for sq in goal_squares)
            letters = "".join("w" if self.pawns[i].color == chess.WHITE else "b" for i in column)
            split = split_promotions(letters, goal_column)
            if split is None:
                self.ok = False
                continue
            black, white = split
            for position, ident in enumerate(column):
                pawn = self.pawns[ident]
                if position < black or position >= len(column) - white:
                    pawn.may_promote = True
                    final[ident] = self.promoted_value(pawn)
                else:
                    final[ident] = chess.square_rank(goal_squares[position - black])
                self.advance(pawn, current[ident], final[ident])
            self.order(column, final)
        self.moments.append(
            [
                (ident, file, final[ident])
                for file, column in enumerate(self.columns)
                for ident in column
                if ident in final
            ]
        )
        for pawn in self.pawns:  # a pawn that never leaves the board as a piece is never "promoted"
            if not pawn.may_promote:
                for var in pawn.ranks:
                    self.real_pawn(var)

    def result(self) -> ExtendedModel:
        return ExtendedModel(self.model, self.ok, self.events, self.pawns, self.moments)


def extend_kernel(
    kernel: tuple[KernelMove, ...],
    init: chess.Board,
    goal: chess.Board,
    blocked_mask: int,
    *,
    time_limit: float = 10.0,
    late_pawns: bool = False,
    shuffle: int | None = None,
) -> ExtendedKernel:
    """Solve the model of ``kernel``. ``infeasible`` is a proof that no game follows the
    kernel; ``unknown`` means the solver ran out of time (never treated as a proof).

    ``late_pawns`` asks for the solution whose pawns advance as late as possible (the
    sum of all pawns' advancement over all moments is minimised): the plan the initial
    path (:mod:`astar.initial_path`) follows, where a pawn only leaves its square when
    a capture needs it and promotes only when the kernel makes it. Before the capture
    of a bishop, queen or rook that is still on its home square, the pawns in front of
    it should have opened a way out (:func:`_stuck_victims`; a victim left shut in costs
    as much as 100 pawn steps).

    ``shuffle`` (with ``late_pawns``), a seed: each pawn's advancement gets a random
    weight instead, 1, 2 or 3, or -1 (the pawn goes *early*), each with chance 1/4.
    Another plan for the initial path when the late one cannot be played, because it
    keeps home a pawn that has to make way (in Tromp's ``1rrb1k2/...`` the late plan's
    first capture, bxg2 with every pawn at home, can only be a knight's, giving check
    to a king that cannot move). Only the objective changes, never the feasibility."""
    start = time.monotonic()
    built = build_model(kernel, init, goal, blocked_mask)
    if late_pawns:
        late_pawn_objective(built, init, shuffle)
    if not built.feasible_by_construction:
        return ExtendedKernel(
            "infeasible", variables=built.variables, constraints=built.constraints, seconds=time.monotonic() - start
        )
    solver = cpsat.solve(built.model, {"max_time_in_seconds": time_limit, "num_workers": 1})
    status = solver.status
    seconds = time.monotonic() - start
    if status == cpsat.INFEASIBLE:
        return ExtendedKernel("infeasible", variables=built.variables, constraints=built.constraints, seconds=seconds)
    if status not in (cpsat.OPTIMAL, cpsat.FEASIBLE):
        return ExtendedKernel("unknown", variables=built.variables, constraints=built.constraints, seconds=seconds)
    moves = []
    for move, notes in built.events:
        c = "w" if move.color == chess.WHITE else "b"
        for tag, file, before, landing in notes:
            if tag == "xP":
                moves.append(f"{c}x{FILES[file]}{solver.value(before) + 1}")
            else:
                moves.append(
                    f"{c}P{FILES[file]}{solver.value(before) + 1}x{FILES[move.target]}{solver.value(landing) + 1}"
                )
        if move.kind == PIECE_X_PIECE:
            moves.append(str(move))
    plan = []
    for moment in built.moments:
        squares = []
        for ident, file, rank in moment:
            value = solver.value(rank)
            if 1 <= value <= 6:  # 7 (white) / 0 (black) stands for "has promoted"
                squares.append((chess.square(file, value), built.pawns[ident].color))
        plan.append(tuple(squares))
    return ExtendedKernel("found", tuple(moves), tuple(plan), built.variables, built.constraints, seconds)


def late_pawn_objective(built: ExtendedModel, init: chess.Board, shuffle: int | None) -> None:
    """The objective of :func:`extend_kernel`'s ``late_pawns`` and ``shuffle``."""
    if shuffle is None:
        weights = [1] * len(built.pawns)
    else:
        rng = random.Random(shuffle)
        weights = [rng.choice((-1, 1, 2, 3)) for _ in built.pawns]
    advance = []
    for moment in built.moments:
        for ident, _file, rank in moment:
            if not isinstance(rank, int):
                advance.append(weights[ident] * (rank if built.pawns[ident].color == chess.WHITE else -rank))
    stuck = _stuck_victims(built, init)
    built.model.minimize(sum(advance) + _RELEASE_WEIGHT * sum(stuck))


#: per (colour, victim kind): the home squares and the ways out, each a set of squares
#: in front that must be free of pawns (a rook needs two squares of a file, its own or
#: - once the knight has left - the knight's); Black's are White's mirrored, with the
#: bishop kinds swapped because mirroring swaps the square colours
_WHITE_EXITS = {
    LIGHT_BISHOP: ((chess.F1,), ((chess.E2,), (chess.G2,))),
    DARK_BISHOP: ((chess.C1,), ((chess.B2,), (chess.D2,))),
    QUEEN: ((chess.D1,), ((chess.C2,), (chess.D2,), (chess.E2,))),
    ROOK: (
        (chess.A1, chess.H1),
        ((chess.A2, chess.A3), (chess.B2, chess.B3), (chess.G2, chess.G3), (chess.H2, chess.H3)),
    ),
}
_MIRRORED_KIND = {LIGHT_BISHOP: DARK_BISHOP, DARK_BISHOP: LIGHT_BISHOP, QUEEN: QUEEN, ROOK: ROOK}
_EXITS = {(chess.WHITE, kind): exits for kind, exits in _WHITE_EXITS.items()}
_EXITS.update(
    {
        (chess.BLACK, _MIRRORED_KIND[kind]): (
            tuple(chess.square_mirror(sq) for sq in homes),
            tuple(tuple(chess.square_mirror(sq) for sq in way) for way in ways),
        )
        for kind, (homes, ways) in _WHITE_EXITS.items()
    }
)
_HOME_TYPES = {LIGHT_BISHOP: chess.BISHOP, DARK_BISHOP: chess.BISHOP, QUEEN: chess.QUEEN, ROOK: chess.ROOK}
_RELEASE_WEIGHT = 100


def _stuck_victims(built: ExtendedModel, init: chess.Board) -> list[cpsat.IntVar]:
    """For the late-pawn plan: one Boolean per kernel capture of a bishop, queen or rook
    still at home in ``init``, true unless one of its ways out (:data:`_EXITS`) is free
    of pawns before the capture (texel: "pieces ... blocked by own pawns, try to advance
    the pawns"). Only an objective term: it never changes feasibility."""
    stuck = []
    for step, (move, _notes) in enumerate(built.events):
        victim = not move.color
        if move.kind not in (PAWN_X_PIECE, PIECE_X_PIECE) or (victim, move.captured) not in _EXITS:
            continue
        homes, exits = _EXITS[(victim, move.captured)]
        if not any(init.piece_at(sq) == chess.Piece(_HOME_TYPES[move.captured], victim) for sq in homes):
            continue
        opened = []
        for way in exits:
            free = built.model.new_bool_var(f"free_{step}")
            for square in way:
                for _ident, file, rank in built.moments[step]:
                    if file != chess.square_file(square):
                        continue
                    if isinstance(rank, int):
                        if rank == chess.square_rank(square):
                            built.model.add(free == 0)
                    else:
                        built.model.add(rank != chess.square_rank(square)).only_enforce_if(free)
            opened.append(free)
        flag = built.model.new_bool_var(f"stuck_{step}")
        built.model.add_bool_or([*opened, flag])
        stuck.append(flag)
    return stuck

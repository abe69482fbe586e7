"""The KRK theorem's claims as CP-SAT models (paper, section 5.2; URSA there, OR-Tools here).

A claim is *proved* when CP-SAT answers INFEASIBLE for its negation; *refuted* when it
finds a counterexample (which is then re-checked with python-chess by
:mod:`retro.krk.position`). Each claim is split by the side to move of its root
position, so each model has a fixed move order; model sizes and times are reported.

Claims (P is an unknown initially legal position, "predecessor" as in
:mod:`retro.krk.position`, M the paper's measure, zero only on the two PFix positions):

1. **Descent** -- if P has a predecessor and P is not PFix, some retraction sequence
   P4 -> P3 -> P2 -> P1 -> P through initially legal positions has M(P4) < M(P).
   Negation: every position reachable by 4 retracted plies has M >= M(P). (The paper
   does not exclude PFix in its printed assertion; PFix has a predecessor and M = 0, so
   nothing can be smaller: the exclusion is needed for the claim to be true.)
2. **Paper's claim 2** -- every initially legal P1 that is a predecessor of some initially
   legal position has a predecessor itself. Negation: P1 has a move to an initially legal
   position and no predecessor. *This claim is false*: CP-SAT finds counterexamples,
   e.g. ``Kb3 Ra3 ka1``, Black to move (no White move can have given that check, yet
   ...Kb1 is a move). The paper's URSA listing evaluates ``LegalKRKPosition(nPos2)`` once,
   after its loop over the 24 + 8 move shapes, not for each retracted ``nPos2``; that would accept
   an illegal predecessor and may be why URSA answered "no solutions".
2'. **Descent to a retractable position** (replaces 1 and 2) -- as claim 1, with P4
   also having a predecessor. Negation: every position reachable by 4 retracted plies
   that has a predecessor has M >= M(P).

Why 2' and 3 (a proof game for PFix with either side to move) imply the theorem
"every initially legal position with an initially legal predecessor is legal": by
induction on M. M(P) = 0 means P is PFix, legal by 3. Otherwise 2' gives P4, initially
legal, with a predecessor and M(P4) < M(P): by induction P4 is legal, and P follows
from P4 by four legal moves (both ends of each KRK move are initially legal, so the
mover's king is never left in check). The paper uses 1 and 2 in place of 2'; since 2 is
false, 1 alone leaves P4 possibly without a predecessor, and the induction needs 2'.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import chess
from ortools.sat.python import cp_model

from retro.krk.position import KrkPosition, is_initially_legal, measure, predecessors, successors
from retro.krk.symbolic import COORDINATES, Encoder, Literal, SymbolicPosition

__all__ = [
    "ModelResult",
    "ClaimResult",
    "descent_model",
    "predecessor_model",
    "solve",
    "model_size",
    "prove_descent",
    "prove_paper_claim_2",
    "prove_all",
    "CLAIMS",
]

CLAIMS = {
    "1": "every initially legal P != PFix with a predecessor has a 4-ply retraction to P4 with M(P4) < M(P)",
    "2": "every initially legal predecessor P1 of an initially legal position has a predecessor (paper)",
    "2'": "as 1, with P4 also having a predecessor (replaces the paper's 1 and 2)",
}


@dataclass(frozen=True)
class ModelResult:
    """One CP-SAT model: the negation of a claim for one side to move of the root."""

    white_to_move: bool
    status: str  # CP-SAT status name
    variables: int
    constraints: int
    build_seconds: float
    solve_seconds: float
    counterexamples: tuple[KrkPosition, ...] = ()


@dataclass(frozen=True)
class ClaimResult:
    """``status``: proved (every negation INFEASIBLE), refuted (a checked counterexample), unknown."""

    claim: str
    statement: str
    status: str
    models: tuple[ModelResult, ...] = field(default=())

    @property
    def counterexamples(self) -> tuple[KrkPosition, ...]:
        return tuple(p for m in self.models for p in m.counterexamples)

    @property
    def seconds(self) -> float:
        return sum(m.build_seconds + m.solve_seconds for m in self.models)


def _root_position(encoder: Encoder, solver: cp_model.CpSolver, white_to_move: bool) -> KrkPosition:
    v = {name: solver.value(encoder.root_vars[name]) for name in COORDINATES}
    return KrkPosition(
        chess.square(v["wkx"], v["wky"]),
        chess.square(v["bkx"], v["bky"]),
        chess.square(v["wrx"], v["wry"]),
        white_to_move,
    )


def _has_predecessor(encoder: Encoder, position: SymbolicPosition, white_to_move: bool) -> Literal:
    """Some retraction (a move by the side not to move) leads to an initially legal position."""
    return encoder.or_(
        *[
            encoder.and_(m.ok, encoder.legal(m.to, not white_to_move))
            for m in encoder.moves(position, white_moves=not white_to_move)
        ]
    )


def _pin(encoder: Encoder, root: KrkPosition | None) -> None:
    if root is not None:
        encoder.fix_root(
            {
                "wkx": chess.square_file(root.white_king),
                "wky": chess.square_rank(root.white_king),
                "bkx": chess.square_file(root.black_king),
                "bky": chess.square_rank(root.black_king),
                "wrx": chess.square_file(root.white_rook),
                "wry": chess.square_rank(root.white_rook),
            }
        )


def solve(
    encoder: Encoder, *, time_limit: float = 600.0, workers: int = 1
) -> tuple[cp_model.CpSolver, cp_model.CpSolverStatus, float]:
    """Run CP-SAT; returns the solver, its status and the wall time."""
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = time_limit
    solver.parameters.num_workers = workers
    start = time.perf_counter()
    status = solver.solve(encoder.model)
    return solver, status, time.perf_counter() - start


def model_size(encoder: Encoder) -> tuple[int, int]:
    """(variables, constraints) of the model."""
    proto = encoder.model.proto
    return len(proto.variables), len(proto.constraints)


def _require(encoder: Encoder, literal: Literal) -> None:
    """Assert a literal (a False constant makes the model infeasible, as it should)."""
    if isinstance(literal, bool):
        if not literal:
            encoder.model.add_bool_or([])
    else:
        encoder.model.add_bool_and([literal])


def _retract_layer(
    encoder: Encoder, layer: dict[SymbolicPosition, Literal], white_to_move: bool
) -> dict[SymbolicPosition, Literal]:
    """The next layer of a retraction graph: positions one ply earlier, with their
    "reached" literal (initially legal, and some reached position retracts to it)."""
    incoming: dict[SymbolicPosition, list[Literal]] = {}
    for position, reached in layer.items():
        for move in encoder.moves(position, white_moves=not white_to_move):
            incoming.setdefault(move.to, []).append(encoder.and_(reached, move.ok))
    return {
        position: encoder.and_(encoder.legal(position, not white_to_move), encoder.or_(*ways))
        for position, ways in incoming.items()
    }


def descent_model(
    white_to_move: bool, *, plies: int = 4, retractable_end: bool = False, root: KrkPosition | None = None
) -> Encoder:
    """Negation of claim 1 (claim 2' with ``retractable_end``) for roots with this side to move.

    Layer k holds the distinct symbolic positions k retracted plies before the root P,
    each with a literal "reached": initially legal, and some incoming retraction starts
    from a reached position of layer k-1 and meets its own condition. (Move shapes that
    lead to the same symbolic position share one node.) Asserted: P initially legal, not
    PFix (M(P) >= 1), some layer-1 node reached (P has a predecessor), and for every node
    of the last layer: reached (and, for 2', having a predecessor) implies M >= M(P).
    ``root`` pins P to one position (then INFEASIBLE means the claim holds for it).
    """
    encoder = Encoder()
    _pin(encoder, root)
    _require(encoder, encoder.legal(encoder.root, white_to_move))
    root_measure = encoder.measure(encoder.root)
    encoder.model.add(root_measure >= 1)
    layer: dict[SymbolicPosition, Literal] = {encoder.root: True}
    side = white_to_move
    for ply in range(plies):
        layer = _retract_layer(encoder, layer, side)
        side = not side
        if ply == 0:
            _require(encoder, encoder.or_(*layer.values()))
    for position, reached in layer.items():
        condition = [reached]
        if retractable_end:
            condition.append(_has_predecessor(encoder, position, side))
        if any(c is False for c in condition):
            continue
        enforced = [c for c in condition if not isinstance(c, bool)]
        encoder.model.add(encoder.measure(position) >= root_measure).only_enforce_if(enforced)
    return encoder


def predecessor_model(white_to_move: bool, *, root: KrkPosition | None = None) -> Encoder:
    """Negation of the paper's claim 2 for P1 with this side to move: P1 initially legal,
    some move of P1 reaches an initially legal position (so P1 is a predecessor of it),
    and no retraction of P1 reaches one. (The paper states it with the successor P as the
    unknown; "P1 is a predecessor of a legal P" says the same.)"""
    encoder = Encoder()
    _pin(encoder, root)
    p1 = encoder.root
    _require(encoder, encoder.legal(p1, white_to_move))
    moves = [
        encoder.and_(m.ok, encoder.legal(m.to, not white_to_move)) for m in encoder.moves(p1, white_moves=white_to_move)
    ]
    _require(encoder, encoder.or_(*moves))
    _require(encoder, encoder.not_(_has_predecessor(encoder, p1, white_to_move)))
    return encoder


def _check_descent(position: KrkPosition, *, plies: int, retractable_end: bool) -> bool:
    """True when ``position`` really is a counterexample (python-chess move generation)."""
    if not is_initially_legal(position) or not predecessors(position) or measure(position) == 0:
        return False
    bound = measure(position)

    def descends(current: KrkPosition, depth: int) -> bool:
        if depth == 0:
            return measure(current) < bound and (not retractable_end or bool(predecessors(current)))
        return any(descends(before, depth - 1) for _, before in predecessors(current))

    return not descends(position, plies)


def _check_predecessor(position: KrkPosition) -> bool:
    return is_initially_legal(position) and bool(successors(position)) and not predecessors(position)


def _run(
    claim: str,
    build: Callable[..., Encoder],
    check: Callable[[KrkPosition], bool],
    *,
    time_limit: float,
    workers: int,
    enumerate_all: bool,
    root: KrkPosition | None,
) -> ClaimResult:
    models = []
    sides = (True, False) if root is None else (root.white_to_move,)
    for white_to_move in sides:
        start = time.perf_counter()
        encoder = build(white_to_move, root=root)
        build_seconds = time.perf_counter() - start
        variables, constraints = model_size(encoder)
        found: list[KrkPosition] = []
        solve_seconds = 0.0
        while True:
            solver, status, seconds = solve(encoder, time_limit=time_limit, workers=workers)
            solve_seconds += seconds
            if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                break
            position = _root_position(encoder, solver, white_to_move)
            if not check(position):
                raise AssertionError(f"claim {claim}: CP-SAT counterexample {position} fails the python-chess check")
            found.append(position)
            if not enumerate_all:
                break
            values = [solver.value(encoder.root_vars[name]) for name in COORDINATES]
            encoder.model.add_forbidden_assignments([encoder.root_vars[n] for n in COORDINATES], [values])
        name = "INFEASIBLE" if status == cp_model.INFEASIBLE and not found else solver.status_name(status)
        if found:
            name = f"FEASIBLE ({len(found)} counterexamples{', all' if status == cp_model.INFEASIBLE else ''})"
        models.append(
            ModelResult(white_to_move, name, variables, constraints, build_seconds, solve_seconds, tuple(found))
        )
    if any(m.counterexamples for m in models):
        verdict = "refuted"
    elif all(m.status == "INFEASIBLE" for m in models):
        verdict = "proved"
    else:
        verdict = "unknown"
    return ClaimResult(claim, CLAIMS.get(claim, claim), verdict, tuple(models))


def prove_descent(
    *,
    plies: int = 4,
    retractable_end: bool = False,
    root: KrkPosition | None = None,
    time_limit: float = 600.0,
    workers: int = 1,
    enumerate_all: bool = False,
) -> ClaimResult:
    """Claim 1 (or 2' with ``retractable_end``); ``plies`` other than 4 only for tests."""
    claim = ("2'" if retractable_end else "1") if plies == 4 else f"descent in {plies} plies"

    def build(white_to_move: bool, *, root: KrkPosition | None) -> Encoder:
        return descent_model(white_to_move, plies=plies, retractable_end=retractable_end, root=root)

    def check(position: KrkPosition) -> bool:
        return _check_descent(position, plies=plies, retractable_end=retractable_end)

    return _run(claim, build, check, time_limit=time_limit, workers=workers, enumerate_all=enumerate_all, root=root)


def prove_paper_claim_2(
    *, root: KrkPosition | None = None, time_limit: float = 600.0, workers: int = 1, enumerate_all: bool = True
) -> ClaimResult:
    """The paper's claim 2; with ``enumerate_all`` every counterexample is listed."""
    return _run(
        "2",
        predecessor_model,
        _check_predecessor,
        time_limit=time_limit,
        workers=workers,
        enumerate_all=enumerate_all,
        root=root,
    )


def prove_all(*, time_limit: float = 600.0, workers: int = 1) -> list[ClaimResult]:
    """Claims 1, 2 (with all its counterexamples) and 2'."""
    return [
        prove_descent(time_limit=time_limit, workers=workers),
        prove_paper_claim_2(time_limit=time_limit, workers=workers),
        prove_descent(retractable_end=True, time_limit=time_limit, workers=workers),
    ]

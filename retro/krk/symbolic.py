"""KRK positions as CP-SAT terms: the paper's URSA procedures (section 4) over OR-Tools.

A *symbolic position* is six coordinate terms (white king x, y; black king x, y; rook
x, y) for a fixed side to move. Every term is either ``P.c + k`` -- a coordinate ``c``
of the unknown root position ``P`` (an ``IntVar`` in 0..7) plus a constant -- or a
constant. This is exact for every position a few plies away from ``P``: a king step adds
a constant to the king's coordinates, and a rook move is written, as in the paper's
``NextMoveWhite`` (24 white moves: 8 king steps and 16 rook targets), as "the rook goes
to file ``t`` of its rank" or "to rank ``t`` of its file", so one rook coordinate becomes
the constant ``t``.

Conditions are literals: every comparison ``term_a - term_b <= k`` or ``== k`` is one
fully reified Boolean (cached, so the many positions of a model share them), folded to
a Python bool when its value does not depend on ``P`` (same variable on both sides, or
constants only). Conjunctions and disjunctions are fully reified too. Full reification
matters for soundness: in every model the truthful valuation (each literal equal to the
truth value of its condition for the root ``P``) satisfies the constraints, so an
INFEASIBLE answer rules out every ``P``.

Rules encoded (paper, 4.2-4.3): ``LegalKRKPosition`` (:meth:`Encoder.legal`), king steps
that stay on the board, rook moves along a rank or file over squares free of both kings,
and the measure M of section 5.2 (:meth:`Encoder.measure`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ortools.sat.python import cp_model, cp_model_helper

__all__ = ["Term", "SymbolicPosition", "Encoder", "Move", "COORDINATES", "KING_STEPS"]

COORDINATES = ("wkx", "wky", "bkx", "bky", "wrx", "wry")
KING_STEPS = tuple((dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy)

Term = tuple[str | None, int]
"""``(name, k)``: coordinate ``name`` of the root plus ``k``; ``(None, c)``: the constant ``c``."""

SymbolicPosition = tuple[Term, Term, Term, Term, Term, Term]
Literal = cp_model_helper.Literal | bool  # a BoolVar (possibly negated) or a constant


def constant(value: int) -> Term:
    return (None, value)


@dataclass(frozen=True)
class Move:
    """One of the 24 + 8 move shapes applied to a symbolic position (``to`` is the other end)."""

    label: str
    to: SymbolicPosition
    ok: Literal  # the move's own condition (rook path free, not a null move)


class Encoder:
    """A CP-SAT model over the root coordinates, with cached reified conditions."""

    def __init__(self) -> None:
        self.model = cp_model.CpModel()
        self.root_vars = {name: self.model.new_int_var(0, 7, name) for name in COORDINATES}
        self.root: SymbolicPosition = tuple((name, 0) for name in COORDINATES)  # type: ignore[assignment]
        self._atoms: dict[tuple, Literal] = {}
        self._gates: dict[tuple, Literal] = {}
        self._ints: dict[tuple, cp_model.IntVar] = {}

    # --- comparisons -------------------------------------------------------------
    def _linear(self, a: str | None, b: str | None) -> cp_model.LinearExpr | int:
        expr: cp_model.LinearExpr | int = 0
        if a is not None:
            expr = self.root_vars[a]
        if b is not None:
            expr = expr - self.root_vars[b]
        return expr

    def compare(self, a: Term, b: Term, k: int, *, equal: bool = False) -> Literal:
        """Literal of ``a - b == k`` (``equal``) or ``a - b <= k``."""
        (name_a, off_a), (name_b, off_b) = a, b
        if name_a == name_b:
            name_a = name_b = None
        bound = k - off_a + off_b  # var_a - var_b (op) bound
        if equal and (name_a is None or (name_b is not None and name_a > name_b)):
            name_a, name_b, bound = name_b, name_a, -bound  # one key per equation
        low = -7 if name_b is not None else 0  # range of var_a - var_b
        high = 7 if name_a is not None else 0
        if equal:
            if not low <= bound <= high:
                return False
            if name_a is None and name_b is None:
                return True
        else:
            if bound >= high:
                return True
            if bound < low:
                return False
        key = ("eq" if equal else "le", name_a, name_b, bound)
        if key not in self._atoms:
            literal = self.model.new_bool_var(f"{key[0]}({name_a}-{name_b},{bound})")
            expr = self._linear(name_a, name_b)
            if equal:
                self.model.add(expr == bound).only_enforce_if(literal)
                self.model.add(expr != bound).only_enforce_if(literal.Not())
            else:
                self.model.add(expr <= bound).only_enforce_if(literal)
                self.model.add(expr >= bound + 1).only_enforce_if(literal.Not())
            self._atoms[key] = literal
        return self._atoms[key]

    def eq(self, a: Term, b: Term) -> Literal:
        return self.compare(a, b, 0, equal=True)

    def lt(self, a: Term, b: Term) -> Literal:
        return self.compare(a, b, -1)

    # --- Boolean gates -----------------------------------------------------------
    @staticmethod
    def not_(literal: Literal) -> Literal:
        return (not literal) if isinstance(literal, bool) else literal.Not()

    def _gate(self, kind: str, literals: Iterable[Literal]) -> Literal:
        absorbing = kind == "or"  # True absorbs an OR, False absorbs an AND
        seen: dict[int, cp_model_helper.Literal] = {}
        for literal in literals:
            if isinstance(literal, bool):
                if literal == absorbing:
                    return absorbing
                continue
            seen[literal.Index()] = literal
        if not seen:
            return not absorbing
        if len(seen) == 1:
            return next(iter(seen.values()))
        key = (kind, tuple(sorted(seen)))
        if key not in self._gates:
            gate = self.model.new_bool_var(kind)
            items = list(seen.values())
            if kind == "and":  # gate <-> all items
                self.model.add_bool_and(items).only_enforce_if(gate)
                self.model.add_bool_or([x.Not() for x in items]).only_enforce_if(gate.Not())
            else:  # gate <-> some item
                self.model.add_bool_or(items).only_enforce_if(gate)
                self.model.add_bool_and([x.Not() for x in items]).only_enforce_if(gate.Not())
            self._gates[key] = gate
        return self._gates[key]

    def and_(self, *literals: Literal) -> Literal:
        return self._gate("and", literals)

    def or_(self, *literals: Literal) -> Literal:
        return self._gate("or", literals)

    # --- chess rules (paper, 4.1-4.3) -------------------------------------------------
    def on_board(self, term: Term) -> Literal:
        return self.and_(self.compare(constant(0), term, 0), self.compare(term, constant(7), 0))

    def same_square(self, x1: Term, y1: Term, x2: Term, y2: Term) -> Literal:
        return self.and_(self.eq(x1, x2), self.eq(y1, y2))

    def strictly_between(self, a: Term, b: Term, c: Term) -> Literal:
        """a < b < c or c < b < a (on one line)."""
        return self.or_(self.and_(self.lt(a, b), self.lt(b, c)), self.and_(self.lt(c, b), self.lt(b, a)))

    def between(self, first: tuple[Term, Term], middle: tuple[Term, Term], last: tuple[Term, Term]) -> Literal:
        """The paper's ``Between``: ``middle`` strictly between the others on a file or rank."""
        (x1, y1), (x2, y2), (x3, y3) = first, middle, last
        return self.or_(
            self.and_(self.eq(x1, x2), self.eq(x2, x3), self.strictly_between(y1, y2, y3)),
            self.and_(self.eq(y1, y2), self.eq(y2, y3), self.strictly_between(x1, x2, x3)),
        )

    def legal(self, position: SymbolicPosition, white_to_move: bool) -> Literal:
        """The paper's ``LegalKRKPosition``, plus "the kings are on the board"."""
        wkx, wky, bkx, bky, wrx, wry = position
        kings_apart = self.or_(
            self.compare(wkx, bkx, -2),
            self.compare(bkx, wkx, -2),
            self.compare(wky, bky, -2),
            self.compare(bky, wky, -2),
        )
        parts = [self.on_board(t) for t in (wkx, wky, bkx, bky)]
        parts += [
            self.not_(self.same_square(wkx, wky, wrx, wry)),
            kings_apart,
            self.not_(self.same_square(wrx, wry, bkx, bky)),
        ]
        if white_to_move:
            in_line = self.or_(self.eq(wrx, bkx), self.eq(wry, bky))
            blocked = self.between((wrx, wry), (wkx, wky), (bkx, bky))
            parts.append(self.not_(self.and_(in_line, self.not_(blocked))))
        return self.and_(*parts)

    def _path_free(self, along: Term, across: Term, target: int, kings: list[tuple[Term, Term]]) -> Literal:
        """No king strictly between ``along`` and ``target`` on the rook's line ``across``
        (kings given as (coordinate along the line, coordinate across it))."""
        blocked = [
            self.and_(self.eq(k_across, across), self.strictly_between(along, k_along, constant(target)))
            for k_along, k_across in kings
        ]
        return self.and_(self.not_(self.eq(along, constant(target))), *[self.not_(b) for b in blocked])

    def moves(self, position: SymbolicPosition, white_moves: bool) -> list[Move]:
        """The move shapes of one side: 8 king steps, and for White 16 rook targets.

        The same shapes serve forwards (``to`` is the position after the move) and
        backwards (``to`` is the position before it): a king step and a rook slide over
        free squares are reversible, so only the side that moves differs.
        """
        wkx, wky, bkx, bky, wrx, wry = position
        out: list[Move] = []
        king = (0, 1) if white_moves else (2, 3)
        for dx, dy in KING_STEPS:
            terms = list(position)
            for index, delta in zip(king, (dx, dy), strict=True):
                name, offset = terms[index]
                terms[index] = (name, offset + delta)
            label = f"{'K' if white_moves else 'k'}{dx:+d}{dy:+d}"
            out.append(Move(label, tuple(terms), True))  # type: ignore[arg-type]
        if white_moves:
            for target in range(8):
                ok = self._path_free(wrx, wry, target, [(wkx, wky), (bkx, bky)])
                out.append(Move(f"R x={target}", (wkx, wky, bkx, bky, constant(target), wry), ok))
                ok = self._path_free(wry, wrx, target, [(wky, wkx), (bky, bkx)])
                out.append(Move(f"R y={target}", (wkx, wky, bkx, bky, wrx, constant(target)), ok))
        return out

    # --- the measure (paper, 5.2) --------------------------------------------------
    def _distance_to(self, term: Term, target: int) -> cp_model.IntVar:
        name, offset = term
        assert name is not None, "a constant has no distance variable"
        key = ("abs", name, offset - target)
        if key not in self._ints:
            var = self.model.new_int_var(0, 14, f"|{name}{offset - target:+d}|")
            self.model.add_abs_equality(var, self.root_vars[name] + (offset - target))
            self._ints[key] = var
        return self._ints[key]

    def _king_part(self, x: Term, y: Term, target: tuple[int, int]) -> cp_model.LinearExpr:
        dx, dy = self._distance_to(x, target[0]), self._distance_to(y, target[1])
        key = ("max", dx.Index(), dy.Index())
        if key not in self._ints:
            var = self.model.new_int_var(0, 14, "chebyshev")
            self.model.add_max_equality(var, [dx, dy])
            self._ints[key] = var
        return 2 * self._ints[key] + dx + dy

    def measure(self, position: SymbolicPosition) -> cp_model.LinearExpr | int:
        """M = 2*CDWK + MDWK + 2*CDBK + MDBK + DWR, targets e5 (4,4), c5 (2,4), h1 (7,0)."""
        wkx, wky, bkx, bky, wrx, wry = position
        rook_on_file, rook_on_rank = self.eq(wrx, constant(7)), self.eq(wry, constant(0))
        dwr: cp_model.LinearExpr | int = 2
        for on_line in (rook_on_file, rook_on_rank):
            dwr = dwr - (int(on_line) if isinstance(on_line, bool) else on_line)
        return self._king_part(wkx, wky, (4, 4)) + self._king_part(bkx, bky, (2, 4)) + dwr

    def fix_root(self, values: dict[str, int]) -> None:
        """Pin root coordinates (for checks on one position or a slice of positions)."""
        for name, value in values.items():
            self.model.add(self.root_vars[name] == value)

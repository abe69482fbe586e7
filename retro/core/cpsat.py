"""Small CP-SAT models written as OR-Tools' public ``CpModelProto`` and solved without
``ortools.sat.python.cp_model``, whose import loads pandas and NumPy for its pandas helpers
(about 0.3 s, most of the time a refuted position takes).

:class:`Model` has the building methods of ``cp_model.CpModel`` that the pawn-fates model
uses (``new_int_var``, ``new_bool_var``, ``add`` of a linear comparison, ``add_bool_or``,
``add_bool_and``, ``add_exactly_one``, ``add_implication``, ``only_enforce_if``, ``Not``)
and writes the model in the protobuf text format of ``ortools/sat/cp_model.proto``: the
fields ``variables.domain``, ``constraints.enforcement_literal``, ``linear`` (``vars``,
``coeffs``, ``domain``), ``bool_or``, ``bool_and``, ``exactly_one`` (``literals``), a
negated literal ``-i - 1``. The proto is CP-SAT's documented, versioned model format, so
the model means the same to every release.

:func:`solve` returns the ``CpSolverStatus`` number of cp_model.proto (0 unknown, 2
feasible, 3 infeasible, 4 optimal) of one single-worker solve without presolve and LP
relaxation (these small models solve 2-3x faster so). Two ways, the same model and
parameters:

- *native* (:func:`solve_native`): the compiled ``cp_model_helper``'s ``CpModelProto``,
  ``SatParameters`` (each parsed from its text format) and ``SolveWrapper``, which
  ``cp_model.CpSolver.solve`` itself calls. These names are not documented, so this way is
  taken only on the OR-Tools releases it was tested on (:data:`NATIVE_RELEASES`);
- *cp_model* (:func:`solve_cp_model`): the documented API, the text parsed into a
  ``CpModel``'s proto and solved by ``CpSolver``; every other release.

``tests/retro/test_cpsat.py`` checks that both ways give the same status on the dev
positions' pawn-fates models.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Union

__all__ = ["Model", "IntVar", "LinearExpr", "solve", "solve_native", "solve_cp_model", "INFEASIBLE", "FEASIBLE"]

UNKNOWN, MODEL_INVALID, FEASIBLE, INFEASIBLE, OPTIMAL = 0, 1, 2, 3, 4
"""``CpSolverStatus`` of cp_model.proto."""

NATIVE_RELEASES = ("9.15.",)
"""OR-Tools version prefixes on which :func:`solve_native` was checked against
:func:`solve_cp_model` (``tests/retro/test_cpsat.py``)."""

INT_MIN, INT_MAX = -(2**63), 2**63 - 1

Term = Union["LinearExpr", int]


class LinearExpr:
    """A linear expression: ``sum(coeff * variable) + constant`` (variables by index)."""

    __slots__ = ("terms", "constant")

    def __init__(self, terms: dict[int, int] | None = None, constant: int = 0) -> None:
        self.terms = terms or {}
        self.constant = constant

    @staticmethod
    def of(value: Term) -> LinearExpr:
        return value if isinstance(value, LinearExpr) else LinearExpr({}, int(value))

    def _combine(self, other: Term, sign: int) -> LinearExpr:
        other = LinearExpr.of(other)
        terms = dict(self.terms)
        for index, coeff in other.terms.items():
            terms[index] = terms.get(index, 0) + sign * coeff
        return LinearExpr(terms, self.constant + sign * other.constant)

    def __add__(self, other: Term) -> LinearExpr:
        return self._combine(other, 1)

    __radd__ = __add__

    def __sub__(self, other: Term) -> LinearExpr:
        return self._combine(other, -1)

    def __rsub__(self, other: Term) -> LinearExpr:
        return LinearExpr.of(other)._combine(self, -1)

    def __mul__(self, factor: int) -> LinearExpr:
        return LinearExpr({i: c * factor for i, c in self.terms.items()}, self.constant * factor)

    __rmul__ = __mul__

    def _bounded(self, other: Term, low: int, high: int) -> Bounded:
        """``low <= self - other <= high`` (``INT_MIN`` / ``INT_MAX``: unbounded)."""
        return Bounded(self - other, [(low, high)])

    def __eq__(self, other: object) -> Bounded:  # type: ignore[override]
        return self._bounded(other, 0, 0)  # type: ignore[arg-type]

    def __ne__(self, other: object) -> Bounded:  # type: ignore[override]
        return Bounded(self - other, [(INT_MIN, -1), (1, INT_MAX)])  # type: ignore[operator]

    def __le__(self, other: Term) -> Bounded:
        return self._bounded(other, INT_MIN, 0)

    def __ge__(self, other: Term) -> Bounded:
        return self._bounded(other, 0, INT_MAX)

    __hash__ = object.__hash__


class IntVar(LinearExpr):
    """A variable of a :class:`Model` (a Boolean one when its domain is 0..1)."""

    __slots__ = ("index",)

    def __init__(self, index: int) -> None:
        super().__init__({index: 1}, 0)
        self.index = index

    def Not(self) -> Literal:  # noqa: N802 (cp_model's name)
        return Literal(-self.index - 1)


class Literal:
    """The negation of a Boolean :class:`IntVar` (only as a literal of a clause)."""

    __slots__ = ("index",)

    def __init__(self, index: int) -> None:
        self.index = index

    def Not(self) -> Literal:  # noqa: N802
        return Literal(-self.index - 1)


LiteralLike = IntVar | Literal | bool


class Bounded:
    """``expression`` within the union of ``intervals``: what a comparison gives."""

    __slots__ = ("expression", "intervals")

    def __init__(self, expression: LinearExpr, intervals: list[tuple[int, int]]) -> None:
        self.expression = expression
        self.intervals = intervals


class Constraint:
    """One constraint of the proto; :meth:`only_enforce_if` adds enforcement literals."""

    __slots__ = ("body", "enforcement")

    def __init__(self, body: str) -> None:
        self.body = body
        self.enforcement: list[int] = []

    def only_enforce_if(self, literals: LiteralLike | Iterable[LiteralLike]) -> Constraint:
        items = [literals] if isinstance(literals, (IntVar, Literal, bool)) else list(literals)
        self.enforcement.extend(_literal(item) for item in items)
        return self

    def text(self) -> str:
        enforcement = "".join(f"enforcement_literal: {i} " for i in self.enforcement)
        return f"constraints {{ {enforcement}{self.body} }}\n"


class Model:
    """A CP-SAT model; :meth:`proto_text` is its ``CpModelProto`` in text format."""

    def __init__(self) -> None:
        self.domains: list[tuple[int, int]] = []
        self.constraints: list[Constraint] = []
        self._true: IntVar | None = None

    def new_int_var(self, lb: int, ub: int, name: str = "") -> IntVar:
        self.domains.append((lb, ub))
        return IntVar(len(self.domains) - 1)

    def new_bool_var(self, name: str = "") -> IntVar:
        return self.new_int_var(0, 1, name)

    def _constraint(self, body: str) -> Constraint:
        self.constraints.append(Constraint(body))
        return self.constraints[-1]

    def add(self, ct: Bounded | bool) -> Constraint:
        """A linear constraint; a Python bool (a comparison of constants): True adds an
        empty conjunction, False an empty clause, as ``CpModel.add`` does."""
        if isinstance(ct, bool):
            return self._constraint("bool_and { }" if ct else "bool_or { }")
        if not isinstance(ct, Bounded):
            raise TypeError(f"not supported: Model.add({type(ct).__name__!r})")
        terms = {i: c for i, c in ct.expression.terms.items() if c}
        shift = ct.expression.constant
        bounds = []
        for low, high in ct.intervals:
            bounds += [low if low == INT_MIN else low - shift, high if high == INT_MAX else high - shift]
        body = "".join(f"vars: {i} coeffs: {c} " for i, c in terms.items())
        return self._constraint("linear { " + body + "".join(f"domain: {b} " for b in bounds) + "}")

    def _literals(self, kind: str, literals: Iterable[LiteralLike]) -> Constraint:
        body = "".join(f"literals: {_literal(item, self)} " for item in literals)
        return self._constraint(f"{kind} {{ {body}}}")

    def add_bool_or(self, literals: Iterable[LiteralLike]) -> Constraint:
        return self._literals("bool_or", literals)

    def add_bool_and(self, literals: Iterable[LiteralLike]) -> Constraint:
        return self._literals("bool_and", literals)

    def add_exactly_one(self, literals: Iterable[LiteralLike]) -> Constraint:
        return self._literals("exactly_one", literals)

    def add_implication(self, a: LiteralLike, b: LiteralLike) -> Constraint:
        return self.add_bool_and([b]).only_enforce_if(a)

    def true_literal(self) -> IntVar:
        """A variable fixed to 1 (how a Python bool becomes a literal)."""
        if self._true is None:
            self._true = self.new_int_var(1, 1)
        return self._true

    def proto_text(self) -> str:
        variables = "".join(f"variables {{ domain: {lb} domain: {ub} }}\n" for lb, ub in self.domains)
        return variables + "".join(ct.text() for ct in self.constraints)


def _literal(item: LiteralLike, model: Model | None = None) -> int:
    """The proto index of a literal (``-i - 1`` for the negation of variable i)."""
    if isinstance(item, bool):
        if model is None:
            raise TypeError("a constant literal needs its model")
        true = model.true_literal().index
        return true if item else -true - 1
    return item.index


def _parameters_text(time_limit: float) -> str:
    return f"max_time_in_seconds: {float(time_limit)!r} num_workers: 1 cp_model_presolve: false linearization_level: 0"


def native_available() -> bool:
    """Whether this OR-Tools release is one of :data:`NATIVE_RELEASES`."""
    import ortools

    return str(getattr(ortools, "__version__", "")).startswith(NATIVE_RELEASES)


def solve_native(text: str, time_limit: float) -> int:
    """The status of the model ``text`` solved through the compiled helper (see the module
    docstring)."""
    from ortools.sat.python import cp_model_helper as cmh

    proto = cmh.CpModelProto()
    parameters = cmh.SatParameters()
    if not proto.parse_text_format(text) or not parameters.parse_text_format(_parameters_text(time_limit)):
        raise ValueError("CP-SAT did not parse the model")
    wrapper = cmh.SolveWrapper()
    wrapper.set_parameters(parameters)
    return int(wrapper.solve(proto).status)


def solve_cp_model(text: str, time_limit: float) -> int:
    """The status of the model ``text`` solved through ``cp_model.CpSolver``."""
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    proto = model.proto
    if hasattr(proto, "parse_text_format"):  # 9.15: the helper's own proto class
        proto.parse_text_format(text)
    else:  # earlier releases: the Python protobuf message
        from google.protobuf import text_format

        text_format.Parse(text, proto)
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = time_limit
    solver.parameters.num_workers = 1
    solver.parameters.cp_model_presolve = False
    solver.parameters.linearization_level = 0
    return int(solver.solve(model))


def solve(model: Model, time_limit: float) -> int:
    """The status of ``model``: :func:`solve_native` on the releases of
    :data:`NATIVE_RELEASES`, :func:`solve_cp_model` on the others."""
    text = model.proto_text()
    return solve_native(text, time_limit) if native_available() else solve_cp_model(text, time_limit)

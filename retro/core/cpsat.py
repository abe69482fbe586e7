"""Small CP-SAT models written as OR-Tools' public ``CpModelProto`` and solved without
``ortools.sat.python.cp_model``, whose import loads pandas and NumPy for its pandas helpers
(about 0.3 s, most of the time a refuted position takes).

:class:`Model` has the building methods of ``cp_model.CpModel`` that the pawn-fates model
and the extended proof kernel use (``new_int_var``, ``new_bool_var``, ``add`` of a linear
comparison, ``add_bool_or``, ``add_bool_and``, ``add_exactly_one``, ``add_implication``,
``only_enforce_if``, ``Not``, ``minimize``) and writes the model in the protobuf text
format of ``ortools/sat/cp_model.proto``: the fields ``variables`` (``name``, ``domain``),
``constraints.enforcement_literal``, ``linear`` (``vars``, ``coeffs``, ``domain``),
``bool_or``, ``bool_and``, ``exactly_one`` (``literals``), ``objective`` (``vars``,
``coeffs``, ``offset``, ``scaling_factor``), a negated literal ``-i - 1``. The proto is
CP-SAT's documented, versioned model format, so the model means the same to every release.

:func:`solve` returns a :class:`Solution`: the ``CpSolverStatus`` number of cp_model.proto
(0 unknown, 2 feasible, 3 infeasible, 4 optimal) and the variables' values, of a solve
with the given ``SatParameters`` fields. Two ways, the same model and parameters:

- *native* (:func:`solve_native`): the compiled ``cp_model_helper``'s ``CpModelProto``,
  ``SatParameters`` (each parsed from its text format) and ``SolveWrapper``, which
  ``cp_model.CpSolver.solve`` itself calls. These names are not documented, so this way is
  taken only on the OR-Tools releases it was tested on (:data:`NATIVE_RELEASES`);
- *cp_model* (:func:`solve_cp_model`): the documented API, the text parsed into a
  ``CpModel``'s proto and solved by ``CpSolver``; every other release.

``tests/retro/test_cpsat.py`` checks that the text is, field for field, the proto that
``cp_model.CpModel`` builds by the same calls (names, the order of the terms, the
domains), and that both ways give the same answers on the dev positions' models.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Union

__all__ = [
    "Model",
    "Expression",
    "IntVar",
    "LinearExpr",
    "Solution",
    "solve",
    "solve_native",
    "solve_cp_model",
    "INFEASIBLE",
    "FEASIBLE",
    "OPTIMAL",
]

UNKNOWN, MODEL_INVALID, FEASIBLE, INFEASIBLE, OPTIMAL = 0, 1, 2, 3, 4
"""``CpSolverStatus`` of cp_model.proto."""

NATIVE_RELEASES = ("9.15.",)
"""OR-Tools version prefixes on which :func:`solve_native` was checked against
:func:`solve_cp_model` (``tests/retro/test_cpsat.py``)."""

INT_MIN, INT_MAX = -(2**63), 2**63 - 1

Term = Union["Expression", int]
Parameters = dict[str, float | int | bool]
"""``SatParameters`` fields and their values."""


class Expression:
    """A linear expression: ``sum(coeff * variable) + constant`` (variables by index).
    Its two kinds, :class:`LinearExpr` and :class:`IntVar`, are siblings, not subclass and
    class, so that ``expression == variable`` is ``expression - variable`` as in
    ``cp_model`` (Python tries a right operand's reflected comparison first when its class
    derives from the left operand's)."""

    __slots__ = ("terms", "constant")

    def __init__(self, terms: dict[int, int] | None = None, constant: int = 0) -> None:
        self.terms = terms or {}
        self.constant = constant

    @staticmethod
    def of(value: Term) -> Expression:
        return value if isinstance(value, Expression) else LinearExpr({}, int(value))

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

    def __neg__(self) -> LinearExpr:
        return self * -1

    def __lt__(self, other: Term) -> Bounded:
        return self._bounded(other, INT_MIN, -1)

    def __gt__(self, other: Term) -> Bounded:
        return self._bounded(other, 1, INT_MAX)

    def __le__(self, other: Term) -> Bounded:
        return self._bounded(other, INT_MIN, 0)

    def __ge__(self, other: Term) -> Bounded:
        return self._bounded(other, 0, INT_MAX)

    __hash__ = object.__hash__


class LinearExpr(Expression):
    """A linear expression made by arithmetic."""

    __slots__ = ()


class IntVar(Expression):
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

    def __init__(self, expression: Expression, intervals: list[tuple[int, int]]) -> None:
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
        self.domains: list[tuple[int, int, str]] = []
        self.constraints: list[Constraint] = []
        self.objective = ""
        self._true: IntVar | None = None

    def new_int_var(self, lb: int, ub: int, name: str = "") -> IntVar:
        self.domains.append((lb, ub, name))
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
        shift = ct.expression.constant
        bounds = []
        for low, high in ct.intervals:
            bounds += [low if low == INT_MIN else low - shift, high if high == INT_MAX else high - shift]
        body = _terms_text(ct.expression)
        return self._constraint("linear { " + body + "".join(f"domain: {b} " for b in bounds) + "}")

    def minimize(self, expression: Expression | int) -> None:
        """The objective: minimise ``expression``."""
        expression = LinearExpr.of(expression)
        offset = f"offset: {float(expression.constant)!r} " if expression.constant else ""
        self.objective = f"objective {{ {_terms_text(expression)}{offset}scaling_factor: 1 }}\n"

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
        variables = "".join(
            f"variables {{ {f'name: {json.dumps(name)} ' if name else ''}domain: {lb} domain: {ub} }}\n"
            for lb, ub, name in self.domains
        )
        return variables + "".join(ct.text() for ct in self.constraints) + self.objective


def _terms_text(expression: Expression) -> str:
    """The ``vars`` and ``coeffs`` of ``expression``, by variable index, zeros left out."""
    terms = sorted((i, c) for i, c in expression.terms.items() if c)
    return "".join(f"vars: {i} " for i, _ in terms) + "".join(f"coeffs: {c} " for _, c in terms)


def _literal(item: LiteralLike, model: Model | None = None) -> int:
    """The proto index of a literal (``-i - 1`` for the negation of variable i)."""
    if isinstance(item, bool):
        if model is None:
            raise TypeError("a constant literal needs its model")
        true = model.true_literal().index
        return true if item else -true - 1
    return item.index


def _parameters_text(parameters: Parameters) -> str:
    words = {True: "true", False: "false"}
    return " ".join(
        f"{key}: {words[value] if isinstance(value, bool) else repr(value)}" for key, value in parameters.items()
    )


class Solution:
    """The status of a solve and, when feasible, the value of every variable."""

    __slots__ = ("status", "values")

    def __init__(self, status: int, values: list[int]) -> None:
        self.status = status
        self.values = values

    def value(self, expression: Expression | int) -> int:
        if isinstance(expression, int):
            return expression
        return expression.constant + sum(c * self.values[i] for i, c in expression.terms.items())


def native_available() -> bool:
    """Whether this OR-Tools release is one of :data:`NATIVE_RELEASES`."""
    import ortools

    return str(getattr(ortools, "__version__", "")).startswith(NATIVE_RELEASES)


def solve_native(text: str, parameters: Parameters) -> Solution:
    """The model ``text`` solved through the compiled helper (see the module docstring)."""
    from ortools.sat.python import cp_model_helper as cmh

    proto = cmh.CpModelProto()
    sat_parameters = cmh.SatParameters()
    if not proto.parse_text_format(text) or not sat_parameters.parse_text_format(_parameters_text(parameters)):
        raise ValueError("CP-SAT did not parse the model")
    wrapper = cmh.SolveWrapper()
    wrapper.set_parameters(sat_parameters)
    response = wrapper.solve(proto)
    return Solution(int(response.status), list(response.solution))


def solve_cp_model(text: str, parameters: Parameters) -> Solution:
    """The model ``text`` solved through ``cp_model.CpSolver``."""
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    proto = model.proto
    if hasattr(proto, "parse_text_format"):  # 9.15: the helper's own proto class
        proto.parse_text_format(text)
    else:  # earlier releases: the Python protobuf message
        from google.protobuf import text_format

        text_format.Parse(text, proto)
    solver = cp_model.CpSolver()
    for key, value in parameters.items():
        setattr(solver.parameters, key, value)
    status = int(solver.solve(model))
    return Solution(status, list(solver.response_proto.solution))


def solve(model: Model, parameters: Parameters) -> Solution:
    """``model`` solved with ``parameters`` (``SatParameters`` fields): :func:`solve_native`
    on the releases of :data:`NATIVE_RELEASES`, :func:`solve_cp_model` on the others."""
    text = model.proto_text()
    return solve_native(text, parameters) if native_available() else solve_cp_model(text, parameters)

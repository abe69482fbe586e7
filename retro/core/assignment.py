"""The least total cost of giving each row of a cost matrix its own column (lists of ints).

The static rules (:mod:`retro.core.rules`, 15 x 15 matrices) and the shortest-proof-game
bounds (:mod:`retro.spg.bounds`, one row per free unit, at most 16, solved at every node)
both need it; this pure-Python solver keeps NumPy and SciPy out of ``retro check`` and
``retro spg`` and costs less per call than building an array for
``scipy.optimize.linear_sum_assignment`` at these sizes.

* **Start.** Row potentials ``u[i]`` = the row's minimum, column potentials ``v = 0``:
  every reduced cost ``cost[i][j] - u[i] - v[j]`` is non-negative (a feasible dual). Each
  row in turn takes its first minimal column when that column is still free: these
  edges have reduced cost 0 (tight), so the partial matching and the potentials satisfy
  the invariant of the method below.
* **Augmenting.** For each row left unmatched, the shortest-augmenting-path form of the
  Hungarian method (Kuhn-Munkres with potentials, as in Jonker and Volgenant): Dijkstra's
  search over the reduced costs finds the cheapest alternating path from the row to a
  free column, the potentials are raised by the path lengths (keeping the dual feasible
  and the matched edges tight), and the matching is augmented along it. After the last
  row every row has its column and the matching is tight for a feasible dual, hence a
  cheapest one (linear-programming duality of the assignment problem); with as many
  columns as rows its cost equals the dual's ``sum(u) + sum(v)``, a lower bound on every
  perfect assignment, which :class:`RowChange` uses.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["RowChange", "least_assignment", "least_assignment_dual", "min_cost_assignment"]


def least_assignment(cost: list[list[int]]) -> int:
    """The least total of ``cost[i][p(i)]`` over the permutations ``p`` of the columns of a
    square matrix: the optimal dual's ``sum(u) + sum(v)`` (module docstring)."""
    u, v, _ = _potentials(cost)
    return sum(u) + sum(v) - v[0]


def least_assignment_dual(cost: list[list[int]]) -> tuple[int, list[int], list[int]]:
    """:func:`least_assignment` and an optimal dual: ``(total, u, v)``, 0-based, with
    ``cost[i][j] >= u[i] + v[j]`` for every ``i``, ``j`` and ``total = sum(u) + sum(v)``.
    By weak duality, a matrix with rows replaced costs at least ``sum(v)`` plus, over its
    rows, ``u[i]`` for a row kept and ``min_j (row[j] - v[j])`` for a new one (those
    potentials are feasible for it, and every perfect assignment takes each column once)."""
    u, v, _ = _potentials(cost)
    return sum(u) + sum(v) - v[0], u[1:], v[1:]


def min_cost_assignment(cost: Sequence[Sequence[int]]) -> int:
    """The least sum of ``cost[i][column(i)]`` over injective choices of columns, one per
    row (``len(cost) <= len(cost[0])``; 0 for no rows). Use a large finite number (under
    2**40) for a forbidden pair and compare the result with it."""
    if not cost:
        return 0
    if len(cost) > len(cost[0]):
        raise ValueError(f"{len(cost)} rows cannot get distinct columns among {len(cost[0])}")
    _, _, match = _potentials(cost)
    return sum(cost[i - 1][j - 1] for j, i in enumerate(match) if j and i)


def _potentials(cost: Sequence[Sequence[int]]) -> tuple[list[int], list[int], list[int]]:
    """An optimal dual (``u``, ``v``, 1-based, index 0 unused for ``u`` and virtual for
    ``v``) and an optimal matching (``match[j]``: the 1-based row on the 1-based column j,
    0 for a column no row takes)."""
    n, m = len(cost), len(cost[0]) if cost else 0
    u = [0] * (n + 1)  # row potentials (1-based rows), the row minima to start
    match = [0] * (m + 1)  # match[j]: the row (1-based) on column j (1-based), 0 for none
    free_rows = []
    for i, row in enumerate(cost, 1):
        low = min(row)
        u[i] = low
        j = row.index(low) + 1
        if match[j]:
            free_rows.append(i)
        else:
            match[j] = i
    v = [0] * (m + 1)
    if free_rows:
        _augment(cost, m, u, v, match, free_rows)
    return u, v, match


def _solve(cost: list[list[int]]) -> tuple[int, list[int], list[int], list[int]]:
    """The least total, the optimal dual (row potentials ``u``, column potentials ``v``,
    0-based) and each row's column in an optimal assignment."""
    u, v, match = _potentials(cost)
    column = [0] * len(cost)
    for j in range(1, len(cost) + 1):
        column[match[j] - 1] = j - 1
    return sum(u) + sum(v) - v[0], u[1:], v[1:], column


class RowChange:
    """The least assignment of ``cost`` with one row replaced, from ``cost``'s own optimum.

    With ``cost``'s optimal dual ``(u, v)`` (``cost[k][j] >= u[k] + v[j]``, ``sum(u) +
    sum(v)`` = its optimum ``T``) and optimal assignment ``p``, let row ``i`` become ``r``:

    * **Lower bound.** ``u`` with ``u[i] = min_j (r[j] - v[j])`` is a feasible dual of the
      new matrix, so its optimum is at least ``T - u[i] + min_j (r[j] - v[j])``.
    * **Upper bound.** ``p`` is still a perfect assignment, of cost ``T - cost[i][p(i)] +
      r[p(i)]``.

    :meth:`within` answers from these bounds when they decide, else solves the new matrix.
    """

    def __init__(self, cost: list[list[int]]) -> None:
        self.cost = cost
        self.total, self.u, self.v, self.column = _solve(cost)

    def within(self, i: int, row: list[int], limit: int) -> bool:
        """Whether the least assignment of ``cost`` with row ``i`` replaced by ``row`` is at most ``limit``."""
        v = self.v
        low = self.total - self.u[i] + min(value - v[j] for j, value in enumerate(row))
        if low > limit:
            return False
        j = self.column[i]
        if self.total - self.cost[i][j] + row[j] <= limit:
            return True
        changed = list(self.cost)
        changed[i] = row
        return least_assignment(changed) <= limit


def _augment(
    cost: Sequence[Sequence[int]], m: int, u: list[int], v: list[int], match: list[int], free_rows: list[int]
) -> None:
    """The shortest-augmenting-path Hungarian method (module docstring) over ``m`` columns
    from a partial matching whose edges are tight for the potentials ``u`` and ``v``;
    column 0 is a virtual one holding the row being added."""
    inf = 1 << 62  # above any reduced cost of these matrices (entries under 2**40)
    way = [0] * (m + 1)
    for i in free_rows:
        match[0] = i
        j0 = 0
        least = [inf] * (m + 1)
        unused = list(range(1, m + 1))  # the columns not yet reached
        reached = [0]
        while True:
            i0 = match[j0]
            row = cost[i0 - 1]
            ui0 = u[i0]
            delta = inf
            j1 = 0
            for j in unused:
                reduced = row[j - 1] - ui0 - v[j]
                if reduced < least[j]:
                    least[j] = reduced
                    way[j] = j0
                if least[j] < delta:
                    delta = least[j]
                    j1 = j
            if delta:
                for j in reached:
                    u[match[j]] += delta
                    v[j] -= delta
                for j in unused:
                    least[j] -= delta
            unused.remove(j1)
            reached.append(j1)
            j0 = j1
            if match[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            match[j0] = match[j1]
            j0 = j1

"""The least total cost of giving each row of a cost matrix its own column.

The Hungarian method with potentials (shortest augmenting paths, Kuhn-Munkres as
given by Jonker and Volgenant): rows are added one at a time; the row potentials
``u`` and column potentials ``v`` keep every reduced cost ``cost[i][j] - u[i] - v[j]``
non-negative and zero on the matched pairs, so each augmentation along a shortest
path in reduced costs keeps the matching a cheapest one for the rows added so far
(the linear-programming duality of the assignment problem). ``O(rows² · columns)``:
a few thousand steps for the 15 × 15 matrices of the static rules, where SciPy's
``linear_sum_assignment`` would cost more to import than the rules take to run.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["min_cost_assignment"]


def min_cost_assignment(cost: Sequence[Sequence[int]]) -> int:
    """The least sum of ``cost[i][column(i)]`` over injective choices of columns, one
    per row (``len(cost) <= len(cost[0])``; 0 for no rows). Use a large finite number
    for a forbidden pair and compare the result with it."""
    rows = len(cost)
    if rows == 0:
        return 0
    columns = len(cost[0])
    if rows > columns:
        raise ValueError(f"{rows} rows cannot get distinct columns among {columns}")
    infinity = float("inf")
    u = [0.0] * (rows + 1)
    v = [0.0] * (columns + 1)
    owner = [0] * (columns + 1)  # owner[j]: the row (1-based) holding column j, 0 for none
    way = [0] * (columns + 1)
    for row in range(1, rows + 1):
        owner[0] = row
        current = 0
        slack = [infinity] * (columns + 1)
        used = [False] * (columns + 1)
        while True:
            used[current] = True
            i = owner[current]
            delta, following = infinity, 0
            for j in range(1, columns + 1):
                if used[j]:
                    continue
                reduced = cost[i - 1][j - 1] - u[i] - v[j]
                if reduced < slack[j]:
                    slack[j], way[j] = reduced, current
                if slack[j] < delta:
                    delta, following = slack[j], j
            for j in range(columns + 1):
                if used[j]:
                    u[owner[j]] += delta
                    v[j] -= delta
                else:
                    slack[j] -= delta
            current = following
            if owner[current] == 0:
                break
        while current:
            previous = way[current]
            owner[current] = owner[previous]
            current = previous
    return sum(cost[owner[j] - 1][j - 1] for j in range(1, columns + 1) if owner[j])

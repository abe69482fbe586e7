"""Explicit retrograde analysis of every KRK code: the check that does not use SAT.

Lippold's classes (paper, section 2), over the move graph of :mod:`retro.krk.graph`:

* **initially illegal** -- fails ``LegalKRKPosition``;
* **n times derivedly illegal** -- initially legal, and every predecessor is m times
  derivedly illegal for some m < n, with at least one m = n - 1 (n = 1: no initially
  legal predecessor at all). Computed by rounds: a position is settled when all its
  predecessors are, and its n is one more than the largest n among them;
* the rest are **not derivedly illegal** (within KRK they retract forever).

Legality proper (the "ideal definition": reachable from the initial position) is shown
by a breadth-first search *forwards* from the two PFix positions, whose proof games
:mod:`retro.krk.pfix` replays: every code reached is legal, with a shortest move path
from PFix. The theorem predicts: reached = initially legal with an initially legal
predecessor; and so every derivedly illegal position is 1 time derivedly illegal.

The claims of :mod:`retro.krk.sat` are also checked here by brute force over all codes
(:func:`claim_failures`), independently of the CP-SAT models.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace

import numpy as np

from retro.krk.graph import initially_legal_codes, measure_codes, move_edges
from retro.krk.position import CODE_COUNT, PFIX_BLACK, PFIX_WHITE

__all__ = [
    "KrkAnalysis",
    "analyse",
    "derived_levels",
    "distances_from_pfix",
    "min_measure_after",
    "claim_failures",
    "path_from_pfix",
]

_UNREACHED = -1
_INF = np.int16(10_000)


@dataclass(frozen=True)
class KrkAnalysis:
    """Arrays indexed by code; ``level``: -1 initially illegal, 0 not derivedly illegal,
    n >= 1 n times derivedly illegal; ``distance``/``parent``: BFS from PFix (-1 if not reached)."""

    legal: np.ndarray
    measure: np.ndarray
    sources: np.ndarray
    destinations: np.ndarray
    predecessor_count: np.ndarray
    level: np.ndarray
    distance: np.ndarray
    parent: np.ndarray
    seconds: dict[str, float] = field(default_factory=dict)

    @property
    def initially_legal(self) -> int:
        return int(self.legal.sum())

    def class_counts(self) -> dict[str, int]:
        """Codes per class (all 2^19 codes; initially illegal ones include the paper's
        impossible codes with two units on one square)."""
        counts = {"initially illegal": int((self.level == -1).sum())}
        for n in range(1, int(self.level.max()) + 1):
            counts[f"{n} times derivedly illegal"] = int((self.level == n).sum())
        counts["not derivedly illegal"] = int((self.level == 0).sum())
        counts["legal (reached from PFix)"] = int((self.distance >= 0).sum())
        return counts


def derived_levels(legal: np.ndarray, sources: np.ndarray, destinations: np.ndarray) -> np.ndarray:
    """Lippold's n for every code (-1 initially illegal, 0 never settled), by rounds."""
    level = np.where(legal, 0, -1).astype(np.int16)
    unsettled = np.bincount(destinations, minlength=CODE_COUNT)  # predecessors not yet settled
    worst = np.zeros(CODE_COUNT, dtype=np.int16)  # largest n among settled predecessors
    settled_now = legal & (unsettled == 0)
    level[settled_now] = 1
    while settled_now.any():
        out = settled_now[sources]
        unsettled -= np.bincount(destinations[out], minlength=CODE_COUNT)
        np.maximum.at(worst, destinations[out], level[sources[out]])
        settled_now = (level == 0) & (unsettled == 0)
        level[settled_now] = worst[settled_now] + 1
    return level


def distances_from_pfix(sources: np.ndarray, destinations: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Breadth-first search along moves from both PFix positions: (plies, parent code)."""
    order = np.argsort(sources, kind="stable")
    targets = destinations[order]
    starts = np.zeros(CODE_COUNT + 1, dtype=np.int64)
    starts[1:] = np.cumsum(np.bincount(sources, minlength=CODE_COUNT))
    distance = np.full(CODE_COUNT, _UNREACHED, dtype=np.int16)
    parent = np.full(CODE_COUNT, _UNREACHED, dtype=np.int32)
    frontier = np.array([PFIX_WHITE.code, PFIX_BLACK.code], dtype=np.int64)
    distance[frontier] = 0
    plies = 0
    while frontier.size:
        plies += 1
        first, count = starts[frontier], starts[frontier + 1] - starts[frontier]
        offsets = np.repeat(first - np.cumsum(count) + count, count) + np.arange(count.sum())
        reached, via = targets[offsets], np.repeat(frontier, count)
        new = distance[reached] == _UNREACHED
        reached, index = np.unique(reached[new], return_index=True)
        distance[reached] = plies
        parent[reached] = via[new][index]
        frontier = reached.astype(np.int64)
    return distance, parent


def path_from_pfix(analysis: KrkAnalysis, code: int) -> list[int]:
    """Codes from a PFix position to ``code`` along the BFS tree (empty if not reached)."""
    if analysis.distance[code] < 0:
        return []
    path = [code]
    while analysis.distance[path[-1]] > 0:
        path.append(int(analysis.parent[path[-1]]))
    return path[::-1]


def min_measure_after(analysis: KrkAnalysis, plies: int) -> np.ndarray:
    """Smallest M over all ``plies``-ply retraction sequences through initially legal
    positions, per code (a large number when there is no such sequence)."""
    best = np.where(analysis.legal, analysis.measure, _INF).astype(np.int16)
    for _ in range(plies):
        step = np.full(CODE_COUNT, _INF, dtype=np.int16)
        np.minimum.at(step, analysis.destinations, best[analysis.sources])
        best = step
    return best


def claim_failures(analysis: KrkAnalysis) -> dict[str, int]:
    """Brute-force counts of counterexamples to the claims of :mod:`retro.krk.sat`.

    * ``claim 1``: initially legal P with a predecessor, P not PFix, and no 4-ply
      retraction sequence P4..P1 with M(P4) < M(P);
    * ``claim 2 (paper)``: initially legal P1 that is a predecessor of some position and
      has no predecessor itself;
    * ``claim 1+2``: like claim 1, but the sequence's P4 must also have a predecessor.
    """
    has_predecessor = analysis.predecessor_count > 0
    premise = analysis.legal & has_predecessor & (analysis.measure > 0)
    after4 = min_measure_after(analysis, 4)
    # claim 1+2: retract one more ply first, from P4's predecessor P5 (M counted at P4):
    # the minimum over 4-ply sequences ending in a position that has a predecessor.
    masked = replace(analysis, measure=np.where(has_predecessor, analysis.measure, _INF))
    after4_extendable = min_measure_after(masked, 4)
    is_predecessor = np.zeros(CODE_COUNT, dtype=bool)
    is_predecessor[analysis.sources] = True
    return {
        "claim 1": int((premise & ~(after4 < analysis.measure)).sum()),
        "claim 2 (paper)": int((is_predecessor & ~has_predecessor).sum()),
        "claim 1+2": int((premise & ~(after4_extendable < analysis.measure)).sum()),
    }


def analyse() -> KrkAnalysis:
    """Build the graph, Lippold's classes and the BFS from PFix, timing each step."""
    seconds: dict[str, float] = {}
    start = time.perf_counter()
    legal = initially_legal_codes()
    measure = measure_codes()
    seconds["enumeration"] = time.perf_counter() - start
    start = time.perf_counter()
    sources, destinations = move_edges(legal)
    seconds["move graph"] = time.perf_counter() - start
    start = time.perf_counter()
    level = derived_levels(legal, sources, destinations)
    seconds["derived illegality"] = time.perf_counter() - start
    start = time.perf_counter()
    distance, parent = distances_from_pfix(sources, destinations)
    seconds["search from PFix"] = time.perf_counter() - start
    count = np.bincount(destinations, minlength=CODE_COUNT).astype(np.int32)
    return KrkAnalysis(legal, measure, sources, destinations, count, level, distance, parent, seconds)

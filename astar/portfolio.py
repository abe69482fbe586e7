"""Restart portfolio: how one proof-game run splits its budget between its starts.

A run of ``retro proofgame`` has several places to search from (the ends of initial paths
of different pawn plans, the initial position) and, for each, a best committed line
(:func:`astar.search.search_descending`). Which start leads to a proof game, and how
long it needs, is not known in advance: a run that fails from the first path's end often
succeeds from another plan's path or with another seed.

**Schedule.** The run is cut into slices; slice ``i`` (from 1) gets ``luby(i)`` units of
nodes, Luby's sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, ... (Luby, Sinclair and
Zuckerman 1993: for a randomized search whose run time distribution is unknown, it is
within a logarithmic factor of the best fixed restart length, and no universal schedule
does better by more than a constant factor). Units are nodes, not seconds, so a run is
the same for a given seed whatever the machine's load, until the time limit cuts it.

**Adaptive split** (:class:`Portfolio`). A slice of one unit *explores*: a new start (the
next pawn plan's initial path, or a fresh seed). A longer slice *exploits*: it goes to
the arm whose best line came closest to the goal (lowest heuristic), so time goes to
the starts that progress; among arms equally close, to the one that had fewer slices
(it came as close for less). It resumes that arm's search
where it stopped when the arm's last slice improved its best line (a resumed search
goes on like one long search: the legs may have to climb before they descend again),
and otherwise restarts from a seeded random prefix of that best line (a committed
prefix the legs had passed through), so a stalled search is left at another point
instead of being resumed where it stalls.

**Independent of the slot.** An arm's new search gets the seed ``seed + 1000 * (number
+ runs)`` (``number``: the order in which its start was added, :meth:`Portfolio.add`;
``runs``: the arm's slices so far; :meth:`Portfolio.search_seed`), and its restart
prefix comes from a stream seeded by the same numbers, not from the slice number: an
arm whose slices come later (another arm took slices before them) searches exactly as
it would have earlier, so the slices one arm takes delay the others without changing
their luck. (While the first start has every slice, and the second comes on the second
slice, these seeds are ``seed + 1000 * (slice - 1)``.)

Soundness does not depend on any of this: every move played is a real move, and the
final game is replay-checked (:mod:`astar.proofgame`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import chess

from astar.heuristic import INF

__all__ = ["Arm", "Portfolio", "luby"]

Start = TypeVar("Start")


def luby(i: int) -> int:
    """Term ``i`` (from 1) of Luby's sequence: 2**(k-1) when i = 2**k - 1, else the term
    ``i - 2**(k-1) + 1`` for the k with 2**(k-1) <= i < 2**k - 1."""
    if i < 1:
        raise ValueError("Luby's sequence starts at 1")
    while True:
        k = i.bit_length()
        if i == (1 << k) - 1:
            return 1 << (k - 1)
        i -= (1 << (k - 1)) - 1


@dataclass
class Arm(Generic[Start]):
    """A start of the search: ``origin`` (what it came from, e.g. an initial path),
    ``prefix`` (the moves from the initial position to the start) and the best line
    found from it so far (``best_moves`` from the initial position, heuristic ``best_h``)."""

    origin: Start
    prefix: tuple[chess.Move, ...]
    label: str = ""  # what the start is, for the reader
    best_h: int = INF
    best_moves: tuple[chess.Move, ...] = ()
    runs: int = 0
    number: int = 0  # which start it is (:meth:`Portfolio.add`)
    improved: bool = True  # the last slice lowered best_h
    dead: bool = False  # the goal is unreachable from the start
    search: Any = None  # the caller's search from this arm, to resume


class Portfolio(Generic[Start]):
    """The arms of one run and the schedule (module docstring). ``next_slice`` says how
    many units the next slice gets and whether it explores; ``pick`` chooses the arm and
    the committed line to search from; ``report`` records a slice's outcome."""

    def __init__(self, seed: int) -> None:
        self.arms: list[Arm[Start]] = []
        self.slices = 0
        self.seed = seed

    def add(self, arm: Arm[Start]) -> Arm[Start]:
        """Add ``arm``, numbered after the arms added before it, and return it."""
        arm.number = len(self.arms)
        self.arms.append(arm)
        return arm

    def next_slice(self) -> tuple[int, bool]:
        """(units, explore) of the next slice."""
        self.slices += 1
        units = luby(self.slices)
        return units, units == 1 or not self.live()

    def live(self) -> list[Arm[Start]]:
        return [arm for arm in self.arms if not arm.dead]

    def best(self) -> Arm[Start] | None:
        """The live arm closest to the goal; among equals, the one that had the fewest
        slices (it came as close for less), then the earliest."""
        return min(self.live(), key=lambda arm: (arm.best_h, arm.runs), default=None)

    def pick(self) -> tuple[Arm[Start], tuple[chess.Move, ...] | None]:
        """The best arm, and None when its search is to be resumed (its last slice
        improved its best line), else the line to search afresh from: a random prefix
        of its best line, no shorter than the arm's start (its best line itself when
        it has no search yet)."""
        arm = self.best()
        if arm is None:
            raise ValueError("no live arm")
        if arm.improved:
            return arm, None if arm.search is not None else arm.best_moves or arm.prefix
        if len(arm.best_moves) <= len(arm.prefix):
            return arm, arm.prefix
        rng = random.Random(f"{self.seed}:{arm.number}:{arm.runs}")
        return arm, arm.best_moves[: rng.randint(len(arm.prefix), len(arm.best_moves) - 1)]

    def search_seed(self, arm: Arm[Start]) -> int:
        """The seed of a new search from ``arm``: its number's and its own slice count's,
        not the slice number's, so the arm searches alike whatever slot it gets."""
        return self.seed + 1000 * (arm.number + arm.runs)

    def report(self, arm: Arm[Start], best_h: int, best_moves: tuple[chess.Move, ...], *, dead: bool) -> None:
        """A slice from ``arm`` ended with the best line ``best_moves`` (heuristic
        ``best_h``); ``dead``: the goal is unreachable from the arm's start."""
        arm.runs += 1
        arm.improved = best_h < arm.best_h
        if arm.improved:
            arm.best_h, arm.best_moves = best_h, best_moves
        arm.dead = arm.dead or dead

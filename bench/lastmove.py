"""Last-move problems of data/lastmove-dev.jsonl (or ``--file``, e.g.
data/lastmove-dev2.jsonl): how many are solved uniquely and correctly, with the known-cage
library and with no cage file, per problem class.

A retraction-sequence problem is solved when exactly one sequence of its length survives
and it is the published one. A last-move-type problem (type A: "what kind of move was
the last one?") is solved when every surviving last move has the published type and the
other side has no possible last move at all. A problem is counted *wrong* when the
published answer did not survive a complete enumeration (every wrong unique answer is one):
a soundness bug. When the time limit stopped the enumeration before it reached the
published answer, nothing was claimed about it (the status is ``unknown``): the problem
is open, and its line says so.

A problem of data/lastmove-dev2.jsonl is classed by its ``section``: ``B`` and ``C``
(White made the last move; its type must be the only one that survives), ``D``
(``retract: both``: each side's last move is solved separately, by one call per side
with the whole time limit each, and each side must keep exactly one type; the two
published types, in Retractor's order rather than by side, must be those two). A ``D``
problem is wrong when no assignment of the published types to the sides survived.
``--parity even|odd`` keeps the problems of even or odd ``id`` (develop on one half,
check on the other).

Classes of data/lastmove-dev.jsonl: ``sequence`` (retraction sequences), ``type`` (last-move type, Retractor 2
solves it unaided), ``type+cages`` (Retractor 2 needs hand-picked cages, the
``needs_cages`` field), ``type-hard`` (Retractor 2 does not solve it).

"With the cage library" uses the verified cages of ``data/cages.txt`` (made with
``retro cage -f``); "no cage file" starts from an empty library (the solver's automatic
cages, when they exist, still apply). Each problem starts from that library afresh: the
cages found automatically for one problem do not help the next; and with the static
rules' caches empty, as in a fresh process. Every figure is printed with the load average;
times are wall clock (the solver's 60 s limit is wall clock too) and the CPU time of
the process, which a loaded machine inflates less.

    PYTHONPATH=. .venv/bin/python bench/lastmove.py [--no-legality] [--budget NODES]
        [--modes cages,none] [--only BOARD ...] [--time-limit SECONDS]
        [--file data/lastmove-dev2.jsonl] [--parity even|odd]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from collections import defaultdict
from pathlib import Path

import chess

from cages.library import Library
from retro.core import pawn_fates, rules
from retro.lastmove.solver import LastMoveVerdict, solve

DATA = Path(__file__).resolve().parent.parent / "data"
CLASSES = ("sequence", "type", "type+cages", "type-hard")
SECTIONS = ("B", "C", "D")


def problem_class(problem: dict) -> str:
    if "section" in problem:
        return str(problem["section"])
    if problem["answer_kind"] == "retraction_sequence":
        return "sequence"
    if not problem["retractor2_solves"]:
        return "type-hard"
    return "type+cages" if problem["needs_cages"] else "type"


def judge(problem: dict, verdict: LastMoveVerdict) -> tuple[bool, bool, list[str]]:
    """(solved, wrong, what survived) for a verdict. ``wrong``: the published answer did
    not survive (so a unique answer, if any, is a wrong one): a soundness bug."""
    side = chess.WHITE if problem["retract"] == "w" else chess.BLACK
    mine = [s for s in verdict.solutions if s.side == side]
    others = [s for s in verdict.solutions if s.side != side]
    if problem["answer_kind"] == "retraction_sequence":
        got = [" ".join(s.moves) for s in mine]
        expected = " ".join(problem["answer"])
        missing = expected not in got
        return got == [expected], missing and verdict.complete, got + _incomplete(not missing or verdict.complete)
    types = sorted({s.type for s in mine})
    got = types + [f"other side: {len(others)}"] * bool(others)
    missing = problem["answer"] not in types
    return (
        types == [problem["answer"]] and not others,
        missing and verdict.complete,
        got + _incomplete(not missing or verdict.complete),
    )


def judge_both(problem: dict, verdicts: dict[chess.Color, LastMoveVerdict]) -> tuple[bool, bool, list[str]]:
    """(solved, wrong, what survived) for a type-D problem, one verdict per side: solved
    when each side keeps exactly one type and the two are the published ones (in either
    order); wrong when no assignment of the published types to the sides survived."""
    white = sorted({s.type for s in verdicts[chess.WHITE].solutions if s.side == chess.WHITE})
    black = sorted({s.type for s in verdicts[chess.BLACK].solutions if s.side == chess.BLACK})
    first, second = problem["solution"]
    solved = len(white) == len(black) == 1 and sorted(white + black) == sorted([first, second])
    possible = (first in white and second in black) or (second in white and first in black)
    complete = all(v.complete for v in verdicts.values())
    return solved, not possible and complete, [f"w {white[:6]}", f"b {black[:6]}"] + _incomplete(possible or complete)


def _incomplete(fine: bool) -> list[str]:
    """The mark of a published answer missing from an incomplete enumeration (not wrong)."""
    return [] if fine else ["(published answer not enumerated by the time limit)"]


def run(problem: dict, library: Library, args: argparse.Namespace) -> tuple[bool, bool, list[str]]:
    """Solve one problem (both files' kinds) and judge it."""
    options: dict = dict(
        use_legality=not args.no_legality, legality_max_nodes=args.budget, cages=library, time_limit=args.time_limit
    )
    board = chess.Board(problem["board"] + " w - - 0 1")
    if "section" in problem:
        if problem["retract"] == "both":
            verdicts = {side: solve(board, side, moves=1, question="types", **options) for side in chess.COLORS}
            return judge_both(problem, verdicts)
        verdict = solve(board, chess.WHITE, moves=1, question="types", **options)
        return judge({**problem, "answer_kind": "type", "answer": problem["solution"]}, verdict)
    side = chess.WHITE if problem["retract"] == "w" else chess.BLACK
    sequence = problem["answer_kind"] == "retraction_sequence"
    verdict = solve(
        board,
        side if sequence else None,
        moves=len(problem["answer"]) if sequence else 1,
        question="moves" if sequence else "types",
        **options,
    )
    return judge(problem, verdict)


def _cold() -> None:
    """Empty the static rules' process-wide caches (pawn fates and the rules' own), so that
    each problem starts as in a fresh process: the second mode would otherwise find the
    pawn structures of the first mode's run of the same problem already solved."""
    for module in (rules, pawn_fates):
        for value in vars(module).values():
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--no-legality", action="store_true")
    parser.add_argument("--budget", type=int, default=20_000)
    parser.add_argument(
        "--time-limit",
        type=float,
        default=60.0,
        help="the solver's wall-clock limit per problem (default 60 s; raise it on a loaded machine)",
    )
    parser.add_argument(
        "--cages", default=str(DATA / "cages.txt"), help="the known-cage library (default data/cages.txt)"
    )
    parser.add_argument(
        "--modes", default="cages,none", help="comma-separated: 'cages' (with the library), 'none' (no cage file)"
    )
    parser.add_argument("--only", nargs="+", metavar="BOARD", help="run only the problems with these boards")
    parser.add_argument("--file", default=str(DATA / "lastmove-dev.jsonl"), help="the problems (JSON lines)")
    parser.add_argument("--parity", choices=("even", "odd"), help="only the problems of even or odd id")
    args = parser.parse_args()
    modes = [m for m in args.modes.split(",") if m]
    problems = [json.loads(line) for line in open(args.file, encoding="utf-8")]
    if args.only:
        problems = [p for p in problems if p["board"] in args.only]
    if args.parity:
        problems = [p for p in problems if p["id"] % 2 == (args.parity == "odd")]
    classes = SECTIONS if any("section" in p for p in problems) else CLASSES
    print(
        f"load before: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}; "
        f"legality pipeline {'off' if args.no_legality else 'on'}; time limit {args.time_limit:g} s; "
        f"{len(problems)} problems of {Path(args.file).name}" + (f" ({args.parity} ids)" if args.parity else ""),
        flush=True,
    )
    solved: dict[tuple[str, str], int] = defaultdict(int)
    wrong: dict[tuple[str, str], int] = defaultdict(int)
    times: dict[tuple[str, str], list[float]] = defaultdict(list)
    cpu_times: dict[tuple[str, str], list[float]] = defaultdict(list)
    totals: dict[str, int] = defaultdict(int)
    for problem in problems:
        totals[problem_class(problem)] += 1
    for mode in modes:
        known = len(Library.load(args.cages, read_only=True).cages) if mode == "cages" else 0
        print(f"\n== {mode}: {known} known cages", flush=True)
        for problem in problems:
            library = Library.load(args.cages, read_only=True) if mode == "cages" else Library()
            kind = problem_class(problem)
            _cold()
            start, cpu_start = time.perf_counter(), time.process_time()
            ok, bad, got = run(problem, library, args)
            seconds, cpu = time.perf_counter() - start, time.process_time() - cpu_start
            solved[mode, kind] += ok
            wrong[mode, kind] += bad
            times[mode, kind].append(seconds)
            cpu_times[mode, kind].append(cpu)
            mark = "WRONG  " if bad else "solved " if ok else "open   "
            print(
                f"{mark}{seconds:7.2f}s (cpu {cpu:6.2f}s) {kind:10s} {problem['board']:40s} "
                f"id {problem.get('id', '-')} expected {problem.get('answer', problem.get('solution'))}  got {got[:6]}",
                flush=True,
            )
    print(f"\nload after: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")
    header = f"{'class':11s} {'total':>5s} " + " ".join(
        f"{'solved/' + m:>13s} {'wrong':>5s} {'median':>7s} {'mean':>7s} {'max':>7s} "
        f"{'cpu med':>7s} {'mean':>7s} {'max':>7s}"
        for m in modes
    )
    print(header)
    for kind in (*classes, "all"):
        keys = classes if kind == "all" else (kind,)
        row = f"{kind:11s} {sum(totals[k] for k in keys):5d} "
        for mode in modes:
            spent = [t for k in keys for t in times[mode, k]]
            cpu_spent = [t for k in keys for t in cpu_times[mode, k]]
            if not spent:
                row += f"{'-':>13s} {'-':>5s} " + f"{'-':>7s} " * 6
                continue
            row += (
                f"{sum(solved[mode, k] for k in keys):13d} {sum(wrong[mode, k] for k in keys):5d} "
                f"{statistics.median(spent):6.2f}s {statistics.mean(spent):6.2f}s {max(spent):6.2f}s "
                f"{statistics.median(cpu_spent):6.2f}s {statistics.mean(cpu_spent):6.2f}s {max(cpu_spent):6.2f}s "
            )
        print(row)


if __name__ == "__main__":
    main()

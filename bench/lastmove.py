"""Last-move problems of data/lastmove-dev.jsonl: how many are solved uniquely and correctly,
with the known-cage library and with no cage file, per problem class.

A retraction-sequence problem is solved when exactly one sequence of its length survives
and it is the published one. A last-move-type problem (type A: "what kind of move was
the last one?") is solved when every surviving last move has the published type and the
other side has no possible last move at all. A problem is counted *wrong* when the
published answer did not survive (every wrong unique answer is one): a soundness bug.

Classes: ``sequence`` (retraction sequences), ``type`` (last-move type, Retractor 2
solves it unaided), ``type+cages`` (Retractor 2 needs hand-picked cages, the
``needs_cages`` field), ``type-hard`` (Retractor 2 does not solve it).

"With the cage library" uses the verified cages of ``data/cages.txt`` (made with
``retro cage -f``); "no cage file" starts from an empty library (the solver's automatic
cages, when they exist, still apply). Every figure is printed with the load average;
times are wall clock (the solver's 60 s limit is wall clock too) and the CPU time of
the process, which a loaded machine inflates less.

    PYTHONPATH=. .venv/bin/python bench/lastmove.py [--no-legality] [--budget NODES]
        [--modes cages,none] [--only BOARD ...] [--time-limit SECONDS]
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
from retro.lastmove.solver import LastMoveVerdict, solve

DATA = Path(__file__).resolve().parent.parent / "data"
CLASSES = ("sequence", "type", "type+cages", "type-hard")


def problem_class(problem: dict) -> str:
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
        return got == [expected], expected not in got, got
    types = sorted({s.type for s in mine})
    got = types + [f"other side: {len(others)}"] * bool(others)
    return types == [problem["answer"]] and not others, problem["answer"] not in types, got


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
    args = parser.parse_args()
    modes = [m for m in args.modes.split(",") if m]
    problems = [json.loads(line) for line in open(DATA / "lastmove-dev.jsonl", encoding="utf-8")]
    if args.only:
        problems = [p for p in problems if p["board"] in args.only]
    print(
        f"load before: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}; "
        f"legality pipeline {'off' if args.no_legality else 'on'}; time limit {args.time_limit:g} s",
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
        library = Library.load(args.cages, read_only=True) if mode == "cages" else Library()
        print(f"\n== {mode}: {len(library.cages)} known cages", flush=True)
        for problem in problems:
            kind = problem_class(problem)
            side = chess.WHITE if problem["retract"] == "w" else chess.BLACK
            sequence = problem["answer_kind"] == "retraction_sequence"
            board = chess.Board(problem["board"] + " w - - 0 1")
            start, cpu_start = time.perf_counter(), time.process_time()
            verdict = solve(
                board,
                side if sequence else None,
                moves=len(problem["answer"]) if sequence else 1,
                use_legality=not args.no_legality,
                legality_max_nodes=args.budget,
                cages=library,
                question="moves" if sequence else "types",
                time_limit=args.time_limit,
            )
            seconds, cpu = time.perf_counter() - start, time.process_time() - cpu_start
            ok, bad, got = judge(problem, verdict)
            solved[mode, kind] += ok
            wrong[mode, kind] += bad
            times[mode, kind].append(seconds)
            cpu_times[mode, kind].append(cpu)
            mark = "WRONG  " if bad else "solved " if ok else "open   "
            print(
                f"{mark}{seconds:7.2f}s (cpu {cpu:6.2f}s) {kind:10s} {problem['board']:40s} "
                f"expected {problem['answer']}  got {got[:6]}",
                flush=True,
            )
    print(f"\nload after: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")
    header = f"{'class':11s} {'total':>5s} " + " ".join(
        f"{'solved/' + m:>13s} {'wrong':>5s} {'median':>7s} {'mean':>7s} {'max':>7s} "
        f"{'cpu med':>7s} {'mean':>7s} {'max':>7s}"
        for m in modes
    )
    print(header)
    for kind in (*CLASSES, "all"):
        keys = CLASSES if kind == "all" else (kind,)
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

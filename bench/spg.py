"""Shortest proof games of data/spg-dev.jsonl (140 published problems) against Euclide.

For each problem ``retro spg`` runs with a time limit (default 60 s); every game it
shows has been replayed by python-chess. The bench then checks:

* **contradictions** (must be zero): ``unique`` where Euclide lists two valid games;
  ``no_solution`` where Euclide printed a valid game; a complete answer (``unique`` or
  ``solutions`` not cooked) that misses a valid game of Euclide's.
* **cooks**: a game we found that Euclide did not list for a problem it calls unique
  (replayed: a cook of a published problem) or no-solution.

It prints, per Euclide verdict, our verdict counts, time median / mean / max, and our
nodes against Euclide's (``euclide_positions``), then the targets of issue 39, and the
Euclide-unique problems decided ``unique`` per half of the file (even and odd rows,
0-based: develop on one, check on the other).

With ``--euclide PATH`` (the path of ``euclide-run.py``) the same worker runs Euclide
then retro on each problem, each with the same time limit, and the bench prints both
decided counts and the median ratio of retro's wall time to Euclide's per plies class
(<= 20, 21-30, > 30), over the problems both decided. ``--process`` runs each problem as
its own ``retro spg --json`` process, so that retro's time, like Euclide's, includes the
start of a process (without it, retro runs inside the worker, already loaded).

    .venv/bin/python bench/spg.py [-t SEC] [-m NODES] [-j JOBS] [--rows even|odd|all] [--limit K]
        [--max-plies N] [--verdict V ...] [--id ID ...] [--euclide PATH] [--process] [--out FILE]
"""

from __future__ import annotations

import argparse
import collections
import json
import multiprocessing
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import chess
from startup import installed_env  # bench/ is the script's directory

from retro.spg import parse_problem
from retro.spg.solve import solve

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"
VERDICTS = ("unique", "two_solutions", "cooked", "no_solution", "interrupted")


def replay_uci(board_text: str, plies: int, uci: list[str]) -> list[str] | None:
    """Euclide's game in SAN if python-chess replays it to the diagram in N plies, else None."""
    problem = parse_problem(board_text, plies)
    board = problem.init.copy()
    san = []
    for move in uci:
        try:
            parsed = chess.Move.from_uci(move)
        except ValueError:
            return None
        if not board.is_legal(parsed):
            return None
        san.append(board.san(parsed))
        board.push(parsed)
    return san if len(uci) == plies and problem.matches(board) else None


def run_euclide(path: str, row: dict, time_limit: float) -> dict:
    """Euclide's answer on ``row`` (``euclide-run.py``'s JSON line, with our wall time)."""
    start = time.monotonic()
    try:
        done = subprocess.run(
            [sys.executable, path, row["board"], str(row["plies"]), str(time_limit)],
            capture_output=True,
            text=True,
            timeout=time_limit + 30,
        )
        record = json.loads(done.stdout.strip().splitlines()[-1])
    except (subprocess.TimeoutExpired, json.JSONDecodeError, IndexError) as error:
        record = {"verdict": "error", "message": str(error)}
    record["wall"] = round(time.monotonic() - start, 3)
    return record


def run_retro_process(row: dict, time_limit: float, max_nodes: int | None) -> dict:
    """``retro spg BOARD N --json`` in a new process (this interpreter, this tree): its record."""
    command = [
        sys.executable,
        "-m",
        "retro.cli",
        "spg",
        row["board"],
        str(row["plies"]),
        "-t",
        str(time_limit),
        "--json",
    ]
    if max_nodes is not None:
        command += ["-m", str(max_nodes)]
    env = installed_env(ROOT)  # bytecode kept, as an installed retro
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=time_limit + 30, env=env, cwd=ROOT)
        return dict(json.loads(done.stdout))
    except (subprocess.TimeoutExpired, json.JSONDecodeError) as error:
        return {"status": "unknown", "solutions": [], "cooked": False, "nodes": 0, "reason": f"process: {error}"}


def run_one(
    row: dict,
    time_limit: float,
    max_nodes: int | None = None,
    euclide_path: str | None = None,
    process: bool = False,
) -> dict:
    theirs = run_euclide(euclide_path, row, time_limit) if euclide_path else None
    start = time.monotonic()
    if process:
        verdict = run_retro_process(row, time_limit, max_nodes)
    else:
        verdict = solve(parse_problem(row["board"], row["plies"]), time_limit=time_limit, max_nodes=max_nodes).as_dict()
    seconds = time.monotonic() - start
    euclide = [replay_uci(row["board"], row["plies"], s) for s in row["solutions"] or [] if s]
    euclide = [s for s in euclide if s is not None]
    ours = verdict["solutions"]
    status = verdict["status"]
    complete = status in ("unique", "no_solution") or (status == "solutions" and not verdict["cooked"])
    problems = []
    if status == "unique" and len(euclide) >= 2:
        problems.append("unique but Euclide lists two valid games")
    if status == "no_solution" and euclide:
        problems.append("no_solution but Euclide printed a valid game")
    if complete and any(s not in ours for s in euclide):
        problems.append("complete answer misses a valid game of Euclide's")
    cooks = [s for s in ours if s not in euclide] if row["euclide_verdict"] in ("unique", "no_solution") else []
    return {
        "id": row["id"],
        "row": row["row"],
        "euclide_run": theirs,
        "plies": row["plies"],
        "euclide_verdict": row["euclide_verdict"],
        "euclide_positions": row["euclide_positions"],
        "status": str(status),
        "found": len(ours),
        "cooked": verdict["cooked"],
        "nodes": verdict["nodes"],
        "seconds": round(seconds, 3),
        "has_euclide_solution": bool(euclide) and all(s in ours for s in euclide),
        "contradictions": problems,
        "new_games": cooks,
        "reason": verdict["reason"],
    }


def _worker(args: tuple[dict, float, int | None, str | None, bool]) -> dict:
    return run_one(*args)


def _plies_class(plies: int) -> str:
    return "<=20" if plies <= 20 else "21-30" if plies <= 30 else ">30"


def summarize_halves(results: list[dict]) -> None:
    """Euclide-unique problems decided unique (with Euclide's game), per half of the file."""
    for name, parity in (("even", 0), ("odd", 1)):
        rows = [r for r in results if r["row"] % 2 == parity and r["euclide_verdict"] == "unique"]
        if not rows:
            continue
        good = [r for r in rows if r["status"] == "unique" and r["has_euclide_solution"]]
        by_class = collections.Counter(_plies_class(r["plies"]) for r in good)
        totals = collections.Counter(_plies_class(r["plies"]) for r in rows)
        detail = ", ".join(f"{c} {by_class[c]}/{totals[c]}" for c in ("<=20", "21-30", ">30") if totals[c])
        print(f"{name} rows: Euclide-unique decided unique {len(good)}/{len(rows)} ({detail})")


def summarize_euclide(results: list[dict]) -> None:
    """Decided counts of both programs and the median wall-time ratio retro / Euclide per plies class,
    and over all the problems both decided."""
    runs = [r for r in results if r["euclide_run"] is not None]
    if not runs:
        return
    print("\nside by side (same worker, same time limit):")
    for label in ("<=20", "21-30", ">30", "all"):
        rows = [r for r in runs if label == "all" or _plies_class(r["plies"]) == label]
        if not rows:
            continue
        theirs = [r for r in rows if r["euclide_run"]["verdict"] in ("unique", "solutions", "no_solution")]
        ours = [r for r in rows if r["status"] != "unknown"]
        both = [r for r in theirs if r in ours and r["euclide_run"].get("wall")]
        ratios = [r["seconds"] / max(r["euclide_run"]["wall"], 1e-3) for r in both]
        median = f"{statistics.median(ratios):.2f}" if ratios else "-"
        print(
            f"    plies {label:5s} ({len(rows)}): decided Euclide {len(theirs)}, retro {len(ours)}; "
            f"median time ratio retro/Euclide {median} over {len(both)} decided by both"
        )


def summarize(results: list[dict]) -> None:
    print()
    for verdict in VERDICTS:
        rows = [r for r in results if r["euclide_verdict"] == verdict]
        if not rows:
            continue
        counts = collections.Counter(r["status"] for r in rows)
        times = [r["seconds"] for r in rows]
        ours = [r["nodes"] for r in rows if r["status"] != "unknown"]
        theirs = [r["euclide_positions"] for r in rows if r["status"] != "unknown" and r["euclide_positions"]]
        decided = ", ".join(
            f"{name} {counts[name]}" for name in ("unique", "solutions", "no_solution", "unknown") if counts[name]
        )
        print(f"Euclide {verdict} ({len(rows)}): ours {decided}")
        print(
            f"    time median {statistics.median(times):.2f} s, mean {statistics.mean(times):.2f} s, "
            f"max {max(times):.2f} s"
        )
        if ours:
            line = f"    nodes on decided problems: ours median {statistics.median(ours):,.0f}, max {max(ours):,}"
            if theirs:
                line += f"; Euclide's median {statistics.median(theirs):,.0f}, max {max(theirs):,}"
            print(line)
    contradictions = [r for r in results if r["contradictions"]]
    print(f"\ncontradictions: {len(contradictions)}")
    for r in contradictions:
        print(f"    {r['id']}: {'; '.join(r['contradictions'])}")
    for r in results:
        for game in r["new_games"]:
            print(
                f"new game (replayed) for Euclide-{r['euclide_verdict']} {r['id']} ({r['plies']} plies): "
                f"{' '.join(game)}"
            )
    unique = [r for r in results if r["euclide_verdict"] == "unique"]
    short = [r for r in unique if r["plies"] <= 20]
    good = [r for r in unique if r["status"] == "unique" and r["has_euclide_solution"]]
    good_short = [r for r in good if r["plies"] <= 20]
    several = [r for r in results if r["euclide_verdict"] in ("two_solutions", "cooked")]
    several_ok = [r for r in several if r["status"] == "solutions"]
    none = [r for r in results if r["euclide_verdict"] == "no_solution"]
    none_ok = [r for r in none if r["status"] == "no_solution"]
    interrupted = [r for r in results if r["euclide_verdict"] == "interrupted" and r["status"] != "unknown"]
    print(f"\nEuclide-unique up to 20 plies decided unique with Euclide's game: {len(good_short)}/{len(short)}")
    if unique:
        print(
            f"Euclide-unique decided unique with Euclide's game: {len(good)}/{len(unique)} "
            f"({100 * len(good) / len(unique):.0f}%)"
        )
    print(f"two-solution and cooked problems found with >= 2 games: {len(several_ok)}/{len(several)}")
    print(f"Euclide no-solution problems proved no_solution: {len(none_ok)}/{len(none)}")
    print(f"Euclide-interrupted problems decided: {len(interrupted)}")
    print(f"load: {os.getloadavg()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-t", "--time-limit", type=float, default=60.0, help="seconds per problem (default 60)")
    parser.add_argument("-m", "--max-nodes", type=int, default=None, help="node budget per problem")
    parser.add_argument("--rows", choices=("even", "odd", "all"), default="all", help="rows of the file (0-based)")
    parser.add_argument("--limit", type=int, default=None, help="only the first K problems (file order)")
    parser.add_argument("--euclide", help="path of euclide-run.py: run Euclide side by side")
    parser.add_argument("-j", "--jobs", type=int, default=1, help="parallel processes (default 1)")
    parser.add_argument("--max-plies", type=int, default=None, help="only problems of at most N plies")
    parser.add_argument("--verdict", nargs="+", choices=VERDICTS, help="only problems with these Euclide verdicts")
    parser.add_argument("--id", nargs="+", help="only these problem ids")
    parser.add_argument("--data", default=str(DATA / "spg-dev.jsonl"))
    parser.add_argument("--out", help="write one JSON line per problem to this file")
    parser.add_argument(
        "--process",
        action="store_true",
        help="run each problem as its own `retro spg --json` process (its time then includes start-up)",
    )
    args = parser.parse_args()
    rows = [dict(json.loads(line), row=index) for index, line in enumerate(open(args.data, encoding="utf-8"))]
    rows = [
        r
        for r in rows
        if (args.rows == "all" or r["row"] % 2 == (args.rows == "odd"))
        and (args.max_plies is None or r["plies"] <= args.max_plies)
        and (not args.verdict or r["euclide_verdict"] in args.verdict)
        and (not args.id or r["id"] in args.id)
    ]
    rows = rows[: args.limit] if args.limit is not None else rows
    rows.sort(key=lambda r: r["plies"])
    budget = f", {args.max_nodes:,} nodes" if args.max_nodes else ""
    load = os.getloadavg()
    print(f"{len(rows)} problems, {args.time_limit:g} s{budget} each, {args.jobs} job(s); load {load}", flush=True)
    out = open(args.out, "w", encoding="utf-8") if args.out else None
    results = []
    tasks = [(row, args.time_limit, args.max_nodes, args.euclide, args.process) for row in rows]
    with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
        for r in pool.imap(_worker, tasks):
            results.append(r)
            euclide = r["euclide_positions"] if r["euclide_positions"] is not None else "-"
            flag = " CONTRADICTION" if r["contradictions"] else ""
            if r["euclide_run"] is not None:
                flag += f" | euclide-run {r['euclide_run']['verdict']} {r['euclide_run']['wall']:.2f} s"
            print(
                f"{r['id']:28s} {r['plies']:3d} euclide {r['euclide_verdict']:13s} {euclide!s:>9} | "
                f"ours {r['status']:11s} {r['found']} {r['nodes']:>9,} {r['seconds']:7.2f} s{flag}",
                flush=True,
            )
            if out:
                out.write(json.dumps(r) + "\n")
                out.flush()
    if out:
        out.close()
    summarize(results)
    summarize_halves(results)
    summarize_euclide(results)
    sys.exit(1 if any(r["contradictions"] for r in results) else 0)


if __name__ == "__main__":
    main()

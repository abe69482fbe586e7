"""Benchmark of ``retro.unwinnable`` (issue 5 acceptance figures).

Usage::

    .venv/bin/python bench/unwinnable.py dev [--max-nodes N] [--quick] [-j N]
    .venv/bin/python bench/unwinnable.py lichess [--limit N] [--max-nodes N] [--routine full|quick|both]

``dev``: every position of data/unwinnability-dev.jsonl for both intended winners; prints
contradictions with the labels (must be 0), decided / undetermined counts, time, CPU time
and nodes (``-j N``: N processes; the times are per query, measured in the workers).
``lichess``: data/lichess-30k-positions.txt with the intended winner = the side that just
moved; prints verdict counts, mean / median / max time per position, mean nodes and time
per node, for the full and/or the quick routine. Single process. ``--reference``: move
generation by python-chess (the reference path) instead of the fast generator;
``--pure-python``: the pure-Python searches instead of the compiled core. The compiled
core's compile (first run) or load from its cache is timed before the first query and
printed, not counted in the per-position figures.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
import sys
import time
from pathlib import Path

import chess

from retro.unwinnable import analyze, jitcore

DATA = Path(__file__).resolve().parent.parent / "data"


def _summary(name: str, counts: dict[str, int], times: list[float], nodes: list[int]) -> None:
    total = sum(times)
    print(f"[{name}] positions: {len(times)}  " + "  ".join(f"{k}: {v}" for k, v in sorted(counts.items())))
    if times:
        print(
            f"[{name}] time per position: mean {1e6 * total / len(times):.1f} us, median "
            f"{1e6 * statistics.median(times):.1f} us, max {1e3 * max(times):.1f} ms; total {total:.1f} s"
        )
        per_node = f"{1e6 * total / sum(nodes):.1f} us" if sum(nodes) else "-"
        print(
            f"[{name}] nodes per position: mean {sum(nodes) / len(nodes):.1f}, max {max(nodes)}; "
            f"time per node {per_node} (position set-up included)"
        )
    sys.stdout.flush()


def _warm_up(compiled: bool) -> None:
    """Compile or load the compiled core before the timed queries, and say how long it took."""
    if compiled and jitcore.AVAILABLE:
        print(f"[compiled core] compile or cache load: {jitcore.warm_up():.2f} s (not in the figures below)")
    else:
        print("[pure-Python searches]")
    sys.stdout.flush()


def _dev_query(query: tuple[str, chess.Color, bool, int, bool, bool, bool]) -> tuple[str, float, int, str, float]:
    fen, winner, quick, max_nodes, reference, compiled, _ = query
    board = chess.Board(fen)
    cpu = time.process_time()
    verdict = analyze(board, winner, quick=quick, max_nodes=max_nodes, reference=reference, compiled=compiled, fen=fen)
    return verdict.status, verdict.seconds, verdict.nodes, verdict.reason, time.process_time() - cpu


def dev(
    max_nodes: int, quick: bool, verbose: bool = False, jobs: int = 1, reference: bool = False, compiled: bool = True
) -> None:
    _warm_up(compiled and not reference)
    rows = [json.loads(line) for line in open(DATA / "unwinnability-dev.jsonl", encoding="utf-8") if line.strip()]
    queries = [
        (row["fen"], winner, quick, max_nodes, reference, compiled, row[key])
        for row in rows
        for winner, key in ((chess.WHITE, "white_can_win"), (chess.BLACK, "black_can_win"))
    ]
    counts: dict[str, int] = {}
    times: list[float] = []
    nodes: list[int] = []
    cpu_times: list[float] = []
    contradictions: list[tuple[str, str, str]] = []
    undetermined: list[tuple[str, str]] = []
    start = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        results = pool.imap(_dev_query, queries, chunksize=2) if jobs > 1 else map(_dev_query, queries)
        for (fen, winner, *_, label), (status, seconds, used, reason, cpu) in zip(queries, results, strict=True):
            side = "white" if winner == chess.WHITE else "black"
            counts[status] = counts.get(status, 0) + 1
            times.append(seconds)
            cpu_times.append(cpu)
            nodes.append(used)
            if status == "undetermined":
                undetermined.append((fen, side))
            elif (status == "winnable") != label:
                contradictions.append((fen, side, status))
            if verbose and (seconds > 1 or status == "undetermined"):
                print(f"  {status:12s} {seconds:7.1f} s {used:9d} nodes {reason}: {fen} {side}", flush=True)
    name = "dev quick" if quick else f"dev full max_nodes={max_nodes}"
    _summary(name, counts, times, nodes)
    print(
        f"[{name}] queries: {len(times)}  decided: {len(times) - len(undetermined)}  "
        f"contradictions: {len(contradictions)}  (-j {jobs}, wall {time.perf_counter() - start:.1f} s)"
    )
    print(
        f"[{name}] CPU time per query (in the process that ran it): mean {1e6 * statistics.mean(cpu_times):.1f} us, "
        f"median {1e6 * statistics.median(cpu_times):.1f} us, max {1e3 * max(cpu_times):.1f} ms"
    )
    for item in contradictions:
        print("  CONTRADICTION", *item)
    for fen, side in undetermined[:40]:
        print("  undetermined", fen, side)


def lichess(
    limit: int | None, max_nodes: int, routines: list[str], reference: bool = False, compiled: bool = True
) -> None:
    _warm_up(compiled and not reference)
    boards = []
    for line in open(DATA / "lichess-30k-positions.txt", encoding="utf-8"):
        fields = line.split()
        if len(fields) >= 4:
            boards.append((" ".join(fields[:6]), chess.Board(" ".join(fields[:6]))))
    if limit:
        boards = boards[:limit]
    for routine in routines:
        counts: dict[str, int] = {}
        times: list[float] = []
        nodes: list[int] = []
        unwinnable = []
        start = time.perf_counter()
        cpu_times: list[float] = []
        for fen, board in boards:
            cpu = time.process_time()
            verdict = analyze(
                board,
                not board.turn,
                quick=routine == "quick",
                max_nodes=max_nodes,
                reference=reference,
                compiled=compiled,
                fen=fen,
            )
            cpu_times.append(time.process_time() - cpu)
            counts[verdict.status] = counts.get(verdict.status, 0) + 1
            times.append(verdict.seconds)
            nodes.append(verdict.nodes)
            if verdict.status == "unwinnable":
                unwinnable.append(fen)
        _summary(f"lichess {routine} max_nodes={max_nodes}", counts, times, nodes)
        print(
            f"[lichess {routine}] wall {time.perf_counter() - start:.1f} s; CPU time of this process per position: "
            f"mean {1e6 * statistics.mean(cpu_times):.1f} us, median {1e6 * statistics.median(cpu_times):.1f} us, "
            f"per node {1e6 * sum(cpu_times) / max(1, sum(nodes)):.1f} us (the wall-clock figures above include "
            f"waiting for a core on a loaded machine)"
        )
        for fen in unwinnable:
            print("  unwinnable", fen)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=["dev", "lichess"])
    parser.add_argument("--max-nodes", type=int, default=1_000_000)
    parser.add_argument("--quick", action="store_true", help="dev: quick routine instead of full")
    parser.add_argument("--verbose", action="store_true", help="dev: print slow or undetermined queries as they come")
    parser.add_argument("--limit", type=int, default=None, help="lichess: first N positions only")
    parser.add_argument("--routine", choices=["full", "quick", "both"], default="both")
    parser.add_argument("-j", "--jobs", type=int, default=1, help="dev: worker processes")
    parser.add_argument("--reference", action="store_true", help="python-chess move generation (reference path)")
    parser.add_argument("--pure-python", action="store_true", help="pure-Python searches, not the compiled core")
    args = parser.parse_args()
    compiled = not args.pure_python
    if args.what == "dev":
        dev(args.max_nodes, args.quick, args.verbose, args.jobs, args.reference, compiled)
    else:
        routines = ["full", "quick"] if args.routine == "both" else [args.routine]
        lichess(args.limit, args.max_nodes, routines, args.reference, compiled)


if __name__ == "__main__":
    main()

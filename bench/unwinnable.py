"""Benchmark of ``retro.unwinnable``.

Usage::

    .venv/bin/python bench/unwinnable.py dev [--max-nodes N] [--quick] [-j N] [--rows all|even|odd]
    .venv/bin/python bench/unwinnable.py lichess [--limit N] [--max-nodes N] [--routine full|quick|both]
        [--cha PATH [--cha-quick PATH]]

``dev``: every position of data/unwinnability-dev.jsonl for both intended winners; prints
contradictions with the labels (must be 0), decided / undetermined counts (also split by
even and odd rows, counted from 0, for judging a change on rows it was not tuned on), time,
CPU time and nodes (``-j N``: N processes; the times are per query, measured in the
workers; ``--rows``: only the even or odd rows).
``lichess``: data/lichess-30k-positions.txt with the intended winner = the side that just
moved; prints verdict counts, mean / median / max time per position, mean nodes and time
per node, for the full and/or the quick routine. Single process. ``--reference``: move
generation by python-chess (the reference path) instead of the fast generator;
``--pure-python``: the pure-Python searches instead of the compiled core. The compiled
core's compile (first run) or load from its cache is timed before the first query and
printed, not counted in the per-position figures. ``--cha PATH`` (lichess): CHA, the
reference C++ implementation, runs on the same positions in the same run, just before
each routine of retro (its full routine; for the quick one ``-quick`` of ``--cha-quick``,
by default ``cha-printall`` beside ``--cha``, which prints every position); printed: its
verdict counts, the positions where one says winnable and the other unwinnable (must be
0), and both figures with the ratio retro / CHA: mean and median time per position (each
program's own per-position time) and batch wall (CHA: its process from start to exit;
retro: the loop over the positions). The load average is printed at the start and end.
The boards are parsed before the timed loops and then frozen out of the garbage
collector (``gc.freeze``): 30,000 boards kept by the benchmark would otherwise make each
full collection triggered during a query scan them all (up to about 0.2 s at once, 6 us
on the mean of 30,000 quick queries), a cost of the harness that a query does not have.
"""

from __future__ import annotations

import argparse
import gc
import json
import multiprocessing
import os
import re
import statistics
import subprocess
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
    max_nodes: int,
    quick: bool,
    verbose: bool = False,
    jobs: int = 1,
    reference: bool = False,
    compiled: bool = True,
    rows_kept: str = "all",
) -> None:
    _warm_up(compiled and not reference)
    rows = [json.loads(line) for line in open(DATA / "unwinnability-dev.jsonl", encoding="utf-8") if line.strip()]
    parity = {"all": None, "even": 0, "odd": 1}[rows_kept]
    numbered = [(index, row) for index, row in enumerate(rows) if parity is None or index % 2 == parity]
    queries = [
        (row["fen"], winner, quick, max_nodes, reference, compiled, row[key])
        for _, row in numbered
        for winner, key in ((chess.WHITE, "white_can_win"), (chess.BLACK, "black_can_win"))
    ]
    row_of = [index for index, _ in numbered for _ in range(2)]
    odd_undetermined = 0
    counts: dict[str, int] = {}
    times: list[float] = []
    nodes: list[int] = []
    cpu_times: list[float] = []
    contradictions: list[tuple[str, str, str]] = []
    undetermined: list[tuple[str, str]] = []
    start = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        results = pool.imap(_dev_query, queries, chunksize=2) if jobs > 1 else map(_dev_query, queries)
        for index, (fen, winner, *_, label), (status, seconds, used, reason, cpu) in zip(
            row_of, queries, results, strict=True
        ):
            side = "white" if winner == chess.WHITE else "black"
            counts[status] = counts.get(status, 0) + 1
            odd_undetermined += status == "undetermined" and index % 2
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
        f"[{name}] rows: {rows_kept}  undetermined on even rows: {len(undetermined) - odd_undetermined}, "
        f"on odd rows: {odd_undetermined}"
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
    limit: int | None,
    max_nodes: int,
    routines: list[str],
    reference: bool = False,
    compiled: bool = True,
    cha: str | None = None,
    cha_quick: str | None = None,
) -> None:
    _warm_up(compiled and not reference)
    boards = []
    for line in open(DATA / "lichess-30k-positions.txt", encoding="utf-8"):
        fields = line.split()
        if len(fields) >= 4:
            boards.append((" ".join(fields[:6]), chess.Board(" ".join(fields[:6]))))
    if limit:
        boards = boards[:limit]
    gc.collect()
    gc.freeze()  # the boards are the harness's, not the queries' (module docstring)
    print(f"[load] {_load()} at the start")
    for routine in routines:
        quick = routine == "quick"
        binary = (cha_quick or str(Path(cha).with_name("cha-printall"))) if cha and quick else cha
        reference_run = _run_cha(binary, [fen for fen, _ in boards], quick) if binary else None
        counts: dict[str, int] = {}
        times: list[float] = []
        nodes: list[int] = []
        statuses: list[str] = []
        unwinnable = []
        start = time.perf_counter()
        cpu_times: list[float] = []
        for fen, board in boards:
            cpu = time.process_time()
            verdict = analyze(
                board, not board.turn, quick=quick, max_nodes=max_nodes, reference=reference, compiled=compiled, fen=fen
            )
            cpu_times.append(time.process_time() - cpu)
            counts[verdict.status] = counts.get(verdict.status, 0) + 1
            times.append(verdict.seconds)
            nodes.append(verdict.nodes)
            statuses.append(verdict.status)
            if verdict.status == "unwinnable":
                unwinnable.append(fen)
        wall = time.perf_counter() - start
        _summary(f"lichess {routine} max_nodes={max_nodes}", counts, times, nodes)
        print(
            f"[lichess {routine}] wall {wall:.1f} s; CPU time of this process per position: "
            f"mean {1e6 * statistics.mean(cpu_times):.1f} us, median {1e6 * statistics.median(cpu_times):.1f} us, "
            f"per node {1e6 * sum(cpu_times) / max(1, sum(nodes)):.1f} us (the wall-clock figures above include "
            f"waiting for a core on a loaded machine)"
        )
        if reference_run is not None and binary is not None:
            _side_by_side(routine, binary, reference_run, times, wall, statuses)
        for fen in unwinnable:
            print("  unwinnable", fen)
    print(f"[load] {_load()} at the end")


def _load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} ({os.cpu_count()} cores)"


#: A CHA result line: ``<status> [moves] nodes N time T (FEN)``, T in microseconds.
_CHA_LINE = re.compile(r"^(winnable|unwinnable|undetermined)\b.*\bnodes (\d+) time (\d+) \((.*)\)$")


def _run_cha(binary: str, fens: list[str], quick: bool) -> tuple[list[tuple[str, int, float]], float]:
    """Run CHA (full routine, or ``-quick``) on ``fens`` in one process: per position
    (status, nodes, its own time in seconds), and the batch wall time (process start included).
    CHA's intended winner is the side that just moved, as in :func:`lichess`."""
    command = [binary, "-quick"] if quick else [binary]
    start = time.perf_counter()
    try:
        done = subprocess.run(command, input="\n".join(fens) + "\n", capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError) as error:
        raise SystemExit(f"{binary}: {error}") from None
    wall = time.perf_counter() - start
    rows = []
    for line in done.stdout.splitlines():
        match = _CHA_LINE.match(line)
        if match:
            rows.append((match.group(1), int(match.group(2)), int(match.group(3)) * 1e-6))
    if len(rows) != len(fens):
        raise SystemExit(f"{binary}: {len(rows)} result lines for {len(fens)} positions (for -quick use cha-printall)")
    return rows, wall


def _side_by_side(
    routine: str,
    binary: str,
    reference: tuple[list[tuple[str, int, float]], float],
    times: list[float],
    wall: float,
    statuses: list[str],
) -> None:
    """Print CHA's figures next to retro's, with the ratios retro / CHA, and the verdicts
    that contradict each other (winnable for one, unwinnable for the other: must be 0)."""
    rows, cha_wall = reference
    cha_times = [seconds for _, _, seconds in rows]
    counts: dict[str, int] = {}
    for status, _, _ in rows:
        counts[status] = counts.get(status, 0) + 1
    contradictions = sum(
        1 for (theirs, _, _), ours in zip(rows, statuses, strict=True) if {theirs, ours} == {"winnable", "unwinnable"}
    )
    tag = f"[side by side {routine}]"
    print(
        f"{tag} CHA ({binary}{' -quick' if routine == 'quick' else ''}): "
        + "  ".join(f"{k}: {v}" for k, v in sorted(counts.items()))
        + f"; contradictions with retro: {contradictions}"
    )
    print(f"{tag} {'':24s} {'retro':>12s} {'CHA':>12s} {'retro/CHA':>10s}")
    for name, ours, theirs in (
        ("mean per position (us)", 1e6 * statistics.mean(times), 1e6 * statistics.mean(cha_times)),
        ("median per position (us)", 1e6 * statistics.median(times), 1e6 * statistics.median(cha_times)),
        ("batch wall (ms)", 1e3 * wall, 1e3 * cha_wall),
    ):
        ratio = f"{ours / theirs:10.2f}" if theirs else f"{'-':>10s}"
        print(f"{tag} {name:24s} {ours:12.1f} {theirs:12.1f} {ratio}")
    sys.stdout.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=["dev", "lichess"])
    parser.add_argument("--max-nodes", type=int, default=1_000_000)
    parser.add_argument("--quick", action="store_true", help="dev: quick routine instead of full")
    parser.add_argument("--verbose", action="store_true", help="dev: print slow or undetermined queries as they come")
    parser.add_argument("--rows", choices=["all", "even", "odd"], default="all", help="dev: only the even or odd rows")
    parser.add_argument("--limit", type=int, default=None, help="lichess: first N positions only")
    parser.add_argument("--routine", choices=["full", "quick", "both"], default="both")
    parser.add_argument("-j", "--jobs", type=int, default=1, help="dev: worker processes")
    parser.add_argument("--reference", action="store_true", help="python-chess move generation (reference path)")
    parser.add_argument("--pure-python", action="store_true", help="pure-Python searches, not the compiled core")
    parser.add_argument(
        "--cha", metavar="PATH", help="lichess: run CHA (full routine) side by side, e.g. ../shared/anchors/cha"
    )
    parser.add_argument(
        "--cha-quick", metavar="PATH", help="lichess: the CHA for --routine quick (default: cha-printall beside --cha)"
    )
    args = parser.parse_args()
    for option, path in (("--cha", args.cha), ("--cha-quick", args.cha_quick)):
        if path and not os.access(path, os.X_OK):
            parser.error(f"{option} {path}: not an executable file")
    compiled = not args.pure_python
    if args.what == "dev":
        dev(args.max_nodes, args.quick, args.verbose, args.jobs, args.reference, compiled, args.rows)
    else:
        routines = ["full", "quick"] if args.routine == "both" else [args.routine]
        lichess(args.limit, args.max_nodes, routines, args.reference, compiled, args.cha, args.cha_quick)


if __name__ == "__main__":
    main()

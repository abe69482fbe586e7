"""Benchmark of the illegality pipeline (issue #3) on data/cpr-923-dev.jsonl.

Prints, for the 301 labelled positions: verdict counts against the labels (an
``illegal`` verdict on a position labelled legal is a soundness bug), the reasons,
how many legal ones got a kernel, the median / max / total seconds, the sizes and
solve times of every extended-kernel CP-SAT model built, and the FENs left unknown.

    .venv/bin/python bench/legality.py [--limit N] [--max-nodes N] [--time-limit S] [--only illegal] [--each]
                                       [--no-static-retraction]
"""

from __future__ import annotations

import argparse
import collections
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import proofkernel.extended
import retro.legality
from retro.core.position import parse_fen
from retro.legality import decide

DATA = Path(__file__).resolve().parent.parent / "data" / "cpr-923-dev.jsonl"

MODELS: list = []  # every ExtendedKernel built during the run


def _recording(extend: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        result = extend(*args, **kwargs)
        MODELS.append(result)
        return result

    return wrapper


def _spread(name: str, values: list[float], unit: str = "") -> str:
    if not values:
        return f"{name}: none"
    return (
        f"{name}: median {statistics.median(values):.4g}{unit}, mean {statistics.fmean(values):.4g}{unit}, "
        f"max {max(values):.4g}{unit}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--max-nodes", type=int, default=200_000)
    parser.add_argument("--time-limit", type=float, default=30.0)
    parser.add_argument("--only", choices=["legal", "illegal"], default=None)
    parser.add_argument("--each", action="store_true", help="print each position's verdict and nodes")
    parser.add_argument(
        "--no-static-retraction",
        action="store_true",
        help="skip the static last-move analysis before the kernel search (the 'before' figures)",
    )
    args = parser.parse_args()
    if args.no_static_retraction:
        retro.legality._refuted_by_static_retraction = lambda *_args, **_kwargs: False
    proofkernel.extended.extend_kernel = _recording(proofkernel.extended.extend_kernel)  # imported at each call
    rows = [json.loads(line) for line in DATA.open()]
    if args.only:
        rows = [r for r in rows if r["legal"] == (args.only == "legal")]
    rows = rows[: args.limit]
    counts: collections.Counter = collections.Counter()
    reasons: collections.Counter = collections.Counter()
    times: list[float] = []
    wrong = []
    unknown_illegal = []
    start = time.monotonic()
    for i, row in enumerate(rows):
        board = parse_fen(row["fen"]).board
        verdict = decide(board, max_nodes=args.max_nodes, time_limit=args.time_limit)
        times.append(verdict.seconds)
        label = "legal" if row["legal"] else "illegal"
        got = str(verdict.status)
        if got == "unknown" and verdict.kernel:
            got = "unknown+kernel"
        counts[(label, got)] += 1
        if label == "illegal" and verdict.status == "unknown":
            unknown_illegal.append(row["fen"])
        if verdict.status == "illegal":
            reasons[verdict.reason.split(":")[0][:60]] += 1
            if label == "legal":
                wrong.append(row["fen"])
        if args.each:
            print(f"#{i} {verdict.status} {verdict.nodes} nodes {verdict.reason}", flush=True)
        print(f"\r{i + 1}/{len(rows)}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    total = time.monotonic() - start
    for key, n in sorted(counts.items()):
        print(f"label {key[0]:8} -> {key[1]:15} {n}")
    print("reasons:", dict(reasons.most_common()))
    print(f"legal ruled illegal (soundness bugs): {len(wrong)}", *wrong, sep="\n  ")
    print("labelled illegal left unknown:", *unknown_illegal, sep="\n  ")
    print(f"extended-kernel models solved: {len(MODELS)} ({collections.Counter(m.status for m in MODELS)})")
    print(_spread("  variables", [m.variables for m in MODELS]))
    print(_spread("  constraints", [m.constraints for m in MODELS]))
    print(_spread("  solve seconds", [m.seconds for m in MODELS], " s"))
    print(
        f"seconds per position: median {statistics.median(times):.3f}, mean {statistics.fmean(times):.3f}, "
        f"max {max(times):.2f}; total {total:.1f}"
    )


if __name__ == "__main__":
    main()

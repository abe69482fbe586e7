"""CPU seconds per shortest-proof-game search node, and a fingerprint of the search itself.

Runs :func:`retro.spg.solve.solve` on problems of data/spg-dev.jsonl with a node budget and
no time limit, so the search does not depend on the machine's speed or load: two trees
that search the same nodes in the same order give the same status, node count and
games here, whatever their speed. One JSON line per problem (row, id, plies, status,
nodes, CPU seconds, a digest of the games in the order found), then the CPU seconds per
node (median / overall) and the load average.

``--compare BEFORE AFTER`` reads two such outputs (e.g. from this script run with
``PYTHONPATH`` on a baseline tree and on the changed one) and prints, per problem, whether
the search is identical and the CPU-per-node ratio, then the medians by plies class; it
exits 1 when any problem differs.

usage: .venv/bin/python bench/spg_cost.py [--rows even|odd|all] [--only R,S,..] [--nodes N] [-o OUT]
       .venv/bin/python bench/spg_cost.py --compare BEFORE.jsonl AFTER.jsonl
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import sys
import time
from pathlib import Path

from search_cost import print_costs  # bench/ is the script's directory

DATA = Path(__file__).resolve().parent.parent / "data" / "spg-dev.jsonl"


def _digest(games: list[list[str]]) -> str:
    return hashlib.sha1("|".join(" ".join(game) for game in games).encode()).hexdigest()[:12]


def measure(row: int, record: dict, nodes: int) -> dict:
    """One bounded ``solve`` run: its outcome and fingerprint, and its CPU seconds."""
    from retro.spg import parse_problem
    from retro.spg.solve import solve

    began = time.process_time()
    verdict = solve(parse_problem(record["board"], record["plies"]), max_nodes=nodes, time_limit=None)
    cpu = time.process_time() - began
    return {
        "row": row,
        "id": record["id"],
        "plies": record["plies"],
        "status": str(verdict.status),
        "nodes": verdict.nodes,
        "games": _digest(verdict.solutions),
        "cpu": round(cpu, 3),
        "cpu_per_node_us": round(1e6 * cpu / max(1, verdict.nodes), 1),
    }


def _band(plies: int) -> str:
    return "<=20" if plies <= 20 else "21-30" if plies <= 30 else ">30"


def compare(before_file: str, after_file: str) -> int:
    """Print the per-problem comparison; 0 when every search is identical."""

    def load(name: str) -> dict[int, dict]:
        return {r["row"]: r for r in map(json.loads, Path(name).read_text().splitlines()) if "row" in r}

    before, after = load(before_file), load(after_file)
    fields = ("status", "nodes", "games")
    differ, ratios = 0, []
    bands: dict[str, list[float]] = {}
    for row in sorted(before.keys() & after.keys()):
        b, a = before[row], after[row]
        same = all(b[f] == a[f] for f in fields)
        differ += not same
        ratio = a["cpu_per_node_us"] / max(0.1, b["cpu_per_node_us"])
        ratios.append(ratio)
        bands.setdefault(_band(b["plies"]), []).append(ratio)
        print(
            f"row {row:3d} {b['id']:28s} {b['plies']:3d} {'same' if same else 'DIFFERENT'} {b['status']:11s}"
            f" {b['nodes']:7d} -> {a['nodes']:7d} nodes {b['cpu_per_node_us']:7.1f} -> {a['cpu_per_node_us']:7.1f}"
            f" us/node ({ratio:.2f}x)"
        )
    by_band = ", ".join(f"{k} {statistics.median(v):.3f} ({len(v)})" for k, v in sorted(bands.items()))
    print(
        f"{len(ratios)} problems, {differ} different; median CPU-per-node ratio {statistics.median(ratios):.3f};"
        f" by plies: {by_band}"
    )
    return 1 if differ else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", choices=("even", "odd", "all"), default="even", help="rows of the file (0-based)")
    parser.add_argument("--only", help="comma-separated rows of the file (overrides --rows)")
    parser.add_argument("--verdict", default="unique", help="Euclide verdict of the problems kept (default unique)")
    parser.add_argument("--nodes", type=int, default=20_000, help="node budget per problem (no time limit)")
    parser.add_argument("-o", "--output", help="also write the JSON lines to this file")
    parser.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"), help="compare two outputs")
    args = parser.parse_args()
    if args.compare:
        sys.exit(compare(*args.compare))
    records = [json.loads(line) for line in DATA.read_text().splitlines()]
    if args.only:
        rows = [int(i) for i in args.only.split(",")]
    else:
        parity = {"even": 0, "odd": 1}.get(args.rows)
        rows = [
            i
            for i, r in enumerate(records)
            if r["euclide_verdict"] == args.verdict and (parity is None or i % 2 == parity)
        ]
    print_costs((measure(row, records[row], args.nodes) for row in rows), args.output, "problems")


if __name__ == "__main__":
    main()

"""CPU seconds per proof-game search node, and a fingerprint of the search itself.

Runs ``retro.proofgame.prove`` on legal positions of data/cpr-923-dev.jsonl with a node
budget and no time limit, so the search does not depend on the machine's speed or load:
two trees that search the same nodes in the same order give the same status, node count,
proof game (or best line) and ``found_by`` here, whatever their speed. One JSON line per
position (index, status, nodes, CPU seconds, a digest of the game and of the best line),
then the CPU seconds per node (median / total) and the load average.

``--compare BEFORE AFTER`` reads two such outputs (e.g. from this script run with
``PYTHONPATH`` on a baseline tree and on the changed one) and prints, per position, whether
the search is identical and the CPU-per-node ratio, then the medians; it exits 1 when any
position differs.

usage: .venv/bin/python bench/search_cost.py [--only I,J,..] [--nodes N] [-o OUT]
       .venv/bin/python bench/search_cost.py --compare BEFORE.jsonl AFTER.jsonl
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import sys
import time
from collections.abc import Iterable
from pathlib import Path

import chess

DATA = Path(__file__).resolve().parent.parent / "data" / "cpr-923-dev.jsonl"

#: every 9th legal dev position, and the hard #71, #74, #103 and #161
DEFAULT_ONLY = sorted({*range(0, 176, 9), 71, 74, 103, 161})


def _digest(moves: list[str] | tuple[str, ...]) -> str:
    return hashlib.sha1(" ".join(moves).encode()).hexdigest()[:12]


def measure(index: int, fen: str, nodes: int) -> dict:
    """One bounded ``prove`` run: its outcome and fingerprint, and its CPU seconds."""
    from retro.proofgame import prove

    began = time.process_time()
    verdict = prove(chess.Board(fen), max_nodes=nodes, time_limit=None)
    cpu = time.process_time() - began
    return {
        "index": index,
        "status": str(verdict.status),
        "nodes": verdict.nodes,
        "game": _digest(verdict.proof),
        "best": _digest(verdict.best_line),
        "found_by": verdict.found_by,
        "cpu": round(cpu, 3),
        "cpu_per_node_us": round(1e6 * cpu / max(1, verdict.nodes), 1),
    }


def compare(before_file: str, after_file: str) -> int:
    """Print the per-position comparison; 0 when every search is identical."""

    def load(name: str) -> dict[int, dict]:
        return {r["index"]: r for r in map(json.loads, Path(name).read_text().splitlines()) if "index" in r}

    before, after = load(before_file), load(after_file)
    fields = ("status", "nodes", "game", "best", "found_by")
    differ, ratios = 0, []
    for index in sorted(before.keys() & after.keys()):
        b, a = before[index], after[index]
        same = all(b[f] == a[f] for f in fields)
        differ += not same
        ratio = a["cpu_per_node_us"] / b["cpu_per_node_us"]
        ratios.append(ratio)
        print(
            f"#{index:3d} {'same' if same else 'DIFFERENT'} {b['status']:8s} {b['nodes']:7d} nodes"
            f"  {b['cpu_per_node_us']:7.1f} -> {a['cpu_per_node_us']:7.1f} us/node ({ratio:.2f}x)"
        )
    print(f"{len(ratios)} positions, {differ} different; median CPU-per-node ratio {statistics.median(ratios):.3f}")
    return 1 if differ else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", help="comma-separated indices among the legal positions")
    parser.add_argument("--nodes", type=int, default=30_000, help="node budget per position (no time limit)")
    parser.add_argument("-o", "--output", help="also write the JSON lines to this file")
    parser.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"), help="compare two outputs")
    args = parser.parse_args()
    if args.compare:
        sys.exit(compare(*args.compare))
    legal = [r for r in map(json.loads, DATA.read_text().splitlines()) if r.get("legal")]
    only = [int(i) for i in args.only.split(",")] if args.only else DEFAULT_ONLY
    print_costs((measure(index, legal[index]["fen"], args.nodes) for index in only), args.output, "positions")


def print_costs(records: Iterable[dict], output: str | None, noun: str) -> None:
    """Print each measured record as a JSON line (also to ``output``, flushed per line),
    then the CPU seconds per node (median / overall) and the load average."""
    out = open(output, "w") if output else None  # noqa: SIM115
    per_node, cpu_total, nodes_total = [], 0.0, 0
    for record in records:
        line = json.dumps(record)
        print(line, flush=True)
        if out:
            out.write(line + "\n")
            out.flush()
        per_node.append(record["cpu_per_node_us"])
        cpu_total += record["cpu"]
        nodes_total += record["nodes"]
    print(
        f"{len(per_node)} {noun}, {nodes_total} nodes, {cpu_total:.1f} CPU s; CPU per node: median "
        f"{statistics.median(per_node):.1f} us, overall {1e6 * cpu_total / max(1, nodes_total):.1f} us; "
        f"load average {os.getloadavg()[0]:.2f}"
    )
    if out:
        out.close()


if __name__ == "__main__":
    main()

"""How far past its time limit ``retro proofgame -t T`` answers.

Runs ``python -m retro.cli proofgame FEN -t T --json`` once per position and time limit
(each in a fresh process, as a user or the server runs it) and prints, per run, the
status, the search's own ``seconds`` and the wall time of the whole command; then per
time limit the distribution (min / median / max) of the overrun ``seconds - T`` and of
``wall - T`` (which adds the interpreter's start-up and imports). The contract
(``retro proofgame --help``) is ``seconds <= T + 0.5`` on an idle core. The load
average is printed with the figures: on a shared machine the overrun grows with it.

Positions: the first ``--limit`` of ``data/cpr-sample-10k-undecided.fen`` (positions
the pipeline leaves undecided, so the whole time is used) and bare kings.

usage: .venv/bin/python bench/deadline.py [--limit N] [--times 2,5]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "data" / "cpr-sample-10k-undecided.fen"
BARE_KINGS = "8/8/4k3/8/8/4K3/8/8 w - - 0 1"


def _run(fen: str, seconds: float) -> tuple[str, float, float]:
    began = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "retro.cli", "proofgame", fen, "-t", str(seconds), "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.monotonic() - began
    if not done.stdout.strip():
        return "crash", wall, wall
    record = json.loads(done.stdout.splitlines()[-1])
    return str(record["status"]), float(record["seconds"]), wall


def _spread(values: list[float]) -> str:
    return f"min {min(values):+.2f}  median {statistics.median(values):+.2f}  max {max(values):+.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, default=9, help="positions of the sample file (default 9)")
    parser.add_argument("--times", default="2,5", help="time limits in seconds, comma-separated (default 2,5)")
    args = parser.parse_args()
    fens = [BARE_KINGS] + [line.strip() for line in DATA.read_text().splitlines() if line.strip()][: args.limit]
    print(f"load average at start: {os.getloadavg()[0]:.2f}")
    for limit in (float(t) for t in args.times.split(",")):
        inner, outer = [], []
        for fen in fens:
            status, seconds, wall = _run(fen, limit)
            inner.append(seconds - limit)
            outer.append(wall - limit)
            print(f"-t {limit:g}  {status:8s} seconds {seconds:6.2f}  wall {wall:6.2f}  {fen}", flush=True)
        print(f"-t {limit:g}: {len(fens)} runs; seconds - T: {_spread(inner)};  wall - T: {_spread(outer)}")
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()

"""Start-up time of the ``retro`` command line: median wall time of N runs (hyperfine style).

Usage: ``python bench/startup.py [--runs 10]``. Runs ``python -m retro.cli check FEN`` (FEN the
start position; FEN2 after 1.e4 d5 2.exd5, which needs OR-Tools) and ``python -m retro.cli --help``
(with this interpreter, the worktree on PYTHONPATH) N times
each after one warm-up run, and prints the median, min and max wall times, the median CPU
time (user + system, less sensitive to the load of a shared machine) and the load average
(``os.getloadavg``) at the start and the end.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
# after 1.e4 d5 2.exd5: a pawn changed files, so the pawn-fates rule builds its CP-SAT model
CAPTURE_FEN = "rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2"
COMMANDS = {
    "retro check FEN": ["check", FEN],
    "retro check FEN2": ["check", CAPTURE_FEN],
    "retro --help": ["--help"],
}


def run_times(argv: list[str], runs: int) -> tuple[list[float], list[float]]:
    """Wall times and CPU times (user + system, which depend far less on the machine's
    load) of ``runs`` runs."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    command = [sys.executable, "-m", "retro.cli", *argv]
    subprocess.run(command, env=env, capture_output=True, check=True)  # warm-up (file cache)
    walls, cpus = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(command, env=env, capture_output=True, check=True)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return walls, cpus


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}; {args.runs} runs each; {sys.executable}")
    for name, argv in COMMANDS.items():
        walls, cpus = run_times(argv, args.runs)
        print(
            f"{name:20s} wall median {statistics.median(walls):.3f} s (min {min(walls):.3f}, max {max(walls):.3f}); "
            f"cpu median {statistics.median(cpus):.3f} s"
        )
    print(f"load average at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()

"""Start-up time of the ``retro`` command line: median wall time of N runs (hyperfine style).

Usage: ``python bench/startup.py [--runs 10] [--root DIR] [--only WORD]``. Runs each command of
:data:`COMMANDS` as ``python -m retro.cli ...`` (this interpreter, ``DIR``, default this
worktree, on PYTHONPATH) N times after one warm-up run, and prints the median, min and max
wall times, the median CPU time (user + system, less sensitive to the load of a shared
machine) and the load average (``os.getloadavg``) at the start and the end. ``--only``
keeps the commands whose name contains WORD.

Every process runs as an installed retro does (:func:`installed_env`): its modules' bytecode
compiled once and kept, as ``pip install`` compiles it. This machine sets
``PYTHONDONTWRITEBYTECODE``, under which every process would compile every retro module
again (about 0.03-0.1 s of CPU per call), which no installed copy pays.

The commands: ``--help``; ``check`` on the start position and after 1.e4 d5 2.exd5 (which
needs OR-Tools for the pawn-fates model); ``proofgame`` on positions the static rules
decide (texel's illegal sample ``rnbqkbnr/p1pppppp/p7/...``), that the static last-move
walk decides (texel's ``k1bBrR2/...``), that tempo parity decides (the start position
with Black to move) and a legal one that needs the search (1.e4 d5); ``unwinnable`` and
``revmoves`` on a simple ending; ``spg`` on two small dev problems (10 and 6 plies), which
load nothing beyond python-chess and retro (no NumPy or SciPy, branch spgs).

What each command loads beyond python-chess and retro's own pure-Python modules
(``python -X importtime``, branch pg3): ``--help``, both ``check`` runs, ``proofgame``
static and tempo: nothing (the pawn-fates rule answers the capture position by its
promotion-free fates, texel's static sample by its capture-count relaxation, without a
model); ``proofgame`` last-move walk: OR-Tools' compiled CP-SAT helper
(``cp_model_helper``, about 0.06 s), for the pawn-fates models of the predecessors,
written by :mod:`retro.core.cpsat` without ``cp_model.py`` and its pandas; ``proofgame``
search: that helper, NumPy and SciPy's ``optimize`` (the assignment of the heuristic,
about 0.45 s), the kernel and A* modules; ``unwinnable`` and ``revmoves``: nothing.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
# after 1.e4 d5 2.exd5: a pawn changed files, so the pawn-fates rule builds its CP-SAT model
CAPTURE_FEN = "rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2"
COMMANDS = {
    "retro --help": ["--help"],
    "retro check FEN": ["check", FEN],
    "retro check FEN2": ["check", CAPTURE_FEN],
    "proofgame static": ["proofgame", "rnbqkbnr/p1pppppp/p7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "-t", "5"],
    "proofgame lastmove": [
        "proofgame",
        "k1bBrR2/1B1rbN2/p2BN1Q1/2n3bP/p2bNR1p/2R1n3/P4b2/1K3b2 b - - 0 1",
        "-t",
        "5",
    ],
    "proofgame tempo": ["proofgame", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1", "-t", "5"],
    "proofgame search": ["proofgame", "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "-t", "5"],
    "unwinnable": ["unwinnable", "8/8/4k3/8/8/4K3/4P3/8 w - - 0 1"],
    # a 10-ply SPG of the dev file (natch-test-problems-38, 2,115 nodes) and a 6-ply one (no-captures-1)
    "spg 10 plies": ["spg", "rnbqk2r/1ppppp1p/8/p7/4n3/2b2N2/PPPPP1PP/RNBQKB1R", "10"],
    "spg 6 plies": ["spg", "rnb1kbnr/pppp1ppp/8/4p3/3q4/4KP2/PPPPP1PP/RNBQ1BNR", "6"],
    "revmoves": ["revmoves", "8/8/4k3/8/8/4K3/4P3/8 w - - 0 1"],
}


#: where the bytecode of the measured trees is kept (``PYTHONPYCACHEPREFIX`` mirrors each
#: source file's absolute path below it, so trees do not share files)
PYCACHE = Path(tempfile.gettempdir()) / "retro-bench-pycache"


def installed_env(root: Path) -> dict[str, str]:
    """The environment of a ``python -m retro.cli`` process of the tree ``root`` that runs as
    an installed retro: ``root`` on PYTHONPATH, and the modules' bytecode written once to
    :data:`PYCACHE` and read by every later process (``PYTHONDONTWRITEBYTECODE`` dropped)."""
    env = dict(os.environ, PYTHONPATH=str(root), PYTHONPYCACHEPREFIX=str(PYCACHE))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def run_times(argv: list[str], runs: int, root: Path = ROOT) -> tuple[list[float], list[float]]:
    """Wall times and CPU times (user + system, which depend far less on the machine's
    load) of ``runs`` runs."""
    env = installed_env(root)
    command = [sys.executable, "-m", "retro.cli", *argv]
    # run from the tree: ``python -m`` puts the working directory before PYTHONPATH
    subprocess.run(command, env=env, capture_output=True, check=True, cwd=root)  # warm-up (file cache, bytecode)
    walls, cpus = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(command, env=env, capture_output=True, check=True, cwd=root)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return walls, cpus


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--root", type=Path, default=ROOT, help="the source tree to run (default: this one)")
    parser.add_argument("--only", default="", help="only the commands whose name contains this")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}; {args.runs} runs each; {sys.executable}")
    print(f"source tree {args.root}")
    for name, argv in COMMANDS.items():
        if args.only not in name:
            continue
        walls, cpus = run_times(argv, args.runs, args.root)
        print(
            f"{name:20s} wall median {statistics.median(walls):.3f} s (min {min(walls):.3f}, max {max(walls):.3f}); "
            f"cpu median {statistics.median(cpus):.3f} s"
        )
    print(f"load average at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()

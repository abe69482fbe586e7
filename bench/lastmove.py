"""Last-move problems of data/lastmove-dev.jsonl: how many are solved uniquely and correctly.

A retraction-sequence problem is solved when exactly one sequence of its length
survives and it is the published one; a last-move-type problem when the surviving last
moves all have the published type, and the other side has no legal last move at all
(type-A problems). Known cages (``needs_cages``) are the verified cages of ``data/cages.txt``
(made with ``retro cage -f``); the legality pipeline runs when ``retro.legality`` exists.

    .venv/bin/python bench/lastmove.py [--no-legality] [--budget NODES] [--only BOARD ...]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import time
from pathlib import Path

import chess

from cages.library import Library
from retro.lastmove.solver import solve

DATA = Path(__file__).resolve().parent.parent / "data"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--no-legality", action="store_true")
    parser.add_argument("--budget", type=int, default=20_000)
    parser.add_argument("--cages", default=str(DATA / "cages.txt"),
                        help="known cages, verified by `retro cage -f` (default data/cages.txt; '' for none)")
    parser.add_argument("--only", nargs="+", metavar="BOARD",
                        help="run only the problems with these boards (piece placements)")
    args = parser.parse_args()
    use_legality = not args.no_legality and importlib.util.find_spec("retro.legality") is not None
    library = Library.load(args.cages) if args.cages else None
    print(f"legality pipeline: {'on' if use_legality else 'off'}; known cages: {len(library.cages) if library else 0}")
    solved = with_cages = total = 0
    times = []
    for line in open(DATA / "lastmove-dev.jsonl"):
        problem = json.loads(line)
        if args.only and problem["board"] not in args.only:
            continue
        total += 1
        side = chess.WHITE if problem["retract"] == "w" else chess.BLACK
        board = chess.Board(problem["board"] + " w - - 0 1")
        sequence = problem["answer_kind"] == "retraction_sequence"
        moves = len(problem["answer"]) if sequence else 1
        start = time.perf_counter()
        verdict = solve(board, side, moves=moves, use_legality=use_legality, legality_nodes=args.budget,
                        cages=library)
        if sequence:
            good = verdict.status == "unique" and list(verdict.solutions[0].moves) == problem["answer"]
            other_ok = True
            got = [" ".join(s.moves) for s in verdict.solutions]
        else:
            types = sorted({s.type for s in verdict.solutions})
            good = types == [problem["answer"]]
            other = solve(board, not side, moves=1, use_legality=use_legality, legality_nodes=args.budget,
                          cages=library)
            other_ok = other.status == "none"
            got = types
        seconds = time.perf_counter() - start
        times.append(seconds)
        ok = good and other_ok
        solved += ok
        with_cages += ok and bool(problem["needs_cages"])
        mark = "solved " if ok else "open   "
        note = "" if other_ok else " (other side also has a last move)"
        print(f"{mark}{seconds:6.2f}s  {problem['board']:40s} expected {problem['answer']}  got {got[:5]}{note}")
    print(f"\nsolved {solved} of {total} uniquely and correctly ({with_cages} of them needed cages); "
          f"time per problem median {statistics.median(times):.2f} s, mean {statistics.mean(times):.2f} s, "
          f"max {max(times):.2f} s, total {sum(times):.1f} s")


if __name__ == "__main__":
    main()

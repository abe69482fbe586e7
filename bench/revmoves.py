"""Benchmark of the reverse move generator: retractions per second.

Positions: the property test's 10,000 positions of seeded random legal games
(``tests/retro/revmoves_games.py``, seeds 1000-1003, 2,500 each), plus optionally the
first N real Lichess positions of ``data/lichess-30k-positions.txt``. One process.

    .venv/bin/python bench/revmoves.py [--lichess N] [--repeat R]

Prints positions, retractions, time per position (median / mean / max) and the rates
of :func:`retro.core.revmoves.retractions` and of :func:`retro.core.revmoves.predecessor`.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import chess

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from retro.core.revmoves import predecessor, retractions  # noqa: E402
from tests.retro.revmoves_games import random_game_positions  # noqa: E402


def lichess_boards(count: int) -> list[chess.Board]:
    boards = []
    with open(ROOT / "data" / "lichess-30k-positions.txt", encoding="utf-8") as handle:
        for line in handle:
            fields = line.split()
            if len(fields) < 4:
                continue
            boards.append(chess.Board(" ".join(fields[:4])))
            if len(boards) >= count:
                break
    return boards


def measure(name: str, boards: list[chess.Board], repeat: int) -> None:
    per_position: list[float] = []
    total = 0
    for board in boards:
        best = float("inf")
        for _ in range(repeat):
            start = time.perf_counter()
            found = retractions(board)
            best = min(best, time.perf_counter() - start)
        per_position.append(best)
        total += len(found)
    seconds = sum(per_position)
    print(f"[{name}] positions: {len(boards)}, retractions: {total} ({total / len(boards):.1f} per position)")
    print(
        f"[{name}] retractions(): {seconds:.2f} s total, per position median "
        f"{statistics.median(per_position) * 1e6:.0f} us, mean {statistics.mean(per_position) * 1e6:.0f} us, "
        f"max {max(per_position) * 1e6:.0f} us"
    )
    print(f"[{name}] rate: {total / seconds:,.0f} retractions/s, {len(boards) / seconds:,.0f} positions/s")
    start = time.perf_counter()
    built = 0
    for board in boards:
        for retraction in retractions(board):
            predecessor(board, retraction)
            built += 1
    elapsed = time.perf_counter() - start
    print(f"[{name}] retractions() + predecessor() for each: {elapsed:.2f} s, {built / elapsed:,.0f} predecessors/s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--lichess",
        type=int,
        default=10_000,
        metavar="N",
        help="also measure the first N Lichess positions (0 to skip; default 10000)",
    )
    parser.add_argument("--repeat", type=int, default=1, help="time each position R times, keep the best")
    args = parser.parse_args()
    start = time.perf_counter()
    positions = [board for chunk in range(4) for board, _ in random_game_positions(seed=1000 + chunk, count=2_500)]
    print(f"generated {len(positions)} random-game positions in {time.perf_counter() - start:.2f} s")
    measure("random games", positions, args.repeat)
    if args.lichess:
        measure("lichess", lichess_boards(args.lichess), args.repeat)


if __name__ == "__main__":
    main()

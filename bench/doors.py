"""Every answer is for the question asked, whichever door: Lichess positions x both winners.

Usage::

    .venv/bin/python bench/doors.py [--limit 300] [--max-nodes N]

Takes the first ``--limit`` positions of ``data/lichess-30k-positions.txt`` (six-field
FENs with a game id) and asks, for each, whether White and whether Black can still
checkmate, through ``retro unwinnable -f`` in the documented batch formats: ``<FEN>
white``, ``<FEN> black``, ``<FEN> <game id> black`` and ``<FEN> white <game id>``. Each
record is compared with the Python API's answer for the winner the line asked
(``retro.winnability``): a record about the other winner, with another status, or
without the game id as its label is wrong. Prints the counts; the figure must be 0
wrong.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import tempfile
import time
from pathlib import Path

import retro
from retro.cli import main

DATA = Path(__file__).resolve().parent.parent / "data"


def _queries(limit: int) -> list[tuple[str, str, str | None, str]]:
    """(batch line, winner asked, label expected, FEN) for each position and format."""
    queries = []
    for line in (DATA / "lichess-30k-positions.txt").read_text().splitlines()[:limit]:
        fields = line.split()
        fen, game = " ".join(fields[:6]), fields[6]
        queries += [
            (f"{fen} white", "white", None, fen),
            (f"{fen} black", "black", None, fen),
            (f"{fen} {game} black", "black", game, fen),
            (f"{fen} white {game}", "white", game, fen),
        ]
    return queries


def run(limit: int, max_nodes: int) -> int:
    queries = _queries(limit)
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "queries.txt"
        path.write_text("".join(line + "\n" for line, _, _, _ in queries))
        out = io.StringIO()
        start = time.perf_counter()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            code = main(["unwinnable", "-f", str(path), "--json", "--max-nodes", str(max_nodes)])
        seconds = time.perf_counter() - start
    records = [json.loads(line) for line in out.getvalue().splitlines()]
    wrong_winner = wrong_status = wrong_label = wrong = 0
    answers: dict[tuple[str, str], str] = {}
    for (_, winner, label, fen), record in zip(queries, records, strict=True):
        if (fen, winner) not in answers:
            answers[fen, winner] = retro.winnability(fen, winner, max_nodes=max_nodes).status
        misses = (
            record.get("winner") != winner,
            record.get("status") != answers[fen, winner],
            record.get("id") != label,
        )
        wrong_winner += misses[0]
        wrong_status += misses[1]
        wrong_label += misses[2]
        wrong += any(misses)
    print(f"positions: {limit}  queries: {len(queries)}  records: {len(records)}  exit code: {code}")
    print(f"answer about another winner: {wrong_winner}")
    print(f"status differs from the Python API's for the winner asked: {wrong_status}")
    print(f"label (game id) lost or invented: {wrong_label}")
    print(f"wrong answers: {wrong} of {len(queries)}  (batch wall {seconds:.1f} s)")
    return 1 if wrong else 0


def cli() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, default=300, help="Lichess positions (default 300)")
    parser.add_argument("--max-nodes", type=int, default=1_000_000, help="node budget per query (default 1,000,000)")
    args = parser.parse_args()
    return run(args.limit, args.max_nodes)


if __name__ == "__main__":
    raise SystemExit(cli())

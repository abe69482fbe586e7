"""Hwa's cage prototype suite (data/cages-dev.jsonl): verdicts against expectations and time.

Rows of a group are checked in group_index order with the cages verified earlier in
the group known, as the prototype's tests do.

    .venv/bin/python bench/cage_suite.py
"""

import json
import time
from pathlib import Path

import chess

from cages.library import CageSpec, Library
from cages.verify import Options, verify

DATA = Path(__file__).resolve().parent.parent / "data"


def main() -> None:
    rows = [json.loads(line) for line in open(DATA / "cages-dev.jsonl")]
    rows.sort(key=lambda r: (r["group"], r["group_index"]))
    libraries: dict[str, Library] = {}
    right = cages = nodes = 0
    start = time.perf_counter()
    for row in rows:
        library = libraries.setdefault(row["group"], Library())
        extra = 0
        for name in row["zone_extra"]:
            extra |= chess.BB_SQUARES[chess.parse_square(name)]
        spec = CageSpec(
            chess.Board(row["board"] + " w - - 0 1"),
            extra,
            Options(frozenset(chess.parse_square(n) for n in row["frozen"])),
            row["depth"],
        )
        verdict = verify(
            spec.board, extra_zone=extra, options=spec.options, depth=spec.depth, library=library, cache=library.cache
        )
        if verdict.status == "cage":
            library.add(spec)
            cages += 1
        nodes += verdict.nodes
        ok = (verdict.status == "cage") == row["expected_cage"]
        right += ok
        if not ok:
            print("WRONG:", row["board"], row["expected_cage"], verdict)
    seconds = time.perf_counter() - start
    print(
        f"{right} of {len(rows)} as expected ({cages} verified cages, "
        f"{sum(r['expected_cage'] for r in rows)} expected); {nodes} states; {seconds:.3f} s for the file"
    )


if __name__ == "__main__":
    main()

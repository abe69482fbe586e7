"""Hwa's cage prototype suite (data/cages-dev.jsonl): verdicts against expectations, states
and time, for each setting of the verifier's reductions; then the cages whose units
wander (issue 40), which the suite does not contain.

Rows of a group are checked in group_index order with the cages verified earlier in
the group known, as the prototype's tests do. Every figure is printed with the load.

    PYTHONPATH=. .venv/bin/python bench/cage_suite.py [--wander-nodes N]
"""

import argparse
import json
import os
import time
from pathlib import Path

import chess

from cages.library import CageSpec, Library
from cages.verify import Options, Reductions, verify

DATA = Path(__file__).resolve().parent.parent / "data"
SETTINGS = {
    "canonical form only": Reductions(subsumption=False, sleep_sets=False, lemmas=False),
    "+ subsumption": Reductions(subsumption=True, sleep_sets=False, lemmas=False),
    "+ lemma cages (default)": Reductions(),
    "+ sleep sets": Reductions(sleep_sets=True),
}
WANDERING = (
    "k1br2b1/ppKppp1B/2p3p1/8/8/8/8/8",  # the bishop and rook going round
    "nK1k4/r1ppRppp/pp2p3/8/8/8/8/8",
    "k1KB4/rpRpppp1/b1p5/1p6/8/8/8/8",
    "1rqk4/K1ppRppp/pp2p3/8/8/8/8/8",
)


def suite(reductions: Reductions) -> None:
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
            spec.board,
            extra_zone=extra,
            options=spec.options,
            depth=spec.depth,
            library=library,
            cache=library.cache,
            reductions=reductions,
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
        f"  suite: {right} of {len(rows)} as expected ({cages} verified cages, "
        f"{sum(r['expected_cage'] for r in rows)} expected); {nodes} states; {seconds:.3f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--wander-nodes", type=int, default=10_000, help="state budget for the wandering cages")
    args = parser.parse_args()
    print("load before: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    for name, reductions in SETTINGS.items():
        print(name)
        suite(reductions)
        for board in WANDERING:
            verdict = verify(chess.Board(board + " w - - 0 1"), max_nodes=args.wander_nodes, reductions=reductions)
            print(f"  {board:36s} {verdict.status:13s} {verdict.nodes:7d} states {verdict.seconds:7.2f} s")
    print("load after: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))


if __name__ == "__main__":
    main()

"""The KRK legality theorem (paper 004): count, retrograde classes, CP-SAT claims, PFix games.

Prints the count of initially legal positions (paper: 399,112), Lippold's classes from
the explicit retrograde analysis, the brute-force check of each claim, the CP-SAT status
of each claim with model sizes and times, and claim 3's proof games (a one-minute
search with retro.proofgame first, then the paper's game). One process, CP-SAT with
one worker; about five minutes on this machine.

    .venv/bin/python bench/krk.py [--workers N] [--search-seconds S]
"""

import argparse
import time

import numpy as np

from retro.commands.krk import summary
from retro.krk.pfix import pfix_proof_game
from retro.krk.position import CODE_COUNT, KrkPosition, is_initially_legal
from retro.krk.retrograde import analyse
from retro.krk.sat import prove_descent, prove_paper_claim_2


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--search-seconds", type=float, default=60.0)
    args = parser.parse_args()

    start = time.perf_counter()
    analysis = analyse()
    data = summary(analysis)
    print(f"initially legal: {data['initially_legal']:,} of {CODE_COUNT:,} codes (paper 399,112)")
    start_scalar = time.perf_counter()
    scalar = np.array([is_initially_legal(KrkPosition.from_code(c)) for c in range(CODE_COUNT)])
    print(
        f"  one-position rule agrees on every code: {bool(np.array_equal(scalar, analysis.legal))} "
        f"({time.perf_counter() - start_scalar:.1f} s)"
    )
    print(f"moves between initially legal positions: {len(analysis.sources):,}")
    for name, count in data["classes"].items():
        print(f"  {name:32s} {count:9,d}")
    print(
        f"theorem (explicit): positions with a predecessor = positions reached from PFix: {data['theorem_holds']} "
        f"({data['with_predecessor']:,}; at most {data['max_plies_from_pfix']} plies from PFix)"
    )
    print(f"claims by brute force (counterexamples): {data['claim_failures_explicit']}")
    print(
        f"derivedly illegal within KRK: possibly legal outside KRK {data['derived_possibly_legal_outside_krk']}, "
        f"no predecessor at all {len(data['derived_without_any_predecessor'])}: "
        f"{', '.join(data['derived_without_any_predecessor'])}"
    )
    print(
        "times: "
        + ", ".join(f"{k} {v:.2f} s" for k, v in data["seconds"].items())
        + f"; summary total {time.perf_counter() - start:.1f} s",
        flush=True,
    )

    for white_to_move in (False, True):
        proof = pfix_proof_game(white_to_move, search_seconds=args.search_seconds)
        print(
            f"claim 3 {proof.position.fen()}: retro.proofgame: {proof.search}; game used: {proof.source}, "
            f"{proof.plies} plies, replayed ({proof.seconds:.1f} s)",
            flush=True,
        )

    for run in (
        lambda: prove_descent(workers=args.workers),
        lambda: prove_paper_claim_2(workers=args.workers),
        lambda: prove_descent(retractable_end=True, workers=args.workers),
    ):
        result = run()
        print(f"claim {result.claim}: {result.status} ({result.seconds:.1f} s) -- {result.statement}")
        for m in result.models:
            print(
                f"  root {'w' if m.white_to_move else 'b'} to move: {m.status}, {m.variables:,} variables, "
                f"{m.constraints:,} constraints, build {m.build_seconds:.1f} s, solve {m.solve_seconds:.1f} s",
                flush=True,
            )
        if result.counterexamples:
            print(f"  counterexamples: {', '.join(str(p) for p in result.counterexamples)}")


if __name__ == "__main__":
    main()

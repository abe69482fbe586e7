"""``retro krk``: the KRK legality theorem (paper ``004``) -- counts, proofs, explanations.

Without ``--explain``: the count of initially legal KRK positions (paper: 399,112),
Lippold's classes from the explicit retrograde analysis, the positions the theorem
covers, the derivedly illegal ones split by the paper's warning (Figures 6-7: a KRK
position illegal *within KRK* can be legal as a 4-unit position whose last move was a
capture; the counts are within KRK, and those with a last move from outside KRK are
listed as "possibly legal"), the CP-SAT status of each claim with model sizes and
times, and claim 3's proof games for PFix.

With ``--explain FEN``: why that position is legal (the move path from PFix and a
replayed proof game) or illegal (its class and the reason). A bad or non-KRK FEN is an
error (exit 2).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the KRK modules import NumPy and OR-Tools: imported where used (start-up time)
    from retro.krk.retrograde import KrkAnalysis
    from retro.krk.sat import ClaimResult

__all__ = ["register", "run", "summary"]

PAPER_COUNT = 399_112


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "krk",
        help="legality of KRK positions: the paper's count and theorem (CP-SAT), explicit retrograde check",
        description="The KRK legality theorem of the KRK paper: every initially legal KRK position with an "
        "initially legal predecessor is legal. Prints the count of initially legal positions, Lippold's "
        "classes from an explicit retrograde analysis, the CP-SAT status of each claim (model sizes and "
        "times; a few minutes on one core) and the proof games of PFix. Counts of derivedly illegal "
        "positions are within KRK: a last move from outside KRK (a capture, Figures 6-7) is reported apart.",
        epilog="example: retro krk --explain '8/8/8/8/8/RK6/8/k7 b - - 0 1'",
    )
    parser.add_argument("--explain", metavar="FEN", help="explain why this KRK position is legal or illegal")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--no-sat", action="store_true", help="skip the CP-SAT proofs (counts and games only)")
    parser.add_argument("--workers", type=int, default=1, metavar="N", help="CP-SAT worker threads (default 1)")
    parser.add_argument(
        "--time-limit", type=float, default=900.0, metavar="SEC", help="CP-SAT time limit per model (default 900)"
    )
    parser.add_argument(
        "--search-seconds",
        type=float,
        default=0.0,
        metavar="SEC",
        help="first search PFix's proof games with retro.proofgame for SEC seconds (default 0: use the paper's game)",
    )
    parser.set_defaults(func=run)


def summary(analysis: KrkAnalysis) -> dict:
    """Counts of the explicit analysis, the theorem check and the outside-KRK split."""
    import numpy as np

    from retro.krk.outside import outside_predecessors
    from retro.krk.position import CODE_COUNT, KrkPosition
    from retro.krk.retrograde import claim_failures

    reached = analysis.distance >= 0
    covered = analysis.legal & (analysis.predecessor_count > 0)
    derived = np.flatnonzero(analysis.level > 0)
    possibly: list[str] = []
    no_predecessor: list[str] = []
    for code in derived:
        position = KrkPosition.from_code(int(code))
        (possibly if outside_predecessors(position) else no_predecessor).append(position.fen())
    return {
        "codes": CODE_COUNT,
        "initially_legal": analysis.initially_legal,
        "paper_count": PAPER_COUNT,
        "classes": analysis.class_counts(),
        "with_predecessor": int(covered.sum()),
        "theorem_holds": bool(np.array_equal(covered, reached)),
        "max_plies_from_pfix": int(analysis.distance.max()),
        "claim_failures_explicit": claim_failures(analysis),
        "derived_possibly_legal_outside_krk": len(possibly),
        "derived_without_any_predecessor": no_predecessor,
        "seconds": {k: round(v, 3) for k, v in analysis.seconds.items()},
    }


def _claim_record(result: ClaimResult) -> dict:
    return {
        "claim": result.claim,
        "statement": result.statement,
        "status": result.status,
        "counterexamples": [p.fen() for p in result.counterexamples],
        "models": [
            {
                "side": "w" if m.white_to_move else "b",
                "status": m.status,
                "variables": m.variables,
                "constraints": m.constraints,
                "build_seconds": round(m.build_seconds, 2),
                "solve_seconds": round(m.solve_seconds, 2),
            }
            for m in result.models
        ],
    }


def _print_summary(data: dict) -> None:
    same = "same as" if data["initially_legal"] == data["paper_count"] else "paper:"
    print(
        f"initially legal KRK positions: {data['initially_legal']:,} of {data['codes']:,} codes "
        f"({same} the paper's {data['paper_count']:,})"
    )
    print("Lippold's classes within KRK (no uncaptures), explicit retrograde analysis:")
    for name, count in data["classes"].items():
        print(f"  {name:32s} {count:9,d}")
    print(
        f"theorem check: {data['with_predecessor']:,} initially legal positions have a predecessor; all reached "
        f"from PFix: {'yes' if data['theorem_holds'] else 'NO'} (at most {data['max_plies_from_pfix']} plies)"
    )
    failures = ", ".join(f"{k}: {v}" for k, v in data["claim_failures_explicit"].items())
    print(f"claims checked by brute force (counterexamples): {failures}")
    print(
        f"derivedly illegal within KRK but with a last move from outside KRK (capture/promotion/castling; "
        f"possibly legal, Figures 6-7): {data['derived_possibly_legal_outside_krk']}; with no predecessor at "
        f"all (illegal): {len(data['derived_without_any_predecessor'])}"
    )
    times = ", ".join(f"{k} {v:.2f} s" for k, v in data["seconds"].items())
    print(f"times: {times}")


def _print_claim(record: dict) -> None:
    print(f"claim {record['claim']}: {record['status']} -- {record['statement']}")
    for m in record["models"]:
        print(
            f"  root {m['side']} to move: {m['status']}, {m['variables']:,} variables, {m['constraints']:,} "
            f"constraints, build {m['build_seconds']:.1f} s, solve {m['solve_seconds']:.1f} s"
        )
    if record["counterexamples"]:
        found = record["counterexamples"]
        print(f"  counterexamples ({len(found)}): {'; '.join(found[:3])}{' ...' if len(found) > 3 else ''}")


def run(args: argparse.Namespace) -> int:
    from retro.krk.explain import explain
    from retro.krk.pfix import pfix_proof_game
    from retro.krk.position import parse_krk
    from retro.krk.retrograde import analyse
    from retro.krk.sat import prove_descent, prove_paper_claim_2

    if args.explain is not None:
        parse_krk(args.explain)  # a bad FEN fails before the analysis is built
        result = explain(args.explain, analyse())
        if args.json:
            print(json.dumps(result.record()))
            return 0
        kind = "" if result.krk_class == result.status else f" ({result.krk_class})"
        print(f"{result.fen}: {result.status}{kind}: {result.reason}")
        if result.path:
            print(f"from PFix: {' '.join(result.path)}")
            print(f"proof game ({len(result.proof)} plies): {' '.join(result.proof)}")
        for line in result.retractions:
            print(f"  retraction {line}")
        for item in result.outside:
            print(f"  outside KRK: {item.kind} {item.move} from {item.before_fen}")
        return 0
    data = summary(analyse())
    if not args.json:
        _print_summary(data)
        sys.stdout.flush()
    games = []
    for white_to_move in (False, True):
        proof = pfix_proof_game(white_to_move, search_seconds=args.search_seconds)
        games.append(
            {
                "fen": proof.position.fen(),
                "source": proof.source,
                "search": proof.search,
                "plies": proof.plies,
                "proof": proof.game.san(),
                "seconds": round(proof.seconds, 2),
            }
        )
        if not args.json:
            print(
                f"claim 3: {proof.position.fen()}: proof game of {proof.plies} plies replayed "
                f"({proof.source}; search: {proof.search})",
                flush=True,
            )
    data["pfix"] = games
    if not args.no_sat:
        if not args.json:
            print("proving the claims with CP-SAT (a few minutes on one core) ...", file=sys.stderr, flush=True)
        start = time.perf_counter()
        limits = {"time_limit": args.time_limit, "workers": args.workers}
        data["claims"] = []
        for prove in (
            lambda: prove_descent(**limits),
            lambda: prove_paper_claim_2(**limits),
            lambda: prove_descent(retractable_end=True, **limits),
        ):
            record = _claim_record(prove())
            data["claims"].append(record)
            if not args.json:
                _print_claim(record)
                sys.stdout.flush()
        data["sat_seconds"] = round(time.perf_counter() - start, 1)
        proved = {r["claim"]: r["status"] for r in data["claims"]}.get("2'") == "proved"
        data["theorem"] = "proved (claims 2' and 3)" if proved else "not proved by CP-SAT"
        if not args.json:
            print(f"CP-SAT total {data['sat_seconds']:.0f} s; theorem: {data['theorem']}")
    if args.json:
        print(json.dumps(data))
    return 0

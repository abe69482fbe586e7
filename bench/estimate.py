"""Benchmark of counting legal positions (issue #8): Tromp's sample and our own sampler.

Part a -- Tromp's 10,000-position sample (data/cpr-sample-10k.fen, field 6 = m, N =
8726713169886222032347729969256422370854716254; published: 538 legal, (4.59 +- 0.38)e44):

1. the static rules (``retro.core.rules.check_static``) over all 10,000: how many they
   prove illegal, how many survive, the time;
2. ``retro.legality.decide`` with a small budget over the survivors (``--decide-limit``
   of them, default all): illegal / unknown, the time;
3. ``retro.proofgame.prove`` on the first ``--prove`` survivors still unknown: legal
   found (proof games replayed by ``prove`` itself), the time;
4. a status file for the 10,000 (verdicts above; the labels of data/cpr-923-dev.jsonl
   -- 301 of the sample's positions -- where retro has none) through ``retro estimate
   --status``. Every verdict is compared with the labels: an illegal verdict on a
   position labelled legal (or the converse) is a soundness bug and is printed.

Part b -- our own sample space (retro/sampling.py): its size, then ``retro estimate
--samples n --seed S`` (sample, static rules, ``prove`` with ``-m/-t``), its interval,
the legal fraction and the time per sample, beside Tromp's (4.82 +- 0.03)e44.

usage: .venv/bin/python bench/estimate.py [--part a|b|all] [--decide-limit N] [--prove N]
       [--draws N] [--seed S] [--nodes N] [--seconds S]
"""

from __future__ import annotations

import argparse
import collections
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from retro.core.position import parse_fen
from retro.core.rules import check_static
from retro.legality import decide
from retro.proofgame import prove
from retro.sampling import STANDARD

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "data" / "cpr-sample-10k.fen"
LABELS = ROOT / "data" / "cpr-923-dev.jsonl"
TROMP_N = 8726713169886222032347729969256422370854716254


def _retro(*args: str) -> tuple[str, float]:
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "retro.cli", *args], capture_output=True, text=True, check=True)
    return done.stdout, time.monotonic() - start


def _progress(i: int, total: int, what: str) -> None:
    print(f"\r{what} {i}/{total}", end="", file=sys.stderr, flush=True)


def part_a(args: argparse.Namespace) -> None:
    lines = SAMPLE.read_text().splitlines()
    labels = {json.loads(row)["fen"]: json.loads(row)["legal"] for row in LABELS.read_text().splitlines()}
    print(
        f"== Tromp's sample: {len(lines)} positions, {len(labels)} labelled "
        f"({sum(labels.values())} legal) in {LABELS.name}"
    )
    status: list[tuple[str, str]] = []  # (status, evidence) per line
    bugs: list[str] = []

    start = time.monotonic()
    for i, line in enumerate(lines):
        verdict = check_static(parse_fen(line))
        status.append(("illegal", verdict.reason) if verdict.status == "illegal" else ("unknown", ""))
        if i % 500 == 0:
            _progress(i, len(lines), "static")
    static_seconds = time.monotonic() - start
    survivors = [i for i, (s, _) in enumerate(status) if s == "unknown"]
    print(
        f"\nstatic rules: {len(lines) - len(survivors)} illegal, {len(survivors)} survive "
        f"(Tromp's simple filter leaves 923); {static_seconds:.1f} s, "
        f"{1000 * static_seconds / len(lines):.2f} ms per position"
    )

    todo = survivors[: args.decide_limit]
    start = time.monotonic()
    decided: collections.Counter[str] = collections.Counter()
    for k, i in enumerate(todo):
        legality = decide(parse_fen(lines[i]).board, max_nodes=args.decide_nodes, time_limit=args.decide_seconds)
        decided[legality.status] += 1
        if legality.status == "illegal":
            status[i] = ("illegal", legality.reason)
        _progress(k + 1, len(todo), "decide")
    decide_seconds = time.monotonic() - start
    print(
        f"\nlegality.decide (max_nodes {args.decide_nodes}, {args.decide_seconds} s) on {len(todo)} of the "
        f"{len(survivors)} survivors: {decided['illegal']} illegal, {decided['unknown']} unknown; "
        f"{decide_seconds:.1f} s, {decide_seconds / max(1, len(todo)):.2f} s per position"
    )

    unknown = [i for i in survivors if status[i][0] == "unknown"][: args.prove]
    start = time.monotonic()
    proved: collections.Counter[str] = collections.Counter()
    for k, i in enumerate(unknown):
        game = prove(parse_fen(lines[i]).board, max_nodes=args.nodes, time_limit=args.seconds)
        proved[game.status] += 1
        if game.status != "unknown":
            status[i] = (game.status, " ".join(game.proof) or game.reason)
        _progress(k + 1, len(unknown), "prove")
    prove_seconds = time.monotonic() - start
    print(
        f"\nproofgame.prove (max_nodes {args.nodes}, {args.seconds} s) on {len(unknown)} unknown survivors: "
        f"{proved['legal']} legal (replayed proof games), {proved['illegal']} illegal, "
        f"{proved['unknown']} unknown; {prove_seconds:.1f} s, {prove_seconds / max(1, len(unknown)):.2f} s per position"
    )

    retro_counts = collections.Counter(s for s, _ in status)
    print(
        f"retro alone on the 10,000: legal {retro_counts['legal']}, illegal {retro_counts['illegal']}, "
        f"unknown {retro_counts['unknown']}"
    )
    for i, line in enumerate(lines):
        if line in labels:
            label = "legal" if labels[line] else "illegal"
            if status[i][0] not in ("unknown", label):
                bugs.append(f"{line}: retro says {status[i][0]}, label {label}")
            elif status[i][0] == "unknown":
                status[i] = (label, "label from cpr-923-dev.jsonl")
    print(f"verdicts contradicting the labels (soundness bugs): {len(bugs)}", *bugs, sep="\n  ")

    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as handle:
        for line, (label, evidence) in zip(lines, status, strict=True):
            handle.write(f"{line} {label}: {'proof: ' if label == 'legal' else ''}{evidence}\n")
        path = handle.name
    for mode in ("retro verdicts + labels",):
        out, seconds = _retro("estimate", "--status", path, "--size", str(TROMP_N))
        print(f"retro estimate --status <{mode}> --size N  ({seconds:.1f} s):")
        print("  " + out.strip().replace("\n", "\n  "))
    print("published (Tromp): 538 legal, (4.59 +- 0.38)e44 at 95%")
    Path(path).unlink()


def part_b(args: argparse.Namespace) -> None:
    print("== our sample space S (retro/sampling.py)")
    print(
        f"N = |S| = {STANDARD.size} = {STANDARD.size:.4e} = {STANDARD.size / STANDARD.board_size:.4f} "
        f"rights options per board (side to move, castling, en passant) x {STANDARD.board_size:.4e} boards"
    )
    with tempfile.TemporaryDirectory() as tmp:
        status = Path(tmp) / "status.txt"
        out, seconds = _retro(
            "estimate",
            "--samples",
            str(args.draws),
            "--seed",
            str(args.seed),
            "-m",
            str(args.nodes),
            "-t",
            str(args.seconds),
            "-o",
            str(status),
            "--json",
        )
        result = json.loads(out)
        text, _ = _retro("estimate", "--status", str(status), "--size", str(STANDARD.size))
        survivors = sum(1 for line in status.read_text().splitlines()[1:] if " illegal: " not in line)
    print(
        f"retro estimate --samples {args.draws} --seed {args.seed} -m {args.nodes} -t {args.seconds}: "
        f"{seconds:.1f} s, {1000 * seconds / args.draws:.1f} ms per sample; {survivors} draws survive the "
        f"static rules ({survivors / args.draws:.2%}), "
        f"{seconds / max(1, survivors):.1f} s per survivor"
    )
    print("  " + text.strip().replace("\n", "\n  "))
    print(
        f"legal fraction {result['legal'] / result['samples']:.4f} "
        f"(at most {(result['legal'] + result['unknown']) / result['samples']:.4f} with the unknowns)"
    )
    print("Tromp: (4.82 +- 0.03)e44 from two samples of 1,000,000")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=["a", "b", "all"], default="all")
    parser.add_argument("--decide-limit", type=int, default=None, help="survivors given to legality.decide")
    parser.add_argument("--decide-nodes", type=int, default=2000)
    parser.add_argument("--decide-seconds", type=float, default=2.0)
    parser.add_argument("--prove", type=int, default=20, help="unknown survivors given to proofgame.prove")
    parser.add_argument("--draws", type=int, default=3000, help="part b: draws from our S")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--nodes", type=int, default=20_000, help="prove: node budget per position")
    parser.add_argument("--seconds", type=float, default=5.0, help="prove: time budget per position")
    args = parser.parse_args()
    if args.part in ("a", "all"):
        part_a(args)
    if args.part in ("b", "all"):
        part_b(args)


if __name__ == "__main__":
    main()

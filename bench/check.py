"""Static rules over Tromp's 10,000-position sample and the 923-dev labels.

Prints the counts per rule, the time for the whole file, and the soundness check that
no position labelled legal in cpr-923-dev.jsonl is ruled illegal.

    .venv/bin/python bench/check.py
"""

import collections
import json
import time
from pathlib import Path

from retro.core.position import parse_fen
from retro.core.rules import RULE_NAMES, check_static

DATA = Path(__file__).resolve().parent.parent / "data"


def main() -> None:
    counts: collections.Counter[str] = collections.Counter()
    start = time.perf_counter()
    with open(DATA / "cpr-sample-10k.fen") as handle:
        for line in handle:
            counts[check_static(parse_fen(line)).rule or "no objection"] += 1
    seconds = time.perf_counter() - start
    total = sum(counts.values())
    illegal = total - counts["no objection"]
    print(
        f"cpr-sample-10k.fen: {illegal} of {total} ruled illegal, {counts['no objection']} left "
        f"(Tromp's simple filter leaves 923) in {seconds:.1f} s ({1e3 * seconds / total:.2f} ms/position)"
    )
    for name in RULE_NAMES:
        print(f"  {name:26s} {counts[name]:6d}")
    legal_wrong = 0
    caught: collections.Counter[str] = collections.Counter()
    with open(DATA / "cpr-923-dev.jsonl") as handle:
        for line in handle:
            case = json.loads(line)
            verdict = check_static(parse_fen(case["fen"]))
            if case["legal"] and verdict.status == "illegal":
                legal_wrong += 1
                print("SOUNDNESS BUG:", case["fen"], verdict)
            if not case["legal"]:
                caught[verdict.rule or "no objection"] += 1
    print(
        f"cpr-923-dev.jsonl: {legal_wrong} legal positions ruled illegal; of the "
        f"{sum(caught.values())} labelled illegal, static rules catch "
        f"{sum(caught.values()) - caught['no objection']}: {dict(caught)}"
    )


if __name__ == "__main__":
    main()

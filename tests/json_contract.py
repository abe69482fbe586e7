"""The public JSON of every command, on a few real positions with cheap budgets.

:data:`CASES` are command lines run with ``--json``; :func:`records` runs one in-process
and returns its JSON records. ``data/json-contract.jsonl`` holds the records these cases
printed when the verdict contract was unified, one line per case:
``{"case": name, "argv": [...], "records": [...]}``. ``tests/test_json_contract.py``
compares today's records with them: no key may disappear (nested lists of objects
included) and every status must be the one saved. Timings and counters are not compared.

Run ``python -m tests.json_contract`` to print the records of today's code (JSON Lines);
the saved file was written that way and must not be regenerated to make a change pass.
"""

from __future__ import annotations

import contextlib
import io
import json
import tempfile
from pathlib import Path
from typing import Any

from retro.cli import main

__all__ = ["CASES", "records"]

_ITALIAN = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
_START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
_PAWN_ON_A6 = "rnbqkbnr/p1pppppp/p7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"  # b7 pawn gone, no capture
_DOUBLE_CHECK = "4k3/8/8/8/B7/8/8/K3R3 b - - 0 1"
_TEXEL_REVMOVES = "rnbqk1nr/ppp2ppp/4p3/3p4/1b1P4/2N5/PPPQPPPP/R1B1KBNR w KQkq - 0 1"
_KERNEL = "rnbqkbnr/ppp2ppp/8/3P4/3p4/8/PPP2PPP/RNBQKBNR w KQkq - 0 1"
_DEV_LEGAL = "R3b1r1/Rrb3nR/2pk2Br/1bnr4/2bpqN2/2PB1N1q/6Q1/1Q2K1n1 w - - 0 1"  # cpr-923-dev.jsonl, legal
_DEAD = "8/1p3k2/pPp3p1/P1Pp1pPp/2bP1P1P/4BK2/8/8 w - - 0 1"  # a blocked pawn wall: dead
_MATE_IN_REACH = "5r1k/6P1/7K/5q2/8/8/8/8 b - -"
_BAD = "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

#: (name, argv, batch lines or None). Batch cases write the lines to a file given as ``-f``.
CASES: list[tuple[str, list[str], list[str] | None]] = [
    ("check-start", ["check", _START], None),
    ("check-illegal", ["check", _PAWN_ON_A6], None),
    ("check-double-check", ["check", _DOUBLE_CHECK], None),
    ("check-batch", ["check"], [_START, _PAWN_ON_A6, _BAD]),
    ("revmoves-texel", ["revmoves", _TEXEL_REVMOVES], None),
    ("revmoves-start", ["revmoves", _START], None),
    ("revmoves-batch", ["revmoves"], [_TEXEL_REVMOVES, _BAD]),
    ("proofkernel-found", ["proofkernel", _KERNEL, "--limit", "2"], None),
    ("proofkernel-extended", ["proofkernel", _KERNEL, "--limit", "1", "--extended"], None),
    ("proofkernel-illegal", ["proofkernel", _PAWN_ON_A6, "-m", "20000"], None),
    ("proofkernel-batch", ["proofkernel", "--limit", "1"], [_KERNEL, _BAD]),
    ("proofgame-legal", ["proofgame", _ITALIAN, "-m", "20000", "-t", "30"], None),
    ("proofgame-illegal", ["proofgame", _PAWN_ON_A6, "-m", "20000", "-t", "30"], None),
    ("proofgame-unknown", ["proofgame", _DEV_LEGAL, "-m", "300", "-t", "30"], None),
    (
        "proofgame-batch",
        ["proofgame", "-m", "20000", "-t", "30"],
        [_ITALIAN, f"{_PAWN_ON_A6} illegal: some reason", _BAD],
    ),
    ("lastmove-pawn", ["lastmove", "8/8/8/8/1k6/P7/1K6/8", "--retract", "w", "--no-legality"], None),
    ("lastmove-batch", ["lastmove", "--retract", "w", "--no-legality"], ["8/8/8/8/1k6/P7/1K6/8", "8/8/9"]),
    ("cage-verified", ["cage", "8/8/8/8/8/8/PPkPP3/KR1b4", "--depth", "5"], None),
    ("cage-not-verified", ["cage", "8/8/8/8/8/8/PPk5/KR6", "--depth", "3"], None),
    ("unwinnable-winnable", ["unwinnable", _MATE_IN_REACH, "--max-nodes", "20000"], None),
    ("unwinnable-batch", ["unwinnable", "--max-nodes", "20000"], [_DEAD, _BAD]),
    ("dead-dead", ["dead", _DEAD, "--max-nodes", "20000"], None),
    ("dead-alive", ["dead", _MATE_IN_REACH, "--max-nodes", "20000"], None),
    ("rndfen", ["rndfen", "3", "1"], None),
    (
        "estimate-status",
        [
            "estimate",
            "--status",
            "data/cpr-923-dev.jsonl",
            "--samples",
            "10000",
            "--size",
            "8726713169886222032347729969256422370854716254",
        ],
        None,
    ),
    ("krk-explain", ["krk", "--explain", "8/8/8/8/8/8/8/R1k1K3 w - - 0 1"], None),
]

_ROOT = Path(__file__).resolve().parent.parent


def records(argv: list[str], lines: list[str] | None) -> list[dict[str, Any]]:
    """The JSON records ``retro <argv> --json`` prints (``-f FILE`` holding ``lines`` when given)."""
    out = io.StringIO()
    with tempfile.TemporaryDirectory() as tmp, contextlib.chdir(_ROOT):
        args = [*argv, "--json"]
        if lines is not None:
            path = Path(tmp) / "input.txt"
            path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
            args += ["-f", str(path)]
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            main(args)
    return [json.loads(line) for line in out.getvalue().splitlines() if line.strip()]


if __name__ == "__main__":
    for name, argv, lines in CASES:
        print(json.dumps({"case": name, "argv": argv, "lines": lines, "records": records(argv, lines)}), flush=True)

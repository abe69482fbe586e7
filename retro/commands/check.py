"""``retro check``: the static illegality rules."""

from __future__ import annotations

import argparse
import collections
import functools
import sys

from retro.batch import add_batch_arguments, emit, error_text, run_batch_command
from retro.core.position import parse_fen
from retro.core.rules import RULE_NAMES
from retro.diagram import add_diagram_arguments, check_diagram_arguments, show_diagrams


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "check",
        help="static illegality rules: 'illegal: <reason>' or 'unknown: no static objection'",
        description="Apply the static illegality rules (king counts, pawns on the back ranks, the side not "
        "to move in check, impossible checks, unit and promotion counts, bishop colours, pawn capture "
        "accounting, pawn fates, castling and en-passant fields, no possible last move). 'no static "
        "objection' does not mean legal: use `retro proofgame` for that. Accepts FENs with 4 to 6 fields "
        "and Tromp's sample format.",
        epilog="example: retro check 'k7/8/8/8/8/8/8/QQQQKQQQ w - - 0 1'",
    )
    parser.add_argument("fen", nargs="?", help="the position (FEN)")
    add_batch_arguments(parser)
    add_diagram_arguments(parser)
    parser.set_defaults(func=run)


def check_line(line: str) -> dict:
    """Batch worker: one FEN line to a JSON-able record."""
    from retro.api import check

    return check(line).as_dict()


def _text(record: dict, *, batch: bool) -> str:
    if record["status"] == "error":
        return error_text(record)
    verdict = f"{record['status']}: {record['reason']}"
    return f"{record['fen']} {verdict}" if batch else verdict


def run(args: argparse.Namespace) -> int:
    check_diagram_arguments(args)
    if args.file is None:
        if not args.fen:
            raise ValueError("give a FEN, or -f FILE for batch mode")
        record = check_line(args.fen)
        emit(record, _text(record, batch=False), as_json=args.json)
        show_diagrams(args, parse_fen(args.fen).board)
        return 0
    if args.fen:
        raise ValueError("give either a FEN or -f FILE, not both")
    return run_batch_command(
        args,
        check_line,
        functools.partial(_text, batch=True),
        desc="check",
        statuses=(),
        count=lambda record: record.get("rule") or record["status"],
        summary=_summary,
    )


def _summary(counts: collections.Counter[str], comments: int) -> None:
    """The counts per rule on stderr."""
    summary = [f"{counts[name]:7d}  illegal: {name}" for name in RULE_NAMES if counts[name]]
    summary.append(f"{counts['unknown']:7d}  no static objection")
    if counts["error"]:
        summary.append(f"{counts['error']:7d}  bad input lines")
    summary.append(f"{sum(counts.values()):7d}  total")
    if comments:
        summary.append(f"{comments:7d}  comment lines skipped")
    print("\n".join(summary), file=sys.stderr)

"""``retro revmoves``: every possible last move of a position (texelutil's format).

Text output is texelutil's, one retraction per line::

    c6d7 captP: Q castle: KQkq ep: -

``captP`` is the unit type the move captured (``-`` for none and, as in texel, for en
passant, whose ``ep`` field is then the target square), ``castle`` and ``ep`` are the
castling rights and en-passant square of the position *before* the move. ``--json``
prints ``{"fen", "status", "count", "retractions": [{move, captured, castling, ep}]}``
with ``status`` ``found`` or ``none`` (no legal predecessor: the position is illegal,
or it is the initial position). In batch mode (``-f``) each text result is the FEN
followed by its retractions indented by two spaces.
"""

from __future__ import annotations

import argparse
import functools
import sys
from typing import Any

from retro.api import retractions
from retro.batch import add_batch_arguments, emit, error_text, labelled, read_inputs, run_batch, show_progress
from retro.core.position import parse_fen
from retro.diagram import add_diagram_arguments, check_diagram_arguments, show_diagrams

__all__ = ["register", "run", "revmoves_record"]

_DESCRIPTION = """\
List every retraction (last move plus undo information) of a position, such that every
legal position that precedes it by one legal move is covered: normal moves, captures of
each possible unit type (Q R B N P), promotions with and without capture, en passant and
castling, each with the predecessor's castling rights and en-passant square. Retractions
that are statically impossible are left out: the side not to move in the predecessor
would be in check, material that promotions cannot explain, en-passant squares that do
not match a double push. An empty list means the position has no legal predecessor.

Output: texelutil's line format, e.g. 'c6d7 captP: Q castle: KQkq ep: -' (captP '-' for
no capture and for en passant, whose ep field is the target square).
"""

_EPILOG = """\
example:
  retro revmoves "rnbqkbnr/pppB1ppp/4p3/1Q6/4P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 1"
"""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "revmoves",
        help="list every possible last move (texelutil revmoves)",
        description=_DESCRIPTION,
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("fen", nargs="?", help="the position (FEN with 4 to 6 fields)")
    parser.add_argument(
        "--no-ep-square",
        action="store_true",
        help="like texel's includeEpSquare=false: give the predecessor an en-passant square only "
        "for en-passant captures (shorter, but then the list is NOT complete)",
    )
    add_batch_arguments(parser)
    add_diagram_arguments(parser)
    parser.set_defaults(func=run)


def revmoves_record(line: str, *, include_ep_square: bool = True) -> dict[str, Any]:
    """The JSON record of one position (raises ``InvalidFenError`` on bad input)."""
    verdict = retractions(line, include_ep_square=include_ep_square)
    return {**verdict.as_dict(), "lines": [r.texel_line() for r in verdict.retractions]}


def _public(record: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in record.items() if key != "lines"}


def run(args: argparse.Namespace) -> int:
    worker = functools.partial(revmoves_record, include_ep_square=not args.no_ep_square)
    check_diagram_arguments(args)
    if args.file is None:
        if args.fen is None:
            raise ValueError("give a FEN, or -f FILE for batch mode")
        record = worker(args.fen)
        if args.json:
            emit(_public(record), "", as_json=True)
        else:
            for line in record["lines"]:
                emit(record, line, as_json=False)
            if not record["lines"]:
                print("no retraction: the position has no legal predecessor", file=sys.stderr)
        show_diagrams(args, parse_fen(args.fen).board)
        return 0
    if args.fen is not None:
        raise ValueError("give either a FEN or -f FILE, not both")
    lines = read_inputs(args.file)
    errors = 0
    for record in run_batch(
        worker, lines, jobs=args.jobs, progress=show_progress(args), desc="revmoves", total=len(lines)
    ):
        if record["status"] == "error":
            errors += 1
            emit(record, error_text(record), as_json=args.json)
            continue
        body = record["lines"] or ["(no retraction: no legal predecessor)"]
        text = "\n".join([record["fen"], *("  " + line for line in body)])
        emit(_public(record), labelled(record, text), as_json=args.json)
    return 2 if errors else 0

"""``retro cage``: verify a claimed cage by the zone-based retraction tree."""

from __future__ import annotations

import argparse
import functools
from typing import Any

import chess

from cages.library import CageSpec, Library, parse_forbid, parse_spec, parse_squares
from cages.verify import CageVerdict, Options, verify
from retro.batch import add_batch_arguments, emit, run_batch_command
from retro.core.position import parse_board
from retro.core.status import CageStatus
from retro.diagram import add_diagram_arguments, check_diagram_arguments, show_diagrams

_ZONE_COLOUR = "#ffd54f80"
_FROZEN_COLOUR = "#90caf9c0"


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "cage",
        help="verify a claimed cage (a partial position illegal in every extension)",
        description="Verify that a partial position is a cage (Hwa 2022): explore every retraction "
        "sequence of its units inside a zone of squares, under the extension principle (only "
        "unblockable checks count, sides need not alternate, uncaptures are implicit, units leaving "
        "the zone are removed). 'cage verified' means no sequence brings all units home or off the "
        "board; 'not verified' prints the retraction line (in the order retracted, each move in "
        "forward notation) that did, or that reached the depth bound. Verified cages are added to "
        "--library FILE and make later positions containing them illegal.",
        epilog="examples: retro cage 8/8/8/8/8/8/PPkPP3/KR1b4 --depth 5;  "
        "retro cage -f cages.txt --library data/cages.txt (lines '<board> zone=.. frozen=.. depth=N forbid=dxe')",
    )
    parser.add_argument("board", nargs="?", help="the partial position (piece placement)")
    parser.add_argument(
        "--zone",
        default="",
        metavar="SQUARES",
        help="squares added to the zone, comma-separated (the zone always holds the occupied "
        "squares and their king-move neighbours)",
    )
    parser.add_argument("--frozen", default="", metavar="SQUARES", help="units that may not move")
    parser.add_argument(
        "--forbid",
        default="",
        metavar="dxe,...",
        help="pawn captures that may not be retracted, for either side (e.g. dxe)",
    )
    parser.add_argument("--depth", type=int, default=20, help="depth bound (retractions; default 20)")
    parser.add_argument(
        "--max-nodes",
        "-m",
        type=int,
        default=100_000,
        metavar="N",
        help="state budget of the breadth-first search (default 100000); exhausting it means 'not verified'",
    )
    parser.add_argument(
        "-t",
        "--time-limit",
        type=float,
        metavar="SEC",
        help="time budget per position in seconds (default: none, the state budget bounds the search); "
        "running out of it means 'not verified'",
    )
    parser.add_argument("--library", metavar="FILE", help="known-cage library to read and extend")
    parser.add_argument(
        "--svg", metavar="FILE", help="write a diagram with the zone highlighted (yellow; frozen units blue)"
    )
    add_batch_arguments(parser, jobs=False)
    add_diagram_arguments(parser, svg=False, what="the partial position")
    parser.set_defaults(func=run)


def _spec_from_args(args: argparse.Namespace) -> CageSpec:
    board = parse_board(args.board)
    frozen = parse_squares(args.frozen)
    for square in chess.SquareSet(frozen):
        if board.piece_at(square) is None:
            raise ValueError(f"frozen square {chess.square_name(square)} is empty")
    return CageSpec(
        board=board,
        zone_extra=parse_squares(args.zone),
        options=Options(frozenset(chess.SquareSet(frozen)), parse_forbid(args.forbid)),
        depth=args.depth,
    )


def _check(spec: CageSpec, library: Library, max_nodes: int, time_limit: float | None) -> CageVerdict:
    if spec.depth < 0:
        raise ValueError("the depth bound must be at least 0")
    verdict = verify(
        spec.board,
        extra_zone=spec.zone_extra,
        options=spec.options,
        depth=spec.depth,
        library=library,
        cache=library.cache,
        max_nodes=max_nodes,
        time_limit=time_limit,
    )
    if verdict.status == "cage":
        library.add(spec)
    return verdict


def _text(record: dict[str, Any], *, batch: bool) -> str:
    """The text line of a verdict record (``fen`` first in batch mode)."""
    prefix = f"{record['fen']} " if batch else ""
    if record["status"] == "cage":
        return f"{prefix}cage verified ({record['reason']}; {record['seconds']:.3f} s)"
    line = " ".join(record["line"]) or "(no retraction)"
    return (
        f"{prefix}not verified: {record['reason']} after {line} ({record['nodes']} states, {record['seconds']:.3f} s)"
    )


def is_option_token(token: str) -> bool:
    """A batch line's own trailing token: ``zone=``, ``frozen=``, ``depth=``, ``forbid=``."""
    return token.split("=", 1)[0] in ("zone", "frozen", "depth", "forbid") and "=" in token


def _zone_fill(spec: CageSpec, verdict: CageVerdict) -> dict[chess.Square, str]:
    """The squares of the zone (yellow) and the frozen units (blue), for ``--svg``."""
    fill = {chess.parse_square(name): _ZONE_COLOUR for name in verdict.zone}
    fill.update(dict.fromkeys(spec.options.frozen, _FROZEN_COLOUR))
    return fill


def run(args: argparse.Namespace) -> int:
    check_diagram_arguments(args)
    if args.time_limit is not None and not args.time_limit > 0:
        raise ValueError("-t/--time-limit must be positive")
    library = Library.load(args.library) if args.library else Library()
    if args.file is None:
        if not args.board:
            raise ValueError("give a partial board, or -f FILE for batch mode")
        spec = _spec_from_args(args)
        verdict = _check(spec, library, args.max_nodes, args.time_limit)
        emit(verdict.as_dict(), _text(verdict.as_dict(), batch=False), as_json=args.json)
        show_diagrams(args, spec.board, fill=_zone_fill(spec, verdict))
        return 0
    if args.board:
        raise ValueError("give either a partial board or -f FILE, not both")

    def worker(line: str) -> dict[str, Any]:  # one process: a cage verified on a line helps the later ones
        return _check(parse_spec(line, depth=args.depth), library, args.max_nodes, args.time_limit).as_dict()

    return run_batch_command(
        args,
        worker,
        functools.partial(_text, batch=True),
        desc="cage",
        statuses=[status.value for status in CageStatus],
        own=is_option_token,
    )

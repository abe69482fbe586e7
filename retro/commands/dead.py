"""``retro dead``: is the position dead (FIDE Article 5.2.2)?"""

from __future__ import annotations

import argparse
import functools

import chess

from retro.batch import add_batch_arguments, emit, error_text, run_batch_command
from retro.diagram import add_diagram_arguments, check_diagram_arguments, show_diagrams
from retro.position import parse_fen
from retro.unwinnable import DEFAULT_MAX_NODES, is_dead

__all__ = ["register", "run", "dead_line"]


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "dead",
        help="is the position dead (neither side can checkmate)? 'dead', 'alive' or 'undetermined'",
        description="Decide whether a position is dead (FIDE Article 5.2.2: no series of legal moves leads to "
        "a checkmate by either side), by asking `retro unwinnable` for White and for Black. 'alive' names "
        "a side that can mate and its helpmate line; 'undetermined' means a node budget ran out.",
        epilog="example: retro dead '8/1p3k2/pPp3p1/P1Pp1pPp/2bP1P1P/4BK2/8/8 w - - 0 1'",
    )
    parser.add_argument("fen", nargs="?", help="the position (FEN, 4 to 6 fields)")
    parser.add_argument("--quick", action="store_true", help="the quick routine (Figure 10) for both sides")
    parser.add_argument("--max-nodes", type=int, default=DEFAULT_MAX_NODES, metavar="N",
                        help=f"search budget in nodes per side (default {DEFAULT_MAX_NODES:,})")
    add_batch_arguments(parser)
    add_diagram_arguments(parser, what="the position (SVG: the first move of a helpmate marked)")
    parser.set_defaults(func=run)


def dead_line(line: str, *, quick: bool = False, max_nodes: int = DEFAULT_MAX_NODES) -> dict:
    """Batch worker: one FEN line to a JSON-able record."""
    position = parse_fen(line, require_kings=True, valid=True)
    verdict = is_dead(position.board, quick=quick, max_nodes=max_nodes, both_sides=True)
    assert verdict.black is not None
    return {"fen": position.fen, "status": verdict.status, "white": verdict.white.status,
            "black": verdict.black.status, "white_line": list(verdict.white.line),
            "black_line": list(verdict.black.line), "nodes": verdict.nodes, "seconds": round(verdict.seconds, 6)}


def _text(record: dict, *, batch: bool) -> str:
    if record["status"] == "error":
        return error_text(record)
    parts = []
    for side in ("white", "black"):
        part = f"{side}: {record[side]}"
        if record[f"{side}_line"]:
            part += " " + " ".join(record[f"{side}_line"])
        parts.append(part)
    answer = f"{record['status']}  [{'; '.join(parts)}; nodes {record['nodes']}, {record['seconds']:.4f} s]"
    return f"{record['fen']} {answer}" if batch else answer


def run(args: argparse.Namespace) -> int:
    if args.max_nodes <= 0:
        raise ValueError("--max-nodes must be positive")
    check_diagram_arguments(args)
    if args.file is None:
        if not args.fen:
            raise ValueError("give a FEN, or -f FILE for batch mode")
        record = dead_line(args.fen, quick=args.quick, max_nodes=args.max_nodes)
        emit(record, _text(record, batch=False), as_json=args.json)
        line = record["white_line"] or record["black_line"]
        show_diagrams(args, parse_fen(args.fen).board, lastmove=chess.Move.from_uci(line[0]) if line else None)
        return 0
    if args.fen:
        raise ValueError("give either a FEN or -f FILE, not both")
    worker = functools.partial(dead_line, quick=args.quick, max_nodes=args.max_nodes)
    return run_batch_command(args, worker, functools.partial(_text, batch=True), desc="dead",
                             statuses=("dead", "alive", "undetermined"))

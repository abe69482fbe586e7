"""``retro unwinnable``: can a given player still checkmate (FIDE Article 6.9)?"""

from __future__ import annotations

import argparse
import functools

import chess

from retro.batch import add_batch_arguments, emit, error_text, run_batch_command
from retro.diagram import add_diagram_arguments, check_diagram_arguments, show_diagrams
from retro.position import InvalidFenError, parse_fen
from retro.unwinnable import DEFAULT_MAX_NODES, analyze

__all__ = ["register", "run", "unwinnable_line", "split_query"]

_WINNERS = {"white": chess.WHITE, "black": chess.BLACK}


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "unwinnable",
        help="can a player still checkmate? 'winnable <helpmate line>', 'unwinnable' or 'undetermined'",
        description="Decide whether the intended winner can still checkmate by some sequence of legal moves "
        "(FIDE Article 6.9: after a timeout the game is drawn if the opponent cannot checkmate by any "
        "series of legal moves). Algorithm of M. Ambrona (FUN 2022): a semi-static mobility analysis that "
        "proves blocked positions unwinnable, plus a helpmate search. 'winnable' comes with the helpmate "
        "line in UCI, replayed before it is printed; 'unwinnable' is proved; 'undetermined' means the node "
        "budget ran out. The intended winner defaults to the side that just moved (the side NOT to move). "
        "Batch lines are 'FEN [white|black]'.",
        epilog="example: retro unwinnable '8/8/1p6/1B2k3/5pK1/8/8/8 b - - 0 1' white",
    )
    parser.add_argument("fen", nargs="?", help="the position (FEN, 4 to 6 fields)")
    parser.add_argument("winner", nargs="?", choices=sorted(_WINNERS), help="intended winner (default: the side not to move)")
    parser.add_argument("--quick", action="store_true", help="the quick routine (Figure 10): very fast, may say undetermined")
    parser.add_argument("--max-nodes", type=int, default=DEFAULT_MAX_NODES, metavar="N",
                        help=f"search budget in nodes for the full routine (default {DEFAULT_MAX_NODES:,})")
    add_batch_arguments(parser)
    add_diagram_arguments(parser, what="the position (SVG: the first move of the helpmate marked)")
    parser.set_defaults(func=run)


def split_query(line: str) -> tuple[str, str | None]:
    """'FEN [white|black]' -> (fen, winner name or None)."""
    fields = line.split()
    if fields and fields[-1].lower() in _WINNERS:
        return " ".join(fields[:-1]), fields[-1].lower()
    return line, None


def unwinnable_line(line: str, *, quick: bool = False, max_nodes: int = DEFAULT_MAX_NODES,
                    winner_name: str | None = None) -> dict:
    """Batch worker: one query line to a JSON-able record."""
    fen, named = split_query(line)
    winner_name = named or winner_name
    position = parse_fen(fen, require_kings=True, valid=True)
    board = position.board
    winner = _WINNERS[winner_name] if winner_name else not board.turn
    verdict = analyze(board, winner, quick=quick, max_nodes=max_nodes)
    return {"fen": position.fen, "status": verdict.status, "winner": verdict.winner_name,
            "line": list(verdict.line), "reason": verdict.reason, "nodes": verdict.nodes,
            "seconds": round(verdict.seconds, 6)}


def _text(record: dict, *, batch: bool) -> str:
    if record["status"] == "error":
        return error_text(record)
    answer = record["status"]
    if answer == "winnable":
        answer += " " + " ".join(record["line"]) if record["line"] else " (already checkmate)"
    answer += f"  [{record['reason']}; nodes {record['nodes']}, {record['seconds']:.4f} s]"
    return f"{record['fen']} {record['winner']} {answer}" if batch else answer


def run(args: argparse.Namespace) -> int:
    if args.max_nodes <= 0:
        raise ValueError("--max-nodes must be positive")
    check_diagram_arguments(args)
    if args.file is None:
        if not args.fen:
            raise ValueError("give a FEN, or -f FILE for batch mode")
        if args.winner is None:
            fen, winner = split_query(args.fen)
        else:
            fen, winner = args.fen, args.winner
        if not fen.strip():
            raise InvalidFenError("empty FEN")
        record = unwinnable_line(fen, quick=args.quick, max_nodes=args.max_nodes, winner_name=winner)
        emit(record, _text(record, batch=False), as_json=args.json)
        first = chess.Move.from_uci(record["line"][0]) if record["line"] else None
        show_diagrams(args, parse_fen(fen).board, lastmove=first)
        return 0
    if args.fen:
        raise ValueError("give either a FEN or -f FILE, not both")
    worker = functools.partial(unwinnable_line, quick=args.quick, max_nodes=args.max_nodes)
    return run_batch_command(args, worker, functools.partial(_text, batch=True), desc="unwinnable",
                             statuses=("winnable", "unwinnable", "undetermined"))

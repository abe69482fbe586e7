"""``retro unwinnable``: can a given player still checkmate (FIDE Article 6.9)?"""

from __future__ import annotations

import argparse
import functools
import sys
from collections.abc import Callable
from typing import Any

import chess

from retro.batch import add_batch_arguments, emit, error_text, no_own_tokens, run_batch_command
from retro.core.position import InvalidFenError, parse_fen
from retro.core.status import UnwinnabilityStatus
from retro.diagram import add_diagram_arguments, check_diagram_arguments, show_diagrams
from retro.unwinnable import DEFAULT_MAX_NODES

__all__ = ["register", "run", "unwinnable_line", "split_query", "add_search_arguments", "run_query_command"]

_WINNERS = {"white": chess.WHITE, "black": chess.BLACK}
#: Batch sizes (by --quick) from which the compiled core is loaded by default: a full query
#: saves about 2.5 ms with it, a quick one about 30 us, and loading it costs about 1 s.
COMPILED_FROM_LINES = {False: 500, True: 30_000}


def add_search_arguments(parser: argparse.ArgumentParser, *, diagram: str) -> None:
    """``--quick``, ``-m/--max-nodes``, ``-t/--time-limit``, the batch and the diagram
    options (shared with ``retro dead``; ``diagram`` says what the diagram shows)."""
    parser.add_argument(
        "--quick", action="store_true", help="the quick routine (Figure 10): very fast, may say undetermined"
    )
    parser.add_argument(
        "-m",
        "--max-nodes",
        type=int,
        default=DEFAULT_MAX_NODES,
        metavar="N",
        help=f"search budget in nodes per side for the full routine (default {DEFAULT_MAX_NODES:,})",
    )
    parser.add_argument(
        "-t",
        "--time-limit",
        type=float,
        default=None,
        metavar="SECONDS",
        help="time budget in seconds per query (per line in batch mode; for dead, both sides together) of the "
        "full routine, checked every few thousand nodes: 'undetermined' (reason 'time limit reached') when it "
        "runs out (default: none)",
    )
    parser.add_argument(
        "--compiled",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="run the searches in the compiled core (numba; same answers, about 7x faster per full query, 4x "
        "per quick one). Default: on for a batch (-f) of at least "
        f"{COMPILED_FROM_LINES[False]:,} lines ({COMPILED_FROM_LINES[True]:,} with --quick), where it saves more "
        "than it costs to load (about 1 s; the very first run compiles it, about 15 s of CPU, cached for later "
        "runs); off otherwise",
    )
    add_batch_arguments(parser)
    add_diagram_arguments(parser, what=diagram)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "unwinnable",
        help="can a player still checkmate? 'winnable <helpmate line>', 'unwinnable' or 'undetermined'",
        description="Decide whether the intended winner can still checkmate by some sequence of legal moves "
        "(FIDE Article 6.9: after a timeout the game is drawn if the opponent cannot checkmate by any "
        "series of legal moves). Algorithm of M. Ambrona (FUN 2022): a semi-static mobility analysis that "
        "proves blocked positions unwinnable, plus a helpmate search. 'winnable' comes with the helpmate "
        "line in UCI, replayed before it is printed; 'unwinnable' is proved; 'undetermined' means the node "
        "budget (-m/--max-nodes) or the time limit (-t/--time-limit) ran out. The intended winner defaults to "
        "the side that just moved (the side NOT to move). "
        "Batch lines are 'FEN [white|black]'.",
        epilog="example: retro unwinnable '8/8/1p6/1B2k3/5pK1/8/8/8 b - - 0 1' white",
    )
    parser.add_argument("fen", nargs="?", help="the position (FEN, 4 to 6 fields)")
    parser.add_argument(
        "winner", nargs="?", choices=sorted(_WINNERS), help="intended winner (default: the side not to move)"
    )
    add_search_arguments(parser, diagram="the position (SVG: the first move of the helpmate marked)")
    parser.set_defaults(func=run)


def is_winner_token(token: str) -> bool:
    """A batch line's own trailing token: the intended winner (never a label)."""
    return token.lower() in _WINNERS


def split_query(line: str) -> tuple[str, str | None]:
    """'FEN [white|black]' -> (fen, winner name or None)."""
    fields = line.split()
    if fields and is_winner_token(fields[-1]):
        return " ".join(fields[:-1]), fields[-1].lower()
    return line, None


def unwinnable_line(
    line: str,
    *,
    quick: bool = False,
    max_nodes: int = DEFAULT_MAX_NODES,
    winner_name: str | None = None,
    compiled: bool | None = None,
    time_limit: float | None = None,
) -> dict[str, Any]:
    """Batch worker: one query line ('FEN [white|black]') to the verdict's ``as_dict()``."""
    from retro.api import winnability

    fen, named = split_query(line)
    verdict = winnability(
        fen, named or winner_name, quick=quick, max_nodes=max_nodes, compiled=compiled, time_limit=time_limit
    )
    return verdict.as_dict()


def _text(record: dict[str, Any], *, batch: bool) -> str:
    """One record as text. A single query names the winner it evaluated (``winnable for
    white: <line>``, ``unwinnable for black``); a batch line starts with the FEN and the
    winner instead."""
    status = record["status"]
    if status == UnwinnabilityStatus.WINNABLE:
        line = " ".join(record["line"]) if record["line"] else "(already checkmate)"
        answer = f"{status} {line}" if batch else f"{status} for {record['winner']}: {line}"
    else:
        answer = status if batch else f"{status} for {record['winner']}"
    answer += f"  [{record['reason']}; nodes {record['nodes']}, {record['seconds']:.4f} s]"
    return f"{record['fen']} {record['winner']} {answer}" if batch else answer


def _load_compiled_core(*, always: bool = False) -> None:
    """Load the compiled core in this process (batch workers are forked from it). Say so on
    stderr when numba is missing, when the core had to be compiled (the first run), or with
    ``always`` (a single ``--compiled`` query) how long the load took: that time is not in
    the query's ``seconds``."""
    from retro.unwinnable import jitcore

    if not jitcore.AVAILABLE:
        print("note: numba is not available, running the pure-Python searches", file=sys.stderr)
        return
    seconds = jitcore.warm_up()
    if seconds > 5:
        print(f"note: compiled the search core in {seconds:.0f} s (cached for later runs)", file=sys.stderr)
    elif always:
        print(f"note: loaded the compiled search core in {seconds:.2f} s (not in the query's seconds)", file=sys.stderr)


def run_query_command(
    args: argparse.Namespace,
    query: str,
    worker: Callable[..., dict[str, Any]],
    text: Callable[..., str],
    *,
    desc: str,
    statuses: tuple[str, ...],
    own: Callable[[str], bool] = no_own_tokens,
) -> int:
    """One query (``query``, a FEN with its options) or the ``-f`` batch: print each
    record with ``text`` (``batch=`` tells which) or as JSON. Shared by ``unwinnable`` and
    ``dead``; ``worker(line, quick=, max_nodes=, compiled=, time_limit=)`` makes the record."""
    if args.max_nodes <= 0:
        raise ValueError("--max-nodes must be positive")
    if args.time_limit is not None and not args.time_limit > 0:
        raise ValueError("--time-limit must be a positive number of seconds")
    check_diagram_arguments(args)
    worker = functools.partial(
        worker, quick=args.quick, max_nodes=args.max_nodes, compiled=args.compiled, time_limit=args.time_limit
    )
    if args.file is None:
        if not args.fen:
            raise ValueError("give a FEN, or -f FILE for batch mode")
        if not query.strip():
            raise InvalidFenError("empty FEN")
        if args.compiled:
            _load_compiled_core(always=True)
        record = worker(query)
        emit(record, text(record, batch=False), as_json=args.json)
        line = record.get("line") or record.get("white_line") or record.get("black_line")
        show_diagrams(
            args, parse_fen(split_query(query)[0]).board, lastmove=chess.Move.from_uci(line[0]) if line else None
        )
        return 0
    if args.fen:
        raise ValueError("give either a FEN or -f FILE, not both")

    def render(record: dict[str, Any]) -> str:
        if record["status"] == "error":
            return error_text(record)
        return text(record, batch=True)

    def prepare(lines: int) -> None:
        if args.compiled or (args.compiled is None and lines >= COMPILED_FROM_LINES[args.quick]):
            _load_compiled_core()  # the workers, forked after this, inherit it

    return run_batch_command(args, worker, render, desc=desc, statuses=statuses, prepare=prepare, own=own)


def run(args: argparse.Namespace) -> int:
    query = args.fen or ""
    if args.winner is not None:
        query = f"{query} {args.winner}"
    return run_query_command(
        args,
        query,
        unwinnable_line,
        _text,
        desc="unwinnable",
        statuses=tuple(UnwinnabilityStatus),
        own=is_winner_token,
    )

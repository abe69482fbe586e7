"""``retro spg``: shortest proof games - every game of exactly N plies that reaches a diagram.

Single problem: ``retro spg BOARD N`` prints the verdict line and the games, numbered
(``--json``: one object, the design's contract: fen, status, plies, solutions (SAN
lists), cooked, nodes, seconds, plus reason). Batch ``-f FILE``: one ``BOARD N [label]`` per
line (BOARD is a placement, ``placement side`` or a FEN; N is the number of plies, a
command token, never a label; a label is a word after N or an EPD ``id``: ``BOARD N id
"name";``), one result per line in input order, an error record for a bad line.
"""

from __future__ import annotations

import argparse
import functools
import sys

from retro.batch import add_batch_arguments, emit, run_batch_command, show_progress
from retro.core.status import SpgStatus
from retro.spg.verdict import SpgVerdict

__all__ = ["register", "run", "solve_line"]


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "spg",
        help="shortest proof game: every game of exactly N plies reaching a diagram (unique / cooked / none)",
        description="Find every game of exactly N plies from the initial position (or -i FEN) that reaches "
        "BOARD, up to --solutions K. The diagram is matched by piece placement and side to move (the side "
        "to move follows from N); castling and en-passant rights count only when BOARD is a full FEN. "
        "Answers: 'unique' (one game), 'solutions' (k >= 2 games, 'cooked' when the cap was reached or the "
        "budget ran out after two), 'no_solution' (proved by an exhaustive search or a named rule), 'unknown' "
        "(budget ran out; says what was explored). Games that differ only in move order are distinct "
        "(orthodox convention). Every game shown was replayed with python-chess.",
        epilog="example: retro spg rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR 3   (or: -f problems.txt)",
    )
    parser.add_argument(
        "problem",
        nargs="*",
        metavar="BOARD N",
        help="the diagram (placement, 'placement side', or a full FEN) and the number of plies",
    )
    parser.add_argument("-i", dest="init", metavar="FEN", help="initial position (default: the start position)")
    parser.add_argument(
        "--solutions",
        type=int,
        default=8,
        metavar="K",
        help="stop after K games, reported as cooked (default 8, as Euclide; at least 2)",
    )
    parser.add_argument(
        "-t",
        "--time-limit",
        type=float,
        default=60.0,
        metavar="SEC",
        help="time budget per problem in seconds (default 60; 0 = none)",
    )
    parser.add_argument(
        "-m",
        "--max-nodes",
        type=int,
        default=None,
        metavar="NODES",
        help="node budget per problem (moves generated and bounded; default none)",
    )
    add_batch_arguments(parser)
    parser.set_defaults(func=run)


def split_problem(words: list[str]) -> tuple[str, int]:
    """``BOARD... N`` to (board text, N); raises ValueError with a clear message."""
    if len(words) < 2:
        raise ValueError("give BOARD and N (the number of plies), e.g. 'retro spg rnbqkbnr/... 6'")
    try:
        plies = int(words[-1])
    except ValueError:
        raise ValueError(f"N (the number of plies, the last field) must be an integer, got {words[-1]!r}") from None
    return " ".join(words[:-1]), plies


def solve_line(line: str, *, init: str | None, cap: int, time_limit: float | None, max_nodes: int | None) -> dict:
    """Batch worker: one ``BOARD N`` line to a verdict record."""
    from retro.api import shortest_proof_games

    board, plies = split_problem(line.split())
    verdict = shortest_proof_games(board, plies, init=init, solutions=cap, time_limit=time_limit, max_nodes=max_nodes)
    return verdict.as_dict()


def _render(record: dict) -> str:
    if record["status"] == "error":
        return f"{record['input']} error: {record['error']}"
    fields = {key: value for key, value in record.items() if key != "id"}  # the label: batch.labelled prints it
    verdict = SpgVerdict(**{**fields, "status": SpgStatus(record["status"])})
    return verdict.text()


def _progress(nodes: int, seconds: float, found: int, where: str) -> None:
    print(f"spg: {nodes} nodes, {seconds:.0f} s, {found} game(s) so far, {where}", file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    if args.solutions < 2:
        raise ValueError(f"--solutions must be at least 2, got {args.solutions}")
    time_limit = args.time_limit if args.time_limit and args.time_limit > 0 else None
    if args.file is not None:
        if args.problem:
            raise ValueError("give either BOARD N or -f FILE, not both")
        worker = functools.partial(
            solve_line, init=args.init, cap=args.solutions, time_limit=time_limit, max_nodes=args.max_nodes
        )
        return run_batch_command(args, worker, _render, desc="spg", statuses=list(SpgStatus), own=str.isdigit)
    from retro.api import shortest_proof_games

    board, plies = split_problem(args.problem)
    verdict = shortest_proof_games(
        board,
        plies,
        init=args.init,
        solutions=args.solutions,
        time_limit=time_limit,
        max_nodes=args.max_nodes,
        progress=_progress if show_progress(args) else None,
    )
    emit(verdict.as_dict(), verdict.text(), as_json=args.json)
    return 0

"""``retro proofkernel``: list every proof kernel from the start (or ``-i``) position to a goal.

Both positions must be valid (:func:`retro.core.position.require_valid`: exit 2 otherwise,
as ``retro check`` would call them illegal). Kernels that differ only in the order of
commuting captures are listed once (the sleep sets of :mod:`proofkernel.search`, which
prove that every kernel's class is listed), unless ``--all-orders`` or ``--extended``
asks for every order. The node (``-m``) and time (``-t``) budgets bound the search;
with ``--progress`` (or on a terminal) the node count goes to stderr as it runs.
"""

from __future__ import annotations

import argparse
import functools
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from proofkernel.listing import KernelListing
from retro.batch import add_batch_arguments, emit, error_text, positive_int, run_batch_command, show_progress
from retro.core.position import parse_fen
from retro.core.status import KernelStatus
from retro.diagram import add_diagram_arguments, check_diagram_arguments, show_diagrams

if TYPE_CHECKING:
    from proofkernel.moves import KernelMove
    from proofkernel.search import KernelSearch


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "proofkernel",
        help="list all proof kernels (capture sequences in the kernel space) of a position",
        description="List every proof kernel from the initial position (the start position, or -i) to the "
        "goal FEN, one per line in texel's notation (wPc0xPb1: white pawn on column c index 0 takes the "
        "pawn at column b index 1; bxR: a black piece takes a white rook; see `pydoc proofkernel.moves`). "
        "No line means the position has no proof kernel, which proves it illegal. With --extended, only "
        "kernels whose extended kernel (capture rows, CP-SAT) exists are listed, each followed by it. "
        "Kernels that differ only in the order of commuting captures are listed once (not with --extended "
        "or --all-orders). Invalid positions (two kings of a colour, 17 units, ...) are refused.",
        epilog="example: retro proofkernel 'rnbqkbnr/ppp2ppp/8/3P4/3p4/8/PPP2PPP/RNBQKBNR w KQkq - 0 1'",
    )
    parser.add_argument("fen", nargs="?", help="the goal position (FEN)")
    parser.add_argument("-i", "--init", metavar="FEN", help="initial position (default: the start position)")
    parser.add_argument("--extended", action="store_true", help="keep only kernels with an extended kernel")
    parser.add_argument(
        "-m",
        "--max-nodes",
        type=positive_int,
        default=2_000_000,
        metavar="N",
        help="search node budget (default 2000000)",
    )
    parser.add_argument(
        "-t",
        "--time-limit",
        type=float,
        default=None,
        metavar="SEC",
        help="search time budget in seconds (default none)",
    )
    parser.add_argument("--limit", type=positive_int, default=None, help="stop after this many kernels")
    parser.add_argument(
        "--all-orders",
        action="store_true",
        help="list kernels that differ only in the order of commuting captures separately (texel)",
    )
    add_batch_arguments(parser)
    add_diagram_arguments(parser, what="the goal position")
    parser.set_defaults(func=run)


def kernel_record(
    line: str,
    *,
    init_fen: str | None,
    extended: bool,
    max_nodes: int,
    limit: int | None,
    time_limit: float | None = None,
    all_orders: bool = False,
    progress: bool = False,
    on_kernel: Callable[[str], None] | None = None,
) -> dict:
    """One goal FEN to ``{fen, status, kernels[, extended], nodes, complete}``;
    ``on_kernel`` gets each kernel's line (:func:`_kernel_line`) as soon as it is found."""
    from proofkernel.blocked import blocked_squares
    from proofkernel.extended import extend_kernel  # imports OR-Tools: here, not at start-up
    from proofkernel.search import KernelSearch

    goal = parse_fen(line, valid=True).board
    init = parse_fen(init_fen, valid=True).board if init_fen else None
    init_board = init if init is not None else type(goal)()
    blocked = blocked_squares(goal, init_board)
    search = KernelSearch.between(
        init_board,
        goal,
        blocked,
        max_nodes=max_nodes,
        time_limit=time_limit,
        commuting_once=not (extended or all_orders),
        on_progress=_progress_printer(time.monotonic()) if progress else None,
    )
    kernels, extensions = [], []

    def accept(kernel: tuple[KernelMove, ...]) -> bool:
        if not extended:
            return True
        result = extend_kernel(kernel, init_board, goal, blocked)
        if result.status == "infeasible":
            return False
        extensions.append(str(result) if result.status == "found" else "(solver undecided)")
        return True

    for kernel in search.kernels(accept):
        kernels.append(" ".join(str(move) for move in kernel))
        if on_kernel is not None:
            on_kernel(_kernel_line(kernels[-1], extensions[-1] if extended else None))
        if limit is not None and len(kernels) >= limit:
            break
    stopped_by = (
        "--limit"
        if limit is not None and len(kernels) >= limit
        else (None if search.exhausted else "the node budget" if search.nodes > max_nodes else "the time limit")
    )
    status = KernelStatus.FOUND if kernels else KernelStatus.NONE if stopped_by is None else KernelStatus.UNKNOWN
    return KernelListing(
        goal.fen(), status, tuple(kernels), search.nodes, stopped_by, tuple(extensions) if extended else None
    ).as_dict()


def _progress_printer(start: float) -> Callable[[KernelSearch], None]:
    def show(search: KernelSearch) -> None:
        print(f"proofkernel: {search.nodes:,} nodes, {time.monotonic() - start:.1f} s", file=sys.stderr, flush=True)

    return show


def _kernel_line(kernel: str, extension: str | None) -> str:
    return kernel if extension is None else f"{kernel}  |  {extension}"


def _text(record: dict, *, batch: bool, kernels: bool = True) -> str:
    """The record as text; without ``kernels``, only what follows the kernel lines."""
    if record["status"] == "error":
        return error_text(record)
    lines = []
    for i, kernel in enumerate(record["kernels"] if kernels else ()):
        text = _kernel_line(kernel, record["extended"][i] if "extended" in record else None)
        lines.append(f"{record['fen']} {text}" if batch else text)
    if record["status"] == "none":
        lines.append(f"{record['fen']} none" if batch else "no proof kernel: the position is illegal")
    elif not record["complete"]:
        note = f"(stopped by {record['stopped_by']}: the list may be incomplete)"
        lines.append(f"{record['fen']} {note}" if batch else note)
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    if args.time_limit is not None and args.time_limit <= 0:
        raise ValueError("-t/--time-limit must be positive")
    check_diagram_arguments(args)
    worker = functools.partial(
        kernel_record,
        init_fen=args.init,
        extended=args.extended,
        max_nodes=args.max_nodes,
        limit=args.limit,
        time_limit=args.time_limit,
        all_orders=args.all_orders,
    )
    if args.file is None:
        if not args.fen:
            raise ValueError("give a FEN, or -f FILE for batch mode")
        if args.json:
            record = worker(args.fen, progress=show_progress(args))
            emit(record, _text(record, batch=False), as_json=True)
            show_diagrams(args, parse_fen(args.fen).board)
            return 0
        # each kernel is printed as soon as it is found: listing them all can take minutes
        record = worker(args.fen, progress=show_progress(args), on_kernel=lambda text: print(text, flush=True))
        trailer = _text(record, batch=False, kernels=False)
        if trailer:
            print(trailer)
        show_diagrams(args, parse_fen(args.fen).board)
        return 0
    if args.fen:
        raise ValueError("give either a FEN or -f FILE, not both")
    return run_batch_command(
        args, worker, functools.partial(_text, batch=True), desc="proofkernel", statuses=("found", "none", "unknown")
    )

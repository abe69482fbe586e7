"""``retro proofkernel``: list every proof kernel from the start (or ``-i``) position to a goal."""

from __future__ import annotations

import argparse
import functools
from collections.abc import Callable

from proofkernel.blocked import blocked_squares
from proofkernel.extended import extend_kernel
from proofkernel.listing import KernelListing
from proofkernel.search import KernelSearch
from retro.batch import add_batch_arguments, emit, read_inputs, run_batch, show_progress
from retro.position import parse_fen
from retro.status import KernelStatus


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "proofkernel",
        help="list all proof kernels (capture sequences in the kernel space) of a position",
        description="List every proof kernel from the initial position (the start position, or -i) to the "
        "goal FEN, one per line in texel's notation (wPc0xPb1: white pawn on column c index 0 takes the "
        "pawn at column b index 1; bxR: a black piece takes a white rook; see `pydoc proofkernel.moves`). "
        "No line means the position has no proof kernel, which proves it illegal. With --extended, only "
        "kernels whose extended kernel (capture rows, CP-SAT) exists are listed, each followed by it.",
        epilog="example: retro proofkernel 'rnbqkbnr/ppp2ppp/8/3P4/3p4/8/PPP2PPP/RNBQKBNR w KQkq - 0 1'",
    )
    parser.add_argument("fen", nargs="?", help="the goal position (FEN)")
    parser.add_argument("-i", "--init", metavar="FEN", help="initial position (default: the start position)")
    parser.add_argument("--extended", action="store_true", help="keep only kernels with an extended kernel")
    parser.add_argument("-m", "--max-nodes", type=int, default=2_000_000, help="search node budget (default 2e6)")
    parser.add_argument("--limit", type=int, default=None, help="stop after this many kernels")
    add_batch_arguments(parser)
    parser.set_defaults(func=run)


def kernel_record(line: str, *, init_fen: str | None, extended: bool, max_nodes: int, limit: int | None,
                  on_kernel: Callable[[str], None] | None = None) -> dict:
    """One goal FEN to ``{fen, status, kernels[, extended], nodes, complete}``;
    ``on_kernel`` gets each kernel's line (:func:`_kernel_line`) as soon as it is found."""
    goal = parse_fen(line).board
    init = parse_fen(init_fen).board if init_fen else None
    init_board = init if init is not None else type(goal)()
    blocked = blocked_squares(goal, init_board)
    search = KernelSearch.between(init_board, goal, blocked, max_nodes=max_nodes)
    kernels, extensions = [], []

    def accept(kernel) -> bool:
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
    stopped_by = "--limit" if limit is not None and len(kernels) >= limit else (
        None if search.exhausted else "the node budget")
    status = KernelStatus.FOUND if kernels else KernelStatus.NONE if stopped_by is None else KernelStatus.UNKNOWN
    return KernelListing(goal.fen(), status, tuple(kernels), search.nodes, stopped_by,
                         tuple(extensions) if extended else None).as_dict()


def _kernel_line(kernel: str, extension: str | None) -> str:
    return kernel if extension is None else f"{kernel}  |  {extension}"


def _text(record: dict, *, batch: bool, kernels: bool = True) -> str:
    """The record as text; without ``kernels``, only what follows the kernel lines."""
    if record["status"] == "error":
        return f"{record['input']} error: {record['error']}"
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
    worker = functools.partial(kernel_record, init_fen=args.init, extended=args.extended,
                               max_nodes=args.max_nodes, limit=args.limit)
    if args.file is None:
        if not args.fen:
            raise ValueError("give a FEN, or -f FILE for batch mode")
        if args.json:
            record = worker(args.fen)
            emit(record, _text(record, batch=False), as_json=True)
            return 0
        # each kernel is printed as soon as it is found: listing them all can take minutes
        record = worker(args.fen, on_kernel=lambda text: print(text, flush=True))
        trailer = _text(record, batch=False, kernels=False)
        if trailer:
            print(trailer)
        return 0
    lines = read_inputs(args.file)
    for record in run_batch(worker, lines, jobs=args.jobs, progress=show_progress(args), desc="proofkernel",
                            total=len(lines)):
        emit(record, _text(record, batch=True), as_json=args.json)
    return 0

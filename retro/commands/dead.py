"""``retro dead``: is the position dead (FIDE Article 5.2.2)?"""

from __future__ import annotations

import argparse
from typing import Any

from retro.commands.unwinnable import add_search_arguments, run_query_command
from retro.core.status import DeadStatus
from retro.unwinnable import DEFAULT_MAX_NODES

__all__ = ["register", "run", "dead_line"]


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "dead",
        help="is the position dead (neither side can checkmate)? 'dead', 'alive' or 'undetermined'",
        description="Decide whether a position is dead (FIDE Article 5.2.2: no series of legal moves leads to "
        "a checkmate by either side), by asking `retro unwinnable` for White and for Black. 'alive' names "
        "a side that can mate and its helpmate line; 'undetermined' means a node budget (-m) or the time "
        "limit (-t) ran out.",
        epilog="example: retro dead '8/1p3k2/pPp3p1/P1Pp1pPp/2bP1P1P/4BK2/8/8 w - - 0 1'",
    )
    parser.add_argument("fen", nargs="?", help="the position (FEN, 4 to 6 fields)")
    add_search_arguments(parser, diagram="the position (SVG: the first move of a helpmate marked)")
    parser.set_defaults(func=run)


def dead_line(
    line: str,
    *,
    quick: bool = False,
    max_nodes: int = DEFAULT_MAX_NODES,
    compiled: bool | None = None,
    time_limit: float | None = None,
) -> dict[str, Any]:
    """Batch worker: one FEN line to the verdict's ``as_dict()`` (both sides asked)."""
    from retro.api import is_dead

    return is_dead(line, quick=quick, max_nodes=max_nodes, compiled=compiled, time_limit=time_limit).as_dict()


def _text(record: dict[str, Any], *, batch: bool) -> str:
    parts = []
    for side in ("white", "black"):
        part = f"{side}: {record[side]}"
        if record[f"{side}_line"]:
            part += " " + " ".join(record[f"{side}_line"])
        parts.append(part)
    answer = f"{record['status']}  [{'; '.join(parts)}; nodes {record['nodes']}, {record['seconds']:.4f} s]"
    return f"{record['fen']} {answer}" if batch else answer


def run(args: argparse.Namespace) -> int:
    return run_query_command(args, args.fen or "", dead_line, _text, desc="dead", statuses=tuple(DeadStatus))

"""``retro lastmove``: solve last-move and retraction problems."""

from __future__ import annotations

import argparse
import functools
import shlex

import chess

from retro.batch import add_batch_arguments, emit, error_text, read_inputs, run_batch, show_progress
from retro.diagram import add_diagram_arguments, check_diagram_arguments, move_squares, show_diagrams
from retro.position import InvalidFenError, parse_board

_SIDES = {"w": [chess.WHITE], "white": [chess.WHITE], "b": [chess.BLACK], "black": [chess.BLACK],
          "both": [chess.WHITE, chess.BLACK]}


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "lastmove",
        help="solve last-move and retraction problems (what were the last N moves?)",
        description="Enumerate the retraction sequences of N moves (latest first, alternating sides) "
        "whose every position survives the static rules, known cages, the legality pipeline within a "
        "budget, retro-stalemate (at least D further retractions) and, with --dead-reckoning, FIDE "
        "Article 5.2.2 (no predecessor may be a dead position). Prints each surviving sequence in "
        "forward notation, latest move first, with the move type of the last move.",
        epilog="example: retro lastmove 8/8/3r4/4K3/8/4kqpb/8/8 --retract w --moves 3",
    )
    parser.add_argument("board", nargs="?", help="the diagram: a piece placement (other FEN fields are ignored)")
    parser.add_argument("--retract", choices=sorted(_SIDES), default="both",
                        help="the side that made the last move (default: try both)")
    parser.add_argument("--moves", type=int, default=1, metavar="N", help="number of moves to retract (default 1)")
    parser.add_argument("--extra-depth", type=int, default=3, metavar="D",
                        help="retro-stalemate: D more retractions must exist after the sequence (default 3)")
    parser.add_argument("--cages", metavar="FILE", help="a library of known cages (lines of `retro cage -f`)")
    parser.add_argument("--dead-reckoning", action="store_true",
                        help="a predecessor that is a dead position is impossible (FIDE 5.2.2)")
    parser.add_argument("--no-legality", action="store_true",
                        help="do not run the legality pipeline on predecessors (static rules and cages only)")
    parser.add_argument("--budget", type=int, default=20_000, metavar="NODES",
                        help="node budget of the legality pipeline per predecessor (default 20000)")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every rejected retraction and why")
    add_batch_arguments(parser)
    add_diagram_arguments(parser, what="the diagram (SVG: the last move of the first solution marked)")
    parser.set_defaults(func=run)


@functools.lru_cache(maxsize=4)
def _load_cages(path: str | None) -> object | None:
    if path is None:
        return None
    try:
        from cages.library import Library
    except ImportError as error:
        raise ValueError("--cages needs the cages package's known-cage library, which is missing") from error
    return Library.load(path)


def _solve_line(line: str, *, args: argparse.Namespace) -> dict:
    """Batch worker: a line is ``<board> [w|b|both]``."""
    from retro.lastmove.solver import solve

    fields = shlex.split(line)
    if not fields:
        raise InvalidFenError("empty line")
    sides = _SIDES.get(fields[1].lower()) if len(fields) > 1 else _SIDES[args.retract]
    if sides is None:
        raise InvalidFenError(f"the side that moved last must be w, b or both, got {fields[1]!r}")
    board = parse_board(fields[0])
    cages = _load_cages(args.cages)
    results = []
    for side in sides:
        verdict = solve(
            board, side, moves=args.moves, extra_depth=args.extra_depth, cages=cages,
            dead_reckoning=args.dead_reckoning, use_legality=not args.no_legality, legality_nodes=args.budget,
        )
        results.append(verdict.as_dict())
    return {"fen": board.board_fen(), "status": _combined_status(results), "results": results}


def _combined_status(results: list[dict]) -> str:
    count = sum(len(r["solutions"]) for r in results)
    return "none" if count == 0 else "unique" if count == 1 else "multiple"


def _text(record: dict, verbose: bool) -> str:
    if record["status"] == "error":
        return error_text(record)
    lines = []
    for result in record["results"]:
        side = "White" if result["retract"] == "w" else "Black"
        lines.append(f"{side} retracts ({result['nodes']} positions checked, {result['seconds']:.2f} s; "
                     f"filters: {', '.join(result['filters'])}):")
        for solution in result["solutions"]:
            lines.append(f"  {' '.join(solution['moves'])}   [{solution['type']}]")
        if not result["solutions"]:
            lines.append("  no legal last move")
        if verbose:
            for rejection in result["rejected"]:
                lines.append(f"  rejected {' '.join(rejection['moves']) or '(diagram)'}: {rejection['reason']}")
    status = record["status"]
    lines.append("unique solution" if status == "unique" else
                 "no solution" if status == "none" else f"{status} solutions")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    if args.moves < 1 or args.extra_depth < 0:
        raise ValueError("--moves must be at least 1 and --extra-depth at least 0")
    check_diagram_arguments(args)
    worker = functools.partial(_solve_line, args=args)
    if args.file is None:
        if not args.board:
            raise ValueError("give a board, or -f FILE for batch mode")
        record = worker(args.board)
        emit(record, _text(record, args.verbose), as_json=args.json)
        solutions = [s for result in record["results"] for s in result["solutions"]]
        last = move_squares(solutions[0]["moves"][0]) if solutions else None
        show_diagrams(args, parse_board(args.board.split()[0]), lastmove=last)
        return 0
    lines = read_inputs(args.file)
    for record in run_batch(worker, lines, jobs=args.jobs, progress=show_progress(args), desc="lastmove",
                            total=len(lines)):
        emit(record, _text(record, args.verbose), as_json=args.json)
    return 0

"""``retro lastmove``: solve last-move and retraction problems."""

from __future__ import annotations

import argparse
import functools
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from retro.batch import add_batch_arguments, emit, error_text, run_batch_command
from retro.core.position import parse_board
from retro.core.status import ERROR, LastMoveStatus
from retro.diagram import add_diagram_arguments, check_diagram_arguments, move_squares, show_diagrams

if TYPE_CHECKING:
    from cages.library import Library

_DESCRIPTION = """\
Enumerate the retraction sequences of N moves (latest first, alternating sides) whose
every position survives the static rules, known cages, the legality pipeline within a
budget, cages found automatically around the candidates' clusters (verified by the
cage verifier), retro-stalemate (at least D further retractions) and, with --dead-reckoning,
FIDE Article 5.2.2 (no predecessor may be a dead position). Prints each surviving
sequence in forward notation, latest move first, with the move type of the last move.
The legality pipeline costs seconds per candidate, so it runs only when the quick
filters leave several candidates, and stops once two have survived it: the answer is
then "multiple" whatever the others give, and they are listed as "unchecked"
(--check-all runs it on every candidate). Every phase stops at --time-limit: the
candidates not checked (or not enumerated) by then are kept, and unless two candidates
passed every check the status is "unknown" (the answer is not settled), never
"unique" or "multiple" on candidates nobody checked.

The position is either
  - a bare piece placement (as problems are printed): the side that made the last move
    is --retract (default: both sides are tried); castling rights and en-passant square
    are not given, so every one that fits is tried; or
  - a full FEN (4 to 6 fields): its side to move did NOT make the last move
    ('... b - - 0 1' means White moved last); its castling rights and en-passant square
    are taken as given, its move counters ignored. A --retract that names another side
    is an error (exit code 2), never silently overridden.

Batch mode (-f FILE): one problem per line,
    <placement or full FEN> [retract=w|b|both]
e.g. '8/8/8/8/1k6/P7/1K6/8 retract=w' or '4k3/8/4Q3/8/8/8/8/4K3 b - - 0 1'. A line's
retract= overrides nothing: it must agree with --retract and with the FEN. A line of 2
or 3 fields ('<placement> w') is refused as ambiguous (is 'w' the side to move or the
side that moved?). A blank line gets an error record; lines starting with # are skipped."""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "lastmove",
        help="solve last-move and retraction problems (what were the last N moves?)",
        description=_DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n  retro lastmove 8/8/3r4/4K3/8/4kqpb/8/8 --retract w --moves 3\n"
        "  retro lastmove '4k3/8/4Q3/8/8/8/8/4K3 b - - 0 1'",
    )
    _add_problem_arguments(parser)
    _add_filter_arguments(parser)
    _add_budget_arguments(parser)
    parser.add_argument(
        "-v", "--verbose", action="store_true", help="print every rejected retraction and the rule that rejected it"
    )
    add_batch_arguments(parser)
    add_diagram_arguments(parser, what="the diagram (SVG: the last move of the first solution marked)")
    parser.set_defaults(func=run)


def _add_problem_arguments(parser: argparse.ArgumentParser) -> None:
    """The problem: the position, the side that moved last, the number of moves."""
    parser.add_argument("board", nargs="?", help="a piece placement, or a full FEN (quote it)")
    parser.add_argument(
        "--retract",
        choices=["w", "white", "b", "black", "both"],
        default=None,
        help="the side that made the last move (default: the FEN's, or both for a placement)",
    )
    parser.add_argument("--moves", type=int, default=1, metavar="N", help="number of moves to retract (default 1)")
    parser.add_argument(
        "--extra-depth",
        type=int,
        default=3,
        metavar="D",
        help="retro-stalemate: D more retractions must exist after the sequence (default 3)",
    )


def _add_filter_arguments(parser: argparse.ArgumentParser) -> None:
    """The filters: known and automatic cages, dead reckoning, the legality pipeline."""
    cages = parser.add_mutually_exclusive_group()
    cages.add_argument(
        "--cages",
        "--library",
        dest="cages",
        metavar="FILE",
        help="a library of known cages (lines of `retro cage -f`); the cages found automatically are "
        "appended to it (a missing file is created), unless --no-save-cages. Default: the project's "
        "data/cages.txt when present (the library `retro serve` offers), read only: the cages found "
        "stay in memory",
    )
    cages.add_argument(
        "--no-cages", action="store_true", help="no known-cage library (the automatic cages still apply, in memory)"
    )
    parser.add_argument(
        "--verify-cages",
        action="store_true",
        help="verify every cage of the --cages file (with its own depth and assumptions) before using it; "
        "one that the verifier does not prove is an error (exit 2) naming it and the reason. Without it "
        "the file's cages are taken as verified, as `retro cage -f --library FILE` writes them",
    )
    parser.add_argument(
        "--no-save-cages",
        action="store_true",
        help="keep the cages found automatically in memory: do not append them to the --cages FILE",
    )
    parser.add_argument(
        "--no-auto-cages", action="store_true", help="do not propose and verify cages around the candidates' clusters"
    )
    parser.add_argument(
        "--cage-nodes",
        type=int,
        default=2_000,
        metavar="STATES",
        help="state budget of each automatic cage verification (default 2000)",
    )
    parser.add_argument(
        "--dead-reckoning", action="store_true", help="a predecessor that is a dead position is impossible (FIDE 5.2.2)"
    )
    parser.add_argument(
        "--no-legality",
        action="store_true",
        help="do not run the legality pipeline on predecessors (static rules and cages only)",
    )


def _add_budget_arguments(parser: argparse.ArgumentParser) -> None:
    """The budgets of the costly filters, and which candidates they check."""
    parser.add_argument(
        "--max-nodes",
        "-m",
        "--budget",
        dest="budget",
        type=int,
        default=20_000,
        metavar="NODES",
        help="node budget of the legality pipeline per predecessor (default 20000; --budget and -m are the same)",
    )
    parser.add_argument(
        "--check-single",
        action="store_true",
        help="run the legality pipeline even when one candidate is left (it may prove the "
        "diagram illegal; by default a problem's diagram is taken to be legal)",
    )
    parser.add_argument(
        "-t",
        "--time-limit",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="answer after this many seconds per problem, in every phase (plus the check in progress: "
        "one static-rule check, or one candidate's cage verification or dead reckoning; a legality check "
        "gets only the time left): the candidates not checked or not enumerated by then are kept and "
        "counted, and the status is 'unknown' unless two candidates passed every check (default 60)",
    )
    parser.add_argument(
        "--check-all",
        action="store_true",
        help="run the legality pipeline on every candidate; by default it stops once two "
        "candidates have survived it (the answer is then 'multiple' whatever the others give) "
        "and lists the rest as unchecked",
    )


@functools.lru_cache(maxsize=4)
def _load_cages(path: str, save: bool, verify: bool = False) -> Library:
    """A library file, read once per process. With ``save`` it is the library the problems
    share: the cages found for one batch line are appended to the file once and help the
    next lines. Without, it is the read-only original that :func:`_cages` copies. With
    ``verify`` each of its cages is verified first (:func:`_verified`)."""
    from cages.library import Library

    library = Library.load(path, read_only=not save)
    if verify:
        _verified(library, path)
    return library


def _verified(library: Library, path: str) -> None:
    """Raise ``ValueError`` naming the first cage of ``library`` that the verifier does not
    prove (with the cage's own depth and assumptions, as ``retro cage`` verifies a line).
    A cage is a filter that refutes retractions, so an unproven one could refute the true
    last move: only verified cages may be used."""
    from cages.library import parse_spec
    from cages.verify import verify

    for number, cage in enumerate(library, 1):
        spec = parse_spec(cage.text)
        verdict = verify(spec.board, extra_zone=spec.zone_extra, options=spec.options, depth=spec.depth)
        if verdict.status != "cage":
            line = " ".join(verdict.line) or "(no retraction)"
            raise ValueError(f"{path}: cage {number} ({cage.text}) is not verified: {verdict.reason} after {line}")


def _cages(args: argparse.Namespace) -> Library | None:
    """The known-cage library of a problem: none with --no-cages, the --cages file (shared
    and appended to), or, read only (--no-save-cages, or the default library), a fresh copy
    per problem, so that an answer never depends on the cages found for earlier problems."""
    from cages.library import Library, default_library

    if args.no_cages:
        return None
    path = args.cages if args.cages is not None else default_library()
    if path is None:
        return None
    verify = args.verify_cages and args.cages is not None
    if args.cages is not None and not args.no_save_cages:
        return _load_cages(str(path), True, verify)
    library = Library()
    library.cages = list(_load_cages(str(path), False, verify).cages)
    return library


def _solve_line(line: str, *, args: argparse.Namespace) -> dict:
    """Solve one problem (a command-line board or a batch line) and return the verdict's record."""
    from retro.lastmove.problem import read_problem
    from retro.lastmove.solver import SolveOptions, solve

    problem = read_problem(line, args.retract)
    report = _progress_printer() if args.file is None and (args.progress or sys.stderr.isatty()) else None
    options = SolveOptions(
        moves=args.moves,
        extra_depth=args.extra_depth,
        cages=_cages(args),
        auto_cages=not args.no_auto_cages,
        cage_nodes=args.cage_nodes,
        dead_reckoning=args.dead_reckoning,
        use_legality=not args.no_legality,
        legality_max_nodes=args.budget,
        check_single=args.check_single,
        time_limit=args.time_limit,
        question="all" if args.check_all else "moves",
    )
    return solve(problem.board, problem.retract, options, full_fen=problem.full_fen, progress=report).as_dict()


def _progress_printer() -> Callable[[str], None]:
    """Print the solver's progress lines on stderr, with the seconds since the start."""
    start = time.perf_counter()

    def report(message: str) -> None:
        print(f"[{time.perf_counter() - start:6.1f} s] {message}", file=sys.stderr, flush=True)

    return report


_SIDE = {"w": "White", "b": "Black"}


def _text(record: dict, verbose: bool) -> str:
    if record["status"] == ERROR:
        return error_text(record)
    sides = ["w", "b"] if record["retract"] == "both" else [record["retract"]]
    lines = [
        f"{record['fen']}  ({record['nodes']} positions checked, {record['seconds']:.2f} s; "
        f"filters: {', '.join(record['filters'])})"
    ]
    for side in sides:
        lines.append(f"{_SIDE[side]} made the last move:")
        found = [s for s in record["solutions"] if s["side"] == side]
        for solution in found:
            mark = "" if solution.get("checked", True) else "   (unchecked)"
            lines.append(f"  {' '.join(solution['moves'])}   [{solution['type']}]{mark}")
        if not found:
            lines.append("  no possible last move")
        if verbose:
            for rejection in record["rejected"]:
                if rejection["side"] == side:
                    moves = " ".join(rejection["moves"]) or "(the diagram itself)"
                    lines.append(f"  not {moves}  [{rejection['rule']}]: {rejection['reason']}")
    lines.append(_conclusion(record))
    return "\n".join(lines)


def is_retract_token(token: str) -> bool:
    """A batch line's own trailing token: ``retract=...`` (never a label)."""
    return token.lower().startswith("retract=")


def _conclusion(record: dict) -> str:
    """The last line: the status, with what was left unchecked when there is something."""
    status, unchecked, checked = record["status"], record["unchecked"], record["checked"]
    cut = "" if record["complete"] else "; the enumeration stopped at the time limit, so other sequences may exist"
    if status == LastMoveStatus.UNIQUE:
        return "unique solution"
    if status == LastMoveStatus.NONE:
        return "no solution"
    if status == LastMoveStatus.MULTIPLE:
        rest = f" ({checked} passed every check, {unchecked} unchecked: the answer is multiple whatever they give)"
        return "multiple solutions" + (rest if unchecked else "") + cut
    return (
        f"unknown: {checked} candidate{'s' * (checked != 1)} passed every check and {unchecked} "
        f"{'was' if unchecked == 1 else 'were'} not checked (time limit){cut}"
    )


def run(args: argparse.Namespace) -> int:
    if args.moves < 1 or args.extra_depth < 0 or args.time_limit < 0:
        raise ValueError("--moves must be at least 1, --extra-depth and --time-limit at least 0")
    check_diagram_arguments(args)
    worker = functools.partial(_solve_line, args=args)
    if args.file is None:
        if not args.board:
            raise ValueError("give a board, or -f FILE for batch mode")
        record = worker(args.board)
        emit(record, _text(record, args.verbose), as_json=args.json)
        solutions = record["solutions"]
        last = move_squares(solutions[0]["moves"][0]) if solutions else None
        show_diagrams(args, parse_board(record["fen"]), lastmove=last)
        return 0
    if args.board:
        raise ValueError("give either a board or -f FILE, not both")
    return run_batch_command(
        args,
        worker,
        lambda record: _text(record, args.verbose),
        desc="lastmove",
        statuses=[s.value for s in LastMoveStatus],
        own=is_retract_token,
    )

"""``retro proofgame``: prove legality with a replay-checked proof game (texelutil proofgame).

Single position: prints ``legal: proof: <SAN...>``, ``illegal: <reason>`` or
``unknown: <reason>``. Batch ``-f``: one status line per position,
``<fen> legal: proof: ...`` / ``<fen> illegal: <reason>`` / ``<fen> unknown: <reason>``;
those lines are also valid input, so passes chain. With ``-o PREFIX`` the passes go to
``PREFIX00``, ``PREFIX01``, ...; each pass re-tries only the positions still unknown,
with 50% more node and time budget and a new seed. A killed run resumes: finished lines
already in a pass file are kept, a torn last line is dropped and recomputed.
"""

from __future__ import annotations

import argparse
import collections
import dataclasses
import functools
import json
import os
import sys
from typing import TYPE_CHECKING, TextIO

from retro.batch import (
    BAD_LINES_EXIT,
    BATCH_HELP,
    BadLine,
    InputLine,
    check_writable,
    emit,
    error_record,
    error_text,
    labelled,
    positive_int,
    read_inputs,
    run_batch,
    show_progress,
    split_line,
)
from retro.core.position import parse_fen
from retro.diagram import add_diagram_arguments, check_diagram_arguments, show_diagrams

if TYPE_CHECKING:
    import chess

    from retro.proofgame import ProofGameVerdict

__all__ = ["register", "run", "parse_status_line", "status_text", "prove_line"]

_STATUSES = ("legal", "illegal", "unknown", "error")

#: Seconds past ``-t`` by which the verdict comes on an idle core (:func:`retro.proofgame.prove`).
TIME_OVERHEAD = 0.5

#: The node budget of the proof-game search when the user sets none (``--shortest`` has none).
DEFAULT_NODES = 200_000


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "proofgame",
        help="prove a position legal with a proof game (weighted A*), or illegal",
        description="Decide a position: the illegality pipeline first (static rules, tempo parity, proof "
        "kernel, extended kernel, last moves); then the extended kernel's captures and the quiet promotions "
        "are played as real moves (the initial path) "
        "and weighted A* (admissible heuristic: per-piece shortest paths with blocked squares and a Hungarian "
        "piece-to-square assignment) searches the rest in committed legs. A 'legal' answer "
        "always comes with a proof game replayed with python-chess; 'unknown' means the budget ran out.",
        epilog="example: retro proofgame 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3'",
    )
    parser.add_argument("fen", nargs="?", help="the goal position (FEN)")
    _add_search_arguments(parser)
    parser.add_argument("--pgn", metavar="FILE", help="write the proof game as PGN to FILE")
    add_diagram_arguments(
        parser,
        what="the goal, and of the final position of the proof game (SVG: the "
        "final position with the last move marked)",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="print every improved best line on stderr")
    _add_batch_arguments(parser)
    parser.set_defaults(func=run)


def _add_search_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of the search: start, weights, --shortest, budgets, seed, kernel, heuristic."""
    parser.add_argument(
        "-i",
        dest="init",
        metavar="FEN",
        help="search from this position instead of the start; its halfmove clock and move number "
        "(fields 5 and 6) number the moves of the PGN",
    )
    parser.add_argument(
        "-w",
        dest="weight",
        default="1:5",
        metavar="A:B",
        help="priority A*g + B*h (default 1:5; 1:1 is plain A*, but its committed legs and "
        "initial path do not make the game a shortest one: use --shortest for that)",
    )
    parser.add_argument(
        "--shortest",
        action="store_true",
        help="a proof game of minimum length from the exact SPG search (retro spg's engine): "
        "tries N = lower bound, +2, ... plies, each refuted by a proved rule or an exhaustive "
        "search; for short games (see --max-plies)",
    )
    parser.add_argument(
        "--max-plies",
        type=positive_int,
        default=30,
        metavar="N",
        help="with --shortest: give up (unknown) beyond N plies (default 30)",
    )
    parser.add_argument(
        "--max-nodes",
        "-m",
        dest="max_nodes",
        type=positive_int,
        default=None,
        metavar="NODES",
        help=f"node budget per position, all restarts together (default {DEFAULT_NODES}; with --shortest none: "
        "only the time limit ends the exact search)",
    )
    parser.add_argument(
        "-t",
        "--time-limit",
        type=float,
        default=60.0,
        metavar="SEC",
        help="time budget per position in seconds (default 60): every phase (static rules, last moves, kernel "
        "search, extended-kernel CP-SAT, initial path, A*) stops by it, and the verdict comes at most "
        f"{TIME_OVERHEAD} s after it on an idle core (one search node or one solver model build), plus the "
        "interpreter's start-up",
    )
    parser.add_argument(
        "--rnd", type=int, default=0, metavar="SEED", help="seed of the random tie-breaking (default 0)"
    )
    parser.add_argument(
        "-nokernel", "--nokernel", action="store_true", help="skip the kernel / illegality analysis and search directly"
    )
    parser.add_argument(
        "-na",
        "--na",
        action="store_true",
        help="try the non-admissible heuristic first in each search leg (default: only when a leg makes no progress)",
    )


def _add_batch_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of batch mode: input, passes, parallel runs, output."""
    parser.add_argument(
        "-f", "--file", nargs="?", const="-", metavar="FILE", help=BATCH_HELP + "; FENs or proofgame status lines"
    )
    parser.add_argument("-o", dest="outprefix", metavar="PREFIX", help="batch passes to PREFIX00, PREFIX01, ...")
    parser.add_argument("--passes", type=positive_int, default=3, help="number of passes with -o (default 3)")
    parser.add_argument("--retry", action="store_true", help="re-try input lines already marked unknown")
    parser.add_argument(
        "-j", "--jobs", type=positive_int, default=1, metavar="N", help="run N local processes in parallel"
    )
    parser.add_argument("--scheduler", metavar="ADDRESS", help="run batch mode on the Dask cluster at ADDRESS")
    parser.add_argument(
        "--json",
        action="store_true",
        help="one JSON object per result; with -o the pass files keep status lines, and the final "
        "result is printed as JSON records",
    )
    parser.add_argument("--progress", action="store_true", help="progress bar on stderr even when not a terminal")


def parse_weight(text: str) -> tuple[int, int]:
    try:
        a, b = (int(x) for x in text.split(":"))
    except ValueError:
        raise ValueError(f"-w wants A:B with integers, got {text!r}") from None
    if a <= 0 or b < 0:
        raise ValueError(f"-w wants A > 0 and B >= 0, got {text!r}")
    return a, b


def parse_status_line(line: str) -> tuple[str, str | None, str]:
    """Split ``<fen> <status>: <rest>`` into (fen, status, rest); a bare FEN gives status None."""
    for status in _STATUSES:
        marker = f" {status}: "
        index = line.find(marker)
        if index > 0:
            return line[:index].strip(), status, line[index + len(marker) :]
        if line.endswith(f" {status}:"):
            return line[: -len(status) - 2].strip(), status, ""
    return line.strip(), None, ""


def status_text(record: dict) -> str:
    if record["status"] == "legal":
        return "legal: proof: " + " ".join(record["proof"])
    if record["status"] == "error":
        return f"error: {record['error']}"
    return f"{record['status']}: {record.get('reason', '')}"


def _shortest(
    board: chess.Board, *, init: chess.Board | None = None, max_nodes: int | None, time_limit: float, max_plies: int
) -> ProofGameVerdict:
    from retro.spg.shortest import shortest_proof_game

    return shortest_proof_game(board, init=init, max_plies=max_plies, max_nodes=max_nodes, time_limit=time_limit)


def prove_line(
    line: str,
    *,
    max_nodes: int | None,
    time_limit: float,
    seed: int,
    weight: tuple[int, int],
    use_kernel: bool,
    non_admissible: bool,
    retry: bool,
    shortest: bool = False,
    max_plies: int = 30,
) -> dict:
    """Batch worker: a FEN or a status line to a record (decided lines pass through).
    ``max_nodes`` None: :data:`DEFAULT_NODES` for the search, no node budget with ``shortest``."""
    fen, status, rest = parse_status_line(line)
    if status in ("legal", "illegal") or (status == "unknown" and not retry):
        parse_fen(fen)  # a decided line passes through only if it names a position
        record = {"fen": fen, "status": status, "passthrough": line}
        return record
    if status == "error":  # the same input would fail the same way
        record = {"fen": fen, "status": status, "passthrough": line}
        return record
    from retro.proofgame import prove, stated_fields_verdict  # here: the search imports SciPy (start-up time)

    position = parse_fen(fen)
    verdict = stated_fields_verdict(position)  # a FEN field that cannot be true: illegal
    if verdict is None and shortest:
        verdict = _shortest(position.board, max_nodes=max_nodes, time_limit=time_limit, max_plies=max_plies)
    elif verdict is None:
        verdict = prove(
            position.board,
            max_nodes=DEFAULT_NODES if max_nodes is None else max_nodes,
            time_limit=time_limit,
            seed=seed,
            weight=weight,
            use_kernel=use_kernel,
            non_admissible=non_admissible,
        )
    # the FEN as given: pass files chain on it
    return dataclasses.replace(verdict, fen=fen).as_dict()


def status_line_record(line: str) -> dict:
    """The JSON record of a status line (``<fen> legal: proof: ...`` and the others)."""
    fen, status, rest = parse_status_line(line)
    out: dict = {"fen": fen, "status": status or "unknown"}
    if status == "legal":
        out["proof"] = rest.removeprefix("proof:").split()
    elif status == "error":
        out = {"input": fen, "status": status, "error": rest}
    else:
        out["reason"] = rest
    return out


def _line_of(record: dict, as_json: bool) -> str:
    """The output line of a record: JSON, or a status line (texelutil's format; on stdout
    prefixed with ``name: `` when the input line had a label, :func:`retro.batch.labelled`)."""
    if "passthrough" in record:
        passed = status_line_record(record["passthrough"])
        if "id" in record:
            passed["id"] = record["id"]
        return json.dumps(passed) if as_json else labelled(record, record["passthrough"])
    if record["status"] == "error":
        return json.dumps(record) if as_json else error_text(record)
    return json.dumps(record) if as_json else labelled(record, f"{record['fen']} {status_text(record)}")


def _label_of(line: InputLine) -> str | None:
    """The label of an input line (:func:`retro.batch.split_line`), None for a bad line."""
    if isinstance(line, BadLine):
        return None
    try:
        return split_line(line)[1]
    except ValueError:
        return None


def _finished_lines(path: str) -> list[str]:
    """Complete lines of an interrupted pass file (a torn last line is dropped and the file fixed)."""
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    lines = text.split("\n")
    complete = lines[:-1]  # the part after the last newline is torn (or empty)
    if lines[-1]:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write("".join(line + "\n" for line in complete))
    return complete


def _run_pass(
    lines: list[InputLine],
    out: TextIO,
    args: argparse.Namespace,
    pass_index: int,
    retry: bool,
    *,
    as_json: bool,
    labels: bool = True,
) -> collections.Counter:
    scale = 1.5**pass_index
    worker = functools.partial(
        prove_line,
        max_nodes=None if args.max_nodes is None else int(args.max_nodes * scale),
        time_limit=args.time_limit * scale,
        seed=args.rnd + 1000 * pass_index,
        weight=parse_weight(args.weight),
        use_kernel=not args.nokernel,
        non_admissible=args.na,
        retry=retry,
        shortest=args.shortest,
        max_plies=args.max_plies,
    )
    counts: collections.Counter = collections.Counter()
    for record in run_batch(
        worker,
        lines,
        jobs=args.jobs,
        progress=show_progress(args),
        desc=f"proofgame pass {pass_index}",
        total=len(lines),
        scheduler=args.scheduler,
    ):
        counts[record["status"]] += 1
        if not labels:  # a pass file holds status lines only: the labels are kept by line number
            record.pop("id", None)
        emit(record, _line_of(record, as_json), as_json=False, out=out)
    return counts


def _batch(args: argparse.Namespace) -> int:
    lines = read_inputs(args.file)
    if not args.outprefix:
        counts = _run_pass(lines, sys.stdout, args, 0, args.retry, as_json=args.json)
        _summary(counts, "")
        return BAD_LINES_EXIT if counts.get("error") else 0
    current: list[InputLine] = list(lines)
    for index in range(args.passes):
        path = f"{args.outprefix}{index:02d}"
        done = _finished_lines(path)
        if len(done) > len(current):
            raise ValueError(f"{path} has more lines than its input; remove it or use another -o")
        with open(path, "a", encoding="utf-8") as out:
            _run_pass(current[len(done) :], out, args, index, args.retry or index > 0, as_json=False, labels=False)
        with open(path, encoding="utf-8") as handle:
            current = list(handle.read().splitlines())
        final = collections.Counter(parse_status_line(str(line))[1] or "unknown" for line in current)
        _summary(final, f"pass {index:02d} ({path}): ")
        if not final.get("unknown"):
            break
    for line, given in zip(current, lines, strict=True):  # the last pass file, labelled
        record = status_line_record(str(line))
        if record["status"] == "error":  # the whole input line, as every error record has it
            record = error_record(given.text if isinstance(given, BadLine) else given, record["error"])
            print(json.dumps(record) if args.json else line)
            continue
        label = _label_of(given)
        if label is not None:
            record["id"] = label
        print(json.dumps(record) if args.json else labelled(record, str(line)))
    return BAD_LINES_EXIT if any(parse_status_line(str(line))[1] == "error" for line in current) else 0


def _summary(counts: collections.Counter, prefix: str) -> None:
    parts = ", ".join(f"{name} {counts.get(name, 0)}" for name in _STATUSES if counts.get(name) or name != "error")
    print(f"{prefix}{parts}", file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    check_diagram_arguments(args)
    if args.outprefix:
        check_writable(f"{args.outprefix}00", "-o")
    if args.pgn:
        check_writable(args.pgn, "--pgn")
    if args.file is not None:
        if args.fen:
            raise ValueError("give either a FEN or -f FILE, not both")
        return _batch(args)
    if not args.fen:
        raise ValueError("give a FEN, or -f FILE for batch mode")
    from retro.proofgame import prove, stated_fields_verdict  # here: the search imports SciPy (start-up time)

    position = parse_fen(args.fen)
    # -i keeps its move counters, so that the proof game's PGN numbers its moves from there
    init = parse_fen(args.init, require_kings=True, valid=True).clocked_board() if args.init else None

    def print_improvement(h: int, san: list[str]) -> None:
        print(f"best h={h}: {' '.join(san)}", file=sys.stderr, flush=True)

    verdict = stated_fields_verdict(position)  # a FEN field that cannot be true: illegal
    if verdict is None and args.shortest:
        verdict = _shortest(
            position.board, init=init, max_nodes=args.max_nodes, time_limit=args.time_limit, max_plies=args.max_plies
        )
    elif verdict is None:
        verdict = prove(
            position.board,
            max_nodes=DEFAULT_NODES if args.max_nodes is None else args.max_nodes,
            time_limit=args.time_limit,
            seed=args.rnd,
            weight=parse_weight(args.weight),
            use_kernel=not args.nokernel,
            init=init,
            non_admissible=args.na,
            on_improve=print_improvement if args.verbose else None,
        )
    record = dataclasses.replace(verdict, fen=args.fen.strip()).as_dict()
    emit(record, status_text(record), as_json=args.json)
    game = verdict.proof_game
    if game is None:
        show_diagrams(args, position.board, title="goal")
    else:
        final = game.final_board()
        if args.show_board and not args.json:
            show_diagrams(argparse.Namespace(show_board=True), position.board, title="goal")
        show_diagrams(
            args,
            final,
            title=f"final position of the proof game ({len(game.moves)} plies)",
            lastmove=final.peek() if final.move_stack else None,
        )
    if args.pgn and verdict.proof_game is not None:
        with open(args.pgn, "w", encoding="utf-8") as handle:
            handle.write(verdict.proof_game.pgn(args.fen.strip()))
    return 0

"""``retro estimate``: the number of legal chess positions from a decided sample.

Two modes (paper 002, "estimating the number of legal chess positions"; the estimator
is :func:`retro.estimate.estimate`):

* ``--status FILE --size N [--samples n]``: FILE holds one decided sample per line, as
  ``retro proofgame -f`` writes them (``<fen> legal: proof: ...``, ``<fen> illegal:
  ...``, ``<fen> unknown: ...``, or its ``--json`` records), or JSON objects with a
  boolean ``legal`` (``data/cpr-923-dev.jsonl``), or bare FENs (undecided: unknown).
  The multiplicity m of each sample is field 6 of its FEN (Tromp's format, and what
  ``retro rndfen`` writes; 1 when absent). ``--samples`` is the number of draws the
  file comes from (default: its lines); draws not in the file count as illegal (the
  ones ``retro rndfen`` filtered with the static rules). Error records count as unknown.
* ``--samples n [--seed S]``: the whole chain: n draws from :mod:`retro.sampling`, the
  static rules in this process, ``retro.proofgame.prove`` on the rest (``-j`` local
  processes or ``--scheduler`` a Dask cluster) with a per-position budget (``-m``,
  ``-t``), then the estimate. ``-o FILE`` keeps every draw's status line (in draw order,
  flushed line by line, a header first); rerunning the same command resumes after the
  last complete line, and the file is valid ``--status`` input.

Output: the counts legal / illegal / unknown, the estimate with its standard error and
95% interval, and the bounds with every unknown illegal / legal; ``--json`` prints one
object with ``status: done`` and those fields.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import sys
from collections.abc import Iterable

from retro.batch import BadLine, emit, positive_int, read_inputs, run_batch, show_progress
from retro.commands.proofgame import parse_status_line, status_text
from retro.core.position import InvalidFenError, parse_fen
from retro.estimate import Estimate, estimate

__all__ = ["register", "run", "read_observation", "decide_sample"]

STATUSES = ("legal", "illegal", "unknown")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "estimate",
        help="estimate the number of legal positions from a decided sample (or sample and decide)",
        description="Unbiased estimate N * mean(Y), Y = 1/m for a legal sample and 0 otherwise, with its "
        "standard error, 95% interval and the bounds given by the unknown samples. Either from a status "
        "file (--status FILE --size N), or by running the chain sample -> static rules -> proof game "
        "search (--samples n --seed S).",
        epilog="examples: retro estimate --samples 200 --seed 1 -o est.txt; "
        "retro estimate --status out02 --samples 1000 --size 4510...",
    )
    parser.add_argument("--status", metavar="FILE", help="decided samples, one per line ('-' for stdin)")
    parser.add_argument(
        "--samples", type=int, metavar="n", help="number of draws (with --status: default the number of lines in FILE)"
    )
    parser.add_argument("--size", type=int, metavar="N", help="size of the sample space (required with --status)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the draws (chain mode, default 0)")
    parser.add_argument(
        "--max-nodes",
        "-m",
        dest="max_nodes",
        type=int,
        default=20_000,
        metavar="NODES",
        help="node budget per position (chain mode, default 20000)",
    )
    parser.add_argument(
        "-t",
        "--time-limit",
        type=float,
        default=10.0,
        metavar="SEC",
        help="time budget per position in seconds (chain mode, default 10)",
    )
    parser.add_argument("-o", dest="output", metavar="FILE", help="chain mode: write every draw's status line to FILE")
    parser.add_argument(
        "-j", "--jobs", type=positive_int, default=1, metavar="N", help="run N local processes in parallel"
    )
    parser.add_argument("--scheduler", metavar="ADDRESS", help="decide the samples on the Dask cluster at ADDRESS")
    parser.add_argument("--json", action="store_true", help="print the result as one JSON object")
    parser.add_argument("--progress", action="store_true", help="progress bars on stderr even when not a terminal")
    parser.set_defaults(func=run)


# --- status files -------------------------------------------------------------------


def _multiplicity(fen: str) -> int:
    m = parse_fen(fen).multiplicity
    if m < 1:
        raise InvalidFenError(f"multiplicity (field 6) must be at least 1, got {m} in {fen!r}")
    return m


def read_observation(line: str) -> tuple[str, int]:
    """One status-file line to (status, m); status is legal, illegal, unknown or error."""
    if line.startswith("{"):
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise ValueError(f"bad JSON line ({error.msg}): {line[:60]!r}") from None
        if record.get("status") == "error":
            return "error", 1
        fen = record.get("fen")
        if not isinstance(fen, str):
            raise ValueError(f"JSON line without a 'fen': {line[:60]!r}")
        if "status" in record:
            status = record["status"]
        elif isinstance(record.get("legal"), bool):
            status = "legal" if record["legal"] else "illegal"
        else:
            status = "unknown"
        if status not in STATUSES:
            raise ValueError(f"unknown status {status!r} in {line[:60]!r}")
        return status, _multiplicity(fen)
    fen, status, _ = parse_status_line(line)
    if status == "error":
        return "error", 1
    return status or "unknown", _multiplicity(fen)


def _observations(lines: Iterable[str]) -> tuple[list[tuple[str, int]], int]:
    """(status, m) pairs with errors turned into unknowns, and the number of errors."""
    observations, errors = [], 0
    for number, line in enumerate(lines, 1):
        try:
            status, m = read_observation(line)
        except ValueError as error:
            raise ValueError(f"status file line {number}: {error}") from None
        if status == "error":
            errors += 1
            status = "unknown"
        observations.append((status, m))
    return observations, errors


# --- chain mode ---------------------------------------------------------------------


def decide_sample(fen: str, *, max_nodes: int, time_limit: float, seed: int) -> dict:
    """Batch worker: legality of one drawn position with ``retro.proofgame.prove``."""
    from retro.proofgame import prove

    verdict = prove(parse_fen(fen).board, max_nodes=max_nodes, time_limit=time_limit, seed=seed)
    return {
        "fen": fen,
        "status": verdict.status,
        "reason": verdict.reason,
        "proof": verdict.proof,
        "nodes": verdict.nodes,
        "seconds": round(verdict.seconds, 3),
    }


def _status_line(record: dict) -> str:
    if record["status"] == "error":
        return f"{record['input']} error: {record['error']}"
    return f"{record['fen']} {status_text(record)}"


def _chain_header(args: argparse.Namespace) -> str:
    from retro.sampling import STANDARD

    return f"# retro estimate: samples {args.samples} seed {args.seed} size {STANDARD.size}"


def _resume(path: str, header: str) -> list[str] | None:
    """The complete status lines already in ``path`` (a torn last line is dropped and the
    file fixed), or None when there is no file or it is empty."""
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().split("\n")[:-1]
    if not lines:
        return None
    if lines[0] != header:
        raise ValueError(f"{path} holds another run ({lines[0]!r}); remove it or use another -o")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("".join(line + "\n" for line in lines))
    return lines[1:]


def _chain(args: argparse.Namespace) -> list[str]:
    from tqdm import tqdm

    from retro.core.rules import check_static
    from retro.sampling import draws, sample_fen

    """Run sample -> decide; return the status line of every draw, in draw order."""
    header = _chain_header(args)
    resumed = _resume(args.output, header) if args.output else None
    done = resumed or []
    if len(done) > args.samples:
        raise ValueError(f"{args.output} has more lines than --samples {args.samples}")
    out = open(args.output, "a", encoding="utf-8") if args.output else None
    try:
        if out is not None and resumed is None:
            out.write(header + "\n")
            out.flush()
        progress = show_progress(args)
        fens: list[str] = []
        static: list[str | None] = []  # the status line of a draw the static rules decide
        for index, board in enumerate(
            tqdm(
                draws(args.samples, args.seed),
                total=args.samples,
                desc="sampling",
                unit="draw",
                disable=not progress,
                file=sys.stderr,
                dynamic_ncols=True,
            )
        ):
            fen = sample_fen(board)
            fens.append(fen)
            if index < len(done):
                if parse_status_line(done[index])[0] != fen:
                    raise ValueError(f"{args.output} line {index + 2} is not draw {index} of seed {args.seed}")
                static.append(None)
                continue
            verdict = check_static(board)
            static.append(f"{fen} illegal: {verdict.reason}" if verdict.status == "illegal" else None)
        todo = [i for i in range(len(done), args.samples) if static[i] is None]
        worker = functools.partial(decide_sample, max_nodes=args.max_nodes, time_limit=args.time_limit, seed=args.seed)
        results = run_batch(
            worker,
            (fens[i] for i in todo),
            jobs=args.jobs,
            progress=progress,
            desc="deciding",
            total=len(todo),
            scheduler=args.scheduler,
        )
        lines = list(done)
        for index in range(len(done), args.samples):
            decided = static[index]
            line = decided if decided is not None else _status_line(next(results))
            lines.append(line)
            if out is not None:
                out.write(line + "\n")
                out.flush()
        return lines
    finally:
        if out is not None:
            out.close()


# --- output -------------------------------------------------------------------------


def _report(result: Estimate, args: argparse.Namespace, errors: int) -> None:
    record = {
        "status": "done",
        "estimate": result.estimate,
        "stderr": result.stderr,
        "ci_low": result.ci_low,
        "ci_high": result.ci_high,
        "low": result.low,
        "high": result.high,
        "legal": result.legal,
        "illegal": result.illegal,
        "unknown": result.unknown,
        "errors": errors,
        "samples": result.samples,
        "size": result.size,
    }
    text = "\n".join(
        [
            f"samples {result.samples}: legal {result.legal}, illegal {result.illegal}, unknown {result.unknown}"
            + (f" (of which {errors} error lines)" if errors else ""),
            f"estimate {result.estimate:.4g} +- {result.ci_high - result.estimate:.2g} (95%), "
            f"standard error {result.stderr:.3g}, interval [{result.ci_low:.4g}, {result.ci_high:.4g}]"
            + (" (fewer than 10 legal samples: the normal interval is unreliable)" if result.legal < 10 else ""),
            f"unknowns all illegal .. all legal: {result.low:.4g} .. {result.high:.4g}",
            f"size {result.size}, multiplier {result.size / result.samples:.6g}",
        ]
    )
    emit(record, text, as_json=args.json)


def run(args: argparse.Namespace) -> int:
    from retro.sampling import STANDARD

    if args.status is not None:
        if args.size is None or args.size <= 0:
            raise ValueError("--status needs --size N, the (positive) size of the sample space")
        status_lines = read_inputs(args.status)
        for bad in status_lines:  # a blank line is no sample; an unreadable one stops the estimate
            if isinstance(bad, BadLine) and not bad.blank:
                raise ValueError(f"{args.status}: {bad.error}")
        observations, errors = _observations(line for line in status_lines if isinstance(line, str))
        if not observations and args.samples is None:
            raise ValueError(f"{args.status} holds no samples")
        result = estimate(observations, size=args.size, samples=args.samples)
        _report(result, args, errors)
        return 0
    if args.samples is None or args.samples <= 0:
        raise ValueError("give --status FILE --size N, or --samples n (> 0) to sample and decide")
    if args.size is not None and args.size != STANDARD.size:
        raise ValueError(f"chain mode samples retro's own space, of size {STANDARD.size}; drop --size")
    lines = _chain(args)
    observations, errors = _observations(lines)
    _report(estimate(observations, size=STANDARD.size), args, errors)
    return 0

"""Batch mode shared by every command: inputs one per line, results in input order.

Rules (DESIGN.md, "Batch"):

* ``-f [FILE]`` reads one input per line from FILE, or from stdin when FILE is
  omitted or ``-``. Blank lines and lines starting with ``#`` are skipped.
* Each result is written and flushed as soon as it and all earlier ones are done, so
  an interrupted run loses no finished result.
* A bad input line gives an error record (``{"input": ..., "status": "error",
  "error": ...}`` in ``--json`` mode, ``<input> error: <message>`` in text mode) and
  the rest goes on.
* ``-j N`` runs the worker in N local processes; results still come in input order.
  ``scheduler=ADDRESS`` runs it on a Dask cluster instead (:mod:`retro.distributed`).
* A progress bar goes to stderr (tqdm) when stderr is a terminal or ``--progress``
  is given.

A worker is a picklable function ``worker(line: str) -> dict`` returning a JSON-able
record with at least ``status``; it raises ``ValueError`` (for instance
``InvalidFenError``) for bad input, which this module turns into an error record.
"""

from __future__ import annotations

import argparse
import collections
import functools
import json
import multiprocessing
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TextIO

from tqdm import tqdm

__all__ = [
    "add_batch_arguments",
    "read_inputs",
    "error_record",
    "run_batch",
    "show_progress",
    "emit",
    "run_batch_command",
]

Record = dict[str, Any]


def add_batch_arguments(parser: argparse.ArgumentParser, *, jobs: bool = True) -> None:
    """Add ``-f [FILE]``, ``--json``, ``--progress`` and (optionally) ``-j/--jobs``."""
    parser.add_argument(
        "-f", "--file", nargs="?", const="-", metavar="FILE",
        help="batch mode: one input per line from FILE (or stdin when FILE is omitted or '-')",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object per result (JSON Lines)")
    parser.add_argument("--progress", action="store_true", help="show a progress bar on stderr even when it is not a terminal")
    if jobs:
        parser.add_argument("-j", "--jobs", type=int, default=1, metavar="N", help="run N local processes in parallel (default 1)")


def read_inputs(path: str) -> list[str]:
    """Lines of FILE (or stdin for '-'), without blank and comment lines."""
    if path == "-":
        lines = sys.stdin.read().splitlines()
    else:
        with open(path, encoding="utf-8") as handle:
            lines = handle.read().splitlines()
    return [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]


def error_record(line: str, error: Exception | str) -> Record:
    return {"input": line, "status": "error", "error": str(error)}


def _guarded(worker: Callable[[str], Record], line: str) -> Record:
    try:
        return worker(line)
    except ValueError as error:
        return error_record(line, error)


def run_batch(
    worker: Callable[[str], Record],
    lines: Iterable[str],
    *,
    jobs: int = 1,
    progress: bool = False,
    desc: str = "",
    total: int | None = None,
    scheduler: str | None = None,
) -> Iterator[Record]:
    """Yield ``worker(line)`` for each line, in input order; bad lines give error records.
    With ``scheduler`` (a Dask scheduler address) the lines run on that cluster
    (:mod:`retro.distributed`) instead of local processes."""
    guarded = functools.partial(_guarded, worker)
    bar = tqdm(total=total, desc=desc, unit="pos", disable=not progress, file=sys.stderr, dynamic_ncols=True)
    try:
        if scheduler:
            from retro.distributed import map_ordered

            for record in map_ordered(guarded, lines, scheduler=scheduler):
                yield record
                bar.update()
        elif jobs <= 1:
            for line in lines:
                yield guarded(line)
                bar.update()
        else:
            with multiprocessing.get_context("fork").Pool(jobs) as pool:
                for record in pool.imap(guarded, lines, chunksize=1):
                    yield record
                    bar.update()
    finally:
        bar.close()


def emit(record: Record, text: str, *, as_json: bool, out: TextIO | None = None) -> None:
    """Write one result (JSON object or text line) and flush it."""
    out = out or sys.stdout
    out.write((json.dumps(record) if as_json else text) + "\n")
    out.flush()


def show_progress(args: argparse.Namespace) -> bool:
    return bool(getattr(args, "progress", False)) or sys.stderr.isatty()


def run_batch_command(
    args: argparse.Namespace,
    worker: Callable[[str], Record],
    render: Callable[[Record], str],
    *,
    desc: str,
    statuses: Iterable[str],
) -> int:
    """The whole ``-f FILE`` mode of a command: run ``worker`` on every input line (with
    ``-j`` and the progress bar), print each record through ``render`` (or as JSON with
    ``--json``), then a summary of the record statuses on stderr, in the order of
    ``statuses`` (then ``error``). ``render`` also receives error records. Returns 0."""
    lines = read_inputs(args.file)
    counts: collections.Counter[str] = collections.Counter()
    for record in run_batch(worker, lines, jobs=getattr(args, "jobs", 1), progress=show_progress(args),
                            desc=desc, total=len(lines)):
        counts[record["status"]] += 1
        emit(record, render(record), as_json=args.json)
    order = [name for name in statuses if name != "error"] + ["error"]
    order += sorted(name for name in counts if name not in order)
    summary = [f"{counts[name]:7d}  {name}" for name in order if counts[name]]
    summary.append(f"{sum(counts.values()):7d}  total")
    print("\n".join(summary), file=sys.stderr)
    return 0

"""Batch mode shared by every command: inputs one per line, results in input order.

Rules (DESIGN.md, "Batch"):

* ``-f [FILE]`` reads one input per line from FILE, or from stdin when FILE is
  omitted or ``-``. The file is read as bytes and each line decoded on its own, so one
  line that is not UTF-8 text spoils only itself.
* **One record per line**, so that output line N answers input line N: a line that
  cannot be read (not UTF-8, or blank) gets an error record like any other bad input.
  The one exception is comment lines, starting with ``#`` (``retro rndfen`` writes a
  header comment): they are skipped, and counted in the summary on stderr.
* Each result is written and flushed as soon as it and all earlier ones are done, so
  an interrupted run loses no finished result.
* A bad input line gives an error record (``{"input": ..., "status": "error",
  "error": ...}`` in ``--json`` mode, ``<input> error: <message>`` in text mode) and
  the rest goes on. ``input`` is the line cut to a short prefix with control
  characters escaped (:func:`retro.position.excerpt`).
* EPD lines (``<placement> <side> <castling> <ep> id "name"; ...``) are read as their
  four position fields; the ``id`` operation's name is carried into the record as
  ``id`` (:func:`split_epd`).
* A full FEN (six fields, the last two the move counters) followed by a one-word label,
  as in ``data/lichess-30k-positions.txt`` (``<FEN> <game id>``), is read as the FEN;
  the label is carried into the record as ``id`` too. The counters are numbers, so such
  a line can be neither a FEN nor an EPD line. A word with ``=`` is not a label but the
  command's own (``retract=w``). A status line of ``retro proofgame``'s
  pass files (``<FEN> legal: proof: ...``) is left whole, so that its status is read.
* ``-j N`` runs the worker in N local processes; results still come in input order
  (:func:`_run_parallel`: each record is sent back when done, a worker that dies gives
  its line an error record).
  ``scheduler=ADDRESS`` runs it on a Dask cluster instead (:mod:`retro.distributed`).
* A progress bar goes to stderr (tqdm) when stderr is a terminal or ``--progress``
  is given.

A worker is a picklable function ``worker(line: str) -> dict`` returning a JSON-able
record with at least ``status``; it raises ``ValueError`` (for instance
``InvalidFenError``) for bad input, which this module turns into an error record.
Any other exception becomes an error record too (``internal error: ...``), so one
line never stops the batch.
"""

from __future__ import annotations

import argparse
import collections
import dataclasses
import functools
import json
import os
import re
import signal
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from retro.position import excerpt
from retro.status import ERROR

if TYPE_CHECKING:
    from tqdm import tqdm

__all__ = [
    "BadLine",
    "InputLine",
    "positive_int",
    "add_batch_arguments",
    "read_inputs",
    "split_epd",
    "error_record",
    "error_text",
    "check_writable",
    "run_batch",
    "show_progress",
    "emit",
    "run_batch_command",
]

Record = dict[str, Any]


@dataclasses.dataclass(frozen=True)
class BadLine:
    """An input line that cannot be given to a worker: ``text`` is its excerpt, ``error``
    says why (not UTF-8, blank), ``blank`` tells a blank line from the rest."""

    text: str
    error: str
    blank: bool = False


InputLine = str | BadLine


def positive_int(text: str) -> int:
    """argparse type: an integer of at least 1 (``-j 0`` is refused with exit code 2)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {excerpt(text)!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {value}")
    return value


BATCH_HELP = (
    "batch mode: one input per line from FILE (or stdin when FILE is omitted or '-'); every line gets "
    "one result in input order (an error record for a blank or unreadable line), except comment lines "
    "starting with '#', which are skipped and counted; EPD lines keep their id"
)


def add_batch_arguments(parser: argparse.ArgumentParser, *, jobs: bool = True) -> None:
    """Add ``-f [FILE]``, ``--json``, ``--progress`` and (optionally) ``-j/--jobs``."""
    parser.add_argument("-f", "--file", nargs="?", const="-", metavar="FILE", help=BATCH_HELP)
    parser.add_argument("--json", action="store_true", help="print one JSON object per result (JSON Lines)")
    parser.add_argument(
        "--progress", action="store_true", help="show a progress bar on stderr even when it is not a terminal"
    )
    if jobs:
        parser.add_argument(
            "-j",
            "--jobs",
            type=positive_int,
            default=1,
            metavar="N",
            help="run N local processes in parallel (default 1)",
        )


@dataclasses.dataclass
class Inputs:
    """The lines of a batch file: one entry per non-comment line, and the number of
    comment lines skipped."""

    lines: list[InputLine]
    comments: int = 0


def read_input_file(path: str) -> Inputs:
    """Lines of FILE (stdin for '-'), read as bytes and decoded one by one; see the
    module docstring. A CR before the newline is dropped, surrounding blanks stripped."""
    data = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    raw_lines = data.split(b"\n")
    if raw_lines and raw_lines[-1] == b"":
        raw_lines.pop()  # the newline that ends the last line
    inputs = Inputs([])
    for number, raw in enumerate(raw_lines, 1):
        try:
            text = raw.decode("utf-8").strip()
        except UnicodeDecodeError as error:
            shown = excerpt(raw.decode("utf-8", errors="backslashreplace").strip())
            inputs.lines.append(
                BadLine(
                    shown, f"line {number} is not UTF-8 text (byte {raw[error.start]:#04x} at column {error.start + 1})"
                )
            )
            continue
        if text.startswith("#"):
            inputs.comments += 1
        elif not text:
            inputs.lines.append(BadLine("", f"line {number} is blank", blank=True))
        else:
            inputs.lines.append(text)
    return inputs


def read_inputs(path: str) -> list[InputLine]:
    """The input lines of FILE (see :func:`read_input_file`), comments left out."""
    return read_input_file(path).lines


_EPD_OPCODE = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,14}$")


def split_epd(line: str) -> tuple[str, str | None]:
    """``(position, id)`` of an EPD line (four FEN fields, then operations each ended by
    ``;``) or of a labelled FEN (six fields, then one word as its label, e.g. a game id),
    or ``(line, None)`` for any other line. A status line (``<fen> legal: proof: ...``,
    a pass file of ``retro proofgame``) is not a labelled FEN: its status is several
    words, the first ending in ``:``. Nor is a FEN followed by ``key=value``, a word of
    the command's own line grammar (``retro lastmove``'s ``retract=w``), which the command
    reads. EPD operations are read by python-chess
    (``Board.set_epd``); a malformed one raises ``ValueError``."""
    labelled = line.split()
    if (
        len(labelled) == 7
        and labelled[4].isdigit()
        and labelled[5].isdigit()
        and not labelled[6].endswith(":")
        and "=" not in labelled[6]
    ):
        return " ".join(labelled[:6]), labelled[6]
    fields = line.split(maxsplit=4)
    if len(fields) < 5 or not _EPD_OPCODE.match(fields[4].split()[0]) or not line.rstrip().endswith(";"):
        return line, None
    import chess

    try:
        operations = chess.Board().set_epd(line)
    except ValueError as error:
        raise ValueError(f"bad EPD line: {error}") from None
    name = operations.get("id")
    return " ".join(fields[:4]), None if name is None else str(name)


def error_record(line: str, error: Exception | str) -> Record:
    return {"input": excerpt(line), "status": ERROR, "error": excerpt(str(error), 300)}


def _guarded(worker: Callable[[str], Record], line: InputLine) -> Record:
    if isinstance(line, BadLine):
        return error_record(line.text, line.error)
    name = None
    try:
        position, name = split_epd(line)
        record = worker(position)
    except ValueError as error:
        record = error_record(line, error)
    except Exception as error:  # a bug must not stop the batch: the line gets an error record
        record = error_record(line, f"internal error ({type(error).__name__}): {error}")
    if name is not None:
        record["id"] = name
    return record


def _bar(*, total: int | None, desc: str, progress: bool) -> tqdm:
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, unit="pos", disable=not progress, file=sys.stderr, dynamic_ncols=True)


def run_batch(
    worker: Callable[[str], Record],
    lines: Iterable[InputLine],
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
    bar = _bar(total=total, desc=desc, progress=progress)
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
            for record in _run_parallel(guarded, list(lines), jobs):
                yield record
                bar.update()
    finally:
        bar.close()


def _work(
    guarded: Callable[[InputLine], Record], lines: list[InputLine], counter: Any, current: Any, slot: int, conn: Any
) -> None:
    """A worker process: take the next line index from the shared ``counter`` (``current[slot]``
    says which line it works on), send ``(index, record)`` as soon as the record is done."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops the workers on Ctrl-C
    while True:
        with counter.get_lock():
            index = counter.value
            if index >= len(lines):
                break
            counter.value = index + 1
            current[slot] = index
        conn.send((index, guarded(lines[index])))
    current[slot] = -1
    conn.close()


def _lost(line: InputLine, error: str) -> Record:
    return error_record(line.text if isinstance(line, BadLine) else line, error)


def _run_parallel(guarded: Callable[[InputLine], Record], lines: list[InputLine], jobs: int) -> Iterator[Record]:
    """``guarded(line)`` for every line in ``jobs`` forked processes, yielded in input order.

    The workers inherit the lines (nothing is pickled on the way in) and take indices from
    a shared counter, one at a time, so the load stays balanced when some lines cost much
    more than others; each record is sent back the moment it is done (a killed run loses
    only the lines being worked on). A worker that dies (killed, out of memory) gives its
    current line an error record and is replaced, so every line still gets one record."""
    import multiprocessing
    from multiprocessing.connection import wait

    context = multiprocessing.get_context("fork")
    counter = context.Value("q", 0)
    current = context.Array("q", [-1] * jobs)
    workers: dict[Any, tuple[int, Any]] = {}  # reading end -> (slot, process)

    def start(slot: int) -> None:
        reader, writer = context.Pipe(duplex=False)
        process = context.Process(target=_work, args=(guarded, lines, counter, current, slot, writer), daemon=True)
        process.start()
        writer.close()
        workers[reader] = (slot, process)

    done: dict[int, Record] = {}
    next_index = 0
    try:
        for slot in range(min(jobs, len(lines))):
            start(slot)
        while next_index < len(lines):
            if not workers:  # cannot happen (a worker names its line before taking the next), but never hang
                for index in range(next_index, len(lines)):
                    done.setdefault(index, _lost(lines[index], "no worker process returned a record"))
            for ready in wait(list(workers)):
                reader: Any = ready
                try:
                    index, record = reader.recv()
                    done[index] = record
                except EOFError:  # the worker ended: normally, or killed while working on a line
                    slot, process = workers.pop(reader)
                    process.join()
                    index = current[slot]
                    if index >= 0 and index not in done:
                        done[index] = _lost(lines[index], f"worker process died (exit code {process.exitcode})")
                        current[slot] = -1
                    if counter.value < len(lines):
                        start(slot)
            while next_index in done:
                yield done.pop(next_index)
                next_index += 1
    finally:
        for _, process in workers.values():
            if process.is_alive():
                process.terminate()
            process.join()


def emit(record: Record, text: str, *, as_json: bool, out: TextIO | None = None) -> None:
    """Write one result (JSON object or text line) and flush it."""
    out = out or sys.stdout
    out.write((json.dumps(record) if as_json else text) + "\n")
    out.flush()


def check_writable(path: str, option: str) -> None:
    """Raise ``ValueError`` when ``path`` (the value of ``option``) cannot be written: to
    be called before any search, so that a long run does not end on a bad path."""
    directory = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise ValueError(f"{option} {path}: is a directory")
    if not os.path.isdir(directory):
        raise ValueError(f"{option} {path}: directory {directory} does not exist")
    if not os.access(directory, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        raise ValueError(f"{option} {path}: not writable")


def error_text(record: Record) -> str:
    """The text line of an error record."""
    return f"{record['input'] or '(blank)'} error: {record['error']}"


def show_progress(args: argparse.Namespace) -> bool:
    return bool(getattr(args, "progress", False)) or sys.stderr.isatty()


def print_summary(counts: collections.Counter[str], statuses: Iterable[str], *, comments: int = 0) -> None:
    """The counts of the record statuses on stderr, in the order of ``statuses`` (then
    ``error``, then any other), with the total and the comment lines skipped."""
    order = [name for name in statuses if name != ERROR] + [ERROR]
    order += sorted(name for name in counts if name not in order)
    summary = [f"{counts[name]:7d}  {name}" for name in order if counts[name]]
    summary.append(f"{sum(counts.values()):7d}  total")
    if comments:
        summary.append(f"{comments:7d}  comment lines skipped")
    print("\n".join(summary), file=sys.stderr)


def run_batch_command(
    args: argparse.Namespace,
    worker: Callable[[str], Record],
    render: Callable[[Record], str],
    *,
    desc: str,
    statuses: Iterable[str],
    count: Callable[[Record], str] = lambda record: record["status"],
    summary: Callable[[collections.Counter[str], int], None] | None = None,
    prepare: Callable[[int], None] | None = None,
) -> int:
    """The whole ``-f FILE`` mode of a command: run ``worker`` on every input line (with
    ``-j`` and the progress bar), print each record through ``render`` (or as JSON with
    ``--json``), then a summary on stderr: ``summary(counts, comments)`` when given, else
    the counts of ``count(record)`` (the status) in the order of ``statuses``. ``render``
    also receives error records. ``prepare(number of input lines)`` runs once the input is
    read, before the first line. Returns 0."""
    inputs = read_input_file(args.file)
    if prepare is not None:
        prepare(len(inputs.lines))  # e.g. load what pays off only for long batches, before the workers fork
    counts: collections.Counter[str] = collections.Counter()
    for record in run_batch(
        worker,
        inputs.lines,
        jobs=getattr(args, "jobs", 1),
        progress=show_progress(args),
        desc=desc,
        total=len(inputs.lines),
        scheduler=getattr(args, "scheduler", None),
    ):
        counts[count(record)] += 1
        text = error_text(record) if record["status"] == ERROR else render(record)
        emit(record, f"{record['id']}: {text}" if "id" in record else text, as_json=args.json)
    if summary is not None:
        summary(counts, inputs.comments)
    else:
        print_summary(counts, statuses, comments=inputs.comments)
    return 0

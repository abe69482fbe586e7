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
  the rest goes on; the command then exits with code 2 (:data:`BAD_LINES_EXIT`) once
  every line has its record. ``input`` is the whole line (up to :data:`INPUT_LIMIT`
  characters) with control characters escaped (:func:`retro.core.position.excerpt`); the
  text form shows a short prefix.
* A line is ``<position> [the command's own tokens] [label]`` (:func:`split_line`): the
  command's own trailing tokens (``white|black``, ``retract=w``, the plies of ``spg``)
  are never labels; a label is an EPD ``id`` (``<placement> <side> <castling> <ep> id
  "name";``) or a word the command does not define after a full six-field FEN, as in
  ``data/lichess-30k-positions.txt`` (``<FEN> <game id>``). It is carried into the
  record as ``id``, and in text output the line starts with ``name: ``. A status line
  of ``retro proofgame``'s pass files (``<FEN> legal: proof: ...``) is left whole, so
  that its status is read.
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
import contextlib
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

from retro.core.position import excerpt
from retro.core.status import ERROR

if TYPE_CHECKING:
    from tqdm import tqdm

__all__ = [
    "BadLine",
    "InputLine",
    "positive_int",
    "add_batch_arguments",
    "read_inputs",
    "split_line",
    "no_own_tokens",
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


#: The opcodes of the EPD standard (PGN specification, section 16.2.5; python-chess reads
#: any opcode, these are the ones a batch line's operations are recognised by).
EPD_OPCODES = frozenset(
    {"acd", "acn", "acs", "am", "bm", "ce", "dm", "draw_accept", "draw_claim", "draw_offer", "draw_reject"}
    | {"eco", "fmvn", "hmvc", "id", "nic", "noop", "pm", "pv", "rc", "resign", "sm", "tcgs", "tcri", "tcsi"}
    | {f"c{digit}" for digit in range(10)}
    | {f"v{digit}" for digit in range(10)}
)


def no_own_tokens(token: str) -> bool:
    """The trailing tokens of a command that takes none (``check``, ``dead``, ...)."""
    return False


def _words(line: str) -> list[re.Match[str]]:
    return list(re.finditer(r"\S+", line))


_ID_OPERATION = re.compile(r'(?:^|;)\s*id\s+("(?:[^"\\]|\\.)*"|[^;\s]+)\s*;')


def _epd_operations(line: str) -> tuple[str, str | None]:
    """``(head, id)``: the line before its EPD operations and the ``id`` operation's name;
    ``(line, None)`` when the line has none. Operations are recognised by their opcode
    (:data:`EPD_OPCODES`) after the first word, the line ending with ``;``. After a
    four-field FEN they are read by python-chess against that position (``Board.set_epd``:
    a move operation such as ``bm`` must be legal there, a malformed one raises
    ``ValueError``); after any other head (a placement and the command's own tokens, or a
    FEN python-chess does not accept, which the command's parser then refuses with its
    own message) only the ``id`` operation is read. Only the ``id`` is kept: the other
    operations (``bm``, ``hmvc``, ...) ask nothing of retro."""
    if not line.rstrip().endswith(";"):
        return line, None
    words = _words(line)
    start = next((word.start() for word in words[1:] if word.group() in EPD_OPCODES), None)
    if start is None:
        return line, None
    import chess

    head, operations = line[:start].strip(), line[start:]
    board = None
    if len(head.split()) == 4:
        with contextlib.suppress(ValueError):
            board = chess.Board(f"{head} 0 1")
    if board is None:  # read the id alone
        found = _ID_OPERATION.search(operations)
        operations = f"id {found.group(1)};" if found else ""
        board, head_fen = chess.Board(), chess.STARTING_FEN.rsplit(" ", 2)[0]
    else:
        head_fen = head
    try:
        name = board.set_epd(f"{head_fen} {operations}").get("id")
    except ValueError as error:
        raise ValueError(f"bad EPD operations: {error}") from None
    return head, str(name) if name else None


def split_line(line: str, own: Callable[[str], bool] = no_own_tokens) -> tuple[str, str | None]:
    """``(query, label)`` of a batch line: the command's question (position and the
    command's own trailing tokens, for which ``own(token)`` is true: ``white``, ``retract=w``,
    the plies of ``retro spg``) and the line's label, or ``None``.

    The grammar, the same for every command (DESIGN.md, "One request model"):
    ``<position> [own tokens] [label]``, where the label is

    * the ``id`` of EPD operations ending the line (``... id "name";``), or
    * one word that the command does not define, ending the line, standing either after a
      full six-field FEN (whose last two fields are numbers, so the word cannot be a FEN
      field; it may also stand before the own tokens there: ``<FEN> <game id> black``), or
      right after an own token (``<placement> 12 name`` for ``retro spg``).

    A command's own token is never a label, and a word ending in ``:`` never is (a status
    line of ``retro proofgame``'s pass files, ``<FEN> legal: proof: ...``, is left whole).
    Anything else stays in the query, where the command's parser refuses what it cannot
    read: a misspelt ``whte`` after a four-field FEN is an error, not a label."""
    head, name = _epd_operations(line)
    if name is not None or head != line:
        return head, name
    words = line.split()
    candidates: list[int] = []
    if len(words) > 6 and words[4].isdigit() and words[5].isdigit():
        candidates = [index for index in range(6, len(words)) if not own(words[index])]
    elif len(words) > 2 and own(words[-2]) and not own(words[-1]):
        candidates = [len(words) - 1]
    if len(candidates) != 1 or words[candidates[0]].endswith(":"):
        return line, None
    label = words.pop(candidates[0])
    return " ".join(words), label


#: The exit code of a batch in which some line got an error record: the same as for one
#: bad input, given after every line has its record.
BAD_LINES_EXIT = 2

#: The longest ``input`` an error record carries (a whole line up to this, so that a
#: machine reading ``--json`` can match it to its input; the text form shows a short prefix).
INPUT_LIMIT = 2_000


def error_record(line: str, error: Exception | str) -> Record:
    return {"input": excerpt(line, INPUT_LIMIT), "status": ERROR, "error": excerpt(str(error), 300)}


def _guarded(worker: Callable[[str], Record], own: Callable[[str], bool], line: InputLine) -> Record:
    if isinstance(line, BadLine):
        return error_record(line.text, line.error)
    name = None
    try:
        query, name = split_line(line, own)
        record = worker(query)
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
    own: Callable[[str], bool] = no_own_tokens,
) -> Iterator[Record]:
    """Yield ``worker(query)`` for each line, in input order, where the line is split into
    its query and label by :func:`split_line` with the command's ``own`` trailing tokens
    (the label becomes the record's ``id``); bad lines give error records. With
    ``scheduler`` (a Dask scheduler address) the lines run on that cluster
    (:mod:`retro.distributed`) instead of local processes."""
    guarded = functools.partial(_guarded, worker, own)
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
    """The text line of an error record (its input cut to a short prefix)."""
    return f"{excerpt(record['input']) or '(blank)'} error: {record['error']}"


def labelled(record: Record, text: str) -> str:
    """The text line of a record: prefixed with ``name: `` when its line had a label (an
    error record shows its input line, label included, so it is not prefixed)."""
    return f"{record['id']}: {text}" if "id" in record else text


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
    own: Callable[[str], bool] = no_own_tokens,
) -> int:
    """The whole ``-f FILE`` mode of a command: run ``worker`` on every input line (with
    ``-j`` and the progress bar), print each record through ``render`` (or as JSON with
    ``--json``), then a summary on stderr: ``summary(counts, comments)`` when given, else
    the counts of ``count(record)`` (the status) in the order of ``statuses``. ``render``
    also receives error records. ``prepare(number of input lines)`` runs once the input is
    read, before the first line. ``own`` says which trailing tokens of a line are the
    command's (:func:`split_line`). Returns 0, or :data:`BAD_LINES_EXIT` when some line
    got an error record (every line was still answered)."""
    inputs = read_input_file(args.file)
    errors = 0
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
        own=own,
    ):
        counts[count(record)] += 1
        errors += record["status"] == ERROR
        text = error_text(record) if record["status"] == ERROR else labelled(record, render(record))
        emit(record, text, as_json=args.json)
    if summary is not None:
        summary(counts, inputs.comments)
    else:
        print_summary(counts, statuses, comments=inputs.comments)
    return BAD_LINES_EXIT if errors else 0

"""The worker process of ``retro serve``: runs one ``retro`` command line at a time.

A job is the argument list of a command line (``["dead", FEN, "--json"]``), run by
:func:`retro.cli.main` exactly as ``retro dead FEN --json`` runs it. The records the
HTTP API returns are therefore the ``--json`` records of the CLI by construction, and
the options are checked by the command's own parser with its own one-line messages.

Protocol over a :func:`multiprocessing.Pipe` (the parent is :mod:`retro.server.pool`):

* the worker sends ``("ready",)`` once its imports are done;
* the parent sends ``(argv, inputs)``; ``inputs`` is the text of a batch file or None,
  and the argument ``"@INPUT"`` in ``argv`` is replaced by the path of a temporary file
  holding it;
* the worker sends ``("out", line)`` for every line the command prints on stdout (so
  batch records arrive one by one), ``("err", line)`` for every line on stderr (progress,
  error messages), then ``("exit", code)``.

A job is stopped by killing the process; the pool then starts a new one.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import tempfile
import traceback
from multiprocessing.connection import Connection

__all__ = ["INPUT", "serve_jobs"]

INPUT = "@INPUT"


class _LineSink(io.TextIOBase):
    """A text stream that sends each complete line through ``conn`` as ``(kind, line)``."""

    def __init__(self, conn: Connection, kind: str) -> None:
        self._conn, self._kind, self._pending = conn, kind, ""

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return False

    def write(self, text: str) -> int:
        self._pending += text
        *lines, self._pending = self._pending.split("\n")
        for line in lines:
            self._conn.send((self._kind, line))
        return len(text)

    def flush(self) -> None:
        pass

    def finish(self) -> None:
        if self._pending:
            self._conn.send((self._kind, self._pending))
            self._pending = ""


def _run(argv: list[str], inputs: str | None, stdout: _LineSink, stderr: _LineSink) -> int:
    from retro.cli import main

    path = None
    try:
        if inputs is not None:
            with tempfile.NamedTemporaryFile("w", encoding="utf-8", suffix=".txt", delete=False) as handle:
                handle.write(inputs)
                path = handle.name
            argv = [path if arg == INPUT else arg for arg in argv]
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            try:
                return main(argv)
            except SystemExit as stop:  # argparse's usage errors
                return stop.code if isinstance(stop.code, int) else 2
            except Exception:  # a bug: report it, keep the worker
                traceback.print_exc()
                return 70
    finally:
        if path is not None:
            os.unlink(path)


def serve_jobs(conn: Connection) -> None:
    """The worker's main loop (the target of the worker process)."""
    import retro.cli

    retro.cli.build_parser()  # imports every command module once, before the first job
    sys.stdin = io.StringIO("")
    conn.send(("ready",))
    while True:
        try:
            argv, inputs = conn.recv()
        except (EOFError, OSError):
            return
        stdout, stderr = _LineSink(conn, "out"), _LineSink(conn, "err")
        code = _run(list(argv), inputs, stdout, stderr)
        stdout.finish()
        stderr.finish()
        conn.send(("exit", code))

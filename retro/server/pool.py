"""A bounded pool of worker processes for the CPU-bound commands of ``retro serve``.

Rules:

* ``size`` processes (:func:`retro.server.worker.serve_jobs`), each running one job at a
  time; at most ``queue_limit`` further jobs wait for a free process, each for at most
  its own time limit. Beyond that :meth:`WorkerPool.run` raises :class:`PoolFull` (the
  API answers 503).
* A job that runs past its time limit, or whose caller stops waiting (the task is
  cancelled: the HTTP client disconnected, the page cancelled the job), has its process
  killed; a new process replaces it, so the pool keeps its size. A process is the unit
  that can be stopped safely in the middle of a search: a thread cannot be, and
  :class:`concurrent.futures.ProcessPoolExecutor` cannot kill one task's process without
  breaking the whole pool.
* Processes are started with the ``spawn`` method (no copy of the server's threads or
  event loop) and report ready after their imports, so a job never pays the start-up.

Each worker has a reader thread that blocks on its pipe and hands the messages to the
event loop; the loop never blocks on a worker.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import multiprocessing
import threading
from collections.abc import Callable
from typing import Any

from retro.server.worker import serve_jobs

__all__ = ["Outcome", "PoolFull", "JobTimeout", "WorkerLost", "WorkerPool"]

LineCallback = Callable[[str, str], None]


class PoolFull(Exception):
    """Every worker is busy and the waiting queue is full."""


class JobTimeout(Exception):
    """The job ran past its time limit; its worker was killed."""


class WorkerLost(Exception):
    """The worker process died during the job (a crash, or killed from outside)."""


@dataclasses.dataclass
class Outcome:
    """What a command line produced: exit code, stdout lines and stderr lines."""

    code: int
    out: list[str]
    err: list[str]


class _Worker:
    def __init__(self, context: Any, loop: asyncio.AbstractEventLoop) -> None:
        self.conn, child = context.Pipe()
        self.process = context.Process(target=serve_jobs, args=(child,), daemon=True, name="retro-serve-worker")
        self.process.start()
        child.close()
        self.messages: asyncio.Queue[tuple[Any, ...]] = asyncio.Queue()
        self._loop = loop
        threading.Thread(target=self._read, daemon=True, name="retro-serve-reader").start()

    def _read(self) -> None:
        while True:
            try:
                message = self.conn.recv()
            except (EOFError, OSError):
                message = ("gone",)
            with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
                self._loop.call_soon_threadsafe(self.messages.put_nowait, message)
            if message[0] == "gone":
                return

    def kill(self) -> None:
        self.process.kill()
        self.process.join(timeout=5)
        self.conn.close()


class WorkerPool:
    """``size`` worker processes and a waiting queue of at most ``queue_limit`` jobs."""

    def __init__(self, size: int, *, queue_limit: int) -> None:
        if size < 1 or queue_limit < 0:
            raise ValueError("a pool needs at least one worker and a queue limit of at least 0")
        self.size, self.queue_limit = size, queue_limit
        self._context = multiprocessing.get_context("spawn")
        self._idle: asyncio.Queue[_Worker] = asyncio.Queue()
        self._workers: set[_Worker] = set()
        self._waiting = 0
        self._busy = 0
        self._closed = False
        self._tasks: set[asyncio.Task[None]] = set()

    def start(self) -> None:
        """Start the processes (call from the running event loop)."""
        for _ in range(self.size):
            self._replace()

    @property
    def stats(self) -> dict[str, int]:
        return {
            "workers": self.size,
            "ready": self._idle.qsize(),
            "busy": self._busy,
            "waiting": self._waiting,
            "queue_limit": self.queue_limit,
        }

    def _replace(self) -> None:
        task = asyncio.get_running_loop().create_task(self._spawn())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _spawn(self) -> None:
        worker = await asyncio.to_thread(_Worker, self._context, asyncio.get_running_loop())
        self._workers.add(worker)
        message = await worker.messages.get()
        if self._closed or message[0] != "ready":
            self._retire(worker)
            if not self._closed:
                await asyncio.sleep(1.0)  # a worker that cannot start: retry, without spinning
                self._replace()
            return
        self._idle.put_nowait(worker)

    def _retire(self, worker: _Worker) -> None:
        self._workers.discard(worker)
        worker.kill()

    async def run(
        self,
        argv: list[str],
        inputs: str | None = None,
        *,
        timeout: float,
        on_line: LineCallback | None = None,
        on_start: Callable[[], None] | None = None,
    ) -> Outcome:
        """Run ``retro ARGV`` in a worker within ``timeout`` seconds (waiting for a free
        worker does not count, but is bounded by ``timeout`` too; ``on_start`` is called
        when a worker takes the job, ``on_line`` with each line the command prints).
        Raises :class:`PoolFull`, :class:`JobTimeout` or :class:`WorkerLost`; cancelling the
        calling task kills the job's worker."""
        if self._closed or (self._idle.empty() and self._waiting >= self.queue_limit):
            raise PoolFull(f"all {self.size} workers are busy and {self._waiting} requests wait")
        self._waiting += 1
        try:
            async with asyncio.timeout(timeout):
                worker = await self._idle.get()
        except TimeoutError:
            raise PoolFull(f"no worker became free within {timeout:g} s") from None
        finally:
            self._waiting -= 1
        self._busy += 1
        healthy = False
        try:
            if on_start is not None:
                on_start()
            worker.conn.send((argv, inputs))
            outcome = await asyncio.wait_for(self._collect(worker, on_line), timeout)
            healthy = True
            return outcome
        except TimeoutError:
            raise JobTimeout(f"time limit of {timeout:g} s reached; the job was stopped") from None
        finally:
            self._busy -= 1
            if healthy:
                self._idle.put_nowait(worker)
            else:  # timed out, cancelled or dead: its state is unknown, replace it
                self._retire(worker)
                if not self._closed:
                    self._replace()

    @staticmethod
    async def _collect(worker: _Worker, on_line: LineCallback | None) -> Outcome:
        out: list[str] = []
        err: list[str] = []
        while True:
            kind, *rest = await worker.messages.get()
            if kind == "exit":
                return Outcome(int(rest[0]), out, err)
            if kind == "gone":
                raise WorkerLost("the worker process died during the job")
            (out if kind == "out" else err).append(rest[0])
            if on_line is not None:
                on_line(kind, rest[0])

    async def close(self) -> None:
        """Kill every process (busy ones too) and stop replacing them."""
        self._closed = True
        for task in list(self._tasks):
            task.cancel()
        for worker in list(self._workers):
            self._retire(worker)

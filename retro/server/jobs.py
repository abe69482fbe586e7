"""Background jobs: a command running in the pool while the page polls for its progress.

The page never waits on a long request: it starts a job (``POST /api/v1/jobs``), polls
it (``GET /api/v1/jobs/{id}``) for its state, elapsed time, the command's progress
lines (stderr) and the records printed so far (stdout), and may cancel it
(``DELETE``), which kills the worker. A job nobody has polled for ``abandon_after``
seconds is cancelled the same way (the tab was closed), and a finished job is
forgotten ``keep_after`` seconds after its end.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import time
import uuid
from typing import Any

from retro.batch import BAD_LINES_EXIT
from retro.server.commands import Call
from retro.server.pool import JobTimeout, PoolFull, WorkerLost, WorkerPool

__all__ = ["Job", "JobStore", "error_message"]

MAX_PROGRESS_LINES = 20


def error_message(err: list[str]) -> str:
    """The command's one-line message: the last non-empty line it printed on stderr."""
    lines = [line for line in err if line.strip()]
    return lines[-1] if lines else "the command failed without a message"


@dataclasses.dataclass
class Job:
    id: str
    command: str
    call: Call
    state: str = "queued"  # queued, running, done, failed, cancelled
    started: float = dataclasses.field(default_factory=time.monotonic)
    ended: float | None = None
    polled: float = dataclasses.field(default_factory=time.monotonic)
    progress: list[str] = dataclasses.field(default_factory=list)
    records: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    error: str | None = None
    task: asyncio.Task[None] | None = None

    def on_start(self) -> None:
        self.state = "running"

    def on_line(self, kind: str, line: str) -> None:
        if not line.strip():
            return
        if kind == "out":
            with contextlib.suppress(ValueError):  # --json prints JSON lines only; anything else is progress
                self.records.append(json.loads(line))
                return
        self.progress = (self.progress + [line])[-MAX_PROGRESS_LINES:]

    def as_dict(self) -> dict[str, Any]:
        end = self.ended if self.ended is not None else time.monotonic()
        return {
            "id": self.id,
            "command": self.command,
            "state": self.state,
            "elapsed": round(end - self.started, 3),
            "time_limit": self.call.time_limit,
            "progress": self.progress,
            "records": self.records,
            "error": self.error,
        }


class JobStore:
    def __init__(
        self, pool: WorkerPool, *, abandon_after: float = 30.0, keep_after: float = 600.0, max_jobs: int = 200
    ) -> None:
        self._pool = pool
        self._jobs: dict[str, Job] = {}
        self.abandon_after, self.keep_after, self.max_jobs = abandon_after, keep_after, max_jobs

    def start(self, command: str, call: Call) -> Job:
        self.sweep()
        running = sum(job.ended is None for job in self._jobs.values())
        stats = self._pool.stats
        if running >= self.max_jobs or running >= stats["workers"] + stats["queue_limit"]:
            raise PoolFull("too many jobs are running or waiting; try again later")
        job = Job(uuid.uuid4().hex, command, call)
        job.task = asyncio.get_running_loop().create_task(self._run(job))
        self._jobs[job.id] = job
        return job

    async def _run(self, job: Job) -> None:
        try:
            outcome = await self._pool.run(
                job.call.argv, job.call.inputs, timeout=job.call.time_limit, on_line=job.on_line, on_start=job.on_start
            )
        except asyncio.CancelledError:
            job.state = "cancelled"
        except (PoolFull, JobTimeout, WorkerLost) as error:
            job.state, job.error = "failed", str(error)
        else:
            if outcome.code == 0 or (outcome.code == BAD_LINES_EXIT and outcome.out):
                job.state = "done"  # a batch whose bad lines got error records is done
            else:
                job.state, job.error = "failed", error_message(outcome.err)
        finally:
            job.ended = time.monotonic()

    def get(self, job_id: str) -> Job | None:
        job = self._jobs.get(job_id)
        if job is not None:
            job.polled = time.monotonic()
        return job

    def cancel(self, job_id: str) -> Job | None:
        job = self._jobs.get(job_id)
        if job is not None and job.task is not None and job.ended is None:
            job.task.cancel()
        return job

    def sweep(self) -> None:
        """Cancel abandoned jobs and forget old finished ones."""
        now = time.monotonic()
        for job in list(self._jobs.values()):
            if job.ended is None and now - job.polled > self.abandon_after and job.task is not None:
                job.task.cancel()
            elif job.ended is not None and now - job.ended > self.keep_after:
                del self._jobs[job.id]

    async def close(self) -> None:
        for job in self._jobs.values():
            if job.task is not None:
                job.task.cancel()

"""The ASGI application of ``retro serve``: the JSON API and the workbench page.

API (``/docs`` and ``/openapi.json`` describe it):

* ``POST /api/v1/<command>`` for check, revmoves, proofgame, lastmove, cage, unwinnable,
  dead and spg: the command's ``--json`` record (200), the CLI's one-line message for bad
  input (400), 503 when every worker is busy and the queue is full, 504 when the
  time limit ran out (the job is stopped and its worker replaced).
* ``POST /api/v1/dead/batch``: ``{"fens": [...]}`` gives ``{"records": [...]}``, one
  record per FEN in order (error records for bad FENs, as ``retro dead -f``).
* ``POST /api/v1/jobs`` (``{"command", "params"}``), ``GET``/``DELETE
  /api/v1/jobs/{id}``: background jobs for the page (:mod:`retro.server.jobs`).
* ``POST /api/v1/replay`` and ``POST /api/v1/retract``: positions along a line for
  playback; ``POST /api/v1/unmove``: the position before one ``retro revmoves``
  retraction (retract by hand) (:mod:`retro.server.playback`); ``GET /api/v1/status``:
  pool and limits.

A request whose client disconnects before the answer has its job stopped (its worker
killed and replaced) and the server logs one line. Bodies over ``max_body`` bytes get
413 before they are read whole.

The routes are grouped in routers (:data:`commands`, :data:`background`, :data:`service`,
:data:`page`) that read the pool, the jobs and the settings from ``app.state``;
:func:`create_app` builds one application around a pool and includes them.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from importlib import resources
from typing import Annotated, Any

import chess
import chess.svg
from fastapi import APIRouter, Body, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field, ValidationError

import retro
from retro.server.commands import REQUESTS, Budgets, Call, DeadBatchRequest, Limits
from retro.server.jobs import JobStore, error_message
from retro.server.playback import replay, retract, unmove
from retro.server.pool import JobTimeout, PoolFull, WorkerLost, WorkerPool

__all__ = ["Settings", "create_app"]

_log = logging.getLogger("uvicorn.error")


@dataclasses.dataclass(frozen=True)
class Settings:
    """The operator's choices (``retro serve`` options)."""

    workers: int = 2
    queue: int = 16  # requests that may wait for a worker
    max_body: int = 1 << 20  # bytes
    limits: Limits = Limits()


class BadRequest(Exception):
    """Bad input; the message is the one line the client gets with status 400."""


def _error(status: int, message: str, **headers: str) -> JSONResponse:
    return JSONResponse({"status": "error", "error": message}, status_code=status, headers=headers or None)


class _BodyLimit:
    """ASGI middleware: 413 for a body longer than ``limit`` bytes. A declared length is
    refused at once; otherwise the body is read (at most ``limit`` bytes are kept) before
    the application sees it, then handed to it, and later ``receive`` calls (the
    disconnect) go to the server."""

    def __init__(self, app: Any, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        too_large = _error(413, f"request body over {self.limit} bytes")
        if declared is not None and declared.isdigit() and int(declared) > self.limit:
            await too_large(scope, receive, send)
            return
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break
            size += len(message.get("body", b""))
            if size > self.limit:
                await too_large(scope, receive, send)
                return
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                break
        pending = [{"type": "http.request", "body": b"".join(chunks), "more_body": False}]

        async def replay() -> dict[str, Any]:
            return pending.pop() if pending else dict(await receive())

        await self.app(scope, replay, send)


async def _client_gone(request: Request) -> None:
    """Return when the client disconnects (after the body has been read)."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


class JobRequest(BaseModel):
    command: str = Field(description="check, revmoves, proofgame, lastmove, cage, unwinnable, dead, spg or dead/batch")
    params: dict[str, Any] = Field(description="the fields of that command's request")


class ReplayRequest(BaseModel):
    moves: list[str] = Field(max_length=2000, description="SAN or UCI moves")
    fen: str | None = Field(None, max_length=200, description="the start (default: the initial position)")


class RetractRequest(BaseModel):
    fen: str = Field(max_length=200, description="the diagram (piece placement)")
    retract: str = Field(description="the side that moved last: w or b")
    moves: list[str] = Field(max_length=20, description="a lastmove solution, latest move first")


class RetractionRecord(BaseModel):
    move: str = Field(max_length=5, description="the forward move, UCI (e.g. e7e8q)")
    captured: str | None = Field(None, max_length=1, description="the captured unit type (Q R B N P), null for none")
    castling: str = Field("-", max_length=4, description="the predecessor's castling rights (KQkq or -)")
    ep: str | None = Field(None, max_length=2, description="the predecessor's en-passant square, null for none")


class UnmoveRequest(BaseModel):
    fen: str = Field(max_length=200, description="the position (FEN, as retro revmoves reads it)")
    retraction: RetractionRecord = Field(description="one record of its `retro revmoves --json` retractions")


def _parse(model: type[Budgets], params: Any) -> Budgets:
    try:
        return model.model_validate(params)
    except ValidationError as error:
        raise BadRequest(_validation_line(error)) from None


def _validation_line(error: ValidationError | RequestValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(part) for part in first.get("loc", ()) if part != "body")
    return f"{where}: {first.get('msg', 'invalid')}" if where else str(first.get("msg", "invalid request"))


def _call(request: Budgets, limits: Limits) -> Call:
    try:
        return request.call(limits)
    except ValueError as error:
        raise BadRequest(str(error)) from None


def _state(request: Request) -> tuple[WorkerPool, JobStore, Settings]:
    state = request.app.state
    return state.pool, state.jobs, state.settings


async def _execute(request: Request, call: Call) -> tuple[int, list[dict[str, Any]] | str]:
    """Run ``call`` in the pool while watching the client: (HTTP status, records or message).
    A client that disconnects first has its job cancelled (the pool kills the worker) and
    the server logs one line."""
    pool = _state(request)[0]
    job = asyncio.ensure_future(pool.run(call.argv, call.inputs, timeout=call.time_limit))
    watcher = asyncio.ensure_future(_client_gone(request))
    try:
        await asyncio.wait({job, watcher}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        watcher.cancel()
        if not job.done():
            job.cancel()
    if not job.done() or job.cancelled():
        await asyncio.wait({job})  # the worker is killed and replaced before the request ends
        _log.warning(
            "retro serve: %s %s: the client disconnected; its job was stopped",
            request.method,
            request.url.path,
        )
        return 499, "client closed the request"
    try:
        outcome = job.result()
    except PoolFull as error:
        return 503, str(error)
    except JobTimeout as error:
        return 504, str(error)
    except WorkerLost as error:
        return 500, str(error)
    if outcome.code == 2 and not outcome.out:
        return 400, error_message(outcome.err)
    if outcome.code not in (0, 2):
        return 500, error_message(outcome.err)
    return 200, [json.loads(line) for line in outcome.out if line.strip()]


def _respond(status: int, body: list[dict[str, Any]] | str, *, batch: bool) -> JSONResponse:
    if isinstance(body, str):
        return _error(status, body, **({"Retry-After": "1"} if status == 503 else {}))
    return JSONResponse({"records": body} if batch else body[0])


def _command_endpoint(name: str, model: type[Budgets]) -> Callable[..., Awaitable[JSONResponse]]:
    async def endpoint(request: Request, params: Annotated[dict[str, Any], Body()]) -> JSONResponse:
        limits = _state(request)[2].limits
        status, body = await _execute(request, _call(_parse(model, params), limits))
        return _respond(status, body, batch=False)

    endpoint.__name__ = f"api_{name}"
    endpoint.__doc__ = f"{model.__doc__}\n\nAnswers the record of `retro {name} --json`."
    return endpoint


commands = APIRouter(prefix="/api/v1", tags=["commands"])
"""``POST /api/v1/<command>`` for every command, and ``POST /api/v1/dead/batch``."""

for _name, _model in REQUESTS.items():
    commands.post(
        f"/{_name}",
        summary=f"retro {_name}",
        openapi_extra={
            "requestBody": {"content": {"application/json": {"schema": _model.model_json_schema()}}, "required": True}
        },
    )(_command_endpoint(_name, _model))


@commands.post("/dead/batch", summary="retro dead -f")
async def dead_batch(request: Request, params: DeadBatchRequest) -> JSONResponse:
    """One `retro dead --json` record per FEN, in order; a bad FEN gets an error record."""
    status, body = await _execute(request, _call(params, _state(request)[2].limits))
    return _respond(status, body, batch=True)


background = APIRouter(prefix="/api/v1/jobs", tags=["jobs"])
"""The page's background jobs: start, poll, cancel."""


@background.post("", status_code=202)
async def start_job(request: Request, params: JobRequest) -> JSONResponse:
    """Start a command in the background; poll `GET /api/v1/jobs/{id}`."""
    _pool, jobs, settings = _state(request)
    batch = params.command == "dead/batch"
    model: type[Budgets] | None = DeadBatchRequest if batch else REQUESTS.get(params.command)
    if model is None:
        raise BadRequest(f"unknown command {params.command!r}")
    try:
        job = jobs.start(params.command, _call(_parse(model, params.params), settings.limits))
    except PoolFull as error:
        return _error(503, str(error), **{"Retry-After": "1"})
    return JSONResponse(job.as_dict(), status_code=202)


@background.get("/{job_id}")
async def poll_job(request: Request, job_id: str) -> JSONResponse:
    """The job's state (queued, running, done, failed, cancelled), progress and records."""
    job = _state(request)[1].get(job_id)
    return _error(404, "no such job") if job is None else JSONResponse(job.as_dict())


@background.delete("/{job_id}")
async def cancel_job(request: Request, job_id: str) -> JSONResponse:
    """Cancel the job: its worker process is killed and replaced."""
    job = _state(request)[1].cancel(job_id)
    if job is None:
        return _error(404, "no such job")
    if job.task is not None:
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait({job.task}, timeout=5)
    return JSONResponse(job.as_dict())


service = APIRouter(prefix="/api/v1")
"""Playback positions and the server's status."""


@service.post("/replay", tags=["playback"])
async def replay_line(params: ReplayRequest) -> JSONResponse:
    """The position after each move of a line (a proof game, a helpmate), and its PGN."""
    try:
        return JSONResponse(replay(params.moves, fen=params.fen))
    except ValueError as error:
        raise BadRequest(str(error)) from None


@service.post("/retract", tags=["playback"])
async def retract_line(params: RetractRequest) -> JSONResponse:
    """The position before each move of a lastmove solution (its predecessors)."""
    try:
        return JSONResponse({"positions": retract(params.fen, params.retract, params.moves)})
    except ValueError as error:
        raise BadRequest(str(error)) from None


@service.post("/unmove", tags=["playback"])
async def unmove_one(params: UnmoveRequest) -> JSONResponse:
    """The position before one retraction of `retro revmoves` (uncapture and unpromotion
    included): `{fen, retraction, move, uci}`, `move` in retro-problem notation."""
    try:
        return JSONResponse(unmove(params.fen, params.retraction.model_dump()))
    except ValueError as error:
        raise BadRequest(str(error)) from None


@service.get("/status", tags=["server"])
async def status(request: Request) -> JSONResponse:
    """The pool (workers ready, busy, waiting) and the server's limits."""
    pool, _jobs, settings = _state(request)
    return JSONResponse(
        {
            "version": retro.__version__,
            "pool": pool.stats,
            "max_body": settings.max_body,
            "limits": dataclasses.asdict(settings.limits) | {"cages": settings.limits.cages is not None},
        }
    )


STATIC = resources.files("retro.server") / "static"
page = APIRouter(include_in_schema=False)
"""The workbench page and python-chess's piece images (the scripts and styles are under ``/static``)."""


@page.get("/pieces/{name}.svg")
async def piece(name: str) -> Response:
    if len(name) != 2 or name[0] not in "wb" or name[1] not in "KQRBNP":
        return _error(404, "no such piece")
    symbol = name[1] if name[0] == "w" else name[1].lower()
    return Response(
        chess.svg.piece(chess.Piece.from_symbol(symbol)),
        media_type="image/svg+xml",
        headers={"Cache-Control": "max-age=86400"},
    )


@page.get("/")
async def index() -> FileResponse:
    return FileResponse(str(STATIC / "index.html"))


async def _bad_request(request: Request, error: Exception) -> JSONResponse:
    return _error(400, str(error))


async def _invalid(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, RequestValidationError)
    return _error(400, _validation_line(error))


def create_app(settings: Settings = Settings()) -> FastAPI:
    """The application; the worker pool starts and stops with it (ASGI lifespan)."""
    pool = WorkerPool(settings.workers, queue_limit=settings.queue)
    jobs = JobStore(pool)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        pool.start()

        async def sweep() -> None:
            while True:
                await asyncio.sleep(5)
                jobs.sweep()

        sweeper = asyncio.get_running_loop().create_task(sweep())
        try:
            yield
        finally:
            sweeper.cancel()
            await jobs.close()
            await pool.close()

    app = FastAPI(
        title="retro",
        version=retro.__version__,
        lifespan=lifespan,
        description="Chess retrograde analysis: each command of the `retro` CLI as "
        "`POST /api/v1/<command>`, answering the record that `retro <command> --json` prints.",
    )
    app.state.pool, app.state.jobs, app.state.settings = pool, jobs, settings
    app.add_middleware(_BodyLimit, limit=settings.max_body)
    app.add_exception_handler(BadRequest, _bad_request)
    app.add_exception_handler(RequestValidationError, _invalid)
    for router in (commands, background, service, page):
        app.include_router(router)
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    return app

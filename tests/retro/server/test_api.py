"""The JSON API in-process (FastAPI's test client), with a real pool of worker processes."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import os
import signal
import time
from collections.abc import Iterator
from typing import Any

import chess
import pytest
from fastapi.testclient import TestClient

from retro.batch import BAD_LINES_EXIT
from retro.cli import main as cli_main
from retro.server.app import Settings, create_app
from retro.server.commands import REQUESTS, CageRequest, DeadRequest, Limits, ProofgameRequest, own_time
from retro.server.pool import JobTimeout, WorkerPool

ILLEGAL_PAWNS = "rnbqkbnr/p1pppppp/p7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"  # README: a black pawn too many captures
AFTER_E4_D5 = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
KQK = "8/8/8/4k3/8/8/8/3QK3 b - - 0 1"
DEAD_BLOCKED = "8/1p3k2/pPp3p1/P1Pp1pPp/2bP1P1P/4BK2/8/8 w - - 0 1"  # README: dead (Ambrona's blocked example)
# Tromp's 1bQ2b2/... (tests/astar/test_initial_path.py): a proof search that runs out of any budget of seconds.
SPG_KINGS = "rnbq1bnr/ppppkppp/8/4p3/4P3/8/PPPPKPPP/RNBQ1BNR"  # 4 plies: unique 1.e4 e5 2.Ke2 Ke7
REVMOVES_README = "rnbqk1nr/ppp2ppp/4p3/3p4/1b1P4/2N5/PPPQPPPP/R1B1KBNR w KQkq - 0 1"  # README: a bishop check
LONG_SEARCH = "1bQ2b2/1K1Nr3/2p5/1kPQpb2/N2QP3/1q1bR3/1nnN2P1/nq1N1bn1 b - - 0 1"


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(workers=2, limits=Limits(max_time=20, max_batch=5)))) as test_client:
        yield test_client


def _cli_json(argv: list[str], code: int = 0) -> list[dict[str, Any]]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli_main(argv) == code
    return [json.loads(line) for line in out.getvalue().splitlines()]


def _timeless(record: Any) -> Any:
    """The record without its timings (the only fields two runs may differ in)."""
    if isinstance(record, dict):
        return {key: _timeless(value) for key, value in record.items() if key != "seconds"}
    if isinstance(record, list):
        return [_timeless(item) for item in record]
    return record


@pytest.mark.parametrize(
    ("command", "body", "argv"),
    [
        ("check", {"fen": ILLEGAL_PAWNS}, ["check", ILLEGAL_PAWNS]),
        ("revmoves", {"fen": KQK}, ["revmoves", KQK]),
        ("proofgame", {"fen": AFTER_E4_D5}, ["proofgame", AFTER_E4_D5]),
        ("unwinnable", {"fen": KQK, "winner": "white"}, ["unwinnable", KQK, "white"]),
        ("dead", {"fen": DEAD_BLOCKED}, ["dead", DEAD_BLOCKED]),
        (
            "cage",
            {"fen": "8/8/8/8/8/8/6PP/6Nr", "frozen": ["g1"], "depth": 5},
            ["cage", "8/8/8/8/8/8/6PP/6Nr", "--frozen", "g1", "--depth", "5"],
        ),
        (
            "lastmove",
            {"fen": "8/8/3r4/4K3/8/4kqpb/8/8", "retract": "w", "moves": 3, "legality": False},
            # this server has no cage library: the command line's equivalent is --no-cages
            ["lastmove", "8/8/3r4/4K3/8/4kqpb/8/8", "--retract", "w", "--moves", "3", "--no-legality", "--no-cages"],
        ),
        ("spg", {"board": SPG_KINGS, "plies": 4}, ["spg", SPG_KINGS, "4"]),
        ("spg", {"board": SPG_KINGS + " w", "plies": 4, "solutions": 2}, ["spg", SPG_KINGS + " w", "4"]),
    ],
)
def test_each_command_answers_the_cli_json_record(
    client: TestClient, command: str, body: dict[str, Any], argv: list[str]
) -> None:
    response = client.post(f"/api/v1/{command}", json=body)
    assert response.status_code == 200, response.text
    assert _timeless(response.json()) == _timeless(_cli_json([*argv, "--json"])[0])


def test_verdicts_of_known_positions(client: TestClient) -> None:
    assert client.post("/api/v1/check", json={"fen": ILLEGAL_PAWNS}).json()["status"] == "illegal"
    proof = client.post("/api/v1/proofgame", json={"fen": AFTER_E4_D5}).json()
    assert proof["status"] == "legal" and proof["proof"] == ["e4", "d5"]
    assert client.post("/api/v1/dead", json={"fen": DEAD_BLOCKED}).json()["status"] == "dead"
    cage = client.post("/api/v1/cage", json={"fen": "8/8/8/8/8/8/6PP/6Nr", "depth": 5}).json()
    assert cage["status"] == "not_verified" and cage["line"] == ["Ne2-g1", "Ra1-h1"]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"fen": "xx"}, "retro check: error: a FEN has 4 to 6 fields, got 1: 'xx'"),
        ({"fen": "-h"}, "retro check: error: a FEN has 4 to 6 fields, got 1: '-h'"),  # a positional, not an option
        ({"fen": "8/8/8/8/8/8/8/8 x - - 0 1"}, "retro check: error: side to move must be 'w' or 'b', got 'x'"),
    ],
)
def test_bad_fen_gets_400_with_the_cli_message(client: TestClient, body: dict[str, Any], message: str) -> None:
    response = client.post("/api/v1/check", json=body)
    assert response.status_code == 400
    assert response.json() == {"status": "error", "error": message}


@pytest.mark.parametrize(
    ("path", "body", "part"),
    [
        ("/api/v1/check", {"fenx": "8/8/8/8/8/8/8/8 w - -"}, "fen: Field required"),
        ("/api/v1/check", {"fen": "k7/8/8/8/8/8/8/K7 w - -", "color": "red"}, "color: Extra inputs"),
        ("/api/v1/dead", {"fen": KQK, "max_nodes": -5}, "max_nodes: Input should be greater than 0"),
        ("/api/v1/dead", [KQK], "Input should be a valid dictionary"),
        ("/api/v1/unwinnable", {"fen": KQK, "winner": "green"}, "winner: Input should be 'white' or 'black'"),
        ("/api/v1/dead/batch", {"fens": [KQK] * 6}, "at most 5 FENs per batch request, got 6"),
        ("/api/v1/dead/batch", {"fens": [KQK, "# comment"]}, "fens[1]: each FEN must be one non-empty line"),
        ("/api/v1/spg", {"board": SPG_KINGS}, "plies: Field required"),
        ("/api/v1/spg", {"board": SPG_KINGS, "plies": 4, "solutions": 1}, "solutions: Input should be greater"),
        ("/api/v1/spg", {"board": "rnbq1bnr/ppppkppp/8", "plies": 4}, "retro spg: error: "),
        ("/api/v1/unmove", {"fen": REVMOVES_README}, "retraction: Field required"),
    ],
)
def test_invalid_request_gets_400_in_one_line(client: TestClient, path: str, body: Any, part: str) -> None:
    response = client.post(path, json=body)
    assert response.status_code == 400
    assert part in response.json()["error"] and "\n" not in response.json()["error"]


def test_body_size_limit() -> None:
    with TestClient(create_app(Settings(workers=1, max_body=1000))) as small:
        response = small.post("/api/v1/dead/batch", json={"fens": [KQK] * 40})
        assert response.status_code == 413 and response.json()["error"] == "request body over 1000 bytes"
        body = json.dumps({"fens": [KQK] * 40}).encode()
        chunked = small.post(
            "/api/v1/dead/batch",
            content=iter([body[:600], body[600:]]),  # no Content-Length
            headers={"Content-Type": "application/json"},
        )
        assert chunked.status_code == 413 and chunked.json()["error"] == "request body over 1000 bytes"
        assert small.post("/api/v1/check", json={"fen": KQK}).status_code == 200


def test_dead_batch_keeps_order_and_reports_bad_lines(client: TestClient) -> None:
    response = client.post("/api/v1/dead/batch", json={"fens": [DEAD_BLOCKED, "not a fen", KQK]})
    assert response.status_code == 200
    records = response.json()["records"]
    assert [r["status"] for r in records] == ["dead", "error", "alive"]
    assert records[1]["input"] == "not a fen" and "4 to 6 fields" in records[1]["error"]
    assert _timeless(records) == _timeless(_cli_json_batch([DEAD_BLOCKED, "not a fen", KQK]))


def _cli_json_batch(fens: list[str], tmp: str = "/tmp") -> list[dict[str, Any]]:
    import tempfile

    with tempfile.NamedTemporaryFile("w", suffix=".txt", dir=tmp) as handle:
        handle.write("\n".join(fens) + "\n")
        handle.flush()
        bad = any(not fen.strip() or len(fen.split()) < 4 for fen in fens)
        return _cli_json(["dead", "-f", handle.name, "--json"], code=BAD_LINES_EXIT if bad else 0)


def test_budgets_are_capped_by_the_operator() -> None:
    limits = Limits(max_time=5, max_nodes=50)
    call = DeadRequest.model_validate({"fen": KQK, "max_nodes": 10**9, "time_limit": 3600}).call(limits)
    assert call.argv[call.argv.index("--max-nodes") + 1] == "50" and call.time_limit == 5
    call = DeadRequest.model_validate({"fen": KQK}).call(Limits())
    assert call.argv[call.argv.index("--max-nodes") + 1] == "1000000" and call.time_limit == 60
    proof = ProofgameRequest.model_validate({"fen": AFTER_E4_D5, "time_limit": 2}).call(limits)
    assert proof.time_limit == 2 and float(proof.argv[proof.argv.index("-t") + 1]) < 2  # stops before the kill
    assert proof.argv[proof.argv.index("-m") + 1] == "50"


@pytest.mark.parametrize("command", ["proofgame", "cage"])
@pytest.mark.parametrize("kill", [0.5, 3, 5, 60])
def test_commands_with_a_time_limit_get_one_below_the_kill(command: str, kill: float) -> None:
    call = REQUESTS[command].model_validate({"fen": AFTER_E4_D5, "time_limit": kill}).call(Limits())
    own = float(call.argv[call.argv.index("-t") + 1])
    assert call.time_limit == kill and own == own_time(kill)
    assert 0 < own <= kill / 2 if kill < 1 else kill - own >= max(0.5, kill / 10)


def test_a_command_that_runs_out_of_its_own_time_answers_200(client: TestClient) -> None:
    """The cage verifier needs some 20 s on this board; told 1.3 s, it stops and answers
    not_verified before the server's kill at 2 s."""
    response = client.post("/api/v1/cage", json={"fen": "8/8/8/8/8/1P1P4/PBPNP3/RRK5", "time_limit": 2})
    assert response.status_code == 200, response.text
    record = response.json()
    assert record["status"] == "not_verified" and record["reason"] == "the time limit was reached"
    assert record["seconds"] < 2


def test_node_cap_reaches_the_search() -> None:
    """With a cap of 5 nodes the KQK helpmate search cannot finish."""
    with TestClient(create_app(Settings(workers=1, limits=Limits(max_nodes=5)))) as capped:
        record = capped.post("/api/v1/unwinnable", json={"fen": KQK, "winner": "white", "max_nodes": 10**6}).json()
        assert record["status"] == "undetermined"  # uncapped it is winnable after 21 nodes


def test_full_pool_answers_503_and_cancel_frees_the_worker() -> None:
    with TestClient(create_app(Settings(workers=1, queue=0, limits=Limits(max_time=30)))) as busy:
        _wait_ready(busy, 1)
        job = busy.post("/api/v1/jobs", json={"command": "proofgame", "params": {"fen": LONG_SEARCH}}).json()
        _wait_state(busy, job["id"], "running")
        response = busy.post("/api/v1/check", json={"fen": KQK})
        assert response.status_code == 503 and response.headers["Retry-After"] == "1"
        cancelled = busy.delete(f"/api/v1/jobs/{job['id']}").json()
        assert cancelled["state"] == "cancelled" and cancelled["elapsed"] < 25
        _wait_ready(busy, 1)
        assert busy.post("/api/v1/check", json={"fen": KQK}).status_code == 200


def test_time_limit_answers_504_and_replaces_the_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    """The backstop: verifying Frolkin and Buchanan's position (README) as a cage, with the
    largest state budget, takes far more than the server's 1 s; with the command's own time
    limit not passed (every command that searches has one, so it is taken away here), the
    server kills the worker at 1 s, answers 504 and replaces the worker."""
    monkeypatch.setattr(CageRequest, "time_option", "")
    with TestClient(create_app(Settings(workers=1, limits=Limits(max_time=1)))) as slow:
        _wait_ready(slow, 1)
        pid_before = _worker_pids(slow)
        response = slow.post(
            "/api/v1/cage",
            json={"fen": "8/2PN4/PPkPB3/K3B3/NPP5/2RP4/1P2R3/8", "depth": 200, "max_nodes": 1_000_000},
        )
        assert response.status_code == 504 and "time limit of 1 s" in response.json()["error"]
        _wait_ready(slow, 1)
        assert _worker_pids(slow).isdisjoint(pid_before)
        assert slow.post("/api/v1/check", json={"fen": KQK}).status_code == 200


def test_the_pool_kills_a_job_past_its_timeout() -> None:
    """The pool itself: a proof search told to take 60 s is stopped after 1.5 s."""

    async def scenario() -> tuple[float, bool, dict[str, int]]:
        pool = WorkerPool(1, queue_limit=0)
        pool.start()
        try:
            while pool.stats["ready"] < 1:
                await asyncio.sleep(0.05)
            (worker,) = pool._workers
            start = time.monotonic()
            with pytest.raises(JobTimeout):
                await pool.run(["proofgame", "-t", "60", "--", LONG_SEARCH], timeout=1.5)
            elapsed = time.monotonic() - start
            while pool.stats["ready"] < 1:
                await asyncio.sleep(0.05)
            return elapsed, worker.process.is_alive(), pool.stats
        finally:
            await pool.close()

    elapsed, old_worker_alive, stats = asyncio.run(scenario())
    assert 1.5 <= elapsed < 10 and not old_worker_alive
    assert stats["ready"] == 1 and stats["busy"] == 0


def test_a_dead_worker_fails_its_job_and_is_replaced() -> None:
    with TestClient(create_app(Settings(workers=1, limits=Limits(max_time=30)))) as pool_client:
        _wait_ready(pool_client, 1)
        (pid,) = _worker_pids(pool_client)
        job = pool_client.post("/api/v1/jobs", json={"command": "proofgame", "params": {"fen": LONG_SEARCH}}).json()
        _wait_state(pool_client, job["id"], "running")
        os.kill(pid, signal.SIGKILL)
        failed = _wait_state(pool_client, job["id"], "failed")
        assert failed["error"] == "the worker process died during the job"
        _wait_ready(pool_client, 1)
        assert _worker_pids(pool_client) != {pid}
        assert pool_client.post("/api/v1/check", json={"fen": KQK}).status_code == 200


def test_waiting_for_a_worker_is_bounded_by_the_time_limit() -> None:
    with TestClient(create_app(Settings(workers=1, queue=4, limits=Limits(max_time=30)))) as pool_client:
        _wait_ready(pool_client, 1)
        job = pool_client.post("/api/v1/jobs", json={"command": "proofgame", "params": {"fen": LONG_SEARCH}}).json()
        _wait_state(pool_client, job["id"], "running")
        start = time.monotonic()
        response = pool_client.post("/api/v1/check", json={"fen": KQK, "time_limit": 1})
        assert response.status_code == 503 and "no worker became free within 1 s" in response.json()["error"]
        assert time.monotonic() - start < 10
        pool_client.delete(f"/api/v1/jobs/{job['id']}")


def test_jobs_report_progress_and_records(client: TestClient) -> None:
    job = client.post("/api/v1/jobs", json={"command": "dead/batch", "params": {"fens": [DEAD_BLOCKED, KQK]}})
    assert job.status_code == 202
    done = _wait_state(client, job.json()["id"], "done")
    assert [r["status"] for r in done["records"]] == ["dead", "alive"] and done["error"] is None
    partly = client.post("/api/v1/jobs", json={"command": "dead/batch", "params": {"fens": [KQK, "not a fen"]}})
    done = _wait_state(client, partly.json()["id"], "done")  # a bad line has its error record: the job is done
    assert [r["status"] for r in done["records"]] == ["alive", "error"] and done["error"] is None
    assert client.get("/api/v1/jobs/nope").status_code == 404
    bad = client.post("/api/v1/jobs", json={"command": "check", "params": {"fen": "xx"}}).json()
    failed = _wait_state(client, bad["id"], "failed")
    assert failed["error"] == "retro check: error: a FEN has 4 to 6 fields, got 1: 'xx'"
    assert client.post("/api/v1/jobs", json={"command": "rm", "params": {}}).status_code == 400


def test_replay_gives_positions_and_pgn(client: TestClient) -> None:
    line = client.post("/api/v1/replay", json={"moves": ["e4", "d5"]}).json()
    assert line["fens"][-1] == AFTER_E4_D5 and line["uci"] == ["e2e4", "d7d5"]
    assert "1. e4 d5 *" in line["pgn"]
    helpmate = client.post("/api/v1/replay", json={"fen": KQK, "moves": ["e5f6", "e1e2"]}).json()
    assert helpmate["san"] == ["Kf6", "Ke2"] and '[FEN "8/8/8/4k3/8/8/8/3QK3 b - - 0 1"]' in helpmate["pgn"]
    bad = client.post("/api/v1/replay", json={"moves": ["e4", "e4"]})
    assert bad.status_code == 400 and "move 2 ('e4') is not legal" in bad.json()["error"]


def test_retract_shows_the_predecessors_of_a_lastmove_solution(client: TestClient) -> None:
    body = {"fen": "8/8/3r4/4K3/8/4kqpb/8/8", "retract": "w", "moves": ["Kf5xNe5", "f4xg3ep+", "g2-g4"]}
    positions = client.post("/api/v1/retract", json=body).json()["positions"]
    assert positions == [
        "8/8/3r4/4nK2/8/4kqpb/8/8 w - - 0 1",
        "8/8/3r4/4nK2/5pP1/4kq1b/8/8 b - g3 0 1",
        "8/8/3r4/4nK2/5p2/4kq1b/6P1/8 w - - 0 1",
    ]
    bad = client.post("/api/v1/retract", json=body | {"moves": ["Ka1-b1"]})
    assert bad.status_code == 400 and "cannot be retracted" in bad.json()["error"]


def test_spg_answers_the_unique_game_and_plays_it(client: TestClient) -> None:
    record = client.post("/api/v1/spg", json={"board": SPG_KINGS, "plies": 4}).json()
    assert record["status"] == "unique" and record["solutions"] == [["e4", "e5", "Ke2", "Ke7"]]
    line = client.post("/api/v1/replay", json={"moves": record["solutions"][0]}).json()
    assert line["fens"][-1].split()[0] == SPG_KINGS
    cooked = client.post("/api/v1/spg", json={"board": SPG_KINGS, "plies": 3}).json()
    assert cooked["status"] == "no_solution"  # the side to move after 3 plies is Black; no game of 3 plies fits


def test_spg_gets_a_time_limit_below_the_kill() -> None:
    from retro.server.commands import SpgRequest

    call = SpgRequest.model_validate({"board": SPG_KINGS, "plies": 4, "time_limit": 5}).call(Limits(max_nodes=77))
    assert call.time_limit == 5 and float(call.argv[call.argv.index("-t") + 1]) == own_time(5)
    assert call.argv[call.argv.index("-m") + 1] == "77" and call.argv[-2:] == [SPG_KINGS, "4"]


def test_spg_that_runs_out_of_its_own_time_answers_200(client: TestClient) -> None:
    """A 20-ply Sicilian diagram is far beyond 1.3 s of search: told 2 s, spg stops itself and answers
    its budget-exhausted record before the server's kill."""
    board = "r2q1rk1/1p1nbppp/p2pbn2/4p3/4P3/1NN1BP2/PPPQ2PP/2KR1B1R"
    response = client.post("/api/v1/spg", json={"board": board, "plies": 20, "time_limit": 2})
    assert response.status_code == 200, response.text
    record = response.json()
    assert record["status"] == "unknown" and "time limit" in record["reason"] and record["seconds"] < 2


@pytest.mark.slow
def test_spg_job_reports_progress_and_cancels(client: TestClient) -> None:
    """The SPG panel's job: the search's progress line (every 5 s) reaches the poll; Cancel stops it."""
    board = "r2q1rk1/1p1nbppp/p2pbn2/4p3/4P3/1NN1BP2/PPPQ2PP/2KR1B1R"
    job = client.post("/api/v1/jobs", json={"command": "spg", "params": {"board": board, "plies": 20}}).json()
    deadline = time.monotonic() + 15
    while not (state := client.get(f"/api/v1/jobs/{job['id']}").json())["progress"]:
        assert state["state"] in ("queued", "running") and time.monotonic() < deadline, state
        time.sleep(0.2)
    assert state["progress"][-1].startswith("spg: ") and "nodes" in state["progress"][-1]
    cancelled = client.delete(f"/api/v1/jobs/{job['id']}").json()
    assert cancelled["state"] == "cancelled" and cancelled["records"] == []
    _wait_ready(client, 2)


def test_unmove_takes_back_one_revmoves_retraction(client: TestClient) -> None:
    """Retract by hand: every record `retro revmoves` lists is taken back to its predecessor
    (which, played forward, gives the position again); a record it does not list is refused."""
    records = client.post("/api/v1/revmoves", json={"fen": REVMOVES_README}).json()["retractions"]
    assert records
    for record in records:
        answer = client.post("/api/v1/unmove", json={"fen": REVMOVES_README, "retraction": record})
        assert answer.status_code == 200, (record, answer.text)
        before = chess.Board(answer.json()["fen"])
        before.push(chess.Move.from_uci(record["move"]))
        assert before.board_fen() == REVMOVES_README.split()[0] and before.turn == chess.WHITE
    bishop = next(r for r in records if r["move"] == "a3b4" and r["captured"] is None)
    answer = client.post("/api/v1/unmove", json={"fen": REVMOVES_README, "retraction": bishop}).json()
    assert answer["fen"] == "rnbqk1nr/ppp2ppp/4p3/3p4/3P4/b1N5/PPPQPPPP/R1B1KBNR b KQkq - 0 1"
    assert answer["move"] == "Ba3-b4"
    clocks = REVMOVES_README.replace(" 0 1", " 3 7")  # the FEN's clocks are the user's: a reversible move back
    answer = client.post("/api/v1/unmove", json={"fen": clocks, "retraction": bishop}).json()
    assert answer["fen"] == "rnbqk1nr/ppp2ppp/4p3/3p4/3P4/b1N5/PPPQPPPP/R1B1KBNR b KQkq - 2 6"
    # An uncapture and an unpromotion are part of the record.
    promoted = "4k2Q/8/8/8/8/8/8/4K3 b - - 0 1"
    record = {"move": "g7h8q", "captured": "R", "castling": "-", "ep": None}
    answer = client.post("/api/v1/unmove", json={"fen": promoted, "retraction": record}).json()
    assert answer["fen"] == "4k2r/6P1/8/8/8/8/8/4K3 w - - 0 1" and answer["move"] == "g7xRh8=Q+"
    bad = client.post("/api/v1/unmove", json={"fen": REVMOVES_README, "retraction": bishop | {"move": "a3b5"}})
    assert bad.status_code == 400 and "is not a retraction of" in bad.json()["error"]
    bad = client.post("/api/v1/unmove", json={"fen": "8/8 w - -", "retraction": bishop})
    assert bad.status_code == 400 and bad.json()["error"] == "expected 8 ranks separated by '/', got 2 in '8/8'"


def test_openapi_describes_every_command(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    for command in ("check", "revmoves", "proofgame", "lastmove", "cage", "unwinnable", "dead", "dead/batch", "spg"):
        assert f"/api/v1/{command}" in spec["paths"]
    schema = spec["paths"]["/api/v1/cage"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert {"fen", "zone", "frozen", "depth", "max_nodes", "time_limit"} <= set(schema["properties"])


def test_page_and_assets_come_from_the_package(client: TestClient) -> None:
    page = client.get("/")
    assert (
        page.status_code == 200
        and "/static/app.js" in page.text
        and "http" not in page.text.replace("http://www.w3.org", "")
    )
    for asset in ("/static/app.js", "/static/style.css", "/pieces/wK.svg", "/pieces/bP.svg"):
        assert client.get(asset).status_code == 200, asset
    assert client.get("/pieces/xZ.svg").status_code == 404


def _wait_ready(client: TestClient, count: int, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while client.get("/api/v1/status").json()["pool"]["ready"] < count:
        assert time.monotonic() < deadline, "the pool did not get ready"
        time.sleep(0.1)


def _wait_state(client: TestClient, job_id: str, state: str, timeout: float = 60) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        job = client.get(f"/api/v1/jobs/{job_id}").json()
        if job["state"] == state:
            return job
        assert job["state"] in ("queued", "running") and time.monotonic() < deadline, job
        time.sleep(0.05)


def _worker_pids(client: TestClient) -> set[int]:
    pool = client.app.state.pool  # type: ignore[attr-defined]
    return {worker.process.pid for worker in pool._workers}

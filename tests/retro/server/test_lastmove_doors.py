"""``lastmove`` asks one question whichever door it comes through: the command line, the
Python API and the HTTP API read the problem with the one parser
(:func:`retro.lastmove.problem.read_problem`), so a full FEN's side to move is kept, and a
``retract`` that contradicts it is the command line's error everywhere (exit 2,
``ValueError``, HTTP 400). A request's time limit reaches the command, which answers
(200) before the server's kill."""

from __future__ import annotations

import contextlib
import io
import json
import time
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

import retro
from retro.cli import main as cli_main
from retro.server.app import Settings, create_app
from retro.server.commands import LastmoveRequest, Limits
from tests.retro.server.test_api import _timeless

# Black to move with Black's king in check from a3: White moved last (a2-a3+).
PAWN_CHECK_FEN = "8/8/8/8/1k6/P7/1K6/8 b - - 0 1"
# White to move: Black moved last, so "White moved last" contradicts the FEN.
PAWN_WHITE_TO_MOVE = "8/8/8/8/1k6/P7/1K6/8 w - - 0 1"
ANGELINI_FEN = "8/8/3r4/4K3/8/4kqpb/8/8 w - - 0 1"  # White to move: Black moved last
CONTRADICTION = (
    "--retract w contradicts the FEN: White is to move there, so Black made the last move "
    "(drop --retract, or give only the piece placement)"
)


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(workers=1, limits=Limits(max_time=20)))) as test_client:
        yield test_client


def _cli(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli_main(argv)
    return code, out.getvalue(), err.getvalue()


def test_full_fen_keeps_its_side_to_move_through_every_door(client: TestClient) -> None:
    code, out, _ = _cli(["lastmove", PAWN_CHECK_FEN, "--json", "--no-cages"])
    assert code == 0
    cli = json.loads(out)
    assert cli["retract"] == "w" and cli["status"] == "unique"
    response = client.post("/api/v1/lastmove", json={"fen": PAWN_CHECK_FEN})
    assert response.status_code == 200
    assert _timeless(response.json()) == _timeless(cli)
    api = retro.last_moves(PAWN_CHECK_FEN, cages=False).as_dict()
    assert _timeless(api) == _timeless(cli)


def test_a_batch_line_is_the_same_question(tmp_path) -> None:
    lines = tmp_path / "problems.txt"
    lines.write_text(f"{PAWN_CHECK_FEN}\n{PAWN_WHITE_TO_MOVE} retract=w\n")
    code, out, _ = _cli(["lastmove", "-f", str(lines), "--json", "--no-cages"])
    first, second = (json.loads(line) for line in out.splitlines())
    assert _timeless(first) == _timeless(json.loads(_cli(["lastmove", PAWN_CHECK_FEN, "--json", "--no-cages"])[1]))
    assert second["status"] == "error" and "contradicts the FEN" in second["error"]


def test_a_retract_contradicting_the_fen_is_refused_by_every_door(client: TestClient) -> None:
    code, _, err = _cli(["lastmove", PAWN_WHITE_TO_MOVE, "--retract", "w"])
    assert code == 2 and CONTRADICTION in err
    response = client.post("/api/v1/lastmove", json={"fen": PAWN_WHITE_TO_MOVE, "retract": "w"})
    assert response.status_code == 400 and CONTRADICTION in response.json()["error"]
    with pytest.raises(ValueError, match="contradicts the FEN"):
        retro.last_moves(ANGELINI_FEN, "white")
    with pytest.raises(ValueError, match="contradicts the FEN"):
        retro.last_moves(PAWN_WHITE_TO_MOVE, "w")


def test_the_request_passes_the_fen_whole_and_a_time_limit_under_the_kill() -> None:
    call = LastmoveRequest.model_validate({"fen": PAWN_CHECK_FEN, "time_limit": 10}).call(Limits(max_time=20))
    assert call.argv[-2:] == ["--", PAWN_CHECK_FEN] and "--retract" not in call.argv
    limit = float(call.argv[call.argv.index("--time-limit") + 1])
    assert 0 < limit < call.time_limit == 10


@pytest.mark.slow
def test_a_request_that_runs_out_of_time_answers_200_unknown(client: TestClient) -> None:
    """Angelini's diagram with Black retracting three moves: the enumeration alone takes
    minutes. With 4 s the command stops itself and answers what it has, well before the
    server's kill."""
    start = time.perf_counter()
    response = client.post("/api/v1/lastmove", json={"fen": ANGELINI_FEN, "moves": 3, "time_limit": 8})
    assert response.status_code == 200, response.text
    record = response.json()
    assert record["status"] == "unknown" and record["complete"] is False and record["retract"] == "b"
    assert time.perf_counter() - start < 8 + 15

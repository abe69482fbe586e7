"""One question, one answer, whichever door it comes in by (DESIGN.md, "One request model").

A differential test: each question (4- and 6-field FENs, with and without labels, EPD
ids, each command's own trailing tokens) is asked through the CLI single call, a CLI
batch line, the Python API and the HTTP API, and every door gives the same record apart
from timing fields and the label (which only batch lines carry). Then the rows of the
contract that went wrong at a door: a command's own batch tokens read as labels, a full
FEN's impossible fields dropped, labels kept differently by each command.
"""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import retro
from retro.cli import main
from retro.server.app import Settings, create_app
from retro.server.commands import Limits

DATA = Path(__file__).resolve().parents[1] / "data"
KQK = "8/8/8/4k3/8/8/8/3QK3 b - - 0 1"  # White wins (KQK), Black cannot
KQK4 = "8/8/8/4k3/8/8/8/3QK3 b - -"
DEAD_BLOCKED = "8/1p3k2/pPp3p1/P1Pp1pPp/2bP1P1P/4BK2/8/8 w - - 0 1"
AFTER_E4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
ILLEGAL_PAWNS = "rnbqkbnr/p1pppppp/p7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
BAD_EP = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2"  # no black pawn on d5
BAD_CASTLING = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPPKPPP/RNBQ1BNR w KQkq - 0 3"  # the white king on e2
SPG_4 = "rnbq1bnr/ppppkppp/8/4p3/4P3/8/PPPPKPPP/RNBQ1BNR"  # 1.e4 e5 2.Ke2 Ke7, unique in 4 plies

TIMING = {"seconds", "nodes", "id", "passthrough"}


def _stable(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _stable(item) for key, item in value.items() if key not in TIMING}
    if isinstance(value, list):
        return [_stable(item) for item in value]
    return value


def _cli(argv: list[str], stdin: str | None = None) -> tuple[int, list[dict[str, Any]], str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, [json.loads(line) for line in out.getvalue().splitlines()], err.getvalue()


def _batch(command: str, lines: list[str], options: list[str], tmp_path: Path) -> tuple[int, list[dict[str, Any]]]:
    path = tmp_path / f"{command}.txt"
    path.write_text("".join(line + "\n" for line in lines))
    code, records, _ = _cli([command, "-f", str(path), "--json", *options])
    return code, records


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(workers=1, limits=Limits(max_time=30)))) as test_client:
        yield test_client


# (command, CLI arguments, batch line, API call, HTTP body (None: no HTTP door))
Question = tuple[str, list[str], str, Callable[[], Any], dict[str, Any] | None]

QUESTIONS: list[Question] = [
    ("check", [ILLEGAL_PAWNS], ILLEGAL_PAWNS, lambda: retro.check(ILLEGAL_PAWNS), {"fen": ILLEGAL_PAWNS}),
    ("check", [BAD_EP], f"{BAD_EP} game7", lambda: retro.check(BAD_EP), {"fen": BAD_EP}),
    ("check", [KQK4], f'{KQK4} id "kqk";', lambda: retro.check(KQK4), {"fen": KQK4}),
    ("revmoves", [KQK], f"{KQK} g1", lambda: retro.retractions(KQK), {"fen": KQK}),
    (
        "unwinnable",
        [KQK, "black", "--max-nodes", "20000"],
        f"{KQK} black",
        lambda: retro.winnability(KQK, "black", max_nodes=20_000),
        {"fen": KQK, "winner": "black", "max_nodes": 20_000},
    ),
    (
        "unwinnable",
        [KQK, "white", "--max-nodes", "20000"],
        f"{KQK} g2 white",
        lambda: retro.winnability(KQK, "white", max_nodes=20_000),
        {"fen": KQK, "winner": "white", "max_nodes": 20_000},
    ),
    (
        "unwinnable",
        [KQK4, "black", "--max-nodes", "20000"],
        f"{KQK4} black",
        lambda: retro.winnability(KQK4, "black", max_nodes=20_000),
        {"fen": KQK4, "winner": "black", "max_nodes": 20_000},
    ),
    ("dead", [DEAD_BLOCKED], f"{DEAD_BLOCKED} g3", lambda: retro.is_dead(DEAD_BLOCKED), {"fen": DEAD_BLOCKED}),
    (
        "proofgame",
        [AFTER_E4, "-t", "20"],
        f"{AFTER_E4} g4",
        lambda: retro.prove(AFTER_E4, time_limit=20),
        {"fen": AFTER_E4, "time_limit": 25},
    ),
    (
        "spg",
        [SPG_4, "4"],
        f"{SPG_4} 4 name",
        lambda: retro.shortest_proof_games(SPG_4, 4),
        None,
    ),
    (
        "spg",
        [f"{SPG_4} w - - 0 3", "4"],
        f'{SPG_4} w - - 0 3 4 id "Euclide 4";',
        lambda: retro.shortest_proof_games(f"{SPG_4} w - - 0 3", 4),
        None,
    ),
]


@pytest.mark.parametrize("question", QUESTIONS, ids=lambda q: f"{q[0]}:{q[2][-20:]}")
def test_every_door_gives_the_same_record(question: Question, client: TestClient, tmp_path: Path) -> None:
    command, argv, line, api, body = question
    code, single, _ = _cli([command, *argv, "--json"])
    assert code == 0 and len(single) == 1
    options = argv[1:] if command != "unwinnable" else argv[2:]
    options = [option for option in options if not option.isdigit() or command != "spg"]
    code, batch = _batch(command, [line], options if command != "spg" else [], tmp_path)
    assert code == 0 and len(batch) == 1
    records = {"cli": single[0], "batch": batch[0], "api": api().as_dict()}
    if body is not None:
        response = client.post(f"/api/v1/{command}", json=body)
        assert response.status_code == 200, response.text
        records["http"] = response.json()
    stable = {door: _stable(json.loads(json.dumps(record))) for door, record in records.items()}
    assert all(value == stable["cli"] for value in stable.values()), stable
    assert records["cli"]["status"] != "error"


def test_labels_are_the_same_in_every_command(tmp_path: Path) -> None:
    """A trailing word after a full FEN, and an EPD id, become the record's ``id`` in
    every command that reads positions, in JSON and (as ``name: ``) in text."""
    for command, options in (("check", []), ("dead", ["--quick"]), ("unwinnable", ["--quick"]), ("revmoves", [])):
        code, records = _batch(command, [f"{KQK} game1", f'{KQK4} id "the KQK";'], options, tmp_path)
        assert code == 0 and [r["id"] for r in records] == ["game1", "the KQK"], command
        path = tmp_path / f"{command}.txt"
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            assert main([command, "-f", str(path), *options]) == 0
        lines = out.getvalue().splitlines()
        assert lines[0].startswith("game1: ") and any(line.startswith("the KQK: ") for line in lines), command
    path = tmp_path / "labelled.txt"
    path.write_text(f"{AFTER_E4} game1\n{ILLEGAL_PAWNS} game2\n")
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        assert main(["proofgame", "-f", str(path), "-t", "20"]) == 0
    lines = out.getvalue().splitlines()
    assert lines[0] == f"game1: {AFTER_E4} legal: proof: e4" and lines[1].startswith(f"game2: {ILLEGAL_PAWNS} illegal:")
    code, records, _ = _cli(["proofgame", "-f", str(path), "-o", str(tmp_path / "pass"), "--json", "-t", "20"])
    assert code == 0 and [r["id"] for r in records] == ["game1", "game2"]
    assert (tmp_path / "pass00").read_text().splitlines()[0] == f"{AFTER_E4} legal: proof: e4"  # texelutil's format


def test_unwinnable_batch_answers_for_the_winner_asked_on_lichess_positions(tmp_path: Path) -> None:
    """Row 1: ``<6-field FEN> black`` (the format ``--help`` documents) is about Black,
    never a FEN labelled ``black``; with the game id before or after the winner, the id
    is the label. Real positions of ``data/lichess-30k-positions.txt``."""
    lines = (DATA / "lichess-30k-positions.txt").read_text().splitlines()[:12]
    queries: list[tuple[str, str, str | None]] = []  # (line, winner asked, label)
    for index, line in enumerate(lines):
        fields = line.split()
        fen, game = " ".join(fields[:6]), fields[6]
        queries += [(f"{fen} black", "black", None), (f"{fen} white", "white", None)]
        queries.append((f"{fen} {game} black", "black", game) if index % 2 else (f"{fen} white {game}", "white", game))
    code, records = _batch("unwinnable", [query for query, _, _ in queries], ["--quick"], tmp_path)
    assert code == 0
    for (query, winner, label), record in zip(queries, records, strict=True):
        assert record["winner"] == winner and record.get("id") == label, (query, record)


def test_lastmove_retract_token_after_a_full_fen_is_checked_not_a_label(tmp_path: Path) -> None:
    """Row 4: ``retract=`` after a full FEN is the command's own token, checked against
    the FEN: with White to move Black made the last move, so ``retract=w`` contradicts
    the FEN (an error record) and ``retract=b`` agrees (answered, no label)."""
    fen = "8/8/8/8/1k6/P7/1K6/8 w - - 0 1"
    options = ["--no-legality", "--no-auto-cages"]
    code, records = _batch("lastmove", [f"{fen} retract=w", f"{fen} retract=b"], options, tmp_path)
    assert code == 2
    assert records[0]["status"] == "error" and "contradicts the FEN" in records[0]["error"]
    assert records[1]["status"] != "error" and "id" not in records[1]


@pytest.mark.parametrize("fen", [BAD_EP, BAD_CASTLING])
def test_impossible_fields_of_a_full_fen_are_refused_not_dropped(fen: str, tmp_path: Path) -> None:
    """Row 2: ``retro spg`` (and every command that answers about the position) refuses a
    full FEN whose e.p. square or castling right cannot be true, with the reason ``retro
    check`` gives; ``check`` itself calls it illegal."""
    code, _, err = _cli(["spg", fen, "3"])
    assert code == 2 and "invalid position" in err and "Traceback" not in err
    with pytest.raises(ValueError, match="invalid position"):
        retro.shortest_proof_games(fen, 3)
    with pytest.raises(ValueError, match="invalid position"):
        retro.winnability(fen, "white")
    with pytest.raises(ValueError, match="invalid position"):
        retro.retractions(fen)
    with pytest.raises(ValueError, match="invalid position"):
        retro.last_moves(fen)
    assert _cli(["lastmove", fen, "--no-legality"])[0] == 2
    code, records = _batch("spg", [f"{fen} 3"], [], tmp_path)
    assert code == 2 and records[0]["status"] == "error"
    assert retro.check(fen).status == "illegal"
    assert retro.check(fen).reason in err
    # the legality questions judge the field: illegal, by the rule retro check names
    proved = retro.prove(fen, time_limit=5)
    assert proved.status == "illegal" and proved.reason == retro.check(fen).reason
    for shortest in ([], ["--shortest"]):
        code, records, _ = _cli(["proofgame", fen, "-t", "5", "--json", *shortest])
        assert code == 0 and records[0]["status"] == "illegal" and records[0]["reason"] == proved.reason


def test_spg_refuses_a_five_field_diagram(tmp_path: Path) -> None:
    """A six-field FEN with N missing would read its fullmove number as N: refused."""
    code, records = _batch("spg", [f"{SPG_4} w - - 0 3"], [], tmp_path)
    assert code == 2 and "5 fields" in records[0]["error"]


def test_check_text_and_json_say_the_same() -> None:
    code, records, _ = _cli(["check", KQK, "--json"])
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["check", KQK]) == 0
    assert code == 0 and out.getvalue().strip() == f"{records[0]['status']}: {records[0]['reason']}"
    assert out.getvalue().strip() == "unknown: no static objection"


def test_json_error_record_keeps_the_whole_line(tmp_path: Path) -> None:
    line = "8/8/8/4k3/8/8/8/3QK3 b - - 0 1 label with too many words"
    code, records = _batch("check", [line], [], tmp_path)
    assert code == 2 and records[0]["input"] == line


def test_epd_move_operations_are_read_against_the_line_s_own_position(tmp_path: Path) -> None:
    """A ``bm`` operation is a move of the EPD line's position (WAC.001), not of the start
    position; after a placement and the command's own tokens only the ``id`` is read."""
    wac = '2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id "WAC.001";'
    code, records = _batch("check", [wac, f'{KQK4} pv e4 e5; id "not a KQK move";'], [], tmp_path)
    assert code == 2 and records[0]["id"] == "WAC.001" and records[0]["status"] == "unknown"
    assert records[1]["status"] == "error" and "bad EPD operations" in records[1]["error"]
    code, records = _batch("spg", [f'{SPG_4} 4 bm e4; id "Euclide 4";'], [], tmp_path)
    assert code == 0 and records[0]["id"] == "Euclide 4" and records[0]["status"] == "unique"


@pytest.mark.slow
def test_a_search_with_a_time_limit_answers_200_unknown_not_504(client: TestClient) -> None:
    """Row 7: ``proofgame`` on bare kings (legal, but its proof game needs 30 captures,
    more than the search finds in seconds) with ``time_limit`` 10 stops itself below the
    server's kill (at 8.5 s: :func:`retro.server.commands.own_time`) and answers 200 with
    its verdict and the seconds it took, not 504."""
    response = client.post("/api/v1/proofgame", json={"fen": "8/8/4k3/8/8/4K3/8/8 w - - 0 1", "time_limit": 10})
    assert response.status_code == 200, response.text
    assert response.json()["status"] in ("unknown", "legal") and response.json()["seconds"] < 10


def test_proofgame_uses_tempo_parity_as_spg_does() -> None:
    """Row 9: the start position with Black to move is illegal by tempo parity (every
    unit on its square, only the knights can have moved, and their squares fix the parity
    of each side's moves), through the plain pipeline as through ``--shortest``."""
    start_black = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1"
    for extra in ([], ["--shortest"]):
        code, records, _ = _cli(["proofgame", start_black, "-t", "10", "--json", *extra])
        assert code == 0 and records[0]["status"] == "illegal", (extra, records)


def test_lastmove_takes_cage_claims_verified_by_the_server(client: TestClient) -> None:
    """A last-move request may bring its own cages (as the page sends the cages verified in
    its Cage panel): the server verifies each before use and then uses these alone. The
    claim ``k1br2b1/ppKppp1B/2p3p1`` (depth 30; in ``data/cages.txt``) refutes Qe8xRd8 and
    Qf8xRd8 in the problem ``k1bQ2b1/ppKppp1B/2p3p1`` (White retracts), listed as the known
    cage that removed them; ``6Nr`` over ``6PP`` is no cage (the knight and rook can
    retract, Ne2-g1 Ra1-h1), so a request claiming it is refused with the reason."""
    body: dict[str, Any] = {"fen": "k1bQ2b1/ppKppp1B/2p3p1/8/8/8/8/8", "retract": "w", "time_limit": 25}
    claim = {"fen": "k1br2b1/ppKppp1B/2p3p1/8/8/8/8/8", "depth": 30}
    response = client.post("/api/v1/lastmove", json={**body, "cages": [claim]})
    assert response.status_code == 200, response.text
    record = response.json()
    assert "known cages" in record["filters"]
    removed = [r["moves"] for r in record["rejected"] if r["rule"] == "cage" and "k1br2b1/ppKppp1B" in r["reason"]]
    assert ["Qe8xRd8"] in removed and ["Qf8xRd8"] in removed
    bad = client.post("/api/v1/lastmove", json={**body, "cages": [{"fen": "8/8/8/8/8/8/6PP/6Nr", "depth": 5}]})
    assert bad.status_code == 400 and "is not verified" in bad.json()["error"] and "Ra1-h1" in bad.json()["error"]
    too_many = client.post("/api/v1/lastmove", json={**body, "cages": [claim] * 33})
    assert too_many.status_code == 400 and "at most 32" in too_many.json()["error"]

"""How ``retro lastmove`` reads its input: a full FEN's side to move means the other
side made the last move; a contradicting ``--retract`` is an error (exit 2); a bare
placement keeps the ``--retract`` side (or both); batch lines name the side with
``retract=`` and a two-field line is refused as ambiguous."""

import json

import chess
import pytest

from retro.cli import main
from retro.core.position import InvalidFenError
from retro.core.status import LastMoveStatus
from retro.lastmove.problem import read_problem
from retro.lastmove.solver import solve

# Black to move and in check from the queen on e6: White made the last move (a queen
# move to e6, giving check). Had Black moved last, White would be to move with Black in check.
QUEEN_CHECK = "4k3/8/4Q3/8/8/8/8/4K3"
SIMPLE = "8/8/8/8/1k6/P7/1K6/8"  # White's last move was a2-a3+


def _json(capsys, argv: list[str]) -> dict:
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.slow
def test_full_fen_black_to_move_means_white_moved_last(capsys):
    record = _json(capsys, ["lastmove", f"{QUEEN_CHECK} b - - 0 1", "--retract", "w", "--no-legality", "--json"])
    assert record["retract"] == "w" and record["status"] == LastMoveStatus.MULTIPLE
    assert record["fen"] == f"{QUEEN_CHECK} b - - 0 1"
    assert {s["side"] for s in record["solutions"]} == {"w"}
    assert all(s["moves"][0].startswith("Q") and s["moves"][0].endswith("e6+") for s in record["solutions"])


def test_full_fen_without_retract_takes_the_side_from_the_fen(capsys):
    record = _json(capsys, ["lastmove", f"{SIMPLE} b - - 0 1", "--no-legality", "--json"])
    assert record["retract"] == "w" and record["status"] == "unique"
    assert record["solutions"][0]["moves"] == ["a2-a3+"]


def test_retract_contradicting_the_fen_is_one_line_error_exit_2(capsys):
    assert main(["lastmove", f"{QUEEN_CHECK} b - - 0 1", "--retract", "b", "--no-legality"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    error = captured.err.strip()
    assert "\n" not in error and "contradicts the FEN" in error and "White made the last move" in error
    assert main(["lastmove", f"{QUEEN_CHECK} b - - 0 1", "--retract", "both", "--no-legality"]) == 2


def test_bare_placement_keeps_the_retract_option_and_defaults_to_both(capsys):
    white = _json(capsys, ["lastmove", SIMPLE, "--retract", "w", "--no-legality", "--json"])
    assert white["retract"] == "w" and white["status"] == "unique"
    both = _json(capsys, ["lastmove", SIMPLE, "--no-legality", "--json"])
    # Black cannot have moved last: White would be to move with Black's king in check from a3.
    assert both["retract"] == "both" and both["status"] == "unique"
    assert both["solutions"] == white["solutions"]
    assert any(r["side"] == "b" and r["rule"] == "static" for r in both["rejected"])


def test_full_fen_castling_and_en_passant_are_taken_as_given():
    # Black to move with an en-passant square on e3: White's last move was e2-e4, nothing else.
    board = chess.Board("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1")
    verdict = solve(board, full_fen=True, use_legality=False)
    assert verdict.retract == chess.WHITE
    assert [s.moves for s in verdict.solutions] == [("e2-e4",)]
    # The same placement as a diagram also admits e3-e4 and king moves.
    diagram = solve(board, chess.WHITE, use_legality=False)
    assert len(diagram.solutions) > 1


def test_solver_refuses_a_side_that_contradicts_the_fen():
    with pytest.raises(ValueError, match="made the last move"):
        solve(chess.Board(f"{QUEEN_CHECK} b - - 0 1"), chess.BLACK, full_fen=True, use_legality=False)


@pytest.mark.parametrize(
    "text, retract, expected",
    [
        (SIMPLE, None, (None, False)),
        (SIMPLE, "w", (chess.WHITE, False)),
        (f"{SIMPLE} retract=b", None, (chess.BLACK, False)),
        (f"{SIMPLE} retract=both", None, (None, False)),
        (f"{SIMPLE} w - -", None, (chess.BLACK, True)),
        (f"{SIMPLE} b - - 0 1 retract=w", "white", (chess.WHITE, True)),
    ],
)
def test_read_problem(text, retract, expected):
    problem = read_problem(text, retract)
    assert (problem.retract, problem.full_fen) == expected


@pytest.mark.parametrize(
    "text, retract, message",
    [
        (f"{SIMPLE} w", None, "2 fields"),
        (f"{SIMPLE} w -", None, "3 fields"),
        (f"{SIMPLE} retract=w", "b", "--retract says b"),
        (f"{SIMPLE} b - - 0 1 retract=b", None, "contradicts the FEN"),
        (f"{SIMPLE} retract=x", None, "w, b or both"),
        (f"{SIMPLE} x - - 0 1", None, "side to move"),
    ],
)
def test_read_problem_errors(text, retract, message):
    with pytest.raises(InvalidFenError, match=message):
        read_problem(text, retract)


def test_batch_lines_follow_the_documented_format(tmp_path, capsys):
    lines = [f"{SIMPLE} retract=w", f"{SIMPLE} b - - 0 1", f"{SIMPLE} w", "not a board"]
    path = tmp_path / "problems.txt"
    path.write_text("\n".join(lines) + "\n")
    assert main(["lastmove", "-f", str(path), "--no-legality", "--json"]) == 2  # two lines are bad
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["status"] for r in records] == ["unique", "unique", "error", "error"]
    assert "ambiguous" not in records[2]["error"] and "retract=w" in records[2]["error"]


def test_help_documents_the_batch_line_format(capsys):
    with pytest.raises(SystemExit):
        main(["lastmove", "--help"])
    text = capsys.readouterr().out
    assert "retract=w|b|both" in text and "full FEN" in text and "did NOT make the" in text


@pytest.mark.slow
def test_time_limit_keeps_unchecked_candidates_and_progress_reports(monkeypatch):
    # The queen on e6 came from any of many squares, capturing any unit or none: many
    # candidates survive the cheap filters. With no time at all the enumeration itself
    # stops: nothing is rejected or claimed, the status is unknown and the record says
    # the enumeration is incomplete; no progress line is printed.
    lines: list[str] = []
    board = chess.Board(f"{QUEEN_CHECK} b - - 0 1")
    verdict = solve(board, full_fen=True, time_limit=0.0, progress=lines.append)
    assert verdict.status == "unknown" and not verdict.complete and verdict.checked == 0 and not lines
    assert verdict.as_dict()["complete"] is False and not verdict.rejections
    # Two candidates and time to check them: one progress line each (Darvall's problem:
    # Ba7xNb8 and a7xNb8=B pass every filter but the frozen-units rule, taken out here).
    monkeypatch.setattr("retro.lastmove.solver.frozen_units_reason", lambda board: None)
    darvall = chess.Board("KBrk4/1pppRp2/1p2p3/8/8/8/8/8 w - - 0 1")
    # (time_limit: about 30 CPU s of cage verification, over 60 s of wall on a loaded machine)
    two = solve(darvall, chess.WHITE, progress=lines.append, legality_time_limit=0.5, time_limit=600.0)
    # (an enumeration line too when the enumeration takes over 2 s, on a loaded machine)
    checks = [line for line in lines if not line.startswith("enumerating")]
    assert len(checks) == 2 and checks[0].startswith("checking candidate 1/2")
    assert two.unchecked == 0

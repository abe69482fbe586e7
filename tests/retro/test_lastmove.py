"""Last-move solver: notation, and problems of data/lastmove-dev.jsonl that the sound
filters settle (static rules and retro-stalemate only, so the test is fast)."""

import json

import chess
import pytest

from retro.cli import main
from retro.lastmove.notation import forward_notation, move_type
from retro.lastmove.solver import diagram_positions, solve
from tests.conftest import read_jsonl


@pytest.mark.parametrize(
    "fen, uci, notation, kind",
    [
        ("8/8/8/8/4n3/5K2/8/k7 w - - 0 1", "f3e4", "Kf3xNe4", "KxN"),
        ("4k3/8/8/8/5p2/8/6P1/4K3 w - - 0 1", "g2g4", "g2-g4", "P--"),
        ("4k3/8/8/8/5pP1/8/8/4K3 b - g3 0 1", "f4g3", "f4xg3ep", "ep"),
        ("3nk3/2P5/8/8/8/8/8/4K3 w - - 0 1", "c7d8r", "c7xNd8=R+", "PxN=R"),
        ("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1", "O-O-O", "O-O-O"),
        ("4k3/8/8/8/8/8/P7/4K3 w - - 0 1", "a2a3", "a2-a3", "P-"),
    ],
)
def test_forward_notation_and_type(fen, uci, notation, kind):
    board = chess.Board(fen)
    move = chess.Move.from_uci(uci)
    assert forward_notation(board, move) == notation
    assert move_type(board, move) == kind


def test_diagram_positions_add_possible_en_passant_squares():
    # White's pawn on g4 with Black's on f4: the diagram may have an en-passant square g3.
    board = chess.Board("8/8/8/8/5pP1/8/8/K6k w - - 0 1")
    squares = {p.ep_square for p in diagram_positions(board, chess.WHITE)}
    assert squares == {None, chess.G3}


SEQUENCE_PROBLEMS = [p for p in read_jsonl("lastmove-dev.jsonl")
                     if p["answer_kind"] == "retraction_sequence" and len(p["answer"]) <= 6][:6]


@pytest.mark.parametrize("problem", SEQUENCE_PROBLEMS, ids=[p["source"][:30] for p in SEQUENCE_PROBLEMS])
def test_published_sequence_always_survives(problem):
    """Soundness: the published solution is never rejected (the filters are sound)."""
    side = chess.WHITE if problem["retract"] == "w" else chess.BLACK
    verdict = solve(chess.Board(problem["board"] + " w - - 0 1"), side, moves=len(problem["answer"]),
                    use_legality=False)
    assert problem["answer"] in [list(s.moves) for s in verdict.solutions]


def test_angelini_three_move_retraction_is_unique():
    # Eric Angelini, Europe Echecs 1995: White retracts Kf5xNe5, Black f4xg3 e.p.+, White g2-g4.
    verdict = solve(chess.Board("8/8/3r4/4K3/8/4kqpb/8/8 w - - 0 1"), chess.WHITE, moves=3, use_legality=False)
    assert verdict.status == "unique"
    assert verdict.solutions[0].moves == ("Kf5xNe5", "f4xg3ep+", "g2-g4")


def test_simplest_problem_and_other_side_has_no_last_move():
    board = chess.Board("8/8/8/8/1k6/P7/1K6/8 w - - 0 1")
    white = solve(board, chess.WHITE, use_legality=False)
    assert white.status == "unique" and white.solutions[0].moves == ("a2-a3+",)
    # Had Black moved last, White would be to move with Black's king in check from a3.
    black = solve(board, chess.BLACK, use_legality=False)
    assert black.status == "none" and "side not to move (black) is in check" in black.rejections[0].reason


def test_cli_prints_solutions_and_json(capsys):
    assert main(["lastmove", "8/8/8/8/1k6/P7/1K6/8", "--retract", "w", "--no-legality"]) == 0
    out = capsys.readouterr().out
    assert "a2-a3+" in out and "unique solution" in out
    assert main(["lastmove", "8/8/8/8/1k6/P7/1K6/8", "--retract", "w", "--no-legality", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["status"] == "unique" and record["results"][0]["solutions"][0]["type"] == "P-"


def test_cli_bad_board_exit_2(capsys):
    assert main(["lastmove", "8/8/8/8/1k6/P7/1K6"]) == 2
    assert "8 ranks" in capsys.readouterr().err

"""Last-move solver: notation, and problems of data/lastmove-dev.jsonl that the sound
filters settle (static rules and retro-stalemate only, so the test is fast)."""

import json

import chess
import pytest

from cages.library import Library, parse_spec
from cages.verify import verify
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


SEQUENCE_PROBLEMS = [
    p for p in read_jsonl("lastmove-dev.jsonl") if p["answer_kind"] == "retraction_sequence" and len(p["answer"]) <= 6
][:6]


@pytest.mark.parametrize("problem", SEQUENCE_PROBLEMS, ids=[p["source"][:30] for p in SEQUENCE_PROBLEMS])
def test_published_sequence_always_survives(problem):
    """Soundness: the published solution is never rejected (the filters are sound)."""
    side = chess.WHITE if problem["retract"] == "w" else chess.BLACK
    verdict = solve(
        chess.Board(problem["board"] + " w - - 0 1"), side, moves=len(problem["answer"]), use_legality=False
    )
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
    assert record["status"] == "unique" and record["solutions"][0] == {
        "side": "w",
        "moves": ["a2-a3+"],
        "type": "P-",
        "checked": True,
    }


def test_legality_checks_stop_once_two_candidates_survive():
    """White's queen checks from e6: some 90 queen moves and captures onto e6 pass the
    quick filters and the legality pipeline refutes none of them (it only proves
    illegality). Once two have survived it the answer is 'multiple' whatever the rest
    give, so the others are kept unchecked instead of costing seconds each."""
    board = chess.Board("4k3/8/4Q3/8/8/8/8/4K3 b - - 0 1")
    verdict = solve(board, full_fen=True, legality_time_limit=0.3, auto_cages=False)
    checked = [s for s in verdict.solutions if s.checked]
    assert verdict.status == "multiple" and len(checked) == 2
    assert verdict.unchecked == len(verdict.solutions) - 2 > 80
    assert verdict.as_dict()["unchecked"] == verdict.unchecked
    # "types" settles only when two survivors differ in type: Qa2-e6+ (Q-) and Qa2xBe6+ (QxB)
    by_type = solve(board, full_fen=True, legality_time_limit=0.3, auto_cages=False, question="types")
    assert {s.type for s in by_type.solutions if s.checked} == {"Q-", "QxB"}


def test_cli_bad_board_exit_2(capsys):
    assert main(["lastmove", "8/8/8/8/1k6/P7/1K6"]) == 2
    assert "8 ranks" in capsys.readouterr().err


# Dead reckoning (FIDE 5.2.2), paper 000's compositions; boards from papers/README.md.
POSITION_2 = "Bb1k1b2/bKp1p1p1/1pP1P1P1/1P6/p5P1/P7/8/8 w - - 0 1"
POSITION_20 = "8/8/1Pp5/p7/P1p5/PpPp4/brpP4/kbK5 b - - 0 1"
POSITION_21 = "8/2PN4/PPkPB3/K3B3/NPP5/2RP4/1P2R3/8 b - - 0 1"


@pytest.mark.slow
def test_position_2_dead_reckoning_picks_a5_a4():
    """Buchanan (paper 000, Position 2): Black's last move was ...Ke8-d8 or ...a5-a4,
    and only one comes from a live position. Without dead reckoning both survive; with
    it only a5-a4 does (with the pawn on a5 White can still win, the paper says; with
    the king on e8 and the pawn on a4 the position is already dead)."""
    board = chess.Board(POSITION_2)
    plain = {s.moves[0] for s in solve(board, chess.BLACK, use_legality=False).solutions}
    assert {"Ke8-d8", "a5-a4"} <= plain
    verdict = solve(board, chess.BLACK, dead_reckoning=True, use_legality=False, auto_cages=False, time_limit=None)
    assert verdict.status == "unique" and verdict.solutions[0].moves == ("a5-a4",)
    assert any(r.moves == ("Ke8-d8",) and "dead" in r.reason for r in verdict.rejections)


@pytest.mark.slow
def test_position_20_dead_reckoning_proves_en_passant():
    """Buchanan (paper 000, Position 20 = its Position 24, solution B.4): every other
    white last move (b5-b6, c5xb6 capturing a unit) comes from a dead position."""
    board = chess.Board(POSITION_20)
    plain = {s.moves[0] for s in solve(board, chess.WHITE, use_legality=False).solutions}
    assert {"b5-b6", "c5xPb6", "c5xb6ep"} <= plain
    verdict = solve(board, chess.WHITE, dead_reckoning=True, use_legality=False, auto_cages=False, time_limit=None)
    assert verdict.status == "unique" and verdict.solutions[0].moves == ("c5xb6ep",)


def test_position_21_dead_reckoning_proves_en_passant():
    """Frolkin & Buchanan (paper 000, Position 21 = its Position 25, solution B.5): Black
    has no last move; of White's, dead reckoning leaves the paper's "except possibly"
    set c5xb6 capturing a rook, a knight or en passant, and the capture-file count of
    the pawn-fates rule (the b-file's one landing) refutes the rook and the knight."""
    board = chess.Board(POSITION_21)
    black = solve(board, chess.BLACK, dead_reckoning=True, use_legality=False, auto_cages=False, time_limit=None)
    assert black.status == "none"
    verdict = solve(board, chess.WHITE, dead_reckoning=True, use_legality=False, auto_cages=False, time_limit=None)
    assert verdict.status == "unique" and verdict.solutions[0].moves == ("c5xb6ep",)
    reasons = {r.moves[0]: r.reason for r in verdict.rejections}
    assert "dead reckoning" in reasons["c5xPb6"] and "fates" in reasons["c5xRb6"]


def test_brandis_cage_makes_ka2_a1_unique(monkeypatch):
    """Brandis (paper 003, Figure 1): White retracts; a2xb3 is refuted by the Figure 2
    cage, which is verified here first and then used as a known cage. The frozen-units
    rule refutes a2xb3 too (Black's king c2 and every White unit of the corner can never
    have moved), so the cage path is tested with that rule taken out."""
    cage = parse_spec("8/8/8/8/8/8/PPkPP3/KR1b4 depth=5")
    assert verify(cage.board, max_nodes=200_000).status == "cage"
    board = chess.Board("8/8/8/8/8/1P6/1PkPP3/KR1b4 w - - 0 1")
    frozen = solve(board, chess.WHITE, use_legality=False, auto_cages=False)
    assert [s.moves for s in frozen.solutions] == [("Ka2-a1",)]
    assert any(r.rule == "frozen units" and r.moves[0].startswith("a2x") for r in frozen.rejections)
    monkeypatch.setattr("retro.lastmove.solver.frozen_units_reason", lambda board: None)
    without = {s.moves[0] for s in solve(board, chess.WHITE, use_legality=False, auto_cages=False).solutions}
    assert "Ka2-a1" in without and any(m.startswith("a2x") for m in without)
    library = Library()
    library.add(cage)
    verdict = solve(board, chess.WHITE, use_legality=False, cages=library, auto_cages=False)
    assert verdict.status == "unique" and verdict.solutions[0].moves == ("Ka2-a1",)

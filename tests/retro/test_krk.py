"""The KRK legality theorem (paper 004): notions, count, retrograde classes, CP-SAT claims,
PFix's proof games, the outside-KRK notion, ``retro krk``.

The full CP-SAT proofs take minutes (bench/krk.py runs them); here the encoding is
checked on a slice (every root with the white king on a1), on pinned positions, and on
a shorter descent for which counterexamples exist, always against the explicit analysis.
"""

import json
import random

import chess
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ortools.sat.python import cp_model

from retro.cli import main
from retro.krk.explain import explain
from retro.krk.outside import outside_predecessors
from retro.krk.pfix import hand_game, pfix_proof_game
from retro.krk.position import (
    CODE_COUNT,
    PFIX_BLACK,
    PFIX_WHITE,
    KrkPosition,
    NotKrkPositionError,
    illegality_reason,
    is_initially_legal,
    measure,
    parse_krk,
    predecessors,
    successors,
)
from retro.krk.retrograde import analyse, claim_failures, min_measure_after
from retro.krk.sat import descent_model, predecessor_model, prove_descent, prove_paper_claim_2, solve
from retro.krk.symbolic import Encoder


@pytest.fixture(scope="module")
def analysis():
    return analyse()


def krk(fen: str) -> KrkPosition:
    return parse_krk(fen)


# A black king in check with White to move: Ra1 attacks c1 over the empty b1.
CHECK_WHITE_TO_MOVE = "8/8/8/8/8/8/8/R1k1K3 w - - 0 1"
# Kb3 Ra3 ka1, Black to move: every retraction fails. The rook cannot come along the
# third rank (b3 is the king's), from a2/a4..a8 it would already give check with White
# to move; the king cannot come from a2/b2 (next to a1) nor from a4, b4, c2, c3, c4
# (the rook would give check with White to move). Yet ...Kb1 is a move.
NO_PREDECESSOR = "8/8/8/8/8/RK6/8/k7 b - - 0 1"
# Kb1 Ra1 ka3, Black to move: as above, and no capture can help: a rook capture on a1
# would come from a2 (check before) or b1 (the king's square); a king capture on b1
# leaves the a-file check in place.
NO_PREDECESSOR_AT_ALL = "8/8/8/8/8/k7/8/RK6 b - - 0 1"


def test_count_of_initially_legal_positions_is_the_papers(analysis):
    assert analysis.initially_legal == 399_112
    scalar = np.array([is_initially_legal(KrkPosition.from_code(c)) for c in range(CODE_COUNT)])
    assert np.array_equal(scalar, analysis.legal)


def test_initially_illegal_positions_and_their_reasons():
    assert illegality_reason(krk(CHECK_WHITE_TO_MOVE)) == "the black king is in check with White to move"
    # The same placement with Black to move is fine: Black may be in check.
    assert is_initially_legal(krk(CHECK_WHITE_TO_MOVE.replace(" w ", " b ")))
    assert illegality_reason(krk("8/8/8/8/8/8/8/R2kK3 b - - 0 1")) == "the kings stand on adjacent squares"
    # The white king on the line between rook and black king blocks the check.
    assert is_initially_legal(krk("8/8/8/8/8/8/8/R1K1k3 w - - 0 1"))
    # Codes with two units on one square exist only as codes (the paper counts them out).
    assert "same square" in (illegality_reason(KrkPosition(chess.A1, chess.C3, chess.A1, True)) or "")
    assert "captured" in (illegality_reason(KrkPosition(chess.A1, chess.C3, chess.C3, False)) or "")


def test_position_without_predecessor_is_once_derivedly_illegal(analysis):
    position = krk(NO_PREDECESSOR)
    assert is_initially_legal(position) and predecessors(position) == []
    assert any(after.black_king == chess.B1 for _, after in successors(position))
    assert analysis.level[position.code] == 1
    result = explain(NO_PREDECESSOR, analysis)
    assert (result.status, result.krk_class) == ("unknown", "1 times derivedly illegal")
    # Figure 7's situation: the rook came down the a-file capturing a black unit on a3,
    # which had blocked the check.
    assert {o.move for o in result.outside} == {"Rxa3+"}
    assert all(chess.Board(o.before_fen).color_at(chess.A3) == chess.BLACK for o in result.outside)


def test_position_without_any_chess_predecessor_is_illegal(analysis):
    position = krk(NO_PREDECESSOR_AT_ALL)
    assert predecessors(position) == [] and outside_predecessors(position) == []
    assert explain(NO_PREDECESSOR_AT_ALL, analysis).status == "illegal"


def test_outside_predecessors_castling_and_promotion():
    castled = krk("8/8/8/8/8/6k1/8/5RK1 b - - 0 1")
    assert "castling" in {o.kind for o in outside_predecessors(castled)}
    promoted = krk("R7/8/8/8/8/4K3/8/6k1 b - - 0 1")
    assert any(o.kind == "promotion" and o.move == "a8=R" for o in outside_predecessors(promoted))


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 63), st.integers(0, 63), st.integers(0, 63), st.booleans())
def test_successors_are_python_chess_legal_moves_inside_krk(wk, bk, wr, white):
    """KRK moves = python-chess's legal moves that keep the rook, between initially legal positions."""
    position = KrkPosition(wk, bk, wr, white)
    if not is_initially_legal(position):
        assert successors(position) == [] and predecessors(position) == []
        return
    board = position.board()
    expected = set()
    for move in board.legal_moves:
        board.push(move)
        if board.rooks:
            after = KrkPosition.from_board(board)
            if is_initially_legal(after):
                expected.add((move, after))
        board.pop()
    assert set(successors(position)) == expected
    for move, before in predecessors(position):
        assert (move, position) in set(successors(before))


def test_move_graph_matches_one_position_functions(analysis):
    order = np.argsort(analysis.destinations, kind="stable")
    sources = analysis.sources[order]
    bounds = np.searchsorted(analysis.destinations[order], np.arange(CODE_COUNT + 1))
    rng = random.Random(7)
    for code in rng.sample(np.flatnonzero(analysis.legal).tolist(), 2000):
        position = KrkPosition.from_code(code)
        assert sorted(b.code for _, b in predecessors(position)) == sorted(sources[bounds[code] : bounds[code + 1]])
        assert analysis.measure[code] == measure(position)


def test_retrograde_classes_agree_with_the_theorem(analysis):
    covered = analysis.legal & (analysis.predecessor_count > 0)
    assert np.array_equal(covered, analysis.distance >= 0)  # every such position is reached from PFix
    assert analysis.level.max() == 1  # so nothing is derivedly illegal twice
    assert np.array_equal(analysis.level == 1, analysis.legal & ~covered)
    assert analysis.distance[PFIX_WHITE.code] == analysis.distance[PFIX_BLACK.code] == 0
    failures = claim_failures(analysis)
    assert failures["claim 1"] == 0 and failures["claim 1+2"] == 0
    assert failures["claim 2 (paper)"] == int((analysis.level == 1).sum()) > 0


def test_symbolic_legality_matches_python_chess():
    rng = random.Random(3)
    for code in rng.sample(range(CODE_COUNT), 40):
        position = KrkPosition.from_code(code)
        encoder = Encoder()
        encoder.fix_root(
            {
                "wkx": position.white_king % 8,
                "wky": position.white_king // 8,
                "bkx": position.black_king % 8,
                "bky": position.black_king // 8,
                "wrx": position.white_rook % 8,
                "wry": position.white_rook // 8,
            }
        )
        legal = encoder.legal(encoder.root, position.white_to_move)
        encoder.model.add_bool_and([legal])
        _, status, _ = solve(encoder)
        assert (status != cp_model.INFEASIBLE) == is_initially_legal(position), position


@pytest.mark.slow
def test_claim_1_proved_on_the_slice_white_king_a1():
    """Claim 1 for every root with the white king on a1, both sides to move."""
    for white_to_move in (True, False):
        encoder = descent_model(white_to_move)
        encoder.fix_root({"wkx": 0, "wky": 0})
        _, status, _ = solve(encoder)
        assert status == cp_model.INFEASIBLE


def test_short_descent_sat_agrees_with_explicit_analysis(analysis):
    """Descent in 2 plies is false for some positions: on a sample of roots, CP-SAT finds a
    counterexample exactly where the explicit minimum over 2-ply retractions says so."""
    after2 = min_measure_after(analysis, 2)
    premise = analysis.legal & (analysis.predecessor_count > 0) & (analysis.measure > 0)
    fails = np.flatnonzero(premise & (after2 >= analysis.measure)).tolist()
    holds = np.flatnonzero(premise & (after2 < analysis.measure)).tolist()
    rng = random.Random(5)
    for code in rng.sample(fails, 4) + rng.sample(holds, 4):
        root = KrkPosition.from_code(code)
        result = prove_descent(plies=2, root=root)
        assert result.status == ("refuted" if code in fails else "proved"), root
    whole = prove_descent(plies=2)  # unpinned: a counterexample, re-checked inside
    assert whole.status == "refuted" and all(c.code in set(fails) for c in whole.counterexamples)


def test_claim_1_pinned_at_full_depth():
    result = prove_descent(root=krk("7k/1R6/8/8/8/8/8/K7 b - - 0 1"))
    assert result.status == "proved" and result.models[0].variables > 1000


def test_papers_claim_2_is_refuted_by_cp_sat(analysis):
    white = prove_paper_claim_2(root=None, enumerate_all=False)
    assert white.models[0].status == "INFEASIBLE"  # no counterexample with White to move
    assert white.status == "refuted"
    found = white.counterexamples[0]
    assert analysis.level[found.code] == 1 and not found.white_to_move
    pinned = predecessor_model(False, root=krk(NO_PREDECESSOR))
    _, status, _ = solve(pinned)
    assert status in (cp_model.OPTIMAL, cp_model.FEASIBLE)


def test_pfix_proof_games_replay():
    for position in (PFIX_BLACK, PFIX_WHITE):
        game = hand_game(position)
        board = chess.Board()
        for move in game.moves:
            assert board.is_legal(move)
            board.push(move)
        assert board.board_fen() == position.board().board_fen() and board.turn == position.white_to_move
        assert measure(position) == 0
    proof = pfix_proof_game(True, search_seconds=0)
    assert proof.plies == 76 and proof.search == "not run"


def test_explain_legal_position_gives_a_replayable_proof_game(analysis):
    fen = "8/8/8/8/3k4/8/8/R3K3 w - - 0 1"
    result = explain(fen, analysis)
    assert result.status == "legal" and 0 < len(result.path) <= analysis.distance.max()
    board = chess.Board()
    for san in result.proof:
        board.push_san(san)
    assert board.board_fen() == chess.Board(fen).board_fen() and board.turn == chess.WHITE


def test_cli_explain_json_and_errors(capsys):
    assert main(["krk", "--explain", CHECK_WHITE_TO_MOVE, "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert (record["status"], record["class"]) == ("illegal", "initially illegal")
    assert main(["krk", "--explain", "8/8/8/8/3k4/8/8/R3KQ2 b - - 0 1"]) == 2
    assert "not a KRK position" in capsys.readouterr().err
    assert main(["krk", "--explain", "8/8/9/8/3k4/8/8/R3K3 b - -"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    with pytest.raises(NotKrkPositionError):
        parse_krk("8/8/8/8/3k4/8/8/R3K2R w K - 0 1")


def test_cli_counts(capsys):
    assert main(["krk", "--no-sat", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["initially_legal"] == 399_112 and data["theorem_holds"]
    derived = data["classes"]["1 times derivedly illegal"]
    assert data["derived_possibly_legal_outside_krk"] + len(data["derived_without_any_predecessor"]) == derived
    assert NO_PREDECESSOR_AT_ALL.split()[0] in {f.split()[0] for f in data["derived_without_any_predecessor"]}
    assert [g["plies"] for g in data["pfix"]] == [71, 76]

"""The illegality pipeline (retro.legality.decide) on texel's cases, the dev set and
the paper's examples."""

from __future__ import annotations

import json
from pathlib import Path

import chess
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from retro.legality import _refuted_by_static_retraction, decide, tempo_parity
from tests.conftest import texel_cases

DATA = Path(__file__).resolve().parents[2] / "data"
LEGALITY = texel_cases("legality")


def _must_not_be_illegal(case: dict) -> bool:
    return (case["expected_prefix"].startswith("illegal") and not case["expected_match"]) or (
        case["expected_prefix"].startswith("legal") and case["expected_match"]
    )


@pytest.mark.parametrize(
    "case",
    [c for c in LEGALITY if _must_not_be_illegal(c)],
    ids=[c["source"] for c in LEGALITY if _must_not_be_illegal(c)],
)
def test_texel_legal_cases_are_never_illegal(case: dict) -> None:
    assert decide(chess.Board(case["fen"]), max_nodes=20_000, time_limit=10).status != "illegal"


@pytest.mark.slow
def test_texel_illegal_cases_mostly_proven() -> None:
    illegal = [c for c in LEGALITY if c["expected_prefix"].startswith("illegal") and c["expected_match"]]
    proven = sum(decide(chess.Board(c["fen"]), max_nodes=20_000, time_limit=10).status == "illegal" for c in illegal)
    assert proven == len(illegal)


def _dev(legal: bool, count: int) -> list[str]:
    rows = [json.loads(line) for line in (DATA / "cpr-923-dev.jsonl").open()]
    return [r["fen"] for r in rows if r["legal"] == legal][:count]


@pytest.mark.parametrize("fen", _dev(True, 8))
def test_dev_legal_positions_get_a_kernel(fen: str) -> None:
    verdict = decide(chess.Board(fen), max_nodes=50_000, time_limit=10)
    assert verdict.status == "unknown"


def test_dev_illegal_positions_proven() -> None:
    fens = _dev(False, 20)
    proven = [decide(chess.Board(f), max_nodes=50_000, time_limit=10).status == "illegal" for f in fens]
    assert sum(proven) >= 18


def test_how_did_ba5_get_there() -> None:
    """Paper 002: black is checked by Ba5 and no last move explains it. Reconstructed:
    the bishop cannot have come from b6/c7 (it would have given check with White to
    move), and b4 is occupied by a white pawn that never stood elsewhere on the ray."""
    verdict = decide(chess.Board("3k4/8/8/B7/1P6/8/8/4K3 b - - 0 1"))
    assert verdict.status == "illegal"


# texel's illegal example: Black is in check and every last move White could have made is
# an uncapture on d6 whose predecessor the static rules refute (White would have more
# promoted pieces than captures allow). texel: "No possible last move, all moves rejected".
TEXEL_NO_LAST_MOVE = "RB1r1r2/4K2B/2pQ1p2/5PN1/1N3kbB/q4bN1/q3BB1r/N2nq1BQ b - - 0 1"


def test_every_retraction_refuted_statically_before_the_kernel_search() -> None:
    # 500 kernel nodes cannot settle this position: without the static last-move
    # analysis (which needs no kernel node) the verdict is unknown.
    verdict = decide(chess.Board(TEXEL_NO_LAST_MOVE), max_nodes=500, time_limit=5)
    assert verdict.status == "illegal"
    assert verdict.reason == "no possible last move"
    assert verdict.seconds < 5


def test_static_retraction_walk_stops_at_a_surviving_predecessor() -> None:
    assert _refuted_by_static_retraction(chess.Board(TEXEL_NO_LAST_MOVE), 1)
    for fen in _dev(True, 20):
        assert not _refuted_by_static_retraction(chess.Board(fen), 3)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=60))
def test_static_retraction_never_refutes_a_played_position(choices: list[int]) -> None:
    """For every position of a random legal game, the static last-move analysis proves nothing."""
    board = chess.Board()
    for choice in choices:
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(moves[choice % len(moves)])
    assert not _refuted_by_static_retraction(board, 2)


def test_decide_records_the_kernel_searches_it_runs() -> None:
    """After 1.e4 f5 2.Qh5+ Black is in check, so the pipeline searches the kernel of the
    goal and then of a predecessor: both are in the memo (the proof-game search reads a
    forced last move's predecessor there)."""
    from retro.core.revmoves import predecessor, retractions
    from retro.legality import KernelSearchStatus, memo_key

    board = chess.Board()
    for san in ("e4", "f5", "Qh5+"):
        board.push_san(san)
    memo: dict = {}
    verdict = decide(board, time_limit=20, kernels=memo)
    assert verdict.status == "unknown"
    assert memo[memo_key(board)][0].status == KernelSearchStatus.FOUND
    before = {memo_key(predecessor(board, r)) for r in retractions(board)}
    assert before & set(memo)


START_BLACK_TO_MOVE = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1"


def test_tempo_parity_proves_the_start_position_with_black_to_move_illegal() -> None:
    verdict = decide(chess.Board(START_BLACK_TO_MOVE), time_limit=30.0)
    assert verdict.status == "illegal" and verdict.reason.startswith("tempo parity")


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(0, 10_000), min_size=0, max_size=12))
def test_tempo_parity_never_refutes_a_position_a_game_reaches(choices: list[int]) -> None:
    """Knight moves only (the positions where the rule may apply): every position a game
    reaches, with its side to move and castling rights, escapes the rule."""
    board = chess.Board()
    for choice in choices:
        moves = [m for m in board.legal_moves if board.piece_type_at(m.from_square) == chess.KNIGHT]
        if not moves:  # a check no knight can answer
            break
        board.push(moves[choice % len(moves)])
        assert tempo_parity(board) is None

"""The rule pawn-paths (retro.core.rules.pawn_paths) with regions that never step across a
gate: a piece in a pocket behind a gate is a promoted pawn there, and its promotion's
captures count with the other pawns' captures."""

import random

import chess
import pytest

from retro.core.rules import _Facts, _gates, _sealed_squares, check_static, pawn_paths
from retro.lastmove.solver import solve
from tests.random_games import game_positions, play_random

# Keym (lastmove-dev2 308, type D): White's last move O-O-O, Black's g7xNh6.
KEYM_308 = "8/7p/7p/8/8/1PPPkPP1/bPPR1rPb/2KR1nQb"
# before White's e2xNd3, e2xPd3, e2xQd3, e2xRd3: e2 and g2 at home shut White's f1
# bishop in (taken at home), and Black's light bishops on h1 and a2 are promoted pawns
BEFORE_E2XD3 = [f"8/7p/7p/8/8/1PP{x}kPP1/bPPRPrPb/2KR1nQb w - - 0 1" for x in "npqr"]
BEFORE_CASTLING = "8/7p/7p/8/8/1PPPkPP1/bPPR1rPb/R3KnQb w Q - 0 1"


def test_the_pocket_bishop_counts_its_capture():
    for fen in BEFORE_E2XD3:
        verdict = check_static(chess.Board(fen))
        assert verdict.rule == "pawn-paths", (fen, verdict.rule, verdict.reason)
        assert "black pawns need at least 4 captures" in verdict.reason
        assert "took 1 units at home" in verdict.reason
    # the published answer: with the e-pawn gone from e2 the f1 bishop could leave
    assert check_static(chess.Board(BEFORE_CASTLING)).status == "unknown"


def test_without_the_gate_the_bishop_may_be_the_c8_bishop():
    """With White's c2 pawn gone, b3 may have come from c2 (no gate): Ba2 may be the c8
    bishop, and Black's pawns need only three captures."""
    board = chess.Board(BEFORE_E2XD3[0])
    board.remove_piece_at(chess.C2)
    assert pawn_paths(_Facts(board, "-", "-")) is None


def _home_capture(board: chess.Board, move: chess.Move) -> bool:
    return (
        board.piece_type_at(move.from_square) == chess.PAWN
        and board.is_capture(move)
        and chess.square_rank(move.from_square) in (1, 6)
    )


def _inner_pawns_capture_only(board: chess.Board, move: chess.Move) -> bool:
    return not (
        board.piece_type_at(move.from_square) == chess.PAWN
        and not board.is_capture(move)
        and chess.square_file(move.from_square) in (1, 2, 5, 6)
    )


@pytest.mark.parametrize("seed", [308, 3080])
def test_positions_of_random_games_pass_gated_pawn_paths(seed: int) -> None:
    """Soundness on legal positions with gates: the b, c, f and g pawns leave home only by
    capturing and pawns capture from their home rank when they can, so that pawns on the
    third rank with both neighbours at home (gates) come up often."""
    rng = random.Random(seed)
    positions = gated = 0
    for _ in range(8):
        game = play_random(rng, 120, allow=_inner_pawns_capture_only, prefer=_home_capture, rate=0.9)
        for board in game_positions(game)[::2]:
            sealed, _ = _sealed_squares(board)
            positions += 1
            gated += bool(_gates(board, sealed))
            assert pawn_paths(_Facts(board, "-", "-")) is None, board.fen()
    assert positions > 400 and gated > 100


@pytest.mark.slow
def test_pawn_paths_solves_keym_308():
    """Both sides unique: White's O-O-O and Black's g7xNh6 (White's e2xd3 captures are
    refuted by the rule, and Black's other last moves leave White no last move)."""
    board = chess.Board(KEYM_308 + " w - - 0 1")
    for side, answer in ((chess.WHITE, "O-O-O"), (chess.BLACK, "PxN")):
        verdict = solve(board, side, question="types", time_limit=60)
        assert sorted({s.type for s in verdict.solutions}) == [answer]
        assert verdict.status == "unique"

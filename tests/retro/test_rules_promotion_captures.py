"""The rule promotion-captures (retro.core.rules.promotion_captures): a piece no initial
unit can reach is a promoted pawn, and a promotion by capture counts as a capture; regions
respect the diagonal gates of pawns that made their one capture from their home square."""

import random

import chess
import pytest

from retro.core.rules import _Facts, _gates, _sealed_squares, check_static, promotion_captures
from retro.lastmove.solver import solve
from tests.random_games import game_positions, play_random

# Keym (lastmove-dev2 223, type D): Black's last move Qh4-g3. Before ...Bb1xNa2, ...Qh4xNg3
# and ...Re2xNf2 White has all sixteen units, and Black's bishop stands in the pocket a2-b1
# behind White's b2, c2 (at home) and b3 (from a2, its one move).
KEYM_223 = "8/8/8/8/5PP1/1PPPkrqB/bPPR1rPN/2KR1QB1"
BEFORE_CAPTURES = (
    "8/8/8/8/5PP1/1PPPkrqB/NPPR1rPN/1bKR1QB1 b - - 0 1",
    "8/8/8/8/5PPq/1PPPkrNB/bPPR1rPN/2KR1QB1 b - - 0 1",
    "8/8/8/8/5PP1/1PPPkrqB/bPPRrNPN/2KR1QB1 b - - 0 1",
)
BEFORE_QG3 = "8/8/8/8/5PPq/1PPPkr1B/bPPR1rPN/2KR1QB1 b - - 0 1"


def test_the_pocket_behind_a_gate_needs_a_capture():
    for fen in BEFORE_CAPTURES:
        # pawn-paths, whose regions respect the gates too, comes first in check_static
        assert check_static(chess.Board(fen)).status == "illegal", fen
        assert promotion_captures(_Facts(chess.Board(fen), "-", "-")) is not None, fen
    # the published answer: White has lost a knight, so Black may have captured
    assert check_static(chess.Board(BEFORE_QG3)).status == "unknown"


def test_gates():
    board = chess.Board(BEFORE_CAPTURES[1])
    sealed, _ = _sealed_squares(board)
    gates = _gates(board, sealed)
    assert gates[chess.A2] == chess.BB_B3 and gates[chess.B3] == chess.BB_A2
    assert gates[chess.C3] == chess.BB_D2  # b2 and c2 at home: c3 came from d2
    assert chess.D3 not in gates  # d3: d2 holds a rook (not sealed), and e2 is empty
    # without White's c2 pawn, b3 may have come from c2 too: no gate, no objection
    open_board = chess.Board(BEFORE_CAPTURES[1])
    open_board.remove_piece_at(chess.C2)
    open_sealed, _ = _sealed_squares(open_board)
    assert chess.B3 not in _gates(open_board, open_sealed)
    assert promotion_captures(_Facts(open_board, "-", "-")) is None


def test_no_legal_position_of_random_games_is_refuted():
    """Soundness on legal positions: games in which one side never captures (so that the
    capture count is tight), then games with captures."""
    rng = random.Random(223)
    positions = 0
    for _ in range(15):
        side = rng.choice(chess.COLORS)
        board = chess.Board()
        for _ in range(rng.randint(10, 100)):
            moves = [m for m in board.legal_moves if not (board.turn == side and board.is_capture(m))]
            if not moves:
                break
            board.push(rng.choice(moves))
            positions += 1
            assert promotion_captures(_Facts(board, "-", "-")) is None, board.fen()
    for _ in range(4):  # pawns pushed and promoted: pieces far from home, few captures left
        game = play_random(rng, 200, prefer=lambda b, m: b.piece_type_at(m.from_square) == chess.PAWN, rate=0.8)
        for board in game_positions(game)[::3]:
            positions += 1
            assert promotion_captures(_Facts(board, "-", "-")) is None, board.fen()
    assert positions > 400


@pytest.mark.slow
def test_promotion_captures_solve_keym_223():
    """Black's ...BxN, ...QxN and ...RxN survive every other filter (the legality
    pipeline says unknown); the rule leaves Qh4-g3."""
    verdict = solve(chess.Board(KEYM_223 + " w - - 0 1"), chess.BLACK, question="types", time_limit=60)
    assert [s.type for s in verdict.solutions] == ["Q-"]
    assert verdict.status == "unique"

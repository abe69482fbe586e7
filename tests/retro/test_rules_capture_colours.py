"""The rule capture-colours (retro.core.capture_colours): a promotion by capture onto a
square of one colour cannot have taken the opponent's bishop of the other colour."""

import random

import chess

from retro.core.capture_colours import capture_colours_objection, forced_capture_colours
from retro.core.rules import _sealed_squares, check_static, promoted_pieces
from tests.random_games import game_positions, play_random

# Keym (lastmove-dev2 335, type D; published: Black h2-h1=N, White O-O-O). Black's bishop
# in the pocket a2-b1 (behind White's b2, c2 at home and b3, which came from a2) promoted
# on b1 by a2xb1, a capture on a light square.
KEYM_335 = "8/8/8/8/3PPPP1/1PPrkprB/bPPR1Np1/2KR1Qnn"
BEFORE_BXN = "8/8/8/8/3PPPP1/1PPrkprB/NPPR1Np1/1bKR1Qnn b - - 0 1"  # before ...Bb1xNa2
BEFORE_PXN = "8/8/8/8/3PPPP1/1PPrkprB/bPPR1Npp/2KR1QNn b - - 0 1"  # before ...h2xNg1=N
BEFORE_PROMOTION = "8/8/8/8/3PPPP1/1PPrkprB/bPPR1Npp/2KR1Qn1 b - - 0 1"  # before ...h2-h1=N (published)


def _promoted(board, sealed):
    return {color: promoted_pieces(board, sealed, color) for color in chess.COLORS}


def test_a_light_capture_cannot_take_the_dark_bishop():
    """White is missing only its dark-squared bishop (and the knight about to be taken):
    a2xb1=B took a white unit on a light square, which cannot be that bishop."""
    for fen in (BEFORE_BXN, BEFORE_PXN):
        verdict = check_static(chess.Board(fen))
        assert verdict.rule == "capture-colours", (fen, verdict.rule, verdict.reason)
    board = chess.Board(BEFORE_BXN)
    assert forced_capture_colours(promoted_pieces(board, _sealed_squares(board)[0], chess.BLACK)) == {
        chess.BB_LIGHT_SQUARES: 1
    }


def test_no_objection_when_a_unit_fits():
    """The published line: White is missing a knight besides the dark bishop; and the
    diagram itself."""
    for fen in (BEFORE_PROMOTION, KEYM_335 + " w - - 0 1"):
        board = chess.Board(fen)
        assert capture_colours_objection(board, _promoted(board, _sealed_squares(board)[0])) is None, fen
    # White's dark bishop back on the board (on g1): the missing knight fits on b1
    board = chess.Board("8/8/8/8/3PPPP1/1PPrkprB/bPPR1Npp/2KR1QBn b - - 0 1")
    assert capture_colours_objection(board, _promoted(board, _sealed_squares(board)[0])) is None


def test_no_legal_position_of_random_games_is_refuted():
    """Soundness on legal positions where the rule's premise holds: a game in which
    Black's a-pawn promotes to a bishop by a2xb1 in the pocket behind White's b3 (from a2,
    by axb3) and b2, c2 at home, so that the bishop can only have promoted by a capture
    on a light square (tight at first: White is missing only the knight taken there),
    then random moves that rarely move White's b2, c2 and b3 pawns."""
    board = chess.Board()
    for san in "Nf3 Nc6 Ng1 Na5 Nf3 Nb3 axb3 a5 Ng1 a4 Nf3 a3 Ng1 a2 Nf3 axb1=B".split():
        board.push_san(san)
    rng = random.Random(335)
    positions = premises = 0
    for _ in range(10):
        game = play_random(
            rng,
            100,
            board.copy(),
            allow=lambda b, m: m.from_square not in (chess.B2, chess.C2, chess.B3) or rng.random() < 0.02,
        )
        for position in game_positions(game)[16:]:
            sealed = _sealed_squares(position)[0]
            positions += 1
            promoted = _promoted(position, sealed)
            premises += bool(forced_capture_colours(promoted[chess.BLACK]))
            assert capture_colours_objection(position, promoted) is None, position.fen()
    assert positions > 500 and premises > 100

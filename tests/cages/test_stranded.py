"""Stranded units (cages.stranded): a unit away from home that no retraction can move."""

import random

import chess
import pytest

from cages.stranded import stranded
from cages.verify import Reductions, verify
from retro.lastmove.solver import solve
from tests.random_games import play_random

# Frolkin (lastmove-dev2 163, type C): White's last move a7xQb8=R+. Before a7xRb8=R+ and
# a7xBb8=R+ the positions hold brk5/PRbRp3/pp1p4 and bbk5/PRbRp3/pp1p4 (cages a person
# gave Retractor, with the lemma 3b4/2p1p3): every way out for Black's c7 bishop goes
# back to d8 and then c7xb6 or c7xd6 puts Black's c-pawn home behind it.
FROLKIN = "bRk5/1RbRp3/ppKp4/8/8/8/8/8"


def _units(placement: str) -> dict[chess.Square, chess.Piece]:
    return chess.Board(placement + " w - - 0 1").piece_map()


def test_a_bishop_between_two_home_pawns_is_stranded():
    assert stranded(_units("3b4/2p1p3/8/8/8/8/8/8")) == chess.D8
    assert stranded(_units("5b2/4p1p1/8/8/8/8/8/8")) is None  # f8 is a black bishop's home
    assert stranded(_units("3b4/2p5/8/8/8/8/8/8")) is None  # e7 is empty
    assert stranded(_units("3b4/2p1p3/8/8/8/8/8/8"), frozenset()) == chess.D8
    # frozen units count as immovable (the verification's assumption)
    assert stranded(_units("8/8/8/8/8/8/8/N7")) is None
    assert stranded(_units("8/8/8/8/8/1P6/2P5/N7"), frozenset({chess.B3})) == chess.A1


def test_chains_of_immovable_units():
    # the white rook h1 is home; the knight a1 is not, and b3 is held by a pawn that can
    # only come from a2/b2/c2... which hold home pawns: so nothing there ever moves
    assert stranded(_units("8/8/8/8/8/1P6/PPP5/N7")) == chess.A1
    # a king on g1 may castle: never counted
    assert stranded(_units("8/8/8/8/8/8/5PPP/6K1")) is None


def test_the_rule_verifies_frolkins_cages_at_once():
    for placement in ("brk5/PRbRp3/pp1p4/8/8/8/8/8", "bbk5/PRbRp3/pp1p4/8/8/8/8/8"):
        board = chess.Board(placement + " w - - 0 1")
        assert verify(board, max_nodes=2_000).status == "cage"
    # the queen is not caged (the published answer): no stranded unit makes it one
    queen = chess.Board("bqk5/PRbRp3/pp1p4/8/8/8/8/8 w - - 0 1")
    assert verify(queen, max_nodes=2_000, reductions=Reductions()).status == "not_verified"


def test_no_unit_of_a_legal_game_is_stranded_away_from_home():
    rng = random.Random(56)
    for _ in range(300):
        board = play_random(rng, rng.randint(0, 160))
        assert stranded(board.piece_map()) is None, board.fen()


@pytest.mark.slow
def test_stranded_units_solve_frolkin_without_a_cage_file():
    verdict = solve(chess.Board(FROLKIN + " w - - 0 1"), chess.WHITE, question="types", time_limit=60)
    assert [s.type for s in verdict.solutions] == ["PxQ=R"]
    assert verdict.status == "unique"

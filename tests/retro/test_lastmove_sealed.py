"""Last-move problems of data/lastmove-dev.jsonl settled by the sealed-square rules of
retro.core.rules (unreachable-square: a piece that could not have got to its square;
confined-originals: an initial piece that could never leave its square, so another of
its kind is promoted), with the verified cages of data/cages.txt (the bench's known
cages) and without the legality pipeline, so each takes well under a second. Each
asserts the unique published answer: for a last-move-type problem, every surviving last
move has the published type and the other side has no possible last move at all."""

import chess
import pytest

from cages.library import Library
from retro.lastmove.solver import solve
from tests.conftest import DATA_DIR, read_jsonl

PROBLEMS = {p["board"]: p for p in read_jsonl("lastmove-dev.jsonl")}

SOLVED = [
    "8/8/8/8/8/kPP5/b1PP4/KRb5",  # Fabel: Black's c1 bishop sealed in by b2, c2, d2 before b2xc3+
    "8/8/8/8/1P6/kP6/2PP4/KBb5",
    "bRr1B3/k1pKpp2/ppp5/8/8/8/8/8",
    "K1krNB2/p1ppp1p1/5p2/8/8/8/8/8",  # White's f8 bishop sealed in by e7, f7, g7 before f7-f6
    "3B2Rb/2p1pkPK/3ppp1p/8/8/8/8/8",
    "1RK1kb2/1pRpppp1/b1p5/1p6/8/8/8/8",
    "k1KB4/PpRpp1p1/b1p2p2/1p6/8/8/8/8",  # PxB would leave a second promoted black bishop
]


@pytest.fixture(scope="module")
def known_cages():
    return Library.load(str(DATA_DIR / "cages.txt"), read_only=True)


@pytest.mark.parametrize("board", SOLVED, ids=[PROBLEMS[b]["source"][:30] for b in SOLVED])
def test_last_move_type_is_unique_and_other_side_has_none(board, known_cages):
    problem = PROBLEMS[board]
    assert problem["answer_kind"] == "last_move_type"
    side = chess.WHITE if problem["retract"] == "w" else chess.BLACK
    position = chess.Board(board + " w - - 0 1")
    verdict = solve(position, side, use_legality=False, cages=known_cages)
    assert {s.type for s in verdict.solutions} == {problem["answer"]}
    assert solve(position, not side, use_legality=False, cages=known_cages).status == "none"

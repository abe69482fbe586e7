"""The promotion-files rule (retro.core.rules.promotion_files) and the pawn-fates rules 7-9 it
relies on: the Christiaans last-move problems of data/lastmove-dev.jsonl, the positions
before their wrong last moves, and random games that never break it."""

from __future__ import annotations

import random
from collections.abc import Iterator

import chess
import pytest

from retro.core import pawn_fates, rules
from retro.core.position import parse_fen
from retro.core.rules import check_static
from retro.lastmove.solver import solve

# Christiaans, KxP (data/lastmove-dev.jsonl): White's a3 bishop is promoted (c1's bishop
# is shut in by b2 and d2 at home); with Black's e7 and g7 at home a bishop promoted on f8
# or h8 never leaves it, so it promoted on b8 or d8. White's e- to h-pawns then made 11
# captures, all leftwards: one lands on the c-file, four on d, three on e, two on f, one
# on g; Black's f8 bishop, shut in, was taken at home by a piece; the 13 black units
# missing leave one capture for White's pieces: the last move. If that took a piece,
# White's pawns took Black's a-, b- and c-pawns as pawns on files c to g (one on c), for
# at least 5 captures by Black's pawns (a promotion costs more: a1 to d1 are shut by
# White's a2 to d2), but White is missing 5 units of which the c1 bishop, taken at home,
# fell to a piece: 4. A pawn on a4 (the a-pawn) leaves 2.
CHRISTIAANS_KXP = "8/4p1p1/8/2PP4/K1kPN3/B3R3/PPPP4/8"
CHRISTIAANS_QXP = "k7/B1P1p1p1/BQ1B4/1K6/8/4B3/PPPP4/8"
CHRISTIAANS_RXP = "8/1N2p1p1/K7/1RP5/k2P4/B3B3/PPPP4/8"

# The positions before wrong last moves (a piece put back on the capture square).
BEFORE_WRONG = [
    "8/4p1p1/8/2PP4/KBkPN3/n3R3/PPPP4/8 w - - 0 1",  # Bb4xNa3
    "8/4p1p1/8/K1PP4/r1kPN3/B3R3/PPPP4/8 w - - 0 1",  # Ka5xRa4
    "8/1N2p1p1/K7/1RP5/k2P4/B3b3/PPPP1B2/8 w - - 0 1",  # Bf2xBe3 (Keym and Christiaans, RxP)
]
# The positions before the published last moves.
BEFORE_RIGHT = [
    "8/4p1p1/8/K1PP4/p1kPN3/B3R3/PPPP4/8 w - - 0 1",  # Ka5xPa4
    "8/1N2p1p1/KR6/1pP5/k2P4/B3B3/PPPP4/8 w - - 0 1",  # Rb6xPb5
]


def _status_without(fen: str, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setattr(rules, "RULES", [rule for rule in rules.RULES if rule[0] != "promotion-files"])
    status = check_static(parse_fen(fen)).status
    monkeypatch.undo()
    return status


@pytest.mark.parametrize("fen", BEFORE_WRONG)
def test_wrong_last_moves_break_promotion_files(fen: str, monkeypatch: pytest.MonkeyPatch) -> None:
    verdict = check_static(parse_fen(fen))
    assert verdict.status == "illegal" and verdict.rule == "promotion-files", verdict
    assert _status_without(fen, monkeypatch) == "unknown"


@pytest.mark.parametrize("fen", BEFORE_RIGHT)
def test_published_last_moves_pass(fen: str) -> None:
    assert check_static(parse_fen(fen)).status == "unknown"


_ORIGINAL_CAPTURE_FILES = pawn_fates._capture_files
_WEAKENED = {
    # rule 7: pawns may promote behind three home pawns of the opponent
    "_shut_promotion_squares": lambda *args: None,
    # rule 8: promoted pieces may come from any promotion file of their colour
    "_promotion_file_facts": lambda *args: None,
    # rule 9: the c1 and f8 bishops taken at home count as captures that may have taken a pawn
    "_capture_files": lambda *args: _ORIGINAL_CAPTURE_FILES(*args[:6]),
}


@pytest.mark.parametrize("part", sorted(_WEAKENED))
def test_each_new_fates_rule_is_needed(part: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without any one of rules 7-9 of the pawn fates, the position before Bb4xNa3 has fates."""
    monkeypatch.setattr(pawn_fates, part, _WEAKENED[part])
    pawn_fates._feasible.cache_clear()
    try:
        assert check_static(parse_fen(BEFORE_WRONG[0])).status == "unknown"
    finally:
        monkeypatch.undo()
        pawn_fates._feasible.cache_clear()


@pytest.mark.parametrize(("board", "answer"), [(CHRISTIAANS_KXP, "KxP"), (CHRISTIAANS_RXP, "RxP")])
def test_christiaans_solved_by_the_cheap_filters(board: str, answer: str) -> None:
    verdict = solve(chess.Board(board + " w - - 0 1"), chess.WHITE, use_legality=False, auto_cages=False)
    assert {s.type for s in verdict.solutions} == {answer}


@pytest.mark.slow
def test_christiaans_qxp_solved_by_the_cheap_filters() -> None:
    verdict = solve(chess.Board(CHRISTIAANS_QXP + " w - - 0 1"), chess.WHITE, use_legality=False, auto_cages=False)
    assert {s.type for s in verdict.solutions} == {"QxP"}


def _biased_games(seed: int, games: int) -> Iterator[chess.Board]:
    """Positions of random games that keep two to four pawns of each side at home (so
    pieces are shut in), push and capture with pawns, seldom capture with pieces (so the
    capture budgets stay tight) and promote, often to bishops (so promoted pieces are
    proven)."""
    rng = random.Random(seed)
    for _ in range(games):
        board = chess.Board()
        frozen = {color: set(rng.sample(range(8), rng.randint(2, 4))) for color in chess.COLORS}
        for _ in range(rng.randint(40, 200)):
            moves = [
                m
                for m in board.legal_moves
                if not (
                    board.piece_type_at(m.from_square) == chess.PAWN
                    and chess.square_file(m.from_square) in frozen[board.turn]
                    and chess.square_rank(m.from_square) in (1, 6)
                )
                and (not board.is_capture(m) or board.piece_type_at(m.from_square) == chess.PAWN or rng.random() < 0.1)
            ]
            if not moves:
                break
            promotions = [m for m in moves if m.promotion]
            pawn_moves = [m for m in moves if board.piece_type_at(m.from_square) == chess.PAWN]
            pick = rng.random()
            move = rng.choice(
                promotions if promotions and pick < 0.8 else pawn_moves if pawn_moves and pick < 0.7 else moves
            )
            if move.promotion:
                kind = rng.choice([chess.QUEEN, chess.ROOK, chess.BISHOP, chess.BISHOP, chess.KNIGHT])
                move = chess.Move(move.from_square, move.to_square, kind)
            board.push(move)
            yield board.copy(stack=False)


@pytest.mark.parametrize(
    "seed", [11, pytest.param(12, marks=pytest.mark.slow), pytest.param(13, marks=pytest.mark.slow)]
)
def test_random_games_never_break_promotion_files(seed: int) -> None:
    exercised = 0
    for board in _biased_games(seed, 15):
        sealed, _ = rules._sealed_squares(board)
        promoted = {color: rules._forced_excess(board, sealed, color) for color in chess.COLORS}
        if any(rules._promotion_file_facts(board, sealed, color, promoted[color]) for color in chess.COLORS):
            exercised += 1
            assert rules.promotion_files(rules._Facts(board, "-", "-")) is None, board.fen()
    assert exercised >= 100  # the rule had facts to work with

"""The promotion march (retro.unwinnable.promotion) and resumed scouts (routines)."""

from __future__ import annotations

import chess

from retro.unwinnable import analyze
from retro.unwinnable.closure import closure_search
from retro.unwinnable.fastboard import from_board
from retro.unwinnable.march import KingMarch, march_targets
from retro.unwinnable.promotion import PromotionMarch, PromotionSearch, promotion_costs, promotion_march
from retro.unwinnable.routines import MARCH_FIRST_NODES
from tests.retro.test_unwinnable_march import _mates

W, B = chess.WHITE, chess.BLACK

# Dev set, Black to win; undetermined at 200,000 nodes before the promotion march. White's
# light-squared bishops and the rammed pawns lock every pawn and Black has only its king,
# so with the pawns where they stand there is no mate (no pattern for the king march).
# Black's king walks up and takes a6, and the a-pawn promotes.
LOCKED = "B1B1B3/pBpBpBp1/P1P1P1P1/8/8/8/8/k1K5 w - -"
# Dev set, Black to win; undetermined at 200,000 nodes before. Black's c-pawn is rammed on
# c3; it must take a white piece on b2 or d2 and promote (no pattern either).
RAMMED = "8/1k5B/7b/8/1p1p1p1p/1PpP1P1P/2P3KN/N3b3 b - -"
# Dev set, White to win; at the default budget the full routine met the mate by the closure
# search after 229,342 nodes. After Qxb7+ Kxb7 White's pawns are rammed; Black's bishop must
# come to b5, where the pawn from a3 (via a4) takes it and opens the a-file. The promotion
# march meets the mate in 156 positions when it counts the offered bishop, and needed about
# 95,000 when it did not (the bishop on b5 scored like a bishop anywhere).
OFFERED = "knQ5/1q1p4/p1pPp3/P1P1Pp2/1K3Pp1/PbB3P1/8/8 w - -"


def _pawns(board: chess.Board, color: chess.Color) -> int:
    return board.pawns & board.occupied_co[color]


def test_promotion_costs_count_steps_and_pawns_to_clear() -> None:
    # An open file: a pawn on e2 needs 6 steps (the double step is not counted apart).
    board = chess.Board("4k3/8/8/8/8/8/4P3/4K3 w - -")
    assert promotion_costs(_pawns(board, W), _pawns(board, B), True) == 6
    # Rammed on e4/e5: the step onto e5 costs 1 + 3 (the pawn there must be taken), or
    # the pawn takes on d5/f5, 1 + 3 (a unit must come there), then 3 steps.
    board = chess.Board("4k3/8/8/4p3/4P3/8/8/4K3 w - -")
    assert promotion_costs(_pawns(board, W), _pawns(board, B), True) == 4 + 3
    # A black pawn on d5 to take: 1, then d6, d7, d8.
    board = chess.Board("4k3/8/8/3pp3/4P3/8/8/4K3 w - -")
    assert promotion_costs(_pawns(board, W), _pawns(board, B), True) == 4
    # For Black: e5 is rammed (4 + 3), but d5 runs free to d1 in 4 steps.
    assert promotion_costs(_pawns(board, B), _pawns(board, W), False) == 4
    board = chess.Board("4k3/8/8/4p3/4P3/8/8/4K3 w - -")
    assert promotion_costs(_pawns(board, B), _pawns(board, W), False) == 4 + 3
    assert promotion_costs(0, _pawns(board, B), True) > 50


def test_an_offered_piece_lowers_the_promotion_cost() -> None:
    # The white pawn on a4 is rammed by a5: 1 + 3 + 3 to a8 (or to take on b5, 1 + 3, then
    # b6, b7, b8). With a black bishop on b5 the capture costs 1, then 3 steps: 4.
    for fen, cost in (("k7/8/8/p7/P7/8/8/K7 w - -", 7), ("k7/8/8/pb6/P7/8/8/K7 w - -", 4)):
        state = from_board(chess.Board(fen))
        # 4: the white king's distance from a1 to a5, the black pawn in front of a4.
        assert PromotionSearch(state, W)._score(state) == 8 * cost + 4


def test_the_promotion_march_takes_an_offered_piece() -> None:
    state = from_board(chess.Board(OFFERED))
    found, line, nodes = promotion_march(state, W, 1_000)
    assert found and _mates(OFFERED, line, W)


def test_the_promotion_march_finds_mates_the_king_march_cannot() -> None:
    for fen, bound in ((LOCKED, 5_000), (RAMMED, 10_000)):
        state = from_board(chess.Board(fen))
        assert march_targets(chess.Board(fen), B) == []  # the king march has no pattern
        found, line, nodes = promotion_march(state, B, bound)
        assert found and nodes <= bound and _mates(fen, line, B)
        # The closure search of the whole game does not meet a mate in as many positions.
        assert not closure_search(state, B, bound)[0]


def test_no_promotion_march_without_a_pawn() -> None:
    state = from_board(chess.Board("8/8/8/3k4/8/8/2B5/K1B5 w - -"))
    assert promotion_march(state, W, 10_000) == (False, [], 0)


def test_a_king_march_resumes_where_it_stopped() -> None:
    # Dev set, Black to win: the king march needs about 48,000 positions here, more than
    # its first share (MARCH_FIRST_NODES). The full routine gives it more at each later
    # closure step, and it goes on where it stopped: 20,000 then 30,000 positions find the
    # mate, which 30,000 from the start do not.
    fen = "b1B5/k7/Q6r/1p1pBp1p/1P1P1P1P/KP6/1P6/8 b - -"
    state = from_board(chess.Board(fen))
    march = KingMarch(state, B)
    assert march.run(MARCH_FIRST_NODES) == (False, [], MARCH_FIRST_NODES)
    found, line, nodes = march.run(30_000)
    assert found and nodes <= 30_000 and _mates(fen, line, B)
    assert not KingMarch(state, B).run(30_000)[0]


def test_a_promotion_march_resumes_where_it_stopped() -> None:
    # About 6,700 positions find the mate: 3,000 then 5,000 do, 5,000 from the start do not.
    state = from_board(chess.Board(RAMMED))
    march = PromotionMarch(state, B)
    first = march.run(3_000)
    assert not first[0] and first[2] <= 3_000
    found, line, nodes = march.run(5_000)
    assert found and nodes <= 5_000 and _mates(RAMMED, line, B)
    assert not PromotionMarch(state, B).run(5_000)[0]


def test_full_routine_decides_the_locked_pawns_by_the_promotion_march() -> None:
    # Before the promotion march the full routine needed 427,000 positions here (the
    # Find-Helpmate iterations), and the rammed c-pawn query 615,000 (the closure search).
    fast = analyze(chess.Board(LOCKED), B, compiled=False)
    assert (fast.status, fast.reason) == ("winnable", "promotion march") and fast.nodes < 100_000
    # The scouts run outside the compiled core: the three paths agree, node for node.
    for other in (analyze(chess.Board(LOCKED), B, reference=True), analyze(chess.Board(LOCKED), B, compiled=True)):
        assert (other.status, other.line, other.nodes) == (fast.status, fast.line, fast.nodes)
    rammed = analyze(chess.Board(RAMMED), B)
    assert (rammed.status, rammed.reason) == ("winnable", "promotion march") and rammed.nodes < 100_000

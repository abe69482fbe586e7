"""Stalemating entries (retro.unwinnable.stalemate): the mobility fixpoint without the king
and knight moves that stalemate, and the semi-static check on it."""

from __future__ import annotations

import json
import random
from pathlib import Path

import chess
from hypothesis import given, settings
from hypothesis import strategies as st

from retro.unwinnable import analyze
from retro.unwinnable.closure import closure_search
from retro.unwinnable.fastboard import from_board
from retro.unwinnable.mobility import Mobility
from retro.unwinnable.stalemate import _Facts, certified_stalemating, stalemate_mobility, unwinnable_without_stalemates
from retro.unwinnable.static import static_applicable, unwinnable_static

W, B = chess.WHITE, chess.BLACK
DATA = Path(__file__).resolve().parents[2] / "data"

# Dev set, dead (Ambrona's Position 14 with four black bishops): the white king shuttles
# h3-h4 behind the locked pawns; Black's king takes g2, or steps to h2 or g5, only when that
# stalemates White. The plain fixpoint lets it take g2 and every region becomes the board.
FOUR_BISHOPS = "8/b1b5/k6p/2b2p1P/1b3p2/5PpK/6P1/8 w - -"
# Dev set, dead: the same lock with the black king on c4 and Black to move.
FOUR_BISHOPS_B = "8/8/7p/2b2p1P/1bkb1p1K/2b2Pp1/6P1/8 b - -"
# Dev set, White cannot win: White is in check and 1. Qxb7+ Kxb7 is forced; after it the
# white bishops are shut below the pawn chain and no white unit can ever give check.
FORCED_QUEENS = "knQ5/1q1p4/p1pPp3/P1P1Pp2/1K3Pp1/BbB3P1/8/8 w - -"
# Ambrona's Position 14 (dead), the black king near the lock.
POSITION_14 = "8/8/7p/5p1P/5p1K/5Pp1/6P1/1k6 w - -"


def _index(mob: Mobility, square: str) -> int:
    return next(i for i, (sq, _, _) in enumerate(mob.pieces) if sq == chess.parse_square(square))


def _squares(mask: int) -> set[str]:
    return {chess.square_name(s) for s in chess.SquareSet(mask)}


def test_the_lock_holds_once_stalemates_are_excluded() -> None:
    board = chess.Board(FOUR_BISHOPS)
    mob = stalemate_mobility(board)
    assert _squares(mob.region[_index(mob, "h3")]) == {"h3", "h4"}
    for pawn in ("g2", "f3", "h5", "g3", "f4", "f5", "h6"):
        assert not mob.cleared[_index(mob, pawn)], pawn
    black_king = mob.region[_index(mob, "a6")]
    assert not black_king & (chess.BB_G2 | chess.BB_H2 | chess.BB_G5 | chess.BB_H4)


def test_certified_entries() -> None:
    # Kxg2 (White's king on h4: on h3 it guards g2) and Kh2 leave White without a move.
    board = chess.Board(POSITION_14)
    mob = stalemate_mobility(board)
    facts = _Facts(mob)
    king = _index(mob, "b1")
    assert certified_stalemating(facts, king, chess.G2)
    assert certified_stalemating(facts, king, chess.H2)
    # Kf2 stalemates nothing.
    assert not certified_stalemating(facts, king, chess.F2)
    # With a white knight on a1 White always has a move: no entry of Black is certified.
    board = chess.Board("8/8/7p/5p1P/5p1K/5Pp1/6P1/Nk6 w - -")
    mob = stalemate_mobility(board)
    assert not certified_stalemating(_Facts(mob), _index(mob, "b1"), chess.G2)
    assert mob.cleared[_index(mob, "g2")]


def test_a_discovered_check_is_not_a_stalemate() -> None:
    # Constructed: Position 14's lock with Black's king on h2 and a rook behind it on h1.
    # 1... Kxg2 leaves White without a move, but it uncovers the rook's check: mate.
    # Condition (d) refuses the entry (removing it would certify Kxg2).
    board = chess.Board("8/8/7p/5p1P/5p1K/5Pp1/6Pk/7r b - -")
    mob = stalemate_mobility(board)
    assert not certified_stalemating(_Facts(mob), _index(mob, "h2"), chess.G2)
    assert not unwinnable_without_stalemates(board, B)
    assert analyze(board, B).line == ("h2g2",)


def test_a_mobile_unit_keeps_the_lock_breakable() -> None:
    # Constructed: Position 14 with a white rook on a3. White always has rook moves, so
    # no entry of Black stalemates; Black takes g2 and both sides can mate.
    board = chess.Board("8/8/7p/5p1P/5p1K/R4Pp1/6P1/1k6 w - -")
    for winner in (W, B):
        assert not unwinnable_without_stalemates(board, winner)
        assert analyze(board, winner).status == "winnable"


def test_the_rule_decides_the_locked_bishop_positions() -> None:
    # Removing the rule: the plain check answers nothing, and the closure search cannot
    # exhaust the bishops' placements (these queries were undetermined at 1,000,000 nodes).
    for fen in (FOUR_BISHOPS, FOUR_BISHOPS_B):
        board = chess.Board(fen)
        for winner in (W, B):
            assert not unwinnable_static(board, winner)
            assert unwinnable_without_stalemates(board, winner)
            verdict = analyze(board, winner, max_nodes=100_000)
            assert (verdict.status, verdict.reason) == ("unwinnable", "semi-static without stalemates")


def test_the_check_runs_after_the_forced_moves() -> None:
    board = chess.Board(FORCED_QUEENS)
    assert not unwinnable_without_stalemates(board, W)  # the queens make every region large
    after = board.copy()
    after.push_san("Qxb7+")
    after.push_san("Kxb7")
    assert unwinnable_without_stalemates(after, W)
    verdict = analyze(board, W, max_nodes=100_000)
    assert (verdict.status, verdict.reason) == ("unwinnable", "semi-static without stalemates")


def test_never_contradicts_the_dev_labels() -> None:
    rows = [json.loads(line) for line in open(DATA / "unwinnability-dev.jsonl", encoding="utf-8") if line.strip()]
    answered = 0
    for row in rows:
        board = chess.Board(row["fen"])
        if not static_applicable(board):
            continue
        mob = stalemate_mobility(board)
        for winner, key in ((W, "white_can_win"), (B, "black_can_win")):
            if unwinnable_static(board, winner, mob):
                answered += 1
                assert not row[key], (row["fen"], winner)
    assert answered >= 440  # the plain check answers 379 of these queries


def _tracked_walk(board: chess.Board, rng: random.Random, plies: int) -> None:
    """Random legal moves from ``board``: every position reached without a stalemating
    move has each unit inside its region of F(T) and every fixed unit on its square; a
    move that leaves F(T) must stalemate."""
    mob = stalemate_mobility(board)
    region = {square: mask for (square, _, _), mask in zip(mob.pieces, mob.region, strict=True)}
    fixed = {square for (square, _, _), cleared in zip(mob.pieces, mob.cleared, strict=True) if not cleared}
    where: dict[int, int | None] = {square: square for square in region}
    board = board.copy(stack=False)
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            return
        move = rng.choice(moves)
        taken = move.to_square
        if board.is_en_passant(move):
            taken = move.to_square - 8 if board.turn == W else move.to_square + 8
        for start, square in where.items():
            if square == taken:
                where[start] = None
        for start, square in where.items():
            if square == move.from_square:
                where[start] = move.to_square
        board.push(move)
        outside = [
            start
            for start, square in where.items()
            if (square is None and start in fixed)
            or (square is not None and (not region[start] >> square & 1 or (start in fixed and square != start)))
        ]
        if outside:
            assert board.is_stalemate(), (board.fen(), [chess.square_name(s) for s in outside])
            return


LOCKS = [
    POSITION_14,
    "8/8/7p/5p1P/5p1K/5Pp1/6P1/5k2 b - -",
    "8/8/7p/5p1P/5p1K/5Pp1/6P1/5kb1 b - -",
    "8/8/7p/5p1P/5p2/5PpK/6P1/4kb2 w - -",
    FOUR_BISHOPS,
    "1k6/b1b5/7p/5p1P/5p2/5PpK/6P1/8 w - -",
    "8/1p6/kPp5/2P5/1pP5/1P6/8/7K w - -",
    "k7/8/8/8/8/1p1p4/1PpP4/KbB5 w - -",
]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(LOCKS), st.integers(0, 2**32 - 1))
def test_every_reachable_position_stays_in_the_regions(fen: str, seed: int) -> None:
    _tracked_walk(chess.Board(fen), random.Random(seed), 150)


def _mutated(rng: random.Random, fen: str) -> chess.Board:
    """The position with one to three units moved to random empty squares."""
    board = chess.Board(fen)
    for _ in range(rng.randint(1, 3)):
        square = rng.choice(list(chess.SquareSet(board.occupied)))
        piece = board.remove_piece_at(square)
        assert piece is not None
        board.set_piece_at(rng.choice([s for s in chess.SQUARES if not board.piece_at(s)]), piece)
    board.turn = rng.random() < 0.5
    return board


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_never_fires_where_a_helpmate_is_found(seed: int) -> None:
    # Blocked positions (the locks above) with units moved: wherever the rule claims a
    # position unwinnable that the plain check does not, a closure search of 10,000
    # positions finds no mate.
    rng = random.Random(seed)
    for _ in range(20):
        board = _mutated(rng, rng.choice(LOCKS))
        if not board.is_valid() or board.is_game_over() or not static_applicable(board):
            continue
        for winner in (W, B):
            if unwinnable_without_stalemates(board, winner) and not unwinnable_static(board, winner):
                found, line, _, _ = closure_search(from_board(board), winner, 10_000)
                assert not found, (board.fen(), winner, line)

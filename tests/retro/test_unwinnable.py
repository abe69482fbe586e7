"""Tests of retro.unwinnable on the paper's positions (Ambrona, FUN 2022; boards decoded in
/work/shared/papers/README.md), the CHA dev labels, and random play."""

from __future__ import annotations

import random

import chess
import pytest

from retro.unwinnable import analyze, is_dead
from retro.unwinnable.material import insufficient_material
from retro.unwinnable.static import unwinnable_static
from tests.conftest import read_jsonl

W, B = chess.WHITE, chess.BLACK

# (FEN, winner, expected) as stated in the paper / README table.
PAPER = [
    ("8/1p3k2/pPp3p1/P1Pp1pPp/2bP1P1P/4BK2/8/8 w - -", W, "unwinnable"),  # Position 1
    ("8/1p3k2/pPp3p1/P1Pp1pPp/2bP1P1P/4BK2/8/8 b - -", B, "unwinnable"),
    ("Bb1k1b2/bKp1p1p1/1pP1P1P1/1P6/p5P1/P7/8/8 w - -", W, "unwinnable"),  # Position 2
    ("Bb1k1b2/bKp1p1p1/1pP1P1P1/1P6/p5P1/P7/8/8 w - -", B, "unwinnable"),
    ("8/8/1p6/1B2k3/5pK1/8/8/8 b - -", W, "winnable"),  # Position 3
    ("8/8/1p6/1B2k3/5pK1/8/8/8 b - -", B, "winnable"),
    ("8/5k1K/7P/5n2/8/8/8/8 w - -", B, "winnable"),  # Position 4
    ("8/5k1K/7P/5n2/8/8/8/8 w - -", W, "winnable"),
    ("8/8/7p/5p1P/5p1K/5Pp1/6P1/5kb1 w - -", W, "unwinnable"),  # Position 12
    ("8/8/7p/5p1P/5p1K/5Pp1/6P1/5kb1 w - -", B, "unwinnable"),
    ("8/8/7p/5p1P/5p1K/5Pp1/6P1/1k6 w - -", W, "unwinnable"),  # Position 14
    ("8/8/7p/5p1P/5p1K/5Pp1/6P1/1k6 w - -", B, "unwinnable"),
    ("5r1k/6P1/7K/5q2/8/8/8/8 b - -", W, "unwinnable"),  # Position 15
    ("5r1k/6P1/7K/5q2/8/8/8/8 b - -", B, "winnable"),
    ("8/4P2p/1p6/3Q1P2/2p3B1/Pk6/1P6/1K3r2 w - -", W, "winnable"),  # Position 16
    ("8/4P2p/1p6/3Q1P2/2p3B1/Pk6/1P6/1K3r2 w - -", B, "unwinnable"),
    ("8/8/p7/PP6/K7/1R6/1R6/k7 b - -", W, "unwinnable"),  # Position 17
    ("8/8/p7/PP6/K7/1R6/1R6/k7 b - -", B, "unwinnable"),
    ("8/8/p7/PP6/K7/1R6/1R6/k7 w - -", W, "winnable"),
    ("k1bK4/1p1p4/1P1Pp3/1p2Pp2/1p3P2/1P3P2/5P2/8 w - -", W, "winnable"),  # Position 19
    ("k1bK4/1p1p4/1P1Pp3/1p2Pp2/1p3P2/1P3P2/5P2/8 w - -", B, "winnable"),
    ("8/8/1Pp5/p7/P1p5/PpPp4/brpP4/kbK5 b - -", W, "unwinnable"),  # Position 20
    ("8/8/1Pp5/p7/P1p5/PpPp4/brpP4/kbK5 b - -", B, "unwinnable"),
]


def _check_line(fen: str, winner: chess.Color, line: tuple[str, ...]) -> None:
    board = chess.Board(fen)
    for uci in line:
        move = chess.Move.from_uci(uci)
        assert move in board.legal_moves
        board.push(move)
    assert board.is_checkmate() and board.turn != winner


@pytest.mark.parametrize("fen,winner,expected", PAPER)
def test_paper_positions_full(fen: str, winner: chess.Color, expected: str) -> None:
    verdict = analyze(chess.Board(fen), winner, max_nodes=300_000)
    assert verdict.status == expected
    if expected == "winnable":
        _check_line(fen, winner, verdict.line)


@pytest.mark.parametrize("fen,winner,expected", PAPER)
def test_paper_positions_quick_never_contradicts(fen: str, winner: chess.Color, expected: str) -> None:
    verdict = analyze(chess.Board(fen), winner, quick=True)
    assert verdict.status in (expected, "undetermined")


def test_position_1_is_dead_by_the_static_check() -> None:
    board = chess.Board("8/1p3k2/pPp3p1/P1Pp1pPp/2bP1P1P/4BK2/8/8 w - -")
    assert unwinnable_static(board, W) and unwinnable_static(board, B)
    assert is_dead(board, quick=True).status == "dead"


def test_static_refuses_en_passant() -> None:
    # Position from the dev set with an e3 en-passant square: the static check must not answer.
    board = chess.Board("4k3/8/8/p1p1p3/P1P1Pp1p/1B3P1P/8/4K3 b - e3")
    assert not unwinnable_static(board, W)


def test_material_lemmas() -> None:
    assert insufficient_material(chess.Board("8/8/8/8/8/2k5/8/K1N4q w - -"), W)  # Lemma 5: N vs Q
    assert not insufficient_material(chess.Board("8/8/8/8/8/2k5/8/K1N4r w - -"), W)  # rook can block
    assert insufficient_material(chess.Board("8/8/8/8/8/2k5/8/K1B2B1q w - -"), W) is False  # c1,f1 differ
    assert insufficient_material(chess.Board("8/8/8/8/8/2k5/8/K1B3Bq w - -"), W)  # Lemma 6: c1, g1 both dark


def test_dev_sample_no_contradiction() -> None:
    rows = read_jsonl("unwinnability-dev.jsonl")
    sample = random.Random(5).sample(rows, 60)
    for row in sample:
        board = chess.Board(row["fen"])
        for winner, key in ((W, "white_can_win"), (B, "black_can_win")):
            for quick in (True, False):
                verdict = analyze(board, winner, quick=quick, max_nodes=20_000)
                if verdict.status != "undetermined":
                    assert (verdict.status == "winnable") == row[key], (row["fen"], key, quick)
                if verdict.status == "winnable":
                    _check_line(row["fen"], winner, verdict.line)


def _has_mate_within(board: chess.Board, winner: chess.Color, depth: int) -> bool:
    if board.is_checkmate():
        return board.turn != winner
    if depth == 0:
        return False
    for move in list(board.legal_moves):
        board.push(move)
        found = _has_mate_within(board, winner, depth - 1)
        board.pop()
        if found:
            return True
    return False


def test_property_random_play_never_unwinnable_with_shallow_mate() -> None:
    rng = random.Random(12345)
    checked = 0
    for _ in range(200):
        board = chess.Board("4k3/8/8/8/8/8/8/R3K2R w - - 0 1") if rng.random() < 0.3 else chess.Board()
        # Remove material at random to get endgames with short trees.
        for square in list(chess.SquareSet(board.occupied & ~board.kings)):
            if rng.random() < 0.8:
                board.remove_piece_at(square)
        board.castling_rights = 0
        if not board.is_valid():
            continue
        for _ in range(rng.randrange(0, 12)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if board.is_game_over():
            continue
        for winner in (W, B):
            verdict = analyze(board, winner, quick=True)
            if _has_mate_within(board.copy(), winner, 3):
                assert verdict.status != "unwinnable", board.fen()
                checked += 1
    assert checked >= 1

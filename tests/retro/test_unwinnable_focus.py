"""The scout of the closure search: the moves of the active units (retro.unwinnable.focus)."""

from __future__ import annotations

import chess

from retro.unwinnable import analyze
from retro.unwinnable.closure import closure_search, focused_search
from retro.unwinnable.fastboard import from_board, to_move
from retro.unwinnable.focus import active_units

W, B = chess.WHITE, chess.BLACK

# Dev set, White wins (formerly undetermined at 1,000,000 nodes): the chain a4-g5 shuts
# White's king, the bishops b1 and f3 and Black's bishop d4 below it; the mate is Black's
# king on a8 between its bishops on a7 and b8 with White's bishop checking from d5.
CHAIN = "3k4/4b3/3b4/p1pBp1p1/P1PbP1P1/5B2/8/1B1K4 b - -"


def _squares(mask: int) -> set[str]:
    return {chess.square_name(s) for s in chess.SquareSet(mask)}


def test_active_units_are_those_above_the_chain() -> None:
    active = _squares(active_units(chess.Board(CHAIN), W))
    assert {"d8", "e7", "d6", "d5"} <= active
    assert not active & {"d1", "b1", "f3", "d4"}
    # Castling rights: no mobility fixpoint, every unit is active.
    board = chess.Board("4k3/8/8/p1p1p1p1/P1P1P1P1/8/8/4K2R w K -")
    assert active_units(board, W) == board.occupied


def test_the_scout_finds_the_long_helpmate() -> None:
    # Removing the restriction: the closure search of the whole game does not meet the
    # mate within the same 50,000 positions (it needs 1.7 million).
    state = from_board(chess.Board(CHAIN))
    found, line, nodes = focused_search(state, W, 50_000)
    assert found and nodes <= 50_000
    board = chess.Board(CHAIN)
    for move in line:
        board.push(to_move(move))
    assert board.is_checkmate() and board.turn == B
    assert not closure_search(state, W, 50_000)[0]
    verdict = analyze(chess.Board(CHAIN), W)
    assert (verdict.status, verdict.reason) == ("winnable", "focused closure search")


def test_no_scout_when_every_unit_is_active() -> None:
    assert focused_search(from_board(chess.Board()), W, 1_000) == (False, [], 0)

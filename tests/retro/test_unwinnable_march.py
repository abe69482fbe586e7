"""The king march (retro.unwinnable.march): mating patterns chosen first, kings routed to them."""

from __future__ import annotations

import chess
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from retro.unwinnable import analyze
from retro.unwinnable.closure import closure_search, focused_search
from retro.unwinnable.fastboard import from_board, to_move
from retro.unwinnable.march import MarchSearch, _dilate, king_route_length, march_search, march_targets

W, B = chess.WHITE, chess.BLACK

# Dev set, White wins (the last query undetermined at 1,000,000 nodes before the march).
# Black's king is boxed on b8 by White's light-squared bishops; the mate is Black's king on
# h1, its bishop on h2, White's king on f1 and a bishop checking on the long diagonal.
BOXED = "BkB5/pBp5/P1P5/4b3/8/8/8/5K2 w - -"


def _mates(fen: str, line: list[int], winner: chess.Color) -> bool:
    board = chess.Board(fen)
    for move in line:
        move_obj = to_move(move)
        assert move_obj in board.legal_moves
        board.push(move_obj)
    return board.is_checkmate() and board.turn != winner


def test_targets_name_the_corner_mate() -> None:
    pairs = [(target, king) for _, target, king in march_targets(chess.Board(BOXED), W)]
    assert (chess.H1, chess.F1) in pairs
    # b8 is dark: White's light-squared bishops can never check there; b7 is guarded by
    # White's pawns, which stay where they are.
    assert all(target not in (chess.B8, chess.B7) for target, _ in pairs)
    # Black's bishop cannot reach b8 past its pawns on a7 and c7, so a mate on a8 needs
    # White's king on c8.
    assert (chess.A8, None) not in pairs and (chess.A8, chess.C8) in pairs


@settings(max_examples=300, deadline=None)
@given(st.integers(0, chess.BB_ALL))
def test_dilate_by_shifts_is_one_king_step(mask: int) -> None:
    # The route searches grow their layers by shifts; no step may wrap around a board edge.
    expected = mask
    for square in chess.SquareSet(mask):
        expected |= chess.BB_KING_ATTACKS[square]
    assert _dilate(mask) == expected


def test_route_length_counts_squares_to_clear() -> None:
    # Black's king leaves b8 only over c8, where White's bishop stands guarded from b7
    # (3), then 8 free steps (c8-d8-e7-f6-g5-h4-h3-h2-h1; b7 and d7 are walls: White's
    # pawns attack them). With the bishops on b7 and c8 gone, c8 costs 1.
    assert king_route_length(from_board(chess.Board(BOXED)), False, chess.H1) == 11
    unguarded = from_board(chess.Board("Bk6/p1p5/P1P5/4b3/8/8/8/5K2 w - -"))
    assert king_route_length(unguarded, False, chess.H1) == 9
    # The enemy king's square is a wall; the king's own square is 0.
    assert king_route_length(unguarded, False, chess.F1) == 60
    assert king_route_length(unguarded, True, chess.F1) == 0


def test_the_march_finds_the_long_helpmate() -> None:
    state = from_board(chess.Board(BOXED))
    found, line, nodes = march_search(state, W, 50_000)
    assert found and nodes <= 50_000 and _mates(BOXED, line, W)
    # Without the march: neither the closure search of the whole game nor the focused
    # scout meets a mate within the same number of positions.
    assert not closure_search(state, W, 50_000)[0]
    assert not focused_search(state, W, 50_000)[0]


@pytest.mark.slow
def test_full_routine_decides_the_boxed_king_by_the_march() -> None:
    fast = analyze(chess.Board(BOXED), W, compiled=False)
    assert (fast.status, fast.reason) == ("winnable", "king march")
    # The march runs outside the compiled core: the three paths agree, node for node.
    for other in (analyze(chess.Board(BOXED), W, reference=True), analyze(chess.Board(BOXED), W, compiled=True)):
        assert (other.status, other.line, other.nodes) == (fast.status, fast.line, fast.nodes)


def test_the_march_also_routes_to_a_near_pattern() -> None:
    # Dev set, White to win: Black's king on a8 is mated where it stands (pattern 0 king
    # steps), but White's pieces must first be untangled behind the pawn chain. The march
    # meets the mate where the closure search, in the same number of positions, does not
    # (it needed about 200,000 positions in the full routine).
    fen = "k7/1b6/b1b5/1b6/p1p5/PpPp4/RP1P4/QNBK4 w - -"
    assert march_targets(chess.Board(fen), W)[0] == (0, chess.A8, None)
    state = from_board(chess.Board(fen))
    found, line, nodes = march_search(state, W, 10_000)
    assert found and _mates(fen, line, W)
    assert not closure_search(state, W, nodes)[0]


def test_no_march_without_a_pattern() -> None:
    # Dev set, White to win: only kings and pawns, and no pawn can mate where the pawns
    # stand (White's mates need pawn moves), so there is no pattern and the march spends
    # nothing.
    fen = "8/3p1p1p/8/1p6/1P6/KP6/PP1P1P1P/1k6 w - -"
    assert march_targets(chess.Board(fen), W) == []
    assert march_search(from_board(chess.Board(fen)), W, 10_000) == (False, [], 0)


def test_the_march_ends_when_no_search_fits_the_budget_left(monkeypatch: pytest.MonkeyPatch) -> None:
    # Dev set, Black to win (a closure search finds the mate later). Its two patterns need 6
    # and 15 king steps, and with 20,000 positions the searches come to positions with more
    # children than the budget left (2 positions): a call then enters nothing. Such a
    # search is dropped instead of being called again for ever.
    state = from_board(chess.Board("k1b5/1p1pK3/1P1P4/8/8/8/bB6/8 b - -"))
    calls: list[int] = []
    run = MarchSearch.run

    def counted(self: MarchSearch, node_bound: int) -> tuple[bool, list[int], bool, int]:
        calls.append(node_bound)
        assert len(calls) < 100, "the march keeps calling searches that enter nothing"
        return run(self, node_bound)

    monkeypatch.setattr(MarchSearch, "run", counted)
    found, _, nodes = march_search(state, B, 20_000)
    assert not found and 19_000 < nodes <= 20_000
    assert len(calls) <= 2 * 6  # at most a few rounds of the two searches

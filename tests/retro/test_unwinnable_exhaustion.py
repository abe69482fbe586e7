"""Move exhaustion (retro.unwinnable.exhaustion): a side whose only moves are a finite
supply of pawn advances runs out before any pawn can promote; the closure search cuts the
positions where that is proved."""

from __future__ import annotations

import json
import random
from pathlib import Path

import chess
import pytest

from retro.unwinnable import closure as closure_module
from retro.unwinnable.closure import ClosureSearch, closure_search
from retro.unwinnable.exhaustion import exhaustion, promotion_free_mobility
from retro.unwinnable.fastboard import FAST, State, from_board

W, B = chess.WHITE, chess.BLACK
DATA = Path(__file__).resolve().parents[2] / "data"

# Dev set, Black cannot win (a variant of Ambrona's Position 13): the black king is locked
# on b8 by b7/b6 and the bishop a6, which nothing can ever free before a promotion; Black's
# only moves are the d-, f- and h-pawns (12 advances), and White must take one of them with
# its king before a white pawn can promote.
POSITION_13_VARIANT = "1k6/1P1p1p1p/BP6/1P6/8/8/3P1PKP/8 w - -"
# Dev set, Black cannot win: White's king on a3 is walled in by its own pawns and b5, so
# White's only moves are the d-, f- and h-pawns (9 advances); Black must take one of them
# with its king and run the pawn behind it down the board before White runs out.
WALLED_KING = "k7/8/3p1p1p/1p6/1P6/KP6/PP1P1P1P/8 w - -"
# Dev set, Black can win (the same kind of wall, White's king on a3): the rule applies at
# the root but must cut no position of a helpmate.
WALLED_KING_WINNABLE = "8/3p1p1p/1p6/1P6/KP6/PP6/3P1P1P/k7 w - -"


def _without_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(closure_module, "exhaustion", lambda board, winner: None)


def _random_line(state: State, rng: random.Random, plies: int) -> list[State]:
    """The positions of a random line of at most ``plies`` moves without a promotion."""
    line = []
    for _ in range(plies):
        moves = [m for m in FAST.iter_legal_moves(state) if not m >> 12]
        if not moves:
            break
        state = FAST.play(state, rng.choice(moves))
        line.append(state)
    return line


def test_the_rule_data_of_position_13() -> None:
    board = chess.Board(POSITION_13_VARIANT)
    ex = exhaustion(board, B)
    assert ex is not None and ex.side == B
    # Black's d-pawn may advance from d7 to d3 (the white d-pawn stops it): 4 moves.
    assert ex.adv[chess.D7] == 4 and ex.adv[chess.D3] == 0
    # The white d-, f- and h-pawns are the runners; b7 cannot promote (the black king on b8
    # never moves, and no black unit ever stands on a8 or c8).
    assert ex.promotable & chess.BB_D2 and not ex.promotable & chess.BB_B7
    # Without the facing-pawn prison there is no rule: the black king could walk out.
    assert exhaustion(chess.Board("1k6/1P1p1p1p/1P6/1P6/8/8/3P1PKP/8 w - -"), B) is None
    # The promotion-free fixpoint keeps the black king on b8.
    mob = promotion_free_mobility(board)
    king = next(i for i, (sq, _, _) in enumerate(mob.pieces) if sq == chess.B8)
    assert mob.region[king] == chess.BB_B8


def test_a_doubled_pawn_never_captures() -> None:
    # Dev set, Black cannot win: Black's h5 and h7 pawns are doubled in front of White's
    # h2. The facing-pawn rule of the mobility fixpoint lets h5 pass h2 only if another
    # black unit could capture h2; h7 cannot (it never leaves the h-file), so h5 stops on
    # h3 (in the promotion-free fixpoint: in the plain one White's h-pawn promotes and every
    # region grows to the board), and move exhaustion applies (Black's king and the b-file
    # lock never move).
    board = chess.Board("1k6/1P5p/BP6/pPp4p/8/8/P1P4P/7K b - -")
    mob = promotion_free_mobility(board)
    h5 = next(i for i, (sq, _, _) in enumerate(mob.pieces) if sq == chess.H5)
    assert mob.region[h5] == chess.BB_H5 | chess.BB_H4 | chess.BB_H3
    assert exhaustion(board, B) is not None


def test_cut_positions_of_position_13() -> None:
    ex = exhaustion(chess.Board(POSITION_13_VARIANT), B)
    assert ex is not None
    # The root: Black has 12 advances, the h-pawn can be taken on h3 next to White's king.
    assert not ex.exhausted(from_board(chess.Board(POSITION_13_VARIANT)))
    # Black has pushed to d3, f3 and h4: one advance left, and a white pawn needs five moves
    # (four if Black's h4-h3 is taken at once, which costs White the king's capture).
    assert ex.exhausted(from_board(chess.Board("1k6/1P6/BP6/1P6/7p/3p1p2/3P1PKP/8 w - -")))
    # Black's pawns on d5, f5, h4 (5 advances left: d5-d3, f5-f3, h4-h3), White's on d3,
    # f3, h2, White to move. The h-pawn is the fastest runner: the king takes h4 on h3 at
    # the earliest (one move; the h4 pawn's last advance is lost), steps off the h-file
    # again (the capturer stands in front of h2, and no black pawn ever captures), and
    # h2-h8 takes five moves: White needs 7 moves, Black must answer the first 6 and has
    # 5 advances (the 4 of d5 and f5, and h4-h3 before the capture). Without the step off
    # the file it would be 5 answers against 5 advances: no cut.
    assert ex.exhausted(from_board(chess.Board("1k6/1P6/BP6/1P1p1p2/7p/3P1P2/6KP/8 w - -")))
    # The same with the black pawns still on their starting squares: no cut.
    assert not ex.exhausted(from_board(chess.Board("1k6/1P1p1p1p/BP6/1P6/8/8/3P1P1P/6K1 w - -")))


def test_the_closure_is_smaller_with_the_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    state = from_board(chess.Board(WALLED_KING))
    found, _, complete, nodes = closure_search(state, B, 100_000)
    assert not found and complete
    _without_rule(monkeypatch)
    found_plain, _, complete_plain, nodes_plain = closure_search(state, B, 100_000)
    assert not found_plain and complete_plain
    # 875 positions with the rule, 5,788 without.
    assert 3 * nodes < nodes_plain


def test_the_root_is_decided_when_the_rule_cuts_it() -> None:
    # Dev set, dead: Black's king on a8 is locked by a7 (guarded by b6) and Black's b-pawn
    # is blocked: Black has no move left (supply 0) and no white pawn can promote (a8 holds
    # a king that never moves, b7 a pawn that never moves), so the rule cuts the root and
    # the closure needs no position (without the rule it visits White's king moves).
    board = chess.Board("k7/Pp6/1P6/8/8/8/7K/8 w - -")
    ex = exhaustion(board, B)
    assert ex is not None and ex.exhausted(from_board(board))
    assert closure_search(from_board(board), B, 1_000) == (False, [], True, 0)


def test_no_cut_on_a_helpmate_line() -> None:
    # The closure (with the rule) finds Black's mate: no position of the line is cut.
    board = chess.Board(WALLED_KING_WINNABLE)
    state = from_board(board)
    ex = exhaustion(board, B)
    assert ex is not None
    found, line, _, _ = closure_search(state, B, 200_000)
    assert found
    for move in line:
        if move >> 12:  # a promotion ends the phase
            break
        state = FAST.play(state, move)
        assert not ex.exhausted(state)


@pytest.mark.parametrize(
    ("fen", "winner"),
    [
        (POSITION_13_VARIANT, B),
        (WALLED_KING, B),
        (WALLED_KING_WINNABLE, B),
        ("5k2/p1p5/8/4p3/8/6p1/P1P1P1Pp/7K w - -", B),
    ],
)
def test_cut_positions_have_no_mate(fen: str, winner: chess.Color, monkeypatch: pytest.MonkeyPatch) -> None:
    """Property: on random lines without a promotion from roots where the rule applies, the
    closure search without the rule finds no mate from any position the rule cuts."""
    board = chess.Board(fen)
    ex = exhaustion(board, winner)
    assert ex is not None
    _without_rule(monkeypatch)
    rng = random.Random(fen)
    cut = 0
    for _ in range(12):
        for state in _random_line(from_board(board), rng, rng.randrange(4, 30)):
            if FAST.has_legal_move(state) and ex.exhausted(state):
                cut += 1
                found, _, _, _ = ClosureSearch(state, winner, tempo=False).run(3_000)
                assert not found, FAST.key(state)
    assert cut  # the property is exercised


def test_the_dev_labels_agree() -> None:
    """On the dev set, the rule never cuts the root of a query labelled winnable, and it
    applies (with cuts, at the root or below) to queries of both labels."""
    applied = {True: 0, False: 0}
    root_cuts = 0
    for line in (DATA / "unwinnability-dev.jsonl").read_text().splitlines():
        record = json.loads(line)
        board = chess.Board(record["fen"])
        for winner in (W, B):
            ex = exhaustion(board, winner)
            if ex is None:
                continue
            label = record["white_can_win" if winner else "black_can_win"]
            applied[label] += 1
            if ex.exhausted(from_board(board)):
                root_cuts += 1
                assert not label, (record["fen"], winner)
    assert applied[True] and applied[False] and root_cuts


def test_random_lines_of_the_dev_set(monkeypatch: pytest.MonkeyPatch) -> None:
    """Property over every dev query where the rule applies: on random lines without a
    promotion, no position from which the closure search without the rule finds a mate
    is cut (and the sample holds both cut positions and positions with a mate)."""
    _without_rule(monkeypatch)
    rng = random.Random(38)
    cut = mates = 0
    for line in (DATA / "unwinnability-dev.jsonl").read_text().splitlines():
        board = chess.Board(json.loads(line)["fen"])
        for winner in (W, B):
            ex = exhaustion(board, winner)
            if ex is None:
                continue
            for _ in range(6):
                states = _random_line(from_board(board), rng, rng.randrange(2, 40))
                state = states[-1] if states else from_board(board)
                if not FAST.has_legal_move(state):
                    continue
                found, _, _, _ = ClosureSearch(state, winner, tempo=False).run(2_000)
                mates += found
                if ex.exhausted(state):
                    cut += 1
                    assert not found, FAST.key(state)
    assert cut and mates, (cut, mates)

"""The rules that decide blocked positions: tempo units in the closure search
(retro.unwinnable.tempo), the protected pawn checker of the static check."""

from __future__ import annotations

import json
from pathlib import Path

import chess
import pytest

from retro.unwinnable import analyze
from retro.unwinnable.closure import ClosureSearch, closure_search, shorten_line
from retro.unwinnable.fastboard import FAST, State, from_board, from_move, play, to_move
from retro.unwinnable.static import unwinnable_static
from retro.unwinnable.tempo import PASS, realize, tempo_units

W, B = chess.WHITE, chess.BLACK
DATA = Path(__file__).resolve().parents[2] / "data"

# Dev set, dead: the black king is locked on the 8th rank behind a pawn wall; below it the
# white king and four pawn duels (a-, c-, e-, g-file) that can still be played out.
LOCKED_KING = "2k5/p1p1p1p1/P1P1P1P1/2p1p2K/8/8/2P1P1P1/8 w - -"
# Dev set, dead, formerly undetermined: the same wall, four pawn duels, the white king free below.
PAWN_DUELS = "3k4/p1p1p1p1/P1P1P1P1/p1p1p1p1/8/8/P1P1P1P1/3K4 w - -"
# Constructed, White wins: the pawn wall b5/d5/f5/h5 against b6/d6/f6/h6 locks the white
# king below it (tempo unit); above it 1. ... Ka8, bishops to a7 and b8, and the white
# bishop checks from c6 (b7 empty).
BISHOP_CORNER = "3k1bB1/4b3/1p1p1p1p/1P1P1P1P/8/8/8/4K3 w - - 0 1"


def _squares(mask: int) -> set[str]:
    return {chess.square_name(s) for s in chess.SquareSet(mask)}


def test_tempo_units_of_locked_kings() -> None:
    assert tempo_units(chess.Board(LOCKED_KING)).squares == (chess.BB_C8, 0)
    assert _squares(tempo_units(chess.Board(BISHOP_CORNER)).squares[W]) == {"e1"}
    assert not tempo_units(chess.Board(BISHOP_CORNER)).squares[B]


def test_no_tempo_unit_where_it_interacts() -> None:
    # The initial position: every unit's region meets another one's.
    assert not tempo_units(chess.Board())
    # A white queen in the lower half has lines up the open b-, d-, f- and h-files to
    # the black king's rank: the king is no longer a tempo unit (condition iii).
    assert not tempo_units(chess.Board("2k5/p1p1p1p1/P1P1P1P1/2p1p2K/8/8/2P1P1P1/3Q4 w - -")).squares[B]
    # Castling rights: the mobility fixpoint does not apply, so no tempo unit.
    assert not tempo_units(chess.Board("4k3/8/8/p1p1p1p1/P1P1P1P1/8/8/4K2R w K -"))


def test_tempo_units_shrink_the_closure() -> None:
    # Removing the rule: the plain closure needs ~690,000 positions; the abstract one ~27,000.
    state = from_board(chess.Board(LOCKED_KING))
    found, _, complete, nodes = closure_search(state, B, 60_000)
    assert (found, complete) == (False, True) and nodes < 60_000
    found, _, complete, _ = closure_search(state, B, 60_000, tempo=False)
    assert not found and not complete


def test_realize_turns_passes_into_tempo_unit_moves() -> None:
    board = chess.Board(LOCKED_KING)
    units = tempo_units(board)
    king_move = chess.Move.from_uci("h5h4")
    line = realize(from_board(board), [king_move.from_square | king_move.to_square << 6, PASS], units, FAST)
    assert line is not None and len(line) == 2
    assert line[1] & 63 == chess.C8  # the black king on c8 made the waiting move
    state = from_board(board)
    for move in line:
        assert move in list(FAST.iter_legal_moves(state))
        state = play(state, move)


def test_abstract_closure_finds_a_real_helpmate() -> None:
    board = chess.Board(BISHOP_CORNER)
    found, line, complete, _ = closure_search(from_board(board), W, 200_000)
    assert found and not complete
    for move in line:
        board.push(chess.Move(move & 63, (move >> 6) & 63, (move >> 12) or None))
    assert board.is_checkmate() and board.turn == B
    verdict = analyze(chess.Board(BISHOP_CORNER), W)
    assert verdict.status == "winnable"


def test_protected_pawn_checker_decides_pawn_duels() -> None:
    # Black's only possible checkers are its pawns, and no black unit can ever protect a
    # square from which one checks (the king is locked on the 8th rank, pawns of the a-,
    # c-, e-, g-files only protect the b-, d-, f-, h-files), so the white king could always
    # take the checker. Without the rule the static check does not answer.
    assert unwinnable_static(chess.Board(PAWN_DUELS), B)
    verdict = analyze(chess.Board(PAWN_DUELS), B)
    assert verdict.status == "unwinnable" and verdict.reason == "semi-static"


@pytest.mark.parametrize(
    "fen",
    [
        # Constructed mates by a pawn protected by a pawn (f4) and by the king (h4): the
        # static check must not call them unwinnable.
        "8/6pp/6pk/5pP1/5P1K/8/8/8 b - - 0 1",
        "8/6pp/6pk/6P1/7K/8/8/8 b - - 0 1",
    ],
)
def test_protected_pawn_checker_keeps_real_mates(fen: str) -> None:
    board = chess.Board(fen)
    assert board.is_checkmate()
    assert not unwinnable_static(board, W)


@pytest.mark.parametrize(
    "fen, winner",
    [
        # Dev set, formerly undetermined at 1,000,000 nodes (the depth-first closure wandered):
        # the loser's bishops block the corner's neighbours, the winner's bishop mates.
        ("k7/1b6/2b5/8/8/1pB5/pP6/K7 w - -", W),
        ("8/8/8/3B4/8/6p1/1b4Pp/k1b4K w - -", W),
        ("8/8/8/3B4/8/6p1/1b4Pp/2b2k1K w - -", W),
    ],
)
def test_best_first_closure_finds_corner_helpmates(fen: str, winner: chess.Color) -> None:
    board = chess.Board(fen)
    found, line, _, nodes = closure_search(from_board(board), winner, 30_000)
    assert found and nodes <= 30_000
    for move in line:
        board.push(chess.Move(move & 63, (move >> 6) & 63, (move >> 12) or None))
    assert board.is_checkmate() and board.turn != winner


def test_resumed_closure_equals_one_run() -> None:
    state = from_board(chess.Board(LOCKED_KING))
    search = ClosureSearch(state, B)
    total = 0
    for _ in range(100):
        found, _, complete, used = search.run(2_000)
        total += used
        if complete:
            break
    assert complete and not found
    assert total == closure_search(state, B, 100_000)[3]


@pytest.mark.slow
def test_tempo_closure_agrees_with_the_dev_labels() -> None:
    # Every dev position with tempo units (about 90), both winners: the abstract closure
    # (3,000 positions at most) must never contradict the labels. It completes on ~140
    # queries (all labelled unwinnable) and finds a replayed mate on ~10.
    rows = [json.loads(line) for line in open(DATA / "unwinnability-dev.jsonl", encoding="utf-8") if line.strip()]
    decided = 0
    for row in rows:
        board = chess.Board(row["fen"])
        if not tempo_units(board):
            continue
        for winner, label in ((W, row["white_can_win"]), (B, row["black_can_win"])):
            found, line, complete, _ = closure_search(from_board(board), winner, 3_000)
            if found:
                replay = board.copy()
                for move in line:
                    replay.push(chess.Move(move & 63, (move >> 6) & 63, (move >> 12) or None))
                assert replay.is_checkmate() and replay.turn != winner and label, row["fen"]
            elif complete:
                assert not label, row["fen"]
            decided += found or complete
    assert decided >= 100


def _final_key(state: State, line: list[int]) -> object:
    for move in line:
        state = play(state, move)
    return FAST.key(state)


def test_shorten_line_skips_a_detour_of_both_sides() -> None:
    # Both queens take a detour (Qf3/Qf6 before Qg4/Qg5). No single move reaches a later
    # position of the line from the one after 1. e3 e6 (Qg4 leaves Black's queen on d8),
    # but the pair Qg4 Qg5 reaches the position after move 3: 8 plies become 6.
    board = chess.Board()
    line = []
    for san in ("e3", "e6", "Qf3", "Qf6", "Qg4", "Qg5", "Nc3", "Nc6"):
        move = board.parse_san(san)
        line.append(from_move(move))
        board.push(move)
    start = from_board(chess.Board())
    short = shorten_line(start, line)
    assert len(short) == 6 and _final_key(start, short) == _final_key(start, line)
    chess.Board().variation_san([to_move(move) for move in short])  # legal moves

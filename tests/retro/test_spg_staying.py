"""retro spg: pieces staying for good by the assignment that makes the piece move
(:mod:`retro.spg.staying`), in the search and in the solo game (real dev problems and
played games: the unit and search tests fail without the rule, the other two check it)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import chess
import pytest

from retro.spg import parse_problem
from retro.spg.bounds import MoveBounds, side_masks
from retro.spg.frozen import frozen_mask
from retro.spg.search import search_games
from retro.spg.solve import moves_of
from retro.spg.staying import StayingPieces

DATA = Path(__file__).resolve().parents[2] / "data" / "spg-dev.jsonl"
ROWS = {row["id"]: row for row in map(json.loads, DATA.open(encoding="utf-8"))}


def _args(
    board: chess.Board, color: chess.Color, allowance: int
) -> tuple[chess.Color, tuple[int, int, int, int, int, int], int, int, int, int]:
    return (
        color,
        side_masks(board, color),
        board.clean_castling_rights() & (chess.BB_RANK_1 if color else chess.BB_RANK_8),
        chess.popcount(board.occupied_co[not color]),
        board.pawns & board.occupied_co[not color],
        allowance,
    )


def test_two_of_a_kind_stay_for_good() -> None:
    """no-captures-47 (26 plies) after 1.a4, White's 12 moves left: White's bound is 11,
    and moving the g1 knight (White has two) or the h1 rook (two rooks) costs the
    assignment at least 13, so both stay for good; the older rule (a piece no other unit
    can replace) names only the c1 bishop. The game (Euclide's) indeed never moves them."""
    row = ROWS["no-captures-47"]
    problem = parse_problem(row["board"], row["plies"])
    bounds = MoveBounds(problem.goal, frozen_mask(problem.init, problem.goal), rights_count=False)
    board = problem.init.copy()
    board.push_uci(row["solutions"][0][0])
    args = _args(board, chess.WHITE, 12)
    assert bounds.needs(board, chess.WHITE) == 11
    assert bounds.staying(*args) == chess.BB_C1
    assert StayingPieces(bounds).squares(*args) & ~chess.BB_C1 == chess.BB_G1 | chess.BB_H1
    assert StayingPieces(bounds).squares(*args[:-1], 13) & (chess.BB_G1 | chess.BB_H1) == 0  # one more move: no longer
    played = [move for move in row["solutions"][0] if move[:2] in ("g1", "h1", "c1")]
    assert played == []


@pytest.mark.slow
def test_staying_squares_hold_along_every_euclide_game() -> None:
    """Along every replayable Euclide game of the data, every square the rule names holds
    the same piece at every later position of the game (soundness on real games; the
    rule names some square at thousands of positions)."""
    named = games = 0
    for row in ROWS.values():
        problem = parse_problem(row["board"], row["plies"])
        bounds = MoveBounds(problem.goal, frozen_mask(problem.init, problem.goal), rights_count=False)
        rule = StayingPieces(bounds)
        for game in row["solutions"] or []:
            if not game:
                continue
            games += 1
            boards = [problem.init.copy()]
            for uci in game:
                boards.append(boards[-1].copy())
                boards[-1].push_uci(uci)
            for ply, board in enumerate(boards):
                moves = moves_of(board, len(game) - ply)
                for color in chess.COLORS:
                    for square in chess.scan_forward(rule.squares(*_args(board, color, moves[color]))):
                        named += 1
                        piece = board.piece_at(square)
                        assert all(later.piece_at(square) == piece for later in boards[ply:]), (row["id"], ply)
    assert games == 148 and named > 5_000


@pytest.mark.slow
def test_staying_pieces_shrink_the_search() -> None:
    """no-captures-52 (28 plies): decided unique within 20,000 nodes (solo moves counted)
    with the rule in the search and the solo game (10,424 nodes); unknown at 20,000
    without it (111,874 nodes)."""
    row = ROWS["no-captures-52"]
    problem = parse_problem(row["board"], row["plies"])
    bounds = MoveBounds(problem.goal, frozen_mask(problem.init, problem.goal), rights_count=False)
    with_rule = search_games(problem, bounds, max_nodes=20_000)
    assert with_rule.complete and len(with_rule.games) == 1
    assert [move.uci() for move in with_rule.games[0]] == row["solutions"][0]
    assert not search_games(problem, bounds, max_nodes=20_000, staying=False).complete


def _quiet_game(rng: random.Random, plies: int) -> list[chess.Move] | None:
    """A random game of ``plies`` plies from the start without captures (None if stuck)."""
    board = chess.Board()
    for _ in range(plies):
        moves = [move for move in board.legal_moves if not board.is_capture(move)]
        if not moves:
            return None
        board.push(rng.choice(moves))
    return list(board.move_stack)


@pytest.mark.slow
def test_staying_pieces_keep_every_played_game() -> None:
    """Random games of 5 to 12 plies without captures from the start: every complete
    search with the rule lists the played game among its solutions."""
    rng = random.Random(8)
    complete = 0
    for _ in range(40):
        game = _quiet_game(rng, rng.randint(5, 12))
        if game is None:
            continue
        board = chess.Board()
        for move in game:
            board.push(move)
        problem = parse_problem(board.fen(), len(game), chess.STARTING_FEN)
        bounds = MoveBounds(problem.goal, frozen_mask(problem.init, problem.goal), rights_count=problem.full_fen)
        outcome = search_games(problem, bounds, max_nodes=5_000, cap=1_000)
        if outcome.complete:
            complete += 1
            assert tuple(game) in outcome.games, board.fen()
    assert complete >= 20

"""retro spg: captures and quiet arrivals (:mod:`retro.spg.captures`), commuting solo moves
and frozen units' moves (real dev problems and constructed positions; each test fails
without its rule)."""

from __future__ import annotations

import json
from pathlib import Path

import chess
import pytest

import retro.spg.solo as solo_module
from retro.spg import parse_problem
from retro.spg.bounds import MoveBounds, side_masks
from retro.spg.captures import CaptureMoves
from retro.spg.frozen import frozen_mask
from retro.spg.routes import route_squares
from retro.spg.search import _Search, search_games
from retro.spg.solo import SoloGame
from retro.spg.solve import moves_of
from tests.retro.test_spg import along_euclide_games

DATA = Path(__file__).resolve().parents[2] / "data" / "spg-dev.jsonl"
ROWS = {row["id"]: row for row in map(json.loads, DATA.open(encoding="utf-8"))}
# natch-test-problems-39 (Q1bqkbnr/1ppp1ppp/4p3/8/8/4P3/rPPP1PPP/RNBK2NR, 11 plies) after
# 1.e3 e6 2.Qh5 a6 3.Qf5 Qf6 4.Kd1: 4 plies left, each side 2 moves, each side 2 captures
DEAD = "e2e3 e7e6 d1h5 a7a6 h5f5 d8f6 e1d1".split()


def _natch_39() -> tuple[chess.Board, MoveBounds, CaptureMoves]:
    row = ROWS["natch-test-problems-39"]
    problem = parse_problem(row["board"], row["plies"])
    frozen = frozen_mask(problem.init, problem.goal)
    board = problem.init.copy()
    for uci in DEAD:
        board.push_uci(uci)
    bounds = MoveBounds(problem.goal, frozen, rights_count=False)
    return board, bounds, CaptureMoves(problem.goal, bounds)


def test_captures_and_quiet_arrivals_exceed_both_sides_moves() -> None:
    """At the dead node above the assignment bounds fit (2 moves each), but White must
    capture two units and reach a8 quietly (no capturable black unit can reach a8 in two
    moves: the rooks and the queen cannot be lost, the knights are too far); Black must
    capture two and reach d8 quietly (White's queen could reach d8 but cannot be lost, the
    f1 bishop runs on light squares). Black's d8 counts although Black may still castle
    long: a castling rook lands on d8, but d8's goal unit is a queen."""
    board, bounds, captures = _natch_39()
    for color in chess.COLORS:
        assert bounds.needs(board, color) == 2
        assert captures.needs(board, color, 2) == 3
        assert captures.exceeds(board, color, 2, 2)


def test_a_unit_the_enemy_can_lose_makes_a_square_capturable() -> None:
    """At the same node with more black moves: in 3, no black unit that Black can lose
    reaches a8 (the b8 knight needs 5 moves round the frozen c7 and d7 pawns); in 4 the
    g8 knight can (g8-e7-d5-b6-a8), so a8 is no longer quiet; the rooks and the queen
    cannot be lost until a pawn can promote (5 moves: a6-a1 or e6-e1)."""
    board, _, captures = _natch_39()
    assert [captures.needs(board, chess.WHITE, moves) for moves in (3, 4)] == [3, 2]
    assert chess.A8 not in captures.capturable(board, chess.BLACK, 4)
    assert {chess.A8, chess.H8, chess.F6} <= set(captures.capturable(board, chess.BLACK, 5))


def test_castling_rook_square_and_en_passant_rank_are_not_quiet() -> None:
    """Constructed goal: White castled short and its e-pawn stands on e6, Black missing
    its d- and g-pawns. With the h1 right still held, f1 (a rook's goal square where the
    castling rook lands) is not counted; the e6 pawn square is on White's en-passant
    landing rank, where a pawn captures onto an empty square, so it is not counted either."""
    goal = chess.Board("rnbqkbnr/ppp1pp1p/4P3/8/8/8/PPPP1PPP/RNBQ1RK1 b kq - 0 1")
    captures = CaptureMoves(goal, MoveBounds(goal, 0, rights_count=False))
    assert all(square != chess.E6 for square, _ in captures.squares[chess.WHITE])
    board = chess.Board()
    # White to reach g1 (king), f1 (rook) and e6 (pawn) and to capture two black pawns
    assert captures.needs(board, chess.WHITE, 0) == 2 + 1  # g1 only: f1 excluded (h1 right), e6 excluded
    board.castling_rights &= ~chess.BB_H1
    assert captures.needs(board, chess.WHITE, 0) == 2 + 2  # without the right f1 counts


@pytest.mark.slow
def test_capture_rule_fits_every_ply_of_every_euclide_solution() -> None:
    """Along each replayable Euclide game, each side's captures plus quiet arrivals never
    exceed its moves left (a soundness check on 148 real games)."""
    games = 0
    captures_of: dict[str, CaptureMoves] = {}
    for row_id, problem, bounds, board, moves, index in along_euclide_games():
        captures = captures_of.setdefault(row_id, CaptureMoves(problem.goal, bounds))
        for color in chess.COLORS:
            assert not captures.exceeds(board, color, moves[color], moves[not color]), (row_id, index)
        games += index == 0
    assert games == 148


@pytest.mark.slow
def test_capture_rule_decides_natch_test_problems_39() -> None:
    """natch-test-problems-39 (11 plies, both sides capture twice): unique within 60,000
    nodes with the rule, unknown at 60,000 without it."""
    row = ROWS["natch-test-problems-39"]
    problem = parse_problem(row["board"], row["plies"])
    bounds = MoveBounds(problem.goal, frozen_mask(problem.init, problem.goal), rights_count=False)
    with_rule = search_games(problem, bounds, max_nodes=60_000)
    assert with_rule.complete and len(with_rule.games) == 1
    assert [m.uci() for m in with_rule.games[0]] == row["solutions"][0]
    assert not search_games(problem, bounds, max_nodes=60_000, quiet=False).complete


def test_commuting_solo_moves_are_tried_once() -> None:
    """White's solo game to Nc3, Nf3, b3, d3, e3, g3 in 7 moves (one spare: it fails, the
    knights' tempo parity) and to Nc3, Nf3, d3, e3 in 7 (succeeds): the same answers with
    fewer solo moves examined than when the commuting moves are tried again."""

    def examined(goal: str, moves: int) -> tuple[bool, int]:
        problem = parse_problem(goal, 2 * moves, chess.STARTING_FEN)
        bounds = MoveBounds(problem.goal, frozen_mask(problem.init, problem.goal), rights_count=False)
        count = [0]

        def tick() -> None:
            count[0] += 1

        game = SoloGame(bounds, problem.goal, None, tick)
        board = problem.init
        black_pawns = board.pawns & board.occupied_co[chess.BLACK]
        result = game.succeeds(chess.WHITE, side_masks(board, chess.WHITE), 0, 16, black_pawns, moves)
        return result, count[0]

    cases = [
        ("rnbqkbnr/pppppppp/8/8/8/1PNPPNP1/P1P2P1P/R1BQKB1R", 7),
        ("rnbqkbnr/pppppppp/8/8/8/2NPPN2/PPP2PPP/R1BQKB1R", 7),
    ]
    with_rule = [examined(goal, moves) for goal, moves in cases]
    original = solo_module._asleep
    try:
        solo_module._asleep = lambda failed, footprint: frozenset()
        without = [examined(goal, moves) for goal, moves in cases]
    finally:
        solo_module._asleep = original
    assert [r for r, _ in with_rule] == [r for r, _ in without] == [False, True]
    for (_, fewer), (_, more) in zip(with_rule, without, strict=True):
        assert fewer < more


def test_no_move_of_a_frozen_unit_is_generated() -> None:
    """natch-test-problems-39: White's b-, c-, d-, f-, g- and h-pawns and the c1 bishop never
    move (frozen); after 1.e3 e6 their moves to route squares exist but are not generated."""
    row = ROWS["natch-test-problems-39"]
    problem = parse_problem(row["board"], row["plies"])
    frozen = frozen_mask(problem.init, problem.goal)
    bounds = MoveBounds(problem.goal, frozen, rights_count=False)
    moves = moves_of(problem.init, problem.plies)
    routes = {color: route_squares(bounds, problem.init, color, moves[color]) for color in chess.COLORS}
    search = _Search(problem, bounds, max_nodes=None, time_limit=None, cap=2, progress=None, routes=routes)
    board = search.board
    board.push_uci("e2e3")
    board.push_uci("e7e6")
    generated = search.moves(board)
    assert generated and not any(chess.BB_SQUARES[move.from_square] & frozen for move in generated)
    frozen_pawns = board.pawns & board.occupied_co[chess.WHITE] & frozen
    assert list(board.generate_pseudo_legal_moves(frozen_pawns, routes[chess.WHITE][chess.PAWN]))


def test_a_rook_captured_on_its_corner_loses_the_castling_right() -> None:
    """A random game (1.b4 b6 2.e3 Bb7 3.g3 Bxh1 4.c4 h5 5.Na3 d5 6.Qa4+), goal its full FEN
    with White's long castling right only: the short right is lost by the capture of the h1
    rook, so the g1 knight (the rook's only exit) need not move; White's 6 moves fit, and
    the game is among the solutions (the bound said 8 when it counted the knight)."""
    fen = "rn1qkbnr/p1p1ppp1/1p6/3p3p/QPP5/N3P1P1/P2P1P1P/R1B1KBNb b Qkq - 1 6"
    problem = parse_problem(fen, 11, chess.STARTING_FEN)
    bounds = MoveBounds(problem.goal, frozen_mask(problem.init, problem.goal), rights_count=True)
    assert bounds.needs(problem.init, chess.WHITE) <= 6
    outcome = search_games(problem, bounds, max_nodes=20_000, cap=1_000)
    played = "b2b4 b7b6 e2e3 c8b7 g2g3 b7h1 c2c4 h7h5 b1a3 d7d5 d1a4".split()
    assert outcome.complete and played in [[move.uci() for move in game] for game in outcome.games]


def test_bishops_by_square_colour_and_pawns_white_cannot_spare() -> None:
    """single-capture-60 (Black captures White's f1 bishop) at a node 4 plies before the
    end, Black to move: White's dark-squared c1 bishop fills the goal's only dark bishop
    square and White's 8 pawns its 8 pawn squares, so of White's units only the f1 bishop
    may be captured; it cannot reach f8 (dark) nor h5 (its diagonals close on e2 and g2).
    Black must capture it and reach f8 and h5 quietly: 3 moves, and Black has 2."""
    row = ROWS["single-capture-60"]
    problem = parse_problem(row["board"], row["plies"])
    bounds = MoveBounds(problem.goal, frozen_mask(problem.init, problem.goal), rights_count=False)
    captures = CaptureMoves(problem.goal, bounds)
    board = chess.Board("rnbqk1nr/pppp1pp1/3bp3/8/7p/3P1N1P/PPP1PPP1/RNBQKB1R b KQkq - 9 9")
    assert bounds.needs(board, chess.BLACK) == 2
    assert captures.capturable(board, chess.WHITE, 2) == [chess.F1]
    assert captures.needs(board, chess.BLACK, 2) == 3

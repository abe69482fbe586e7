"""retro spg: captures of units that can no longer move (:mod:`retro.spg.stuck`); a real dev
problem and a constructed game (each test fails without the rule)."""

from __future__ import annotations

import json
from pathlib import Path

import chess
import pytest

from retro.spg import parse_problem
from retro.spg.bounds import MoveBounds
from retro.spg.captures import CaptureMoves
from retro.spg.frozen import frozen_mask
from retro.spg.passing import PassingPawns
from retro.spg.search import search_games
from retro.spg.stuck import StuckCaptures
from tests.retro.test_spg import along_euclide_games

DATA = Path(__file__).resolve().parents[2] / "data" / "spg-dev.jsonl"
ROWS = {row["id"]: row for row in map(json.loads, DATA.open(encoding="utf-8"))}


def test_the_boxed_in_bishop_is_taken_where_it_stands() -> None:
    """single-capture-60 (Black takes White's f1 bishop; e2 and g2 stay at home, so the
    bishop never moves and is the only White unit Black may take) after 1.h3 h6 2.d3 e6
    3.Nf3 h5 4.Ng5 h4 5.Nf3 Nf6 6.Ng5: 10 plies left, Black to move with 5 moves. Black's
    bound is 2 (Nf6-g8, Rh8-h5), but the unit that takes on f1 must go there and on to its
    goal square: the queen d8-g5-c1xf1 and back is 6 moves, no other unit is faster."""
    row = ROWS["single-capture-60"]
    problem = parse_problem(row["board"], row["plies"])
    bounds = MoveBounds(problem.goal, frozen_mask(problem.init, problem.goal), rights_count=False)
    captures = CaptureMoves(problem.goal, bounds)
    node = chess.Board("rnbqkb1r/pppp1pp1/4pn2/6N1/7p/3P3P/PPP1PPP1/RNBQKB1R b KQkq - 3 6")
    assert bounds.needs(node, chess.BLACK) == 2
    assert captures.capturable(node, chess.WHITE, 5) == [chess.F1]
    assert StuckCaptures(bounds, captures).exceeds(node, chess.BLACK, 5, 5)


def test_a_knight_that_takes_a_boxed_in_bishop_goes_through_its_square() -> None:
    """Constructed game 1.Nf3 h5 2.Ng5 Rh6 3.Nh7 Rg6 4.Nxf8 Rg3 5.Ne6 ... 6.Nc5: Black's f8
    bishop (e7 and g7 at home in the goal) is the only Black unit White may take, so the
    knight goes g1 - f8 - c5 (6 moves), not g1 - c5 (4). With 5 White moves the rule cuts;
    with 6 it does not, and the search finds the played game with fewer nodes."""
    played = "g1f3 h7h5 f3g5 h8h6 g5h7 h6g6 h7f8 g6g4 f8e6 g4g3 e6c5".split()
    board = chess.Board()
    for uci in played:
        board.push_uci(uci)
    problem = parse_problem(board.board_fen(), len(played))
    bounds = MoveBounds(problem.goal, frozen_mask(problem.init, problem.goal), rights_count=False)
    stuck = StuckCaptures(bounds, CaptureMoves(problem.goal, bounds))
    assert bounds.needs(problem.init, chess.WHITE) == 4
    assert stuck.exceeds(problem.init, chess.WHITE, 5, 5)
    assert not stuck.exceeds(problem.init, chess.WHITE, 6, 5)
    with_rule = search_games(problem, bounds, max_nodes=50_000, cap=1_000)
    without = search_games(problem, bounds, max_nodes=50_000, cap=1_000, stuck=False)
    assert with_rule.complete and played in [[move.uci() for move in game] for game in with_rule.games]
    assert len(with_rule.games) == len(without.games) and with_rule.nodes < without.nodes


def test_the_enemy_units_on_the_way_in_must_make_way() -> None:
    """single-capture-60 after 1.h3 e6 2.d3 h5 3.Nd2 h4 4.Nf3 Rh5 5.Rb1 Qg5 6.Nde4: 10 plies
    left, 5 moves each. Black's queen can still take on f1 and come back in time (rule 1
    holds), but not as a knight, and only along the first rank from the e1 side (e2, f2,
    g2 stay; g1 and h1 are reached through f1 or h2 only, too late): White's king must
    leave e1 and come back, 2 more moves than White's bound of 4. With 6 White moves the
    rule does not cut."""
    row = ROWS["single-capture-60"]
    problem = parse_problem(row["board"], row["plies"])
    bounds = MoveBounds(problem.goal, frozen_mask(problem.init, problem.goal), rights_count=False)
    stuck = StuckCaptures(bounds, CaptureMoves(problem.goal, bounds))
    node = chess.Board("rnb1kbn1/pppp1pp1/4p3/6qr/4N2p/3P1N1P/PPP1PPP1/1RBQKB1R b Kq - 5 6")
    assert bounds.needs(node, chess.WHITE) == 4 and bounds.needs(node, chess.BLACK) == 1
    assert not stuck.exceeds(node, chess.BLACK, 5, 6)
    assert stuck.exceeds(node, chess.BLACK, 5, 5)


@pytest.mark.slow
def test_stuck_and_passing_rules_fit_every_ply_of_every_euclide_solution() -> None:
    """Along each replayable Euclide game, neither the stuck-capture rules nor the
    facing-pawns rule cut a position of the game (a soundness check on 148 real games)."""
    games = 0
    rules: dict[str, tuple[StuckCaptures, PassingPawns]] = {}
    for row_id, problem, bounds, board, moves, index in along_euclide_games():
        if row_id not in rules:
            rules[row_id] = (
                StuckCaptures(bounds, CaptureMoves(problem.goal, bounds)),
                PassingPawns(problem.goal, bounds),
            )
        stuck, passing = rules[row_id]
        for color in chess.COLORS:
            assert not stuck.exceeds(board, color, moves[color], moves[not color]), (row_id, index)
        assert not passing.exceeds(board, moves[chess.WHITE], moves[chess.BLACK]), (row_id, index)
        games += index == 0
    assert games == 148

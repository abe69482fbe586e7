"""retro spg: pawns facing each other on a file (:mod:`retro.spg.passing`); real dev
problems and random played games (each test fails without the rule, or with a wrong one)."""

from __future__ import annotations

import json
from pathlib import Path

import chess

from retro.spg import parse_problem
from retro.spg.bounds import MoveBounds
from retro.spg.frozen import frozen_mask
from retro.spg.passing import PassingPawns
from retro.spg.search import search_games

DATA = Path(__file__).resolve().parents[2] / "data" / "spg-dev.jsonl"
ROWS = {row["id"]: row for row in map(json.loads, DATA.open(encoding="utf-8"))}


def _setup(problem_id: str) -> tuple[MoveBounds, PassingPawns]:
    row = ROWS[problem_id]
    problem = parse_problem(row["board"], row["plies"])
    bounds = MoveBounds(problem.goal, frozen_mask(problem.init, problem.goal), rights_count=False)
    return bounds, PassingPawns(problem.goal, bounds)


def test_pawns_that_cannot_pass_cut_a_node_both_bounds_accept() -> None:
    """single-capture-73 (White's e-pawn ends on f6 by a capture, Black's promotes on e1;
    White takes one unit, Black none) after 1.e3 f6 2.d3 e6 3.d4 f5 4.c3 Ne7 5.Na3 Nd5
    6.Nc2 Bb4 7.Bd2 Rf8 8.Ke2 Rf6 9.Qe1 Kf7 10.Rd1 Rh6: 10 plies left, 5 moves each, and
    both sides' bounds are 5. White's e3 pawn faces Black's e6 pawn. Black takes nothing,
    so neither pawn is captured by Black nor does B capture; White's e-pawn can leave the
    file (e4, e5, exf6: 3 moves), but that is White's only capture, so B is never taken
    and must walk to e1 and on to d1 (6 moves); if White takes B instead, its e-pawn
    can no longer reach f6. The node is cut."""
    bounds, passing = _setup("single-capture-73")
    node = chess.Board("rnbq4/pppp1kpp/4p2r/3n1p2/1b1P4/2P1P3/PPNBKPPP/3RQBNR w - - 13 11")
    assert bounds.needs(node, chess.WHITE) == 5 and bounds.needs(node, chess.BLACK) == 5
    assert passing.exceeds(node, 5, 5)
    assert not passing.exceeds(node, 5, 11)  # with 11 Black moves, B can stay and walk to e1, then d1


def test_a_frozen_pawn_of_the_pair_keeps_the_plain_bound() -> None:
    """A random played game from kings and pawns: 1.f4 f5 2.h3 c6 3.b3 a6 4.b4 a5 5.bxa5.
    At the start White's b2 pawn faces Black's b7 pawn, which is frozen (:mod:`retro.spg.frozen`);
    White's b-pawn leaves the file by bxa5, White's only
    capture, so B must stay: B never moves, so its bound is the plain one. The game is
    among the solutions (a rule answering INF for a frozen pawn that must stay found no
    game at all)."""
    init = "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1"
    problem = parse_problem("4k3/1p1pp1pp/2p5/P4p2/5P2/7P/P1PPP1P1/4K3", 9, init)
    bounds = MoveBounds(problem.goal, frozen_mask(problem.init, problem.goal), rights_count=False)
    assert bounds.frozen & chess.BB_B7
    assert not PassingPawns(problem.goal, bounds).exceeds(problem.init, 5, 4)
    outcome = search_games(problem, bounds, max_nodes=20_000, cap=1_000)
    played = "f2f4 f7f5 h2h3 c7c6 b2b3 a7a6 b3b4 a6a5 b4a5".split()
    assert outcome.complete and played in [[move.uci() for move in game] for game in outcome.games]

"""retro spg deductions: pawn paths around blocked squares, the solo game's fixed staying
pieces and its check rules (constructed positions; each test fails without its rule)."""

from __future__ import annotations

import json
from pathlib import Path

import chess
import pytest

from retro.core.status import SpgStatus
from retro.spg import parse_problem
from retro.spg.bounds import INF, MoveBounds, SideMasks, side_masks
from retro.spg.contact import contact_attacks
from retro.spg.frozen import frozen_mask
from retro.spg.solo import SoloGame
from retro.spg.solve import solve

DATA = Path(__file__).resolve().parents[2] / "data" / "spg-dev.jsonl"
ROWS = {row["id"]: row for row in map(json.loads, DATA.open(encoding="utf-8"))}


def _setup(goal: str, plies: int, never_moves: chess.Bitboard = 0) -> tuple[SoloGame, MoveBounds, chess.Board]:
    """The solo game and bounds of a constructed goal; ``never_moves``: squares of goal units
    taken as frozen (the hypothesis of a test: those units never move)."""
    problem = parse_problem(goal, plies, chess.STARTING_FEN)
    frozen = frozen_mask(problem.init, problem.goal) | never_moves
    bounds = MoveBounds(problem.goal, frozen, rights_count=False)
    return SoloGame(bounds, problem.goal, None, lambda: None), bounds, problem.init


def _white_args(board: chess.Board) -> tuple[SideMasks, int, int, int]:
    return (side_masks(board, chess.WHITE), 0, 16, board.pawns & board.occupied_co[chess.BLACK])


def test_pawn_path_avoids_a_square_blocked_for_good() -> None:
    """Constructed goal: White's e-pawn on e4, a black knight on e3. With a
    black piece standing for good on e3 (a staying piece, given as a blocked square), the
    pawn can neither step nor double-step past it and has no capture to go round it, so
    White's bound is infinite; without e3 blocked it is 1 (e2-e4)."""
    solo, bounds, board = _setup("r1bqkbnr/pppppppp/8/8/4P3/4n3/PPPP1PPP/RNBQKBNR", 6)
    masks, rights, units, pawns = _white_args(board)
    assert bounds.side_needs(chess.WHITE, masks, rights, units, pawns) == 1
    assert bounds.side_needs(chess.WHITE, masks, rights, units, pawns, chess.BB_E3) >= INF
    # with two captures the pawn goes round: e2xd3 (or f3), then d3xe4; not with one
    assert bounds.pawn_path(chess.WHITE, chess.E2, chess.E4, 2, chess.BB_E3) == 2
    assert bounds.pawn_path(chess.WHITE, chess.E2, chess.E4, 1, chess.BB_E3) >= INF
    assert bounds.pawn_path(chess.WHITE, chess.E2, chess.E4, 2, chess.BB_E3 | chess.BB_D3 | chess.BB_F3) >= INF
    assert bounds.pawn_path(chess.WHITE, chess.E2, chess.E4, 0, chess.BB_D3) == 1


def test_solo_king_does_not_step_onto_a_square_a_fixed_unit_attacks() -> None:
    """Goal: White e3, Ke2, Kf3 (3 moves; the king's only way is e1-e2-f3) and a black
    knight on d4. If that knight stands there for the whole game (taken as frozen), it
    attacks e2 and f3 by contact: the king can never step there, so White's solo game
    fails; it succeeds when the knight is free."""
    goal = "r1bqkbnr/pppppppp/8/8/3n4/4PK2/PPPP1PPP/RNBQ1BNR"
    assert contact_attacks(chess.BLACK, chess.KNIGHT, chess.D4) & chess.BB_E2
    solo, _, board = _setup(goal, 6)
    assert solo.succeeds(chess.WHITE, *_white_args(board), 3)
    solo, _, board = _setup(goal, 6, chess.BB_D4)
    assert not solo.succeeds(chess.WHITE, *_white_args(board), 3)


def test_solo_game_gives_no_contact_check_to_a_fixed_king_before_its_last_move() -> None:
    """Goal: the white e-pawn on e5, the black king on f5. In two moves the pawn must pass
    e4, from where it checks f5. If the black king stands on f5 for the whole game (taken
    as frozen), Black could not answer that check (the king cannot move, the pawn is never
    taken, a pawn's check cannot be blocked), so White's solo game fails; it succeeds when
    the king is free, and a check by the last move is allowed (e4-e5 checks a king on f6)."""
    goal = "rnbq1bnr/pppppppp/8/4Pk2/8/8/PPPP1PPP/RNBQKBNR"
    solo, _, board = _setup(goal, 6)
    assert solo.succeeds(chess.WHITE, *_white_args(board), 2)
    solo, _, board = _setup(goal, 6, chess.BB_F5)
    assert not solo.succeeds(chess.WHITE, *_white_args(board), 2)
    solo, _, board = _setup("rnbq1bnr/pppppppp/5k2/4P3/8/8/PPPP1PPP/RNBQKBNR", 6, chess.BB_F6)
    assert solo.succeeds(chess.WHITE, *_white_args(board), 2)


def _row_bounds(row_id: str) -> MoveBounds:
    row = ROWS[row_id]
    problem = parse_problem(row["board"], row["plies"])
    return MoveBounds(problem.goal, frozen_mask(problem.init, problem.goal), rights_count=problem.full_fen)


def test_capture_region_holds_only_capture_squares_and_ignores_settled_pawns() -> None:
    """single-capture-73 (goal: White's pawn on f6 came from e4 by a capture, Black's f5
    pawn is at home in the goal). At a node of the search where White's pawns stand on
    d4 and e4 and Black's on e5 and f5: White's f2 pawn is settled for good (f2 is a goal
    pawn square no other white pawn can reach), so only the e4 pawn can end on f6, by a
    capture landing on f5 or f6; Black's f5 pawn is settled too and cannot be that unit,
    so a black piece must come to f6 (e5 is on a pawn path but no capture lands there).
    Black's bound is 7; 3 when the region holds every square of the paths or the
    settled f2 pawn counts as a pawn that may still reach f6."""
    bounds = _row_bounds("single-capture-73")
    node = chess.Board("rnbq4/pppp1kpp/r7/2b1pp2/3PP3/2P1n3/PP1BKPPP/NR2QBNR w - - 0 1")
    assert bounds.needs(node, chess.BLACK) == 7
    assert bounds.needs(node, chess.WHITE) == 3


def test_capture_region_ignores_pawns_settled_for_good() -> None:
    """Constructed goal: White's f-pawn on f3 and its e-pawn on f6 (by a capture; Black's
    g8 knight is gone). At a node where White's pawns stand on e4 and f3, the f3 pawn is
    settled for good (no other white pawn can reach f3: the e-pawn is past it, g2 never
    moves), so the only pawn that can end on f6 is the e4 pawn, from another file: the
    region of f6 (f5, f6) is charged to Black. Counting the f3 pawn as one that may still
    go to f6 along its own file would leave no region."""
    goal = "rnbqkb1r/pppppppp/5P2/8/8/5P2/PPPP2PP/RNBQKBNR"
    problem = parse_problem(goal, 8, chess.STARTING_FEN)
    bounds = MoveBounds(problem.goal, frozen_mask(problem.init, problem.goal), rights_count=False)
    white_pawns = chess.BB_A2 | chess.BB_B2 | chess.BB_C2 | chess.BB_D2 | chess.BB_E4 | chess.BB_F3 | chess.BB_G2
    white_pawns |= chess.BB_H2
    assert bounds.settled_pawns(chess.WHITE, white_pawns, 1) & chess.BB_F3
    assert bounds.capture_regions(chess.WHITE, white_pawns, 1) == [chess.BB_F5 | chess.BB_F6]


@pytest.mark.slow
def test_solo_check_rules_decide_no_captures_51() -> None:
    """no-captures-51 (odd row, 28 plies; Euclide 13,344,571 positions): decided unique
    with Euclide's game within 260,000 nodes (solo moves counted) with the solo game's
    check rules; unknown after 300,000 without them (and after 600,000 before this work)."""
    row = ROWS["no-captures-51"]
    verdict = solve(parse_problem(row["board"], row["plies"]), max_nodes=260_000, time_limit=None)
    assert verdict.status == SpgStatus.UNIQUE
    assert verdict.solutions == row["solutions_san"]


def test_king_routes_avoid_contact_attacks_of_frozen_units() -> None:
    """Constructed goal: White's king on e3, a black knight on e4 and a black pawn on f3,
    both taken as frozen (they stand there the whole game). The knight attacks d2 and f2
    by contact, the pawn e2: the king cannot go e1-d2/e2/f2-e3 and needs 4 moves
    (e1-d1-c2-d3-e3); 2 when only the pawn's attacks are avoided."""
    goal = chess.Board("rnbqkb1r/pppppp1p/8/8/4n3/4Kp2/PPPPPPPP/RNBQ1BNR w - - 0 1")
    bounds = MoveBounds(goal, chess.BB_E4 | chess.BB_F3, rights_count=False)
    assert bounds.dist[chess.WHITE, chess.E3][chess.E1] == 4

"""retro spg: the engine on real problems (data/spg-dev.jsonl), the start-position pair
(with and without castling rights), the pruning rules, and a property test on random games."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import chess
import pytest

from retro.core.status import LegalityStatus, SpgStatus
from retro.spg import SpgProblem, SpgVerdict, parse_problem
from retro.spg.bounds import MoveBounds, side_masks
from retro.spg.frozen import frozen_mask
from retro.spg.parity import knight_parity
from retro.spg.routes import route_squares
from retro.spg.shortest import shortest_proof_game
from retro.spg.solo import SoloGame
from retro.spg.solve import moves_of, solve
from tests.random_games import play_random

DATA = Path(__file__).resolve().parents[2] / "data" / "spg-dev.jsonl"
ROWS = {row["id"]: row for row in map(json.loads, DATA.open(encoding="utf-8"))}
START_NO_RIGHTS = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
START_BLACK_TO_MOVE = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1"
ISSUE_GAME = "Nf3 Nf6 Rg1 Rg8 Rh1 Rh8 Ng1 Ng8 Nc3 Nc6 Rb1 Rb8 Ra1 Ra8 Nb1 Nb8".split()


def _solve_row(row_id: str, **kwargs) -> tuple[dict, SpgVerdict]:
    row = ROWS[row_id]
    return row, solve(parse_problem(row["board"], row["plies"]), **kwargs)


# -- the start-position pair ---------------------------------------------------------------------


@pytest.mark.slow
def test_start_without_castling_rights_needs_16_plies() -> None:
    verdict = shortest_proof_game(chess.Board(START_NO_RIGHTS), time_limit=60)
    assert verdict.status == LegalityStatus.LEGAL
    assert len(verdict.proof) == 16 and verdict.proof_game is not None
    verdict.proof_game.replay_check(chess.Board(START_NO_RIGHTS))


@pytest.mark.slow
def test_start_without_castling_rights_14_plies_is_refuted_and_16_lists_the_issue_game() -> None:
    assert solve(parse_problem(START_NO_RIGHTS, 14)).status == SpgStatus.NO_SOLUTION
    # the issue's game is one of many move orders: check it is a solution by listing the
    # games that start with its first eight plies (from -i, the position after them)
    board = chess.Board()
    for san in ISSUE_GAME[:8]:
        board.push_san(san)
    verdict = solve(parse_problem(START_NO_RIGHTS, 8, board.fen()), cap=100_000, time_limit=60)
    assert verdict.status == SpgStatus.SOLUTIONS and not verdict.cooked
    assert ISSUE_GAME[8:] in verdict.solutions


def test_start_black_to_move_with_all_rights_is_illegal_by_tempo_parity() -> None:
    board = chess.Board(START_BLACK_TO_MOVE)
    verdict = shortest_proof_game(board, time_limit=10)
    assert verdict.status == LegalityStatus.ILLEGAL and "tempo parity" in verdict.reason
    for plies in (15, 17):  # a fixed N: the spg path proves it too
        spg = solve(parse_problem(START_BLACK_TO_MOVE, plies))
        assert spg.status == SpgStatus.NO_SOLUTION and "tempo parity" in spg.reason


def test_knight_parity_rule() -> None:
    init = chess.Board()
    goal = chess.Board(START_BLACK_TO_MOVE)
    frozen = frozen_mask(init, goal)
    # the rights freeze kings and rooks, the pawns box in bishops and queens: only knights move
    assert frozen == chess.BB_ALL & init.occupied & ~init.knights
    assert knight_parity(init, goal, frozen, chess.WHITE) == 0
    # a white knight on c3 instead of b1: White's moves are odd (b1 light -> c3 dark)
    moved = chess.Board("rnbqkbnr/pppppppp/8/8/8/2N5/PPPPPPPP/R1BQKBNR b KQkq - 0 1")
    assert knight_parity(init, moved, frozen_mask(init, moved), chess.WHITE) == 1
    # a pawn moved: the rule does not apply
    pawn = chess.Board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
    assert knight_parity(init, pawn, frozen_mask(init, pawn), chess.WHITE) is None


def test_no_capture_deadlock_freezes_king_and_queen() -> None:
    init, goal = chess.Board(), chess.Board(START_NO_RIGHTS)
    frozen = frozen_mask(init, goal)
    assert frozen & chess.BB_E1 and frozen & chess.BB_D1 and frozen & chess.BB_E8 and frozen & chess.BB_D8
    assert not frozen & (chess.BB_A1 | chess.BB_B1 | chess.BB_H8)
    # with a capture in the game the deadlock rule does not apply: the king is not frozen
    captured = chess.Board("rnbqkbnr/ppppppp1/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1")
    assert not frozen_mask(init, captured) & chess.BB_E1


# -- bounds never cut a real game ----------------------------------------------------------------------


def along_euclide_games() -> Iterator[tuple[str, SpgProblem, MoveBounds, chess.Board, dict[chess.Color, int], int]]:
    """Every position along every replayable Euclide game of the data: the row's id, its
    problem and bounds, the board, each side's moves left, and the ply (0 for the start)."""
    for row in ROWS.values():
        problem = parse_problem(row["board"], row["plies"])
        bounds = MoveBounds(problem.goal, frozen_mask(problem.init, problem.goal), rights_count=False)
        for game in row["solutions"] or []:
            if not game:
                continue
            board = problem.init.copy()
            for index in range(len(game) + 1):
                yield row["id"], problem, bounds, board, moves_of(board, len(game) - index), index
                if index < len(game):
                    board.push_uci(game[index])


def test_bounds_fit_every_ply_of_every_euclide_solution() -> None:
    """Along each replayable Euclide game, each side's bound never exceeds its moves left
    (fails without the castling rule: the king's castling jump and the rook's free move)."""
    games = 0
    for row_id, _, bounds, board, moves, index in along_euclide_games():
        for color in chess.COLORS:
            assert bounds.needs(board, color) <= moves[color], (row_id, index)
        games += index == 0
    assert games == 148  # every replayable Euclide game of the data


# -- short dev problems of each verdict -----------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    "row_id",
    [
        "natch-test-problems-42",
        "single-capture-1",
        "no-captures-10",
        "natch-test-problems-76",
        "natch-test-problems-72",
    ],
)
def test_euclide_unique_problems(row_id: str) -> None:
    row, verdict = _solve_row(row_id, time_limit=60)
    assert verdict.status == SpgStatus.UNIQUE
    assert verdict.solutions == row["solutions_san"]


@pytest.mark.slow
@pytest.mark.parametrize("row_id", ["no-captures-5", "single-capture-16"])
def test_euclide_two_solution_problems(row_id: str) -> None:
    row, verdict = _solve_row(row_id, time_limit=60)
    assert verdict.status == SpgStatus.SOLUTIONS and not verdict.cooked
    assert sorted(verdict.solutions) == sorted(row["solutions_san"])


@pytest.mark.slow
def test_euclide_cooked_problem_reaches_the_cap() -> None:
    row, verdict = _solve_row("natch-test-problems-41", time_limit=60)
    assert verdict.status == SpgStatus.SOLUTIONS and verdict.cooked and len(verdict.solutions) == 8


@pytest.mark.slow
def test_euclide_no_solution_problem_has_a_game() -> None:
    """Euclide says no solution for natch-test-problems-78 ("promotee_must_switchback2"),
    but the search finds a game, replayed here again with python-chess."""
    row, verdict = _solve_row("natch-test-problems-78", time_limit=60)
    assert verdict.status == SpgStatus.UNIQUE
    board = chess.Board()
    for san in verdict.solutions[0]:
        board.push_san(san)
    assert board.board_fen() == row["board"] and board.turn == chess.BLACK and len(board.move_stack) == 17


@pytest.mark.slow
def test_no_solution_by_root_bound_and_by_search() -> None:
    # natch-test-problems-42's diagram (5 plies: e4 b6 Qh5 ... Qxh7) in 3 plies: White needs 3 moves, has 2
    row = ROWS["natch-test-problems-42"]
    verdict = solve(parse_problem(row["board"], 3))
    assert verdict.status == SpgStatus.NO_SOLUTION and "needs at least" in verdict.reason
    # the start position after 2 plies: the root bound is 0, the search finds that no
    # move can be taken back in time (4 plies: Nf3 Nf6 Ng1 Ng8 and others)
    verdict = solve(parse_problem(chess.STARTING_BOARD_FEN, 2), time_limit=60)
    assert verdict.status == SpgStatus.NO_SOLUTION and verdict.reason.startswith("exhaustive")
    assert solve(parse_problem(chess.STARTING_BOARD_FEN, 4)).status == SpgStatus.SOLUTIONS


def test_turn_conflict_and_budget() -> None:
    assert solve(parse_problem(ROWS["natch-test-problems-42"]["board"] + " w", 5)).status == SpgStatus.NO_SOLUTION
    row = ROWS["natch-test-problems-67"]
    verdict = solve(parse_problem(row["board"], row["plies"]), max_nodes=2000)
    assert verdict.status == SpgStatus.UNKNOWN and "node budget" in verdict.reason


# -- property: the final board of a random game ---------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(12))
def test_random_game_is_among_the_solutions(seed: int) -> None:
    rng = random.Random(seed)
    board = play_random(rng, rng.randint(4, 8))
    plies = len(board.move_stack)
    game = chess.Board()
    san = []
    for move in board.move_stack:
        san.append(game.san(move))
        game.push(move)
    verdict = solve(parse_problem(board.board_fen(), plies), cap=1_000_000, time_limit=120)
    assert verdict.status != SpgStatus.NO_SOLUTION
    assert verdict.status != SpgStatus.UNKNOWN, verdict.reason
    assert san in verdict.solutions


# -- the capture-region rule ----------------------------------------------------------------------------


def test_capture_region_charges_the_unit_the_enemy_pawn_must_take() -> None:
    """single-capture-53: Black's c6 pawn comes from d7 by a capture on c6, so a white unit
    must go there (the queen, 2 moves) and White's d-pawn must promote (the goal's d6
    queen): White needs 7 of its 10 moves at the root (3 without the rule)."""
    row = ROWS["single-capture-53"]
    problem = parse_problem(row["board"], row["plies"])
    bounds = MoveBounds(problem.goal, frozen_mask(problem.init, problem.goal), rights_count=False)
    assert bounds.needs(problem.init, chess.WHITE) >= 7


def test_capture_region_counts_a_pawn_taken_en_passant() -> None:
    """1.Nf3 d5 2.Ng1 d4 3.e4 dxe3: after 3.e4 the white pawn on e4 stands beside the
    region {e3} of Black's goal pawn; it is taken there at once, so White needs 0 more moves."""
    game = "Nf3 d5 Ng1 d4 e4 dxe3".split()
    board = chess.Board()
    for san in game:
        board.push_san(san)
    problem = parse_problem(board.board_fen(), len(game))
    bounds = MoveBounds(problem.goal, frozen_mask(problem.init, problem.goal), rights_count=False)
    before_capture = chess.Board()
    for san in game[:-1]:
        before_capture.push_san(san)
    assert bounds.needs(before_capture, chess.WHITE) == 0
    verdict = solve(problem, cap=1000)
    assert game in verdict.solutions


def test_no_castling_over_a_frozen_unit() -> None:
    """single-capture-68: the f1 bishop is frozen (e2, g2 never move), so White's king cannot
    castle short on its way to h1 and walks around (8 moves): White needs 12 of its 14
    moves at the root (6 when castling over f1 was allowed)."""
    row = ROWS["single-capture-68"]
    problem = parse_problem(row["board"], row["plies"])
    bounds = MoveBounds(problem.goal, frozen_mask(problem.init, problem.goal), rights_count=False)
    assert bounds.needs(problem.init, chess.WHITE) >= 12


# -- the assignment rule --------------------------------------------------------------------------------


def test_assignment_bounds_the_whole_side() -> None:
    """natch-test-problems-53 (1.b4 c5 2.b5 Nc6 3.b6 Rb8 4.bxa7 b6 5.a8=R Bb7 6.Ra3 Ba8 7.Rh3
    Rb7 8.a4 Qb8 9.a5): the b-pawn must promote on a8 and the a-pawn reach a5, and no
    one unit can do both. Each goal square's nearest unit and each unit's nearest goal
    square give White 4 moves; the least assignment of units to squares gives all 9 of
    White's moves at the root."""
    row = ROWS["natch-test-problems-53"]
    problem = parse_problem(row["board"], row["plies"])
    bounds = MoveBounds(problem.goal, frozen_mask(problem.init, problem.goal), rights_count=False)
    assert bounds.needs(problem.init, chess.WHITE) == 9


def test_assignment_decides_single_capture_52() -> None:
    """single-capture-52 (19 plies) is decided unique within 100,000 nodes with the
    assignment bound at every node (the per-unit sums leave it unknown at 200,000)."""
    row, verdict = _solve_row("single-capture-52", max_nodes=100_000, time_limit=None)
    assert verdict.status == SpgStatus.UNIQUE
    assert verdict.solutions == row["solutions_san"]


def test_assignment_castles_once() -> None:
    """no-captures-31 (both sides castle short, then Qe1/Qe8 and Rd1/Rd8): with the castling
    move given to each rook separately, both rooks of a side reach d1 and f1 for one move;
    a side castles once, so each side needs all 11 of its moves at the root."""
    row = ROWS["no-captures-31"]
    problem = parse_problem(row["board"], row["plies"])
    bounds = MoveBounds(problem.goal, frozen_mask(problem.init, problem.goal), rights_count=False)
    assert bounds.needs(problem.init, chess.WHITE) == 11
    assert bounds.needs(problem.init, chess.BLACK) == 11


# -- route squares --------------------------------------------------------------------------------------


@pytest.mark.slow
def test_route_squares_hold_every_move_of_every_euclide_solution() -> None:
    """Every move of every replayable Euclide game goes to a route square of its piece
    type (the promoted type for a promotion), computed at the start for N plies."""
    checked = 0
    for row in ROWS.values():
        problem = parse_problem(row["board"], row["plies"])
        bounds = MoveBounds(problem.goal, frozen_mask(problem.init, problem.goal), rights_count=False)
        moves = moves_of(problem.init, problem.plies)
        routes = {color: route_squares(bounds, problem.init, color, moves[color]) for color in chess.COLORS}
        for game in row["solutions"] or []:
            if not game:
                continue
            board = problem.init.copy()
            for uci in game:
                move = chess.Move.from_uci(uci)
                kind = move.promotion or board.piece_type_at(move.from_square)
                assert kind is not None
                assert routes[board.turn][kind] & chess.BB_SQUARES[move.to_square], (row["id"], uci)
                board.push(move)
            checked += 1
    assert checked == 148


def test_route_squares_shrink_the_search() -> None:
    """single-capture-11 (8 plies, Euclide's game 1.c3 e6 2.Qa4 Ke7 3.b3 d6 4.Qe8+ Kxe8):
    decided unique within 40,000 nodes when only moves to route squares are generated
    (about 58,000 nodes when every pseudo-legal move is)."""
    row, verdict = _solve_row("single-capture-11", max_nodes=40_000, time_limit=None)
    assert verdict.status == SpgStatus.UNIQUE
    assert verdict.solutions == row["solutions_san"]


# -- pawns settled for good -----------------------------------------------------------------------------


@pytest.mark.parametrize("row_id", ["no-captures-47", "no-captures-65"])
def test_settled_pawns_block_routes(row_id: str) -> None:
    """Once a pawn stands on its goal square and no other pawn of its side can reach that
    square, it never moves again and blocks every piece route: with this, no-captures-47
    (26 plies) and no-captures-65 (34 plies) are decided unique within 60,000 nodes
    (unknown at 200,000 without it)."""
    row, verdict = _solve_row(row_id, max_nodes=60_000, time_limit=None)
    assert verdict.status == SpgStatus.UNIQUE
    assert verdict.solutions == row["solutions_san"]


def test_settled_pawns() -> None:
    """no-captures-31's goal has a white pawn on e4 and no capture: after 1.e4 that pawn is
    settled for good (the d2 and f2 pawns cannot reach e4 without a capture); Black's
    pawns all stand on the seventh rank, none on a goal pawn square of Black's."""
    row = ROWS["no-captures-31"]  # both sides play e4/e5, c4/c5, d4/d5, f4/f5
    problem = parse_problem(row["board"], row["plies"])
    bounds = MoveBounds(problem.goal, frozen_mask(problem.init, problem.goal), rights_count=False)
    board = chess.Board()
    board.push_san("e4")
    white_pawns = board.pawns & board.occupied_co[chess.WHITE]
    assert bounds.settled_pawns(chess.WHITE, white_pawns, 0) == chess.BB_E4
    black_pawns = board.pawns & board.occupied_co[chess.BLACK]
    assert bounds.settled_pawns(chess.BLACK, black_pawns, 0) == 0


def test_king_avoids_squares_of_settled_enemy_pawns() -> None:
    """edupuis-18's white king walks h4-g5-g6-h7-g8 before Black plays f6 and while h5 is
    Black's. With Black's f6 and h5 pawns settled for good, g5 and g4 are attacked for
    good and h5 is blocked: from h4 the king needs 6 moves to g8 (back through g3), not 4."""
    row = ROWS["edupuis-18"]
    problem = parse_problem(row["board"], row["plies"])
    bounds = MoveBounds(problem.goal, frozen_mask(problem.init, problem.goal), rights_count=False)
    assert bounds.table(chess.WHITE, chess.G8, 0)[chess.H4] == 4
    assert bounds.table(chess.WHITE, chess.G8, chess.BB_F6 | chess.BB_H5)[chess.H4] == 6
    # a king already on an attacked square steps off: g5 is 3 moves from g8 either way
    assert bounds.table(chess.WHITE, chess.G8, chess.BB_F6 | chess.BB_H5)[chess.G5] == 3


# -- pieces staying for good ----------------------------------------------------------------------------


def _edupuis_18_after(plies: int) -> tuple[MoveBounds, chess.Board]:
    row = ROWS["edupuis-18"]
    problem = parse_problem(row["board"], row["plies"])
    bounds = MoveBounds(problem.goal, frozen_mask(problem.init, problem.goal), rights_count=False)
    board = chess.Board()
    for san in row["solutions_san"][0][:plies]:
        board.push_san(san)
    return bounds, board


def test_king_stays_for_good() -> None:
    """edupuis-18 after 8.Kxg8: White's king is on its goal square, White needs 5 more
    moves (Qe1, bxa3, Bb2, Bd4, Bf2). With 5 or 6 moves left the king never moves again
    (leaving g8 and coming back costs 2); with 7 it could."""
    bounds, board = _edupuis_18_after(15)
    white = chess.WHITE
    args = (
        side_masks(board, white),
        0,
        chess.popcount(board.occupied_co[chess.BLACK]),
        board.pawns & board.occupied_co[chess.BLACK],
    )
    assert bounds.needs(board, white) == 5
    assert bounds.staying(white, *args, 5) == bounds.staying(white, *args, 6) == chess.BB_G8
    assert bounds.staying(white, *args, 7) == 0


def test_staying_pieces_shrink_the_search() -> None:
    """edupuis-18 (26 plies) is decided unique within 56,000 nodes when pieces staying for
    good block routes (65,008 nodes without); the solo rule is left out (its own moves
    count as nodes)."""
    row, verdict = _solve_row("edupuis-18", max_nodes=56_000, time_limit=None, solo=False)
    assert verdict.status == SpgStatus.UNIQUE
    assert verdict.solutions == row["solutions_san"]


# -- the solo game ---------------------------------------------------------------------------------------


def _solo_at_root(row_id: str) -> tuple[SoloGame, MoveBounds, chess.Board]:
    row = ROWS[row_id]
    problem = parse_problem(row["board"], row["plies"])
    bounds = MoveBounds(problem.goal, frozen_mask(problem.init, problem.goal), rights_count=problem.full_fen)
    return SoloGame(bounds, problem.goal, None, lambda: None), bounds, problem.init


def test_solo_game_sees_the_sides_own_units_in_the_way() -> None:
    """no-captures-47 (26 plies, White's 13 moves): White's bound at the start is 11 (routes
    priced on a board without White's moving units), but White alone, its own units in
    the way, cannot reach its goal units in 11 or 12 moves; it can in 13, the moves of
    the game."""
    solo, bounds, board = _solo_at_root("no-captures-47")
    white = chess.WHITE
    args = (
        side_masks(board, white),
        board.clean_castling_rights() & chess.BB_RANK_1,
        16,
        board.pawns & board.occupied_co[chess.BLACK],
    )
    assert bounds.needs(board, white) == 11
    assert solo.applies(white, 16, 16)
    assert not solo.succeeds(white, *args, 11)
    assert not solo.succeeds(white, *args, 12)
    assert solo.succeeds(white, *args, 13)


def test_solo_game_needs_the_side_to_keep_its_units() -> None:
    """single-capture-11 (1.c3 e6 2.Qa4 Ke7 3.b3 d6 4.Qe8+ Kxe8): White loses its queen, so
    the rule does not apply to White at the start; Black keeps its units and has one
    capture to make, so it applies to Black: its solo game succeeds in 4 moves (Black's
    moves in the game, the last one the capture), not in 3."""
    solo, bounds, board = _solo_at_root("single-capture-11")
    black = chess.BLACK
    assert not solo.applies(chess.WHITE, 16, 16)
    assert solo.applies(black, 16, 16)
    args = (side_masks(board, black), board.clean_castling_rights() & chess.BB_RANK_8)
    white_pawns = board.pawns & board.occupied_co[chess.WHITE]
    assert solo.succeeds(black, *args, 16, white_pawns, 4)
    assert not solo.succeeds(black, *args, 16, white_pawns, 3)


@pytest.mark.slow
def test_solo_game_shrinks_the_search() -> None:
    """no-captures-52 (28 plies; Euclide: a knight must leave b1 before the rook passes
    and must not block c3 until it has passed) is decided unique within 160,000 nodes
    (solo moves counted) with the solo rule, unknown after 2,000,000 without it."""
    row, verdict = _solve_row("no-captures-52", max_nodes=160_000, time_limit=None)
    assert verdict.status == SpgStatus.UNIQUE
    assert verdict.solutions == row["solutions_san"]


@pytest.mark.slow
def test_solo_game_with_captures_shrinks_the_search() -> None:
    """single-capture-30 (15 plies; White's king takes the queen on f4 and walks back):
    decided unique within 40,000 nodes (solo moves counted) when the solo game of the
    side that keeps its units has capture moves; unknown at 200,000 without them."""
    row, verdict = _solve_row("single-capture-30", max_nodes=40_000, time_limit=None)
    assert verdict.status == SpgStatus.UNIQUE
    assert verdict.solutions == row["solutions_san"]


# Starting points where the solo game meets castling (both sides' rights, rooks and kings
# to move), en passant (a usable square at the start), promotions (pawns one step from
# the last rank, by push or capture) and captures.
_SOLO_INITS = (
    chess.STARTING_FEN,
    "r3k2r/pppq1ppp/2n2n2/3pp3/3PP3/2N2N2/PPPQ1PPP/R3K2R w KQkq - 0 1",
    "4k3/1P4P1/8/8/8/8/1p4p1/4K3 w - - 0 1",
    "r3k2r/1P6/8/3pP3/8/8/6p1/R3K2R w KQkq d6 0 1",
    "r1b1k2r/1P3ppp/8/8/8/8/1p3PPP/R1B1K2R w KQkq - 0 1",
)


@pytest.mark.slow
def test_solo_game_keeps_every_played_game() -> None:
    """The solo rule never prunes a real game: random games of 3 to 8 plies from the
    starting points above (captures, promotions and castling played half the time when
    available), goal their last position (full FEN every other time, so rights count);
    when the search completes, the game played is among its games."""
    rng = random.Random(11)
    completed = 0
    for trial in range(60):
        init = chess.Board(_SOLO_INITS[trial % len(_SOLO_INITS)])
        board = init.copy()
        for _ in range(rng.randint(3, 8)):
            legal = list(board.legal_moves)
            if not legal:
                break
            special = [m for m in legal if board.is_capture(m) or m.promotion or board.is_castling(m)]
            board.push(rng.choice(special if special and rng.random() < 0.5 else legal))
        plies = len(board.move_stack)
        problem = parse_problem(board.fen() if trial % 2 else board.board_fen(), plies, init.fen())
        verdict = solve(problem, max_nodes=20_000, time_limit=None, cap=100)
        if verdict.status == SpgStatus.UNKNOWN or verdict.cooked:
            continue
        completed += 1
        replay, played = init.copy(), []
        for move in board.move_stack:
            played.append(replay.san(move))
            replay.push(move)
        assert played in verdict.solutions, (board.fen(), plies, played, verdict.status, verdict.solutions)
    assert completed >= 40

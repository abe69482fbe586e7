"""Static rules added for the last-move problems of data/lastmove-dev.jsonl: each fires
on a predecessor position that a published solution excludes, stays silent on the
published answer's predecessor, and (through the solver) settles the problem."""

import random

import chess
import pytest

from retro.core.position import parse_fen
from retro.core.rules import (
    _Facts,
    _region,
    captured_at_home,
    check_static,
    confined_regions,
    king_region,
    promoted_in_place,
)
from retro.lastmove.solver import solve


def test_confined_regions_h8_rook_shut_in_g8_h8():
    # Cross, last move PxQ=Q: Q1n1Kb2/B1kppppp/1prp4/2p5. Had White played b7xRa8=Q, Black
    # would have had rooks on a8 and c6; but Black's h8 rook can only ever stand on g8 or
    # h8 (Bf8 never left f8 with e7 and g7 at home; g7, h7 at home), so one of the two is
    # promoted, and all eight black pawns are on the board.
    after_rook = check_static(parse_fen("r1n1Kb2/BPkppppp/1prp4/2p5/8/8/8/8 w - - 0 1"))
    assert after_rook.status == "illegal" and after_rook.rule == "confined-regions"
    # b7xQa8=Q: the black queen on a8 is the initial one; nothing objects
    assert check_static(parse_fen("q1n1Kb2/BPkppppp/1prp4/2p5/8/8/8/8 w - - 0 1")).status == "unknown"


def test_confined_regions_settles_cross_promotion_problem():
    board = chess.Board("Q1n1Kb2/B1kppppp/1prp4/2p5/8/8/8/8 w - - 0 1")
    white = solve(board, chess.WHITE, use_legality=False, auto_cages=False)
    assert {s.type for s in white.solutions} == {"PxQ=Q"}


BORODATOV = "8/8/8/8/8/6P1/3P2Pk/2KR3N"


def test_king_region_black_king_shut_out_of_g1():
    # Borodatov: had Black played Kg1-h2, White's move before was O-O-O+ (the only way to
    # check g1 from d1), so White's king and a1 rook never moved before it. Black's king
    # could then never reach g1: f1 and f2 touch White's king on e1 all game, g2 holds a
    # pawn that never moved and attacks h3, and the g3 pawn (g2 is taken) came from f2 or
    # h2 by a capture, attacking g3 from there until it stood on it.
    verdict = check_static(parse_fen("8/8/8/8/8/6P1/3P2P1/R3K1kN w Q - 0 1"))
    assert verdict.status == "illegal" and verdict.rule == "king-region"
    # Without the castling right White's king may have come from f1 or f2: no objection.
    assert check_static(parse_fen("8/8/8/8/8/6P1/3P2P1/R3K1kN w - - 0 1")).status == "unknown"
    # The published answer's predecessor (Nf1-h2 gave the discovered check): no objection.
    assert check_static(parse_fen("8/8/8/8/8/6P1/3P2PN/2KR2kN b - - 0 1")).status == "unknown"


def test_king_region_pawn_from_second_rank_guards_its_square():
    # Only the third-rank pawn clause objects here: White's king on e1 never moved (the
    # castling right), so f1, f2 are shut; h3 is the g2 pawn's; g3 holds a pawn that came
    # from f2 or h2. Take the g3 pawn away and Black's king walks in over g3.
    assert check_static(parse_fen("8/8/8/8/8/6P1/6P1/R3K1kN w Q - 0 1")).rule == "king-region"
    assert check_static(parse_fen("8/8/8/8/8/8/6P1/R3K1kN w Q - 0 1")).status == "unknown"


def test_king_region_settles_borodatov():
    verdict = solve(chess.Board(BORODATOV + " w - - 0 1"), chess.BLACK, use_legality=False, auto_cages=False)
    assert [s.moves for s in verdict.solutions] == [("Kg1xNh2",)]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_positions_of_random_games_pass_the_new_rules(seed):
    """Every position of random games that mostly move pieces (so pawns stay at home,
    kings and rooks often keep their castling rights, and pawns capture onto their third
    rank) passes confined-regions, king-region, promoted-in-place and captured-at-home."""
    rng = random.Random(seed)
    for _ in range(40):
        board = chess.Board()
        for _ in range(rng.randint(10, 120)):
            moves = list(board.legal_moves)
            if not moves:
                break
            pieces = [m for m in moves if board.piece_type_at(m.from_square) not in (chess.PAWN, chess.KING)]
            captures = [m for m in moves if board.is_capture(m)]
            pick = rng.random()
            board.push(rng.choice(captures if captures and pick < 0.3 else pieces if pieces and pick < 0.9 else moves))
            facts = _Facts(board, "-", "-")
            assert confined_regions(facts) is None, board.fen()
            assert king_region(facts) is None, board.fen()
            assert promoted_in_place(facts) is None, board.fen()
            assert captured_at_home(facts) is None, board.fen()


WILLCOCKS_P2 = "7B/6p1/7P/6PP/5KPk/5B1p/7P/8"


def test_promoted_in_place_bishop_on_h8():
    # Willcocks, last move P--. White's h8 bishop, with Black's g7 pawn at home, promoted
    # on h8 (from h7); White's h2 pawn never moved, so the pawns now on g4, g5, h5, h6
    # and the one that promoted on h8 came from files a-g and need 13 captures, all Black
    # is missing. Bd1xQf3 as the last move would put a 14th black unit back.
    verdict = check_static(parse_fen("7B/6p1/7P/6PP/5KPk/5q1p/7P/3B4 w - - 0 1"))
    assert verdict.status == "illegal" and verdict.rule == "promoted-in-place"
    # g2-g4: the g4 pawn is White's g-pawn and the count is exactly 13: no objection
    assert check_static(parse_fen("7B/6p1/7P/6PP/5K1k/5B1p/6PP/8 w - - 0 1")).status == "unknown"
    # with the bishop on g8 instead (it may have come from f7 or h7), nothing is known
    assert check_static(parse_fen("6B1/6p1/7P/6PP/5KPk/5q1p/7P/3B4 w - - 0 1")).status == "unknown"


def test_promoted_in_place_settles_willcocks_double_step():
    board = chess.Board(WILLCOCKS_P2 + " w - - 0 1")
    verdict = solve(board, None, use_legality=False, auto_cages=False)
    assert {(s.side, s.type) for s in verdict.solutions} == {(chess.WHITE, "P--")}


def test_confined_regions_walls_and_promotion_reach():
    # 2bK1kN1/1pppprp1/5p1p (last move PxQ=N). After h7xRg8=N Black would have had rooks
    # on f7 and g8, inside the squares d8-h8, f7, h7 that c8 (bishop shut in by b7, d7),
    # d7, e7, g7 at home and the walls f6/f7 and h6/h7 (pawns single-stepped from home:
    # one of the two squares was always occupied) close off. Only the h8 rook could be
    # there: the a8 rook and any promoted rook (from the first rank) could never get in,
    # although Black's seven pawns would allow one promotion.
    verdict = check_static(parse_fen("2bK1kr1/1pppprpP/5p1p/8/8/8/8/8 w - - 0 1"))
    assert verdict.status == "illegal" and verdict.rule == "confined-regions"
    # h7xQg8=N: the queen started on d8, inside; no objection
    assert check_static(parse_fen("2bK1kq1/1pppprpP/5p1p/8/8/8/8/8 w - - 0 1")).status == "unknown"


def test_confined_regions_settles_promotion_to_knight():
    board = chess.Board("2bK1kN1/1pppprp1/5p1p/8/8/8/8/8 w - - 0 1")
    verdict = solve(board, None, use_legality=False, auto_cages=False)
    assert {(s.side, s.type) for s in verdict.solutions} == {(chess.WHITE, "PxQ=N")}


_STEPS = {
    chess.KNIGHT: ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)),
    chess.BISHOP: ((1, 1), (1, -1), (-1, 1), (-1, -1)),
    chess.ROOK: ((1, 0), (-1, 0), (0, 1), (0, -1)),
    chess.QUEEN: ((1, 1), (1, -1), (-1, 1), (-1, -1), (1, 0), (-1, 0), (0, 1), (0, -1)),
}


def _region_step_by_step(starts: int, piece_type: int, sealed: int, walls: int) -> int:
    """The region of retro.core.rules._region, walked square by square (the definition)."""

    def crosses_wall(a: int, b: int) -> bool:
        vertical = chess.square_file(a) == chess.square_file(b) and abs(a - b) == 8
        return vertical and bool(walls & chess.BB_SQUARES[max(a, b)])

    region, todo = starts, list(chess.SquareSet(starts))
    while todo:
        square = todo.pop()
        for df, dr in _STEPS[piece_type]:
            f, r, previous = chess.square_file(square) + df, chess.square_rank(square) + dr, square
            while 0 <= f < 8 and 0 <= r < 8:
                target = chess.square(f, r)
                if sealed & chess.BB_SQUARES[target] or crosses_wall(previous, target):
                    break
                if not region & chess.BB_SQUARES[target]:
                    region |= chess.BB_SQUARES[target]
                    todo.append(target)
                if piece_type == chess.KNIGHT:
                    break
                previous, f, r = target, f + df, r + dr
    return region


def test_region_by_attack_tables_is_the_step_by_step_region():
    rng = random.Random(5)
    for _ in range(1000):
        sealed = sum(1 << sq for sq in range(64) if rng.random() < 0.2)
        walls = sum(1 << sq for sq in [*range(8, 24), *range(40, 56)] if rng.random() < 0.15)
        starts = sum(1 << rng.randrange(64) for _ in range(rng.choice([1, 1, 3])))
        piece_type = rng.choice([chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN])
        assert _region(starts, piece_type, sealed, walls) == _region_step_by_step(starts, piece_type, sealed, walls)


ERIKSSON = "8/3pp2p/1PPkb2R/2r3Rr/B1Q2P2/BPN1PNpK/1P6/8"


def test_captured_at_home_counts_the_capture_on_c8():
    # Eriksson, ten retractions ending Nb5-c3+ (Nb5xXc3+ are the cooks to refute). Before
    # that move: Black's c8 bishop, shut in by b7 and d7 at home, was taken on c8 by a white
    # piece (a pawn would come from b7 or d7); so Black's light e6 bishop is promoted, only
    # Black's f-pawn can have promoted on a light square, so White's f-pawn left the f-file:
    # the white pawns need five captures. With the piece capture on c8 that is six: all
    # Black is missing when Nb5 took nothing, one too many when it took a unit on c3.
    quiet = "8/1pppp2p/2k1b2R/1NP2rRr/BPQ2P1p/BP2PN1K/1P4P1/8 w - - 0 1"
    assert check_static(parse_fen(quiet)).status == "unknown"
    for unit in "qrbn":
        verdict = check_static(parse_fen(quiet.replace("BP2PN1K", f"BP{unit}1PN1K")))
        assert verdict.status == "illegal" and verdict.rule == "captured-at-home", unit


def test_captured_at_home_settles_eriksson():
    verdict = solve(chess.Board(ERIKSSON + " w - - 0 1"), chess.BLACK, moves=10, use_legality=False, auto_cages=False)
    assert [s.moves[-1] for s in verdict.solutions] == ["Nb5-c3+"]


def test_captured_at_home_settles_four_dark_bishops():
    # kB1K4/1p1ppppp/pB1B4/1pB5 (last move c7xQb8=B). Black's bishops were both taken on
    # c8 and f8 by white pieces (b7, d7, e7, g7 at home). With those two captures off the
    # white pawns' budget, the pawn fates refute the retractions that put a unit back
    # (e.g. Black's c6xPb5), and every other last move is left without three further
    # retractions (retro-stalemate).
    board = chess.Board("kB1K4/1p1ppppp/pB1B4/1pB5/8/8/8/8 w - - 0 1")
    verdict = solve(board, None, use_legality=False, auto_cages=False)
    assert {(s.side, s.type) for s in verdict.solutions} == {(chess.WHITE, "PxQ=B")}

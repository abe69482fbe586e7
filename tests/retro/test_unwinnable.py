"""Tests of retro.unwinnable on the paper's positions (Ambrona, FUN 2022; boards decoded in
/work/shared/papers/README.md), the CHA dev labels, constructed positions and random play."""

from __future__ import annotations

import random

import chess
import pytest

from retro.unwinnable import InvalidPositionError, analyze, is_dead, routines
from retro.unwinnable.closure import closure_search
from retro.unwinnable.fastboard import from_board, legal_moves, to_move
from retro.unwinnable.fastboard import uci as move_uci
from retro.unwinnable.helpmate import KING_DISTANCE, split_by_score
from retro.unwinnable.material import insufficient_material
from retro.unwinnable.mobility import ORTHOGONAL_NEIGHBOURS, step_targets
from retro.unwinnable.static import MAX_COVER, cover_weight, unwinnable_static
from tests.conftest import read_jsonl
from tests.random_games import play_random

W, B = chess.WHITE, chess.BLACK

# (FEN, winner, expected) as stated in the paper / README table.
PAPER = [
    ("8/1p3k2/pPp3p1/P1Pp1pPp/2bP1P1P/4BK2/8/8 w - -", W, "unwinnable"),  # Position 1
    ("8/1p3k2/pPp3p1/P1Pp1pPp/2bP1P1P/4BK2/8/8 b - -", B, "unwinnable"),
    ("Bb1k1b2/bKp1p1p1/1pP1P1P1/1P6/p5P1/P7/8/8 w - -", W, "unwinnable"),  # Position 2
    ("Bb1k1b2/bKp1p1p1/1pP1P1P1/1P6/p5P1/P7/8/8 w - -", B, "unwinnable"),
    ("8/8/1p6/1B2k3/5pK1/8/8/8 b - -", W, "winnable"),  # Position 3
    ("8/8/1p6/1B2k3/5pK1/8/8/8 b - -", B, "winnable"),
    ("8/5k1K/7P/5n2/8/8/8/8 w - -", B, "winnable"),  # Position 4
    ("8/5k1K/7P/5n2/8/8/8/8 w - -", W, "winnable"),
    ("8/8/7p/5p1P/5p1K/5Pp1/6P1/5kb1 w - -", W, "unwinnable"),  # Position 12
    ("8/8/7p/5p1P/5p1K/5Pp1/6P1/5kb1 w - -", B, "unwinnable"),
    ("8/8/7p/5p1P/5p1K/5Pp1/6P1/5kb1 b - -", W, "unwinnable"),  # either side to move
    ("1k6/1P5p/BP3p2/1P6/8/8/5PKP/8 b - -", W, "unwinnable"),  # Position 13 (after White's 41st move)
    ("1k6/1P5p/BP3p2/1P6/8/8/5PKP/8 b - -", B, "unwinnable"),
    ("8/8/7p/5p1P/5p1K/5Pp1/6P1/1k6 w - -", W, "unwinnable"),  # Position 14
    ("8/8/7p/5p1P/5p1K/5Pp1/6P1/1k6 w - -", B, "unwinnable"),
    ("8/8/7p/5p1P/5p1K/5Pp1/6P1/1k6 b - -", B, "unwinnable"),
    ("5r1k/6P1/7K/5q2/8/8/8/8 b - -", W, "unwinnable"),  # Position 15
    ("5r1k/6P1/7K/5q2/8/8/8/8 b - -", B, "winnable"),
    ("8/4P2p/1p6/3Q1P2/2p3B1/Pk6/1P6/1K3r2 w - -", W, "winnable"),  # Position 16
    ("8/4P2p/1p6/3Q1P2/2p3B1/Pk6/1P6/1K3r2 w - -", B, "unwinnable"),
    ("8/8/p7/PP6/K7/1R6/1R6/k7 b - -", W, "unwinnable"),  # Position 17
    ("8/8/p7/PP6/K7/1R6/1R6/k7 b - -", B, "unwinnable"),
    ("8/8/p7/PP6/K7/1R6/1R6/k7 w - -", W, "winnable"),
    ("2b5/1p6/pPp3k1/2Pp3p/P2PpBpP/4P1P1/5K2/8 w - -", W, "winnable"),  # Position 18: not dead
    ("2b5/1p6/pPp3k1/2Pp3p/P2PpBpP/4P1P1/5K2/8 w - -", B, "winnable"),
    ("k1bK4/1p1p4/1P1Pp3/1p2Pp2/1p3P2/1P3P2/5P2/8 w - -", W, "winnable"),  # Position 19
    ("k1bK4/1p1p4/1P1Pp3/1p2Pp2/1p3P2/1P3P2/5P2/8 w - -", B, "winnable"),
    ("8/8/1Pp5/p7/P1p5/PpPp4/brpP4/kbK5 b - -", W, "unwinnable"),  # Position 20
    ("8/8/1Pp5/p7/P1p5/PpPp4/brpP4/kbK5 b - -", B, "unwinnable"),
    ("8/2PN4/PPkPB3/K3B3/NPP5/2RP4/1P2R3/8 b - -", W, "unwinnable"),  # Position 21, Black to move
    ("8/2PN4/PPkPB3/K3B3/NPP5/2RP4/1P2R3/8 b - -", B, "unwinnable"),
]


def _check_line(fen: str, winner: chess.Color, line: tuple[str, ...]) -> None:
    board = chess.Board(fen)
    for uci in line:
        move = chess.Move.from_uci(uci)
        assert move in board.legal_moves
        board.push(move)
    assert board.is_checkmate() and board.turn != winner


@pytest.mark.parametrize("fen,winner,expected", PAPER)
def test_paper_positions_full(fen: str, winner: chess.Color, expected: str) -> None:
    verdict = analyze(chess.Board(fen), winner, max_nodes=300_000)
    assert verdict.status == expected
    if expected == "winnable":
        _check_line(fen, winner, verdict.line)


@pytest.mark.parametrize("fen,winner,expected", PAPER)
def test_paper_positions_quick_never_contradicts(fen: str, winner: chess.Color, expected: str) -> None:
    verdict = analyze(chess.Board(fen), winner, quick=True)
    assert verdict.status in (expected, "undetermined")


def test_position_2_with_the_a_pawn_on_a5_is_winnable_for_white() -> None:
    # The paper (Section 1): with Black's a-pawn on a5 instead of a4, White mates by
    # 1 Ka6 Ke8 2 Bb7 Kd8 3 Bc8 Ke8 4 Bd7+ Kd8 5 Be8 Kc8 6 Bf7 Kd8 7 Bg8 Ke8 8 Kb7 Kd8
    # 9 g5 Ke8 10 Kc8 a4 11 Bf7#.
    fen = "Bb1k1b2/bKp1p1p1/1pP1P1P1/pP6/6P1/P7/8/8 w - -"
    board = chess.Board(fen)
    for san in ("Ka6 Ke8 Bb7 Kd8 Bc8 Ke8 Bd7+ Kd8 Be8 Kc8 Bf7 Kd8 Bg8 Ke8 Kb7 Kd8 g5 Ke8 Kc8 a4 Bf7#").split():
        board.push_san(san)
    assert board.is_checkmate()
    verdict = analyze(chess.Board(fen), W, max_nodes=100_000)
    assert verdict.status == "winnable"
    _check_line(fen, W, verdict.line)


def test_position_21_is_dead_by_stalemate() -> None:
    # Frolkin & Buchanan: White moved last (c5xb6 e.p.); Black, to move, is stalemated.
    board = chess.Board("8/2PN4/PPkPB3/K3B3/NPP5/2RP4/1P2R3/8 b - -")
    assert board.is_stalemate()
    assert is_dead(board, quick=True).status == "dead"


def test_closure_lines_are_shortened() -> None:
    # Position 18: the depth-first closure search meets a mate after ~12,000 plies; the
    # returned line jumps along that path and is far shorter, and still a helpmate.
    fen = "2b5/1p6/pPp3k1/2Pp3p/P2PpBpP/4P1P1/5K2/8 w - -"
    found, line, complete, _ = closure_search(from_board(chess.Board(fen)), W, 200_000)
    assert found and not complete
    assert len(line) < 2_000
    _check_line(fen, W, tuple(to_move(m).uci() for m in line))


@pytest.mark.parametrize("compiled", [False, True])
def test_find_helpmate_takes_a_mate_in_one_first(compiled: bool) -> None:
    # Lichess position (data/lichess-30k-positions.txt, row 6), White to win: after
    # 1...Rh8 the queen mates on b7. The depth-first order tries the Rewarded moves first and
    # used to reach a 46-ply helpmate down them; the mate-first scan of the expanded White
    # positions stops at the mate in one (helpmate.py, "Mate first").
    fen = "k2r4/bq4p1/PR6/4p3/8/4PQ1P/2P2PP1/6K1 b - - 6 36"
    verdict = analyze(chess.Board(fen), W, compiled=compiled)
    assert verdict.status == "winnable" and verdict.reason == "search"
    assert verdict.line == ("d8h8", "f3b7")
    _check_line(fen, W, verdict.line)


@pytest.mark.parametrize("compiled", [False, True])
def test_find_helpmate_sees_a_mate_one_ply_beyond_its_depth(compiled: bool) -> None:
    # Lichess position (data/lichess-30k-positions.txt, row 1756), White to win. Without
    # the scan of the positions refused for negative depth the iterations find the mate
    # only after 10,770 nodes; with it a mate one ply beyond the depth limit ends the
    # search after 66 (helpmate.py, "Mate beyond the horizon").
    fen = "8/5q2/p5r1/kp5K/3P4/2P5/6P1/8 b - - 1 55"
    verdict = analyze(chess.Board(fen), W, compiled=compiled)
    assert verdict.status == "winnable" and verdict.reason == "search"
    assert verdict.nodes < 1_000
    _check_line(fen, W, verdict.line)


def test_the_winner_s_moves_nearer_the_loser_s_king_come_first() -> None:
    # Lichess position (data/lichess-30k-positions.txt, row 21) after 54...Kg5, White to
    # win: the Rewarded White moves are g8f8, g8f7 and g6g7 in python-chess's order; the
    # search tries them by the king distance of their target to the black king on g5
    # (f7 and g7 at 2, in python-chess's order, then f8 at 3), and the Normal ones the same
    # way (helpmate.py, "Move order").
    board = chess.Board("4Q1K1/8/5kP1/8/6r1/8/4R3/8 b - - 0 54")
    board.push_uci("f6g5")
    state = from_board(board)
    moves = legal_moves(state)
    reward, normal, punish = split_by_score(state, moves, W)
    assert [move_uci(move) for move in moves if move in reward] == ["g8f8", "g8f7", "g6g7"]
    assert [move_uci(move) for move in reward] == ["g8f7", "g6g7", "g8f8"]
    distance = KING_DISTANCE[chess.G5]
    in_order = [move for move in moves if move not in reward]
    assert normal == sorted(in_order, key=lambda move: distance[(move >> 6) & 63]) != in_order
    assert not punish


@pytest.mark.parametrize("compiled", [False, True])
def test_find_helpmate_dives_toward_the_loser_s_king(compiled: bool) -> None:
    # The same position, White to win: in python-chess's order the depth-first search
    # dived down an 18-ply helpmate; trying White's Rewarded moves nearer the black king
    # first, it meets the queen's mate on e5 after 4 plies (helpmate.py, "Move order").
    fen = "4Q1K1/8/5kP1/8/6r1/8/4R3/8 b - - 0 54"
    verdict = analyze(chess.Board(fen), W, compiled=compiled)
    assert verdict.status == "winnable" and verdict.reason == "search"
    assert verdict.line == ("f6g5", "g8f7", "g5f5", "e8e5")
    _check_line(fen, W, verdict.line)


def test_position_1_is_dead_by_the_static_check() -> None:
    board = chess.Board("8/1p3k2/pPp3p1/P1Pp1pPp/2bP1P1P/4BK2/8/8 w - -")
    assert unwinnable_static(board, W) and unwinnable_static(board, B)
    assert is_dead(board, quick=True).status == "dead"


def _orth_hits(
    piece_type: chess.PieceType, color: chess.Color, placed: chess.Square, s: chess.Square
) -> chess.Bitboard:
    """Squares of orth(s) a lone piece on ``placed`` attacks (s vacated: the mated king is removed)."""
    board = chess.Board(None)
    board.set_piece_at(placed, chess.Piece(piece_type, color))
    return board.attacks_mask(placed) & ORTHOGONAL_NEIGHBOURS[s]


def test_max_cover_is_the_brute_force_maximum() -> None:
    # Every piece type and colour, every square s, every placement on an empty board other
    # than s (the winner's king also not next to s, where it cannot stand).
    for piece_type in chess.PIECE_TYPES:
        for color in (W, B):
            most = 0
            for s in chess.SQUARES:
                behind = s - 8 if color == W else s + 8
                for placed in chess.SQUARES:
                    if placed == s or (piece_type == chess.KING and chess.square_distance(placed, s) <= 1):
                        continue
                    hits = chess.popcount(_orth_hits(piece_type, color, placed, s))
                    most = max(most, hits)
                    if piece_type == chess.PAWN:
                        # Two squares only from directly behind s (both side neighbours).
                        sides = chess.popcount(ORTHOGONAL_NEIGHBOURS[s] & chess.BB_RANKS[chess.square_rank(s)])
                        assert hits == (sides if placed == behind else min(hits, 1)), (color, placed, s)
            assert most == MAX_COVER[piece_type], (chess.piece_name(piece_type), color)


def test_cover_weight_bounds_what_a_piece_attacks_from_its_region() -> None:
    # For each placement, the region the soundness argument guarantees (the piece's square
    # and, for a slider, the empty squares on its way to each square it hits) gives a
    # cover_weight no smaller than the number of squares of orth(s) really attacked.
    for piece_type in chess.PIECE_TYPES:
        for color in (W, B):
            for s in chess.SQUARES:
                for placed in chess.SQUARES:
                    if placed == s or (piece_type == chess.KING and chess.square_distance(placed, s) <= 1):
                        continue
                    hits = _orth_hits(piece_type, color, placed, s)
                    region = chess.BB_SQUARES[placed]
                    for target in chess.SquareSet(hits):
                        region |= chess.between(placed, target)
                    att = step_targets(piece_type, color, region)
                    assert att & hits == hits
                    assert cover_weight(piece_type, color, region, att, s) >= chess.popcount(hits)


# Checkmates (Black mated) whose escape squares are covered by pieces that each take two or
# three squares of orth(s): the static check must never call them unwinnable for White.
MULTI_COVER_MATES = [
    "4k3/4Q3/3P4/8/8/8/8/K7 b - -",  # Qe7 covers d8, f8 and checks; pawn d6 guards it
    "4k3/4Q3/3K4/8/8/8/8/8 b - -",
    "7k/6P1/5N1P/8/8/8/8/K7 b - -",  # Nf6 covers g8 and h7
    "R5k1/5ppp/8/8/8/8/8/7K b - -",  # Ra8 covers f8 and, through g8, h8
    "4k3/4P3/5K2/1B6/8/8/8/8 b - -",  # pawn e7 covers d8 and f8
    "6rk/5Npp/8/8/8/8/8/7K b - -",  # smothered
]


@pytest.mark.parametrize("fen", MULTI_COVER_MATES)
def test_static_check_never_answers_on_a_mate(fen: str) -> None:
    board = chess.Board(fen)
    assert board.is_checkmate()
    assert not unwinnable_static(board, W)
    verdict = analyze(board, W)
    assert verdict.status == "winnable" and verdict.line == ()


def test_static_check_beyond_figure_8() -> None:
    # Same-coloured bishops on both sides (dev set: unwinnable for both). Figure 8 gives up
    # (it counts squares attacked only by the winner's king as candidate mating squares);
    # our check knows that a king never checks and that dark bishops neither check a light
    # square nor cover its (dark) orthogonal neighbours.
    board = chess.Board("k4b2/2K5/5b2/6B1/5B2/b1b3B1/5B2/8 b - -")
    assert unwinnable_static(board, W) and unwinnable_static(board, B)


def test_static_check_with_facing_pawns() -> None:
    # Dev set (CHA: unwinnable for both). The pawns of ranks 6-7 are locked, the black king
    # stays on the back rank. White's d2 and Black's d5 can only push towards each other
    # (no enemy piece can ever stand where they capture), so neither passes the other and
    # h2 stops under its own h6: nobody promotes. Without the facing-pawns rule of the
    # mobility fixpoint, d2 "reaches" d5 once d5 can move away, then promotes, and the
    # check gives up.
    board = chess.Board("3k4/1p1p1p1p/1P1P1P1P/3p4/8/8/3P3P/4K3 w - -")
    assert unwinnable_static(board, W) and unwinnable_static(board, B)


def test_static_refuses_a_promotable_winner_pawn() -> None:
    # K+P vs K is winnable for White (promotion); the check must not answer.
    board = chess.Board("8/8/3k4/8/8/3P4/8/3K4 w - -")
    assert not unwinnable_static(board, W)
    assert unwinnable_static(board, B)  # Black has a lone king: no checker


def test_static_refuses_en_passant() -> None:
    # Position from the dev set with an e3 en-passant square: the static check must not answer.
    board = chess.Board("4k3/8/8/p1p1p3/P1P1Pp1p/1B3P1P/8/4K3 b - e3")
    assert not unwinnable_static(board, W)


def test_material_lemmas() -> None:
    assert insufficient_material(chess.Board("8/8/8/8/8/2k5/8/K1N4q w - -"), W)  # Lemma 5: N vs Q
    assert not insufficient_material(chess.Board("8/8/8/8/8/2k5/8/K1N4r w - -"), W)  # rook can block
    assert insufficient_material(chess.Board("8/8/8/8/8/2k5/8/K1B2B1q w - -"), W) is False  # c1,f1 differ
    assert insufficient_material(chess.Board("8/8/8/8/8/2k5/8/K1B3Bq w - -"), W)  # Lemma 6: c1, g1 both dark


@pytest.mark.slow
def test_dev_sample_no_contradiction() -> None:
    rows = read_jsonl("unwinnability-dev.jsonl")
    sample = random.Random(5).sample(rows, 30)
    for row in sample:
        board = chess.Board(row["fen"])
        for winner, key in ((W, "white_can_win"), (B, "black_can_win")):
            for quick in (True, False):
                verdict = analyze(board, winner, quick=quick, max_nodes=20_000)
                if verdict.status != "undetermined":
                    assert (verdict.status == "winnable") == row[key], (row["fen"], key, quick)
                if verdict.status == "winnable":
                    _check_line(row["fen"], winner, verdict.line)


def _has_mate_within(board: chess.Board, winner: chess.Color, depth: int) -> bool:
    if board.is_checkmate():
        return board.turn != winner
    if depth == 0:
        return False
    for move in list(board.legal_moves):
        board.push(move)
        found = _has_mate_within(board, winner, depth - 1)
        board.pop()
        if found:
            return True
    return False


@pytest.mark.slow
def test_property_random_play_never_unwinnable_with_shallow_mate() -> None:
    # Random endgames reached by random play: when plain exhaustive search (python-chess
    # legal moves) finds a mate for a side within 3 plies, neither routine may call that
    # side's position unwinnable.
    rng = random.Random(12345)
    checked = 0
    for _ in range(150):
        board = chess.Board("4k3/8/8/8/8/8/8/R3K2R w - - 0 1") if rng.random() < 0.3 else chess.Board()
        # Remove material at random to get endgames with short trees.
        for square in list(chess.SquareSet(board.occupied & ~board.kings)):
            if rng.random() < 0.8:
                board.remove_piece_at(square)
        board.castling_rights = 0
        if not board.is_valid():
            continue
        play_random(rng, rng.randrange(0, 12), board)
        if board.is_game_over():
            continue
        for winner in (W, B):
            if _has_mate_within(board.copy(), winner, 3):
                for quick in (True, False):
                    verdict = analyze(board, winner, quick=quick, max_nodes=2_000)
                    assert verdict.status != "unwinnable", (board.fen(), winner, quick)
                checked += 1
    assert checked >= 10


@pytest.mark.slow
def test_property_static_check_on_blocked_positions_after_random_play() -> None:
    # The semi-static check on positions of the dev set (mostly blocked pawn structures)
    # after a few random moves: whenever it answers, exhaustive search finds no mate within
    # 3 plies, and no mate is reachable in the first 3,000 positions of a closure search.
    rng = random.Random(2024)
    rows = read_jsonl("unwinnability-dev.jsonl")
    answered = 0
    for row in rng.sample(rows, 120):
        board = play_random(rng, rng.randrange(0, 8), chess.Board(row["fen"])).copy(stack=False)
        for winner in (W, B):
            if unwinnable_static(board, winner):
                answered += 1
                assert not _has_mate_within(board.copy(), winner, 3), (board.fen(), winner)
                found, _, _, _ = closure_search(from_board(board), winner, 3_000)
                assert not found, (board.fen(), winner)
    assert answered >= 40


@pytest.mark.parametrize(
    "fen",
    [
        "4k3/4R3/8/8/8/8/8/4K3 w - -",  # the side not to move is in check
        "P3k3/8/8/8/8/8/8/4K3 w - -",  # pawn on the back rank
        "4k3/8/8/8/8/8/8/8 w - -",  # no white king
        "4k3/8/8/8/8/8/8/3KK3 w - -",  # two white kings
    ],
)
def test_unplayable_positions_are_refused(fen: str) -> None:
    with pytest.raises(InvalidPositionError):
        analyze(chess.Board(fen), W)


def test_semi_static_check_runs_early_only_on_rammed_structures(monkeypatch: pytest.MonkeyPatch) -> None:
    # Position 1 of the paper: every pawn rammed, so the semi-static check answers after
    # the short probe (its nodes only), before the first full iteration. An open position
    # is searched first: the depth-1 iteration finds the helpmate and the check is never
    # called (here it would raise).
    blocked = analyze(chess.Board("8/1p3k2/pPp3p1/P1Pp1pPp/2bP1P1P/4BK2/8/8 w - -"), W)
    assert (blocked.status, blocked.reason) == ("unwinnable", "semi-static")
    assert 0 < blocked.nodes < 10 * routines.RAMMED_PROBE_NODES

    def not_needed(*args: object) -> bool:
        raise AssertionError("the semi-static check ran before the first iteration")

    monkeypatch.setattr("retro.unwinnable.routines.unwinnable_static", not_needed)
    board = chess.Board("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
    assert analyze(board, B).status == "winnable"

"""Static rules: each rule fires on a position built to break it and stays silent on a
nearby legal position; no legal position of the data is ever ruled illegal."""

import random

import chess
import pytest

from retro.core.pawn_fates import pawn_fates_feasible
from retro.core.position import parse_fen
from retro.core.rules import RULE_NAMES, check_static, min_pawn_captures
from tests.conftest import read_jsonl, texel_cases
from tests.random_games import play_random

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

# (rule, illegal FEN, nearby legal FEN, why the legal one is reachable)
CASES = [
    ("king-count", "8/8/8/8/8/8/8/KK5k w - - 0 1", "8/8/8/8/8/8/8/K6k w - - 0 1", "bare kings after captures"),
    (
        "pawn-on-back-rank",
        "P6k/8/8/8/8/8/8/K7 b - - 0 1",
        "Q6k/8/8/8/8/8/8/K7 b - - 0 1",
        "a pawn promoted on a8 (no check on h8)",
    ),
    (
        "too-many-units",
        "k6N/8/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
        "k7/8/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
        "White lost nothing, Black all but the king",
    ),
    (
        "too-many-promotions",
        "7k/8/8/8/8/8/PPPPPPPP/QNBQKBNR w - - 0 1",
        "7k/8/8/8/8/8/1PPPPPPP/QNBQKBNR w - - 0 1",
        "the a-pawn promoted on a8 after Black's a-pawn was taken",
    ),
    (
        "bishop-colours",
        "4k3/8/8/8/4B3/3P4/PPP1PPPP/RN1QKBNR w - - 0 1",
        "4k3/8/8/8/3B4/3P4/PPP1PPPP/RN1QKBNR w - - 0 1",
        "d3, then Bc1-e3-d4 (e4 is light, d4 dark)",
    ),
    ("opponent-in-check", "8/8/8/8/8/8/8/KRk5 w - - 0 1", "8/8/8/8/8/8/8/KRk5 b - - 0 1", "Ra1-b1+ was the last move"),
    (
        "castling-rights",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w Qkq - 0 1",
        "the h1 rook was captured",
    ),
    (
        "en-passant",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 1",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
        "1.e4 with Black to move",
    ),
    (
        "en-passant",
        "8/8/8/7k/4P3/8/8/4K2R b - e3 0 1",
        "8/8/8/7k/4P3/8/8/3BK3 b - e3 0 1",
        "e2-e4 uncovered Bd1's check (with Rh1 it was check before)",
    ),
    (
        "pawn-captures",
        "rnbqkbnr/p1pppppp/p7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/p1pppppp/p7/8/8/8/1PPPPPPP/RNBQKBNR w KQkq - 0 1",
        "texel: a4 Nf6 a5 Ng8 a6 bxa6",
    ),
]


@pytest.mark.parametrize("rule, illegal, legal, why", CASES, ids=[c[0] for c in CASES])
def test_rule_fires_and_nearby_legal_position_passes(rule, illegal, legal, why):
    verdict = check_static(parse_fen(illegal))
    assert verdict.status == "illegal" and verdict.rule == rule, verdict
    assert check_static(parse_fen(legal)).status == "unknown", why


def test_three_checkers():
    # Black king e8 attacked by Re1, Bb5 and Nd6: no single move can give three checks.
    verdict = check_static(parse_fen("4k3/8/3N4/1B6/8/8/8/K3R3 b - - 0 1"))
    assert verdict.rule == "too-many-checkers"
    # Without the bishop it is a discovered double check (Ne4-d6++), which is fine.
    assert check_static(parse_fen("4k3/8/3N4/8/8/8/8/K3R3 b - - 0 1")).status == "unknown"


def test_impossible_and_possible_double_check():
    # Rook e1 and bishop a4 both check e8. The rook's possible origins (e-file, 1st rank)
    # miss the bishop's line b5-c6-d7, and the bishop's (b3, c2, d1 and its own line)
    # miss the rook's line e2-e7: no single move discovers one check while giving the other.
    impossible = "4k3/8/8/8/B7/8/8/K3R3 b - - 0 1"
    assert check_static(parse_fen(impossible)).rule == "impossible-double-check"
    # Knight d6 and rook e1: the knight came from e4 (on the rook's line), a discovered
    # double check (e.g. Ne4-d6++).
    possible = "4k3/8/3N4/8/8/8/8/K3R3 b - - 0 1"
    assert check_static(parse_fen(possible)).status == "unknown"


def test_promotions_need_captures():
    # No unit was ever captured (16 against 16) but White has a second queen and is missing
    # its a-pawn: the a-pawn could never have passed Black's a-pawn.
    verdict = check_static(parse_fen("rnbqkbnr/pppppppp/8/8/8/Q7/1PPPPPPP/RNBQKBNR w KQkq - 0 1"))
    assert verdict.rule == "promotions-need-captures", verdict
    # Twin: Black's a-pawn is gone. A white knight took it on a6 and went home, White's
    # a-pawn ran to a8 while Black's rook stepped aside (so no black queenside castling),
    # the new queen went to a3 and Black's rook came back; Black's b-pawn went to b6.
    twin = "rnbqkbnr/2pppppp/1p6/8/8/Q7/1PPPPPPP/RNBQKBNR w KQk - 0 1"
    assert check_static(parse_fen(twin)).rule != "promotions-need-captures"


def test_pawn_fates_blocked_file():
    # Nothing was ever captured (16 units each), so no pawn left its file: a white pawn on
    # g6 above Black's on g5 would have passed it. Facing each other (g4/g5) is 1.g4 g5.
    passed = "rnbqkbnr/pppppp1p/6P1/6p1/8/8/PPPPPP1P/RNBQKBNR w KQkq - 0 1"
    assert pawn_fates_feasible(parse_fen(passed).board) is False
    facing = "rnbqkbnr/pppppp1p/8/6p1/6P1/8/PPPPPP1P/RNBQKBNR w KQkq - 0 1"
    assert pawn_fates_feasible(parse_fen(facing).board) is True
    assert check_static(parse_fen(facing)).status == "unknown"


def test_pawn_fates_capture_files():
    # Rule 5. White's only capture was b2xa3, and Black's only loss is its h-pawn. It never
    # captured (White lost nothing), so it stayed on the h-file and was taken there, where
    # no capture landed.
    far = "rnbqkbnr/ppppppp1/8/8/8/P7/P1PPPPPP/RNBQKBNR w KQkq - 0 1"
    assert pawn_fates_feasible(parse_fen(far).board) is False
    # Twin: Black's b8 knight went to a3 and was taken there.
    near = "r1bqkbnr/pppppppp/8/8/8/P7/P1PPPPPP/RNBQKBNR w KQkq - 0 1"
    assert pawn_fates_feasible(parse_fen(near).board) is True


def test_pawn_fates_home_square_blocker():
    # Rule 6. Black's third knight is its promoted a-pawn, which captured at most once
    # (White lost one unit). White's a2 and b2 pawns never moved: promoting on a1 passes
    # a2; on b1 needs a capture from a2 or c2, after walking the a-file past a2.
    blocked = "rnbqkbnr/1ppppppp/n7/8/8/8/PPPPPPPP/R1BQKBNR b KQkq - 0 1"
    assert pawn_fates_feasible(parse_fen(blocked).board) is False
    # Twin: White's b-pawn is gone too. b4-b5, ...a6xb5, the pawn walks down the open
    # b-file to b1=N (White's knight had left b1) and the knight goes to a6.
    open_file = "rnbqkbnr/1ppppppp/n7/8/8/8/P1PPPPPP/R1BQKBNR b KQkq - 0 1"
    assert pawn_fates_feasible(parse_fen(open_file).board) is True


def test_pawn_fates_position_25_of_paper_000():
    # Frolkin & Buchanan (paper 000, solution B.5): before the last move c5xb6 the capture
    # count is tight, so White's only b-file landing took one of Black's a- and b-pawns;
    # the other (its a-pawn, which took White's queen) can have neither promoted on the
    # b-file past b2 nor been taken elsewhere. A rook or knight on b6 is impossible; a
    # black pawn on b5 that just double-stepped (taken en passant) is not.
    for victim in "rn":
        before = f"8/2PN4/P{victim}kPB3/K1P1B3/NPP5/2RP4/1P2R3/8 w - - 0 1"
        assert pawn_fates_feasible(parse_fen(before).board) is False
    en_passant = "8/2PN4/P1kPB3/KpP1B3/NPP5/2RP4/1P2R3/8 w - b6 0 1"
    assert pawn_fates_feasible(parse_fen(en_passant).board) is True


def test_min_pawn_captures_counts_file_changes():
    # White pawns on a3 and a4 (doubled) with the b-pawn gone: one must come from b (1 capture).
    board = chess.Board("4k3/8/8/8/P7/P7/2PPPPPP/4K3 w - - 0 1")
    assert min_pawn_captures(board, chess.WHITE) == 1
    assert min_pawn_captures(chess.Board(), chess.WHITE) == 0


def test_no_last_move_bishop_on_a5():
    # Like texel's "How did Ba5 get there?": Ba5 checks d8 along b6-c7. It cannot have come
    # from b4 (White's pawn) nor along the checking line (Black would have been in check
    # with White to move), and no other move opens a line to d8.
    verdict = check_static(parse_fen("3k4/8/8/B7/1P6/8/8/4K3 b - - 0 1"))
    assert verdict.status == "illegal" and verdict.rule == "no-last-move", verdict
    # With b4 empty the bishop came from there: Bb4-a5+.
    assert check_static(parse_fen("3k4/8/8/B7/8/8/8/4K3 b - - 0 1")).status == "unknown"


def test_start_position_has_no_objection():
    assert check_static(parse_fen(START)).status == "unknown"


@pytest.mark.slow
def test_legal_positions_of_the_dev_file_are_never_ruled_illegal():
    for case in read_jsonl("cpr-923-dev.jsonl"):
        if case["legal"]:
            verdict = check_static(parse_fen(case["fen"]))
            assert verdict.status == "unknown", (case["fen"], verdict)


def test_dev_ep_field_that_cannot_be_the_last_move_is_illegal():
    # texel's label: "Lossy FEN conversion". Black is in check from Ra5, which e2-e4 did not uncover.
    [case] = [c for c in read_jsonl("cpr-923-dev.jsonl") if c.get("reason") == "Lossy FEN conversion"]
    verdict = check_static(parse_fen(case["fen"]))
    assert verdict.rule == "en-passant" and "already in check" in verdict.reason


def test_texel_legality_cases_are_consistent():
    """Texel cases that must not be illegal are never ruled illegal; of those texel rules
    illegal, the static rules may catch some (never contradicting texel)."""
    for case in texel_cases("legality"):
        verdict = check_static(parse_fen(case["fen"]))
        must_not_be_illegal = ("illegal" in case["expected_prefix"] and not case["expected_match"]) or (
            case["expected_match"]
            and ("legal: proof" in case["expected_prefix"] or "unknown" in case["expected_prefix"])
        )
        if must_not_be_illegal:
            assert verdict.status == "unknown", (case["fen"], verdict)


def test_texel_piece_count_cases():
    for case in texel_cases("piece_count_valid"):
        verdict = check_static(parse_fen(case["fen"]))
        counted = verdict.rule in ("too-many-promotions", "bishop-colours", "too-many-units")
        assert counted == (not case["expected_valid"]), (case["fen"], verdict)


def _random_game_positions(seed: int, games: int) -> list[chess.Board]:
    """The final positions of random games (captures and promotions preferred)."""
    rng = random.Random(seed)
    return [play_random(rng, rng.randint(10, 200), prefer=_taking).copy(stack=False) for _ in range(games)]


def _taking(board: chess.Board, move: chess.Move) -> bool:
    return board.is_capture(move) or bool(move.promotion)


@pytest.mark.slow
def test_final_positions_of_random_games_are_never_ruled_illegal():
    for board in _random_game_positions(seed=2026, games=300):
        verdict = check_static(board)
        assert verdict.status == "unknown", (board.fen(), verdict)


def test_rule_names_are_unique():
    assert len(RULE_NAMES) == len(set(RULE_NAMES))

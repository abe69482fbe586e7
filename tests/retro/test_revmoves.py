"""Reverse move generator against texel's expectations and hand-made positions.

The property test over random games is in ``test_revmoves_property.py``; the command
line in ``test_revmoves_cli.py``.
"""

from __future__ import annotations

import chess
import pytest

from retro.core.revmoves import (
    Retraction,
    castling_string,
    piece_counts_possible,
    predecessor,
    retractions,
)
from tests.conftest import texel_cases

_CORNER = {"K": chess.H1, "Q": chess.A1, "k": chess.H8, "q": chess.A8}


def texel_board(fen: str) -> chess.Board:
    """A board from a texel test FEN, keeping castling letters in any order (``kQq``)."""
    placement, side, castling, ep = fen.split()[:4]
    board = chess.Board(None)
    board.set_board_fen(placement)
    board.turn = side == "w"
    board.castling_rights = 0
    for letter in castling.replace("-", ""):
        board.castling_rights |= chess.BB_SQUARES[_CORNER[letter]]
    board.ep_square = None if ep == "-" else chess.parse_square(ep)
    return board


class Orientation:
    """Texel runs most cases also with colours swapped; so do we (board.mirror())."""

    def __init__(self, swapped: bool) -> None:
        self.swapped = swapped

    def board(self, fen: str) -> chess.Board:
        board = texel_board(fen)
        return board.mirror() if self.swapped else board

    def square(self, name: str | None) -> str | None:
        if name in (None, "-") or not self.swapped:
            return name
        return chess.square_name(chess.square_mirror(chess.parse_square(name)))

    def move(self, uci: str) -> str:
        if not self.swapped:
            return uci
        move = chess.Move.from_uci(uci)
        return chess.Move(
            chess.square_mirror(move.from_square), chess.square_mirror(move.to_square), move.promotion
        ).uci()

    def castling(self, mask: chess.Bitboard) -> str:
        """Castling rights of a retraction, written in the case's own orientation."""
        return castling_string(chess.flip_vertical(mask) if self.swapped else mask)


def texel_entry(retraction: Retraction, orientation: Orientation) -> tuple[str, str, str, str | None]:
    """(move, captured, castle, ep) as in texel-cases.jsonl (captured '-' for e.p.)."""
    move = retraction.move
    if orientation.swapped:
        move = chess.Move(chess.square_mirror(move.from_square), chess.square_mirror(move.to_square), move.promotion)
    captured = (
        "-" if retraction.captured is None or retraction.is_en_passant else chess.piece_symbol(retraction.captured)
    )
    ep = "-" if retraction.ep is None else orientation.square(chess.square_name(retraction.ep))
    return move.uci(), captured, orientation.castling(retraction.castling), ep


def matches(retraction: Retraction, case: dict, orientation: Orientation) -> bool:
    source, target = orientation.square(case.get("from")), orientation.square(case.get("to"))
    return (source is None or chess.square_name(retraction.move.from_square) == source) and (
        target is None or chess.square_name(retraction.move.to_square) == target
    )


ORIENTATIONS = [pytest.param(Orientation(False), id="as-given"), pytest.param(Orientation(True), id="mirrored")]


def case_id(case: dict) -> str:
    return f"{case['source'].rsplit(':', 1)[-1]}-{case['fen'].split()[0][:20]}"


# ----------------------------------------------------------------- texel documentation


def test_texel_documentation_example() -> None:
    # Paper 002, "texelutil revmoves": the white bishop on d7 gives check, so it just
    # arrived there, from c6 (its only origin: e8 is the black king, the e6 pawn blocks
    # f5); it must have captured (otherwise Qb5 was giving check with White to move),
    # and Black, with 15 units, may have lost any of Q R B N P.
    board = chess.Board("rnbqkbnr/pppB1ppp/4p3/1Q6/4P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 1")
    assert [r.texel_line() for r in retractions(board)] == [
        "c6d7 captP: Q castle: KQkq ep: -",
        "c6d7 captP: R castle: KQkq ep: -",
        "c6d7 captP: B castle: KQkq ep: -",
        "c6d7 captP: N castle: KQkq ep: -",
        "c6d7 captP: P castle: KQkq ep: -",
    ]


# ----------------------------------------------------------------- texel's unit tests


@pytest.mark.parametrize("orientation", ORIENTATIONS)
@pytest.mark.parametrize("case", texel_cases("revmoves"), ids=case_id)
def test_texel_revmoves_moves(case: dict, orientation: Orientation) -> None:
    board = orientation.board(case["fen"])
    got = sorted(
        {
            orientation.move(r.move.uci()) if orientation.swapped else r.move.uci()
            for r in retractions(board, include_ep_square=False)
        }
    )
    assert got == sorted(case["expected"])


@pytest.mark.parametrize("orientation", ORIENTATIONS)
@pytest.mark.parametrize("case", texel_cases("revmoves_castle_rights"), ids=case_id)
def test_texel_revmoves_castle_rights(case: dict, orientation: Orientation) -> None:
    board = orientation.board(case["fen"])
    move = orientation.move(case["move"])
    got = sorted({orientation.castling(r.castling) for r in retractions(board) if r.move.uci() == move})
    assert got == sorted(case["expected_prev_castle_rights"])


@pytest.mark.parametrize("orientation", ORIENTATIONS)
@pytest.mark.parametrize("case", texel_cases("revmoves_ep"), ids=case_id)
def test_texel_revmoves_ep(case: dict, orientation: Orientation) -> None:
    board = orientation.board(case["fen"])
    modes = [True, False] if case["include_ep_square"] == "both" else [case["include_ep_square"]]
    expected = sorted((e["move"], e["captured"], e["castle"], e["ep"]) for e in case["expected"])
    for include in modes:
        got = sorted(
            texel_entry(r, orientation)
            for r in retractions(board, include_ep_square=include)
            if r.ep is not None and matches(r, case, orientation)
        )
        assert got == expected, f"include_ep_square={include}"


@pytest.mark.parametrize("orientation", ORIENTATIONS)
@pytest.mark.parametrize("case", texel_cases("revmoves_filtered"), ids=case_id)
def test_texel_revmoves_filtered(case: dict, orientation: Orientation) -> None:
    board = orientation.board(case["fen"])
    expected = sorted((e["move"], e["captured"], e["castle"], e["ep"]) for e in case["expected"])
    got = sorted(
        texel_entry(r, orientation)
        for r in retractions(board, include_ep_square=False)
        if matches(r, case, orientation)
    )
    assert got == expected


def test_texel_cases_are_all_used() -> None:
    counts = {
        kind: len(texel_cases(kind))
        for kind in ("revmoves", "revmoves_castle_rights", "revmoves_ep", "revmoves_filtered")
    }
    assert counts == {"revmoves": 33, "revmoves_castle_rights": 36, "revmoves_ep": 27, "revmoves_filtered": 17}


# ----------------------------------------------------------------- hand-made positions


def test_side_that_moved_in_check_has_no_retraction() -> None:
    # Black to move, but the white king e1 is attacked by the rook e8: White's last
    # move left (or put) its own king in check, which no legal move does.
    assert retractions(chess.Board("4r1k1/8/8/8/8/8/8/4K3 b - - 0 1")) == []


def test_wrong_king_count_or_pawn_on_back_rank_has_no_retraction() -> None:
    assert retractions(chess.Board("4k3/8/8/8/8/8/8/8 b - - 0 1")) == []
    assert retractions(chess.Board("P3k3/8/8/8/8/8/8/4K3 b - - 0 1")) == []


def test_en_passant_field_forces_the_double_push() -> None:
    # After 1.e4 (ep e3 is legal for Black's d4 pawn) only e2e4 can have been played.
    board = chess.Board("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1")
    assert [r.texel_line() for r in retractions(board)] == ["e2e4 captP: - castle: - ep: -"]
    # An en-passant field that no double push explains (no pawn in front of it).
    assert retractions(chess.Board("4k3/8/8/8/3p4/8/8/4K3 b - e3 0 1")) == []
    # Without the field, e2e4 is impossible: Black could take en passant, so python-chess
    # and texel would record e3.
    board = chess.Board("4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1")
    assert "e2e4" not in {r.move.uci() for r in retractions(board)}
    assert "e3e4" in {r.move.uci() for r in retractions(board)}


def test_en_passant_field_without_legal_capture_is_ignored() -> None:
    # d4xe3 e.p. would remove both pawns from the 4th rank and expose the black king b4
    # to the rook h4, so no legal en-passant capture exists: the field carries no
    # information (python-chess drops it from the FEN and from equality), and last moves
    # other than e2e4 are possible.
    board = chess.Board("8/8/8/8/1k1pP2R/8/8/4K3 b - e3 0 1")
    assert not board.has_legal_en_passant()
    moves = {r.move.uci() for r in retractions(board)}
    assert "e2e4" in moves and "g4h4" in moves


def test_piece_counts() -> None:
    # White: 8 pawns and a second queen cannot both be.
    assert not piece_counts_possible(chess.Board("4k3/8/8/8/8/8/PPPPPPPP/QQ2K3 w - - 0 1"), chess.WHITE)
    assert piece_counts_possible(chess.Board("4k3/8/8/8/8/8/PPPPPPP1/QQ2K3 w - - 0 1"), chess.WHITE)
    # Two light-squared bishops need a promotion too (c1 is dark, f1 light, d3 light).
    assert not piece_counts_possible(chess.Board("4k3/8/8/8/8/3B4/PPPPPPPP/2B1KB2 w - - 0 1"), chess.WHITE)
    assert piece_counts_possible(chess.Board("4k3/8/8/8/8/3B4/PPPPPPP1/2B1KB2 w - - 0 1"), chess.WHITE)


def test_undoing_a_promotion_needs_a_free_pawn() -> None:
    # White has 8 pawns; the queen on a8 cannot be a promoted pawn, so a7a8q is not listed
    # (a7 is empty), while with 7 pawns it is.
    eight = chess.Board("Q3k3/8/8/8/8/8/PPPPPPPP/4K3 b - - 0 1")
    assert not any(r.is_promotion for r in retractions(eight))
    seven = chess.Board("Q3k3/8/8/8/8/8/1PPPPPPP/4K3 b - - 0 1")
    assert "a7a8q" in {r.move.uci() for r in retractions(seven)}


def test_castling_retraction_properties_and_predecessor() -> None:
    board = chess.Board("r3k2r/8/8/8/8/8/8/R4RK1 b kq - 0 1")
    castlings = [r for r in retractions(board) if r.is_castling]
    assert sorted(castling_string(r.castling) for r in castlings) == ["KQkq", "Kkq"]
    q = predecessor(board, castlings[0])
    assert q.piece_at(chess.E1) == chess.Piece(chess.KING, chess.WHITE)
    assert q.piece_at(chess.H1) == chess.Piece(chess.ROOK, chess.WHITE)
    assert q.is_castling(castlings[0].move) and q.is_legal(castlings[0].move)


def test_en_passant_retraction_properties_and_predecessor() -> None:
    board = chess.Board("4k3/8/3P4/8/8/8/8/4K3 b - - 0 1")
    ep = [r for r in retractions(board) if r.is_en_passant]
    assert sorted(r.move.uci() for r in ep) == ["c5d6", "e5d6"]
    for r in ep:
        assert r.captured == chess.PAWN and r.capture_square == chess.D5
        assert r.texel_line() == f"{r.move.uci()} captP: - castle: - ep: d6"
        q = predecessor(board, r)
        assert q.is_en_passant(r.move)
        assert q.piece_at(chess.D5) == chess.Piece(chess.PAWN, chess.BLACK)


def test_predecessor_rejects_a_retraction_that_does_not_fit() -> None:
    board = chess.Board("4k3/8/8/8/8/8/8/4K3 b - - 0 1")
    with pytest.raises(ValueError):
        predecessor(board, Retraction(chess.Move(chess.D2, chess.D3), None, 0, None))


def test_predecessor_keeps_clocks_plausible() -> None:
    board = chess.Board("4k3/8/8/8/8/8/8/3K4 b - - 7 40")
    quiet = next(r for r in retractions(board) if r.captured is None)
    q = predecessor(board, quiet)
    assert (q.halfmove_clock, q.fullmove_number, q.turn) == (6, 40, chess.WHITE)

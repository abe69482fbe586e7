import chess
import pytest

from retro.core.position import InvalidFenError, parse_board, parse_fen


def test_parses_four_to_six_fields_and_keeps_raw_fields():
    pos = parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    assert pos.board.fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    four = parse_fen("8/8/8/8/8/8/8/K1k5 b Kq e3")
    assert four.castling_field == "Kq" and four.ep_field == "e3"  # kept although nonsense


def test_tromp_sample_line_keeps_rank_and_multiplicity():
    pos = parse_fen("N1r3q1/1r1N2q1/kr2qp2/1b3BnR/r2pQ3/1K2N2Q/1r1Rn3/2Q1n1b1 w - - 3 7")
    assert (pos.field5, pos.multiplicity) == (3, 7)


@pytest.mark.parametrize(
    "fen, words",
    [
        ("8/8/8/8/8/8/8 w - - 0 1", "8 ranks"),
        ("9/8/8/8/8/8/8/8 w - - 0 1", "rank 8"),
        ("7x/8/8/8/8/8/8/8 w - - 0 1", "unknown piece"),
        ("8/8/8/8/8/8/8/8 x - - 0 1", "side to move"),
        ("8/8/8/8/8/8/8/8 w KX - 0 1", "castling"),
        ("8/8/8/8/8/8/8/8 w - e9 0 1", "en-passant"),
        ("8/8/8/8/8/8/8/8 w -", "4 to 6 fields"),
    ],
)
def test_bad_fens_give_clear_errors(fen, words):
    with pytest.raises(InvalidFenError, match=words):
        parse_fen(fen)


def test_king_count_only_when_required():
    parse_fen("KK6/8/8/8/8/8/8/k7 w - -")
    with pytest.raises(InvalidFenError, match="2 white kings"):
        parse_fen("KK6/8/8/8/8/8/8/k7 w - -", require_kings=True)
    assert parse_board("8/8/8/8/8/1P6/1PkPP3/KR1b4").piece_at(0) == chess.Piece.from_symbol("K")

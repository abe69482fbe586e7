import functools
import itertools
import json
import random
from collections import Counter
from pathlib import Path

import chess
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import chisquare

from retro.sampling import (
    EP_PAIRS,
    RIGHTS,
    STANDARD,
    Constraint,
    RightsOption,
    SampleSpace,
    SpaceShape,
    captures_allow,
    draws,
    multiplicity,
    sample_fen,
)

DATA = Path(__file__).resolve().parents[2] / "data"


@functools.cache
def brute_force(shape: SpaceShape) -> list[tuple[str, ...]]:
    """Enumerate every filling of the small board and keep those meeting items 1-5 of
    the definition, restated here from the module docstring (not calling its code)."""
    units_max = [b + shape.max_pawns for b in shape.base_counts]
    letters = "." + "".join(k + k.lower() for k, n in zip("PNBRQ", [shape.max_pawns] + units_max, strict=False) if n)
    boards = []
    squares = range(shape.squares)
    for wk, bk in itertools.permutations(squares, 2):
        if shape.adjacent(wk, bk):
            continue
        others = [s for s in squares if s not in (wk, bk)]
        for filling in itertools.product(letters, repeat=len(others)):
            if any(c in "Pp" and not shape.pawn_rank(s) for s, c in zip(others, filling, strict=False)):
                continue
            c = Counter(filling)
            sides = []
            for pieces in ("PNBRQ", "pnbrq"):
                pawns = c[pieces[0]]
                units = [c[x] for x in pieces[1:]]
                extra = sum(max(0, n - base) for n, base in zip(units, shape.base_counts, strict=False))
                sides.append((pawns, sum(units), extra))
            (pw, uw, ew), (pb, ub, eb) = sides
            if pw > shape.max_pawns or pb > shape.max_pawns or ew > shape.max_pawns - pw or eb > shape.max_pawns - pb:
                continue
            cw = shape.initial_units - pb - ub
            cb = shape.initial_units - pw - uw
            cc = cw + cb
            if ew + eb > 2 * cc + min(cc, 2 * shape.max_pawns - pw - pb - ew - eb):
                continue
            if ew > cc + min(cw, shape.max_pawns - pb - eb) or eb > cc + min(cb, shape.max_pawns - pw - ew):
                continue
            cells = ["."] * shape.squares
            cells[wk], cells[bk] = "K", "k"
            for s, letter in zip(others, filling, strict=False):
                cells[s] = letter
            boards.append(tuple(cells))
    return boards


def meets(cells: tuple[str, ...], constraint: Constraint) -> bool:
    return all(cells[s] == letter for s, letter in constraint.fixed) and all(cells[s] == "." for s in constraint.empty)


# a pawn and a queen per colour on 2x3: promotions to any unit, so the capture rule bites
PAWN_SHAPE = SpaceShape(files=2, ranks=3, max_pawns=1, base_counts=(0, 0, 0, 1))


@pytest.mark.parametrize(
    "shape",
    [
        SpaceShape(files=2, ranks=3, max_pawns=0, base_counts=(1, 0, 1, 0)),
        SpaceShape(files=2, ranks=4, max_pawns=0, base_counts=(1, 0, 0, 0)),
        PAWN_SHAPE,
    ],
)
def test_size_brute_force(shape):
    assert SampleSpace(shape, rights=False).size == len(brute_force(shape))


# 2x3 board: squares 0-1 first rank, 2-3 the pawn rank, 4-5 last rank
CONSTRAINTS = [
    Constraint(),
    Constraint(((0, "K"),)),  # a fixed king: only pairs from square 0
    Constraint(((5, "k"),), frozenset({2})),  # a fixed king and an empty pawn square
    Constraint(((3, "p"),)),  # a fixed pawn
    Constraint(((1, "Q"), (2, "P"))),  # a fixed queen: the weight of the other units changes
    Constraint(((1, "q"),), frozenset({3})),
    Constraint(((0, "K"), (3, "P"), (4, "k"))),  # both kings fixed
    Constraint(((0, "N"), (4, "n"))),  # promoted units only (the base has none)
]


@pytest.mark.parametrize("constraint", CONSTRAINTS)
def test_constrained_count_brute_force(constraint):
    boards = brute_force(PAWN_SHAPE)
    expected = sum(meets(cells, constraint) for cells in boards)
    assert expected  # each constraint keeps some boards ...
    assert SampleSpace(PAWN_SHAPE, rights=False).count(constraint) == expected
    assert expected < len(boards) or constraint == Constraint()  # ... and drops others


def test_constrained_count_with_fixed_rook_brute_force():
    shape = SpaceShape(files=2, ranks=3, max_pawns=0, base_counts=(1, 0, 1, 0))
    boards = brute_force(shape)
    space = SampleSpace(shape, rights=False)
    for constraint in (Constraint(((0, "R"),)), Constraint(((1, "r"), (4, "N")), frozenset({2, 3}))):
        assert space.count(constraint) == sum(meets(cells, constraint) for cells in boards) > 0


def test_impossible_constraints_count_zero():
    space = SampleSpace(PAWN_SHAPE, rights=False)
    assert space.count(Constraint(((0, "P"),))) == 0  # a pawn on the first rank
    assert space.count(Constraint(((2, "Q"),), frozenset({2}))) == 0  # fixed and empty
    assert space.count(Constraint(((0, "K"), (1, "K")))) == 0  # two white kings
    with pytest.raises(ValueError, match="no board"):
        space.draw_board(random.Random(1), Constraint(((0, "P"),)))


def test_capture_rule_bites_on_the_small_board():
    # White N+Q (the knight is a promoted pawn) against Black's full P+Q: no capture
    # was made, so no promotion -- the brute-force count above leaves such boards out
    groups = SampleSpace(PAWN_SHAPE, rights=False).groups()
    assert (0, 2, 1) in groups and (1, 1, 0) in groups
    assert not captures_allow((0, 2, 1), (1, 1, 0), PAWN_SHAPE)
    assert captures_allow((0, 2, 1), (0, 1, 0), PAWN_SHAPE)  # Black lost its pawn


@pytest.mark.slow
def test_uniform_draws_chi_square():
    space = SampleSpace(PAWN_SHAPE, rights=False)
    rng = random.Random(7)
    counts = Counter(tuple(space.draw_board(rng)) for _ in range(20 * space.size))
    assert len(counts) == space.size
    assert chisquare(list(counts.values())).pvalue > 0.001


def test_uniform_constrained_draws_chi_square():
    space = SampleSpace(PAWN_SHAPE, rights=False)
    constraint = Constraint(((1, "q"),), frozenset({3}))
    expected = {cells for cells in brute_force(PAWN_SHAPE) if meets(cells, constraint)}
    rng = random.Random(8)
    counts = Counter(tuple(space.draw_board(rng, constraint)) for _ in range(30 * len(expected)))
    assert set(counts) == expected
    assert chisquare(list(counts.values())).pvalue > 0.001


def elements_mapping_to(position: chess.Board) -> int:
    """m by its definition: the (board, option) elements whose image is the position --
    every rights option of its side that the board satisfies, mapped as item 6 says."""
    board = position.copy(stack=False)
    board.castling_rights, board.ep_square = 0, None
    target = position.fen(en_passant="legal")
    count = 0
    for option in RIGHTS:
        if option.turn != position.turn or not option.constraint.holds(board):
            continue
        image = board.copy(stack=False)
        image.castling_rights = option.castling_mask
        if option.ep is not None:
            image.ep_square = chess.square(option.ep[0], 5 if image.turn else 2)
        count += image.fen(en_passant="legal") == target
    return count


def test_multiplicity_castling():
    # start position: with or without castling rights, no en-passant pair: one element
    start = chess.Board()
    assert multiplicity(start) == 1
    bare = chess.Board()
    bare.castling_rights = 0
    assert multiplicity(bare) == 1
    # after 1.e4 no black pawn stands beside e4: the position has no ep square (FIDE), and
    # the board satisfies no ep pair
    b = chess.Board()
    b.push_san("e4")
    assert multiplicity(b) == 1
    # a castling right whose rook has left is no position of S
    moved = chess.Board("rnbqkbnr/pppppppp/8/8/8/7R/PPPPPPP1/RNBQKBN1 w Qkq - 0 1")
    moved.castling_rights |= chess.BB_H1
    assert multiplicity(moved) == 0
    for position in (start, bare, b):
        assert multiplicity(position) == elements_mapping_to(position)


def test_multiplicity_en_passant():
    # 1.Nf3 d5 2.Nc3 d4 3.e4: black can take e.p. on e3; the pair (e, d) is the only one
    b = chess.Board()
    for san in ("Nf3", "d5", "Nc3", "d4", "e4"):
        b.push_san(san)
    assert b.has_legal_en_passant()
    assert multiplicity(b) == 1
    b.ep_square = None  # the same board without the ep square: from the option without pair
    assert multiplicity(b) == 1
    # the capturer pinned along the 4th rank: d4xe3 e.p. would open the rank to the rook,
    # so the ep square is not part of the position, and the pair (e, d) maps to it too
    pinned = chess.Board("8/8/8/8/k2pP2R/8/8/4K3 b - e3 0 1")
    assert not pinned.has_legal_en_passant()
    assert multiplicity(pinned) == 2
    # two capturers: two pairs (e, d), (e, f) give the position with the ep square
    two = chess.Board("8/8/8/8/k2pPp2/8/8/4K3 b - e3 0 1")
    assert multiplicity(two) == 2
    two.ep_square = None
    assert multiplicity(two) == 1
    for position in (b, pinned, two, chess.Board("8/8/8/8/k2pP3/8/8/4K3 b - e3 0 1")):
        assert multiplicity(position) == elements_mapping_to(position)


def test_multiplicity_is_the_number_of_elements_on_draws():
    # drawn positions (the rights options of the draws, castling and ep included) and the
    # same boards with every castling right at home and each side to move
    checked = 0
    for board in draws(400, 11):
        variants = [board]
        other = board.copy(stack=False)
        other.turn = not board.turn
        other.ep_square = None
        variants.append(other)
        for position in variants:
            assert multiplicity(position) == elements_mapping_to(position) >= 1, position.fen()
            checked += 1
    assert checked == 800


def test_size_against_boards_and_their_options():
    # N = sum over boards of the rights options each satisfies; estimated from uniform
    # boards, the options counted on each board (independent of the constraint counting)
    rng = random.Random(4)
    options = []
    for _ in range(3000):
        cells = STANDARD.draw_board(rng)
        board = chess.Board(None)
        for square, letter in enumerate(cells):
            if letter != ".":
                board.set_piece_at(square, chess.Piece.from_symbol(letter))
        per_turn = []
        for turn in (chess.WHITE, chess.BLACK):
            castlings = sum(RightsOption(turn, c, None).constraint.holds(board) for c in range(16))
            pairs = sum(RightsOption(turn, 0, pair).constraint.holds(board) for pair in EP_PAIRS)
            per_turn.append(castlings * (1 + pairs))  # the constraints use disjoint squares
        options.append(sum(per_turn))
    mean = sum(options) / len(options)
    sd = (sum((x - mean) ** 2 for x in options) / (len(options) - 1)) ** 0.5
    expected = STANDARD.size / STANDARD.board_size
    assert abs(mean - expected) < 4 * sd / len(options) ** 0.5
    assert 2 < expected < 2.1  # almost every board: one option per side to move


# One capture (2.dxe5 takes the e-pawn), three promotions (both white e-pawns, the black
# d-pawn): the capture-accounting bound of item 2 is reached by a real game.
AT_THE_BOUND = (
    "d4 e5 dxe5 d5 Nf3 Kd7 e6+ Kc6 e7 d4 e8=Q+ Bd7 Qe4+ Kb6 Qh4 d3 Qd2 a6 Qdg5 d2+ Kd1 h6 "
    "e4 a5 e5 h5 e6 a4 e7 Nc6 e8=Q Be6 Ke2 d1=Q+ Ke3"
)


def test_capture_accounting_bound_reached_by_a_game():
    b = chess.Board()
    for san in AT_THE_BOUND.split():
        b.push_san(san)
    assert len(b.piece_map()) == 31 and len(b.pieces(chess.QUEEN, chess.WHITE)) == 3
    assert multiplicity(b) == 1
    # one more promoted black queen (b7 pawn -> queen): 4 promotions with 1 capture
    b.set_piece_at(chess.B7, chess.Piece(chess.QUEEN, chess.BLACK))
    assert multiplicity(b) == 0


def test_outside_space():
    assert multiplicity(chess.Board("8/8/8/8/8/8/8/Kk6 w - - 0 1")) == 0  # adjacent kings
    assert multiplicity(chess.Board("P7/8/8/8/8/8/k7/2K5 w - - 0 1")) == 0  # pawn on rank 8
    # 32 units, no capture, yet a promoted queen
    assert multiplicity(chess.Board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPQ/RNBQKBNR w - - 0 1")) == 0


def test_tromp_legal_positions_are_in_space():
    rows = [json.loads(line) for line in (DATA / "cpr-923-dev.jsonl").read_text().splitlines()]
    legal = [row["fen"] for row in rows if row["legal"]]
    assert len(legal) > 150
    for fen in legal:
        assert multiplicity(chess.Board(fen)) >= 1, fen


@st.composite
def promoting_games(draw):
    """Random legal games that prefer captures and promotions (to reach the material
    extremes item 2 is about)."""
    board = chess.Board()
    for _ in range(draw(st.integers(0, 300))):
        moves = list(board.legal_moves)
        if not moves:
            break
        pawn = [m for m in moves if m.promotion or board.piece_type_at(m.from_square) == chess.PAWN]
        pool = pawn if pawn and draw(st.integers(0, 3)) else moves
        board.push(pool[draw(st.integers(0, len(pool) - 1))])
    return board


@settings(max_examples=60, deadline=None)
@given(promoting_games())
def test_every_reached_position_is_in_space(board):
    assert multiplicity(board) >= 1, board.fen()


def test_draws_deterministic_in_space_and_fen_format():
    a = [sample_fen(b) for b in draws(5, 3)]
    assert a == [sample_fen(b) for b in draws(5, 3)]
    assert a != [sample_fen(b) for b in draws(5, 4)]
    for board in draws(300, 5):
        m = multiplicity(board)
        assert m >= 1
        fields = sample_fen(board).split()
        assert fields[4] == "0" and int(fields[5]) == m
        assert multiplicity(chess.Board(sample_fen(board))) == m


def test_standard_size_is_pinned():
    # sample files carry m of this S (field 6) and estimates use its N: a change of S
    # must be deliberate (and documented in bench/estimate.py's figures)
    assert STANDARD.board_size == 22124621884617108585387385940828998876019391612
    assert STANDARD.size == 45105343874429129395394511471574513644794615178

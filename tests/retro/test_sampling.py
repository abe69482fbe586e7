import itertools
import random
from collections import Counter

import chess
import pytest
from scipy.stats import chisquare

from retro.sampling import STANDARD, SampleSpace, SpaceShape, multiplicity


def brute_force(shape: SpaceShape) -> int:
    """Enumerate every filling of the small board and keep those meeting items 1-4."""
    space = SampleSpace(shape, rights=False)
    allowed = set(space.signatures)
    possible = [shape.max_pawns] + [b + shape.max_pawns for b in shape.base_counts]
    letters = ".Kk" + "".join(l + l.lower() for l, n in zip("PNBRQ", possible) if n)
    count = 0
    for cells in itertools.product(letters, repeat=shape.squares):
        c = Counter(cells)
        if c["K"] != 1 or c["k"] != 1:
            continue
        if shape.adjacent(cells.index("K"), cells.index("k")):
            continue
        if any(cells[s] in "Pp" and not shape.pawn_rank(s) for s in range(shape.squares)):
            continue
        if all((c[x], c[y], c[z], c[w], c[v]) in allowed for x, y, z, w, v in ("PNBRQ", "pnbrq")):
            count += 1
    return count


@pytest.mark.parametrize("shape", [
    SpaceShape(files=2, ranks=3, max_pawns=0, base_counts=(1, 0, 1, 0)),
    SpaceShape(files=2, ranks=4, max_pawns=0, base_counts=(1, 0, 0, 0)),
])
def test_size_brute_force(shape):
    assert SampleSpace(shape, rights=False).size == brute_force(shape)


def test_uniform_draws_chi_square():
    shape = SpaceShape(files=2, ranks=3, max_pawns=0, base_counts=(1, 0, 0, 0))
    space = SampleSpace(shape, rights=False)
    rng = random.Random(7)
    counts = Counter(tuple(space.draw_board(rng)) for _ in range(20 * space.size))
    assert len(counts) == space.size
    assert chisquare(list(counts.values())).pvalue > 0.001


def test_multiplicity_constructed():
    # start position: K+R at home both sides (4 castling rights compatible), no ep -> V=16
    start = chess.Board()
    assert multiplicity(start) == 1
    bare = chess.Board()
    bare.castling_rights = 0
    assert multiplicity(bare) == 1 + 144 - 16
    # after 1.e4: black to move, e4 pawn with e3,e2 empty -> ep file e compatible (V=16*2)
    b = chess.Board()
    b.push_san("e4")
    assert multiplicity(b) == 1
    b.castling_rights = 0
    b.ep_square = None
    assert multiplicity(b) == 1 + 144 - 32
    # adjacent kings are not in S
    assert multiplicity(chess.Board("8/8/8/8/8/8/8/Kk6 w - - 0 1")) == 0


def test_draws_deterministic_and_in_space():
    a = [STANDARD.draw(random.Random(3)).fen() for _ in range(2)]
    assert a[0] == a[1]
    rng = random.Random(5)
    for _ in range(200):
        assert multiplicity(STANDARD.draw(rng)) >= 1

"""Cage verification on Hwa's prototype suite, the paper's figures, and random legal
games (whose partial positions are never cages)."""

import json
import random

import chess
import pytest

from cages.library import CageSpec, Library, parse_spec
from cages.retractions import retractions
from cages.verify import Options, Reductions, _Search, _transition, default_zone, verify
from retro.cli import main
from tests.conftest import read_jsonl
from tests.random_games import play_random


def _spec(row: dict) -> CageSpec:
    extra = 0
    for name in row["zone_extra"]:
        extra |= chess.BB_SQUARES[chess.parse_square(name)]
    frozen = frozenset(chess.parse_square(name) for name in row["frozen"])
    return CageSpec(chess.Board(row["board"] + " w - - 0 1"), extra, Options(frozen), row["depth"])


def test_prototype_suite_in_group_order():
    """All 49 checks: 39 cages verified, 10 non-cages not, each group with the cages
    verified earlier in it known (data/cages-dev.jsonl)."""
    libraries: dict[str, Library] = {}
    results = []
    for row in sorted(read_jsonl("cages-dev.jsonl"), key=lambda r: (r["group"], r["group_index"])):
        library = libraries.setdefault(row["group"], Library())
        spec = _spec(row)
        verdict = verify(
            spec.board,
            extra_zone=spec.zone_extra,
            options=spec.options,
            depth=spec.depth,
            library=library,
            cache=library.cache,
        )
        if verdict.status == "cage":
            library.add(spec)
        results.append((row["board"], row["expected_cage"], verdict.status == "cage"))
    assert [r for r in results if r[1] != r[2]] == []
    assert sum(r[1] for r in results) == 39 and len(results) == 49


def test_figure_2_brandis_cage():
    assert verify(chess.Board("8/8/8/8/8/8/PPkPP3/KR1b4 w - - 0 1")).status == "cage"


def test_figure_3_cage_with_perpetually_mobile_bishop():
    # The bishop shuffles g8-h7 forever but never reaches c8/f8; h7xg6 traps it.
    verdict = verify(chess.Board("6b1/5pp1/6p1/8/8/8/8/8 w - - 0 1"))
    assert verdict.status == "cage" and verdict.nodes > 1


def test_figure_4_is_not_a_cage():
    # Rf2-f1 is legal once a unit is added on g1 (blocking the check): the rook escapes.
    verdict = verify(chess.Board("8/8/8/8/8/5P2/4PrPP/7K w - - 0 1"), extra_zone=chess.BB_C1)
    assert verdict.status == "not_verified" and verdict.line[0] == "Rf1-f2"


@pytest.mark.slow
def test_figure_5_darvall_cage_is_beyond_the_basic_algorithm():
    # A cage (the knight on b8 can never retract), but the check c8-a8 is blockable, so
    # the algorithm must not verify it: it answers not_verified, never wrongly.
    assert verify(chess.Board("KBrk4/1pppRp2/1p2p3/8/8/8/8/8 w - - 0 1"), max_nodes=20_000).status == "not_verified"


def test_forbidden_capture_option():
    # White pawns e2, f2 (home, cannot retract) and e3: e3 can only have come from d2 by
    # capture (e2 and f2 are occupied). Forbidding d x e (the extension of Hwa's Figures
    # 6-7) leaves no retraction at all, so the position is a cage under that assumption.
    board = chess.Board("8/8/8/8/8/4P3/4PP2/8 w - - 0 1")
    free = verify(board)
    assert free.status == "not_verified" and free.line == ("d2xe3",)
    assert verify(board, options=Options(forbid=frozenset({(3, 4)}))).status == "cage"


def test_known_cage_makes_containing_position_illegal():
    library = Library()
    library.add(parse_spec("8/8/8/8/8/8/PPkPP3/KR1b4 depth=5"))
    full = chess.Board("8/8/8/8/8/1P6/PPkPP3/KR1b4 w - - 0 1")
    assert library.contains_cage(full) is not None
    assert library.contains_cage(chess.Board("8/8/8/8/8/1P6/1PkPP3/KR1b4 w - - 0 1")) is None
    # A cage verified with a frozen unit does not apply without that assumption.
    conditional = Library()
    conditional.add(parse_spec("8/8/8/8/8/8/6PP/6Nr frozen=g1"))
    assert conditional.contains_cage(chess.Board("8/8/8/8/8/8/6PP/6Nr w - - 0 1")) is None


@pytest.mark.slow
def test_partial_positions_of_random_legal_games_are_never_cages():
    rng = random.Random(11)
    checked = 0
    for _ in range(100):
        board = play_random(rng, rng.randint(0, 120))
        for _ in range(3):
            f0, f1 = sorted(rng.sample(range(8), 2))
            r0, r1 = sorted(rng.sample(range(8), 2))
            part = chess.Board(None)
            for square, piece in board.piece_map().items():
                if f0 <= chess.square_file(square) <= f1 and r0 <= chess.square_rank(square) <= r1:
                    part.set_piece_at(square, piece)
            if part.piece_map():
                checked += 1
                assert verify(part, depth=8, max_nodes=300).status == "not_verified", (board.fen(), part.board_fen())
    assert checked > 200


def test_cli_single_batch_library_and_svg(tmp_path, capsys):
    svg = tmp_path / "cage.svg"
    assert main(["cage", "8/8/8/8/8/8/PPkPP3/KR1b4", "--depth", "5", "--svg", str(svg)]) == 0
    assert capsys.readouterr().out.startswith("cage verified")
    assert svg.read_text().startswith("<svg")
    claims = tmp_path / "claims.txt"
    claims.write_text("8/8/8/8/8/8/PPkPP3/KR1b4 depth=5\nnot a board\n8/8/8/8/8/8/6PP/6Nr frozen=g1\n")
    library = tmp_path / "lib.txt"
    assert main(["cage", "-f", str(claims), "--library", str(library), "--json"]) == 2
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["status"] for r in records] == ["cage", "error", "cage"]
    assert len(library.read_text().splitlines()) == 2


def test_cli_errors_exit_2(capsys):
    assert main(["cage", "8/8/8/8/8/8/6PP/6Nr", "--frozen", "a1"]) == 2
    assert "frozen square a1 is empty" in capsys.readouterr().err
    assert main(["cage", "8/8/8/8/8/8/6PP/6Nr", "--forbid", "dxf"]) == 2


def test_subsumption_verifies_a_cage_whose_units_wander():
    """k1br2b1/ppKppp1B/2p3p1 (the cage of Bartolovic & Buljan's QxQ problem): Black's
    rook and bishop go round behind the pawns, and without subsumption the breadth-first
    search exhausts 3,000 states; with it (lemma cages off) 1,848 suffice."""
    board = chess.Board("k1br2b1/ppKppp1B/2p3p1/8/8/8/8/8 w - - 0 1")
    assert verify(board, max_nodes=3_000, reductions=Reductions(lemmas=False)).status == "cage"
    without = verify(board, max_nodes=3_000, reductions=Reductions(subsumption=False, lemmas=False))
    assert without.status == "not_verified" and "budget" in without.reason


def test_lemma_cages_verify_a_king_shut_in_by_enemy_pawns():
    """nK1k4/r1ppRppp/pp2p3 (the cage of the PxB=R problem RK1k4/r1ppRpp1/pp2p2p): once
    b7xa6 is retracted, White's king on b8 stands behind Black's pawns a6 b7 c7 d7, a
    lemma cage (king + pawns, 42 states) that prunes every state containing it. Without
    lemmas the search exhausts its budget (the rook and the knight wander)."""
    board = chess.Board("nK1k4/r1ppRppp/pp2p3/8/8/8/8/8 w - - 0 1")
    verdict = verify(board, max_nodes=2_000)
    assert verdict.status == "cage" and verdict.nodes < 2_000
    assert verify(board, max_nodes=2_000, reductions=Reductions(lemmas=False)).status == "not_verified"


# Two white knights wander round a3-a2-b2 (the a3 pawn can never retract: a2 and b2 are
# occupied and stay so, since pawns on their second rank do not retract), so the position
# is a cage with a small state space. No reduction but the canonical form is on.
KNIGHTS = "8/8/8/8/8/P7/PP1N4/2N5 w - - 0 1"
KNIGHTS_APART = "8/8/8/8/8/P7/PP6/2N3N1 w - - 0 1"
NO_REDUCTIONS = Reductions(subsumption=False, sleep_sets=False, lemmas=False, stranded=False)


def _labelled_states(units: dict[chess.Square, chess.Piece]) -> set[tuple[tuple[tuple[int, int], ...], int]]:
    """The states of the search with every unit told apart (by its index): what the search
    would visit without the canonical form. Same retractions, same transition rule."""
    zone = default_zone(units)
    pieces = dict(enumerate(units.values()))
    start = (tuple(sorted((square, i) for i, square in enumerate(units))), -1)
    seen, frontier = {start}, [start]
    while frontier:
        following = []
        for labelled, pending in frontier:
            board = {square: pieces[i] for square, i in labelled}
            for square in [pending] if pending >= 0 else list(board):
                for retraction in retractions(board, square):
                    result = _transition(board, retraction, zone)
                    if result is None:
                        continue
                    moved = {s: i for s, i in labelled if s != square}
                    if zone & chess.BB_SQUARES[retraction.from_square]:
                        moved[retraction.from_square] = dict(labelled)[square]
                    state = (tuple(sorted(moved.items())), result[1])
                    if state not in seen:
                        seen.add(state)
                        following.append(state)
        frontier = following
    return seen


def test_units_of_one_kind_and_colour_are_not_told_apart():
    """The search's state is the position (square -> kind and colour), so two states that
    differ by swapping the two knights are one: 106 positions, against 211 labelled states."""
    units = chess.Board(KNIGHTS).piece_map()
    search = _Search(default_zone(units), Options(), 99, None, None, 10**6, NO_REDUCTIONS)
    assert search.failure(units, -1) is None  # a cage
    labelled = _labelled_states(units)
    pieces = dict(enumerate(units.values()))
    positions = {(tuple(sorted((s, pieces[i].symbol()) for s, i in state)), pending) for state, pending in labelled}
    assert len(search.visited) == len(positions) == 106 < len(labelled) == 211


def test_sleep_sets_skip_commuting_retractions():
    """Knights on c1 and g1 retract far apart: of each pair of commuting retractions only
    one order is explored, so fewer transitions for the same 30 states and verdict."""
    units = chess.Board(KNIGHTS_APART).piece_map()
    counts = {}
    for sleep in (False, True):
        reductions = Reductions(False, sleep, lemmas=False, stranded=False)
        search = _Search(default_zone(units), Options(), 99, None, None, 10**6, reductions)
        assert search.failure(units, -1) is None
        counts[sleep] = (len(search.visited), search.edges)
    assert counts[True][0] == counts[False][0] == 30
    assert counts[True][1] < counts[False][1]


def test_narrowed_library_leaves_out_only_cages_no_state_can_hold():
    # Cage: White Pa2 Pb2 Pd2 Pe2 Ka1 Rb1, Black Kc2 Bd1.
    library = Library()
    library.add(parse_spec("8/8/8/8/8/8/PPkPP3/KR1b4 depth=5"))
    units = chess.Board("8/8/8/8/8/8/PPkPQ3/KR1b4 w - - 0 1").piece_map()
    zone = default_zone(units)
    # A queen where the cage has a pawn: the queen may retract a promotion, so kept.
    assert len(library.narrowed(zone, units).cages) == 1
    # No black bishop to stand on d1: left out.
    del units[chess.D1]
    assert library.narrowed(zone, units).cages == ()
    # The zone does not reach d1: left out.
    units = chess.Board("8/8/8/8/8/8/PPkPP3/KR1b4 w - - 0 1").piece_map()
    assert len(library.narrowed(zone, units).cages) == 1
    assert library.narrowed(zone & ~chess.BB_D1, units).cages == ()

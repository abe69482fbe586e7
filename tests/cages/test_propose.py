"""Automatic cages: clusters of a position, proposals, and the finder that verifies them
and adds them to the library (and its file)."""

import chess
import pytest

from cages.library import Library
from cages.propose import CageFinder, clusters, confined_core, focused_proposals, linked_groups, proposals
from retro.core import rules
from retro.lastmove.solver import solve

# Brandis (paper 003, Figure 1): White retracts. The predecessor of a2xBb3 holds the
# Figure 2 cage PPkPP/KR1b (White's a1 king and b1 rook shut in behind their pawns by
# Black's king on c2 and bishop on d1) plus the black bishop on b3.
BRANDIS = "8/8/8/8/8/1P6/1PkPP3/KR1b4"
BRANDIS_AXB3 = "8/8/8/8/8/1b6/PPkPP3/KR1b4 w - - 0 1"


def test_clusters_are_king_move_components():
    board = chess.Board("k7/8/8/8/8/8/PP6/KR5N w - - 0 1")
    found = [chess.SquareSet(c) for c in clusters(board)]
    assert found == [
        chess.SquareSet([chess.A1, chess.B1, chess.A2, chess.B2]),
        chess.SquareSet([chess.H1]),
        chess.SquareSet([chess.A8]),
    ]


def test_proposals_drop_free_pieces_and_single_units():
    board = chess.Board(BRANDIS_AXB3)
    boards = [p.board_fen() for p in proposals(board)]
    assert "8/8/8/8/8/1b6/PPkPP3/KR1b4" in boards  # the whole cluster
    assert "8/8/8/8/8/8/PPkPP3/KR1b4" in boards  # without the b3 bishop: the Figure 2 cage
    assert all(len(chess.Board(b + " w - - 0 1").piece_map()) >= 2 for b in boards)


def test_finder_verifies_a_cage_and_appends_it_to_the_library_file(tmp_path):
    path = tmp_path / "cages.txt"
    library = Library.load(path)
    finder = CageFinder(library)
    line = finder.find(chess.Board(BRANDIS_AXB3))
    assert line is not None and finder.verified == 1
    assert Library.load(path).contains_cage(chess.Board(BRANDIS_AXB3)) is not None
    # The initial position contains no cage: every proposal fails (units on home squares).
    assert CageFinder(Library()).find(chess.Board()) is None


@pytest.mark.slow
def test_automatic_cages_solve_brandis_without_a_cage_file(monkeypatch):
    """The rule's test: without automatic cages a2xb3 (capturing any unit) survives;
    with them only the king's move Ka2-a1 does, and Black has no last move. (The
    frozen-units rule settles a2xb3 as well: it is taken out here.)"""
    monkeypatch.setattr("retro.lastmove.solver.frozen_units_reason", lambda board: None)
    board = chess.Board(BRANDIS + " w - - 0 1")
    plain = solve(board, None, use_legality=False, auto_cages=False)
    assert any(s.type.startswith("Px") for s in plain.solutions)
    verdict = solve(board, None, use_legality=False)
    assert {(s.side, s.type) for s in verdict.solutions} == {(chess.WHITE, "K-")}
    assert any(r.rule == "automatic cage" for r in verdict.rejections)


@pytest.mark.slow
def test_solutions_are_rechecked_with_the_cages_found(monkeypatch):
    """Ceriani (3bkN1K/pppprp1p/4p1p1, White's last move KxQ): with no cage file, K- is
    rejected by the cages found automatically (in the position before it, or by the
    recheck of the retro-stalemate once the other candidates' cages are known).

    The static rule king-region alone also settles K- (Black's king, walled in on e8 by
    its own pawns, gives the retro-stalemate filter too few retractions), so the cage
    path is tested with that rule taken out of the static rules."""
    board = chess.Board("3bkN1K/pppprp1p/4p1p1/8/8/8/8/8 w - - 0 1")
    verdict = solve(board, None, use_legality=False, time_limit=None)
    assert {(s.side, s.type) for s in verdict.solutions} == {(chess.WHITE, "KxQ")}
    king_moves = [r for r in verdict.rejections if r.moves == ("Kg8-h8",)]
    assert king_moves and king_moves[0].rule == "retro-stalemate"

    monkeypatch.setattr(rules, "RULES", [(name, rule) for name, rule in rules.RULES if name != "king-region"])
    verdict = solve(board, None, use_legality=False, time_limit=None)
    assert {(s.side, s.type) for s in verdict.solutions} == {(chess.WHITE, "KxQ")}
    king_moves = [r for r in verdict.rejections if r.moves == ("Kg8-h8",)]
    assert king_moves and (king_moves[0].rule == "automatic cage" or "cages found" in king_moves[0].reason)


# Forsberg-type corner (lastmove-dev, 4BQrk/3ppK1p/4p1p1, White's last move QxB): before
# Qh6-f8 Black must retract g7-g6 (the only retraction of Black's units), and that puts
# the g-pawn into the cage 4B1rk/3ppKpp/4p3: the white king on f7 and bishop on e8 shut
# in by the black pawns. No proposal of the position itself is a cage (with g6 empty
# behind the pawn the white king gets out), so only the look one retraction deeper finds it.
BEFORE_QF8 = "4B1rk/3ppK1p/4p1pQ/8/8/8/8/8 w - - 0 1"


def test_every_position_before_holds_a_cage():
    board = chess.Board(BEFORE_QF8)
    assert CageFinder(Library(), before=0).find(board) is None
    library = Library()
    reason = CageFinder(library, before=1).find(board)
    assert reason is not None and "predecessors contains a cage" in reason
    assert library.contains_cage(chess.Board("4B1rk/3ppKpp/4p3/8/8/8/8/8 w - - 0 1")) is not None


def test_the_initial_array_is_never_rejected_for_lack_of_predecessors():
    finder = CageFinder(Library(), before=2)
    assert finder.find(chess.Board()) is None


def test_one_colour_proposal_keeps_the_corner_bishop_and_its_pawns():
    # White's b1 bishop shut in by its pawns b3, c3, c2, d2 (lastmove-dev 8/8/8/8/1P6/kP6/2PP4/KBb5,
    # after c3xb4): the cluster holds both kings and Black's units too.
    board = chess.Board("8/8/8/8/1b6/kPP5/2PP4/KBb5 w - - 0 1")
    assert "8/8/8/8/8/1PP5/2PP4/1B6" in [p.board_fen() for p in proposals(board)]


# Ceriani, White's last move PxB=N: before g7xNh8=N, Black's knight on h8 is caged by the
# pawns and queen around it together with Black's Kd8, which keeps White's Kf8 off e8
# although the two clusters do not touch.
CERIANI_N = "2bk1K1N/1ppp1p1q/p5pp/8/8/8/8/8"
CERIANI_N_BEFORE = "2bk1K1n/1ppp1pPq/p5pp/8/8/8/8/8 w - - 0 1"


def test_linked_groups_join_clusters_through_a_king():
    board = chess.Board(CERIANI_N_BEFORE)
    assert len(clusters(board)) == 2
    assert linked_groups(board) == [board.occupied]
    # kings three steps from the other cluster do not join it
    assert linked_groups(chess.Board("k7/8/8/8/8/8/PP6/KR5N w - - 0 1")) == []
    linked = [p.board_fen() for p in proposals(board, linked=True)]
    assert "2bk1K1n/1ppp1pPq/6pp/8/8/8/8/8" in linked  # the group without its free a6 pawn
    assert all(chess.popcount(chess.Board(b + " w - - 0 1").kings) == 2 for b in linked[-4:])


@pytest.mark.slow
def test_linked_groups_solve_ceriani_without_a_cage_file():
    """The rule's test: the cage of g7xNh8=N is a proposal of the linked group only."""
    verdict = solve(chess.Board(CERIANI_N + " w - - 0 1"), None, use_legality=False, question="types")
    assert {(s.side, s.type) for s in verdict.solutions} == {(chess.WHITE, "PxB=N")}
    assert any(r.rule == "automatic cage" and r.moves == ("g7xNh8=N",) for r in verdict.rejections)


# Keym (lastmove-dev2 140, type C), White's last move BxQ: before Bf8xRg7+ the black rook
# g7 and White's bishops f8 and h7 are shut in by Black's pawns, but the cluster also holds
# White's rook e8 and pawn h5, which walk off at once (Re8-c8, h5-h4) and make the
# verification run out of states; without them it is the cage 5B1k/4pprB/6pp.
KEYM_140 = "4R2k/4ppBB/6pp/7P/3K4/8/8/8"
KEYM_140_BXR = "4RB1k/4pprB/6pp/7P/3K4/8/8/8 w - - 0 1"


def test_confined_core_drops_the_units_that_walk_off():
    board = chess.Board(KEYM_140_BXR)
    cluster = clusters(board)[0]
    core = confined_core(board, cluster, chess.BB_G7)
    assert chess.SquareSet(cluster ^ core) == chess.SquareSet([chess.E8, chess.H5])
    first = next(focused_proposals(board, chess.BB_G7))
    assert first.board_fen() == "5B1k/4pprB/6pp/8/8/8/8/8"


@pytest.mark.slow
def test_confined_core_solves_keym_bxq_without_a_cage_file():
    """Without the core proposal BxR survives (its cage is not among the first focused
    proposals, and the cluster with the rook and pawn exhausts the state budget)."""
    verdict = solve(chess.Board(KEYM_140 + " w - - 0 1"), chess.WHITE, question="types", time_limit=60)
    assert [s.type for s in verdict.solutions] == ["BxQ"]
    assert verdict.status == "unique"

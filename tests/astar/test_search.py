"""A* search and ProofGame certificate tests."""

from __future__ import annotations

import random

import chess
import pytest

from astar.heuristic import Heuristic
from astar.proofgame import ProofGame, ProofGameError
from astar.search import search, search_with_restarts
from retro.proofgame import prove
from tests.conftest import read_jsonl, texel_cases
from tests.random_games import play_random

_DEV_LEGAL = [row["fen"] for row in read_jsonl("cpr-923-dev.jsonl") if row["legal"]]


def test_replay_rejects_wrong_game() -> None:
    goal = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    good = ProofGame(chess.STARTING_FEN, tuple(chess.Move.from_uci(m) for m in ("e2e4", "e7e5", "g1f3", "b8c6")))
    good.replay_check(goal)
    assert good.san() == ["e4", "e5", "Nf3", "Nc6"]
    wrong_end = ProofGame(chess.STARTING_FEN, tuple(chess.Move.from_uci(m) for m in ("e2e4", "e7e5", "g1f3", "g8f6")))
    with pytest.raises(ProofGameError):
        wrong_end.replay_check(goal)
    illegal = ProofGame(chess.STARTING_FEN, tuple(chess.Move.from_uci(m) for m in ("e2e5", "e7e5")))
    with pytest.raises(ProofGameError):
        illegal.replay_check(goal)
    # same board, lost castling right: not the goal
    lost = ProofGame(
        chess.STARTING_FEN,
        tuple(chess.Move.from_uci(m) for m in ("e2e4", "e7e5", "g1f3", "b8c6", "h1g1", "a7a6", "g1h1", "a6a5")),
    )
    assert not lost.reaches(goal)


def test_pgn_has_setup_headers_for_custom_init() -> None:
    init = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    pgn = ProofGame(init, (chess.Move.from_uci("e7e5"),)).pgn()
    assert '[SetUp "1"]' in pgn and f'[FEN "{init}"]' in pgn and "1... e5" in pgn
    assert "SetUp" not in ProofGame(chess.STARTING_FEN, (chess.Move.from_uci("e2e4"),)).pgn()


def test_start_position_without_castling_rights_shortest_is_16() -> None:
    # texel-cases astar_length proofgameTest.cpp:784: 16 plies with weight 1:5; the
    # heuristic (castling rights to lose) guides the search; we require a proof game and,
    # with 1:1 not affordable in the test budget, only that it is at least 16 plies.
    goal = chess.Board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1")
    result = search_with_restarts(chess.Board(), goal, heuristic=Heuristic(goal), max_nodes=20_000)
    assert result.status == "found" and len(result.moves) >= 16
    ProofGame(chess.STARTING_FEN, result.moves).replay_check(goal)


SMALL_ASTAR = [
    c
    for c in texel_cases("astar_length")
    if c.get("plies") is not None and c["plies"] <= 8 and not c.get("init_path_san")
]


@pytest.mark.parametrize("case", SMALL_ASTAR, ids=lambda c: c["source"].split(":")[-1])
def test_texel_astar_length_shortest(case: dict) -> None:
    """With weight 1:1 the admissible search returns a shortest proof game (texel's length)."""
    init, goal = chess.Board(case["init_fen"]), chess.Board(case["goal_fen"])
    verdict = prove(goal, init=init, use_kernel=False, weight=(1, 1), max_nodes=30_000, time_limit=20)
    assert verdict.status == "legal" and verdict.proof_game is not None
    assert len(verdict.proof_game.moves) == case["plies"]


def test_node_limit_gives_budget_not_exception() -> None:
    # texel-cases astar_node_limit: a hard position with a 2-node limit gives "no result".
    case = texel_cases("astar_node_limit")[0]
    goal = chess.Board(case["goal_fen"])
    result = search(chess.Board(case["init_fen"]), goal, heuristic=Heuristic(goal), max_nodes=2)
    assert result.status in ("budget", "unreachable") and not result.moves


@pytest.mark.parametrize("seed", range(12))
def test_random_short_games_get_verified_proof_games(seed: int) -> None:
    """Property: the final position of any legal game is legal; the search must find a
    proof game (replay-checked inside prove) within a small budget for short games."""
    goal = play_random(random.Random(seed), 4 + seed % 5)
    verdict = prove(goal, use_kernel=False, max_nodes=20_000, time_limit=15, seed=seed)
    assert verdict.status == "legal", goal.fen()
    assert verdict.proof_game is not None and verdict.proof_game.reaches(goal)


def test_forced_ep_last_move() -> None:
    # goal with a legal ep capture: the last move must be d7-d5; the proof ends with it.
    goal = chess.Board("rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3")
    verdict = prove(goal, use_kernel=False, max_nodes=5_000, time_limit=10)
    assert verdict.status == "legal" and verdict.proof[-1] == "d5"


def test_ep_field_without_a_capture_still_names_the_last_move() -> None:
    # The FEN's e3 says White's last move was e2-e4, although no black pawn can take.
    # 1.e4 Nf6 2.Nf3 Ng8 3.Ng1 reaches the same board but ends with Ng1.
    goal = chess.Board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3")
    detour = ProofGame(
        chess.STARTING_FEN, tuple(chess.Move.from_uci(m) for m in ("e2e4", "g8f6", "g1f3", "f6g8", "f3g1"))
    )
    assert not detour.reaches(goal)
    assert detour.reaches(chess.Board(goal.fen().replace(" e3 ", " - ")))
    verdict = prove(goal, use_kernel=False, max_nodes=5_000, time_limit=10)
    assert verdict.status == "legal" and verdict.proof[-1] == "e4"


@pytest.mark.parametrize(
    "case",
    [c for c in texel_cases("goal_pos_rewrite") if c["analyze_last_moves"] and c["use_non_forced_irreversible"]],
    ids=lambda c: c["source"].split(":")[-1],
)
def test_texel_goal_pos_rewrite_irreversible_last_move(case: dict) -> None:
    """All retractions irreversible: the search targets a predecessor (texel testLastMove)."""
    from astar.last_move import forced_last_moves

    goal = chess.Board(case["goal_fen"])
    candidates = forced_last_moves(goal)
    assert candidates
    rewrite = candidates[0]
    after = rewrite.predecessor.copy()
    after.push(rewrite.move)
    assert after.board_fen() == goal.board_fen()
    if "expected_goal_fen" in case:
        assert rewrite.predecessor.fen() == case["expected_goal_fen"]
    else:
        assert rewrite.predecessor.fen() != case["expected_goal_fen_not"]


@pytest.mark.slow
def test_descending_search_finishes_a_long_dev_proof_game() -> None:
    """From the position after the last capture of Texel's 172-ply proof game for a
    legal dev position, the committed-leg search finds the remaining ~144 plies."""
    from astar.nonadmissible import NonAdmissibleHeuristic
    from astar.proofgame import ProofGame
    from astar.search import search_descending
    from proofkernel.blocked import blocked_squares
    from tests.conftest import read_jsonl

    row = [r for r in read_jsonl("cpr-923-dev.jsonl") if r["legal"]][5]
    goal = chess.Board(row["fen"])
    board = chess.Board()
    moves = [board.push_san(san) for san in row["proof"].split()]
    start = chess.Board()
    last_capture = 0
    for index, move in enumerate(moves):
        if start.is_capture(move):
            last_capture = index
        start.push(move)
    start = chess.Board()
    for move in moves[: last_capture + 1]:
        start.push(move)

    def heuristics(node: chess.Board):
        mask = blocked_squares(goal, node)
        return Heuristic(goal, mask), NonAdmissibleHeuristic(goal, mask)

    result = search_descending(start, goal, heuristics=heuristics, max_nodes=60_000, time_limit=120)
    assert result.status == "found"
    assert ProofGame(start.fen(), result.moves).reaches(goal)


def test_non_admissible_heuristic_charges_the_pieces_in_the_way() -> None:
    """A stalled best node of dev legal position #16 (one of our own runs): only Black's
    g6 bishop is off its goal square (b1), one move away on the empty board, so the
    admissible bound is 1 ply; but every way to b1 passes pieces already on their goal
    squares (f5 queen, d3 bishop, c2 knight on the diagonal; b3 rook before a2). The
    non-admissible heuristic charges them and its search finds the 9 plies at once."""
    from astar.nonadmissible import NonAdmissibleHeuristic
    from proofkernel.blocked import blocked_squares

    goal = chess.Board("5R2/1r1k3p/8/K1RP1qb1/1rBN1BB1/Br1B3N/1Bn2rnr/1bqn1r2 w - - 0 1")
    stalled = chess.Board("5R2/1r1k3p/6b1/K1RP1qb1/1rBN1BB1/Br1B3N/1Bn2rnr/2qn1r2 b - - 0 1")
    mask = blocked_squares(goal, stalled)
    assert Heuristic(goal, mask).value(stalled) == 1
    # the shortest way (g6-b1) crosses f5, d3 and c2, all on their goal squares: 2 moves each
    assert NonAdmissibleHeuristic(goal, mask).value(stalled) == 1 + 2 * 6
    plain = search(stalled, goal, heuristic=Heuristic(goal, mask), max_nodes=2_000)
    assert plain.status == "budget"
    result = search(stalled, goal, heuristic=NonAdmissibleHeuristic(goal, mask), max_nodes=200)
    assert result.status == "found" and ProofGame(stalled.fen(), result.moves).reaches(goal)


def test_non_admissible_heuristic_shares_the_goal_squares_of_a_kind() -> None:
    """Two rooks of a kind share its open goal squares: each piece's nearest square alone
    would send both to the free one. Rook A: b5 one move free, a1 one move past two
    pieces on their goal squares (4 moves of obstruction); rook B: b5 free, a1 two moves
    past one piece. The assignment gives b5 to A and a1 to B: obstruction 1."""
    from astar.nonadmissible import _assigned_obstruction

    assert _assigned_obstruction([[(1, 0), (1, 4)], [(1, 0), (2, 1)]]) == 1
    assert _assigned_obstruction([[(1, 0), (1, 4)]]) == 0  # one piece: its best square
    assert _assigned_obstruction([[(10_000, 0), (10_000, 0)]]) == 0  # nowhere to go: no charge
    assert _assigned_obstruction([]) == 0


def test_non_admissible_heuristic_charges_the_rook_left_the_obstructed_square() -> None:
    """A stalled node of dev legal position #9 (one of our own runs): Black's rooks on a5
    and c5 must fill b5 and a1. One of them takes b5; the other's ways to a1 pass the
    black bishops a3 and a2 (on their goal squares, 2 moves each) or, along rank 1,
    pieces of both sides; so the non-admissible value exceeds the admissible bound by at
    least 2 plies x 4 moves. Before the goal squares were shared, both rooks counted b5
    and nothing was charged for the rook ways."""
    from astar.nonadmissible import NonAdmissibleHeuristic
    from proofkernel.blocked import blocked_squares

    goal = chess.Board("1qR1b2R/4Q1Q1/2Q1nN2/1r1b2NB/3p4/bpb5/bBBq2k1/r1BK2nb w - - 0 1")
    stalled = chess.Board("1qR1b2R/4Q1Q1/1Q2nN2/r1rb2NB/3p1B2/bpb5/bBB2qk1/3K2nb b - - 0 1")
    mask = blocked_squares(goal, stalled)
    admissible = Heuristic(goal, mask).value(stalled)
    assert NonAdmissibleHeuristic(goal, mask).value(stalled) >= admissible + 2 * 4


def test_non_admissible_heuristic_charges_the_king_danger() -> None:
    """White's king must walk b4-c5-d6-e7-f8 (its only shortest way). A black queen
    on its goal square that attacks a square of that way, or the king's goal square,
    must step aside and come back: 2 moves, 4 plies each. Qg8 attacks f8 (4 plies);
    Qa7 attacks c5 and e7 (8 plies); a queen not on its goal square (g8 with its goal
    on h8) is charged nothing, as it has to move anyway."""
    from astar.nonadmissible import NonAdmissibleHeuristic
    from proofkernel.blocked import blocked_squares

    cases = [
        ("5Kq1/8/8/8/8/8/8/k7 w - - 0 1", "6q1/8/8/8/1K6/8/8/k7 w - - 0 1", 4),
        ("5K2/q7/8/8/8/8/8/k7 w - - 0 1", "8/q7/8/8/1K6/8/8/k7 w - - 0 1", 8),
        ("5K1q/8/8/8/8/8/8/k7 w - - 0 1", "6q1/8/8/8/1K6/8/8/k7 w - - 0 1", 0),
    ]
    for goal_fen, fen, danger in cases:
        goal, board = chess.Board(goal_fen), chess.Board(fen)
        mask = blocked_squares(goal, board)
        assert Heuristic(goal, mask).value(board) == 8  # four king moves, four black tempo moves
        assert NonAdmissibleHeuristic(goal, mask).value(board) == 8 + danger, goal_fen


@pytest.mark.slow
def test_best_node_of_a_leg_has_a_move_left() -> None:
    """From a late node of dev legal position #9 (White's king c1 in check from the e1
    rook), the lowest-heuristic positions a search generates include near-mates whose
    only answer loses material the goal needs (Bxd2 taking the queen). The best node a
    budget-limited search returns must have a child of finite heuristic, or the next
    leg starting there dies at once."""
    from proofkernel.blocked import blocked_squares

    goal = chess.Board("1qR1b2R/4Q1Q1/2Q1nN2/1r1b2NB/3p4/bpb5/bBBq2k1/r1BK2nb w - - 0 1")
    start = chess.Board("1qR1b2R/4Q1Q1/2Q1nN2/1r1b2NB/3p4/bpb5/bBBB1qk1/2K1r1nb w - - 0 1")
    heuristic = Heuristic(goal, blocked_squares(goal, start))
    for seed in (2, 3):
        result = search(start, goal, heuristic=heuristic, max_nodes=5_000, seed=seed)
        assert result.status == "budget"
        best = start.copy()
        for move in result.best_moves:
            best.push(move)
        children = []
        for move in best.legal_moves:
            best.push(move)
            children.append(heuristic.value(best))
            best.pop()
        assert min(children) < 10_000, best.fen()


def test_patience_ends_a_search_on_a_plateau() -> None:
    """Dev #16's stalled node (above): the admissible search stays at 1 ply for 2,000
    nodes. With ``patience`` 100 it gives up 100 nodes after its last improvement (the
    root), still reporting that best node."""
    from proofkernel.blocked import blocked_squares

    goal = chess.Board("5R2/1r1k3p/8/K1RP1qb1/1rBN1BB1/Br1B3N/1Bn2rnr/1bqn1r2 w - - 0 1")
    stalled = chess.Board("5R2/1r1k3p/6b1/K1RP1qb1/1rBN1BB1/Br1B3N/1Bn2rnr/2qn1r2 b - - 0 1")
    heuristic = Heuristic(goal, blocked_squares(goal, stalled))
    result = search(stalled, goal, heuristic=heuristic, max_nodes=2_000, patience=100)
    assert result.status == "budget" and result.nodes == 102 and result.best_h == 1


@pytest.mark.parametrize("seed", range(6))
def test_non_admissible_cache_gives_the_fresh_value(seed: int) -> None:
    """The non-admissible heuristic caches each kind's obstruction per (where its pieces
    stand, pieces inside its paths' regions). Along a random walk from dev #9's stalled
    node, one instance that has seen every earlier position must give the value a fresh
    instance computes: the cache key holds everything the value depends on."""
    from astar.nonadmissible import NonAdmissibleHeuristic
    from proofkernel.blocked import blocked_squares

    goal = chess.Board("1qR1b2R/4Q1Q1/2Q1nN2/1r1b2NB/3p4/bpb5/bBBq2k1/r1BK2nb w - - 0 1")
    board = chess.Board("1qR1b2R/4Q1Q1/1Q2nN2/r1rb2NB/3p1B2/bpb5/bBB2qk1/3K2nb b - - 0 1")
    mask = blocked_squares(goal, board)
    shared = NonAdmissibleHeuristic(goal, mask)
    rng = random.Random(seed)
    charged = 0
    for _ in range(60):
        finite = []
        for move in board.legal_moves:  # every child first, so the cache fills
            board.push(move)
            if shared.value(board) < 10_000:
                finite.append(move)
            board.pop()
        if not finite:
            break
        board.push(rng.choice(finite))  # the walk stays where the goal is reachable
        value = shared.value(board)
        assert value == NonAdmissibleHeuristic(goal, mask).value(board), board.fen()
        charged += value > Heuristic(goal, mask).value(board)
    assert charged  # the walk met positions with pieces in the way


def test_forced_last_move_behind_a_predecessor_with_a_proof_kernel() -> None:
    """Dev legal #146 (Black to move, a white pawn on d4, none on c3 or d3): every
    retraction is a pawn move, d3-d4 or c3xd4 taking any of five kinds of unit. The
    kernel search proves that the five capture predecessors have none (White has
    captured only once there), so the proof-game search targets d3-d4's predecessor
    with that predecessor's kernel (it took the first, c3xd4 taking a queen, before)."""
    import time

    from astar.last_move import forced_last_moves
    from retro.legality import find_kernel
    from retro.proofgame import _predecessor_with_kernel

    goal = chess.Board(_DEV_LEGAL[146])
    candidates = forced_last_moves(goal)
    assert {last.move.uci() for last in candidates} == {"c3d4", "d3d4"} and len(candidates) == 6
    for last in candidates:
        expected = "found" if last.move.uci() == "d3d4" else "no_kernel"
        assert find_kernel(last.predecessor, time_limit=20).status == expected
    goal_kernel = find_kernel(goal, time_limit=20)
    aim = _predecessor_with_kernel(candidates, goal, goal_kernel, time.monotonic(), 30, 1_000_000, {})
    assert aim.last is not None and aim.last.move == chess.Move.from_uci("d3d4")
    assert aim.kernel is not None and aim.kernel.status == "found" and aim.kernel is not goal_kernel
    assert aim.kernel_goal.fen() == aim.target.fen() == aim.last.predecessor.fen()


def test_without_a_predecessor_kernel_the_goal_stays_the_target(monkeypatch: pytest.MonkeyPatch) -> None:
    """Dev legal #152 (White's last move was a queen capture on f5, of one of several
    kinds): when no predecessor's kernel is known, the search targets the goal with the
    goal's kernel, not a predecessor, which has one black unit more than every initial
    path of the goal's kernel (the old fallback: every complete path was a dead end).
    The kernel searches the pipeline ran are read from the memo, not run again: here
    the memo says every predecessor's search ran out of time with no limit, so nothing
    is searched."""
    import time

    from astar.last_move import forced_last_moves
    from retro.legality import KernelMemo, KernelResult, KernelSearchStatus, memo_key
    from retro.proofgame import _predecessor_with_kernel

    goal = chess.Board(_DEV_LEGAL[152])
    candidates = forced_last_moves(goal)
    assert len(candidates) > 1 and all(last.move.to_square == chess.F5 for last in candidates)
    goal_kernel = KernelResult(KernelSearchStatus.FOUND, ("wxPa1",))  # stands for the goal's kernel
    unknown = KernelResult(KernelSearchStatus.UNKNOWN)
    memo: KernelMemo = {memo_key(last.predecessor): (unknown, None) for last in candidates}
    searched: list[str] = []

    def kernel_search(board: chess.Board, **_: object) -> KernelResult:
        searched.append(board.fen())
        return unknown

    monkeypatch.setattr("retro.proofgame.find_kernel", kernel_search)
    aim = _predecessor_with_kernel(candidates, goal, goal_kernel, time.monotonic(), 60, 1_000_000, memo)
    assert not searched  # no kernel search ran
    assert aim.last is None and aim.kernel is goal_kernel and aim.target is goal
    # a kernel the memo holds for the second candidate's predecessor is the one used
    second = candidates[1]
    found = KernelResult(KernelSearchStatus.FOUND, ("wPa0xPb1",))
    memo[memo_key(second.predecessor)] = (found, 1.0)
    aim = _predecessor_with_kernel(candidates, goal, goal_kernel, time.monotonic(), 60, 1_000_000, memo)
    assert aim.last == second and aim.kernel is found and aim.target is second.predecessor and not searched


@pytest.mark.slow
@pytest.mark.parametrize("finish_h", [4, -1])
def test_a_finishing_leg_climbs_to_the_goal(finish_h: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """A stalled best line of dev legal #46 (one of our own runs, 294 plies): White's f1
    rook must reach c1 past its own king on d1 (the king steps off and back), and Black's
    h6 queen must reach d2; the admissible bound stays 2 for several plies. A finishing
    leg (no patience, more nodes) gets there once both legs stall (17,142 nodes); with
    the rule off (``FINISH_H`` -1) every
    leg ends on the plateau after 700 nodes with its start as its best node, and the
    search starts over instead."""
    import astar.search
    from astar.nonadmissible import NonAdmissibleHeuristic
    from astar.search import Descent
    from proofkernel.blocked import blocked_squares

    monkeypatch.setattr(astar.search, "FINISH_H", finish_h)
    goal = chess.Board(_DEV_LEGAL[46])
    stalled = chess.Board("1N1r2b1/b1RB1Qn1/2N4q/nkqP1qQ1/3q4/R2RB3/2R1rp1b/nN1K1R2 w - - 8 148")

    def heuristics(node: chess.Board):
        mask = blocked_squares(goal, node)
        return Heuristic(goal, mask), NonAdmissibleHeuristic(goal, mask)

    result = Descent(stalled, goal, heuristics=heuristics, seed=1).run(max_nodes=20_000)
    assert (result.status == "found") == (finish_h >= 0)
    if result.status == "found":
        assert ProofGame(stalled.fen(), result.moves).reaches(goal)

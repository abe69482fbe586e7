"""The shortest proof game of a position: the least N for which the exact search finds a game.

Used by ``retro proofgame --shortest``. The goal is a full FEN, so its castling rights
and en-passant right are part of the target (:mod:`retro.spg.problem`), and N has the
parity that gives the goal's side to move.

* N runs upward from the root lower bound (each side's bound from
  :mod:`retro.spg.bounds`, turned into plies by :func:`astar.heuristic.plies_for_moves`),
  in steps of 2. For each N, a root rule (:func:`retro.spg.solve.root_refutation`) or
  an exhaustive search proves there is no game of N plies, or the search finds one. The
  first N with a game gives a proof game of minimum length (every smaller N of the right
  parity was refuted, and N of the wrong parity cannot end with the goal's side to move).
* **Illegal for every N**: a static rule (the side not to move in check, a pawn on a
  back rank), or tempo parity (:mod:`retro.spg.parity`) fixing both sides' parities in a
  way no N satisfies: with the goal's side to move equal to the initial one, both sides
  make the same number of moves, so their parities must be equal; otherwise the side to
  move first makes one move more, so they must differ.
* Otherwise, when the budget or ``max_plies`` ends the loop, the answer is ``unknown``
  and says up to which N no game exists.
"""

from __future__ import annotations

import time

import chess

from astar.heuristic import plies_for_moves
from astar.proofgame import ProofGame
from retro.core.status import LegalityStatus
from retro.proofgame import ProofGameVerdict
from retro.spg.bounds import INF, MoveBounds
from retro.spg.frozen import frozen_mask
from retro.spg.parity import knight_parity
from retro.spg.problem import SpgProblem
from retro.spg.search import search_games
from retro.spg.solve import root_refutation

__all__ = ["shortest_proof_game", "never_reachable"]


def never_reachable(init: chess.Board, goal: chess.Board, frozen: int) -> str | None:
    """A rule proving that no game of any length reaches ``goal`` (module docstring), or ``None``."""
    if goal.status() & chess.STATUS_OPPOSITE_CHECK:
        return "the side that just moved is in check"
    if goal.pawns & chess.BB_BACKRANKS:
        return "a pawn stands on the first or last rank"
    parities = {color: knight_parity(init, goal, frozen, color) for color in chess.COLORS}
    if None in parities.values():
        return None
    same_turn = goal.turn == init.turn
    if (parities[chess.WHITE] == parities[chess.BLACK]) != same_turn:
        return (
            "tempo parity: only knights can move, White's moves are "
            f"{'odd' if parities[chess.WHITE] else 'even'} and Black's "
            f"{'odd' if parities[chess.BLACK] else 'even'} in number, which no game "
            f"ending with {chess.COLOR_NAMES[goal.turn]} to move allows"
        )
    return None


def shortest_proof_game(
    goal: chess.Board,
    *,
    init: chess.Board | None = None,
    max_plies: int = 30,
    max_nodes: int | None = None,
    time_limit: float | None = 60.0,
) -> ProofGameVerdict:
    """A minimum-length proof game of ``goal`` (full position) from ``init`` (default: the start)."""
    start = time.monotonic()
    init = chess.Board() if init is None else init.copy(stack=False)
    fen = goal.fen()
    frozen = frozen_mask(init, goal)
    never = never_reachable(init, goal, frozen)
    if never is not None:
        return ProofGameVerdict(fen, LegalityStatus.ILLEGAL, never, seconds=time.monotonic() - start)
    bounds = MoveBounds(goal, frozen, rights_count=True)
    white, black = bounds.needs(init, chess.WHITE), bounds.needs(init, chess.BLACK)
    if max(white, black) >= INF:
        return ProofGameVerdict(
            fen, LegalityStatus.ILLEGAL, "a goal unit can be reached by no unit", seconds=time.monotonic() - start
        )
    plies = plies_for_moves(white, black, init.turn, goal.turn)
    nodes = 0
    while plies <= max_plies:
        problem = SpgProblem(goal=goal, plies=plies, init=init, full_fen=True)
        if root_refutation(problem, frozen, bounds) is None:
            left = None if time_limit is None else time_limit - (time.monotonic() - start)
            if left is not None and left <= 0:
                break
            outcome = search_games(
                problem, bounds, max_nodes=None if max_nodes is None else max_nodes - nodes, time_limit=left, cap=1
            )
            nodes += outcome.nodes
            if outcome.games:
                game = ProofGame(init.fen(), outcome.games[0])
                game.replay_check(goal)
                return ProofGameVerdict(
                    fen,
                    LegalityStatus.LEGAL,
                    f"shortest proof game: {plies} plies",
                    proof_game=game,
                    nodes=nodes,
                    seconds=time.monotonic() - start,
                )
            if not outcome.complete:
                return ProofGameVerdict(
                    fen,
                    LegalityStatus.UNKNOWN,
                    f"no proof game of fewer than {plies} plies; {outcome.explored} at {plies}",
                    nodes=nodes,
                    seconds=time.monotonic() - start,
                )
        plies += 2
    return ProofGameVerdict(
        fen,
        LegalityStatus.UNKNOWN,
        f"no proof game of fewer than {plies} plies (limit {max_plies} plies or the time budget)",
        nodes=nodes,
        seconds=time.monotonic() - start,
    )

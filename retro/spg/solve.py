"""``solve``: decide an SPG problem, with the root rules first and the exact search after.

Order of the proofs (each ``no_solution`` names its rule in ``reason``):

1. The diagram's side to move contradicts N (:mod:`retro.spg.problem`).
2. The diagram is not a position of any game: the side that just moved is in check,
   or a pawn stands on the first or last rank (FIDE 3.9, 3.7.5).
3. Tempo parity (:mod:`retro.spg.parity`): a side's move count has a fixed parity
   that N's share of moves for that side contradicts.
4. The per-side bounds at the root (:mod:`retro.spg.bounds`) exceed the moves N gives.
5. Otherwise the exhaustive search (:mod:`retro.spg.search`) decides, or the budget ends
   it and the answer is ``unknown`` (``solutions`` when two games were already found:
   the problem is then proved not unique).

Every game shown is replayed with python-chess from the initial position: each move
must be legal and the final position must match the diagram, else it is an internal
error (raised, never shown).
"""

from __future__ import annotations

import chess

from retro.core.status import SpgStatus
from retro.spg.bounds import MoveBounds
from retro.spg.frozen import frozen_mask
from retro.spg.parity import knight_parity
from retro.spg.problem import SpgProblem
from retro.spg.search import Progress, search_games
from retro.spg.verdict import SpgVerdict

__all__ = ["solve", "root_refutation", "replay_san", "moves_of"]


def moves_of(init: chess.Board, plies: int) -> dict[chess.Color, int]:
    """Moves each side makes in ``plies`` plies from ``init``: the side to move ceil, the other floor."""
    first = (plies + 1) // 2
    return {init.turn: first, not init.turn: plies - first}


def root_refutation(problem: SpgProblem, frozen: int, bounds: MoveBounds) -> str | None:
    """The rule that proves no game of N plies reaches the diagram, or ``None`` (module docstring, 1-4)."""
    goal, init = problem.goal, problem.init
    if problem.turn_conflict:
        return f"the diagram's side to move contradicts {problem.plies} plies from the initial position"
    if goal.status() & chess.STATUS_OPPOSITE_CHECK:
        return "the side that just moved is in check"
    if goal.pawns & chess.BB_BACKRANKS:
        return "a pawn stands on the first or last rank"
    moves = moves_of(init, problem.plies)
    for color in chess.COLORS:
        parity = knight_parity(init, goal, frozen, color)
        if parity is not None and moves[color] % 2 != parity:
            name = chess.COLOR_NAMES[color]
            return (
                f"tempo parity: only {name}'s knights can move, so {name} makes an "
                f"{'odd' if parity else 'even'} number of moves, not {moves[color]}"
            )
    for color in chess.COLORS:
        need = bounds.needs(init, color)
        if need > moves[color]:
            name = chess.COLOR_NAMES[color]
            return f"{name} needs at least {need} moves and has {moves[color]}"
    return None


def replay_san(problem: SpgProblem, game: tuple[chess.Move, ...]) -> list[str]:
    """The game in SAN after replaying it with python-chess; raises ``AssertionError`` if it
    is not a legal game of N plies reaching the diagram."""
    board = problem.init.copy(stack=False)
    san: list[str] = []
    for move in game:
        if not board.is_legal(move):
            raise AssertionError(f"internal error: illegal move {move.uci()} in a found game")
        san.append(board.san(move))
        board.push(move)
    if len(game) != problem.plies or not problem.matches(board):
        raise AssertionError("internal error: a found game does not reach the diagram")
    return san


def solve(
    problem: SpgProblem,
    *,
    max_nodes: int | None = None,
    time_limit: float | None = 60.0,
    cap: int = 8,
    progress: Progress | None = None,
    solo: bool = True,
) -> SpgVerdict:
    """Decide ``problem`` (module docstring); ``cap`` >= 2 is the most games listed;
    ``solo``: use the solo rule in the search (:mod:`retro.spg.solo`)."""
    if cap < 2:
        raise ValueError(f"--solutions must be at least 2, got {cap}")
    frozen = frozen_mask(problem.init, problem.goal)
    bounds = MoveBounds(problem.goal, frozen, rights_count=problem.full_fen)
    black_first = problem.init.turn == chess.BLACK
    refutation = root_refutation(problem, frozen, bounds)
    if refutation is not None:
        return SpgVerdict(
            fen=problem.fen,
            status=SpgStatus.NO_SOLUTION,
            plies=problem.plies,
            reason=refutation,
            black_first=black_first,
        )
    outcome = search_games(
        problem, bounds, max_nodes=max_nodes, time_limit=time_limit, cap=cap, progress=progress, solo=solo
    )
    games = [replay_san(problem, game) for game in outcome.games[:cap]]
    if outcome.complete:
        status = {0: SpgStatus.NO_SOLUTION, 1: SpgStatus.UNIQUE}.get(len(games), SpgStatus.SOLUTIONS)
        reason = {0: "exhaustive search: no game", 1: "exhaustive search: one game"}.get(
            len(games), f"exhaustive search: {len(games)} games"
        )
        cooked = False
    elif len(games) >= 2:
        status, cooked = SpgStatus.SOLUTIONS, True
        reason = f"at least {len(games)} games ({outcome.explored})"
    else:
        status, cooked = SpgStatus.UNKNOWN, False
        reason = f"{outcome.explored}; {len(games)} game found so far"
    return SpgVerdict(
        fen=problem.fen,
        status=status,
        plies=problem.plies,
        solutions=games,
        cooked=cooked,
        nodes=outcome.nodes,
        seconds=outcome.seconds,
        reason=reason,
        black_first=black_first,
    )

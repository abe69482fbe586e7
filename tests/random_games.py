"""Seeded random games for the property tests: one helper instead of a copy per test file.

:func:`play_random` plays random legal moves on a board; :func:`game_positions` and
:func:`game_moves` give the positions of the game it played, and its moves. Each ply
draws exactly ``rng.choice`` among the moves (after an ``rng.random()`` when a
preferred kind of move exists), so a test keeps drawing the same games from the same
seed.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import chess

__all__ = ["MoveTest", "game_moves", "game_positions", "play_random"]

#: A test on a legal move of a board (the board before the move).
MoveTest = Callable[[chess.Board, chess.Move], bool]


def play_random(
    rng: random.Random,
    plies: int,
    board: chess.Board | None = None,
    *,
    allow: MoveTest | None = None,
    prefer: MoveTest | None = None,
    rate: float = 0.5,
) -> chess.Board:
    """Plays at most ``plies`` random moves on ``board`` (in place; a new board at the
    start position when None) and returns it: the moves played are its ``move_stack``.

    A ply picks among the legal moves that pass ``allow`` (all of them by default), in
    python-chess's order, and the game stops early when there is none. With ``prefer``,
    when some of those moves pass it, ``rng.random()`` is drawn first and, below
    ``rate``, the pick is among them instead."""
    if board is None:
        board = chess.Board()
    for _ in range(plies):
        moves = [move for move in board.legal_moves if allow is None or allow(board, move)]
        if not moves:
            break
        preferred = [move for move in moves if prefer(board, move)] if prefer is not None else []
        board.push(rng.choice(preferred) if preferred and rng.random() < rate else rng.choice(moves))
    return board


def game_positions(board: chess.Board) -> list[chess.Board]:
    """The positions of ``board``'s game, from its root to ``board`` itself (copies
    without a move stack): one more than the moves of its ``move_stack``."""
    game = board.root()
    positions = [game.copy(stack=False)]
    for move in board.move_stack:
        game.push(move)
        positions.append(game.copy(stack=False))
    return positions


def game_moves(board: chess.Board) -> list[tuple[chess.Board, chess.Move]]:
    """Each move of ``board``'s ``move_stack`` with the position it was played in (a
    copy without a move stack)."""
    return list(zip(game_positions(board)[:-1], board.move_stack, strict=True))

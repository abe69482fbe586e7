"""Positions as tuples of bitboards, moves as ints: the move generator of the searches.

A :data:`State` is the tuple ``(pawns, knights, bishops, rooks, queens, kings, white,
black, turn, castling, ep)`` of python-chess's ``Board`` fields (``castling`` = the clean
castling rights as a bitboard of rook squares, ``ep`` = the en passant square python-chess
would hold: set after every double push). A move is the int ``from | to << 6 | promotion
<< 12``. A move is played by building the next tuple (no undo, no move stack), so a
search node costs a few bitboard expressions instead of python-chess's ``push``,
``Move`` objects and generators.

Rule: :func:`legal_moves` returns exactly ``Board.generate_legal_moves()`` of the same
position, in the same order (:func:`leading_moves` its first moves, :func:`has_legal_move`
whether it is empty), and :func:`play` the position ``Board.push`` gives (standard
chess: castling, en passant and promotions included); :func:`key` equals
``Board._transposition_key()``. Why: they are the functions of
:mod:`~retro.unwinnable.movegen` (its rule and proof), run by Python with its Python
backend; the compiled core runs the same functions compiled.
``tests/retro/test_unwinnable_fastboard.py`` compares them with python-chess on random
games and on constructed positions with pins, checks, castling and en passant.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Iterator
from typing import NamedTuple

import chess

from retro.core.position import position_key
from retro.unwinnable import movegen

__all__ = [
    "State",
    "from_board",
    "to_board",
    "legal_moves",
    "iter_legal_moves",
    "has_legal_move",
    "first_legal_move",
    "leading_moves",
    "play",
    "in_check",
    "key",
    "to_move",
    "from_move",
    "uci",
    "MoveGenerator",
    "FAST",
    "REFERENCE",
]

State = tuple[int, int, int, int, int, int, int, int, bool, int, "int | None"]

_MOVE_ROOM = movegen._MOVE_ROOM
_LOCAL = threading.local()  # a move buffer per thread, for the answers that are not lists


def _scratch() -> list[int]:
    try:
        return _LOCAL.buf
    except AttributeError:
        _LOCAL.buf = [0] * _MOVE_ROOM
        return _LOCAL.buf


def from_board(board: chess.Board) -> State:
    """The tuple of ``board`` (standard chess only)."""
    return (
        board.pawns,
        board.knights,
        board.bishops,
        board.rooks,
        board.queens,
        board.kings,
        board.occupied_co[chess.WHITE],
        board.occupied_co[chess.BLACK],
        board.turn,
        board.clean_castling_rights() if board.castling_rights else 0,
        board.ep_square,
    )


def to_board(state: State) -> chess.Board:
    """A python-chess board of the tuple (for replays and the reference generator)."""
    board = chess.Board(None)
    (
        board.pawns,
        board.knights,
        board.bishops,
        board.rooks,
        board.queens,
        board.kings,
        white,
        black,
        board.turn,
        board.castling_rights,
        board.ep_square,
    ) = state
    board.occupied_co[chess.WHITE], board.occupied_co[chess.BLACK] = white, black
    board.occupied = white | black
    return board


_MOVE_OBJECTS: dict[int, chess.Move] = {}  # chess.Move is immutable: one object per move, made once


def to_move(move: int) -> chess.Move:
    try:
        return _MOVE_OBJECTS[move]
    except KeyError:
        made = _MOVE_OBJECTS[move] = chess.Move(move & 63, (move >> 6) & 63, (move >> 12) or None)
        return made


_SQUARE_PAIRS = [chess.SQUARE_NAMES[i & 63] + chess.SQUARE_NAMES[i >> 6] for i in range(4096)]  # by from | to << 6
_PROMOTION_LETTERS = ("", "", "n", "b", "r", "q")


def uci(move: int) -> str:
    """``to_move(move).uci()`` (standard chess), from two table lookups."""
    return _SQUARE_PAIRS[move & 4095] + _PROMOTION_LETTERS[move >> 12]


def from_move(move: chess.Move) -> int:
    return move.from_square | move.to_square << 6 | (move.promotion or 0) << 12


def legal_moves(state: State) -> list[int]:
    """``Board.generate_legal_moves()`` of the position, as ints, in python-chess's order."""
    buf = [0] * _MOVE_ROOM
    return buf[: movegen._legal_moves(state, buf, 0)]


def iter_legal_moves(state: State) -> Iterator[int]:
    """An iterator over :func:`legal_moves` (the :class:`MoveGenerator` interface)."""
    return iter(legal_moves(state))


def leading_moves(state: State, count: int) -> list[int]:
    """The first ``count`` moves of :func:`legal_moves` (all of them if fewer), without
    generating the others."""
    buf = [0] * _MOVE_ROOM
    return buf[: movegen._leading_moves(state, buf, 0, count)]


def first_legal_move(state: State) -> int | None:
    """The first move of :func:`legal_moves`, None if there is none."""
    buf = _scratch()
    return buf[0] if movegen._leading_moves(state, buf, 0, 1) else None


def has_legal_move(state: State) -> bool:
    """Whether the side to move has a legal move."""
    return movegen._has_legal_move(state, _scratch())


def in_check(state: State) -> bool:
    return movegen._in_check(state)


def play(state: State, move: int) -> State:
    """The position after the legal ``move`` (as ``Board.push``)."""
    return movegen._play(state, move)


def key(state: State) -> State:
    """``Board._transposition_key()``: the tuple, with ``ep`` kept only when en passant is legal."""
    if state[10] is None or movegen._ep_legal(state, _scratch(), 0):
        return state
    return state[:10] + (None,)


class MoveGenerator(NamedTuple):
    """The three operations the searches need: legal moves, playing one, the table key."""

    iter_legal_moves: Callable[[State], Iterator[int]]
    has_legal_move: Callable[[State], bool]
    play: Callable[[State, int], State]
    key: Callable[[State], Hashable]


def _reference_legal_moves(state: State) -> Iterator[int]:
    return (from_move(move) for move in to_board(state).generate_legal_moves())


def _reference_has_legal_move(state: State) -> bool:
    return any(to_board(state).generate_legal_moves())


def _reference_play(state: State, move: int) -> State:
    board = to_board(state)
    board.push(to_move(move))
    return from_board(board)


def _reference_key(state: State) -> Hashable:
    return position_key(to_board(state))


#: The generator of this module (the default of every search).
FAST = MoveGenerator(iter_legal_moves, has_legal_move, play, key)
#: The same operations done by python-chess on a board rebuilt from the tuple: the
#: reference the fast generator is tested against (slow; tests and ``--reference``).
REFERENCE = MoveGenerator(_reference_legal_moves, _reference_has_legal_move, _reference_play, _reference_key)

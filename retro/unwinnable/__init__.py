"""Chess unwinnability (FIDE Article 6.9) and dead positions (Article 5.2.2).

After M. Ambrona, *A Practical Algorithm for Chess Unwinnability* (FUN 2022):

* :func:`analyze` decides whether ``winner`` can still checkmate by *some* sequence of
  legal moves (a helpmate): ``winnable`` with the line, ``unwinnable``, or
  ``undetermined`` when the budget ran out. ``quick=True`` runs the light routine of
  Figure 10, otherwise the full routine of Figure 9.
* :func:`is_dead` asks it for both colours: ``dead`` (both unwinnable), ``alive`` (one
  side can mate) or ``undetermined``.

Soundness: ``unwinnable`` comes only from the semi-static check (Theorem 12,
:mod:`~retro.unwinnable.static`), from Lemmas 5/6 (:mod:`~retro.unwinnable.material`) or
from a search that provably saw every reachable position
(:mod:`~retro.unwinnable.helpmate`, :mod:`~retro.unwinnable.routines`). Every
``winnable`` line is replayed with python-chess and must end in the winner's checkmate
before it is returned. Rules not modelled: the 75-move and fivefold-repetition
automatic draws (ignored, as in the paper).

Input requirements: one king of each colour, no pawn on a back rank, the side not to move
not in check (otherwise :class:`InvalidPositionError`, a ``ValueError``).
"""

from __future__ import annotations

import dataclasses
import time

import chess

from retro.unwinnable.routines import full_routine, quick_routine

__all__ = [
    "UnwinnabilityVerdict",
    "DeadVerdict",
    "InvalidPositionError",
    "analyze",
    "is_dead",
    "DEFAULT_MAX_NODES",
]

DEFAULT_MAX_NODES = 1_000_000

_BAD_STATUS = (chess.STATUS_NO_WHITE_KING | chess.STATUS_NO_BLACK_KING | chess.STATUS_TOO_MANY_KINGS
               | chess.STATUS_PAWNS_ON_BACKRANK | chess.STATUS_OPPOSITE_CHECK | chess.STATUS_EMPTY)


class InvalidPositionError(ValueError):
    """The position cannot be played from (missing king, opposite side in check, ...)."""


@dataclasses.dataclass(frozen=True)
class UnwinnabilityVerdict:
    """Whether ``winner`` can still checkmate. ``line``: UCI moves from the given position
    to the winner's mate (only when ``status == 'winnable'``); ``reason``: which rule or
    search decided."""

    status: str  # "winnable" | "unwinnable" | "undetermined"
    winner: chess.Color
    line: tuple[str, ...] = ()
    reason: str = ""
    nodes: int = 0
    seconds: float = 0.0

    @property
    def winner_name(self) -> str:
        return "white" if self.winner == chess.WHITE else "black"


@dataclasses.dataclass(frozen=True)
class DeadVerdict:
    """Whether the position is dead: ``white``/``black`` are the per-colour verdicts
    (``black`` may be None when ``white`` was already winnable)."""

    status: str  # "dead" | "alive" | "undetermined"
    white: UnwinnabilityVerdict
    black: UnwinnabilityVerdict | None
    nodes: int = 0
    seconds: float = 0.0


def check_playable(board: chess.Board) -> None:
    """Raise :class:`InvalidPositionError` unless moves can be generated soundly."""
    status = board.status() & _BAD_STATUS
    if status:
        names = [flag.name.lower().replace("_", " ") for flag in chess.Status if flag & status and flag.name]
        raise InvalidPositionError("position cannot be analysed: " + ", ".join(names))


def _replayed(board: chess.Board, line: list[chess.Move], winner: chess.Color) -> bool:
    replay = board.copy(stack=False)
    for move in line:
        if not replay.is_legal(move):
            return False
        replay.push(move)
    return replay.is_checkmate() and replay.turn != winner


def analyze(board: chess.Board, winner: chess.Color, *, quick: bool = False,
            max_nodes: int = DEFAULT_MAX_NODES) -> UnwinnabilityVerdict:
    """Can ``winner`` still checkmate in ``board``? See the module docstring."""
    check_playable(board)
    start = time.perf_counter()
    if quick:
        status, line, nodes, reason = quick_routine(board, winner)
    else:
        status, line, nodes, reason = full_routine(board, winner, max_nodes=max_nodes)
    if status == "winnable" and not _replayed(board, line, winner):
        status, line, reason = "undetermined", [], "internal error: helpmate line failed replay"
    return UnwinnabilityVerdict(status, winner, tuple(m.uci() for m in line), reason, nodes,
                                time.perf_counter() - start)


def is_dead(board: chess.Board, *, quick: bool = False, max_nodes: int = DEFAULT_MAX_NODES,
            both_sides: bool = False) -> DeadVerdict:
    """Is the position dead (no checkmate for either side)? White is asked first; Black is
    not asked when White can win, unless ``both_sides``."""
    start = time.perf_counter()
    white = analyze(board, chess.WHITE, quick=quick, max_nodes=max_nodes)
    black = None
    if white.status == "winnable" and not both_sides:
        status = "alive"
    else:
        black = analyze(board, chess.BLACK, quick=quick, max_nodes=max_nodes)
        if black.status == "winnable" or white.status == "winnable":
            status = "alive"
        elif white.status == "unwinnable" and black.status == "unwinnable":
            status = "dead"
        else:
            status = "undetermined"
    nodes = white.nodes + (black.nodes if black else 0)
    return DeadVerdict(status, white, black, nodes, time.perf_counter() - start)

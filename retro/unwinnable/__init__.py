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
automatic draws (ignored, as in the paper). The searches see every legal move because
their move generator (:mod:`~retro.unwinnable.fastboard`) returns exactly python-chess's
legal moves; ``reference=True`` makes python-chess itself generate them. Once a process
has loaded it, the searches of both routines run in the compiled core
(:mod:`~retro.unwinnable.jitcore`, numba), a port of the same search that visits the same
positions and returns the same verdicts (``compiled``; see :func:`analyze`).

Input requirements: one king of each colour, no pawn on a back rank, the side not to move
not in check (otherwise :class:`InvalidPositionError`, a ``ValueError``).
"""

from __future__ import annotations

import dataclasses
import sys
import time
from typing import Any

import chess

from retro.core.status import DeadStatus, UnwinnabilityStatus
from retro.unwinnable.fastboard import FAST, REFERENCE, from_board, to_move, uci
from retro.unwinnable.routines import Reason, full_routine, quick_routine

__all__ = [
    "UnwinnabilityVerdict",
    "DeadVerdict",
    "InvalidPositionError",
    "analyze",
    "is_dead",
    "DEFAULT_MAX_NODES",
]

DEFAULT_MAX_NODES = 1_000_000

_BAD_STATUS = (
    chess.STATUS_NO_WHITE_KING
    | chess.STATUS_NO_BLACK_KING
    | chess.STATUS_TOO_MANY_KINGS
    | chess.STATUS_PAWNS_ON_BACKRANK
    | chess.STATUS_OPPOSITE_CHECK
    | chess.STATUS_EMPTY
)


class InvalidPositionError(ValueError):
    """The position cannot be played from (missing king, opposite side in check, ...)."""


def _color_name(color: chess.Color) -> str:
    return "white" if color == chess.WHITE else "black"


@dataclasses.dataclass(frozen=True)
class UnwinnabilityVerdict:
    """Whether ``winner`` can still checkmate in ``fen``. ``line``: UCI moves from the
    position to the winner's mate (only when winnable); ``reason``: which rule or search
    decided."""

    fen: str
    status: UnwinnabilityStatus
    winner: chess.Color
    line: tuple[str, ...] = ()
    reason: str = ""
    nodes: int = 0
    seconds: float = 0.0

    @property
    def winner_name(self) -> str:
        return _color_name(self.winner)

    def as_dict(self) -> dict[str, Any]:
        """The JSON record of ``retro unwinnable`` (design notes' contract)."""
        return {
            "fen": self.fen,
            "status": self.status,
            "winner": self.winner_name,
            "line": list(self.line),
            "reason": self.reason,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
        }


@dataclasses.dataclass(frozen=True)
class DeadVerdict:
    """Whether ``fen`` is dead: ``white``/``black`` are the per-colour verdicts (``black``
    is None when White was already winnable and both sides were not asked for)."""

    fen: str
    status: DeadStatus
    white: UnwinnabilityVerdict
    black: UnwinnabilityVerdict | None
    nodes: int = 0
    seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        """The JSON record of ``retro dead``: the two per-colour statuses and lines."""
        black = self.black
        return {
            "fen": self.fen,
            "status": self.status,
            "white": self.white.status,
            "black": black.status if black else None,
            "white_line": list(self.white.line),
            "black_line": list(black.line) if black else [],
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
        }


def check_playable(board: chess.Board) -> None:
    """Raise :class:`InvalidPositionError` unless moves can be generated soundly.

    The common case is settled with a few bitboard tests (one king each, no pawn on a back
    rank, the side not to move not in check); ``Board.status()`` only names the faults."""
    white, black, kings = board.occupied_co[chess.WHITE], board.occupied_co[chess.BLACK], board.kings
    white_king, black_king = kings & white, kings & black
    if (
        white_king
        and not white_king & (white_king - 1)
        and black_king
        and not black_king & (black_king - 1)
        and not board.pawns & (chess.BB_RANK_1 | chess.BB_RANK_8)
        and not board.attackers_mask(board.turn, (kings & board.occupied_co[not board.turn]).bit_length() - 1)
    ):
        return
    status = board.status() & _BAD_STATUS
    if status:
        names = [flag.name.lower().replace("_", " ") for flag in chess.Status if flag & status and flag.name]
        raise InvalidPositionError("position cannot be analysed: " + ", ".join(names))


def _replayed(board: chess.Board, line: list[chess.Move], winner: chess.Color) -> bool:
    """Whether python-chess plays ``line`` from ``board`` to the winner's checkmate. Each
    move must be pseudo-legal and must not leave the mover's king attacked: the definition
    of a legal move (``Board.is_legal`` tests the same before the push, at a higher cost)."""
    replay = board.copy(stack=False)
    for move in line:
        if not replay.is_pseudo_legal(move):
            return False
        replay.push(move)
        if replay.was_into_check():
            return False
    return replay.is_checkmate() and replay.turn != winner


def _check_time_limit(time_limit: float | None) -> None:
    """Refuse a negative or NaN ``time_limit`` (a ``ValueError``); 0 stops the full
    routine's search at once."""
    if time_limit is not None and not time_limit >= 0:
        raise ValueError(f"time_limit must be a number of seconds >= 0, got {time_limit!r}")


def _use_compiled(compiled: bool | None, reference: bool) -> bool:
    """Whether to run the compiled core. ``None``: when this process has loaded it
    (:func:`retro.unwinnable.jitcore.warm_up`; numba is not even imported otherwise);
    ``True``: load it now if needed (when numba is available); never for ``reference``."""
    if reference or compiled is False:
        return False
    jitcore = sys.modules.get("retro.unwinnable.jitcore")
    if compiled is None:
        return jitcore is not None and jitcore.READY
    from retro.unwinnable import jitcore as core

    core.warm_up()
    return core.READY


def analyze(
    board: chess.Board,
    winner: chess.Color,
    *,
    quick: bool = False,
    max_nodes: int = DEFAULT_MAX_NODES,
    reference: bool = False,
    compiled: bool | None = None,
    fen: str | None = None,
    time_limit: float | None = None,
) -> UnwinnabilityVerdict:
    """Can ``winner`` still checkmate in ``board``? See the module docstring.

    ``max_nodes``: the full routine's node budget; ``time_limit``: its time budget in
    seconds (None: none), checked every few thousand nodes in every search
    (:mod:`retro.unwinnable.deadline`); when either runs out the answer is
    ``undetermined`` with the reason ("node budget exhausted", "time limit reached"). The
    quick routine is bounded by its own ``QUICK_NODES`` (milliseconds) and needs neither.

    ``reference``: generate moves with python-chess instead of the fast generator (same
    answers, same nodes; much slower; for tests). ``compiled``: run the searches in the
    compiled core (same answers, same nodes; ``None``: when the process has loaded it with
    :func:`retro.unwinnable.jitcore.warm_up`; ``True``: load it first if needed).
    ``fen``: the board's FEN when the caller has it (the verdict's ``fen``; otherwise
    ``board.fen()``, a real cost next to the quick routine)."""
    _check_time_limit(time_limit)
    check_playable(board)
    jit = _use_compiled(compiled, reference)  # a first load of the core is not the query's time
    start = time.perf_counter()
    state = from_board(board)
    generator = REFERENCE if reference else FAST
    if quick:
        status, moves, nodes, reason = quick_routine(state, winner, generator, compiled=jit)
    else:
        status, moves, nodes, reason = full_routine(
            state, winner, max_nodes=max_nodes, generator=generator, compiled=jit, time_limit=time_limit
        )
    if status == UnwinnabilityStatus.WINNABLE and not _replayed(board, [to_move(move) for move in moves], winner):
        status, moves, reason = UnwinnabilityStatus.UNDETERMINED, [], Reason.REPLAY_FAILED
    return UnwinnabilityVerdict(
        fen or board.fen(),
        status,
        winner,
        tuple(map(uci, moves)) if moves else (),
        str(reason),
        nodes,
        time.perf_counter() - start,
    )


def is_dead(
    board: chess.Board,
    *,
    quick: bool = False,
    max_nodes: int = DEFAULT_MAX_NODES,
    both_sides: bool = False,
    reference: bool = False,
    compiled: bool | None = None,
    fen: str | None = None,
    time_limit: float | None = None,
) -> DeadVerdict:
    """Is the position dead (no checkmate for either side)? White is asked first; Black is
    not asked when White can win, unless ``both_sides``. ``seconds``: the two queries'
    time, without the first load of the compiled core. ``max_nodes`` is each side's
    budget; ``time_limit`` (seconds, None: none) is the whole query's: Black gets what
    White's query left (so with a short limit Black may be ``undetermined`` at once)."""
    _check_time_limit(time_limit)
    jit = _use_compiled(compiled, reference)
    start = time.perf_counter()
    fen = fen or board.fen()
    options: dict[str, Any] = {"quick": quick, "max_nodes": max_nodes, "reference": reference, "compiled": jit}
    white = analyze(board, chess.WHITE, fen=fen, time_limit=time_limit, **options)
    black = None
    if white.status == UnwinnabilityStatus.WINNABLE and not both_sides:
        status = DeadStatus.ALIVE
    else:
        left = None if time_limit is None else max(0.0, time_limit - (time.perf_counter() - start))
        black = analyze(board, chess.BLACK, fen=fen, time_limit=left, **options)
        if UnwinnabilityStatus.WINNABLE in (white.status, black.status):
            status = DeadStatus.ALIVE
        elif white.status == black.status == UnwinnabilityStatus.UNWINNABLE:
            status = DeadStatus.DEAD
        else:
            status = DeadStatus.UNDETERMINED
    nodes = white.nodes + (black.nodes if black else 0)
    return DeadVerdict(fen, status, white, black, nodes, time.perf_counter() - start)

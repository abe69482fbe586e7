"""The Python API: one function per question, each returning the library's frozen
verdict dataclass (the value ``retro COMMAND --json`` prints, as ``as_dict()`` where the
verdict has one).

Positions are FEN strings (4 to 6 fields) or ``chess.Board`` objects; boards for
``last_moves`` and ``verify_cage`` are piece placements. Budgets are keyword-only:
``max_nodes`` everywhere a search runs and ``time_limit`` (seconds) where the search
can stop on time; running out of budget gives the "unknown"/"undetermined" status,
never an exception. Invalid input raises :class:`retro.position.InvalidFenError` (a
``ValueError``) with a message a user understands.

Every import of a search module happens inside the function that needs it, so that
``import retro`` stays fast (:mod:`retro` exposes these functions lazily).
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

import chess

from retro.position import Position, parse_board, parse_fen

if TYPE_CHECKING:
    from cages.verify import CageVerdict
    from retro.lastmove.solver import LastMoveVerdict
    from retro.proofgame import ProofGameVerdict
    from retro.revmoves import Retraction
    from retro.rules import StaticVerdict
    from retro.unwinnable import DeadVerdict, UnwinnabilityVerdict

__all__ = ["check", "prove", "last_moves", "unwinnable", "is_dead", "verify_cage", "revmoves", "Retractions"]

_COLORS = {"white": chess.WHITE, "w": chess.WHITE, "black": chess.BLACK, "b": chess.BLACK}


def _position(fen: str | chess.Board, *, valid: bool = False) -> Position:
    if isinstance(fen, chess.Board):
        return parse_fen(fen.fen(), valid=valid)
    return parse_fen(fen, require_kings=valid, valid=valid)


def _placement(board: str | chess.Board) -> chess.Board:
    return parse_board(board.board_fen() if isinstance(board, chess.Board) else board)


def _color(name: str | chess.Color) -> chess.Color:
    if isinstance(name, bool):
        return name
    try:
        return _COLORS[name.lower()]
    except KeyError:
        raise ValueError(f"a side is 'white' or 'black', got {name!r}") from None


def check(fen: str | chess.Board) -> StaticVerdict:
    """The static illegality rules (``retro check``): ``status`` is ``illegal`` with the
    ``rule`` and ``reason``, or ``unknown`` (no static objection)."""
    from retro.rules import check_static

    return check_static(_position(fen))


def prove(
    fen: str | chess.Board,
    *,
    max_nodes: int = 200_000,
    time_limit: float | None = 60.0,
    seed: int = 0,
    init: str | chess.Board | None = None,
) -> ProofGameVerdict:
    """Legality (``retro proofgame``): ``legal`` with a proof game replayed by
    python-chess (``proof``: SAN moves), ``illegal`` with the ``reason``, or ``unknown``
    when the budget ran out. ``init``: search from that position instead of the start."""
    from retro.proofgame import prove as prove_board

    start = _position(init, valid=True).clocked_board() if init is not None else None
    return prove_board(_position(fen).board, max_nodes=max_nodes, time_limit=time_limit, seed=seed, init=start)


def last_moves(
    board: str | chess.Board,
    retract: str | chess.Color | None = None,
    *,
    moves: int = 1,
    extra_depth: int = 3,
    dead_reckoning: bool = False,
    cages: bool = True,
    max_nodes: int = 20_000,
    time_limit: float | None = 60.0,
) -> LastMoveVerdict:
    """Last-move problems (``retro lastmove``): the retraction sequences of ``moves``
    moves that survive the sound filters, read as the command line reads them
    (:func:`retro.lastmove.problem.read_problem`): ``board`` is a piece placement, whose
    last mover is ``retract`` (``'white'``/``'w'``, ``'black'``/``'b'``, ``'both'``, a
    ``chess.Color``; default both), or a full FEN (or a ``chess.Board``, its full FEN), whose
    side to move did not make the last move; a ``retract`` that contradicts it raises
    ``ValueError`` with the command line's message. ``cages``: use the project's known-cage
    library (``data/cages.txt``, read only) as the command line does by default.
    ``max_nodes`` bounds the legality check of each predecessor (``--budget``) and
    ``time_limit`` the whole problem (``--time-limit``). ``status`` is ``unique``,
    ``multiple``, ``none``, or ``unknown`` when the time limit left candidates unchecked."""
    from cages.library import Library, default_library
    from retro.lastmove.problem import read_problem
    from retro.lastmove.solver import solve

    if moves < 1 or extra_depth < 0:
        raise ValueError("moves must be at least 1 and extra_depth at least 0")
    side = ("w" if retract else "b") if isinstance(retract, bool) else retract
    problem = read_problem(board.fen() if isinstance(board, chess.Board) else board, side)
    path = default_library() if cages else None
    return solve(
        problem.board,
        problem.retract,
        full_fen=problem.full_fen,
        moves=moves,
        extra_depth=extra_depth,
        dead_reckoning=dead_reckoning,
        cages=Library.load(path, read_only=True) if path is not None else None,
        legality_max_nodes=max_nodes,
        time_limit=time_limit,
    )


def unwinnable(
    fen: str | chess.Board, winner: str | chess.Color | None = None, *, max_nodes: int = 1_000_000, quick: bool = False
) -> UnwinnabilityVerdict:
    """Can ``winner`` (default: the side that just moved) still checkmate (FIDE 6.9,
    ``retro unwinnable``)? ``winnable`` with a helpmate ``line`` (UCI), ``unwinnable``, or
    ``undetermined`` when ``max_nodes`` ran out. Invalid positions raise."""
    from retro.unwinnable import analyze

    board = _position(fen, valid=True).board
    return analyze(board, _color(winner) if winner is not None else not board.turn, quick=quick, max_nodes=max_nodes)


def is_dead(fen: str | chess.Board, *, max_nodes: int = 1_000_000, quick: bool = False) -> DeadVerdict:
    """Is the position dead (FIDE 5.2.2, ``retro dead``)? ``dead``, ``alive`` or
    ``undetermined``, with the verdict of each side. Invalid positions raise."""
    from retro.unwinnable import is_dead as dead

    return dead(_position(fen, valid=True).board, quick=quick, max_nodes=max_nodes, both_sides=True)


def verify_cage(
    board: str | chess.Board,
    *,
    zone: str = "",
    frozen: str = "",
    forbid: str = "",
    depth: int = 20,
    max_nodes: int = 100_000,
) -> CageVerdict:
    """Verify a claimed cage (``retro cage``): ``cage`` or ``not_verified`` with the
    retraction ``line`` that escaped. ``zone``, ``frozen``: comma-separated squares;
    ``forbid``: pawn captures such as ``dxe``."""
    from cages.library import parse_forbid, parse_squares
    from cages.verify import Options, verify

    if depth < 0:
        raise ValueError("the depth bound must be at least 0")
    position = _placement(board)
    frozen_mask = parse_squares(frozen)
    for square in chess.SquareSet(frozen_mask):
        if position.piece_at(square) is None:
            raise ValueError(f"frozen square {chess.square_name(square)} is empty")
    options = Options(frozenset(chess.SquareSet(frozen_mask)), parse_forbid(forbid))
    return verify(position, extra_zone=parse_squares(zone), options=options, depth=depth, max_nodes=max_nodes)


@dataclasses.dataclass(frozen=True)
class Retractions:
    """Every retraction of a position (``retro revmoves``): ``status`` ``found``, or
    ``none`` when the position has no legal predecessor."""

    fen: str
    status: str
    retractions: tuple[Retraction, ...]

    def as_dict(self) -> dict[str, Any]:
        return {
            "fen": self.fen,
            "status": self.status,
            "count": len(self.retractions),
            "retractions": [r.as_dict() for r in self.retractions],
        }


def revmoves(fen: str | chess.Board, *, include_ep_square: bool = True) -> Retractions:
    """Every possible last move with the predecessor's castling rights and en-passant
    square (``retro revmoves``)."""
    from retro.revmoves import retractions
    from retro.status import RevmovesStatus

    position = parse_fen(fen.fen() if isinstance(fen, chess.Board) else fen, require_kings=True)
    found = tuple(retractions(position.board, include_ep_square=include_ep_square))
    return Retractions(position.fen, RevmovesStatus.FOUND if found else RevmovesStatus.NONE, found)

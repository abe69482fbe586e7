"""The Python API: one function per question, each returning the library's frozen
verdict dataclass, whose ``as_dict()`` is the record ``retro COMMAND --json`` prints.

These functions are the request model behind every door (DESIGN.md, "One request
model"): the commands ``check``, ``revmoves``, ``unwinnable``, ``dead`` and ``spg`` answer
their single calls and batch lines by calling them (and the HTTP API runs those
commands), with the position as the user wrote it and the command's own options, so one
question gets one answer whichever door it comes in by. ``lastmove``, ``proofgame`` and
``cage``, whose command lines have options the API does not take, read the question
with the same parser (:func:`retro.lastmove.problem.read_problem`,
:func:`read_position`, :func:`cages.library.parse_spec`) and ask the same engine. A
full FEN's fields are the user's statement: a castling or en-passant field that cannot
be true of the board is refused (``ValueError``) by the questions about the position,
and judged (illegal) by those about its legality (``check``, ``prove``).

Positions are FEN strings (4 to 6 fields) or ``chess.Board`` objects (read as their
FEN); ``last_moves`` also takes a bare placement, ``verify_cage`` and
``shortest_proof_games`` a placement or a FEN. Budgets are keyword-only: ``max_nodes``
everywhere a search runs and ``time_limit`` (seconds) where the search can stop on
time; running out of budget gives the "unknown"/"undetermined" status, never an
exception. Invalid input raises :class:`retro.core.position.InvalidFenError` (a
``ValueError``) with a message a user understands.

The names are not those of submodules (``retro.unwinnable`` is the package of the
unwinnability searches, ``retro.winnability`` the question), so ``retro.NAME`` means
one thing whatever has been imported. Every import of a search module happens inside
the function that needs it, so that ``import retro`` stays fast (:mod:`retro` exposes
these functions lazily).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import chess

from retro.core.position import Position, parse_board, parse_fen, require_stated_fields

if TYPE_CHECKING:
    from cages.verify import CageVerdict
    from retro.core.revmoves import RevmovesVerdict
    from retro.core.rules import StaticVerdict
    from retro.lastmove.solver import LastMoveVerdict
    from retro.proofgame import ProofGameVerdict
    from retro.spg import SpgVerdict
    from retro.unwinnable import DeadVerdict, UnwinnabilityVerdict

__all__ = [
    "check",
    "prove",
    "last_moves",
    "winnability",
    "is_dead",
    "verify_cage",
    "retractions",
    "shortest_proof_games",
    "read_position",
]

_COLORS = {"white": chess.WHITE, "w": chess.WHITE, "black": chess.BLACK, "b": chess.BLACK}


def read_position(fen: str | chess.Board, *, valid: bool = False) -> Position:
    """The position of a request: a FEN (4 to 6 fields) or a ``chess.Board`` (its FEN).
    ``valid``: a position the command plays moves on, so it must be one
    (:func:`retro.core.position.require_valid`) with castling and en-passant fields that can
    be true (:func:`retro.core.position.require_stated_fields`)."""
    text = fen.fen() if isinstance(fen, chess.Board) else fen
    return parse_fen(text, require_kings=valid, valid=valid)


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
    from retro.core.rules import check_static

    return check_static(read_position(fen))


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
    import dataclasses

    from retro.proofgame import prove as prove_board
    from retro.proofgame import stated_fields_verdict

    position = read_position(fen)
    start = read_position(init, valid=True).clocked_board() if init is not None else None
    verdict = stated_fields_verdict(position) or prove_board(
        position.board, max_nodes=max_nodes, time_limit=time_limit, seed=seed, init=start
    )
    return dataclasses.replace(verdict, fen=_as_given(fen))


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


def winnability(
    fen: str | chess.Board,
    winner: str | chess.Color | None = None,
    *,
    max_nodes: int = 1_000_000,
    quick: bool = False,
    compiled: bool | None = None,
    time_limit: float | None = None,
) -> UnwinnabilityVerdict:
    """Can ``winner`` (default: the side that just moved) still checkmate (FIDE 6.9,
    ``retro unwinnable``)? ``winnable`` with a helpmate ``line`` (UCI), ``unwinnable``, or
    ``undetermined`` when ``max_nodes`` or ``time_limit`` (seconds, None: none) ran out.
    Invalid positions raise. ``compiled``: run the searches in the compiled core (same
    answers; None lets the search choose)."""
    from retro.unwinnable import analyze

    position = read_position(fen, valid=True)
    board = position.board
    side = _color(winner) if winner is not None else not board.turn
    return analyze(
        board, side, quick=quick, max_nodes=max_nodes, compiled=compiled, fen=position.fen, time_limit=time_limit
    )


def is_dead(
    fen: str | chess.Board,
    *,
    max_nodes: int = 1_000_000,
    quick: bool = False,
    compiled: bool | None = None,
    time_limit: float | None = None,
) -> DeadVerdict:
    """Is the position dead (FIDE 5.2.2, ``retro dead``)? ``dead``, ``alive`` or
    ``undetermined`` (``max_nodes`` or ``time_limit`` ran out), with the verdict of each
    side. Invalid positions raise."""
    from retro.unwinnable import is_dead as dead

    position = read_position(fen, valid=True)
    return dead(
        position.board,
        quick=quick,
        max_nodes=max_nodes,
        both_sides=True,
        compiled=compiled,
        fen=position.fen,
        time_limit=time_limit,
    )


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


def retractions(fen: str | chess.Board, *, include_ep_square: bool = True) -> RevmovesVerdict:
    """Every possible last move with the predecessor's castling rights and en-passant
    square (``retro revmoves``): ``status`` ``found``, or ``none`` when the position has
    no legal predecessor."""
    from retro.core.revmoves import RevmovesVerdict

    position = parse_fen(fen.fen() if isinstance(fen, chess.Board) else fen, require_kings=True)
    require_stated_fields(position)
    return RevmovesVerdict.of(position.fen, position.board, include_ep_square=include_ep_square)


def shortest_proof_games(
    board: str | chess.Board,
    plies: int,
    *,
    init: str | chess.Board | None = None,
    solutions: int = 8,
    time_limit: float | None = 60.0,
    max_nodes: int | None = None,
    progress: Callable[[int, float, int, str], None] | None = None,
) -> SpgVerdict:
    """Every game of exactly ``plies`` plies from the start (or ``init``) that reaches the
    diagram (``retro spg``), up to ``solutions`` games: ``unique``, ``solutions``,
    ``no_solution`` or ``unknown``. ``board``: a placement, ``placement side``, or a FEN
    whose castling and en-passant rights then count (:mod:`retro.spg.problem`).
    ``progress(nodes, seconds, games found, where)`` is called every few seconds."""
    from retro.spg import parse_problem
    from retro.spg.solve import solve

    text = board.fen() if isinstance(board, chess.Board) else board
    start = init.fen() if isinstance(init, chess.Board) else init
    problem = parse_problem(text, plies, start)
    return solve(problem, cap=solutions, time_limit=time_limit, max_nodes=max_nodes, progress=progress)


def _as_given(fen: str | chess.Board) -> str:
    """The FEN as the user wrote it (what the records of ``retro proofgame`` name)."""
    return fen.fen() if isinstance(fen, chess.Board) else fen.strip()

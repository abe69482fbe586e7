"""Positions along a line of moves, for the page's step-through playback.

Two directions, both computed with the library's own move generators so the board the
page shows is exactly the one the moves lead to:

* :func:`replay` plays a line forward (a proof game in SAN from the start position, a
  helpmate in UCI from the given position) with python-chess, and gives the position
  after each move and the PGN. A move that is not legal is a :class:`ValueError`.
* :func:`retract` undoes a ``retro lastmove`` solution (moves in retro-problem notation,
  latest first) with :func:`retro.core.revmoves.retractions`, and gives the position before
  each move: the solution's predecessors.
* :func:`unmove` takes back one retraction of ``retro revmoves`` (a record ``{move,
  captured, castling, ep}``) with :func:`retro.core.revmoves.predecessor`: the page's
  retract-by-hand. The FEN is read by the CLI's parser (``retro revmoves``'s), and the
  record must be one of the position's retractions, so a by-hand line is exactly a path
  through ``retro revmoves`` lists.
"""

from __future__ import annotations

import chess
import chess.pgn

from retro.api import retractions as revmoves
from retro.core.position import parse_board, parse_fen
from retro.core.revmoves import predecessor, retractions
from retro.lastmove.notation import forward_notation
from retro.lastmove.solver import diagram_positions

__all__ = ["replay", "retract", "unmove"]

MAX_MOVES = 2000


def _parse_move(board: chess.Board, text: str) -> chess.Move:
    try:
        return board.parse_san(text)
    except ValueError:
        pass
    try:
        move = chess.Move.from_uci(text)
    except ValueError:
        move = None
    if move is None or not board.is_legal(move):
        raise ValueError(f"move {len(board.move_stack) + 1} ({text!r}) is not legal in {board.fen()}")
    return move


def replay(moves: list[str], *, fen: str | None = None) -> dict[str, object]:
    """The positions of ``moves`` (SAN or UCI) played from ``fen`` (the start position
    when None): ``{"fens": [start, after move 1, ...], "san": [...], "uci": [...], "pgn"}``."""
    if len(moves) > MAX_MOVES:
        raise ValueError(f"at most {MAX_MOVES} moves, got {len(moves)}")
    board = chess.Board(parse_fen(fen).board.fen()) if fen else chess.Board()
    fens, san, uci = [board.fen()], [], []
    for text in moves:
        move = _parse_move(board, text.strip())
        san.append(board.san(move))
        uci.append(move.uci())
        board.push(move)
        fens.append(board.fen())
    game = chess.pgn.Game.from_board(board)
    game.headers["Event"] = "retro proof game" if fen is None else "retro line"
    return {"fens": fens, "san": san, "uci": uci, "pgn": str(game) + "\n"}


def _undo_line(board: chess.Board, moves: list[str]) -> list[str] | None:
    """The positions before each of ``moves`` (retro notation, latest first), trying every
    castling / en-passant variant of each predecessor; None when the line does not fit."""
    if not moves:
        return []
    for retraction in retractions(board):
        before = predecessor(board, retraction)
        if forward_notation(before, retraction.move) == moves[0].strip():
            rest = _undo_line(before, moves[1:])
            if rest is not None:
                return [before.fen(), *rest]
    return None


def retract(board_fen: str, retracting: str, moves: list[str]) -> list[str]:
    """The positions before each move of a lastmove solution (``moves`` latest first),
    from the diagram ``board_fen`` in which side ``retracting`` (``w``/``b``) moved last."""
    if retracting not in ("w", "b"):
        raise ValueError("the retracting side is w or b")
    if len(moves) > 20:
        raise ValueError(f"at most 20 moves, got {len(moves)}")
    side = chess.WHITE if retracting == "w" else chess.BLACK
    for diagram in diagram_positions(parse_board(board_fen), side):
        positions = _undo_line(diagram, moves)
        if positions is not None:
            return positions
    raise ValueError(f"{' '.join(moves)} cannot be retracted from {board_fen}")


def unmove(fen: str, record: dict[str, str | None]) -> dict[str, object]:
    """The position before the retraction ``record`` (a ``retro revmoves --json``
    retraction of ``fen``): ``{"fen": predecessor, "retraction": record, "move": the
    move in retro-problem notation (uncapture and unpromotion included), "uci"}``.
    The predecessor's clocks follow from ``fen``'s (:func:`~retro.core.revmoves.predecessor`;
    0 and 1 when ``fen`` has none).
    A bad FEN is the CLI's ``InvalidFenError``; a record that is not one of the
    position's retractions is a :class:`ValueError` naming it."""
    verdict = revmoves(fen)
    wanted = {key: record.get(key) for key in ("move", "captured", "castling", "ep")}
    for retraction in verdict.retractions:
        if retraction.as_dict() == wanted:
            position = parse_fen(fen)
            board = position.board.copy(stack=False)
            board.halfmove_clock = position.field5 if position.field5 is not None else 0
            board.fullmove_number = position.field6 if position.field6 is not None else 1
            before = predecessor(board, retraction)
            return {
                "fen": before.fen(),
                "retraction": wanted,
                "move": forward_notation(before, retraction.move),
                "uci": retraction.move.uci(),
            }
    shown = " ".join(f"{key}={value if value is not None else '-'}" for key, value in wanted.items())
    raise ValueError(f"{shown} is not a retraction of {verdict.fen} (see retro revmoves)")

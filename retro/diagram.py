"""Diagrams of a command's position: ``--board`` (a Unicode board in the text output)
and ``--svg FILE`` (python-chess's SVG board, with the last move or a zone marked).

Both come from python-chess (``Board.unicode``, ``chess.svg.board``); this module only
adds the options, the coordinates around the Unicode board, and the checks that the
options fit the run (one position, writable file, before any search).
"""

from __future__ import annotations

import argparse
import re

import chess

from retro.batch import check_writable

__all__ = [
    "add_diagram_arguments",
    "check_diagram_arguments",
    "unicode_board",
    "write_svg",
    "move_squares",
    "show_diagrams",
]


def add_diagram_arguments(parser: argparse.ArgumentParser, *, svg: bool = True, what: str = "the position") -> None:
    parser.add_argument(
        "--board", dest="show_board", action="store_true", help=f"print a Unicode diagram of {what} (text output)"
    )
    if svg:
        parser.add_argument("--svg", metavar="FILE", help=f"write an SVG diagram of {what} to FILE")


def check_diagram_arguments(args: argparse.Namespace) -> None:
    """Refuse ``--board``/``--svg`` in batch mode and an unwritable ``--svg`` path,
    before any work is done."""
    wanted = [option for option, name in (("--board", "show_board"), ("--svg", "svg")) if getattr(args, name, None)]
    if wanted and getattr(args, "file", None) is not None:
        raise ValueError(f"{wanted[0]} draws one position: it cannot be combined with -f")
    if getattr(args, "svg", None):
        check_writable(args.svg, "--svg")


def unicode_board(board: chess.Board) -> str:
    """The board as Unicode pieces with rank numbers and file letters, White at the bottom."""
    rows = board.unicode(empty_square="·").splitlines()
    lines = [f"{8 - index} {row}" for index, row in enumerate(rows)]
    lines.append("  a b c d e f g h")
    return "\n".join(lines)


_MOVE_SQUARES = re.compile(r"([a-h][1-8])[-x][A-Z]?([a-h][1-8])")


def move_squares(text: str) -> chess.Move | None:
    """The from and to squares of a move written with both squares (``Kf5xNe5``,
    ``f4xg3ep+``, ``e2e4``), for marking it; None for other notations (castling)."""
    found = _MOVE_SQUARES.search(text) or re.search(r"([a-h][1-8])()([a-h][1-8])", text)
    if found is None:
        return None
    squares = [group for group in found.groups() if group]
    return chess.Move(chess.parse_square(squares[0]), chess.parse_square(squares[-1]))


def write_svg(
    path: str, board: chess.Board, *, lastmove: chess.Move | None = None, fill: dict[chess.Square, str] | None = None
) -> None:
    """Write python-chess's SVG of ``board`` to ``path``, ``lastmove`` and ``fill`` marked."""
    import chess.svg

    with open(path, "w", encoding="utf-8") as handle:
        handle.write(chess.svg.board(board, lastmove=lastmove, fill=fill or {}, size=400, coordinates=True))


def show_diagrams(
    args: argparse.Namespace,
    board: chess.Board,
    *,
    title: str | None = None,
    lastmove: chess.Move | None = None,
    fill: dict[chess.Square, str] | None = None,
) -> None:
    """Print the ``--board`` diagram (not with ``--json``: stdout then holds JSON only) and
    write the ``--svg`` file, as the command's options ask."""
    if getattr(args, "show_board", False) and not getattr(args, "json", False):
        print(f"{title}:\n{unicode_board(board)}" if title else unicode_board(board), flush=True)
    if getattr(args, "svg", None):
        write_svg(args.svg, board, lastmove=lastmove, fill=fill)

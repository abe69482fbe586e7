"""An SPG problem: the diagram to reach, the number of plies, and what "reach" means.

Convention (the composer's, and Euclide's and Natch's): a shortest-proof-game diagram
is matched by **piece placement and side to move** only. The side to move is not read
from the diagram but follows from N: after N plies from an initial position with side
S to move, S is to move again when N is even. A bare diagram (the placement, optionally
followed by a side to move) carries no castling or en-passant rights: the composer asks
for the placement, whatever rights the game leaves, so two games reaching the same
placement with different rights both reach the diagram. Only when a **full FEN** is
given (with its castling and en-passant fields) do those rights become part of the
target: then the final position must have exactly the FEN's castling rights, and an
en-passant right exactly when the FEN gives one that a legal capture can use (FIDE's
identity of positions, article 9.2.3). This is what lets ``retro proofgame --shortest``
ask for "the start position without castling rights".

A side to move given in the diagram that contradicts N's parity makes the problem
impossible (no game of N plies ends with that side to move): :attr:`SpgProblem.turn_conflict`.
"""

from __future__ import annotations

from dataclasses import dataclass

import chess

from retro.core.position import InvalidFenError, parse_board, parse_fen, require_stated_fields

__all__ = ["SpgProblem", "parse_problem", "MAX_PLIES"]

MAX_PLIES = 1_000
"""The most plies a problem may ask (the longest published proof games are under 200
plies; the search recurses once per ply)."""


@dataclass(frozen=True)
class SpgProblem:
    """The goal ``goal`` (its ``turn`` set from N), ``plies`` N, the initial position ``init``.

    ``full_fen``: the goal's castling rights and en-passant right are part of the target.
    ``turn_conflict``: the diagram named a side to move that N's parity contradicts.
    """

    goal: chess.Board
    plies: int
    init: chess.Board
    full_fen: bool = False
    turn_conflict: bool = False

    @property
    def fen(self) -> str:
        """The target as a FEN: the placement and side to move (and rights when they count)."""
        if self.full_fen:
            return self.goal.fen(en_passant="legal").rsplit(" ", 2)[0]
        return f"{self.goal.board_fen()} {'w' if self.goal.turn else 'b'}"

    def matches(self, board: chess.Board) -> bool:
        """Whether ``board`` (after N plies) is the diagram: placement and turn, plus the
        rights when a full FEN was given (module docstring)."""
        goal = self.goal
        if (
            board.turn != goal.turn
            or board.occupied_co[chess.WHITE] != goal.occupied_co[chess.WHITE]
            or board.occupied_co[chess.BLACK] != goal.occupied_co[chess.BLACK]
            or board.pawns != goal.pawns
            or board.knights != goal.knights
            or board.bishops != goal.bishops
            or board.rooks != goal.rooks
            or board.queens != goal.queens
            or board.kings != goal.kings
        ):
            return False
        if not self.full_fen:
            return True
        if board.clean_castling_rights() != goal.clean_castling_rights():
            return False
        mine = board.ep_square if board.has_legal_en_passant() else None
        theirs = goal.ep_square if goal.has_legal_en_passant() else None
        return mine == theirs


def parse_problem(board_text: str, plies: int, init_fen: str | None = None) -> SpgProblem:
    """Read ``BOARD N [-i FEN]``: BOARD is a placement, ``placement side``, or a FEN of
    3, 4 or 6 fields, rights included (5 fields are refused: the fifth could be meant as
    N). A FEN's castling and en-passant fields are the user's statement: one that cannot
    be true of the board (:func:`retro.core.position.require_stated_fields`) is refused, never
    dropped. Raises :class:`InvalidFenError` (a ``ValueError``) for bad input."""
    if not 0 <= plies <= MAX_PLIES:
        raise InvalidFenError(f"the number of plies must be from 0 to {MAX_PLIES}, got {plies}")
    init = parse_fen(init_fen, require_kings=True, valid=True).board if init_fen else chess.Board()
    fields = board_text.split()
    if not fields:
        raise InvalidFenError("empty board")
    turn = init.turn if plies % 2 == 0 else not init.turn
    if len(fields) == 5:
        raise InvalidFenError(
            "the diagram has 5 fields: give a placement, 'placement side', or a FEN of 4 or 6 fields, then N "
            "(with 5, the last field could be the fullmove number or N)"
        )
    if len(fields) >= 3:
        padded = fields + ["-"] * (4 - len(fields)) if len(fields) < 4 else fields
        position = parse_fen(" ".join(padded), require_kings=True)
        require_stated_fields(position)
        goal = position.board
        given: chess.Color | None = goal.turn
        full = True
    else:
        goal = parse_board(fields[0], require_kings=True)
        given = None
        if len(fields) == 2:
            if fields[1] not in ("w", "b"):
                raise InvalidFenError(f"side to move must be 'w' or 'b', got {fields[1]!r}")
            given = fields[1] == "w"
        full = False
    goal.turn = turn
    return SpgProblem(
        goal=goal, plies=plies, init=init, full_fen=full, turn_conflict=given is not None and given != turn
    )

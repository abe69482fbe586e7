"""Frozen units: units that stand on their square for the whole game from ``init`` to ``goal``.

Two sources, each proved:

1. **Blocked squares** (:func:`proofkernel.blocked.blocked_squares`, which includes the
   king and rooks of the castling rights the goal keeps): the rules and their proofs are
   in that module's docstring.
2. **Deadlock without captures** (our rule). When every unit of ``init`` is still on the
   board in the goal (each colour has as many units in both), no capture happens in any
   game between them: captures are irreversible and no move adds a unit. Let S be the
   greatest set of squares that contains the blocked squares and in which every other
   square holds, in ``init`` and in ``goal``, the same piece, all of whose *first-step
   squares* are in S (a pawn: the square in front of it; a knight: its knight squares; a
   king, queen, rook or bishop: the adjacent squares in its directions -- castling
   passes over the king's adjacent square too). Claim: no unit of S ever moves. Proof:
   suppose one does and take the first move of a unit of S. Before it, every unit of S
   is on its square (blocked units never move, the others have not moved yet, and none
   was captured because nothing is). The move enters or crosses one of the mover's
   first-step squares, which holds a unit of S; without captures a move can neither end
   on an occupied square nor cross one. Contradiction. Example: the start position
   with no castling right in the goal: the king and the queen box each other in (e1's
   only free neighbour is d1, d1's only free neighbour is e1), so both are frozen.

A frozen square never changes occupant, so it is a *blocked square* for per-unit
distances (:mod:`astar.paths`), and a frozen king's castling rights can be lost only
by moving the rooks.
"""

from __future__ import annotations

import chess

from proofkernel.blocked import blocked_squares, one_step_destinations

__all__ = ["frozen_mask", "first_step_mask", "no_captures"]


def first_step_mask(piece: chess.Piece, square: chess.Square) -> int:
    """The squares every move of ``piece`` from ``square`` enters first (rule 2)."""
    if piece.piece_type == chess.PAWN:
        ahead = square + 8 if piece.color == chess.WHITE else square - 8
        return chess.BB_SQUARES[ahead] if 0 <= ahead < 64 else 0
    return one_step_destinations(piece.piece_type, square)


def no_captures(init: chess.Board, goal: chess.Board) -> bool:
    """Whether each colour has as many units in ``goal`` as in ``init`` (then no game between them captures)."""
    return all(chess.popcount(init.occupied_co[c]) == chess.popcount(goal.occupied_co[c]) for c in chess.COLORS)


def frozen_mask(init: chess.Board, goal: chess.Board) -> int:
    """Squares whose unit never moves in any game from ``init`` to ``goal`` (module docstring)."""
    blocked = blocked_squares(goal, init)
    if not no_captures(init, goal):
        return blocked
    frozen = 0
    for square in chess.scan_forward(init.occupied & goal.occupied):
        if init.piece_at(square) == goal.piece_at(square):
            frozen |= chess.BB_SQUARES[square]
    frozen |= blocked
    while True:
        kept = frozen
        for square in chess.scan_forward(frozen & ~blocked):
            piece = init.piece_at(square)
            assert piece is not None
            if first_step_mask(piece, square) & ~frozen:
                kept &= ~chess.BB_SQUARES[square]
        if kept == frozen:
            return frozen
        frozen = kept

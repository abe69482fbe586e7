"""Placement: after the last capture and promotion, the pieces walk to their goal squares
one at a time, each then staying put (an additional start of the proof-game search,
after a complete initial path; our addition, not in texel's documentation).

Once an initial path has played every kernel capture and every quiet promotion, both
sides have the goal's material and what is left is a rearrangement without captures.
With many promoted pieces that rearrangement is long (40-55 plies of lower bound on the
dev positions with 8-12 promotions), and one weighted A* over all pieces at once spends
its nodes on pieces getting in each other's way. Here it is cut into short legs:

1. **pawns**: the pawns step to their goal squares (their number per file is the
   goal's once the promotions are played), as one leg;
2. **pieces**, one per leg: a goal square whose piece (kind, colour; a bishop by its
   square's colour) is not there yet gets the nearest such piece, while the pieces
   placed so far never move (they join the blocked squares of the leg, so they are
   walls for the guide and their moves are not generated). The squares are tried in
   the order of the leg's guide, smallest first; the first leg found is kept unless
   the admissible bound (:class:`astar.heuristic.Heuristic`) from where it ends, with
   the placed pieces and the new one as blocked squares, is infinite: then some
   unplaced piece could no longer reach an open goal square around the placed ones
   (e.g. the last square a knight reaches a corner from is filled, or a piece is shut
   in where it stands), the leg is undone and the next square is tried. Pieces
   already on a goal square of their kind at the start of the phase count as placed.
   A square whose leg fails is passed over (the search after the path takes it on).
   A placed king is the exception: it may step aside and come back within a leg (it
   is one of the leg's required units), so that a side whose other pieces are all
   placed still has a move while the other side walks.

Each leg is the initial path's best-first search (:func:`astar.initial_path._search_leg`,
no capture, no promotion, no side left in check). The phase stops when every square is
filled, when no square is left that a leg can fill, or at its node budget; the moves
made are kept either way, and the final A* starts from their end, free again to move
every piece that is not blocked for the whole game.

The placed path (:func:`placed_path`) is a complete initial path followed by this
phase. It is an additional start of the proof-game run, not a replacement of the path's
own end (:mod:`retro.proofgame` gives it a slot of the restart schedule): where the
pieces stand near their squares already, the final search would have to undo the
placement (on the dev positions with 7-11 promotions that main proved from the
unplaced end, a run from the placed ends alone lost three of them).

Soundness does not depend on this: every move is a real, legal move, and the proof game
is replay-checked (:mod:`astar.proofgame`); a bad placement can only cost time or make
the final search fail.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, replace

import chess

from astar.heuristic import INF, Heuristic
from astar.initial_path import InitialPath, _Leg, _pawn_masks_of, _search_leg
from proofkernel.blocked import blocked_squares

__all__ = ["PLACEMENT_NODES", "Placement", "place_pieces", "placed_path"]

#: The placement phase's nodes at most (ten legs of an initial path).
PLACEMENT_NODES = 30_000

_Unit = tuple[chess.Color, tuple[chess.PieceType, ...], chess.Square]


@dataclass(frozen=True)
class Placement:
    """The moves of the phase, the position they reach, the nodes spent, and how many
    goal squares are filled of the ones that were not at the start."""

    moves: tuple[chess.Move, ...]
    board: chess.Board
    nodes: int
    placed: int
    unplaced: int


def _holds(board: chess.BaseBoard, color: chess.Color, ptype: chess.PieceType, square: chess.Square) -> bool:
    return board.color_at(square) == color and board.piece_type_at(square) == ptype


def _goal_units(goal: chess.Board, blocked: int) -> list[_Unit]:
    """The goal's pieces (kings too, pawns apart) off the blocked squares."""
    units: list[_Unit] = []
    for square in chess.scan_forward(goal.occupied & ~goal.pawns & ~blocked):
        piece = goal.piece_at(square)
        assert piece is not None
        units.append((piece.color, (piece.piece_type,), square))
    return units


def place_pieces(
    board: chess.Board,
    goal: chess.Board,
    blocked: int,
    *,
    leg_nodes: int = 2_000,
    max_nodes: int | None = None,
    deadline: float | None = None,
    rng: random.Random | None = None,
) -> Placement:
    """The placement phase (module docstring) from ``board``, which must have the goal's
    material; ``blocked``: the squares whose pieces never move."""
    rng = rng or random.Random(0)
    board = board.copy(stack=False)
    moves: list[chess.Move] = []
    nodes = 0

    def budget() -> int:
        return leg_nodes if max_nodes is None else min(leg_nodes, max_nodes - nodes)

    def out_of_time() -> bool:
        return budget() <= 0 or (deadline is not None and time.monotonic() > deadline)

    def play(leg: _Leg, walls: int, keep: int) -> bool:
        """Search and play ``leg``; False when it was not found or when it ends where the
        pieces off the blocked squares and ``keep`` could not reach the goal any more
        (the admissible bound with them as blocked squares is infinite: the leg is undone)."""
        nonlocal board, nodes
        found, spent = _search_leg(board, leg, walls, max_nodes=budget(), deadline=deadline, rng=rng)
        nodes += spent
        if found is None:
            return False
        after = board.copy(stack=False)
        for move in found:
            after.push(move)
        if Heuristic(goal, blocked_squares(goal, after) | keep).value(after) >= INF:
            return False
        moves.extend(found)
        board = after.copy(stack=False)
        return True

    goal_pawns = _pawn_masks_of(goal)
    if _pawn_masks_of(board) != goal_pawns and not out_of_time():
        play(_Leg(goal_pawns, []), blocked, 0)
    units = _goal_units(goal, blocked)
    placed = 0
    for color, (ptype,), square in units:
        if _holds(board, color, ptype, square):
            placed |= chess.BB_SQUARES[square]
    open_units = [unit for unit in units if not placed & chess.BB_SQUARES[unit[2]]]
    kings = [unit for unit in units if unit[1] == (chess.KING,)]
    unplaced = len(open_units)
    filled = 0
    while open_units and not out_of_time():
        pawns = _pawn_masks_of(board)
        ranked = []
        for unit in open_units:
            leg = _Leg(pawns, [unit] + [king for king in kings if placed & chess.BB_SQUARES[king[2]]])
            guide = leg.guide(board, blocked | (placed & ~goal.kings))
            if guide < INF:
                ranked.append((guide, unit[2], unit, leg))
        ranked.sort(key=lambda item: item[:2])
        done = None
        for _guide, _square, unit, leg in ranked:
            if out_of_time():
                break
            if play(leg, blocked | (placed & ~goal.kings), placed | chess.BB_SQUARES[unit[2]]):
                done = unit
                break
        if done is None:
            break
        placed |= chess.BB_SQUARES[done[2]]
        open_units.remove(done)
        filled += 1
        # a piece of another square may have been walked onto its own goal square on the way
        for unit in list(open_units):
            if _holds(board, unit[0], unit[1][0], unit[2]):
                placed |= chess.BB_SQUARES[unit[2]]
                open_units.remove(unit)
                filled += 1
    return Placement(tuple(moves), board, nodes, filled, unplaced)


def placed_path(
    path: InitialPath,
    goal: chess.Board,
    blocked: int,
    *,
    max_nodes: int = PLACEMENT_NODES,
    time_limit: float | None = None,
    seed: int = 0,
) -> InitialPath:
    """The complete initial ``path`` (every capture and promotion played, so its end has
    the goal's material) followed by the placement phase toward ``goal``; ``blocked``:
    the squares whose pieces never move. Its ``nodes`` are the phase's alone."""
    if path.reason:
        raise ValueError("the placement phase starts where a complete initial path ends")
    deadline = None if time_limit is None else time.monotonic() + time_limit
    placement = place_pieces(path.board, goal, blocked, max_nodes=max_nodes, deadline=deadline, rng=random.Random(seed))
    return replace(path, moves=path.moves + placement.moves, board=placement.board, nodes=placement.nodes)

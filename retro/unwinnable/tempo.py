"""Tempo units: pieces that only ever provide waiting moves, searched as a "pass".

Rule. Let M be the mobility fixpoint of the position (:mod:`retro.unwinnable.mobility`;
no en passant capture at the root, only dead castling rights,
:func:`retro.unwinnable.static.static_applicable`). A non-pawn unit U of colour X with
region R (its squares in M) is a *tempo unit* when

(0) R has at least two squares;
(i) no other unit's region meets R;
(ii) the squares U can attack from R (``reach``, :func:`wall_reach`: its steps, or its
     lines from every square of R up to the first *wall* of X, an X unit with C = 0)
     miss the enemy king's region and every square next to it;
(iii) no slider other than U has a line from its region onto R (up to the first wall of
     either colour);
(iv) if U is X's king, the reach of no enemy unit (lines up to the first enemy wall)
     meets R.

Walls: by Lemma 8 a unit with C = 0 stands on its square in every reachable position, so
a line through its square is blocked for good, and such a unit has no legal move in any
reachable position (playing it would clear it). A line of a unit stops only at a wall of
its own colour in (ii) and (iv): through an enemy wall it could pin that wall to its
king, and the pin would depend on where the tempo unit stands.

The *abstract game* keeps every tempo unit on its starting square, drops its moves and
gives its side a *pass* (turn changes, no en passant square) whenever that side has a
tempo unit and is not in check. A closure search of the abstract game
(:mod:`retro.unwinnable.closure`) that ends without a mate by the winner proves the real
position unwinnable; a mate it finds is turned back into real moves
(:func:`realize`) and replayed.

Why it is sound. Map a real position to the abstract one by putting every tempo unit back
on its start square (by Lemma 8 every unit stays inside its region, so every reachable
real position has each tempo unit U somewhere in R, and only U ever stands in R, by (i)).
Claim: a move of another unit is legal in the real position iff it is legal in its image,
and it leads to the image of the real result.

* U never interacts by occupation: nobody else stands on, moves onto or slides through R
  (a slider's region holds every square it crosses, Lemma 8), so U is never captured and
  never blocks a path; U never captures, since its captures would land in R on a square
  another unit stands on.
* U never interacts by attack: by (iii) no slider line ever crosses R, so U never blocks a
  check, a pin or an attacked square of the enemy king's path; by (ii) U never attacks
  a square the enemy king stands on or steps to (it stands in its region and steps next
  to it), so U never checks, pins to or guards against the enemy king, and the enemy
  king's moves do not depend on U (its captures of X units are steps to such squares).
  If U is X's own king, (iv) says no enemy ever attacks any square of R, so X is never in
  check from the king's position and no X piece is ever pinned to it.

The legality of another unit's move depends only on occupation and on those attacks, and
no castling ever happens (dead rights), so the claim holds. A real move of U maps to a pass: it is legal only
when X is not in check (in check it would have to capture the checker, interpose or be
the king's escape, all excluded above). Conversely, when X is not in check U has a legal
move: U stands on some u in R, R is connected by U's steps (the flood fill of its region
adds only squares one step from the region) and has a second square, so a step u -> u'
inside R exists; u' is empty by (i), and the step is legal: U is not pinned (iii) and, if
U is the king, u' is not attacked (iv). So the real moves from a reachable position map
exactly onto the abstract moves of its image, and being checkmated does not depend on
the tempo units (their moves are illegal in check; the checks and escapes are the same):
every reachable real mate by the winner maps to a reachable abstract mate. Hence an
exhausted abstract closure without such a mate proves the position unwinnable.
"""

from __future__ import annotations

import dataclasses

import chess

from retro.core.attacks import attacks_mask
from retro.unwinnable.fastboard import MoveGenerator, State, in_check
from retro.unwinnable.mobility import mobility, step_targets
from retro.unwinnable.static import static_applicable

__all__ = [
    "TempoUnits",
    "tempo_units",
    "abstract_moves",
    "pass_turn",
    "realize",
    "PASS",
    "NO_TEMPO_UNITS",
    "wall_reach",
]

#: The abstract move that stands for a move of one of the mover's tempo units.
PASS = -1

_SLIDERS = (chess.BISHOP, chess.ROOK, chess.QUEEN)


def wall_reach(
    piece_type: chess.PieceType, color: chess.Color, region: chess.Bitboard, walls: chess.Bitboard
) -> chess.Bitboard:
    """Every square a piece of this type standing somewhere in ``region`` can ever attack
    when only the squares of ``walls`` (units that never leave their square and are never
    captured) are sure to be occupied: lines stop at the first wall square."""
    if piece_type not in _SLIDERS:
        return step_targets(piece_type, color, region)
    reach = 0
    for square in chess.SquareSet(region):
        reach |= attacks_mask(piece_type, square, walls)
    return reach


def _dilate(mask: chess.Bitboard) -> chess.Bitboard:
    return mask | step_targets(chess.KING, chess.WHITE, mask)


@dataclasses.dataclass(frozen=True)
class TempoUnits:
    """The tempo units of a position: their start squares per colour (index = colour)."""

    squares: tuple[chess.Bitboard, chess.Bitboard]

    def __bool__(self) -> bool:
        return bool(self.squares[0] | self.squares[1])


NO_TEMPO_UNITS = TempoUnits((0, 0))


def tempo_units(board: chess.Board) -> TempoUnits:
    """The units satisfying (0)-(iv) of the module docstring (none when the mobility
    fixpoint does not apply: live castling rights or an en passant capture)."""
    if not static_applicable(board):
        return NO_TEMPO_UNITS
    mob = mobility(board)
    units = list(zip(mob.pieces, mob.region, strict=True))
    walls = mob.fixed  # per colour: squares of the units never cleared (C = 0), occupied for good
    reach = [wall_reach(t, c, region, walls[c]) for (_, c, t), region in units]
    lines = [wall_reach(t, c, region, walls[0] | walls[1]) for (_, c, t), region in units]
    king_zone = [0, 0]  # per colour: the king's region and the squares next to it
    for (_, c, t), region in units:
        if t == chess.KING:
            king_zone[c] = _dilate(region)
    found = [0, 0]
    for i, ((square, color, piece_type), region) in enumerate(units):
        if piece_type == chess.PAWN or chess.popcount(region) < 2:
            continue
        if reach[i] & king_zone[not color]:  # (ii)
            continue
        ok = True
        for j, ((_, other_color, other_type), other_region) in enumerate(units):
            if j == i:
                continue
            if other_region & region:  # (i)
                ok = False
            elif other_type in _SLIDERS and lines[j] & region:  # (iii)
                ok = False
            elif piece_type == chess.KING and other_color != color and reach[j] & region:  # (iv)
                ok = False
            if not ok:
                break
        if ok:
            found[color] |= chess.BB_SQUARES[square]
    return TempoUnits((found[0], found[1]))


def abstract_moves(state: State, moves: list[int], tempo: TempoUnits) -> list[int]:
    """The abstract moves of a position whose real legal moves are ``moves`` (not empty):
    the moves of non-tempo units, and :data:`PASS` when the mover has a tempo unit and is
    not in check."""
    mine = tempo.squares[state[8]]
    if not mine:
        return moves
    kept = [move for move in moves if not mine >> (move & 63) & 1]
    if not in_check(state):
        kept.append(PASS)
    return kept


def pass_turn(state: State) -> State:
    """The abstract position after a pass."""
    return state[:8] + (not state[8], state[9], None)


def realize(state: State, line: list[int], tempo: TempoUnits, generator: MoveGenerator) -> list[int] | None:
    """The real line of an abstract ``line`` from ``state``: each pass becomes a legal move
    of one of the mover's tempo units (one exists, see the module docstring); the tempo
    units are tracked on their real squares. None if a pass finds no such move (cannot
    happen by the module docstring; the caller then treats its search as incomplete)."""
    iter_legal_moves, _, play, _ = generator
    where = [tempo.squares[0], tempo.squares[1]]
    real: list[int] = []
    for move in line:
        turn = state[8]
        if move == PASS:
            move = next((m for m in iter_legal_moves(state) if where[turn] >> (m & 63) & 1), PASS)
            if move == PASS:
                return None
        if where[turn] >> (move & 63) & 1:
            where[turn] ^= chess.BB_SQUARES[move & 63] | chess.BB_SQUARES[(move >> 6) & 63]
        real.append(move)
        state = play(state, move)
    return real

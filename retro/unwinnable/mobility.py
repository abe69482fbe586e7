"""The mobility fixpoint of Ambrona's semi-static algorithm (Figures 6 and 7).

For every piece P of the position we compute a bitboard ``region[P]`` that
over-approximates the squares P can ever stand on (``M_{P->s}``), a flag
``cleared[P]`` (``C_P``: P can leave its square or be captured) and, per colour,
``reached[c]`` (``R^c_s``: a non-king piece of colour c can stand on s).

Rule (Figure 6), applied greedily until nothing changes (Figure 7): a variable is set to
1 as soon as every implication ``V => f`` that mentions it has ``f`` true:

* *move*: a non-pawn reaches s only from a predecessor of s that it reaches
  (king-adjacent along its own directions; knight-distance 1 for knights);
* *pawn move*: a pawn reaches s by a push from the square behind (an enemy on s must be
  clearable), by a capture onto s when an enemy non-king piece can reach s, or anywhere
  once it can reach its promotion rank;
* *clearance*: P is cleared if it can move anywhere else or an enemy can reach its square;
* *reachability*: R^c_s if some non-king piece of colour c reaches s;
* *king attackers*: a king enters s only if every enemy piece attacking s from an
  adjacent (knight-distance for knights) square can be cleared;
* *not self-capture*: P enters the square of an ally only if that ally can be cleared;
* *facing pawns* (ours, not in the paper): for a white pawn P and a black pawn Q above it
  on the same file f, P enters a square of f on Q's rank or above only if P's region
  leaves f, or Q's region leaves f, or a white unit other than P has a region meeting
  Q's region, not counting pawns whose region lies on their own file; symmetrically Q
  enters a square of f on P's rank or below only if one of the two regions leaves f or a
  black unit other than Q, not such a pawn, has a region meeting P's region.

Why it is sound (Lemma 8, Corollary 9): each implication is satisfied by the true
solution of the mobility problem, so by induction on the number of plies every square a
piece can really reach is marked. For *facing pawns*: as long as P and Q both stand on f
and Q is on the board, P is below Q: it holds at the start, a push moves a pawn one or
two squares onto empty squares of its file (a double push also crosses an empty square),
so P cannot step onto or over Q, nor Q onto or over P. The invariant ends only when P
leaves f (a capture: P then stands on a square off f, which the induction puts in P's
region), Q leaves f (likewise), or Q is captured: by a white piece X on Q's square, or
en passant by a white pawn landing on the square Q crossed in its double push; both
squares are in Q's region (the fixpoint reaches a square two ranks away only through the
square between), and X reached them, so by induction X's region meets Q's region; and if
X is a pawn, its capture took it from one file to another, both in its region, so that
region does not lie on X's starting file (a pawn doubled behind Q on f never counts). Before
any of these events P is below Q's current square, which is on or below Q's starting
rank, so P has not reached that rank. Each event happens at an earlier ply than P's
arrival, so the induction of Lemma 8 applies to the implication as to the paper's.
The rules ignore pins, checks by distant pieces and the
turn order, which only makes the result larger (admissible). The argument covers the
lines without castling and needs no en passant capture at the root: callers check both
(:func:`retro.unwinnable.static.static_applicable`: no en passant capture, and only dead
castling rights, which no line can use).

The fixpoint is the *least* one of monotone rules, hence independent of the order in
which variables are activated; we flood-fill each piece's region to saturation before
re-evaluating C and R, which reaches the same fixpoint with far fewer rounds.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping

import chess

__all__ = ["Mobility", "mobility", "capture_predecessors_of", "PRED_MASKS", "step_targets"]


def _neighbours(square: chess.Square, *, diagonal: bool) -> chess.Bitboard:
    mask = 0
    for other in chess.SquareSet(chess.BB_KING_ATTACKS[square]):
        is_diag = chess.square_file(other) != chess.square_file(square) and chess.square_rank(
            other
        ) != chess.square_rank(square)
        if is_diag == diagonal:
            mask |= chess.BB_SQUARES[other]
    return mask


DIAGONAL_NEIGHBOURS: list[chess.Bitboard] = [_neighbours(s, diagonal=True) for s in chess.SQUARES]
ORTHOGONAL_NEIGHBOURS: list[chess.Bitboard] = [_neighbours(s, diagonal=False) for s in chess.SQUARES]

#: For each non-pawn piece type, the one-step "predecessor" table pred_P of the paper
#: (symmetric, so it also gives the successors).
PRED_MASKS: dict[chess.PieceType, list[chess.Bitboard]] = {
    chess.KNIGHT: list(chess.BB_KNIGHT_ATTACKS),
    chess.BISHOP: DIAGONAL_NEIGHBOURS,
    chess.ROOK: ORTHOGONAL_NEIGHBOURS,
    chess.QUEEN: list(chess.BB_KING_ATTACKS),
    chess.KING: list(chess.BB_KING_ATTACKS),
}


def _spread(mask: chess.Bitboard, table: list[chess.Bitboard]) -> chess.Bitboard:
    out = 0
    while mask:
        low = mask & -mask
        out |= table[low.bit_length() - 1]
        mask ^= low
    return out


def _pawn_attacks(mask: chess.Bitboard, color: chess.Color) -> chess.Bitboard:
    if color == chess.WHITE:
        return ((mask << 9) & ~chess.BB_FILE_A | (mask << 7) & ~chess.BB_FILE_H) & chess.BB_ALL
    return (mask >> 7) & ~chess.BB_FILE_A | (mask >> 9) & ~chess.BB_FILE_H


def _ranks_from(rank: int, color: chess.Color) -> chess.Bitboard:
    """The ranks from ``rank`` onwards in the direction pawns of ``color`` move."""
    ranks = range(rank, 8) if color == chess.WHITE else range(rank, -1, -1)
    mask = 0
    for r in ranks:
        mask |= chess.BB_RANKS[r]
    return mask


def _pawn_pushes(mask: chess.Bitboard, color: chess.Color) -> chess.Bitboard:
    return ((mask << 8) & chess.BB_ALL) if color == chess.WHITE else mask >> 8


def step_targets(piece_type: chess.PieceType, color: chess.Color, mask: chess.Bitboard) -> chess.Bitboard:
    """Squares s with pred-capt_P(s) meeting ``mask`` (the squares a piece of this type
    standing somewhere in ``mask`` attacks from an adjacent / knight-distance square)."""
    if piece_type == chess.PAWN:
        return _pawn_attacks(mask, color)
    return _spread(mask, PRED_MASKS[piece_type])


def capture_predecessors_of(piece_type: chess.PieceType, color: chess.Color, square: chess.Square) -> chess.Bitboard:
    """The squares a piece of this type directly attacks from ``square`` (pred-capt)."""
    return step_targets(piece_type, color, chess.BB_SQUARES[square])


@dataclasses.dataclass(frozen=True)
class Mobility:
    """The fixpoint: ``pieces[i] = (square, color, type)`` with ``region[i]`` (M),
    ``cleared[i]`` (C) and ``reached[color]`` (R)."""

    pieces: tuple[tuple[chess.Square, chess.Color, chess.PieceType], ...]
    region: tuple[chess.Bitboard, ...]
    cleared: tuple[bool, ...]
    reached: tuple[chess.Bitboard, chess.Bitboard]  # indexed by colour (False=black, True=white)

    @functools.cached_property
    def fixed(self) -> tuple[chess.Bitboard, chess.Bitboard]:
        """Per colour (indexed like ``reached``): the squares of the units never cleared
        (C = 0), which stand there in every position the fixpoint covers."""
        fixed = [0, 0]
        for (square, color, _), cleared in zip(self.pieces, self.cleared, strict=True):
            if not cleared:
                fixed[color] |= chess.BB_SQUARES[square]
        return fixed[0], fixed[1]


#: A unit of the position: (square, colour, piece type).
Piece = tuple[chess.Square, chess.Color, chess.PieceType]
_PROMOTION_RANK = {chess.WHITE: chess.BB_RANK_8, chess.BLACK: chess.BB_RANK_1}


def mobility(board: chess.Board, excluded: Mapping[chess.Square, chess.Bitboard] | None = None) -> Mobility:
    """Compute the least fixpoint of the Figure 6 rules on ``board`` (Figure 7).

    ``excluded``: for kings, knights and pawns (by start square), squares their region must
    not enter: the *move* (or *pawn move*) rule gets the extra condition that the entry is
    not excluded. The result then over-approximates the positions reached by lines without
    such an entry (the induction of Lemma 8 over those lines); the caller proves what the
    excluded entries do (:mod:`retro.unwinnable.stalemate`: they end the game;
    :mod:`retro.unwinnable.exhaustion`: the promotions, which never happen).

    Each round grows every region to saturation under the current C and R
    (:func:`_grow_regions`), then re-evaluates C (:func:`_clear`); it stops when a round
    changes nothing."""
    excluded = excluded or {}
    for square in excluded:
        if board.piece_type_at(square) not in (chess.KING, chess.KNIGHT, chess.PAWN):
            raise ValueError(f"excluded entries only for kings, knights and pawns, not {chess.square_name(square)}")
    pieces: list[Piece] = [
        (sq, bool(board.occupied_co[chess.WHITE] & chess.BB_SQUARES[sq]), board.piece_type_at(sq))  # type: ignore[misc]
        for sq in chess.SquareSet(board.occupied)
    ]
    region = [chess.BB_SQUARES[sq] for sq, _, _ in pieces]
    cleared = [False] * len(pieces)
    reached = [0, 0]
    for sq, c, t in pieces:
        if t != chess.KING:
            reached[c] |= chess.BB_SQUARES[sq]
    facing = _facing_pawns(pieces)
    attacks = [capture_predecessors_of(t, c, sq) for sq, c, t in pieces]
    changed = True
    while changed:
        changed = _grow_regions(pieces, attacks, region, cleared, reached, facing, excluded)
        changed = _clear(pieces, region, cleared) or changed
    return Mobility(tuple(pieces), tuple(region), tuple(cleared), (reached[0], reached[1]))


def _facing_pawns(pieces: list[Piece]) -> list[tuple[int, int, chess.Bitboard]]:
    """Facing pawns: (i, j) for a pawn i and an enemy pawn j ahead of it on its file, with
    the squares of the file from j's rank onwards (as seen from i)."""
    facing: list[tuple[int, int, chess.Bitboard]] = []
    for i, (sq, c, t) in enumerate(pieces):
        if t != chess.PAWN:
            continue
        file_mask = chess.BB_FILES[chess.square_file(sq)]
        for j, (sq2, c2, t2) in enumerate(pieces):
            if t2 == chess.PAWN and c2 != c and file_mask & chess.BB_SQUARES[sq2]:
                ahead = sq2 > sq if c == chess.WHITE else sq2 < sq
                if ahead:
                    beyond = _ranks_from(chess.square_rank(sq2), c) & file_mask
                    facing.append((i, j, beyond))
    return facing


def _not_past(
    pieces: list[Piece], region: list[chess.Bitboard], facing: list[tuple[int, int, chess.Bitboard]]
) -> list[int]:
    """Per unit, the squares the *facing pawns* rule forbids it for now (see the module
    docstring)."""
    n = len(pieces)
    not_past = [0] * n
    on_file = [  # pawns that have never left their file: they never capture
        t == chess.PAWN and not region[k] & ~chess.BB_FILES[chess.square_file(sq)]
        for k, (sq, _, t) in enumerate(pieces)
    ]
    for i, j, beyond in facing:
        file_mask = chess.BB_FILES[chess.square_file(pieces[i][0])]
        if region[i] & ~file_mask or region[j] & ~file_mask:
            continue
        color = pieces[i][1]
        if any(k != i and pieces[k][1] == color and region[k] & region[j] and not on_file[k] for k in range(n)):
            continue
        not_past[i] |= beyond
    return not_past


def _grow_regions(
    pieces: list[Piece],
    attacks: list[chess.Bitboard],
    region: list[chess.Bitboard],
    cleared: list[bool],
    reached: list[chess.Bitboard],
    facing: list[tuple[int, int, chess.Bitboard]],
    excluded: Mapping[chess.Square, chess.Bitboard],
) -> bool:
    """One round of the *move*, *pawn move*, *king attackers*, *not self-capture* and
    *facing pawns* rules: each region in turn flood-filled to saturation (``region`` and
    ``reached`` updated in place); whether a region grew. ``attacks``: the squares each
    unit directly attacks from its square (pred-capt)."""
    # Squares of units not (yet) clearable, per colour: allies cannot enter them, and
    # enemy pawns cannot push onto them.
    stuck = [0, 0]
    # Squares an uncleared enemy unit directly attacks: a king cannot enter them.
    guarded = [0, 0]
    for i, (sq, c, _) in enumerate(pieces):
        if not cleared[i]:
            stuck[c] |= chess.BB_SQUARES[sq]
            guarded[c] |= attacks[i]
    not_past = _not_past(pieces, region, facing)
    changed = False
    for i, (sq, c, t) in enumerate(pieces):
        forbidden = stuck[c] & ~chess.BB_SQUARES[sq] | not_past[i] | excluded.get(sq, 0)
        if t == chess.KING:
            forbidden |= guarded[not c]
        if t == chess.PAWN:
            current = _pawn_region(region[i], c, forbidden, stuck[not c], reached[not c])
        else:
            current = _piece_region(region[i], PRED_MASKS[t], forbidden)
        if current != region[i]:
            region[i] = current
            changed = True
            if t != chess.KING:
                reached[c] |= current
    return changed


def _pawn_region(
    current: chess.Bitboard,
    color: chess.Color,
    forbidden: chess.Bitboard,
    enemy_stuck: chess.Bitboard,
    enemy_reached: chess.Bitboard,
) -> chess.Bitboard:
    """A pawn's region grown to saturation by the *pawn move* rule: pushes onto squares
    not held by an uncleared enemy, captures onto squares an enemy non-king reaches,
    anywhere once the promotion rank is reached; never onto ``forbidden``."""
    while True:
        if current & _PROMOTION_RANK[color]:
            new = chess.BB_ALL & ~forbidden
        else:
            pushes = _pawn_pushes(current, color) & ~enemy_stuck
            captures = _pawn_attacks(current, color) & enemy_reached
            new = (pushes | captures) & ~forbidden
        new |= current
        if new == current:
            return current
        current = new


def _piece_region(current: chess.Bitboard, table: list[chess.Bitboard], forbidden: chess.Bitboard) -> chess.Bitboard:
    """A non-pawn's region grown to saturation by the *move* rule (steps of ``table``),
    never onto ``forbidden``."""
    frontier = current
    while frontier:
        new = _spread(frontier, table) & ~forbidden & ~current
        current |= new
        frontier = new
    return current


def _clear(pieces: list[Piece], region: list[chess.Bitboard], cleared: list[bool]) -> bool:
    """The *clearance* rule: a unit is cleared once its region leaves its square or an
    enemy region meets its square (``cleared`` updated in place); whether one was."""
    changed = False
    for i, (sq, c, _) in enumerate(pieces):
        if cleared[i]:
            continue
        bit = chess.BB_SQUARES[sq]
        if region[i] != bit or any(c2 != c and region[j] & bit for j, (_, c2, _) in enumerate(pieces)):
            cleared[i] = True
            changed = True
    return changed

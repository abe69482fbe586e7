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


def mobility(board: chess.Board, excluded: Mapping[chess.Square, chess.Bitboard] | None = None) -> Mobility:
    """Compute the least fixpoint of the Figure 6 rules on ``board`` (Figure 7).

    ``excluded``: for kings, knights and pawns (by start square), squares their region must
    not enter: the *move* (or *pawn move*) rule gets the extra condition that the entry is
    not excluded. The result then over-approximates the positions reached by lines without
    such an entry (the induction of Lemma 8 over those lines); the caller proves what the
    excluded entries do (:mod:`retro.unwinnable.stalemate`: they end the game;
    :mod:`retro.unwinnable.exhaustion`: the promotions, which never happen)."""
    excluded = excluded or {}
    for square in excluded:
        if board.piece_type_at(square) not in (chess.KING, chess.KNIGHT, chess.PAWN):
            raise ValueError(f"excluded entries only for kings, knights and pawns, not {chess.square_name(square)}")
    pieces = [
        (sq, bool(board.occupied_co[chess.WHITE] & chess.BB_SQUARES[sq]), board.piece_type_at(sq))
        for sq in chess.SquareSet(board.occupied)
    ]
    n = len(pieces)
    region = [chess.BB_SQUARES[sq] for sq, _, _ in pieces]
    cleared = [False] * n
    by_square = {sq: i for i, (sq, _, _) in enumerate(pieces)}
    direct_attacks = [capture_predecessors_of(t, c, sq) for sq, c, t in pieces]  # type: ignore[arg-type]
    promo = {chess.WHITE: chess.BB_RANK_8, chess.BLACK: chess.BB_RANK_1}
    reached = [0, 0]
    for sq, c, t in pieces:
        if t != chess.KING:
            reached[c] |= chess.BB_SQUARES[sq]

    # Facing pawns: (i, j) for a pawn i and an enemy pawn j ahead of it on its file, with
    # the squares of the file from j's rank onwards (as seen from i).
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

    changed = True
    while changed:
        changed = False
        # Squares of pieces not (yet) clearable, per colour: allies cannot enter them.
        stuck = [0, 0]
        # Squares an uncleared enemy piece directly attacks: a king cannot enter them.
        guarded = [0, 0]
        for i, (sq, c, _) in enumerate(pieces):
            if not cleared[i]:
                stuck[c] |= chess.BB_SQUARES[sq]
                guarded[c] |= direct_attacks[i]
        enemy_uncleared = stuck  # squares of uncleared pieces of colour c (pawn pushes onto them fail)
        # Facing pawns: the squares a pawn may not enter yet (see the module docstring).
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
        for i, (sq, c, t) in enumerate(pieces):
            old = region[i]
            current = old
            forbidden = stuck[c] & ~chess.BB_SQUARES[sq] | not_past[i] | excluded.get(sq, 0)
            if t == chess.KING:
                forbidden |= guarded[not c]
            if t == chess.PAWN:
                while True:
                    if current & promo[c]:
                        new = chess.BB_ALL & ~forbidden
                    else:
                        pushes = _pawn_pushes(current, c) & ~enemy_uncleared[not c]
                        captures = _pawn_attacks(current, c) & reached[not c]
                        new = (pushes | captures) & ~forbidden
                    new |= current
                    if new == current:
                        break
                    current = new
            else:
                table = PRED_MASKS[t]  # type: ignore[index]
                frontier = current
                while frontier:
                    new = _spread(frontier, table) & ~forbidden & ~current
                    current |= new
                    frontier = new
            if current != old:
                region[i] = current
                changed = True
                if t != chess.KING:
                    reached[c] |= current
        for i, (sq, c, _) in enumerate(pieces):
            if cleared[i]:
                continue
            if region[i] != chess.BB_SQUARES[sq]:
                cleared[i] = True
                changed = True
                continue
            bit = chess.BB_SQUARES[sq]
            for j, (_, c2, _) in enumerate(pieces):
                if c2 != c and region[j] & bit:
                    cleared[i] = True
                    changed = True
                    break
    del by_square
    return Mobility(tuple(pieces), tuple(region), tuple(cleared), (reached[0], reached[1]))  # type: ignore[arg-type]

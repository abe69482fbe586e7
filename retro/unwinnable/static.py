"""Unwinnable-static: the semi-static check of Ambrona's Figure 8, corrected and extended.

Rule: given the mobility regions of :func:`retro.unwinnable.mobility.mobility` (an
over-approximation of where each piece can ever stand, Lemma 8 / Corollary 9), the
position is unwinnable for ``winner`` when

1. no (pseudo-legal) en passant capture exists, and every castling right is *dead*: some
   square between its king and its rook holds a unit with C = 0 (otherwise: no answer;
   Lemma 8 does not cover them);
2. no pawn of the winner can reach its last rank (otherwise: no answer);
3. no square s of the loser king's region is both attacked by a possible checker
   (:func:`check_squares`: a winner knight or slider from its ``att-region``, or a winner
   pawn from a square of its region that another winner piece can attack) and such
   that ``blockers(s) + cover(s) >= |orth(s)|``,
   where ``orth(s)`` are the orthogonal neighbours of s, ``blockers(s)`` counts the
   loser's non-king pieces whose region meets ``orth(s)`` and ``cover(s)`` adds, for
   every winner piece P (king included), how many squares of ``orth(s)`` P can attack at
   one time (:func:`cover_weight`).

Changes to the paper. (a) Correction: Figure 8 counts every *assistant* once, relying
on footnote 9 ("each assistant can cover at most one of the squares in orth(s)"). That
is only true of the king. A knight on f6 attacks both g8 and h7 (the orthogonal
neighbours of h8); a pawn on e7 attacks d8 and f8 (those of e8); a bishop on e7 or on
the d8-h4 diagonal covers two squares of orth(e8), a rook two, a queen three. We weight
each piece by the number of squares it can really cover (:func:`cover_weight`). (We know
no position where the unit count, together with steps 5-6 below, answers wrongly: none
in the dev and Lichess sets nor in 2 million mutated blocked positions; but footnote 9's
argument does not hold, so we do not rely on it.) (b) Extension: once the pieces are
weighted, Figure 8's steps 5-6 (every *intruder*, a winner piece whose region meets the
loser king's region, must be a bishop, all on one square colour) are not needed for
soundness (they only served footnote 9's argument); we drop them and require only that
no winner pawn can promote (a promoted piece attacks squares its pawn's att-region does
not hold), and we let only non-king pieces give the check. (c) Extension: a pawn gives a
mating check only from a square another winner piece protects (the king would capture it
otherwise). All changes keep every answer of the paper's check (with weights) and add
more.

Why it is sound (direct version of Lemma 11 + Theorem 12 for the computed regions).
Suppose a checkmate Q of the loser's king K on square s by ``winner`` is reachable. By
Lemma 8 every piece stands in Q inside its region (s is in K's region), pieces never
cleared (C = 0) still stand on their squares, and no winner pawn has promoted (step 2).

* The checker X is not a king. If X is a pawn or a knight, its square p is in its region
  and s is a pawn / knight step from p, so s is in att-region(X). If X is a slider, the
  squares between p and s are empty in Q, hence hold no never-cleared ally, so the flood
  fill of X's region follows the line from p to the square next to s: again s is in
  att-region(X). If X is a pawn, p is next to s and K could capture X unless p is
  attacked once K stands on p: by a winner piece Z other than X, standing in its region,
  whose line to p (if Z slides) holds only squares empty in Q and s, which the flood fill
  of Z's region crosses (s holds K in Q, so no never-cleared winner piece); so p is in
  att-region(Z) (protected checker). So s passes the first test of step 3.
* Each square t of ``orth(s)`` is, in Q, either occupied by a loser non-king piece Y
  (Y's region meets ``orth(s)``; Y counts once in ``blockers(s)`` and blocks only t), or
  attacked, with K's square s vacated, by a winner piece Z (else K could step or capture
  there). The squares between Z and t are empty in Q or are s, so by the same flood-fill
  argument t is in att-region(Z).
* A winner piece attacks at most ``cover_weight`` squares of ``orth(s)`` at once: the
  king 1 (a square adjacent to two of them is s or adjacent to s, where the winner's king
  cannot stand), a pawn 2 only from the square directly behind s (it then hits both
  side neighbours) and 1 otherwise, knights, bishops and rooks 2, a queen 3 (maxima over
  all placements on an empty board with s vacated; other pieces only lower them;
  ``tests/retro/test_unwinnable.py`` recomputes them), and never more than the squares of
  ``orth(s)`` in its att-region.

So a mate on s needs ``blockers(s) + cover(s) >= |orth(s)|``; step 3 proves no such s
exists.

Dead castling rights (an extension of step 1; the paper requires none at all). The
fixpoint never models castling, so by Lemma 8 it over-approximates the positions of every
line without a castling move. Along such a line every unit with C = 0 stands on its
square, so every castling path keeps a unit on it and the next move is no castling either
(castling needs the squares between king and rook empty): by induction no line has a
castling move, and the fixpoint covers every reachable position, as without the rights.

Choice left open by the paper's text: ``blockers(s)`` excludes the loser's *king* (it
stands on s and cannot block its own neighbour).
"""

from __future__ import annotations

import chess

from retro.unwinnable.mobility import ORTHOGONAL_NEIGHBOURS, Mobility, mobility, step_targets

__all__ = [
    "static_applicable",
    "dead_castling_rights",
    "unwinnable_static",
    "cover_weight",
    "check_squares",
    "MAX_COVER",
]

#: Most squares of orth(s) one piece of the type can attack at once (pawn: see cover_weight).
MAX_COVER: dict[chess.PieceType, int] = {
    chess.PAWN: 2,
    chess.KNIGHT: 2,
    chess.BISHOP: 2,
    chess.ROOK: 2,
    chess.QUEEN: 3,
    chess.KING: 1,
}

_LAST_RANK = {chess.WHITE: chess.BB_RANK_8, chess.BLACK: chess.BB_RANK_1}


def cover_weight(
    piece_type: chess.PieceType, color: chess.Color, region: chess.Bitboard, att_region: chess.Bitboard, s: chess.Square
) -> int:
    """How many squares of orth(s) a winner piece with this region can attack at one time."""
    around = ORTHOGONAL_NEIGHBOURS[s]
    hits = chess.popcount(att_region & around)
    if piece_type == chess.PAWN:
        behind = s - 8 if color == chess.WHITE else s + 8
        if not (0 <= behind < 64 and region & chess.BB_SQUARES[behind]):
            return min(hits, 1)
    return min(hits, MAX_COVER[piece_type])


def check_squares(attackers: list[tuple[chess.PieceType, chess.Color, chess.Bitboard, chess.Bitboard]]) -> int:
    """The squares a checking winner piece can attack in a mate (step 3, first test):
    the att-region of every knight and slider, and for a pawn only the squares it attacks
    from a square of its region that another winner piece (king included) can attack."""
    checks = 0
    for i, (t, c, region, att) in enumerate(attackers):
        if t == chess.KING:
            continue
        if t != chess.PAWN:
            checks |= att
            continue
        protected = 0
        for j, other in enumerate(attackers):
            if j != i:
                protected |= other[3]
        checks |= step_targets(t, c, region & protected)
    return checks


def dead_castling_rights(board: chess.Board) -> bool:
    """Whether every castling right of ``board`` is dead (step 1; none at all is fine).
    Meaningful without an en passant capture at the root, which the caller checks first."""
    rights = board.clean_castling_rights()
    if not rights:
        return True
    fixed = mobility(board).fixed
    for rook in chess.SquareSet(rights):
        king = board.king(chess.WHITE if rook < 8 else chess.BLACK)
        if king is None or not chess.between(king, rook) & (fixed[0] | fixed[1]):
            return False
    return True


def static_applicable(board: chess.Board) -> bool:
    """Step 1: the check answers only without en passant and with dead castling rights."""
    if board.ep_square is not None and board.has_pseudo_legal_en_passant():
        return False
    return dead_castling_rights(board)


def unwinnable_static(board: chess.Board, winner: chess.Color, mob: Mobility | None = None) -> bool:
    """True only if the semi-static argument proves ``board`` unwinnable for ``winner``."""
    if not static_applicable(board):
        return False
    if mob is None:
        mob = mobility(board)
    king_region = 0
    attackers = []  # (type, colour, region, att-region) of the winner's pieces
    blocker_regions = []  # regions of the loser's non-king pieces
    for i, (_, c, t) in enumerate(mob.pieces):
        region = mob.region[i]
        if c == winner:
            if t == chess.PAWN and region & _LAST_RANK[c]:
                return False
            attackers.append((t, c, region, step_targets(t, c, region)))
        elif t == chess.KING:
            king_region = region
        else:
            blocker_regions.append(region)
    for s in chess.SquareSet(king_region & check_squares(attackers)):
        around = ORTHOGONAL_NEIGHBOURS[s]
        count = sum(1 for region in blocker_regions if region & around)
        count += sum(cover_weight(t, c, region, att, s) for t, c, region, att in attackers)
        if count >= chess.popcount(around):
            return False
    return True

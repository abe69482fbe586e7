"""Unwinnable-static: the semi-static check of Ambrona's Figure 8, with one correction.

Rule: given the mobility regions of :func:`retro.unwinnable.mobility.mobility` (an
over-approximation of where each piece can ever stand, Lemma 8 / Corollary 9), the
position is unwinnable for ``winner`` when

1. no castling right and no (pseudo-legal) en passant capture exist (otherwise: no
   answer; Lemma 8 does not cover them);
2. every winner piece whose region meets the loser king's region (an *intruder*) is a
   bishop, and all intruders stand on squares of one colour;
3. no square s of the loser king's region is both attacked by some winner piece
   (``att-region``) and such that ``blockers(s) + cover(s) >= |orth(s)|``, where
   ``orth(s)`` are the orthogonal neighbours of s, ``blockers(s)`` counts the loser's
   non-king pieces whose region meets ``orth(s)`` and ``cover(s)`` adds, for every winner
   piece P, how many squares of ``orth(s)`` P can attack at one time (:func:`cover_weight`).

Correction to the paper: Figure 8 counts every *assistant* once, relying on footnote 9
("each assistant can cover at most one of the squares in orth(s)"). That is only true of
the king. A knight on f6 attacks both g8 and h7 (the orthogonal neighbours of h8); a
pawn on e7 attacks d8 and f8 (those of e8); rooks, bishops attack two, a queen three.
Counting them once can answer "unwinnable" on a mate whose escape squares are covered
by fewer pieces than there are escape squares, so we weight each piece by the number of
squares it can really cover (:func:`cover_weight`); the check stays monotone.

Why it is sound (direct version of Lemma 11 + Theorem 12 for the computed regions).
Suppose a checkmate Q of the loser's king K on square s by ``winner`` is reachable. By
Lemma 8 every piece stands in Q inside its region (s is in K's region) and pieces never
cleared (C = 0) still stand on their squares, so s, the squares between a slider and its
target and the empty squares of Q are not squares of never-cleared winner pieces.

* The checker X is a bishop or an unpromoted pawn: a knight, rook, queen or promoted
  pawn attacking s reaches s in its flood fill (nothing on the way is a never-cleared
  ally), so its region meets K's region and step 2 answers no. Hence s is in the
  att-region of X: the check of step 3 applies to s.
* Each square t of ``orth(s)`` is, in Q, either occupied by a loser non-king piece Y (Y
  is counted in ``blockers(s)``, and covers only t), or attacked, once K has left s, by a
  winner piece Z. Then t is in Z's att-region: Z's square is in its region and, for a
  slider, the flood fill follows the empty line towards t, through s if needed.
* A winner piece attacks at most ``cover_weight`` squares of ``orth(s)`` at once: the
  king 1 (a square adjacent to two of them is s or adjacent to s, where the winner's king
  cannot stand), a pawn 2 only from the square directly behind s (it then hits both
  side neighbours) and 1 otherwise, knights, bishops and rooks 2, a queen 3 (maxima over
  all placements on an empty board; blocking only lowers them;
  ``tests/retro/test_unwinnable.py`` recomputes them), and never more than the squares of
  ``orth(s)`` in its att-region.

So a mate on s needs ``blockers(s) + cover(s) >= |orth(s)|``; step 3 proves no such s
exists. Every quantity grows with the regions (Lemma 10's monotonicity), so using the
over-approximated regions is sound.

Choice left open by the paper's text: ``blockers(s)`` excludes the loser's *king* (it
stands on s and cannot block its own neighbour).
"""

from __future__ import annotations

import chess

from retro.unwinnable.mobility import ORTHOGONAL_NEIGHBOURS, Mobility, mobility, step_targets

__all__ = ["static_applicable", "unwinnable_static", "cover_weight", "MAX_COVER"]

#: Most squares of orth(s) one piece of the type can attack at once (pawn: see cover_weight).
MAX_COVER: dict[chess.PieceType, int] = {
    chess.PAWN: 2, chess.KNIGHT: 2, chess.BISHOP: 2, chess.ROOK: 2, chess.QUEEN: 3, chess.KING: 1,
}


def cover_weight(piece_type: chess.PieceType, color: chess.Color, region: chess.Bitboard,
                 att_region: chess.Bitboard, s: chess.Square) -> int:
    """How many squares of orth(s) a winner piece with this region can attack at one time."""
    around = ORTHOGONAL_NEIGHBOURS[s]
    hits = chess.popcount(att_region & around)
    if piece_type == chess.PAWN:
        behind = s - 8 if color == chess.WHITE else s + 8
        if not (0 <= behind < 64 and region & chess.BB_SQUARES[behind]):
            return min(hits, 1)
    return min(hits, MAX_COVER[piece_type])


def static_applicable(board: chess.Board) -> bool:
    """Step 1 of Figure 8: the check answers only without castling rights and en passant."""
    if board.castling_rights:
        return False
    if board.ep_square is not None and board.has_pseudo_legal_en_passant():
        return False
    return True


def unwinnable_static(board: chess.Board, winner: chess.Color, mob: Mobility | None = None) -> bool:
    """True only if the semi-static argument proves ``board`` unwinnable for ``winner``."""
    if not static_applicable(board):
        return False
    if mob is None:
        mob = mobility(board)
    loser_king = next(i for i, (_, c, t) in enumerate(mob.pieces) if t == chess.KING and c != winner)
    king_region = mob.region[loser_king]
    bishop_colour: int | None = None
    for i, (sq, c, t) in enumerate(mob.pieces):
        if c == winner and mob.region[i] & king_region:
            if t != chess.BISHOP:
                return False
            colour = 1 if chess.BB_SQUARES[sq] & chess.BB_LIGHT_SQUARES else 0
            if bishop_colour is not None and colour != bishop_colour:
                return False
            bishop_colour = colour
    attackers = []  # (type, colour, region, att-region) of the winner's pieces
    blocker_regions = []  # regions of the loser's non-king pieces
    winner_attacks = 0
    for i, (_, c, t) in enumerate(mob.pieces):
        if c == winner:
            att = step_targets(t, c, mob.region[i])
            attackers.append((t, c, mob.region[i], att))
            winner_attacks |= att
        elif t != chess.KING:
            blocker_regions.append(mob.region[i])
    for s in chess.SquareSet(king_region & winner_attacks):
        around = ORTHOGONAL_NEIGHBOURS[s]
        count = sum(1 for region in blocker_regions if region & around)
        count += sum(cover_weight(t, c, region, att, s) for t, c, region, att in attackers)
        if count >= chess.popcount(around):
            return False
    return True

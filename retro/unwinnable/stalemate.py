"""Stalemating entries: the mobility fixpoint without the king and knight moves that end the game.

The mobility fixpoint (:mod:`retro.unwinnable.mobility`) lets a unit enter every square a
legal move could take it to, even when that move stalemates the opponent. In blocked
positions such a move is often the only way to break the structure (a king that takes the
last pawn guarding a lock), and once the fixpoint lets it happen every region grows to the
whole board. Example (Ambrona's Position 14 with four black bishops,
``8/b1b5/k6p/2b2p1P/1b3p2/5PpK/6P1/8 w``): Black's king can take g2, or step to h2, only
when White's king stands on h4, and either move stalemates White.

Rule. Let T be a set of *entries* (X, s): X a king or a knight, s a square. Let F(T) be
the mobility fixpoint in which no unit X enters a square s with (X, s) in T (the
``excluded`` argument of :func:`retro.unwinnable.mobility.mobility`). Write *fixed* for
the units with C = 0 in F(T), *region* for their regions in F(T), c for X's colour and O for
the other one. An entry (X, s) is *certified stalemating* when, for F(T):

(a) every non-king unit of O is fixed;
(b) none of them but the one on s (taken by X) can move once X stands on s: a pawn's push
    square holds a fixed unit or is s, and no square it captures on is s or lies in the
    region of a c unit other than X; a piece's steps (king steps along its lines, knight
    jumps) all end on squares of fixed O units other than s;
(c) for every square k of O's king's region that can hold it then (k is not s, no other
    fixed unit stands on k, and k is not next to s when X is a king), every square n next
    to k is barred to O's king: n holds a fixed O unit (n is not s), or n is *surely
    attacked* by c: it is attacked by X from s or by a fixed c unit, counting only the
    attacks no other unit can block (knight, king and pawn steps; the first square of a
    slider's lines); n may hold a c unit (X on s, or a fixed one) only if that unit is
    surely attacked by another c unit;
(d) for those k, O is not in check after the move: k is not in X's attacks from s (lines
    stopped only by fixed units), and for every square p of X's region from which X can
    enter s, if p is on a line from k with no fixed unit between, the line beyond p (up to
    and including the first fixed unit) holds no square of the region of a c slider
    moving along that line, nor of a c pawn whose region meets its last rank.

T is *verified* when every entry of T whose square is one step (king / knight) from X's
region in F(T) is certified stalemating for F(T). The other entries never matter: F(T)
is also the fixpoint without them.

Claim: if T is verified, every position reachable from the root by moves none of which
ends the game satisfies F(T) (every unit inside its region, fixed units on their
squares), and every move into an entry of T ends the game in a stalemate. So F(T) may
replace the plain fixpoint wherever an argument needs only the positions in which a
checkmate can happen (:mod:`retro.unwinnable.static`: the mate position is reached by a
move that is not a stalemating entry, from a position that satisfies F(T)).

Proof, by induction on the number of plies. The root satisfies F(T). Let P satisfy F(T)
and have a legal move m to C.

* If m is not an entry of T, C satisfies F(T): each implication of the mobility rules
  (Lemma 8) holds of the move from P, whose facts are all marked in F(T), and F(T) is
  closed under them (the only rule changed is the move rule, for the entries of T, which m
  is not). For the unmarked entries: an entry (X, s) with s not one step from X's region
  is never taken by a move from a position satisfying F(T).
* If m is an entry (X, s) of T, X stood in P on a square p of its region one step from s,
  so the entry is certified for F(T). In C: O's non-king units are all fixed (a), stand on
  their squares (P satisfies F(T); the one on s, if any, is gone), and have no legal move
  (b: a push is blocked, a capture needs a c unit on the target, and the only c unit not
  in its region is X, on s; no en passant, since m is not a pawn move; no castling, whose
  path a fixed unit blocks, :func:`retro.unwinnable.static.static_applicable`). O's king
  stands on some k of (c) (k is in its region; in C no unit shares its square; a king on s
  is never next to the other king) and each of its steps is barred: onto a fixed O unit;
  onto a square attacked by c whatever else stands where (step attacks are not blocked,
  the first square of a line has nothing in between); or capturing a c unit that such an
  attack protects. O is not in check (d): in P O was not in check (c was to move), and the
  move changes the attacks on k only by X's attacks from s and by the lines that ran
  through p, which only c sliders (or promoted pawns) standing beyond p inside their
  regions can use. So C is a stalemate: the game ends, and it is not a checkmate.

Computing T: start from every entry of every king and knight and repeat: compute F(T),
drop the entries one step from their unit's region that are not certified (all entries of
c at once when (a) fails for O); stop when nothing is dropped. T only shrinks, so this ends,
and the T it ends with is verified.
"""

from __future__ import annotations

import chess

from retro.core.attacks import attacks_mask
from retro.unwinnable.mobility import Mobility, mobility, step_targets
from retro.unwinnable.static import static_applicable, unwinnable_static

__all__ = ["stalemate_mobility", "certified_stalemating", "unwinnable_without_stalemates"]

_SLIDES = {chess.BISHOP: (True, False), chess.ROOK: (False, True), chess.QUEEN: (True, True)}
_LAST_RANK = {chess.WHITE: chess.BB_RANK_8, chess.BLACK: chess.BB_RANK_1}


def _sure_attacks(piece_type: chess.PieceType, color: chess.Color, square: chess.Square) -> chess.Bitboard:
    """The squares a unit on ``square`` attacks whatever stands elsewhere."""
    if piece_type == chess.PAWN:
        return step_targets(chess.PAWN, color, chess.BB_SQUARES[square])
    return attacks_mask(piece_type, square, chess.BB_ALL)


def _steps(piece_type: chess.PieceType, square: chess.Square) -> chess.Bitboard:
    """The squares a non-pawn unit on ``square`` could move to if nothing stood around it."""
    return attacks_mask(piece_type, square, chess.BB_ALL)


class _Facts:
    """What F(T) says, arranged for the certification of entries. ``moving``: a unit that
    F(T) keeps on its square (all its entries are in T) but whose entry is being
    certified: it is not counted as fixed (it has left its square after the move)."""

    def __init__(self, mob: Mobility, moving: int = -1):
        self.mob = mob
        self.fixed = [0, 0]  # per colour: squares of fixed units
        self.sure = [0, 0]  # per colour: squares surely attacked by a fixed unit
        self.sure_without: dict[int, chess.Bitboard] = {}  # fixed unit index -> the sure attacks of its colour's others
        self.king = [-1, -1]
        for i, ((square, color, piece_type), cleared) in enumerate(zip(mob.pieces, mob.cleared, strict=True)):
            if piece_type == chess.KING:
                self.king[color] = i
            if not cleared and i != moving:
                self.fixed[color] |= chess.BB_SQUARES[square]
        for color in chess.COLORS:
            fixed = [i for i, (_, c, _) in enumerate(mob.pieces) if c == color and not mob.cleared[i] and i != moving]
            attacks = {i: _sure_attacks(mob.pieces[i][2], color, mob.pieces[i][0]) for i in fixed}
            for i in fixed:
                self.sure[color] |= attacks[i]
                others = 0
                for j in fixed:
                    if j != i:
                        others |= attacks[j]
                self.sure_without[i] = others

    def side_frozen(self, color: chess.Color) -> bool:
        """(a): every non-king unit of ``color`` is fixed."""
        mob = self.mob
        return all(not mob.cleared[i] for i, (_, c, t) in enumerate(mob.pieces) if c == color and t != chess.KING)


def certified_stalemating(facts: _Facts, mover: int, s: chess.Square) -> bool:
    """Whether the entry of unit ``mover`` onto ``s`` satisfies (a)-(d) of the module docstring."""
    mob = facts.mob
    if not mob.cleared[mover]:
        facts = _Facts(mob, mover)
    _, c, mover_type = mob.pieces[mover]
    o = not c
    if not facts.side_frozen(o) or facts.king[o] < 0:
        return False
    bit_s = chess.BB_SQUARES[s]
    fixed_all = facts.fixed[0] | facts.fixed[1]
    c_regions = 0  # squares any c unit other than the mover may stand on
    for j, (_, color, _) in enumerate(mob.pieces):
        if color == c and j != mover:
            c_regions |= mob.region[j]
    # (b) O's other units cannot move.
    for square, color, piece_type in mob.pieces:
        if color != o or piece_type == chess.KING or square == s:
            continue
        if piece_type == chess.PAWN:
            push = square + 8 if o == chess.WHITE else square - 8
            if not (0 <= push < 64 and (fixed_all | bit_s) & chess.BB_SQUARES[push]):
                return False
            if step_targets(chess.PAWN, o, chess.BB_SQUARES[square]) & (c_regions | bit_s):
                return False
        elif _steps(piece_type, square) & ~(facts.fixed[o] & ~bit_s):
            return False
    mover_sure = _sure_attacks(mover_type, c, s)
    mover_reach = attacks_mask(mover_type, s, fixed_all)
    origins = mob.region[mover] & _steps(mover_type, s)
    king_index = facts.king[o]
    king_square = mob.pieces[king_index][0]
    others_fixed = fixed_all & ~(0 if mob.cleared[king_index] else chess.BB_SQUARES[king_square])
    kings = mob.region[king_index] & ~bit_s & ~others_fixed
    if mover_type == chess.KING:
        kings &= ~chess.BB_KING_ATTACKS[s]
    attacked = facts.sure[c] | mover_sure
    for k in chess.SquareSet(kings):
        for n in chess.SquareSet(chess.BB_KING_ATTACKS[k]):
            bit_n = chess.BB_SQUARES[n]
            if n == s:
                if not bit_s & facts.sure[c]:  # X on s must be protected
                    return False
            elif bit_n & facts.fixed[o]:
                continue
            elif bit_n & facts.fixed[c]:
                holder = next(j for j, (square, _, _) in enumerate(mob.pieces) if square == n)
                if not bit_n & (facts.sure_without[holder] | mover_sure):
                    return False
            elif not bit_n & attacked:
                return False
        if chess.BB_SQUARES[k] & mover_reach:
            return False
        if _discovered(facts, c, k, origins, fixed_all):
            return False
    return True


def _discovered(facts: _Facts, c: chess.Color, k: chess.Square, origins: chess.Bitboard, fixed_all: int) -> bool:
    """(d), second part: a c slider (or a promotable c pawn) may stand on a line from
    ``k`` through a square of ``origins`` beyond it."""
    mob = facts.mob
    diagonal_reach = 0
    straight_reach = 0
    for j, (_, color, piece_type) in enumerate(mob.pieces):
        if color != c:
            continue
        diagonal, straight = _SLIDES.get(piece_type, (False, False))
        if piece_type == chess.PAWN and mob.region[j] & _LAST_RANK[c]:
            diagonal = straight = True
        if diagonal:
            diagonal_reach |= mob.region[j]
        if straight:
            straight_reach |= mob.region[j]
    k_file, k_rank = chess.square_file(k), chess.square_rank(k)
    for p in chess.SquareSet(origins):
        file_step = (chess.square_file(p) > k_file) - (chess.square_file(p) < k_file)
        rank_step = (chess.square_rank(p) > k_rank) - (chess.square_rank(p) < k_rank)
        df, dr = abs(chess.square_file(p) - k_file), abs(chess.square_rank(p) - k_rank)
        if p == k or not (df == 0 or dr == 0 or df == dr):
            continue
        if chess.between(k, p) & fixed_all:
            continue
        reach = diagonal_reach if file_step and rank_step else straight_reach
        f, r = chess.square_file(p) + file_step, chess.square_rank(p) + rank_step
        while 0 <= f < 8 and 0 <= r < 8:
            bit = chess.BB_SQUARES[chess.square(f, r)]
            if bit & reach:
                return True
            if bit & fixed_all:
                break
            f, r = f + file_step, r + rank_step
    return False


def stalemate_mobility(board: chess.Board) -> Mobility:
    """F(T) for the verified T computed as in the module docstring. The caller must check
    :func:`retro.unwinnable.static.static_applicable` (no en passant, dead castling rights)."""
    excluded = {
        square: chess.BB_ALL & ~chess.BB_SQUARES[square] for square in chess.SquareSet(board.kings | board.knights)
    }
    while True:
        mob = mobility(board, excluded)
        facts = _Facts(mob)
        dropped = False
        for i, (square, color, piece_type) in enumerate(mob.pieces):
            entries = excluded.get(square, 0)
            if not entries:
                continue
            if not facts.side_frozen(not color):  # (a) fails for every entry of this unit
                excluded[square] = 0
                dropped = True
                continue
            near = step_targets(piece_type, color, mob.region[i]) & ~mob.region[i] & entries
            for s in chess.SquareSet(near):
                if not certified_stalemating(facts, i, s):
                    excluded[square] &= ~chess.BB_SQUARES[s]
                    dropped = True
        if not dropped:
            return mob


def unwinnable_without_stalemates(board: chess.Board, winner: chess.Color) -> bool:
    """The semi-static check (:func:`retro.unwinnable.static.unwinnable_static`) on the
    regions of :func:`stalemate_mobility`: True only if it proves ``board`` unwinnable
    for ``winner``. F(T) is contained in the plain fixpoint, so this answers at least
    whenever the plain check does (at a higher cost: several fixpoints)."""
    return static_applicable(board) and unwinnable_static(board, winner, stalemate_mobility(board))

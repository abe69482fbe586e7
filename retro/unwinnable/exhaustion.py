"""Move exhaustion: a side whose only moves are a finite supply of pawn advances runs out
before any pawn can promote, so the game stays inside a promotion-free mobility fixpoint.

Positions of this kind (Ambrona's Position 13 and its variants, or a king walled in by its
own pawns): one side S has an imprisoned king, no piece that can move and a few pawns
blocked on their files; the game ends when S runs out of pawn moves (stalemate), unless a
pawn promotes first and unlocks the structure. Whether it can promote is a race: the other
side needs many moves to bring a pawn to its last rank (its king must first take the
pawn in front of it), and S must make one move between any two of them. The closure search
decides such races by visiting every position; this rule cuts every position where S's
supply of moves is provably too small for any promotion to happen.

The *promotion-free fixpoint* F0 of the root: the mobility fixpoint
(:mod:`retro.unwinnable.mobility`) in which no pawn enters its last rank (the ``excluded``
entries of :func:`retro.unwinnable.mobility.mobility`). The *phase* is the set of positions
reached from the root by a line without a promotion.

Rule. Let the root pass step 1 of the semi-static check
(:func:`retro.unwinnable.static.static_applicable`: no en passant capture, and no castling
ever), and let

(1) the semi-static check (:func:`retro.unwinnable.static.unwinnable_static`) on F0 prove
    that the winner has no mate in the phase;
(2) a side S be such that every non-pawn unit of S (its king included) has the F0 region
    of its own square only, and no pawn of S is *promotable*.

A pawn of colour c is *promotable* when its F0 region holds a square q of the rank before
c's last rank from which a promotion is not excluded by F0: the square in front of q is
not that of a unit with C = 0 in F0, or a square q attacks is reached by a non-king unit
of the other colour (R of the fixpoint).

For a position X of the phase, let ``supply(X)`` be the sum, over S's pawns of X, of
``adv(q)`` for the pawn's square q, where ``adv(q)`` is the largest, over S's pawns of the
root whose F0 region holds q, number of ranks between q and the farthest rank of that
region in the pawn's direction. A pawn is *confined* when its F0 region lies on its file
(it never captures). For a pawn p of the other side T on square r of X, where r lies in
the F0 region of a promotable T pawn, let ``m(p)`` be its least number of moves to its last
rank (the rank distance, one less from T's starting rank) and ``wait(n)`` = ``n - 1`` when
T is to move in X, ``n`` when S is. The *runner* p is *stopped* when either

(a) ``wait(m(p)) > supply(X)``; or
(b) every root pawn whose region holds r is confined, an S pawn Q stands ahead of p on
    its file (the nearest one, on square q), every root pawn whose region holds q is
    confined, and for every square c of the file from q onwards (in S's direction) at
    most ``adv(q)`` ranks from q, ``wait(m(p) + d(c) + e) > supply(X) - adv(q) + |rank(c)
    - rank(q)|``, where e is 1 when every pawn of S is confined and 0 otherwise, and
    ``d(c)`` is 1 when c lies in the F0 region of a T unit that is
    neither the king, nor immobile (a region of one square), nor a confined pawn (or when
    the square behind c, as seen from S, lies in such a region), and otherwise the king
    distance from T's king to c when c lies in the king's F0 region
    (c is skipped when it lies in none of these regions).

Rule: if every such runner is stopped (or there is none), no position reachable from X is
a mate by the winner.

Why it is sound. F0 over-approximates the phase: the induction of Lemma 8 runs over the
lines without a promotion, whose moves obey every rule of the fixpoint (the only change is
that a pawn does not enter its last rank, which those lines never do). So in a position of
the phase every unit stands in its F0 region and there is no promoted piece; by (1) (the
static argument needs only that, see its docstring) none of them is a mate by the winner.
Let X be in the phase; every position reached from X by a line without a promotion is in
the phase too. Suppose a line from X has a promotion; take the first. Every earlier
position of the line is in the phase, so:

* the promoting pawn is promotable: just before, it stands on a square of the rank before
  its last one, inside its region, and moves either to the empty square in front of it
  (not that of a unit with C = 0, which stands on its square in every position of the
  phase) or onto a square it attacks that holds a non-king enemy unit (so that unit's
  region holds it). So the promotion is not S's, by (2): it is by a runner p of T (a T
  pawn of X, on a square of its own region, the region of a promotable pawn);
* every move of S before it is a pawn move: a move of another S unit would put it, in the
  next position of the phase, off its only square. A pawn move advances the pawn by one
  rank (two for a double step) and keeps it in its region, so a pawn on q in X (one of the
  root's pawns whose region holds q) makes at most ``adv(q)`` moves, and S makes at most
  ``supply(X)`` moves before the promotion;
* p makes at least ``m(p)`` moves (a pawn advances one rank per move, two only by a double
  step from its starting rank), and S moves once between any two moves of T: if T makes
  n moves up to the promotion, S makes at least ``wait(n)`` before it. So (a) is false.
* In case (b), p and Q keep to their file (confined), p moves only forward by pushes
  onto empty squares and so does Q, so p never passes Q while Q is on the board: Q is
  captured before the promotion, on a square c of the file at most ``adv(q)`` ranks from
  q, by a move of a T unit u other than p (p never captures) standing in its region: not
  an immobile unit, not a confined pawn (it would capture); u lands on c, or, capturing
  en passant, on the square Q crossed, behind c; if u is the king, it makes at least the
  king distance from its square in X to c moves. Then u stands on the file, ahead of p
  (p stood behind Q); if every S pawn is confined, no S unit ever captures (S's other
  units never move), so p passes that square only after u has moved on, a move of T
  other than p's and the capture (e = 1). So T makes at least ``m(p) + d(c) + e``
  moves up to the promotion, while Q makes at most ``|rank(c) -
  rank(q)|`` moves before its capture and the other S pawns at most ``supply(X) -
  adv(q)``. So the inequality of (b) is false for that c.

So some runner is not stopped. Hence, when every runner is stopped, no line from X has a
promotion (a side with no legal move ends the game; it does not skip its turn), every
position reachable from X is in the phase, and none is a mate by the winner.

:class:`retro.unwinnable.closure.ClosureSearch` treats such positions as dead ends (as it
does positions of insufficient material), keeping its proof of unwinnability complete.
"""

from __future__ import annotations

import dataclasses

import chess

from retro.unwinnable.fastboard import State
from retro.unwinnable.mobility import Mobility, mobility, step_targets
from retro.unwinnable.static import static_applicable, unwinnable_static

__all__ = ["Exhaustion", "exhaustion", "promotion_free_mobility"]

_LAST_RANK = {chess.WHITE: chess.BB_RANK_8, chess.BLACK: chess.BB_RANK_1}
_RANK_BEFORE_LAST = {chess.WHITE: chess.BB_RANK_7, chess.BLACK: chess.BB_RANK_2}


def promotion_free_mobility(board: chess.Board) -> Mobility:
    """F0: the mobility fixpoint in which no pawn enters its last rank."""
    excluded = {}
    for color in chess.COLORS:
        for square in chess.SquareSet(board.pawns & board.occupied_co[color]):
            excluded[square] = _LAST_RANK[color]
    return mobility(board, excluded)


def _promotable(region: chess.Bitboard, color: chess.Color, mob: Mobility) -> bool:
    """Whether a pawn of ``color`` with this F0 region is promotable (module docstring)."""
    fixed = mob.fixed[0] | mob.fixed[1]
    for q in chess.SquareSet(region & _RANK_BEFORE_LAST[color]):
        front = q + 8 if color == chess.WHITE else q - 8
        if not fixed & chess.BB_SQUARES[front]:
            return True
        if step_targets(chess.PAWN, color, chess.BB_SQUARES[q]) & mob.reached[not color]:
            return True
    return False


def _advances(region: chess.Bitboard, color: chess.Color) -> dict[chess.Square, int]:
    """For each square q of a pawn's region: the ranks between q and the region's farthest
    rank in the pawn's direction."""
    ranks = [chess.square_rank(square) for square in chess.SquareSet(region)]
    farthest = max(ranks) if color == chess.WHITE else min(ranks)
    return {square: abs(farthest - chess.square_rank(square)) for square in chess.SquareSet(region)}


@dataclasses.dataclass(frozen=True)
class Exhaustion:
    """The rule's data for one root (module docstring): the side S, ``adv`` per square (-1
    where no S pawn region holds it), the squares of the regions of T's promotable pawns
    (``promotable``), of S's and T's pawns that are not confined (``loose``, per colour),
    where a T unit other than the king may capture (``capture_zone``) and T's king region."""

    side: chess.Color
    adv: tuple[int, ...]
    promotable: chess.Bitboard
    loose: tuple[chess.Bitboard, chess.Bitboard]
    capture_zone: chess.Bitboard
    king_region: chess.Bitboard

    def exhausted(self, state: State) -> bool:
        """Whether every runner of a position X of the phase is stopped (module docstring)."""
        side, adv = self.side, self.adv
        own = state[0] & (state[6] if side else state[7])
        supply = 0
        pawns = own
        while pawns:
            low = pawns & -pawns
            advance = adv[low.bit_length() - 1]
            if advance < 0:  # not a position of the phase
                return False
            supply += advance
            pawns ^= low
        runners = state[0] & (state[7] if side else state[6]) & self.promotable
        late = 1 if state[8] != side else 0  # T to move: S answers one move less
        king = (state[5] & (state[7] if side else state[6])).bit_length() - 1
        while runners:
            low = runners & -runners
            runners ^= low
            square = low.bit_length() - 1
            rank = chess.square_rank(square)
            if side == chess.BLACK:  # T is white
                moves = 7 - rank - (rank == 1)
                ahead = own & chess.BB_FILES[chess.square_file(square)] & ~((low << 1) - 1)
                blocker = (ahead & -ahead).bit_length() - 1
            else:
                moves = rank - (rank == 6)
                ahead = own & chess.BB_FILES[chess.square_file(square)] & (low - 1)
                blocker = ahead.bit_length() - 1
            if moves - late > supply:  # (a)
                continue
            if blocker < 0 or (low | chess.BB_SQUARES[blocker]) & (self.loose[0] | self.loose[1]):
                return False
            if not self._blocked(state, moves, late, supply, blocker, king):
                return False
        return True

    def _blocked(self, state: State, moves: int, late: int, supply: int, blocker: int, king: int) -> bool:
        """(b) for a runner with ``moves`` to go behind the S pawn on ``blocker``."""
        step = 8 if self.side == chess.WHITE else -8
        others = supply - self.adv[blocker]
        extra = 0 if self.loose[self.side] else 1  # e: no S pawn ever captures
        for ranks in range(self.adv[blocker] + 1):
            c = blocker + ranks * step
            bit = chess.BB_SQUARES[c]
            if (bit | chess.BB_SQUARES[c - step]) & self.capture_zone:  # en passant lands behind c
                distance = 1
            elif bit & self.king_region:
                distance = chess.square_distance(king, c)
            else:
                continue
            if moves + distance + extra - late <= others + ranks:
                return False
        return True


def exhaustion(board: chess.Board, winner: chess.Color) -> Exhaustion | None:
    """The rule's data when (1) and (2) of the module docstring hold at ``board``, else None."""
    if not static_applicable(board):
        return None
    mob = promotion_free_mobility(board)
    if not unwinnable_static(board, winner, mob):
        return None
    units = list(zip(mob.pieces, mob.region, strict=True))
    for side in (winner, not winner):
        if any(c == side and t != chess.PAWN and region != chess.BB_SQUARES[sq] for (sq, c, t), region in units):
            continue
        if any(c == side and t == chess.PAWN and _promotable(region, side, mob) for (_, c, t), region in units):
            continue
        adv = [-1] * 64
        promotable = capture_zone = king_region = 0
        loose = [0, 0]
        for (square, color, piece_type), region in units:
            confined = not region & ~chess.BB_FILES[chess.square_file(square)]
            if piece_type == chess.PAWN and not confined:
                loose[color] |= region
            if color == side:
                if piece_type == chess.PAWN:
                    for q, advance in _advances(region, side).items():
                        adv[q] = max(adv[q], advance)
            elif piece_type == chess.KING:
                king_region = region
            elif piece_type == chess.PAWN:
                if _promotable(region, color, mob):
                    promotable |= region
                if not confined:
                    capture_zone |= region
            elif region != chess.BB_SQUARES[square]:
                capture_zone |= region
        return Exhaustion(side, tuple(adv), promotable, (loose[0], loose[1]), capture_zone, king_region)
    return None

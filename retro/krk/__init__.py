"""Legality of KRK positions: the theorem of the KRK paper (``004``) by CP-SAT and by
explicit retrograde analysis.

**Notions** (paper, sections 2 and 4; :mod:`retro.krk.position`). A KRK position is
white king, white rook, black king and the side to move. It is *initially legal* when
no two units share a square, the kings are not adjacent, the rook is not captured, and
the black king is not in check with White to move: 399,112 of the paper's 2^19 codes
(this count is reproduced exactly). A *predecessor* is an initially legal KRK position
one move earlier (no uncapture, promotion or castling). A position is *n times
derivedly illegal* (Lippold) when all its predecessors are derivedly illegal less than
n times, with one n - 1 (n = 1: no predecessor at all).

**Theorem.** Every initially legal KRK position with an initially legal predecessor is
legal (reachable from the initial position). Proof, with PFix = (Ke5, Rh1, kc5) and
the measure M = 2*CDWK + MDWK + 2*CDBK + MDBK + DWR (Chebyshev and Manhattan distances
of the kings to e5 and c5, rook moves to h1), which is 0 only on PFix:

1. every such position P other than PFix retracts in 4 plies, through initially legal
   positions, to a P4 with M(P4) < M(P) -- proved (CP-SAT, :mod:`retro.krk.sat`);
2. the paper's "every predecessor of a legal position has a predecessor" -- *false*:
   48 counterexamples, e.g. Kb3 Ra3 ka1 with Black to move, found by CP-SAT and by the
   explicit analysis; so 1 and 2 are replaced by
2'. as 1, with P4 having a predecessor -- proved (CP-SAT);
3. PFix is legal with either side to move -- proof games replayed with python-chess
   (:mod:`retro.krk.pfix`).

By induction on M, 2' and 3 give the theorem (see :mod:`retro.krk.sat`). The explicit
analysis (:mod:`retro.krk.retrograde`) confirms it independently: the positions
reached from PFix are exactly the initially legal ones with a predecessor, each within
15 plies of PFix. PFix's games end 14 (Black to move) and 19 (White to move) plies
after the last capture, so every such position is also reached before FIDE's 75-move
rule could end the game, a point the paper's induction (up to 4 plies per unit of M)
does not address.

**Which notion the counts are** (the paper's warning, Figures 6-7): "derivedly illegal"
here is *within KRK*. A KRK position with no KRK predecessor may still be legal in
chess, the last move having captured a unit, promoted a pawn or castled: it is then a
position of a 4-unit endgame first. :mod:`retro.krk.outside` lists those last moves, so
each derivedly illegal position is reported as "possibly legal outside KRK" (verdict
unknown) or "no predecessor at all" (illegal).
"""

from retro.krk.explain import KrkExplanation, explain
from retro.krk.outside import OutsideRetraction, outside_predecessors
from retro.krk.pfix import PfixProof, pfix_proof_game
from retro.krk.position import (
    PFIX_BLACK,
    PFIX_WHITE,
    KrkPosition,
    NotKrkPositionError,
    illegality_reason,
    is_initially_legal,
    measure,
    parse_krk,
    predecessors,
    successors,
)
from retro.krk.retrograde import KrkAnalysis, analyse, claim_failures
from retro.krk.sat import ClaimResult, prove_all, prove_descent, prove_paper_claim_2

__all__ = [
    "KrkPosition",
    "NotKrkPositionError",
    "parse_krk",
    "illegality_reason",
    "is_initially_legal",
    "predecessors",
    "successors",
    "measure",
    "PFIX_WHITE",
    "PFIX_BLACK",
    "KrkAnalysis",
    "analyse",
    "claim_failures",
    "ClaimResult",
    "prove_all",
    "prove_descent",
    "prove_paper_claim_2",
    "PfixProof",
    "pfix_proof_game",
    "OutsideRetraction",
    "outside_predecessors",
    "KrkExplanation",
    "explain",
]

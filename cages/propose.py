"""Automatic cages: propose partial positions around confined clusters of a position and
verify them (Hwa 2022, §3), so that no person has to select the cage squares.

A *proposal* is a set of units of a full position Q, with Q's zone rule (the occupied
squares and their king-move neighbours, :func:`cages.verify.default_zone`):

* each cluster of Q: a maximal set of units connected by king moves (units that block
  each other's retractions stand next to each other), with at least two units, one of
  them a pawn (pawns are what confines a cluster: they retract only backwards);
* each cluster without one of its pieces (queen, rook, bishop or knight) and without
  all of them: a free piece in a cluster makes the state space large, and the units it
  leaves behind may be a cage on their own;
* each cluster without one of its *free* pawns (a pawn that can retract within the
  cluster): it may walk out of the zone, and the units it leaves behind may be a cage;
* each cluster's units of one colour, with and without their king: the pawns and the
  corner bishop (or king) they shut in, where the other side's units only add states;
* the same for each group of clusters joined through a king (a king two steps from a
  unit of another cluster, :func:`linked_groups`): kings keep a square apart, so such
  clusters confine each other (Ceriani's 2bk1K1N: Black's Kd8 keeps White's Kf8 off e8).
  The first ``per_position`` proposals (smallest first) of each cluster are tried, then as
  many of each group: a cap over all clusters together would spend it on the small
  proposals of one cluster and never reach those of another (a position with a cluster
  on each side of the board).

**Proposals around the squares that changed** (:func:`focused_proposals`). Candidates
with the same move differ on the square of the captured unit; a cage that rejects one of
them and not another (KxN and KxB on the same square) must hold that square, which is
occupied in the diagram and holds another unit (or none) in the candidate. For each
cluster or group that holds such a square, the finder tries first the cluster without one,
then two of its other pieces (queen, rook, bishop, knight), then without one of its other
pawns and at most one other piece: pieces that can leave make the state space large, and
the units left may be a cage on their own. (Which proposals are tried decides only how
many cages are found, never soundness: see below.)

**Positions before a candidate** (:meth:`CageFinder.find`). When no proposal of a
position Q proves a cage, the finder looks one or two retractions deeper: if every
predecessor of Q (from the complete reverse move generator :func:`retro.core.revmoves.retractions`)
breaks a static rule (:func:`retro.core.rules.check_static`), contains a known or proposed
cage, or (one level down) has only such predecessors itself, Q is illegal. Proof: a
legal Q other than the initial position is reached by a game with at least one move;
the position before its last move is legal and is one of the generated predecessors
(the generator lists every legal predecessor), and a legal position breaks no proven
rule and contains no cage. So some predecessor passes, and if none does, Q is not legal.
(The initial array is never rejected this way; it has no predecessor in a game of no
moves.) This is the solver's retro-stalemate with the cages proposed on the way, which
catches cages that appear only after the next retraction, e.g. when a pawn retracts
into a bishop's cage.

**Soundness.** A proposal is a subset of Q's units. If the verifier proves it a cage, no
position containing those units on those squares is legal, whatever else stands on the
board (the definition of a cage, Hwa 2022, §1; the verifier's soundness is argued in
:mod:`cages.verify`). Q contains them, so Q is illegal. A proposal the verifier does not
prove (budget exhausted, failing line found) says nothing and is dropped, so the search
for proposals can only remove impossible positions.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator

import chess

from cages.library import CageSpec, Library
from cages.retractions import retractions as cage_retractions
from cages.verify import verify
from retro.core.revmoves import predecessor, retractions
from retro.core.rules import check_static
from retro.core.status import CheckStatus

__all__ = ["clusters", "proposals", "focused_proposals", "confined_core", "CageFinder"]

LEMMA_NODES = 300
"""The state budget of each lemma cage (:mod:`cages.verify`) within a proposal's search, at
most half the proposal's own budget (a quick pass's searches stay quick)."""

_PIECES = (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT)


def clusters(board: chess.Board) -> list[chess.Bitboard]:
    """The sets of units connected by king moves, as bitboards (largest first)."""
    remaining = board.occupied
    found = []
    while remaining:
        cluster = frontier = chess.BB_SQUARES[chess.lsb(remaining)]
        while frontier:
            grown = 0
            for square in chess.SquareSet(frontier):
                grown |= chess.BB_KING_ATTACKS[square]
            frontier = grown & remaining & ~cluster
            cluster |= frontier
        remaining &= ~cluster
        found.append(cluster)
    return sorted(found, key=chess.popcount, reverse=True)


def _partial(board: chess.Board, mask: chess.Bitboard) -> chess.Board:
    partial = chess.Board(None)
    for square in chess.SquareSet(mask):
        piece = board.piece_at(square)
        assert piece is not None
        partial.set_piece_at(square, piece)
    return partial


def linked_groups(board: chess.Board) -> list[chess.Bitboard]:
    """The unions of clusters (:func:`clusters`) joined through kings, as bitboards (largest
    first), only those of more than one cluster: two clusters are joined when a king of one
    stands two king steps or less from a unit of the other. Kings never stand next to each
    other, and a king never steps next to the other king, so such clusters restrict each
    other's retractions although no unit of one touches the other."""
    groups = clusters(board)
    joined = True
    while joined:
        joined = False
        for a, b in itertools.combinations(range(len(groups)), 2):
            if _king_reach(groups[a] & board.kings) & groups[b] or _king_reach(groups[b] & board.kings) & groups[a]:
                groups[a] |= groups.pop(b)
                joined = True
                break
    single = set(clusters(board))
    return sorted((g for g in groups if g not in single), key=chess.popcount, reverse=True)


def _king_reach(kings: chess.Bitboard) -> chess.Bitboard:
    """The squares two king steps or less from ``kings``."""
    near = 0
    for king in chess.SquareSet(kings):
        for square in chess.SquareSet(chess.BB_KING_ATTACKS[king]):
            near |= chess.BB_KING_ATTACKS[square]
    return near


def proposals(board: chess.Board, *, linked: bool = False, per_cluster: int | None = None) -> Iterator[chess.Board]:
    """The partial positions of the module docstring, each once, smallest first: those of
    the clusters, or with ``linked`` those of the groups of clusters joined through kings
    (:func:`linked_groups`); with ``per_cluster``, only the first (smallest) that many of
    each cluster or group."""
    masks: set[chess.Bitboard] = set()
    for cluster in linked_groups(board) if linked else clusters(board):
        if chess.popcount(cluster) < 2 or not cluster & board.pawns:
            continue
        own_masks = _cluster_masks(board, cluster)
        ordered = sorted((m for m in own_masks if chess.popcount(m) >= 2 and m & board.pawns), key=_mask_order)
        masks.update(ordered if per_cluster is None else ordered[:per_cluster])
    for mask in sorted(masks, key=_mask_order):
        yield _partial(board, mask)


def focused_proposals(board: chess.Board, focus: chess.Bitboard, *, limit: int = 10) -> Iterator[chess.Board]:
    """The proposals around ``focus`` of the module docstring, at most ``limit``: those
    that drop no pawn first, then those that drop fewer units (a larger set is more
    confined), then smallest first. Only clusters and groups that hold a square of
    ``focus`` are used; the units on ``focus`` and the kings are always kept. The order
    decides only which cages are found in time, never soundness."""
    masks: dict[chess.Bitboard, tuple[int, int, int, int]] = {}
    for cluster in [*clusters(board), *linked_groups(board)]:
        if not cluster & focus or not cluster & board.pawns:
            continue
        core = confined_core(board, cluster, focus)
        if chess.popcount(core) >= 2 and core & board.pawns:
            masks.setdefault(core, (-1, 0, *_mask_order(core)))
        free = cluster & ~focus & ~board.kings
        pieces = list(chess.SquareSet(free & ~board.pawns))
        pawns = list(chess.SquareSet(free & board.pawns))
        removals = [(a,) for a in pieces] + list(itertools.combinations(pieces, 2))
        removals += [(p,) for p in pawns] + [(p, a) for p in pawns for a in pieces]
        for removed in removals:
            mask = cluster
            for square in removed:
                mask &= ~chess.BB_SQUARES[square]
            if chess.popcount(mask) >= 2 and mask & board.pawns and mask not in masks:
                pawns_removed = sum(bool(board.pawns & chess.BB_SQUARES[sq]) for sq in removed)
                masks[mask] = (pawns_removed, len(removed), *_mask_order(mask))
    for mask in sorted(masks, key=masks.__getitem__)[:limit]:
        yield _partial(board, mask)


def confined_core(board: chess.Board, cluster: chess.Bitboard, keep: chess.Bitboard) -> chess.Bitboard:
    """``cluster`` without its *loose* units, one at a time until none is left: a unit
    (not a king, not on ``keep``) is loose when it has a retraction (under the extension
    principle, :func:`cages.retractions.retractions`, among the units left) to a square
    that is neither occupied by nor a king step from another unit left. Such a unit can
    walk off at once, so it only adds states to a verification, and the units it leaves
    behind may be a cage on their own (Keym's ``4R2k/4ppBB/6pp/7P``: the rook e8 and the
    pawn h5 go, ``5B1k/4pprB/6pp`` is the cage). A choice of proposal, not a rule:
    soundness does not depend on it (module docstring)."""
    mask = cluster
    dropped = True
    while dropped:
        dropped = False
        units = {square: piece for square, piece in board.piece_map().items() if mask & chess.BB_SQUARES[square]}
        for square in chess.SquareSet(mask & ~keep & ~board.kings):
            others = mask & ~chess.BB_SQUARES[square]
            near = others
            for other in chess.SquareSet(others):
                near |= chess.BB_KING_ATTACKS[other]
            if any(not near & chess.BB_SQUARES[r.from_square] for r in cage_retractions(units, square)):
                mask, dropped = others, True
                break
    return mask


def _mask_order(mask: chess.Bitboard) -> tuple[int, int]:
    """Smallest first, then a fixed order."""
    return chess.popcount(mask), mask


def _cluster_masks(board: chess.Board, cluster: chess.Bitboard) -> set[chess.Bitboard]:
    """The unit sets proposed for one cluster (or group), see the module docstring."""
    masks: set[chess.Bitboard] = set()
    pieces = cluster & (board.queens | board.rooks | board.bishops | board.knights)
    masks.add(cluster)
    for square in chess.SquareSet(pieces):
        masks.add(cluster & ~chess.BB_SQUARES[square])
    masks.add(cluster & ~pieces)
    units = {square: piece for square, piece in board.piece_map().items() if cluster & chess.BB_SQUARES[square]}
    for square in chess.SquareSet(cluster & board.pawns):
        if cage_retractions(units, square):
            masks.add(cluster & ~chess.BB_SQUARES[square])
    for color in chess.COLORS:
        own = cluster & board.occupied_co[color]
        if own & board.pawns:
            masks.add(own)
            masks.add(own & ~board.kings)
    return masks


class CageFinder:
    """Finds a verified cage among the first ``per_position`` proposals of each cluster of a
    position (and of each group) and adds it to ``library``
    (which appends it to its file, if it has one), or shows that every position before it
    does (``before`` retractions deep, at most ``branching`` distinct predecessors per position).
    Proposals that failed are remembered, so each partial position is verified at most once
    per finder."""

    def __init__(
        self,
        library: Library,
        *,
        max_nodes: int = 2_000,
        depth: int = 20,
        per_position: int = 12,
        before: int = 2,
        branching: int = 8,
    ) -> None:
        self.library = library
        self.max_nodes, self.depth, self.per_position = max_nodes, depth, per_position
        self.before, self.branching = before, branching
        self._failed: dict[int, set[str]] = {}  # per state budget
        self._open: set[tuple[str, int]] = set()
        self.verified = 0

    def find(
        self, board: chess.Board, *, deadline: float | None = None, focus: chess.Bitboard = chess.BB_EMPTY
    ) -> str | None:
        """Why ``board`` is illegal by cages: it contains a cage (known, or verified now), or
        every position before it does (see the module docstring); None if neither is shown.
        No proposal is verified after ``deadline`` (a :func:`time.perf_counter` value).
        ``focus``: the squares where ``board`` differs from the diagram, whose proposals
        (:func:`focused_proposals`) are tried on ``board`` after the others."""
        cage = self.cage_in(board, deadline=deadline, focus=focus)
        if cage is not None:
            return f"contains the cage {cage}"
        return self._before(board, self.before, deadline)

    def cage_in(
        self,
        board: chess.Board,
        *,
        deadline: float | None = None,
        focus: chess.Bitboard = chess.BB_EMPTY,
        max_nodes: int | None = None,
    ) -> str | None:
        """The line of a cage that ``board`` contains (known, or verified now), or None;
        with ``focus``, the proposals around those squares are tried too. ``max_nodes``
        (default: the finder's) is the state budget of each proposal: a smaller one makes
        a quick pass (a proposal that fails within it is remembered only for that budget,
        and is tried again with a larger one)."""
        known = self.library.contains_cage(board)
        if known is not None:
            return str(known)
        budget = self.max_nodes if max_nodes is None else max_nodes
        failed = self._failed.setdefault(budget, set())
        candidates = itertools.chain(
            focused_proposals(board, focus) if focus else (),
            proposals(board, per_cluster=self.per_position),
            proposals(board, linked=True, per_cluster=self.per_position),
        )
        for partial in candidates:
            key = partial.board_fen()
            if key in failed:
                continue
            if deadline is not None and time.perf_counter() > deadline:
                return None
            verdict = verify(
                partial,
                depth=self.depth,
                library=self.library,
                cache=self.library.cache,
                lemmas=self.library.lemmas,
                max_nodes=budget,
                lemma_nodes=min(LEMMA_NODES, budget // 2),
                time_limit=None if deadline is None else max(0.0, deadline - time.perf_counter()),
            )
            if verdict.status == "cage":
                spec = CageSpec(partial, depth=self.depth)
                self.library.add(spec)
                self.verified += 1
                return spec.line()
            failed.add(key)
        return None

    def _before(self, board: chess.Board, levels: int, deadline: float | None) -> str | None:
        """Why every predecessor of ``board`` is illegal (static rules, cages, recursively
        ``levels`` deep), or None; see the module docstring for the proof."""
        key = (board.fen(), levels)
        if levels <= 0 or key in self._open or board.board_fen() == chess.STARTING_BOARD_FEN:
            return None
        previous: dict[str, chess.Board] = {}
        for retraction in retractions(board):
            position = predecessor(board, retraction)
            if check_static(position).status != CheckStatus.ILLEGAL:
                previous.setdefault(position.fen(), position)
        if len(previous) > self.branching:
            self._open.add(key)
            return None
        for position in previous.values():
            if deadline is not None and time.perf_counter() > deadline:
                return None
            caged = self.cage_in(position, deadline=deadline) is not None
            if not caged and self._before(position, levels - 1, deadline) is None:
                self._open.add(key)
                return None
        return f"each of its {len(previous)} predecessors contains a cage or breaks a static rule ({levels} deep)"

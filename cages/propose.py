"""Automatic cages: propose partial positions around confined clusters of a position and
verify them (Hwa 2022, §3), so that no person has to select the cage squares.

A *proposal* is a set of units of a full position Q, with Q's zone rule (the occupied
squares and their king-move neighbours, :func:`cages.verify.default_zone`):

* each cluster of Q: a maximal set of units connected by king moves (units that block
  each other's retractions stand next to each other), with at least two units, one of
  them a pawn (pawns are what confines a cluster: they retract only backwards);
* each cluster without one of its pieces (queen, rook, bishop or knight) and without
  all of them: a free piece in a cluster makes the state space large, and the units it
  leaves behind may be a cage on their own.

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
from cages.verify import verify

__all__ = ["clusters", "proposals", "CageFinder"]

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


def proposals(board: chess.Board) -> Iterator[chess.Board]:
    """The partial positions of the module docstring, each once, smallest first."""
    masks: set[chess.Bitboard] = set()
    for cluster in clusters(board):
        if chess.popcount(cluster) < 2 or not cluster & board.pawns:
            continue
        pieces = cluster & (board.queens | board.rooks | board.bishops | board.knights)
        masks.add(cluster)
        for square in chess.SquareSet(pieces):
            masks.add(cluster & ~chess.BB_SQUARES[square])
        masks.add(cluster & ~pieces)
    for mask in sorted((m for m in masks if chess.popcount(m) >= 2), key=chess.popcount):
        yield _partial(board, mask)


class CageFinder:
    """Finds a verified cage among a position's first ``per_position`` proposals and adds it to ``library``
    (which appends it to its file, if it has one). Proposals that failed are remembered,
    so each partial position is verified at most once per finder."""

    def __init__(self, library: Library, *, max_nodes: int = 2_000, depth: int = 20, per_position: int = 6) -> None:
        self.library = library
        self.max_nodes, self.depth, self.per_position = max_nodes, depth, per_position
        self._failed: set[str] = set()
        self.verified = 0

    def find(self, board: chess.Board, *, deadline: float | None = None) -> str | None:
        """The line of a cage that ``board`` contains (known, or verified now), or None.
        No proposal is verified after ``deadline`` (a :func:`time.perf_counter` value)."""
        known = self.library.contains_cage(board)
        if known is not None:
            return str(known)
        for partial in itertools.islice(proposals(board), self.per_position):
            key = partial.board_fen()
            if key in self._failed:
                continue
            if deadline is not None and time.perf_counter() > deadline:
                return None
            verdict = verify(
                partial, depth=self.depth, library=self.library, cache=self.library.cache, max_nodes=self.max_nodes
            )
            if verdict.status == "cage":
                spec = CageSpec(partial, depth=self.depth)
                self.library.add(spec)
                self.verified += 1
                return spec.line()
            self._failed.add(key)
        return None

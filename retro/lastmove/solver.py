"""The last-move solver: which retraction sequences of length N can have led to P?

Given a board (placement only, as problems are printed) and the side that made the
last move, :func:`solve` enumerates the sequences of N alternating retractions from
the reverse move generator (:func:`retro.revmoves.retractions`) and keeps a sequence
when every position on it survives these filters, each of which is **sound** (it only
rejects a position that cannot occur in any game):

1. **Static rules** (:func:`retro.rules.check_static`): proven rules, see there.
2. **Known cages** (:class:`cages.library.Library`): a position that contains a cage
   verified by :mod:`cages` is illegal (Hwa 2022, definition of a cage).
3. **The legality pipeline** within a budget (:func:`retro.legality.decide`): only
   an ``illegal`` verdict rejects; ``unknown`` (budget exhausted) keeps the position.
4. **Retro-stalemate**: after the sequence at least D more retractions (default 3,
   as Retractor uses) must exist, each position passing filters 1-2. Sound because
   every legal position has a legal predecessor (the position before the last move
   of a game reaching it; the initial position has one too, e.g. the start position
   with Black's knight on f6 and Black to move, reached by 1.Nf3 Nf6 2.Ng1), so from
   a legal position there are retraction chains of any length through legal positions.
5. **Dead reckoning** (FIDE Article 5.2.2, optional): a predecessor that is a dead
   position is impossible, because the game ended as soon as it arose. Deadness comes
   from :func:`retro.unwinnable.is_dead`; ``undetermined`` counts as not dead.

Choices where the problem statement is silent (what composers expect):

* The diagram's castling rights are taken as none, and its en-passant square as any
  that a double step of the side that moved last could have created (one variant per
  square, plus none). Fewer rights in P admit at least the predecessors that more
  rights admit, so no possible last move is lost.
* Predecessors that differ only in castling rights or en-passant square are variants
  of one retraction: a sequence of moves survives when one variant survives. In the
  retro-stalemate search only the variant with the fewest castling rights is explored:
  a position with fewer rights has at least the retractions of one with more (the
  predecessor rights must include the successor's), so no chain is missed.
* The solutions are printed in forward notation, latest move first, with their move
  type (:mod:`retro.lastmove.notation`).
"""

from __future__ import annotations

import dataclasses
import importlib.util
import time
from collections.abc import Callable, Iterator

import chess

from retro.lastmove.notation import forward_notation, move_type
from retro.revmoves import Retraction, predecessor, retractions

__all__ = ["Solution", "Rejection", "LastMoveVerdict", "solve", "diagram_positions"]


@dataclasses.dataclass(frozen=True)
class Solution:
    """A surviving sequence: ``moves`` in forward notation, latest first; ``type`` is the
    move type of the latest move; ``positions`` the FENs before each move (latest first)."""

    moves: tuple[str, ...]
    type: str
    positions: tuple[str, ...]

    def as_dict(self) -> dict[str, object]:
        return {"moves": list(self.moves), "type": self.type}


@dataclasses.dataclass(frozen=True)
class Rejection:
    """A retraction sequence (latest first) and the rule that rejected its last position."""

    moves: tuple[str, ...]
    reason: str


@dataclasses.dataclass(frozen=True)
class LastMoveVerdict:
    board: str
    retract: chess.Color
    status: str  # "unique", "multiple" or "none"
    solutions: tuple[Solution, ...]
    rejections: tuple[Rejection, ...]
    filters: tuple[str, ...]
    nodes: int
    seconds: float

    def as_dict(self) -> dict[str, object]:
        return {
            "fen": self.board,
            "retract": "w" if self.retract else "b",
            "status": self.status,
            "solutions": [s.as_dict() for s in self.solutions],
            "rejected": [{"moves": list(r.moves), "reason": r.reason} for r in self.rejections],
            "filters": list(self.filters),
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
        }


def diagram_positions(board: chess.Board, retract: chess.Color) -> list[chess.Board]:
    """The positions a diagram stands for: ``retract`` just moved, no castling rights,
    and each possible en-passant square (none, or behind a double-stepped pawn of
    ``retract`` that a pawn of the side to move could take)."""
    base = board.copy(stack=False)
    base.turn = not retract
    base.castling_rights = chess.BB_EMPTY
    base.ep_square = None
    result = [base]
    pawn_rank, behind, start = (3, -8, -16) if retract == chess.WHITE else (4, 8, 16)
    for square in chess.SquareSet(board.pawns & board.occupied_co[retract] & chess.BB_RANKS[pawn_rank]):
        ep, origin = square + behind, square + start
        if board.piece_at(ep) is None and board.piece_at(origin) is None:
            variant = base.copy(stack=False)
            variant.ep_square = ep
            if any(variant.is_en_passant(m) for m in variant.legal_moves):
                result.append(variant)
    return result


class _Filters:
    """The sound filters of the module docstring, with a cache and a node count."""

    def __init__(
        self,
        *,
        cages: object | None,
        legality: Callable[[chess.Board], str | None] | None,
        dead: Callable[[chess.Board], bool] | None,
    ) -> None:
        from retro.rules import check_static

        self._check_static = check_static
        self._cages = cages
        self._legality = legality
        self._dead = dead
        self.nodes = 0
        self._cheap: dict[str, str | None] = {}
        self._costly: dict[str, str | None] = {}
        self._no_chain: set[tuple[str, int]] = set()

    def cheap(self, board: chess.Board) -> str | None:
        """Reason the position is impossible by static rules or a known cage, or None."""
        key = board.fen()
        if key not in self._cheap:
            self.nodes += 1
            verdict = self._check_static(board)
            reason = None
            if verdict.status == "illegal":
                reason = f"static rule: {verdict.reason}"
            elif self._cages is not None:
                cage = self._cages.contains_cage(board)  # type: ignore[attr-defined]
                if cage is not None:
                    reason = f"contains the known cage {cage}"
            self._cheap[key] = reason
        return self._cheap[key]

    def costly(self, board: chess.Board) -> str | None:
        """Reason from the legality pipeline or dead reckoning, or None."""
        key = board.fen()
        if key not in self._costly:
            reason = None
            if self._legality is not None:
                reason = self._legality(board)
            if reason is None and self._dead is not None and self._dead(board):
                reason = "dead reckoning: the position before it is dead, so the game had already ended"
            self._costly[key] = reason
        return self._costly[key]

    def has_retraction_chain(self, board: chess.Board, depth: int) -> bool:
        """Is there a chain of ``depth`` retractions through positions passing the cheap
        filters? (retro-stalemate; minimal-castling variants only, see the docstring)"""
        if depth == 0:
            return True
        key = (board.fen(), depth)
        if key in self._no_chain:
            return False
        for retraction in _minimal_variants(retractions(board)):
            previous = predecessor(board, retraction)
            if self.cheap(previous) is None and self.has_retraction_chain(previous, depth - 1):
                return True
        self._no_chain.add(key)
        return False


def _minimal_variants(candidates: list[Retraction]) -> Iterator[Retraction]:
    """One retraction per (move, captured, ep), the one with the fewest castling rights."""
    best: dict[tuple[chess.Move, int | None, int | None], Retraction] = {}
    for r in candidates:
        key = (r.move, r.captured, r.ep)
        if key not in best or chess.popcount(r.castling) < chess.popcount(best[key].castling):
            best[key] = r
    return iter(best.values())


def _available(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


def _pipeline_reason(*, max_nodes: int, time_limit: float) -> Callable[[chess.Board], str | None]:
    from retro.legality import decide

    def reason(board: chess.Board) -> str | None:
        verdict = decide(board, max_nodes=max_nodes, time_limit=time_limit)
        return f"illegal: {verdict.reason}" if verdict.status == "illegal" else None

    return reason


def _dead_check(*, max_nodes: int) -> Callable[[chess.Board], bool]:
    from retro.unwinnable import is_dead

    def dead(board: chess.Board) -> bool:
        return is_dead(board, max_nodes=max_nodes).status == "dead"

    return dead


def solve(
    board: chess.Board,
    retract: chess.Color,
    *,
    moves: int = 1,
    extra_depth: int = 3,
    cages: object | None = None,
    dead_reckoning: bool = False,
    use_legality: bool = True,
    legality_nodes: int = 20_000,
    legality_seconds: float = 2.0,
    dead_nodes: int = 100_000,
) -> LastMoveVerdict:
    """Solve a last-move problem: the sequences of ``moves`` retractions, the first by
    ``retract``, whose positions all survive the filters of the module docstring.

    ``cages`` is a known-cage library (anything with ``contains_cage(board)``)."""
    if moves < 1:
        raise ValueError("the number of moves to retract must be at least 1")
    if dead_reckoning and not _available("retro.unwinnable"):
        raise ValueError("dead reckoning needs the unwinnability analyzer (retro.unwinnable), which is missing")
    use_legality = use_legality and _available("retro.legality")
    used = ["static rules", f"retro-stalemate (depth {extra_depth})"]
    used += ["known cages"] if cages is not None else []
    used += ["legality pipeline"] if use_legality else []
    used += ["dead reckoning"] if dead_reckoning else []
    start = time.perf_counter()
    filters = _Filters(
        cages=cages,
        legality=_pipeline_reason(max_nodes=legality_nodes, time_limit=legality_seconds) if use_legality else None,
        dead=_dead_check(max_nodes=dead_nodes) if dead_reckoning else None,
    )
    solutions: dict[tuple[str, ...], Solution] = {}
    rejections: dict[tuple[str, ...], str] = {}

    def extend(position: chess.Board, line: tuple[str, ...], fens: tuple[str, ...], kind: str) -> bool:
        """Depth-first over retractions; True when some continuation survives."""
        if len(line) == moves:
            if not filters.has_retraction_chain(position, extra_depth):
                rejections.setdefault(line, f"retro-stalemate: fewer than {extra_depth} further retractions")
                return False
            solutions.setdefault(line, Solution(line, kind, fens))
            return True
        survived = False
        for retraction in retractions(position):
            previous = predecessor(position, retraction)
            notation = forward_notation(previous, retraction.move)
            new_line = line + (notation,)
            new_kind = move_type(previous, retraction.move) if not line else kind
            if len(new_line) == moves and new_line in solutions:
                continue  # another castling/en-passant variant of a known solution
            reason = filters.cheap(previous) or filters.costly(previous)
            if reason is not None:
                rejections.setdefault(new_line, reason)
                continue
            if extend(previous, new_line, fens + (previous.fen(),), new_kind):
                survived = True
                rejections.pop(new_line, None)
        return survived

    for position in diagram_positions(board, retract):
        reason = filters.cheap(position)
        if reason is None:
            extend(position, (), (), "")
        else:
            rejections.setdefault((), f"the diagram itself: {reason}")
    # A line rejected for one variant but surviving for another is not rejected.
    for line in solutions:
        for prefix_length in range(1, len(line) + 1):
            rejections.pop(line[:prefix_length], None)
    ordered = tuple(sorted(solutions.values(), key=lambda s: s.moves))
    status = "none" if not ordered else "unique" if len(ordered) == 1 else "multiple"
    return LastMoveVerdict(
        board=board.board_fen(),
        retract=retract,
        status=status,
        solutions=ordered,
        rejections=tuple(Rejection(line, reason) for line, reason in sorted(rejections.items())),
        filters=tuple(used),
        nodes=filters.nodes,
        seconds=time.perf_counter() - start,
    )

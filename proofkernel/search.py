"""Proof-kernel search (paper 002, "Relaxation"): is there a capture sequence in the
kernel space from the initial state to the goal?

Depth-first search; the depth is fixed because every kernel move removes one unit:
``units(state) - units(goal)`` moves remain, split per colour (white makes
``black units - black goal units`` of them). Pruning, each a proven lower bound on the
moves still needed (the node is cut when the bound exceeds the moves left):

* **Incomplete columns.** A column that is not equal to the goal's up to quiet
  promotions needs a move that changes it; a move changes at most two columns and
  they are adjacent, so the number of moves is at least the minimum number of
  "dominoes" (one file, or two adjacent files) covering the incomplete files,
  computed greedily from file a (optimal for intervals of length two).
* **Columns that need a pawn to come in** (our addition). A column loses pawns (a
  pawn is taken, leaves by capturing, or promotes) and gains them only when a pawn
  captures onto its file; a kernel move lands at most one pawn. So a column whose
  goal column is not a subsequence of it (dev 8/1rb2PP1/...: a black pawn below a
  white one on files e, f and g, "crossed" columns) needs a move of its own landing
  a pawn there, and that move changes the file it came from too. The bound of the
  first term becomes the fewest moves, landing one on each such file and changing
  one neighbour of it, plus dominoes over the incomplete files left
  (:func:`_column_cover`). The other column changes are removals, and a quiet
  promotion's removal (``wPc0xfb0`` takes from the f column) never completes a
  column, as the goal test allows those removals anyway.
* **Pawns changing files** (texel: "additional captures are needed if the closest
  available pawn is far away"). Every white pawn of the goal is a distinct white pawn
  of the state, and a pawn changes file only by capturing, one file per capture; so
  white's pawn captures are at least the cheapest matching of the goal's white pawns
  to the state's, at cost |file difference| each (:func:`min_file_shifts`). That is
  at most the captures white has left, and the white and black minima add up to at
  most the moves left (same for black).
* **Units only a piece may capture** (``KernelState.piece_captures``): each needs a
  capture of its own by the other colour, so they are at most that colour's captures
  left. At the goal test none may be left.
* **Promotions without a capture** (our addition). A pawn that makes no capture from
  here on promotes only quietly on its own file, and only where ``quiet_promotion``
  allows it. On a file f, the pawns beyond the goal's number there (its spare pawns)
  are the most that can do so without another pawn capturing onto f to make up the
  goal's number. So the surplus pieces, less the spare pawns of those files, each
  cost a capture of the colour (the promoting capture, a capture on the way, or the
  capture that refills the file), and they are at most the colour's captures left.
* **Sealed bishops** (our addition, :attr:`~proofkernel.state.Goal.sealed_bishops`).
  A bishop the goal has on a square no bishop can enter was born there by a quiet
  promotion, so the colour still needs at least that many promotions to it, whatever
  its bishops of that colour now; and its pieces beyond the goal's number, those
  bishops aside, are taken, each by a capture of the other colour.
* **Promotions.** The goal's surplus pieces of a colour need one pawn each, and a
  light (dark) bishop surplus needs pawns on files that promote on light (dark)
  squares, pawns *beyond the goal's number on their file* (at the goal test a file
  promotes exactly its pawns beyond the goal's, :meth:`Goal.promotions_fit`), on
  files where a promoted bishop can leave the promotion square (the same test). The
  shortfall, summed over the two bishop colours, falls by at most one per capture of
  the colour: a pawn capture moves one pawn to an adjacent file (raising one colour's
  spare pawns by at most one, lowering the other's or not) or promotes it (lowering
  one surplus by one, and the spare pawns of its file or not); the opponent's captures
  only remove spare pawns or add to the surplus. So it is at most the colour's
  remaining captures. (Counting every pawn of a file, as before, let a state with
  White's goal pawns on b2 and b3 and its one spare pawn on c2 pass for one that can
  still make a dark-squared bishop.)

* **Edits per column** (our addition, :func:`_edit_cover`). A kernel move edits a
  column by at most one of: deleting a pawn (it leaves by capturing, or is taken),
  inserting a pawn of the mover's colour (it arrives taking a piece), or replacing an
  enemy pawn by one of the mover's (it arrives taking that pawn); and it edits at most
  two columns, adjacent ones (its pawn's file and the file it lands on). The third file
  of a capture of a quietly promoted piece (``wPc0xfb0``) loses the pawn at its end that
  could promote quietly, and that never shortens the way to the goal: any edits that
  take the shorter column to an accepted one (``b``*i + goal column + ``w``*j, the
  pawns beyond the goal's promoting quietly) take the longer one to the same with that
  pawn still at its end, again accepted. So a column needs at least its edit distance
  to the nearest accepted column (:func:`_column_edits`) of moves editing it, and only
  the edits of a colour with captures left count: once White has none, no white pawn is
  inserted. Files a to h in turn, sharing as many of a file's edits as possible with the
  next file gives the fewest moves. Crossed columns need two edits each (the pawns
  change places), which the domino cover counts once: Tromp's K3R2Q/3prp2/... (an h
  column ``wb`` that must become ``bw``) has no kernel, which this term proves sooner.
  Children are still ordered by the bound without this term
  (:func:`_ordering_bound`): a subtree it cuts holds no kernel, so the kernels are found
  in the same order as without it, only sooner.

**Children discarded before they are made** (our addition; nothing else changes: the
same children are searched, in the same order). A move changes the columns of at most
three files (``generate_moves``'s ``touching``); every other column stays as it is, so an incomplete
one stays incomplete and one that needs a pawn to come in still needs it. The cover
of those files alone (:func:`_column_cover` is the exact minimum of its covering
problem, so it does not grow when files are left out) is then a lower bound of the
child's first term; when it exceeds the moves left after the move, the child would be
cut by its own bound, and it is not generated at all. Building a child and its bound is
most of the search's time, and near the end of a kernel most children fail this way.

Likewise a capture after which a colour's pawns could no longer reach the goal's files
with the captures it has left (the bound's "pawns changing files" term) is skipped
from the pawns per file it leaves, before the child is built.

The transposition table stores states from which *no* kernel reaches the goal; the
key is the state itself (exact, no hashing shortcuts). When a caller rejects a found
kernel (the extended-kernel check), the subtree is not stored, since it is not a
proof of unreachability. Moves are ordered by the bound of the state they lead to.

**Commuting captures listed once** (``commuting_once=True``, used by ``retro
proofkernel`` when it lists kernels without ``--extended``). Two moves ``a``, ``b`` are
*independent at* a state s when ``b`` is generated at s·a, ``a`` at s·b, and s·a·b =
s·b·a (``wxQ`` and ``wxR`` usually are). Kernels from s are *equivalent* when one
becomes the other by swapping adjacent moves independent at the state where they
stand; equivalent kernels name the same captures in orders that reach the same
states. The search then carries a *sleep set* Z (Godefroid 1996): at a state the
children are explored in order c1, c2, ...; a child in Z is skipped; the child ci is
searched with Z' = the moves of Z and of c1..c(i-1) independent of ci at s.

*Every class is listed* (at the root Z is empty). Claim: ``search(s, Z)`` lists a
member of the class of every kernel w from s that is *Z-free* (no z in Z with w
equivalent to z·w'). Induction on the length of w; the empty kernel is listed. Else
the first move of w is a generated child and not in Z (w would not be Z-free), so
some explored child ci has w equivalent to ci·w'; take the first such i. w' is
Z'-free at s·ci: were w' equivalent to z·w'' with z in Z', then w ~ ci·z·w'' ~ z·ci·w''
(z, ci independent at s), against w being Z-free if z is in Z, or against the choice
of i if z is some cj, j < i. The search below s·ci is not cut: a state that leads to
the goal is never dead and its lower bound never exceeds the moves left. So by
induction it lists some v equivalent to w', and ci·v ~ ci·w' ~ w. With a sleep set, a
state whose search found nothing is not stored as dead unless nothing was skipped
below it (a skipped move is not a proof of unreachability). Swaps change neither the
captures nor the states the kernel passes through in the other order, so this is only
done when every kernel is accepted: the extended kernel depends on the order.

*Listed once, nearly*: where two moves are independent at every state at which both
are generated, a class is listed once (Godefroid's theorem for sleep sets: the later
branch keeps the earlier move asleep until it plays a move that move does not commute
with). Here independence can depend on the state (``wxQ`` and ``wPd1xQc1`` commute only
while Black has two queens), and then a class can be listed more than once: for
``r1b1kb1r/pppp1ppp/8/8/8/8/PPPP1PPP/RNBQKB1R`` 13,599 kernels are listed for 13,547
classes (99,457 kernels in all orders); ``tests/proofkernel/test_commuting.py``
checks a position where each class is listed exactly once.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, field
from typing import Any

import chess

from proofkernel.blocked import taken_by_piece
from proofkernel.moves import (
    PAWN_X_PIECE,
    PAWN_X_PROMOTED,
    PIECE_X_PAWN,
    PIECE_X_PIECE,
    KernelMove,
    apply_move,
    generate_moves,
)
from proofkernel.state import (
    DARK_BISHOP,
    LIGHT_BISHOP,
    Goal,
    KernelState,
    piece_index,
    promotion_bishop,
    split_promotions,
)

__all__ = ["KernelSearch", "SearchBudgetExceeded", "lower_bound", "min_file_shifts", "INFINITE"]

INFINITE = 1 << 30

#: Files on which a pawn of each colour promotes to a light-squared bishop, ``[color]``.
LIGHT_PROMOTION_FILES = tuple(
    tuple(f for f in range(8) if promotion_bishop(color, f) == LIGHT_BISHOP) for color in (chess.BLACK, chess.WHITE)
)


class SearchBudgetExceeded(Exception):
    """Raised inside the search when ``max_nodes`` or ``time_limit`` runs out."""


@functools.lru_cache(maxsize=1 << 16)
def _contains(column: str, goal_column: str) -> bool:
    """Whether ``goal_column`` is a subsequence of ``column``: what a column can become
    by losing pawns alone."""
    pawns = iter(column)
    return all(pawn in pawns for pawn in goal_column)


def _domino_cover(files: int) -> int:
    """Fewest dominoes (one file, or two adjacent files) covering the files of the
    mask ``files``: greedily from file a (optimal for intervals of length two)."""
    count, file = 0, 0
    while file < 8:
        if files >> file & 1:
            count += 1
            file += 2
        else:
            file += 1
    return count


@functools.lru_cache(maxsize=1 << 16)
def _column_cover(incomplete: int, entered: int) -> int:
    """Fewest moves that change every file of the mask ``incomplete`` and land a pawn on
    every file of ``entered`` (each needs its own move: a move lands one pawn). A move
    landing on file f changes f and the file it came from, f - 1 or f + 1; so try both
    for each landing and cover the rest with dominoes."""
    landings = [f for f in range(8) if entered >> f & 1]
    best = INFINITE
    for sides in range(1 << len(landings)):
        covered = entered
        for bit, f in enumerate(landings):
            partner = f + 1 if sides >> bit & 1 else f - 1
            if 0 <= partner < 8:
                covered |= 1 << partner
        best = min(best, len(landings) + _domino_cover(incomplete & ~covered))
    return best


def _unfinished_files(state: KernelState, goal: Goal) -> tuple[int, int]:
    """The masks of the files whose column is incomplete (not the goal's up to quiet
    promotions) and, among them, of those that need a pawn to come in."""
    incomplete = entered = 0
    for file, (column, goal_column) in enumerate(zip(state.columns, goal.state.columns, strict=True)):
        if column != goal_column and split_promotions(column, goal_column) is None:
            incomplete |= 1 << file
            if not _contains(column, goal_column):
                entered |= 1 << file
    return incomplete, entered


@functools.lru_cache(maxsize=1 << 16)
def _column_edits(column: str, goal_column: str, black_quiet: bool, white_quiet: bool, movers: str) -> int:
    """Fewest edits that turn ``column`` into one the goal test accepts for its file
    (``b``*i + ``goal_column`` + ``w``*j, i > 0 only if Black may promote quietly there,
    j > 0 only if White may), using the edits of the colours in ``movers`` (``"w"``,
    ``"b"`` or ``"wb"``): each deletes a pawn of either colour, inserts a pawn of its own
    colour, or replaces an enemy pawn by one of its own. INFINITE if none does. A
    target's prefix of i pawns beyond ``len(column)`` would hold an inserted pawn whose
    removal saves an edit, so i and j up to ``len(column)`` suffice."""
    best = INFINITE
    for i in range(len(column) + 1 if black_quiet else 1):
        for j in range(len(column) + 1 if white_quiet else 1):
            best = min(best, _edit_distance(column, "b" * i + goal_column + "w" * j, movers))
    return best


def _edit_distance(source: str, target: str, movers: str) -> int:
    """Edit distance with deletions of any pawn, insertions of a pawn of ``movers`` and
    replacements by a pawn of ``movers`` (each of cost 1; no edit at all without movers)."""
    delete = 1 if movers else INFINITE
    row = list(range(len(target) + 1))
    for k, t in enumerate(target, 1):
        row[k] = row[k - 1] + 1 if t in movers else INFINITE
    for s in source:
        previous, row[0] = row[0], row[0] + delete
        for k, t in enumerate(target, 1):
            keep = previous if s == t else (previous + 1 if t in movers else INFINITE)
            insert = row[k - 1] + 1 if t in movers else INFINITE
            previous, row[k] = row[k], min(keep, insert, row[k] + delete)
    return min(row[-1], INFINITE)


def _edit_cover(state: KernelState, goal: Goal, movers: str) -> int:
    """Fewest kernel moves that make every column's edits (:func:`_column_edits`) when a
    move edits at most two adjacent columns once each: from file a, the edits a file
    still needs after the moves shared with its left neighbour are each shared with its
    right neighbour (as good as any other choice, since a move's second file is free)."""
    moves = shared = 0
    for file, (column, goal_column) in enumerate(zip(state.columns, goal.state.columns, strict=True)):
        if column == goal_column:
            need = 0
        else:
            need = _column_edits(
                column,
                goal_column,
                goal.quiet_promotion[chess.BLACK][file],
                goal.quiet_promotion[chess.WHITE][file],
                movers,
            )
            if need >= INFINITE:
                return INFINITE
        shared = max(0, need - shared)
        moves += shared
    return moves


def _incomplete_cover(state: KernelState, goal: Goal) -> int:
    return _column_cover(*_unfinished_files(state, goal))


@functools.lru_cache(maxsize=1 << 16)
def min_file_shifts(have: tuple[int, ...], want: tuple[int, ...]) -> int:
    """Fewest one-file shifts (pawn captures) that bring distinct pawns of ``have``
    onto the files of ``want`` (pawns per file a-h); INFINITE when ``want`` has more
    pawns. On a line a matching that keeps the order of the files is optimal (two
    crossing pairs can be uncrossed at no extra cost), so a table over the two sorted
    file lists finds it."""
    sources = [file for file in range(8) for _ in range(have[file])]
    targets = [file for file in range(8) for _ in range(want[file])]
    if len(targets) > len(sources):
        return INFINITE
    # best[j]: cheapest matching of the targets so far into the first j sources
    best = [0] * (len(sources) + 1)
    for i, target in enumerate(targets, 1):
        row = [INFINITE] * (len(sources) + 1)
        for j in range(i, len(sources) + 1):
            row[j] = min(row[j - 1], best[j - 1] + abs(target - sources[j - 1]))
        best = row
    return best[-1]


def lower_bound(state: KernelState, goal: Goal) -> int:
    """A lower bound on the kernel moves from ``state`` to ``goal`` (INFINITE when the
    goal is out of reach). See the module docstring for each term's proof."""
    return _with_edits(state, goal, _ordering_bound(state, goal))


def _with_edits(state: KernelState, goal: Goal, bound: int) -> int:
    """``bound`` (:func:`_ordering_bound`) raised to the edits per column."""
    if bound >= INFINITE:
        return bound
    white_captures = state.units(chess.BLACK) - goal.state.units(chess.BLACK)
    black_captures = state.units(chess.WHITE) - goal.state.units(chess.WHITE)
    return max(bound, _edit_cover(state, goal, _movers(white_captures, black_captures)))


def _movers(white_left: int, black_left: int) -> str:
    """The colours with captures left, as :func:`_column_edits` takes them."""
    return ("w" if white_left > 0 else "") + ("b" if black_left > 0 else "")


def _ordering_bound(state: KernelState, goal: Goal) -> int:
    """:func:`lower_bound` without the edits per column: the search orders children by
    it, so that the tighter bound only cuts subtrees without a kernel and the kernels are
    found in the same order as before it."""
    white_captures = state.units(chess.BLACK) - goal.state.units(chess.BLACK)
    black_captures = state.units(chess.WHITE) - goal.state.units(chess.WHITE)
    if white_captures < 0 or black_captures < 0:
        return INFINITE
    shifts = 0
    for color, captures in ((chess.WHITE, white_captures), (chess.BLACK, black_captures)):
        # the units only a piece of this colour may capture need captures of their own
        offset = piece_index(not color, 0)
        if sum(state.piece_captures[offset : offset + 5]) > captures:
            return INFINITE
        have, want = state.column_pawns[color], goal.state.column_pawns[color]
        needed = min_file_shifts(have, want)
        if needed > captures:
            return INFINITE
        shifts += needed
        offset = piece_index(color, 0)
        # promotions each kind still needs (the goal's sealed bishops need their own)
        sealed = goal.sealed_bishops[offset : offset + 5]
        surplus = [
            max(g - c, born, 0)
            for c, g, born in zip(
                state.pieces[offset : offset + 5], goal.state.pieces[offset : offset + 5], sealed, strict=True
            )
        ]
        # the colour's pieces the goal has no room for, sealed squares aside, are taken
        # by the other colour
        other = piece_index(not color, 0)
        room = [
            g - born
            for g, born in zip(
                goal.state.pieces[other : other + 5], goal.sealed_bishops[other : other + 5], strict=True
            )
        ]
        if sum(max(0, c - r) for c, r in zip(state.pieces[other : other + 5], room, strict=True)) > captures:
            return INFINITE
        pawns = state.pawns(color)
        if sum(surplus) > pawns - goal.state.pawns(color):
            return INFINITE
        # promotions beyond the pawns that can promote without capturing
        quiet = sum(h - w for h, w, free in zip(have, want, goal.quiet_promotion[color], strict=True) if h > w and free)
        if sum(surplus) - quiet > captures:
            return INFINITE
        # the pawns a file has beyond the goal's there are the ones that can promote from
        # it, to a bishop where one can leave the promotion square
        spare = [
            h - w if h > w and bishop else 0
            for h, w, bishop in zip(have, want, goal.bishop_promotion[color], strict=True)
        ]
        light = sum(spare[f] for f in LIGHT_PROMOTION_FILES[color])
        shortfall = max(0, surplus[LIGHT_BISHOP] - light) + max(0, surplus[DARK_BISHOP] - (sum(spare) - light))
        if shortfall > captures:
            return INFINITE
    return max(_incomplete_cover(state, goal), shifts)


@dataclass
class KernelSearch:
    """Search from ``initial`` to ``goal``; budgets are explicit. ``nodes`` counts
    visited states; ``exhausted`` tells whether the whole space was searched."""

    initial: KernelState
    goal: Goal
    max_nodes: int = 1_000_000
    time_limit: float | None = None
    commuting_once: bool = False
    on_progress: Callable[[KernelSearch], None] | None = None
    nodes: int = 0
    exhausted: bool = True
    _dead: set[KernelState] = field(default_factory=set)
    _bounds: dict[KernelState, tuple[int, int]] = field(default_factory=dict)
    _moves: dict[KernelState, frozenset[KernelMove]] = field(default_factory=dict)
    _deadline: float = 0.0

    @classmethod
    def between(cls, init: chess.Board, goal: chess.Board, blocked: int, **budget: Any) -> KernelSearch:
        """The search from ``init`` to ``goal``, ``blocked`` being their
        :func:`~proofkernel.blocked.blocked_squares`: it fixes the goal's blocked pieces
        and the units only a piece can have taken
        (:func:`~proofkernel.blocked.taken_by_piece`)."""
        return cls(
            KernelState.from_board(init, taken_by_piece(init, goal, blocked)),
            Goal.from_boards(goal, blocked, init),
            **budget,
        )

    def kernels(
        self, accept: Callable[[tuple[KernelMove, ...]], bool] = lambda k: True
    ) -> Iterator[tuple[KernelMove, ...]]:
        """Yield kernels that ``accept`` approves, until the space or budget ends.
        After the generator finishes, ``exhausted`` is False if a budget ran out."""
        self._deadline = time.monotonic() + self.time_limit if self.time_limit is not None else float("inf")
        self.exhausted = True
        found: list[tuple[KernelMove, ...]] = []
        try:
            yield from self._search(self.initial, (), accept, found, frozenset())
        except SearchBudgetExceeded:
            self.exhausted = False

    def _remaining(self, state: KernelState) -> int:
        return (
            state.units(chess.WHITE)
            + state.units(chess.BLACK)
            - self.goal.state.units(chess.WHITE)
            - self.goal.state.units(chess.BLACK)
        )

    def _bound(self, state: KernelState) -> int:
        """:func:`lower_bound` of ``state``, remembered: the kernel moves commute, so the
        same child turns up under many parents."""
        return self._bounds_of(state)[1]

    def _bounds_of(self, state: KernelState) -> tuple[int, int]:
        """:func:`_ordering_bound` and :func:`lower_bound` of ``state``, remembered."""
        bounds = self._bounds.get(state)
        if bounds is None:
            if len(self._bounds) > 2_000_000:
                self._bounds.clear()
            order = _ordering_bound(state, self.goal)
            bounds = self._bounds[state] = (order, _with_edits(state, self.goal, order))
        return bounds

    def _shifts_fit(self, state: KernelState, move: KernelMove, white_left: int, black_left: int) -> bool:
        """Whether after ``move`` each colour's pawns can still reach the goal's files with
        the captures it has left (:func:`min_file_shifts`, the bound's second term), from
        the pawns per file that ``move`` leaves, without building the child."""
        if move.kind == PIECE_X_PIECE:
            return True
        mover, victim = list(state.column_pawns[move.color]), list(state.column_pawns[not move.color])
        if move.kind != PAWN_X_PIECE:  # a pawn taken, on its file (a promoted piece's: the file it came from)
            victim[move.captured if move.kind == PAWN_X_PROMOTED else move.target] -= 1
        if move.kind != PIECE_X_PAWN:  # the capturing pawn leaves its file and lands, unless it promotes
            mover[move.file] -= 1
            if move.promotion < 0:
                mover[move.target] += 1
        want = self.goal.state.column_pawns
        mover_left, victim_left = (white_left, black_left) if move.color == chess.WHITE else (black_left, white_left)
        return (
            min_file_shifts(tuple(mover), want[move.color]) <= mover_left - 1
            and min_file_shifts(tuple(victim), want[not move.color]) <= victim_left
        )

    def _generated(self, state: KernelState) -> frozenset[KernelMove]:
        """The moves generated at ``state`` (both colours), remembered."""
        moves = self._moves.get(state)
        if moves is None:
            if len(self._moves) > 200_000:
                self._moves.clear()
            moves = self._moves[state] = frozenset(
                move for color in chess.COLORS for move in generate_moves(state, self.goal, color)
            )
        return moves

    def _independent(self, a: KernelMove, after_a: KernelState, b: KernelMove, after_b: KernelState) -> bool:
        """Whether ``a`` and ``b`` are independent at their common parent (the module
        docstring): each is generated after the other and both orders meet."""
        return (
            b in self._generated(after_a)
            and a in self._generated(after_b)
            and apply_move(after_a, b) == apply_move(after_b, a)
        )

    def _search(
        self,
        state: KernelState,
        path: tuple[KernelMove, ...],
        accept: Callable[[tuple[KernelMove, ...]], bool],
        found: list[tuple[KernelMove, ...]],
        sleep: frozenset[KernelMove],
    ) -> Generator[tuple[KernelMove, ...], None, bool]:
        """Yields accepted kernels; returns (via StopIteration value) whether any
        kernel (accepted or not) was reached below ``state``, or a sleeping move was
        skipped there (then ``state`` is not proven dead either)."""
        self.nodes += 1
        if self.nodes > self.max_nodes or time.monotonic() > self._deadline:
            raise SearchBudgetExceeded
        if self.on_progress is not None and self.nodes % 10_000 == 0:
            self.on_progress(self)
        remaining = self._remaining(state)
        if remaining == 0:
            if not any(state.piece_captures) and self.goal.promotions_fit(state):
                if accept(path):
                    yield path
                return True
            return False
        if state in self._dead or self._bound(state) > remaining:
            return False
        children: list[tuple[int, int, KernelMove, KernelState]] = []
        white_left = state.units(chess.BLACK) - self.goal.state.units(chess.BLACK)
        black_left = state.units(chess.WHITE) - self.goal.state.units(chess.WHITE)
        incomplete, entered = _unfinished_files(state, self.goal)

        def touching(changed: int) -> bool:
            """Whether a child changing the columns of ``changed`` may be kept (module docstring)."""
            return _column_cover(incomplete & ~changed, entered & ~changed) <= remaining - 1

        for color, left in ((chess.WHITE, white_left), (chess.BLACK, black_left)):
            if left <= 0:
                continue
            for move in generate_moves(state, self.goal, color, touching):
                if not self._shifts_fit(state, move, white_left, black_left):
                    continue  # the child's bound would be infinite (module docstring)
                child = apply_move(state, move)
                if child in self._dead:
                    continue
                order, bound = self._bounds_of(child)
                if bound <= remaining - 1:
                    children.append((order, len(children), move, child))
        children.sort(key=lambda item: (item[0], item[1]))
        reached = False
        explored: list[tuple[KernelMove, KernelState]] = []
        asleep = {move: None for move in sleep}  # sleeping moves; their children are found below
        for _, _, move, child in children:
            if move in asleep:
                reached = True  # skipped, so not a proof that ``state`` is dead
                continue
            child_sleep: frozenset[KernelMove] = frozenset()
            if self.commuting_once:
                earlier = [(z, apply_move(state, z)) for z in sleep if z in self._generated(state)] + explored
                child_sleep = frozenset(z for z, after_z in earlier if self._independent(move, child, z, after_z))
            reached |= yield from self._search(child, path + (move,), accept, found, child_sleep)
            explored.append((move, child))
        if not reached:
            self._dead.add(state)
        return reached

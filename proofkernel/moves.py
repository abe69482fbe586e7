"""Proof-kernel moves: every move is a capture (paper 002, kernel move notation).

Notation (texel's), parsed by :func:`parse_move` and printed by ``str``:

=================  ==========================================================
``wPc0xPb1``       white pawn c-column index 0 takes the pawn at b-column index 1
``wPc0xRb0``       ... takes a rook and lands in the b column at index 0
``wPc0xRbQ``       ... takes a rook on the last rank and promotes to a queen
``wPc0xfb0``       ... takes a piece promoted (quietly) from the f column
``bxPc0``          a black piece takes the white pawn at c-column index 0
``bxR``            a black piece takes a white rook
=================  ==========================================================

Piece kinds are ``Q R DB LB N``. For a capture of a promoted piece the capturer's
index is counted after the promoting pawn has left its column.

Generation is a relaxation: it must produce every capture a real game can make, so
it only forbids what is proven impossible: moving or capturing a blocked pawn or
piece (:mod:`proofkernel.blocked`), promotions through blocked 7th/8th-rank squares,
a quiet promotion by a pawn that has a pawn of the other colour ahead of it in its
column (pawns on a file cannot pass each other), a capture promotion by a pawn
that has any such pawn ahead, and a pawn taking a unit that only a piece may capture
(``KernelState.piece_captures``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache

import chess

from proofkernel.state import FILES, PIECE_NAMES, Goal, KernelState, piece_index, promotion_bishop

__all__ = ["KernelMove", "parse_move", "generate_moves", "apply_move", "InvalidKernelMoveError"]

PAWN_X_PAWN, PAWN_X_PIECE, PAWN_X_PROMOTED, PIECE_X_PAWN, PIECE_X_PIECE = range(5)


class InvalidKernelMoveError(ValueError):
    """A kernel move string that does not follow the notation."""


@dataclass(frozen=True)
class KernelMove:
    """One kernel capture. ``kind`` is one of the five capture kinds; ``file``/``index``
    locate the capturing pawn, ``target``/``target_index`` where it lands (or the
    captured pawn, for a piece taking a pawn); ``captured`` is the captured piece kind
    (0-4) or the file a promoted piece came from; ``promotion`` the kind promoted to."""

    color: chess.Color
    kind: int
    file: int = -1
    index: int = -1
    captured: int = -1
    target: int = -1
    target_index: int = -1
    promotion: int = -1

    def __str__(self) -> str:
        c = "w" if self.color == chess.WHITE else "b"
        if self.kind == PIECE_X_PIECE:
            return f"{c}x{PIECE_NAMES[self.captured]}"
        if self.kind == PIECE_X_PAWN:
            return f"{c}xP{FILES[self.target]}{self.target_index}"
        mover = f"{c}P{FILES[self.file]}{self.index}x"
        if self.kind == PAWN_X_PAWN:
            return f"{mover}P{FILES[self.target]}{self.target_index}"
        victim = PIECE_NAMES[self.captured] if self.kind == PAWN_X_PIECE else FILES[self.captured]
        landing = PIECE_NAMES[self.promotion] if self.promotion >= 0 else str(self.target_index)
        return f"{mover}{victim}{FILES[self.target]}{landing}"


#: :class:`KernelMove` and :class:`~proofkernel.state.KernelState` made through a cache of
#: the recent ones: both are frozen (immutable) dataclasses, slow to build field by field,
#: and the search makes the same moves and the same children (the captures commute) again
#: and again; an equal object is returned, so what is searched does not change
_kernel_move = lru_cache(maxsize=1 << 16)(KernelMove)
_kernel_state = lru_cache(maxsize=1 << 16)(KernelState)


_KINDS = "|".join(sorted(PIECE_NAMES, key=len, reverse=True))
_MOVE_RE = re.compile(
    rf"^(?P<c>[wb])(?:P(?P<f>[a-h])(?P<i>\d+))?x(?:(?P<pp>P)(?P<pf>[a-h])(?P<pi>\d+)|(?P<k>{_KINDS})|(?P<src>[a-h]))"
    rf"(?:(?P<t>[a-h])(?:(?P<ti>\d+)|(?P<promo>{_KINDS})))?$"
)


def parse_move(text: str) -> KernelMove:
    """Parse texel's kernel move notation; raises :class:`InvalidKernelMoveError`."""
    m = _MOVE_RE.match(text.strip())
    if not m:
        raise InvalidKernelMoveError(f"not a kernel move: {text!r}")
    color = m["c"] == "w"
    pawn_mover = m["f"] is not None
    if not pawn_mover:
        if m["pp"]:
            return KernelMove(color, PIECE_X_PAWN, target=FILES.index(m["pf"]), target_index=int(m["pi"]))
        if m["k"] and m["t"] is None:
            return KernelMove(color, PIECE_X_PIECE, captured=PIECE_NAMES.index(m["k"]))
        raise InvalidKernelMoveError(f"not a kernel move: {text!r}")
    file, index = FILES.index(m["f"]), int(m["i"])
    if m["pp"]:
        if m["t"] is not None:
            raise InvalidKernelMoveError(f"not a kernel move: {text!r}")
        return KernelMove(color, PAWN_X_PAWN, file, index, target=FILES.index(m["pf"]), target_index=int(m["pi"]))
    if m["t"] is None:
        raise InvalidKernelMoveError(f"a pawn capture needs a landing file: {text!r}")
    kind, captured = (PAWN_X_PIECE, PIECE_NAMES.index(m["k"])) if m["k"] else (PAWN_X_PROMOTED, FILES.index(m["src"]))
    target = FILES.index(m["t"])
    if m["promo"]:
        return KernelMove(color, kind, file, index, captured, target, promotion=PIECE_NAMES.index(m["promo"]))
    return KernelMove(color, kind, file, index, captured, target, int(m["ti"]))


def _letter(color: chess.Color) -> str:
    return "w" if color == chess.WHITE else "b"


def _remove(column: str, index: int) -> str:
    return column[:index] + column[index + 1 :]


def _quiet_promoter_index(column: str, color: chess.Color) -> int:
    """Index of the pawn of ``color`` that would promote quietly next (topmost white /
    bottom black), or -1 when that pawn has a pawn of the other colour ahead."""
    if color == chess.WHITE:
        return len(column) - 1 if column and column[-1] == "w" else -1
    return 0 if column and column[0] == "b" else -1


def _can_capture_promote(column: str, index: int, color: chess.Color) -> bool:
    """No pawn of the other colour is ahead of the pawn (own pawns ahead may have
    promoted quietly before)."""
    other = _letter(not color)
    ahead = column[index + 1 :] if color == chess.WHITE else column[:index]
    return other not in ahead


def _pawn_captures_from(
    state: KernelState,
    goal: Goal,
    color: chess.Color,
    columns: list[str],
    kind: int,
    captured: int,
    file: int,
    index: int,
    touching: Callable[[int], bool],
    also: int = 0,
) -> list[KernelMove]:
    """Captures of a piece by the pawn ``file``/``index`` of ``columns`` (normal landing
    at every index of the adjacent columns, or promotion), onto the files for which
    ``touching`` accepts the mask of the files the capture changes (with ``also``)."""
    moves = []
    for target in (file - 1, file + 1):
        if not 0 <= target < 8 or not touching(1 << file | 1 << target | also):
            continue
        length = len(columns[target]) + (0 if target != file else -1)
        low = 1 if goal.locked_bottom[target] else 0
        high = length - 1 if goal.locked_top[target] else length
        for j in range(low, high + 1):
            moves.append(_kernel_move(color, kind, file, index, captured, target, j))
        if goal.capture_promotion[color][file][target] and _can_capture_promote(columns[file], index, color):
            for promotion in range(5):
                if promotion in (2, 3) and promotion != promotion_bishop(color, target):
                    continue
                moves.append(_kernel_move(color, kind, file, index, captured, target, promotion=promotion))
    return moves


def _movable_pawns(columns: list[str] | tuple[str, ...], goal: Goal, color: chess.Color) -> Iterator[tuple[int, int]]:
    letter = _letter(color)
    for file, column in enumerate(columns):
        for index, c in enumerate(column):
            if c != letter:
                continue
            if color == chess.WHITE and index == 0 and goal.locked_bottom[file]:
                continue
            if color == chess.BLACK and index == len(column) - 1 and goal.locked_top[file]:
                continue
            yield file, index


def _capturable_pawns(columns: tuple[str, ...], goal: Goal, victim: chess.Color) -> Iterator[tuple[int, int]]:
    """Pawns of ``victim`` that may be captured (blocked ones may not)."""
    return _movable_pawns(columns, goal, victim)


def generate_moves(
    state: KernelState, goal: Goal, color: chess.Color, touching: Callable[[int], bool] | None = None
) -> list[KernelMove]:
    """All kernel captures by ``color`` from ``state``; with ``touching``, only those for
    which it accepts the mask of the files whose columns the capture changes (a
    superset: the captured pawn's, the capturing pawn's and its landing file, and the
    file a captured promoted piece came from; none for a piece taking a piece)."""
    if touching is None:
        touching = _every_capture
    moves: list[KernelMove] = []
    victim = not color
    columns = state.columns
    slots = [piece_index(victim, k) for k in range(5)]
    capturable_kinds = [k for k, slot in enumerate(slots) if state.pieces[slot] > goal.blocked_pieces[slot]]
    # a pawn may not take the units only a piece may capture
    pawn_capturable_kinds = [
        k for k, slot in enumerate(slots) if state.pieces[slot] > goal.blocked_pieces[slot] + state.piece_captures[slot]
    ]
    victim_pawns = list(_capturable_pawns(columns, goal, victim))
    # pieces take
    if touching(0):
        for k in capturable_kinds:
            moves.append(_kernel_move(color, PIECE_X_PIECE, captured=k))
    for file, index in victim_pawns:
        if touching(1 << file):
            moves.append(_kernel_move(color, PIECE_X_PAWN, target=file, target_index=index))
    # pawns take
    for file, index in _movable_pawns(columns, goal, color):
        for target_file, target_index in victim_pawns:
            if abs(target_file - file) == 1 and touching(1 << file | 1 << target_file):
                moves.append(
                    _kernel_move(color, PAWN_X_PAWN, file, index, target=target_file, target_index=target_index)
                )
        for k in pawn_capturable_kinds:
            moves += _pawn_captures_from(state, goal, color, list(columns), PAWN_X_PIECE, k, file, index, touching)
    # pawns take a piece that a victim pawn got by promoting quietly on file `source`
    for source in range(8):
        promoter = _quiet_promoter_index(columns[source], victim)
        if promoter < 0 or not goal.quiet_promotion[victim][source]:
            continue
        if (victim == chess.WHITE and promoter == 0 and goal.locked_bottom[source]) or (
            victim == chess.BLACK and promoter == len(columns[source]) - 1 and goal.locked_top[source]
        ):
            continue
        reduced = list(columns)
        reduced[source] = _remove(columns[source], promoter)
        for file, index in _movable_pawns(reduced, goal, color):
            moves += _pawn_captures_from(
                state, goal, color, reduced, PAWN_X_PROMOTED, source, file, index, touching, 1 << source
            )
    return moves


def _every_capture(files: int) -> bool:
    return True


def apply_move(state: KernelState, move: KernelMove) -> KernelState:
    """The state after ``move`` (which is assumed to come from :func:`generate_moves`
    or to be valid; raises :class:`InvalidKernelMoveError` if it does not fit)."""
    columns = list(state.columns)
    pieces = list(state.pieces)
    owed = state.piece_captures
    color, victim = move.color, not move.color
    mover, victim_letter = _letter(color), _letter(victim)

    def take_pawn(file: int, index: int) -> None:
        if not (0 <= index < len(columns[file]) and columns[file][index] == victim_letter):
            raise InvalidKernelMoveError(f"{move}: no {victim_letter} pawn there")
        columns[file] = _remove(columns[file], index)

    if move.kind == PIECE_X_PIECE:
        slot = piece_index(victim, move.captured)
        if pieces[slot] == 0:
            raise InvalidKernelMoveError(f"{move}: nothing to capture")
        pieces[slot] -= 1
        if owed[slot]:
            owed = owed[:slot] + (owed[slot] - 1,) + owed[slot + 1 :]
        return _kernel_state(tuple(columns), tuple(pieces), owed)
    if move.kind == PIECE_X_PAWN:
        take_pawn(move.target, move.target_index)
        return _kernel_state(tuple(columns), tuple(pieces), owed)
    if move.kind == PAWN_X_PIECE:
        slot = piece_index(victim, move.captured)
        if pieces[slot] <= owed[slot]:
            raise InvalidKernelMoveError(f"{move}: nothing a pawn may capture")
        pieces[slot] -= 1
    elif move.kind == PAWN_X_PROMOTED:
        promoter = _quiet_promoter_index(columns[move.captured], victim)
        if promoter < 0:
            raise InvalidKernelMoveError(f"{move}: no pawn can promote on that file")
        columns[move.captured] = _remove(columns[move.captured], promoter)
    if not (0 <= move.index < len(columns[move.file]) and columns[move.file][move.index] == mover):
        raise InvalidKernelMoveError(f"{move}: no {mover} pawn there")
    if move.kind == PAWN_X_PAWN:
        if not (
            0 <= move.target_index < len(columns[move.target])
            and columns[move.target][move.target_index] == victim_letter
        ):
            raise InvalidKernelMoveError(f"{move}: no {victim_letter} pawn there")
        columns[move.file] = _remove(columns[move.file], move.index)
        target = columns[move.target]
        columns[move.target] = target[: move.target_index] + mover + target[move.target_index + 1 :]
        return _kernel_state(tuple(columns), tuple(pieces), owed)
    columns[move.file] = _remove(columns[move.file], move.index)
    if move.promotion >= 0:
        pieces[piece_index(color, move.promotion)] += 1
    else:
        target = columns[move.target]
        if not 0 <= move.target_index <= len(target):
            raise InvalidKernelMoveError(f"{move}: landing index out of range")
        columns[move.target] = target[: move.target_index] + mover + target[move.target_index :]
    return _kernel_state(tuple(columns), tuple(pieces), owed)

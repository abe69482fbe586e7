"""Kernels that differ only in the order of commuting captures are listed once
(``KernelSearch(commuting_once=True)``, the sleep sets of :mod:`proofkernel.search`):
every class of the full list has exactly one listed member."""

from __future__ import annotations

import chess

from proofkernel.blocked import blocked_squares
from proofkernel.moves import KernelMove, apply_move, generate_moves
from proofkernel.search import KernelSearch
from proofkernel.state import KernelState

# Black is missing its queen and both knights, White its e-pawn: White's three piece
# captures and the capture of the e-pawn by a black piece
# come in many orders.
GOAL = "r1b1kb1r/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1"


def _search(fen: str, *, once: bool) -> tuple[KernelSearch, list[tuple[KernelMove, ...]]]:
    goal, init = chess.Board(fen), chess.Board()
    search = KernelSearch.between(init, goal, blocked_squares(goal, init), commuting_once=once)
    return search, [tuple(kernel) for kernel in search.kernels()]


def _states(start: KernelState, kernel: tuple[KernelMove, ...]) -> list[KernelState]:
    states = [start]
    for move in kernel:
        states.append(apply_move(states[-1], move))
    return states


def _classes(search: KernelSearch, kernels: list[tuple[KernelMove, ...]]) -> dict[tuple, tuple]:
    """Union-find over the full list: two kernels are joined when they differ by a swap of
    adjacent moves independent at the state where they stand (each generated after the
    other, both orders meeting)."""
    parent = {kernel: kernel for kernel in kernels}

    def root(kernel: tuple) -> tuple:
        while parent[kernel] != kernel:
            kernel = parent[kernel]
        return kernel

    for kernel in kernels:
        states = _states(search.initial, kernel)
        for i in range(len(kernel) - 1):
            a, b = kernel[i], kernel[i + 1]
            swapped = kernel[:i] + (b, a) + kernel[i + 2 :]
            if swapped not in parent:
                continue
            after_b = apply_move(states[i], b) if b in generate_moves(states[i], search.goal, b.color) else None
            if (
                after_b is not None
                and a in generate_moves(after_b, search.goal, a.color)
                and apply_move(after_b, a) == states[i + 2]
            ):
                parent[root(swapped)] = root(kernel)
    return {kernel: root(kernel) for kernel in kernels}


def test_every_class_is_listed_exactly_once() -> None:
    full_search, full = _search(GOAL, once=False)
    reduced_search, reduced = _search(GOAL, once=True)
    assert full_search.exhausted and reduced_search.exhausted
    classes = _classes(full_search, full)
    assert set(reduced) <= set(full)
    listed = [classes[kernel] for kernel in reduced]
    assert len(listed) == len(set(listed)), "two listed kernels are orders of one class"
    assert set(listed) == set(classes.values()), "a class of kernels is missing"
    assert len(reduced) < len(full)  # 52 orders, 7 classes


def test_reduction_keeps_the_verdict_of_a_position_without_kernel() -> None:
    # White's e-pawn on e3 and another on e2: a capture onto the e-file, but Black lost nothing
    _, full = _search("rnbqkbnr/pppppppp/8/8/8/4P3/PPP1PPPP/RNBQKBNR w KQkq - 0 1", once=False)
    search, reduced = _search("rnbqkbnr/pppppppp/8/8/8/4P3/PPP1PPPP/RNBQKBNR w KQkq - 0 1", once=True)
    assert full == reduced == [] and search.exhausted

"""Pawn fates: can the sixteen original pawns explain the pawns and promoted pieces?

Every game assigns each of the 16 original pawns a *fate*: it is one of the pawns now
on the board, it promoted, or it was captured as a pawn. With ``c`` the number of
captures a pawn made while it was a pawn, every legal position admits fates and
counts satisfying all of the following, so when OR-Tools CP-SAT proves the model
INFEASIBLE the position is illegal (UNKNOWN, for a time limit, is no objection):

1. *Files and ranks*: a pawn from file g now on file f at relative rank r (ranks
   advanced from its start) made ``c ≥ |f − g|`` captures with ``c ≡ f − g (mod 2)``
   (each capture changes the file by one) and ``c ≤ r`` (each capture advances one
   rank). A promoted pawn made at most 6 captures, a captured one at most 5.
2. *Promotion squares*: a pawn from file g promoted on a file of parity ``g + c``, so
   the colour of its promotion square is fixed by ``c``; a side needs at least as many
   promotions as it has excess pieces (queens beyond 1, rooks and knights beyond 2),
   and at least as many on light (dark) squares as it has light (dark) bishops beyond
   one, because bishops keep their square colour.
3. *Capture budgets*: the captures made by a side's pawns, and the number of the
   opponent's pawns it captured, are each at most the number of units the opponent is
   missing (every capture removes one opponent unit).
4. *Blocked files*: a pawn that never captured stayed on its file, and so did the
   opponent's pawn of the same file if it never captured. Two such pawns cannot pass
   each other: if both are on the board, White's is below Black's; and one of them can
   only have promoted if the other was captured.

Source: the capture accounting of texel's static rules and proof kernels (paper 002,
"Proving illegality", "Relaxation"), restated as a small constraint problem; rule 4
is the "pawns cannot pass each other on a file" ordering of the extended kernel.
"""

from __future__ import annotations

import functools

import chess
from ortools.sat.python import cp_model

__all__ = ["pawn_fates_feasible", "excess_pieces"]


def _relative_rank(square: chess.Square, color: chess.Color) -> int:
    """Ranks advanced from the pawn's start rank (0 for a pawn on its home square)."""
    rank = chess.square_rank(square)
    return rank - 1 if color == chess.WHITE else 6 - rank


def excess_pieces(board: chess.Board, color: chess.Color) -> tuple[int, int, int]:
    """(excess queens+rooks+knights, excess light bishops, excess dark bishops)."""
    count = lambda t: chess.popcount(board.pieces_mask(t, color))  # noqa: E731
    bishops = board.pieces_mask(chess.BISHOP, color)
    light = chess.popcount(bishops & chess.BB_LIGHT_SQUARES)
    dark = chess.popcount(bishops & chess.BB_DARK_SQUARES)
    other = max(0, count(chess.QUEEN) - 1) + max(0, count(chess.ROOK) - 2) + max(0, count(chess.KNIGHT) - 2)
    return other, max(0, light - 1), max(0, dark - 1)


def pawn_fates_feasible(board: chess.Board, *, time_limit: float = 2.0) -> bool | None:
    """False if no fates satisfy the rules of the module docstring (the position is
    illegal), True if some do, None if CP-SAT ran out of time.

    The answer depends only on the pawns, the excess pieces and the unit counts, so it
    is cached on those (retraction trees revisit the same structures many times)."""
    key = (
        board.pawns & board.occupied_co[chess.WHITE],
        board.pawns & board.occupied_co[chess.BLACK],
        excess_pieces(board, chess.WHITE),
        excess_pieces(board, chess.BLACK),
        chess.popcount(board.occupied_co[chess.WHITE]),
        chess.popcount(board.occupied_co[chess.BLACK]),
    )
    return _feasible(key, time_limit)


@functools.lru_cache(maxsize=65536)
def _feasible(key: tuple, time_limit: float) -> bool | None:
    white_pawns, black_pawns, white_excess, black_excess, white_units, black_units = key
    pawn_masks = {chess.WHITE: white_pawns, chess.BLACK: black_pawns}
    excess = {chess.WHITE: white_excess, chess.BLACK: black_excess}
    units = {chess.WHITE: white_units, chess.BLACK: black_units}
    model = cp_model.CpModel()
    captures_made = {color: 16 - units[not color] for color in chess.COLORS}
    if min(captures_made.values()) < 0:
        return False
    captures = {}  # (color, g) -> IntVar
    never_captured = {}  # (color, g) -> BoolVar, c == 0
    promoted = {}
    taken = {}
    on_board: dict[tuple[chess.Color, int], list[tuple[cp_model.IntVar, chess.Square]]] = {}
    for color in chess.COLORS:
        pawns = list(chess.SquareSet(pawn_masks[color]))
        light_parity = 0 if color == chess.WHITE else 1  # (g + c) parity of a light promotion square
        by_pawn: dict[chess.Square, list[cp_model.IntVar]] = {sq: [] for sq in pawns}
        light_promotions, dark_promotions = [], []
        for g in range(8):
            c = model.NewIntVar(0, 6, f"c{int(color)}{g}")
            zero = model.NewBoolVar(f"z{int(color)}{g}")
            model.Add(c == 0).OnlyEnforceIf(zero)
            model.Add(c >= 1).OnlyEnforceIf(zero.Not())
            p_light = model.NewBoolVar(f"pl{int(color)}{g}")
            p_dark = model.NewBoolVar(f"pd{int(color)}{g}")
            x = model.NewBoolVar(f"x{int(color)}{g}")
            half = model.NewIntVar(0, 7, f"h{int(color)}{g}")
            parity = model.NewBoolVar(f"q{int(color)}{g}")
            model.Add(c + g == 2 * half + parity)
            model.Add(parity == light_parity).OnlyEnforceIf(p_light)
            model.Add(parity != light_parity).OnlyEnforceIf(p_dark)
            model.Add(c <= 5).OnlyEnforceIf(x)
            fates = [p_light, p_dark, x]
            on_board[(color, g)] = []
            for square in pawns:
                f, r = chess.square_file(square), _relative_rank(square, color)
                if abs(f - g) > r:
                    continue
                is_here = model.NewBoolVar(f"a{int(color)}{g}{square}")
                k = model.NewIntVar(0, 3, f"k{int(color)}{g}{square}")
                model.Add(c == abs(f - g) + 2 * k).OnlyEnforceIf(is_here)
                model.Add(c <= r).OnlyEnforceIf(is_here)
                fates.append(is_here)
                by_pawn[square].append(is_here)
                on_board[(color, g)].append((is_here, square))
            model.AddExactlyOne(fates)
            captures[(color, g)] = c
            never_captured[(color, g)] = zero
            promoted[(color, g)] = (p_light, p_dark)
            taken[(color, g)] = x
            light_promotions.append(p_light)
            dark_promotions.append(p_dark)
        for square, options in by_pawn.items():
            if not options:
                return False
            model.AddExactlyOne(options)
        other, light, dark = excess[color]
        model.Add(sum(light_promotions) >= light)
        model.Add(sum(dark_promotions) >= dark)
        model.Add(sum(light_promotions) + sum(dark_promotions) >= other + light + dark)
        model.Add(sum(captures[(color, g)] for g in range(8)) <= captures_made[color])
    for color in chess.COLORS:
        model.Add(sum(taken[(not color, g)] for g in range(8)) <= captures_made[color])
    for g in range(8):
        both_stayed = [never_captured[(chess.WHITE, g)], never_captured[(chess.BLACK, g)]]
        for color in chess.COLORS:
            for promotion in promoted[(color, g)]:
                # promoted without leaving file g => the opponent's g-pawn left it or was taken
                model.AddBoolOr([never_captured[(not color, g)].Not(), taken[(not color, g)]]).OnlyEnforceIf(
                    [promotion, never_captured[(color, g)]])
        for white_here, white_square in on_board[(chess.WHITE, g)]:
            for black_here, black_square in on_board[(chess.BLACK, g)]:
                if chess.square_rank(white_square) > chess.square_rank(black_square):
                    model.AddBoolOr([b.Not() for b in both_stayed] + [white_here.Not(), black_here.Not()])
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = time_limit
    solver.parameters.num_workers = 1
    status = solver.Solve(model)
    if status == cp_model.INFEASIBLE:
        return False
    if status in (cp_model.FEASIBLE, cp_model.OPTIMAL):
        return True
    return None

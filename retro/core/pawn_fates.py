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
   missing (every capture removes one opponent unit); the pawns' captures at most that
   less the captures its pieces are known to have made (``piece_captures``).
4. *Blocked files*: a pawn that never captured stayed on its file, and so did the
   opponent's pawn of the same file if it never captured. Two such pawns cannot pass
   each other: if both are on the board, White's is below Black's; and one of them can
   only have promoted if the other was captured.

5. *Capture files*: a pawn's captures form a walk over the files from g to its file
   ``e`` now (on the board), where it promoted, or where it was taken, one step per
   capture. The walk is written as crossings of the seven boundaries between
   neighbouring files (rightward ``R`` and leftward ``L``, R − L = +1 on each boundary
   between g and e when e lies to the right, −1 when to the left, 0 elsewhere; R + L
   summed = c); the captures *landing* on file x are the crossings into x. Every capture
   removes an opponent unit standing on the file where the capturer lands (en passant
   too: the taken pawn stands on that file), and the captures by pieces land on some
   file, so on each file x: opponent pawns taken (as pawns) on x ≤ this side's pawn
   landings on x + its piece captures on x, and all landings plus piece captures equal
   the opponent's missing units. An opponent pawn taken as a pawn stood on the file
   where its own walk ends. The crossings are those of one walk from g, so they are
   contiguous: with boundary x between files x and x+1, a walk from g < x that ends on a
   file e < x crosses x only after crossing x-1 (it reaches file x+1 through file x,
   which it first entered from file x-1); mirrored, a walk from g > x+1 that ends on a
   file e > x crosses x only after crossing x+1. (Else the crossings could hold a loop on
   a far boundary, an h-pawn with two captures "landing" on the a- and b-files.)
6. *Home-square blockers*: a pawn still on its home square x2 (x7) has stood there all
   game. An opponent pawn that promoted on file x could not step from x2 to x1, so its
   promotion move was a capture (c ≥ 1). If that was its only capture (c = 1), it
   walked its own file g down to the second rank before it; then this side's g-pawn
   cannot have stayed on file g without being taken (c = 0 and not taken): two pawns
   on one file cannot pass each other.
7. *Shut promotion squares*: an opponent pawn promotes on x1 (x8) from x2, or by a
   capture from a neighbouring file's second rank (seventh); when this side's pawns
   stand on all of these squares at home, where they stood all game (a pawn never
   returns to its home rank, and only the file's own pawn stands on it), no opponent
   pawn promoted on file x.
8. *Promotion files* (``promotion_files``): when other rules prove that at least k of
   a side's pieces of one class (light bishops, dark bishops, or any) are promoted
   pawns, each on a square that a unit of its type reaches only from promotion squares
   on the given files, at least k of its pawns promoted on those files (on a light or
   dark square for the bishop classes). Different pieces are different promotions.
9. *Pieces taken by pieces* (``piece_captures``): the captures a side's pieces are
   known to have made took opponent *pieces* (initial pieces taken on their home
   squares, see :func:`retro.core.rules.captured_at_home`), so in rule 5 the piece captures
   that can cover an opponent pawn taken on a file are at most the opponent's missing
   units less the landings and less these known captures.

Two answers come without the model. *Promotion-free fates* (True): see
:func:`_promotion_free_fates`, fates that satisfy every rule written down explicitly.
*Too few captures* (False): rules 1-3 for one side alone imply that its pawns made at
least L captures, where L is the least, over all choices of one fate per original pawn
(distinct originals for the pawns on the board, promotions enough of each square colour),
of the sum of the least capture counts these fates allow: |f - g| for a pawn now on file
f from file g (rule 1's smallest count of its parity), 0 or 1 for a promotion by the
colour of its square (rule 2: the square's colour fixes the parity of g + c), 0 for a
taken pawn. Every model solution is such a choice with counts at least these, so when L
exceeds rule 3's budget (the opponent's missing units less the known piece captures) the
model has no solution. L is computed exactly by dynamic programming over the original
files (:func:`_least_pawn_captures`).

The model is written as OR-Tools' public ``CpModelProto`` by :mod:`retro.core.cpsat`,
which solves it without importing ``cp_model.py`` (and its pandas) where it can.

Source: the capture accounting of texel's static rules and proof kernels (paper 002,
"Proving illegality", "Relaxation"), restated as a small constraint problem; rule 4
is the "pawns cannot pass each other on a file" ordering of the extended kernel.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field

import chess

from retro.core import cpsat
from retro.core.cpsat import IntVar, Model

__all__ = ["pawn_fates_feasible", "excess_pieces", "PromotionFiles", "ANY", "LIGHT", "DARK"]


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


Excess = tuple[int, int, int]
"""Promoted pieces a side must have: (queens, rooks and knights; light bishops; dark bishops)."""

ANY, LIGHT, DARK = 0, 1, 2
"""The classes of promoted pieces in a :data:`PromotionFiles` entry: any square colour,
light-squared bishops, dark-squared bishops."""

PromotionFiles = tuple[tuple[int, int, int], ...]
"""Rule 8's facts for one side: (class, k, files mask): at least k promotions of the class
on the files of the mask (bit x for file x)."""


def pawn_fates_feasible(
    board: chess.Board,
    *,
    time_limit: float = 2.0,
    excess: dict[chess.Color, Excess] | None = None,
    piece_captures: dict[chess.Color, int] | None = None,
    promotion_files: dict[chess.Color, PromotionFiles] | None = None,
) -> bool | None:
    """False if no fates satisfy the rules of the module docstring (the position is
    illegal), True if some do, None if CP-SAT ran out of time.

    ``excess`` may raise a side's promoted pieces above :func:`excess_pieces` (when
    other rules prove more pieces promoted), and ``piece_captures`` gives the least
    number of captures of opponent *pieces* that a side's pieces (not pawns) made; rule 3
    then bounds the side's pawn captures by its captures less those, and rule 9 keeps
    them from covering opponent pawns. ``promotion_files`` gives rule 8's facts. All are
    sound when the facts are.

    The answer depends only on the pawns, the excess pieces, the unit counts and these
    bounds, so it is cached on those (retraction trees revisit the same structures).
    Two tests answer without the model: the promotion-free fates (True) and the
    capture-count relaxation of rules 1-3 (False); the model itself is written and solved
    by :mod:`retro.core.cpsat`, which loads OR-Tools' solver without its pandas helpers."""
    excess = excess or {}
    piece_captures = piece_captures or {}
    if not excess and _promotion_free_fates(board, piece_captures):
        return True
    key = fates_key(board, excess, piece_captures, promotion_files or {})
    if _too_few_captures(key):
        return False
    basic = _feasible(key, time_limit, files=False)
    return basic if basic is False else _feasible(key, time_limit, files=True)


def fates_key(
    board: chess.Board,
    excess: dict[chess.Color, Excess],
    piece_captures: dict[chess.Color, int],
    promotion_files: dict[chess.Color, PromotionFiles],
) -> tuple:
    """What the answer of :func:`pawn_fates_feasible` depends on (its cache key, read by
    :func:`_feasible`): the pawns, the excess pieces, the unit counts and the facts."""
    return (
        board.pawns & board.occupied_co[chess.WHITE],
        board.pawns & board.occupied_co[chess.BLACK],
        excess.get(chess.WHITE, excess_pieces(board, chess.WHITE)),
        excess.get(chess.BLACK, excess_pieces(board, chess.BLACK)),
        chess.popcount(board.occupied_co[chess.WHITE]),
        chess.popcount(board.occupied_co[chess.BLACK]),
        piece_captures.get(chess.WHITE, 0),
        piece_captures.get(chess.BLACK, 0),
        tuple(promotion_files.get(color, ()) for color in chess.COLORS),
    )


def _walk_origins(pawns: list[chess.Square], color: chess.Color) -> list[int] | None:
    """Original files for ``pawns`` (sorted by file), distinct, in the same order, each
    within the pawn's ranks advanced of its file, with the fewest file changes in all
    (dynamic programming over the eight files); None when there is no such choice."""
    impossible = 1 << 20
    # best[i][g]: fewest changes placing the first i pawns on originals < g, with origins
    best = [[0] * 9] + [[impossible] * 9 for _ in pawns]
    for i, square in enumerate(pawns, 1):
        f, reach = chess.square_file(square), _relative_rank(square, color)
        for g in range(1, 9):
            best[i][g] = best[i][g - 1]
            if abs(f - (g - 1)) <= reach:
                best[i][g] = min(best[i][g], best[i - 1][g - 1] + abs(f - (g - 1)))
    if best[len(pawns)][8] >= impossible:
        return None
    origins, g = [], 8
    for i in range(len(pawns), 0, -1):  # walk the table back
        while best[i][g] == best[i][g - 1]:
            g -= 1
        origins.append(g - 1)
        g -= 1
    return origins[::-1]


def _promotion_free_fates(board: chess.Board, piece_captures: dict[chess.Color, int] | None = None) -> bool:
    """Whether fates without any promotion satisfy the rules, checked here without the
    model (it spares most queries, and ``retro check`` the import of OR-Tools). The
    fates: neither side has excess pieces; each pawn on the board walked from an
    original file g to its file f capturing straight towards it (c = |f - g|, one
    landing on each file after g up to f), the origins chosen by :func:`_walk_origins`;
    every other original pawn was captured as a pawn on its own file (c = 0).

    The rules then hold when the checks below pass: rule 1 (|f - g| <= ranks advanced,
    in :func:`_walk_origins`; parity holds with c = |f - g|); rule 2 (no excess piece, no
    promotion needed); rule 3 (a side's pawn captures at most the opponent's missing
    units; the opponent's pawns it took, ``8 - pawns``, are at most ``16 - units`` as a
    side without excess pieces has at most 8 pieces); rule 4 (two pawns that never
    captured and share a file, both on the board: White's below Black's; the others
    left their file or were taken on it); rule 5 (the opponent pawns taken on a file x
    are covered by this side's landings on x plus piece captures on x, and the piece
    captures are the opponent's missing units less all landings: so the shortfalls
    ``taken on x - landings on x`` must sum to at most that number); rule 6 concerns
    promoted pawns only. ``tests/retro/test_pawn_fates_fast.py`` checks that CP-SAT
    agrees wherever this answers. With ``piece_captures`` (see :func:`pawn_fates_feasible`)
    the landings must leave that many of the missing units to the pieces, and those
    captures took pieces, not pawns (rule 9)."""
    by_pieces = piece_captures or {}
    if any(excess_pieces(board, color) != (0, 0, 0) for color in chess.COLORS):
        return False
    origins: dict[chess.Color, list[tuple[int, chess.Square]]] = {}
    for color in chess.COLORS:
        pawns = sorted(
            chess.SquareSet(board.pieces_mask(chess.PAWN, color)), key=lambda sq: (chess.square_file(sq), sq)
        )
        found = _walk_origins(pawns, color)
        if found is None:
            return False
        origins[color] = list(zip(found, pawns, strict=True))
    unmoved = {
        color: {chess.square_file(sq): chess.square_rank(sq) for g, sq in origins[color] if g == chess.square_file(sq)}
        for color in chess.COLORS
    }
    for file, white_rank in unmoved[chess.WHITE].items():
        if file in unmoved[chess.BLACK] and white_rank > unmoved[chess.BLACK][file]:
            return False
    for color in chess.COLORS:
        missing = 16 - chess.popcount(board.occupied_co[not color])
        landings = [0] * 8
        for g, square in origins[color]:
            f = chess.square_file(square)
            step = 1 if f > g else -1
            for x in range(g + step, f + step, step) if f != g else ():
                landings[x] += 1
        if sum(landings) > missing - by_pieces.get(color, 0):
            return False
        taken = [1] * 8  # the opponent's originals not on the board, each taken on its own file
        for g, _ in origins[not color]:
            taken[g] = 0
        spare = missing - sum(landings) - by_pieces.get(color, 0)  # piece captures that can take pawns
        if sum(max(0, t - n) for t, n in zip(taken, landings, strict=True)) > spare:
            return False
    return True


def _least_pawn_captures(pawn_mask: chess.Bitboard, color: chess.Color, excess: Excess) -> int | None:
    """The fewest captures the pawns of ``color`` make under rules 1 and 2 alone: each pawn
    on the board from a distinct original file g with c = |f - g| (the least c of rule 1's
    parity), each promotion c = 0 or 1 by the colour its square must have (a promotion of
    no required colour takes the free parity, 0), other originals taken (0). Dynamic
    programming over the original files; None when no fates place the pawns and
    promotions at all."""
    pawns = [(chess.square_file(sq), _relative_rank(sq, color)) for sq in chess.SquareSet(pawn_mask)]
    other, light, dark = excess
    total = other + light + dark
    light_parity = 0 if color == chess.WHITE else 1
    states = {(0, 0, 0, 0): 0}  # (pawns placed, light, dark, all promotions: each capped) -> captures
    for g in range(8):
        after: dict[tuple[int, int, int, int], int] = {}
        light_cost = 0 if g % 2 == light_parity else 1
        for (mask, lights, darks, promotions), cost in states.items():
            moves = [
                ((mask, lights, darks, promotions), cost),  # taken, or a promotion beyond the need
                ((mask, min(lights + 1, light), darks, min(promotions + 1, total)), cost + light_cost),
                ((mask, lights, min(darks + 1, dark), min(promotions + 1, total)), cost + 1 - light_cost),
            ]
            for i, (f, r) in enumerate(pawns):
                if not mask >> i & 1 and abs(f - g) <= r:
                    moves.append(((mask | 1 << i, lights, darks, promotions), cost + abs(f - g)))
            for state, total_cost in moves:
                if after.get(state, 1 << 20) > total_cost:
                    after[state] = total_cost
        states = after
    return states.get(((1 << len(pawns)) - 1, light, dark, total))


def _too_few_captures(key: tuple) -> bool:
    """Whether rules 1-3 fail for one side on their own, checked without the model: the
    fewest captures its pawns make (:func:`_least_pawn_captures`, a relaxation of rules 1
    and 2) exceed rule 3's budget, the opponent's missing units less the known piece
    captures. Then the model (which has these constraints and more) is infeasible."""
    white_pawns, black_pawns, white_excess, black_excess, white_units, black_units, white_pc, black_pc, _ = key
    for color, pawns, excess, their_units, by_pieces in (
        (chess.WHITE, white_pawns, white_excess, black_units, white_pc),
        (chess.BLACK, black_pawns, black_excess, white_units, black_pc),
    ):
        least = _least_pawn_captures(pawns, color, excess)
        if least is None or least > 16 - their_units - by_pieces:
            return True
    return False


Side = tuple[chess.Color, int]  # (colour, g): the original pawn of that colour from file g


@dataclass
class _Fates:
    """The model's variables of each original pawn (colour, g): its capture count, c = 0,
    promoted on a light / dark square, taken as a pawn, and is-it-this-pawn-now for each
    pawn on the board it can be."""

    captures: dict[Side, IntVar] = field(default_factory=dict)
    never_captured: dict[Side, IntVar] = field(default_factory=dict)
    promoted: dict[Side, tuple[IntVar, IntVar]] = field(default_factory=dict)
    taken: dict[Side, IntVar] = field(default_factory=dict)
    on_board: dict[Side, list[tuple[IntVar, chess.Square]]] = field(default_factory=dict)


@functools.lru_cache(maxsize=65536)
def _feasible(key: tuple, time_limit: float, *, files: bool) -> bool | None:
    """Solve the model of rules 1-4, with rules 5-9 when ``files`` (the larger model is
    only built when the small one is feasible)."""
    model = build_model(key, files=files)
    return False if model is None else _solve(model, time_limit)


def build_model(key: tuple, *, files: bool, factory: Callable[[], Model] = Model) -> Model | None:
    """The CP-SAT model of :func:`_feasible`; None when building it already shows it
    infeasible. ``factory`` makes the empty model (a test builds the same model with
    OR-Tools' ``cp_model.CpModel``, whose building methods these are)."""
    (
        white_pawns,
        black_pawns,
        white_excess,
        black_excess,
        white_units,
        black_units,
        white_by_pieces,
        black_by_pieces,
        promotion_files,
    ) = key
    pawn_masks = {chess.WHITE: white_pawns, chess.BLACK: black_pawns}
    excess = {chess.WHITE: white_excess, chess.BLACK: black_excess}
    units = {chess.WHITE: white_units, chess.BLACK: black_units}
    piece_captures = {chess.WHITE: white_by_pieces, chess.BLACK: black_by_pieces}
    model = factory()
    captures_made = {color: 16 - units[not color] for color in chess.COLORS}
    if min(captures_made.values()) < 0:
        return None
    fates = _Fates()
    for color in chess.COLORS:
        pawn_budget = captures_made[color] - piece_captures[color]
        if not _side_fates(model, fates, color, pawn_masks[color], excess[color], pawn_budget):
            return None
    for color in chess.COLORS:
        model.add(sum(fates.taken[(not color, g)] for g in range(8)) <= captures_made[color])
    if files:
        end_file, landings = {}, {}
        for side in fates.captures:
            end_file[side], landings[side] = _capture_walk(model, side, fates.captures[side], fates.on_board[side])
        for color in chess.COLORS:
            known = piece_captures[color]
            _capture_files(model, color, end_file, landings, fates.taken, captures_made[color], known)
            _shut_promotion_squares(model, color, pawn_masks[not color], end_file, fates.promoted)
            own_facts = promotion_files[0 if color == chess.WHITE else 1]
            _promotion_file_facts(model, color, own_facts, end_file, fates.promoted)
            _home_square_blockers(
                model,
                color,
                pawn_masks[not color],
                end_file,
                fates.captures,
                fates.promoted,
                fates.never_captured,
                fates.taken,
            )
    _blocked_files(model, fates)
    return model


def _side_fates(
    model: Model,
    fates: _Fates,
    color: chess.Color,
    pawn_mask: chess.Bitboard,
    excess: tuple[int, int, int],
    captures_made: int,
) -> bool:
    """Rules 1-3 for the pawns of ``color``; False when a pawn on the board can be none
    of the original pawns."""
    pawns = list(chess.SquareSet(pawn_mask))
    by_pawn: dict[chess.Square, list[IntVar]] = {sq: [] for sq in pawns}
    light_promotions, dark_promotions = [], []
    for g in range(8):
        p_light, p_dark = _pawn_fate(model, fates, (color, g), pawns, by_pawn)
        light_promotions.append(p_light)
        dark_promotions.append(p_dark)
    for options in by_pawn.values():
        if not options:
            return False
        model.add_exactly_one(options)
    other, light, dark = excess
    model.add(sum(light_promotions) >= light)
    model.add(sum(dark_promotions) >= dark)
    model.add(sum(light_promotions) + sum(dark_promotions) >= other + light + dark)
    model.add(sum(fates.captures[(color, g)] for g in range(8)) <= captures_made)
    return True


def _pawn_fate(
    model: Model,
    fates: _Fates,
    side: Side,
    pawns: list[chess.Square],
    by_pawn: dict[chess.Square, list[IntVar]],
) -> tuple[IntVar, IntVar]:
    """Rules 1 and 2 for one original pawn: exactly one fate, with its capture count; the
    promotion variables (light, dark) are returned."""
    color, g = side
    light_parity = 0 if color == chess.WHITE else 1  # (g + c) parity of a light promotion square
    c = model.new_int_var(0, 6, f"c{int(color)}{g}")
    zero = model.new_bool_var(f"z{int(color)}{g}")
    model.add(c == 0).only_enforce_if(zero)
    model.add(c >= 1).only_enforce_if(zero.Not())
    p_light = model.new_bool_var(f"pl{int(color)}{g}")
    p_dark = model.new_bool_var(f"pd{int(color)}{g}")
    x = model.new_bool_var(f"x{int(color)}{g}")
    half = model.new_int_var(0, 7, f"h{int(color)}{g}")
    parity = model.new_bool_var(f"q{int(color)}{g}")
    model.add(c + g == 2 * half + parity)
    model.add(parity == light_parity).only_enforce_if(p_light)
    model.add(parity != light_parity).only_enforce_if(p_dark)
    model.add(c <= 5).only_enforce_if(x)
    choices = [p_light, p_dark, x]
    fates.on_board[side] = []
    for square in pawns:
        f, r = chess.square_file(square), _relative_rank(square, color)
        if abs(f - g) > r:
            continue
        is_here = model.new_bool_var(f"a{int(color)}{g}{square}")
        k = model.new_int_var(0, 3, f"k{int(color)}{g}{square}")
        model.add(c == abs(f - g) + 2 * k).only_enforce_if(is_here)
        model.add(c <= r).only_enforce_if(is_here)
        choices.append(is_here)
        by_pawn[square].append(is_here)
        fates.on_board[side].append((is_here, square))
    model.add_exactly_one(choices)
    fates.captures[side] = c
    fates.never_captured[side] = zero
    fates.promoted[side] = (p_light, p_dark)
    fates.taken[side] = x
    return p_light, p_dark


def _blocked_files(model: Model, fates: _Fates) -> None:
    """Rule 4: two pawns of a file that never captured cannot pass each other."""
    never_captured, on_board = fates.never_captured, fates.on_board
    for g in range(8):
        both_stayed = [never_captured[(chess.WHITE, g)], never_captured[(chess.BLACK, g)]]
        for color in chess.COLORS:
            for promotion in fates.promoted[(color, g)]:
                # promoted without leaving file g => the opponent's g-pawn left it or was taken
                model.add_bool_or([never_captured[(not color, g)].Not(), fates.taken[(not color, g)]]).only_enforce_if(
                    [promotion, never_captured[(color, g)]]
                )
        for white_here, white_square in on_board[(chess.WHITE, g)]:
            for black_here, black_square in on_board[(chess.BLACK, g)]:
                if chess.square_rank(white_square) > chess.square_rank(black_square):
                    model.add_bool_or([b.Not() for b in both_stayed] + [white_here.Not(), black_here.Not()])


def _solve(model: Model, time_limit: float) -> bool | None:
    """False when CP-SAT proves the model infeasible, True when it finds a solution, None otherwise."""
    # these small models solve 2-3x faster without presolve and LP relaxation
    parameters = {
        "max_time_in_seconds": time_limit,
        "num_workers": 1,
        "cp_model_presolve": False,
        "linearization_level": 0,
    }
    status = cpsat.solve(model, parameters).status
    if status == cpsat.INFEASIBLE:
        return False
    if status in (cpsat.FEASIBLE, cpsat.OPTIMAL):
        return True
    return None


def _capture_walk(
    model: Model,
    key: tuple[chess.Color, int],
    c: IntVar,
    here: list[tuple[IntVar, chess.Square]],
) -> tuple[list, list]:
    """Rule 5 for one pawn: its end file (one BoolVar per file) and the captures landing
    on each file (linear expressions)."""
    color, g = key
    name = f"{int(color)}{g}"
    end = [model.new_bool_var(f"e{name}{x}") for x in range(8)]
    model.add_exactly_one(end)
    right = [model.new_int_var(0, 6, f"r{name}{x}") for x in range(7)]
    left = [model.new_int_var(0, 6, f"l{name}{x}") for x in range(7)]
    for x in range(7):
        beyond = sum(end[x + 1 :])  # 1 when the walk ends right of boundary x|x+1
        model.add(right[x] - left[x] == (beyond if x >= g else beyond - 1))
    model.add(sum(right) + sum(left) == c)
    used = [right[x] + left[x] for x in range(7)]
    for x in range(g + 1, 7):  # a walk ending left of x reaches x+1 only through x-1|x
        model.add(used[x] <= 6 * used[x - 1] + 6 * sum(end[x:]))
    for x in range(g - 1):  # and, mirrored, one ending right of x+1 reaches x from x+2
        model.add(used[x] <= 6 * used[x + 1] + 6 * sum(end[: x + 1]))
    for is_here, square in here:
        model.add(end[chess.square_file(square)] == 1).only_enforce_if(is_here)
    landings = [(right[x - 1] if x > 0 else 0) + (left[x] if x < 7 else 0) for x in range(8)]
    return end, landings


def _capture_files(
    model: Model,
    color: chess.Color,
    end_file: dict,
    landings: dict,
    taken: dict,
    missing: int,
    pieces_taken_by_pieces: int = 0,
) -> None:
    """Rules 5 and 9 for the captures ``color`` made: per file, the opponent pawns taken
    there are at most the captures landing there plus the piece captures there, which
    leave out the ``pieces_taken_by_pieces`` known captures of opponent pieces."""
    piece_captures = [model.new_int_var(0, 15, f"pc{int(color)}{x}") for x in range(8)]
    total = []
    for x in range(8):
        landed = sum(landings[(color, g)][x] for g in range(8))
        total.append(landed)
        taken_here = []
        for g in range(8):
            victim = (not color, g)
            here = model.new_bool_var(f"t{int(color)}{g}{x}")
            model.add_bool_or([taken[victim].Not(), end_file[victim][x].Not(), here])
            taken_here.append(here)
        model.add(sum(taken_here) <= landed + piece_captures[x])
    model.add(sum(total) + sum(piece_captures) == missing - pieces_taken_by_pieces)


def _shut_promotion_squares(
    model: Model, color: chess.Color, blockers: chess.Bitboard, end_file: dict, promoted: dict
) -> None:
    """Rule 7: no pawn of ``color`` promoted on a file whose square before the promotion
    square and both neighbours of it hold the opponent's pawns at home (``blockers``)."""
    before_rank = 1 if color == chess.BLACK else 6  # the opponent's home rank
    for x in range(8):
        origins = [chess.square(y, before_rank) for y in (x - 1, x, x + 1) if 0 <= y < 8]
        if all(blockers & chess.BB_SQUARES[square] for square in origins):
            for g in range(8):
                for promotion in promoted[(color, g)]:
                    model.add_implication(promotion, end_file[(color, g)][x].Not())


def _promotion_file_facts(
    model: Model, color: chess.Color, facts: PromotionFiles, end_file: dict, promoted: dict
) -> None:
    """Rule 8: at least k promotions of ``color`` of each fact's class on its files."""
    for number, (kind, count, files) in enumerate(facts):
        hits = []
        for g in range(8):
            p_light, p_dark = promoted[(color, g)]
            hit = model.new_bool_var(f"pf{int(color)}{number}{g}")
            if kind == LIGHT:
                model.add_implication(hit, p_light)
            elif kind == DARK:
                model.add_implication(hit, p_dark)
            else:
                model.add_bool_or([p_light, p_dark]).only_enforce_if(hit)
            model.add_bool_or([end_file[(color, g)][x] for x in range(8) if files >> x & 1]).only_enforce_if(hit)
            hits.append(hit)
        model.add(sum(hits) >= count)


def _home_square_blockers(
    model: Model,
    color: chess.Color,
    blockers: chess.Bitboard,
    end_file: dict,
    captures: dict,
    promoted: dict,
    never_captured: dict,
    taken: dict,
) -> None:
    """Rule 6: ``color``'s pawns promoting on a file where the opponent's pawn (in
    ``blockers``) is still on its home square."""
    home_rank = 1 if color == chess.BLACK else 6  # the opponent's home rank
    for x in range(8):
        if not blockers & chess.BB_SQUARES[chess.square(x, home_rank)]:
            continue
        for g in range(8):
            key = (color, g)
            here = model.new_bool_var(f"hp{int(color)}{g}{x}")
            for promotion in promoted[key]:
                model.add_bool_or([promotion.Not(), end_file[key][x].Not(), here])
            model.add(captures[key] >= 1).only_enforce_if(here)
            only_one = model.new_bool_var(f"o{int(color)}{g}{x}")
            model.add(captures[key] != 1).only_enforce_if(only_one.Not())
            model.add_bool_or([here.Not(), only_one.Not(), never_captured[(not color, g)].Not(), taken[(not color, g)]])

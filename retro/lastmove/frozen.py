"""Frozen units: units that can never have moved, and a king shielded on one square.

A set F of units of a position P is **frozen** when, for every unit u of F, no move of u
can have been the latest move of a game reaching a position in which F stands as in P
(under the invariant below). Then, going back from P move by move, no unit of F ever
moves: each stood on its square, with its kind, in the initial array. So P is
**illegal when a frozen unit is not the initial array's unit of its square**. This module
finds the largest frozen set (a greatest fixpoint: start with every unit, drop a unit
whose moves cannot all be refuted by the units still in the set, until nothing is dropped)
and applies the rule, in two variants.

**Plain.** Invariant I(Q): every unit of F stands on its P square (it is "in place").

**Shielded king** (Hwa 2022, Figure 5: Darvall's knight regress). A king K of colour c on
k, an enemy bishop, rook or queen S on t along a line with exactly one square s between
them; F holds every unit of P but the one on s. Invariant I(Q): F is in place, and s is
occupied or c is to move. (With s empty S attacks K, so c must be to move.) I(P) must hold
(s occupied in P, or c to move in P). In the initial array no king has an enemy slider
two squares away, so F never contains both K and S when the rule's premise holds (the rule
then fires on K or S not being an initial unit).

**Proof (both variants).** Let P_0, ..., P_T = P be a game and m_t the move from P_(t-1)
to P_t. Suppose I(P_t); we show I(P_(t-1)), so by induction I(P_0): every unit of F stands
on its P square in the initial array (a unit that never moves keeps its kind), which is the
rule. Let u be the unit that moved in m_t (castling moves two: a king on its c/g square
and a rook on its d/f square are never frozen, so castling moves no frozen unit).

1. u is in F: impossible, by the refutations below (each shows P_(t-1) is illegal or
   contradicts I(P_t)).
2. u is not in F (plain): F did not move, I(P_(t-1)) holds.
3. u is not in F (shield): F did not move. If s is occupied in P_(t-1), I holds. Else s
   is empty in P_(t-1), K on k and S on t: S attacks K, so c is to move in P_(t-1) (the
   side not to move is never in check): I holds.

**Refutations** of a move of u in F from an origin o (through the squares ``path``, as
the kind it had before the move: a pawn for a promotion) to its square q. F \\ {u} is in
place in P_(t-1) (only u moved). Plain variant, and the shield variant in case A (s
occupied in P_t: the unit there stays on it in P_(t-1), as u lands on q, not s):

* o, or a square of ``path``, holds a unit of F \\ {u} (or is s, in case A): those
  squares were occupied in P_(t-1), so u could not start from or pass them.
* *check from the origin*: u on o attacks the enemy king (in F) by contact (a pawn
  capture, a knight jump, a step along u's line): in P_(t-1) u's side is to move and the
  enemy king is in check: illegal.
* *king walked into check*: u is a king, and a unit v of F of the other colour attacks o
  by contact. In P_(t-1) u's side is to move and in check, so P_(t-1) is not the
  initial position and P_(t-2), with the other side to move, had no such check: v moved
  in m_(t-1) (a contact attack cannot be discovered). F \\ {u, v} and u (on o) are in place
  in P_(t-2); v's move is refuted when each of its origins (or paths) meets those
  squares (or s, in case A), or v on its origin attacks o by contact (the side to move
  in P_(t-2) would give check). (In case B below this is used only when no origin or path
  of v is s.)

Shield variant, case B (s empty in P_t, so by I(P_t) c is to move and u is not of
colour c; a unit of colour c cannot have made m_t):

* o is s: u on s in P_(t-1), the other side to move: refuted when u on s attacks k by
  contact (c would be in check with the other side to move).
* o is not s, u is not S, and u is not a pawn capturing en passant a pawn on s: s is
  empty in P_(t-1) as well, the other side is to move and S on t attacks K: P_(t-1) is
  illegal.
* u is S: the refutations of case A (without the s clause).
"""

from __future__ import annotations

import chess

from retro.core.rules import _HOME_RANK_PAWNS, _steps_of

__all__ = ["frozen_units_reason"]

_INITIAL = chess.Board()
_CASTLED_KING = {chess.WHITE: chess.BB_C1 | chess.BB_G1, chess.BLACK: chess.BB_C8 | chess.BB_G8}
_CASTLED_ROOK = {chess.WHITE: chess.BB_D1 | chess.BB_F1, chess.BLACK: chess.BB_D8 | chess.BB_F8}

Origin = tuple[chess.Square, tuple[chess.Square, ...], chess.PieceType]
"""(origin square, squares passed between origin and destination, kind before the move)."""


def _origins(square: chess.Square, piece: chess.Piece) -> list[Origin] | None:
    """Every way the unit ``piece`` on ``square`` can have arrived there in one move, on
    any board (a superset is fine: it only makes a unit harder to freeze); None when it
    may have arrived by castling (never refuted here)."""
    kind, color = piece.piece_type, piece.color
    bit = chess.BB_SQUARES[square]
    back = -8 if color == chess.WHITE else 8
    if (kind == chess.KING and bit & _CASTLED_KING[color]) or (kind == chess.ROOK and bit & _CASTLED_ROOK[color]):
        return None
    pawn_from = [(o, (), chess.PAWN) for o in chess.SquareSet(chess.BB_PAWN_ATTACKS[not color][square])]
    if kind == chess.PAWN:
        if chess.square_rank(square) in (0, 7) or bit & _HOME_RANK_PAWNS[color]:
            return []
        one = square + back
        result: list[Origin] = [(one, (), chess.PAWN), *pawn_from]
        if chess.BB_SQUARES[one + back] & _HOME_RANK_PAWNS[color]:
            result.append((one + back, (one,), chess.PAWN))
        return result
    result = []
    if kind != chess.KING and chess.square_rank(square) == (7 if color == chess.WHITE else 0):
        result += [(square + back, (), chess.PAWN), *pawn_from]
    if kind in (chess.KNIGHT, chess.KING):
        table = chess.BB_KNIGHT_ATTACKS if kind == chess.KNIGHT else chess.BB_KING_ATTACKS
        return result + [(o, (), kind) for o in chess.SquareSet(table[square])]
    lines = chess.BB_DIAG_ATTACKS[square][0] if kind != chess.ROOK else chess.BB_EMPTY  # slides on an empty board
    if kind != chess.BISHOP:
        lines |= chess.BB_RANK_ATTACKS[square][0] | chess.BB_FILE_ATTACKS[square][0]
    return result + [(o, tuple(chess.SquareSet(chess.between(square, o))), kind) for o in chess.SquareSet(lines)]


def _attacks(kind: chess.PieceType, color: chess.Color, origin: chess.Square, target: chess.Square | None) -> bool:
    """Does a ``kind`` of ``color`` on ``origin`` attack ``target`` by contact?"""
    return target is not None and bool(_steps_of(chess.Piece(kind, color), origin) & chess.BB_SQUARES[target])


class _Freezer:
    """The greatest frozen set of one variant: ``shield`` is None (plain) or (k, s, t)."""

    def __init__(self, board: chess.Board, shield: tuple[chess.Square, chess.Square, chess.Square] | None) -> None:
        self.board = board
        self.shield = shield
        self.frozen = set(chess.SquareSet(board.occupied))
        if shield is not None:
            self.frozen.discard(shield[1])
            self.color = board.color_at(shield[0])

    def fixpoint(self) -> set[chess.Square]:
        changed = True
        while changed:
            changed = False
            for square in sorted(self.frozen):
                cases = ("plain",) if self.shield is None else ("occupied", "open")
                if not all(self._refuted(square, case) for case in cases):
                    self.frozen.discard(square)
                    changed = True
        if self.shield is not None and not {self.shield[0], self.shield[2]} <= self.frozen:
            return set()  # the refutations of case B assumed K and S in place
        return self.frozen

    def _refuted(self, square: chess.Square, case: str) -> bool:
        """Can the unit on ``square`` not have made the latest move (in ``case``)?"""
        piece = self.board.piece_at(square)
        assert piece is not None
        if case == "open" and piece.color == self.color:
            return True
        origins = _origins(square, piece)
        if origins is None:
            return False
        others = self.frozen - {square}
        return all(self._origin_refuted(square, piece, origin, others, case) for origin in origins)

    def _origin_refuted(
        self, square: chess.Square, piece: chess.Piece, origin: Origin, others: set[chess.Square], case: str
    ) -> bool:
        start, path, kind = origin
        if start in others or others.intersection(path):
            return True
        if self.shield is not None:
            king, middle, slider = self.shield
            if case == "occupied" and (start == middle or middle in path):
                return True
            if case == "open" and start == middle:
                return _attacks(kind, piece.color, middle, king)
            passed_pawn = chess.square(chess.square_file(square), chess.square_rank(start))
            if case == "open" and square != slider and not (kind == chess.PAWN and passed_pawn == middle):
                return True
        enemy_king = self.board.king(not piece.color)
        if enemy_king in others and _attacks(kind, piece.color, start, enemy_king):
            return True
        if piece.piece_type != chess.KING:
            return False
        return any(
            self._checker_refuted(checker, start, others - {checker}, case)
            for checker in others
            if self.board.color_at(checker) != piece.color
            and _attacks(self.board.piece_type_at(checker) or chess.PAWN, not piece.color, checker, start)
        )

    def _checker_refuted(self, checker: chess.Square, king: chess.Square, others: set[chess.Square], case: str) -> bool:
        """Can the unit on ``checker`` not have moved there just before the king stepped
        from ``king`` (with ``others`` and the king in place)?"""
        piece = self.board.piece_at(checker)
        assert piece is not None
        origins = _origins(checker, piece)
        if origins is None:
            return False
        blockers = others | {king}
        for start, path, kind in origins:
            if start in blockers or blockers.intersection(path):
                continue
            if self.shield is not None and (start == self.shield[1] or self.shield[1] in path):
                if case == "occupied":
                    continue
                return False
            if _attacks(kind, piece.color, start, king):
                continue
            return False
        return True


def _shields(board: chess.Board) -> list[tuple[chess.Square, chess.Square, chess.Square]]:
    """Every (k, s, t) of the shield variant whose premise I(P) holds."""
    result = []
    for color in chess.COLORS:
        king = board.king(color)
        if king is None:
            continue
        sliders = board.occupied_co[not color] & (board.bishops | board.rooks | board.queens)
        for slider in chess.SquareSet(sliders):
            between = chess.between(king, slider)
            if chess.popcount(between) != 1:
                continue
            middle = chess.lsb(between)
            diagonal = chess.square_file(king) != chess.square_file(slider) and chess.square_rank(
                king
            ) != chess.square_rank(slider)
            kind = board.piece_type_at(slider)
            if kind != chess.QUEEN and (kind == chess.BISHOP) != diagonal:
                continue
            if board.piece_at(middle) is not None or board.turn == color:
                result.append((king, middle, slider))
    return result


def frozen_units_reason(board: chess.Board) -> str | None:
    """Why ``board`` is illegal by the frozen-units rule (module docstring), or None."""
    variants: list[tuple[chess.Square, chess.Square, chess.Square] | None] = [None, *_shields(board)]
    for shield in variants:
        frozen = _Freezer(board, shield).fixpoint()
        for square in sorted(frozen, key=lambda sq: (shield is None or sq != shield[0], sq)):
            if _INITIAL.piece_at(square) != board.piece_at(square):
                piece = board.piece_at(square)
                assert piece is not None
                name = f"{chess.COLOR_NAMES[piece.color]} {chess.piece_name(piece.piece_type)}"
                if shield is None:
                    return f"the {name} on {chess.square_name(square)} can never have moved (frozen units)"
                king, middle, slider = shield
                return (
                    f"the {name} on {chess.square_name(square)} can never have moved while "
                    f"{chess.square_name(middle)} shields the king on {chess.square_name(king)} "
                    f"from {chess.square_name(slider)} (frozen units)"
                )
    return None

"""Blocked squares: squares whose piece can never move in any game from ``init`` to ``goal``.

Source: texel documentation (paper 002, "Blocked squares"). A square is *blocked* when
the same piece stands on it in ``init`` and in ``goal`` and that piece provably never
moves; then no other unit is ever on that square either.

Rules, each with its soundness argument (the result is a greatest fixpoint, computed by
starting from all candidates and removing those the rules cannot keep):

1. **Castling rights.** If ``goal`` keeps a castling right, its king and rook never
   moved (FIDE 3.8.2.1: a right, once lost, never returns), so they must stand on the
   same squares in ``init``, and those squares are blocked.
2. **Pawns.** Let B be the set of candidate pawns (same colour pawn on the same square
   in both positions). B is sound if no pawn of ``init`` outside B can ever reach the
   square of a pawn in B. Proof: suppose a pawn P in B moves in some game. Its square
   s must later hold a pawn of its colour again (the goal has one there), and pawns
   never move backwards, so another pawn Q reaches s, from a square behind s. If Q is
   in B, Q's own square must in turn be refilled by a third pawn R from further behind,
   and so on; the ranks strictly decrease, so the chain ends with a pawn outside B
   reaching the square of a pawn in B, which was excluded (the same holds if P is
   captured on s: s must be refilled all the same). "Can reach" is the pawn
   cone: forward, with at most as many file changes as the colour has captures left
   (units of the other colour in ``init`` minus those in ``goal``).
3. **Pieces that cannot step.** A king, queen, rook, bishop or knight X on the same
   square s in both positions whose every one-step destination (knight jumps, the first
   square of each ray) is a blocked square can never move: a blocked square is never
   vacated, and the unit on it is never captured. A king moreover can never step onto
   a square attacked by a blocked enemy pawn (that pawn stands there for the whole
   game, so the move would be illegal). Such a king is blocked (kings are never
   captured). Another piece X could still be captured on s and replaced by a unit of
   the same kind and colour arriving later; a unit arrives on s as an X either by an X
   move, from one of those same one-step squares (moves are symmetric), or by a pawn
   promoting on s, from the squares behind s on the colour's last rank. So X is
   blocked when, in addition, s is not on its colour's last rank or the squares a
   pawn would promote from are blocked. Examples: the paper's bishop on c8 between
   blocked pawns b7 and d7 is blocked; texel's bishop on a8 beside a blocked b7 is not
   (a rook can take it via a7 and an a-pawn promote to a new bishop on a8).

Rules 2 and 3 feed each other (a blocked piece blocks a square that boxes in another),
so they are iterated until nothing changes.

**Confined units taken by a piece** (:func:`taken_by_piece`, our rule). A piece X
(not a king) of ``init`` on a square s whose every one-step destination is a blocked
square never moves, as in rule 3. When the goal does not have X's piece on s, X was
captured on s. When moreover every square from which an enemy pawn could capture
onto s (the two diagonal squares behind s from the enemy's side) is blocked or off
the board, no enemy pawn ever stands there, so the capturer was an enemy piece (or
king). Example: White's c1 bishop with blocked pawns on b2 and d2 and c1 empty in the
goal was taken on c1 by a black piece, never by a pawn.
"""

from __future__ import annotations

import chess

__all__ = ["blocked_squares", "capture_budget", "one_step_destinations", "pawn_can_reach", "taken_by_piece"]

_KING_STEPS = chess.BB_KING_ATTACKS
_ROOK_STEPS = [chess.BB_RANK_ATTACKS[sq][0] | chess.BB_FILE_ATTACKS[sq][0] for sq in chess.SQUARES]
_ROOK_STEPS = [m & _KING_STEPS[sq] for sq, m in enumerate(_ROOK_STEPS)]
_BISHOP_STEPS = [chess.BB_DIAG_ATTACKS[sq][0] & _KING_STEPS[sq] for sq in chess.SQUARES]


def _units(board: chess.Board, color: chess.Color) -> int:
    """Units of ``color`` on the board, king excluded."""
    return chess.popcount(board.occupied_co[color] & ~board.kings)


def capture_budget(init: chess.Board, goal: chess.Board, color: chess.Color) -> int:
    """Captures ``color`` makes on the way from ``init`` to ``goal``: the other side's
    units (kings excluded) that disappear. Negative when the goal has more."""
    return _units(init, not color) - _units(goal, not color)


def pawn_can_reach(color: chess.Color, start: chess.Square, target: chess.Square, captures: int) -> bool:
    """Whether a pawn of ``color`` on ``start`` can ever stand on ``target`` using at most
    ``captures`` captures (each capture changes the file by one)."""
    forward = chess.square_rank(target) - chess.square_rank(start)
    if color == chess.BLACK:
        forward = -forward
    files = abs(chess.square_file(target) - chess.square_file(start))
    return forward > 0 and files <= forward and files <= captures and chess.square_rank(target) not in (0, 7)


def one_step_destinations(piece_type: chess.PieceType, square: chess.Square) -> int:
    """The squares a knight, bishop, rook, queen or king (any other type: a king's) on
    ``square`` reaches in one step: a slider's adjacent squares in its directions."""
    if piece_type == chess.KNIGHT:
        return chess.BB_KNIGHT_ATTACKS[square]
    if piece_type == chess.BISHOP:
        return _BISHOP_STEPS[square]
    if piece_type == chess.ROOK:
        return _ROOK_STEPS[square]
    return _KING_STEPS[square]


def _replaceable(piece: chess.Piece, square: chess.Square, blocked: int) -> bool:
    """Whether a pawn could promote on ``square`` to replace ``piece`` (rule 3)."""
    if piece.piece_type == chess.KING:
        return False
    last = 7 if piece.color == chess.WHITE else 0
    if chess.square_rank(square) != last:
        return False
    behind = chess.BB_SQUARES[square - 8 if piece.color == chess.WHITE else square + 8]
    behind |= chess.BB_PAWN_ATTACKS[not piece.color][square]
    return bool(behind & ~blocked)


def blocked_squares(goal: chess.Board, init: chess.Board | None = None) -> int:
    """Bitboard of the blocked squares between ``init`` (default: the start position)
    and ``goal``. See the module docstring for the rules and their proofs."""
    init = chess.Board() if init is None else init
    same = 0
    for square in chess.scan_forward(init.occupied & goal.occupied):
        if init.piece_at(square) == goal.piece_at(square):
            same |= chess.BB_SQUARES[square]
    forced = 0
    rights = goal.clean_castling_rights()
    for color, king_square in ((chess.WHITE, chess.E1), (chess.BLACK, chess.E8)):
        rook_rights = rights & (chess.BB_RANK_1 if color == chess.WHITE else chess.BB_RANK_8)
        if rook_rights:
            forced |= (chess.BB_SQUARES[king_square] | rook_rights) & same
    budgets = {color: capture_budget(init, goal, color) for color in chess.COLORS}

    pawn_candidates = same & init.pawns
    blocked_pawns = pawn_candidates
    while True:
        kept = 0
        for square in chess.scan_forward(blocked_pawns):
            color = bool(init.occupied_co[chess.WHITE] & chess.BB_SQUARES[square])
            movers = init.pawns & init.occupied_co[color] & ~blocked_pawns
            if not any(pawn_can_reach(color, other, square, budgets[color]) for other in chess.scan_forward(movers)):
                kept |= chess.BB_SQUARES[square]
        if kept == blocked_pawns:
            break
        blocked_pawns = kept

    blocked = blocked_pawns | forced
    piece_candidates = same & ~init.pawns & ~forced
    while True:
        grown = blocked
        for square in chess.scan_forward(piece_candidates & ~blocked):
            piece = init.piece_at(square)
            assert piece is not None
            destinations = one_step_destinations(piece.piece_type, square) & ~blocked
            if piece.piece_type == chess.KING:
                enemy_pawns = blocked & init.pawns & init.occupied_co[not piece.color]
                for pawn in chess.scan_forward(enemy_pawns):
                    destinations &= ~chess.BB_PAWN_ATTACKS[not piece.color][pawn]
            if not destinations and not _replaceable(piece, square, blocked):
                grown |= chess.BB_SQUARES[square]
        if grown == blocked:
            return blocked
        blocked = grown


def taken_by_piece(init: chess.Board, goal: chess.Board, blocked: int) -> int:
    """Squares of ``init`` whose piece never moves, is missing from the goal and can have
    been captured only by an enemy piece; ``blocked`` is :func:`blocked_squares` of the
    two positions (the rule and its proof: module docstring)."""
    squares = 0
    for square in chess.scan_forward(init.occupied & ~init.pawns & ~init.kings & ~blocked):
        piece = init.piece_at(square)
        assert piece is not None
        if goal.piece_at(square) == piece or one_step_destinations(piece.piece_type, square) & ~blocked:
            continue
        # an enemy pawn captures onto the square from where a pawn of the piece's colour
        # standing on it would attack
        if chess.BB_PAWN_ATTACKS[piece.color][square] & ~blocked:
            continue
        squares |= chess.BB_SQUARES[square]
    return squares

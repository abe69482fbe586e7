"""KRK positions (white king and rook against the black king) as Maric's paper encodes them.

Source: ``004`` (the KRK legality paper), sections 4.1-4.3 and 5.2.

* A position is the three squares and the side to move. Its *code* is the paper's
  19-bit ``nPos``: ``turn << 18 | rook << 12 | black_king << 6 | white_king`` with
  ``turn`` 1 when White is to move; a square is ``8 * y + x`` exactly as the paper packs
  ``(x, y)`` in 6 bits, which is also python-chess's ``chess.Square``.
* **Initially legal** (section 4.2, ``LegalKRKPosition``): white king and rook on
  different squares, the kings neither on the same nor on adjacent squares, the rook
  not captured (the paper's convention: a captured rook is coded as standing on the
  black king's square) and, with White to move, the black king not attacked by the
  rook (the white king may block). Lippold calls the other positions *initially
  illegal*. Under this convention there are 399,112 initially legal codes.
* A **move** (section 4.3) leads from an initially legal position to an initially legal
  one: a king step, or a rook move along a rank or file over empty squares, by the side
  to move. The black king never captures the rook here (the result would not be KRK),
  so a *predecessor* is found by retracting a move inside KRK, without uncaptures,
  un-promotions or castling (see :mod:`retro.krk.outside` for those).
* **PFix** (Figure 8): white king e5, black king c5, white rook h1, either side to move.
  The **measure** (section 5.2) is
  ``M = 2*CDWK + MDWK + 2*CDBK + MDBK + DWR``: Chebyshev and Manhattan distances of each
  king to its PFix square, and the number of rook moves to h1 on an empty board (0, 1
  or 2). ``M(P) == 0`` exactly for the two PFix positions.

Move generation uses python-chess's attack tables (``BB_KING_ATTACKS``, the rank and
file slider tables, ``chess.between``).
"""

from __future__ import annotations

from dataclasses import dataclass

import chess

from retro.core.position import parse_fen

__all__ = [
    "NotKrkPositionError",
    "KrkPosition",
    "parse_krk",
    "rook_attacks",
    "illegality_reason",
    "is_initially_legal",
    "candidate_moves",
    "predecessors",
    "successors",
    "measure",
    "PFIX_WHITE",
    "PFIX_BLACK",
    "PFIX_SQUARES",
    "CODE_COUNT",
]

CODE_COUNT = 1 << 19
"""Number of 19-bit position codes (2 sides x 64^3 square triples)."""

PFIX_SQUARES = (chess.E5, chess.C5, chess.H1)
"""White king, black king, white rook in PFix (paper, Figure 8)."""


class NotKrkPositionError(ValueError):
    """A well-formed FEN that is not a KRK position (white K+R against a lone black king)."""


def rook_attacks(square: chess.Square, occupied: chess.Bitboard) -> chess.Bitboard:
    """Squares a rook on ``square`` attacks when ``occupied`` holds the blockers."""
    return (
        chess.BB_RANK_ATTACKS[square][chess.BB_RANK_MASKS[square] & occupied]
        | chess.BB_FILE_ATTACKS[square][chess.BB_FILE_MASKS[square] & occupied]
    )


@dataclass(frozen=True, order=True)
class KrkPosition:
    """Three squares and the side to move; any code, initially legal or not."""

    white_king: chess.Square
    black_king: chess.Square
    white_rook: chess.Square
    white_to_move: bool

    @property
    def code(self) -> int:
        """The paper's 19-bit ``nPos``."""
        return (int(self.white_to_move) << 18) | (self.white_rook << 12) | (self.black_king << 6) | self.white_king

    @classmethod
    def from_code(cls, code: int) -> KrkPosition:
        if not 0 <= code < CODE_COUNT:
            raise ValueError(f"a KRK code has 19 bits, got {code}")
        return cls(code & 63, (code >> 6) & 63, (code >> 12) & 63, bool(code >> 18))

    @classmethod
    def from_board(cls, board: chess.Board) -> KrkPosition:
        """The KRK position of ``board``; NotKrkPositionError unless it holds exactly WK, WR, BK."""
        white, black = board.occupied_co[chess.WHITE], board.occupied_co[chess.BLACK]
        white_king, white_rook, black_king = board.kings & white, board.rooks & white, board.kings & black
        if (
            white != white_king | white_rook
            or black != black_king
            or not chess.popcount(white_king) == chess.popcount(white_rook) == chess.popcount(black_king) == 1
        ):
            raise NotKrkPositionError(
                f"not a KRK position (white king and rook against the black king): {board.board_fen()}"
            )
        if board.castling_rights:
            raise NotKrkPositionError("castling rights are not part of the KRK model; use '-'")
        if board.ep_square is not None:
            raise NotKrkPositionError("an en-passant square makes no sense without pawns; use '-'")
        return cls(chess.lsb(white_king), chess.lsb(black_king), chess.lsb(white_rook), board.turn)

    def board(self) -> chess.Board:
        """The python-chess board (the three squares must differ)."""
        if len({self.white_king, self.black_king, self.white_rook}) != 3:
            raise ValueError(f"code {self.code} puts two units on one square; no board for it")
        board = chess.Board(None)
        board.set_piece_at(self.white_king, chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(self.black_king, chess.Piece(chess.KING, chess.BLACK))
        board.set_piece_at(self.white_rook, chess.Piece(chess.ROOK, chess.WHITE))
        board.turn = self.white_to_move
        return board

    def fen(self) -> str:
        """Four-field FEN (placement, side, ``-``, ``-``)."""
        return self.board().epd()

    def __str__(self) -> str:
        return (
            f"K{chess.square_name(self.white_king)} R{chess.square_name(self.white_rook)} "
            f"k{chess.square_name(self.black_king)} {'w' if self.white_to_move else 'b'}"
        )


PFIX_WHITE = KrkPosition(*PFIX_SQUARES, True)
PFIX_BLACK = KrkPosition(*PFIX_SQUARES, False)


def parse_krk(fen: str) -> KrkPosition:
    """Parse a FEN (4 to 6 fields); InvalidFenError or NotKrkPositionError (both ValueError)."""
    return KrkPosition.from_board(parse_fen(fen).board)


def illegality_reason(position: KrkPosition) -> str | None:
    """Why ``position`` is initially illegal (paper, section 4.2), or None if it is initially legal."""
    wk, bk, wr = position.white_king, position.black_king, position.white_rook
    if wk == wr:
        return "the white king and the rook stand on the same square"
    if wk == bk:
        return "the kings stand on the same square"
    if bk == wr:
        return "the rook is captured (coded as the black king on the rook's square)"
    if chess.square_distance(wk, bk) < 2:
        return "the kings stand on adjacent squares"
    if position.white_to_move and rook_attacks(wr, chess.BB_SQUARES[wk]) & chess.BB_SQUARES[bk]:
        return "the black king is in check with White to move"
    return None


def is_initially_legal(position: KrkPosition) -> bool:
    return illegality_reason(position) is None


def candidate_moves(position: KrkPosition, *, backwards: bool) -> list[tuple[chess.Move, KrkPosition]]:
    """King steps and rook slides of the side that moves (forwards: the side to move;
    backwards: the other side, retracted), paired with the position at the other end,
    whether or not that position is initially legal. Rook slides stop at the kings."""
    wk, bk, wr, turn = position.white_king, position.black_king, position.white_rook, position.white_to_move
    white_moves = turn != backwards  # forwards: White moves when White is to move
    other = not turn
    out: list[tuple[chess.Move, KrkPosition]] = []
    if white_moves:
        for square in chess.scan_forward(chess.BB_KING_ATTACKS[wk]):
            out.append(
                (chess.Move(square, wk) if backwards else chess.Move(wk, square), KrkPosition(square, bk, wr, other))
            )
        for square in chess.scan_forward(rook_attacks(wr, chess.BB_SQUARES[wk] | chess.BB_SQUARES[bk])):
            out.append(
                (chess.Move(square, wr) if backwards else chess.Move(wr, square), KrkPosition(wk, bk, square, other))
            )
    else:
        for square in chess.scan_forward(chess.BB_KING_ATTACKS[bk]):
            out.append(
                (chess.Move(square, bk) if backwards else chess.Move(bk, square), KrkPosition(wk, square, wr, other))
            )
    return out


def predecessors(position: KrkPosition) -> list[tuple[chess.Move, KrkPosition]]:
    """Initially legal positions from which one KRK move (returned, as played forwards)
    leads to ``position``; empty when ``position`` itself is initially illegal.

    The retracted unit lands on an empty square (a square of another unit makes the
    predecessor initially illegal: same square, or rook "captured"), a rook slides back
    over empty squares only, and no unit is uncaptured.
    """
    if not is_initially_legal(position):
        return []
    return [(move, before) for move, before in candidate_moves(position, backwards=True) if is_initially_legal(before)]


def successors(position: KrkPosition) -> list[tuple[chess.Move, KrkPosition]]:
    """Initially legal positions one KRK move after ``position`` (no capture of the rook)."""
    if not is_initially_legal(position):
        return []
    return [(move, after) for move, after in candidate_moves(position, backwards=False) if is_initially_legal(after)]


def _king_part(square: chess.Square, target: chess.Square) -> int:
    return 2 * chess.square_distance(square, target) + chess.square_manhattan_distance(square, target)


def rook_distance(square: chess.Square) -> int:
    """DWR: rook moves to h1 on an empty board (0 on h1, 1 on the h-file or first rank, else 2)."""
    if square == chess.H1:
        return 0
    return 1 if chess.square_file(square) == 7 or chess.square_rank(square) == 0 else 2


def measure(position: KrkPosition) -> int:
    """The paper's M = 2*CDWK + MDWK + 2*CDBK + MDBK + DWR relative to PFix."""
    wk_target, bk_target, _ = PFIX_SQUARES
    return (
        _king_part(position.white_king, wk_target)
        + _king_part(position.black_king, bk_target)
        + rook_distance(position.white_rook)
    )

"""Brute-force oracle for the reverse move generator: on a set of positions, build
every candidate predecessor Q by placing units back on *any* square geometrically in
reach (queen lines and knight jumps for pieces, one or two squares back or diagonally
for pawns, castling rook moves), with every captured type on the target square or
behind it, every valid set of castling rights and every legal en-passant square; keep
those where python-chess says the move is legal, the side not to move is not in check,
the material passes the piece-count rule and pushing the move gives back P. The
generator's list must be exactly that set: nothing missing (completeness) and nothing
else (every static rejection is one of the documented rules).
"""

from __future__ import annotations

import itertools

import chess
import pytest

from retro.core.position import position_key
from retro.core.revmoves import piece_counts_possible, retractions
from tests.conftest import data_path
from tests.retro.revmoves_games import random_game_positions

_CASTLING_ROOK = {
    (chess.E1, chess.G1): (chess.H1, chess.F1),
    (chess.E1, chess.C1): (chess.A1, chess.D1),
    (chess.E8, chess.G8): (chess.H8, chess.F8),
    (chess.E8, chess.C8): (chess.A8, chess.D8),
}
_CAPTURED = (None, chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT, chess.PAWN)


def _reach(piece_type: chess.PieceType, to: chess.Square, color: chess.Color) -> chess.Bitboard:
    """Squares a unit of this type might have come from, ignoring every other unit."""
    if piece_type == chess.PAWN:
        back = -8 if color == chess.WHITE else 8
        mask = 0
        for delta in (back, 2 * back, back - 1, back + 1):
            square = to + delta
            if 0 <= square < 64 and abs(chess.square_file(square) - chess.square_file(to)) <= 1:
                mask |= chess.BB_SQUARES[square]
        return mask
    if piece_type == chess.KNIGHT:
        return chess.BB_KNIGHT_ATTACKS[to]
    # full lines through ``to`` (attacks on an empty board)
    return chess.BB_RANK_ATTACKS[to][0] | chess.BB_FILE_ATTACKS[to][0] | chess.BB_DIAG_ATTACKS[to][0]


def _q_ep_options(q: chess.Board) -> list[chess.Square | None]:
    options: list[chess.Square | None] = [None]
    forward = 8 if q.turn == chess.WHITE else -8
    for square in chess.SquareSet(chess.BB_RANK_6 if q.turn == chess.WHITE else chess.BB_RANK_3):
        pawn = q.piece_at(square - forward)
        if pawn != chess.Piece(chess.PAWN, not q.turn) or q.piece_at(square) or q.piece_at(square + forward):
            continue
        q.ep_square = square
        if q.has_legal_en_passant():
            options.append(square)
        q.ep_square = None
    return options


def oracle(board: chess.Board) -> set[tuple]:
    us = not board.turn
    target = position_key(board)
    found: set[tuple] = set()
    for to in chess.SquareSet(board.occupied_co[us]):
        piece_type = board.piece_type_at(to)
        assert piece_type is not None  # a square of board.occupied_co[us]
        origins = [piece_type]
        if piece_type in (chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN) and chess.square_rank(to) == (
            7 if us == chess.WHITE else 0
        ):
            origins.append(chess.PAWN)
        for origin in origins:
            sources = _reach(origin, to, us) & ~board.occupied
            if origin == chess.PAWN:
                sources &= ~chess.BB_BACKRANKS  # a pawn never stands on the first or last rank
            for source in chess.SquareSet(sources):
                rook_move = _CASTLING_ROOK.get((source, to)) if piece_type == chess.KING else None
                rook_from, rook_to = rook_move or (0, 0)  # read only when castling
                for castle in [False, True] if rook_move else [False]:
                    if castle and (board.piece_at(rook_to) != chess.Piece(chess.ROOK, us) or board.piece_at(rook_from)):
                        continue
                    for captured in _CAPTURED:
                        behind = to - 8 if us == chess.WHITE else to + 8
                        squares = [to, behind] if captured == chess.PAWN and piece_type == chess.PAWN else [to]
                        for capture_square in squares:
                            if captured is not None and (
                                castle or (capture_square != to and board.piece_at(capture_square))
                            ):
                                continue
                            if captured == chess.PAWN and chess.square_rank(capture_square) in (0, 7):
                                continue
                            q = board.copy(stack=False)
                            q.remove_piece_at(to)
                            q.set_piece_at(source, chess.Piece(origin, us))
                            if castle:
                                q.remove_piece_at(rook_to)
                                q.set_piece_at(rook_from, chess.Piece(chess.ROOK, us))
                            if captured is not None:
                                q.set_piece_at(capture_square, chess.Piece(captured, not us))
                            q.turn = us
                            if q.was_into_check():
                                continue
                            if not (piece_counts_possible(q, chess.WHITE) and piece_counts_possible(q, chess.BLACK)):
                                continue
                            q.castling_rights = chess.BB_CORNERS
                            valid_rights = q.clean_castling_rights()
                            promotion = piece_type if origin == chess.PAWN and piece_type != chess.PAWN else None
                            move = chess.Move(source, to, promotion)
                            bits = list(chess.SquareSet(valid_rights))
                            for size in range(len(bits) + 1):
                                for subset in itertools.combinations(bits, size):
                                    rights = sum(chess.BB_SQUARES[s] for s in subset)
                                    q.castling_rights = rights
                                    for ep in _q_ep_options(q):
                                        q.ep_square = ep
                                        if not q.is_legal(move):
                                            continue
                                        after = q.copy(stack=False)
                                        after.push(move)
                                        if position_key(after) == target:
                                            found.add((move, captured, rights, ep))
                                    q.ep_square = None
    return found


SPECIAL_FENS = [
    "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 0 1",  # O-O with both white rights possible before
    "r3k2r/8/8/8/8/8/8/2KR3R b kq - 0 1",  # O-O-O
    "r3k2R/8/2b5/8/8/2N5/8/R3K3 b Q - 0 1",  # rook took on h8: black's right may have existed
    "1R1nk3/8/8/Pp6/8/8/8/4K3 b - - 0 1",  # promotion with capture, predecessor e.p. square
    "4k3/8/8/pPpP4/P1P5/8/8/R4RK1 b - - 0 1",  # castling with predecessor e.p. squares
    "8/8/1Pk5/8/B7/2R5/8/4K3 b - - 0 1",  # double check: only the e.p. capture explains it
    "rn2kbnr/pb2pppp/1q6/1Pp5/3pP3/6P1/PKP2P1P/RNBQ1BNR b kq e3 0 1",  # e.p. illegal in Q
    "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1",  # forced double push
    "1nbqkbnr/1ppp1ppp/1P2p3/p7/8/8/8/4K3 b - - 0 1",  # material limits the captured unit
    "Q3k3/8/8/8/8/8/1PPPPPPP/4K3 b - - 0 1",  # promotion undone
    "4k3/8/8/8/8/8/4p3/3K4 w - - 0 1",  # black pawn on the 2nd rank
]


def _positions() -> list[chess.Board]:
    games = random_game_positions(seed=77, count=3_000)
    sample = [board for board, _ in games[7::25]]  # 120 positions spread over early and late plies
    with open(data_path("lichess-30k-positions.txt"), encoding="utf-8") as handle:
        lichess = [chess.Board(" ".join(line.split()[:6])) for line, _ in zip(handle, range(60), strict=False)]
    return [chess.Board(fen) for fen in SPECIAL_FENS] + sample + lichess


@pytest.mark.parametrize("board", _positions(), ids=lambda board: board.fen().split()[0])
def test_generator_equals_brute_force_oracle(board: chess.Board) -> None:
    listed = retractions(board)
    got = {(r.move, r.captured, r.castling, r.ep) for r in listed}
    assert len(got) == len(listed), "duplicate retractions"
    expected = oracle(board)
    assert got - expected == set(), "listed but not a valid predecessor"
    assert expected - got == set(), "valid predecessor missing"

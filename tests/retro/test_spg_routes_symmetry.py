"""Route squares read piece distances from the start squares' tables (symmetry of piece moves)."""

from __future__ import annotations

import json
from pathlib import Path

import chess
import pytest

from astar.paths import INF, piece_distances
from retro.spg import parse_problem, routes
from retro.spg.bounds import MoveBounds
from retro.spg.frozen import frozen_mask
from retro.spg.solve import moves_of

DATA = Path(__file__).resolve().parents[2] / "data" / "spg-dev.jsonl"
ROWS = [json.loads(line) for line in DATA.read_text().splitlines()]
SAMPLE = [ROWS[i] for i in (0, 1, 6, 20, 36, 64, 86)]  # 10 to 26 plies; row 1: a promoted bishop


def _cost_to_per_target(
    bounds: MoveBounds,
    color: chess.Color,
    kind: chess.PieceType,
    piece: chess.PieceType,
    s: chess.Square,
    t: chess.Square,
    castles: chess.Bitboard,
    captures: int,
) -> int:
    """The former reading: the distance table of every target square ``t``."""
    if piece == chess.PAWN:
        return bounds.pawn_to(color, s, t, captures) if t != s else 0
    table = piece_distances(piece, t, bounds.frozen)
    if kind != chess.PAWN:
        cost = table[s]
        if castles & chess.BB_SQUARES[s] and kind == chess.ROOK and s in routes._CASTLE:
            cost = min(cost, table[routes._CASTLE[s][0]])
        return cost
    return bounds.via_promotion(color, s, table, captures)


@pytest.mark.parametrize("row", SAMPLE, ids=[r["id"] for r in SAMPLE])
def test_piece_distances_are_symmetric(row: dict) -> None:
    problem = parse_problem(row["board"], row["plies"])
    frozen = frozen_mask(problem.init, problem.goal)
    for piece in (chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN, chess.KING):
        tables = [piece_distances(piece, square, frozen) for square in chess.SQUARES]
        assert all(tables[a][b] == tables[b][a] for a in chess.SQUARES for b in chess.SQUARES)
        assert any(INF > tables[a][b] > 1 for a in chess.SQUARES for b in chess.SQUARES)


@pytest.mark.parametrize("row", SAMPLE, ids=[r["id"] for r in SAMPLE])
def test_route_squares_as_with_a_table_per_target(row: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    problem = parse_problem(row["board"], row["plies"])
    frozen = frozen_mask(problem.init, problem.goal)
    bounds = MoveBounds(problem.goal, frozen, rights_count=problem.full_fen)
    moves = moves_of(problem.init, problem.plies)
    ours = {color: routes.route_squares(bounds, problem.init, color, moves[color]) for color in chess.COLORS}
    monkeypatch.setattr(routes, "_cost_to", _cost_to_per_target)
    theirs = {color: routes.route_squares(bounds, problem.init, color, moves[color]) for color in chess.COLORS}
    assert ours == theirs
    assert any(mask != chess.BB_ALL for squares in ours.values() for mask in squares.values())

"""Why one KRK position is legal or illegal (``retro krk --explain``).

* **initially illegal** -- the failed condition of ``LegalKRKPosition`` (paper, 4.2);
* **n times derivedly illegal** within KRK -- every retraction, and why its result is
  initially illegal (n = 1), or the derivedly illegal predecessors (n > 1); then the
  predecessors from outside KRK (:mod:`retro.krk.outside`): if there are some, the
  position may be legal in a larger endgame (paper, Figures 6-7) and the verdict is
  ``unknown``; if there are none it is ``illegal``;
* **legal** -- the shortest move path from PFix found by the retrograde search
  (:mod:`retro.krk.retrograde`), and the proof game: PFix's game (:mod:`retro.krk.pfix`)
  followed by that path, replayed with python-chess. The replay also checks that no
  position before the last ends the game (mate, stalemate, the 75-move rule, fivefold
  repetition), so the game is a game under FIDE's rules too.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import chess

from astar.proofgame import ProofGame, ProofGameError
from retro.krk.outside import OutsideRetraction, outside_predecessors
from retro.krk.pfix import hand_game
from retro.krk.position import (
    KrkPosition,
    candidate_moves,
    illegality_reason,
    measure,
    parse_krk,
    predecessors,
    successors,
)
from retro.krk.retrograde import KrkAnalysis, path_from_pfix

__all__ = ["KrkExplanation", "explain"]


@dataclass(frozen=True)
class KrkExplanation:
    """``status``: legal (with ``proof``), illegal, or unknown (possibly legal outside KRK)."""

    fen: str
    status: str
    krk_class: str
    reason: str
    path: tuple[str, ...] = ()  # SAN from PFix to the position
    proof: tuple[str, ...] = ()  # SAN from the initial position
    retractions: tuple[str, ...] = ()  # each KRK retraction and why it fails
    outside: tuple[OutsideRetraction, ...] = field(default=())

    def record(self) -> dict:
        return {
            "fen": self.fen,
            "status": self.status,
            "class": self.krk_class,
            "reason": self.reason,
            "path": list(self.path),
            "proof": list(self.proof),
            "retractions": list(self.retractions),
            "outside": [{"kind": o.kind, "before": o.before_fen, "move": o.move} for o in self.outside],
        }


def _replayed(moves: list[chess.Move], goal: KrkPosition) -> ProofGame:
    game = ProofGame(chess.STARTING_FEN, tuple(moves))
    game.replay_check(goal.board())
    board = game.board()
    for move in game.moves:
        if board.is_game_over():
            raise ProofGameError(f"the game is over before {move.uci()} in {board.fen()}")
        board.push(move)
    return game


def _retraction_lines(position: KrkPosition, analysis: KrkAnalysis) -> list[str]:
    lines = []
    for move, before in candidate_moves(position, backwards=True):
        if position.white_to_move:
            piece = "k"
        else:
            piece = "K" if move.to_square == position.white_king else "R"
        text = f"{piece}{chess.square_name(move.from_square)}-{chess.square_name(move.to_square)}"
        if position.board().piece_at(move.from_square) is not None:
            lines.append(f"{text}: {chess.square_name(move.from_square)} is occupied")
            continue
        why = illegality_reason(before)
        if why is None:
            why = f"it is {int(analysis.level[before.code])} times derivedly illegal"
        lines.append(f"{text}: before it, {why}")
    return lines


def explain(fen: str, analysis: KrkAnalysis) -> KrkExplanation:
    """Explain ``fen`` (ValueError for a bad or non-KRK FEN)."""
    position = parse_krk(fen)
    fen = position.fen()
    why = illegality_reason(position)
    if why is not None:
        return KrkExplanation(fen, "illegal", "initially illegal", why)
    level = int(analysis.level[position.code])
    if level > 0:
        outside = tuple(outside_predecessors(position))
        krk_class = f"{level} times derivedly illegal"
        reason = (
            "no initially legal KRK predecessor"
            if level == 1
            else f"every KRK predecessor is derivedly illegal, the worst {level - 1} times"
        )
        if outside:
            status = "unknown"
            reason += (
                f"; but {len(outside)} last moves from outside KRK (capture, promotion, castling) are "
                "possible, so it may be legal in a larger endgame (paper, Figures 6-7)"
            )
        else:
            status = "illegal"
            reason += "; no last move from outside KRK either"
        return KrkExplanation(
            fen, status, krk_class, reason, retractions=tuple(_retraction_lines(position, analysis)), outside=outside
        )
    codes = path_from_pfix(analysis, position.code)
    if not codes:  # the theorem says this cannot happen; report it rather than guess
        return KrkExplanation(
            fen, "unknown", "not derivedly illegal", "not reached from PFix: contradicts the theorem, please report"
        )
    start = KrkPosition.from_code(codes[0])
    board, current = start.board(), start
    path_moves, sans = [], []
    for code in codes[1:]:
        following = KrkPosition.from_code(code)
        move = next(m for m, after in successors(current) if after == following)
        sans.append(board.san(move))
        path_moves.append(move)
        board.push(move)
        current = following
    game = _replayed(list(hand_game(start).moves) + path_moves, position)
    first = predecessors(position)[0][0] if predecessors(position) else None
    reason = (
        f"initially legal with a predecessor (e.g. {first.uci() if first else '-'}), hence legal by the "
        f"theorem; M = {measure(position)}; reached from PFix ({start}) in {len(sans)} plies"
    )
    return KrkExplanation(fen, "legal", "legal", reason, path=tuple(sans), proof=tuple(game.san()))

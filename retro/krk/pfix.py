"""Claim 3 of the KRK theorem: PFix is legal with either side to move (paper, section 5.2).

PFix (Figure 8) is white king e5, black king c5, white rook h1. A proof game is first
searched with :func:`retro.proofgame.prove` (weighted A*); if that gives no game within
the time budget (it does not in a minute: the game needs 29 captures), the game comes
from the paper:

* Black to move: the paper's game, 1. e4 e5 ... 35. Ke5 Kc5 36. Rh1, as printed in
  section 5.2 (OCR slips such as "fxed" and "Kdé" read as fxe4 and Kd6);
* White to move: the same game, then 36... Kc6 37. Rh2 Kb5 38. Rh1 Kc5: the black king
  walks a triangle (three moves) while the rook goes out and back (two moves), which
  hands the move to White with every unit back on its PFix square.

Either way the game is replayed with python-chess (:meth:`astar.proofgame.ProofGame.replay_check`)
and must reach PFix exactly; a game that does not is an internal error, never a proof.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import chess

from astar.proofgame import ProofGame
from retro.krk.position import PFIX_BLACK, PFIX_WHITE, KrkPosition

__all__ = ["PfixProof", "PAPER_GAME", "TEMPO_MOVES", "hand_game", "pfix_proof_game"]

PAPER_GAME = (
    "e4 e5 d4 exd4 Qxd4 d5 Qxd5 Qxd5 exd5 c6 dxc6 bxc6 b4 c5 bxc5 Bxc5 Be3 Bxe3 fxe3 f5 e4 fxe4 "
    "Nf3 exf3 gxf3 g5 f4 gxf4 Bg2 f3 Bxf3 h5 Bxh5+ Kd7 c4 Nf6 Nc3 Nxh5 Nd5 Nf4 Nb6+ axb6 c5 bxc5 "
    "Rc1 Rxh2 Rxh2 Nd5 Rxc5 Nb4 Rxc8 Nxa2 Rxb8 Rxb8 Rxa2 Rb2 Rxb2 Kd6 Rh2 Kc6 Kd2 Kd6 Kd3 Kc6 "
    "Kd4 Kd6 Ke4 Kc6 Ke5 Kc5 Rh1"
).split()
"""The paper's proof game for PFix with Black to move (section 5.2), in SAN."""

TEMPO_MOVES = "Kc6 Rh2 Kb5 Rh1 Kc5".split()
"""From PFix with Black to move to PFix with White to move."""


@dataclass(frozen=True)
class PfixProof:
    """A replay-checked proof game for one PFix position, and where it came from."""

    position: KrkPosition
    source: str
    game: ProofGame
    search: str  # what retro.proofgame.prove answered, or "not run"
    seconds: float

    @property
    def plies(self) -> int:
        return len(self.game.moves)


def _moves_from_san(sans: list[str]) -> tuple[chess.Move, ...]:
    board = chess.Board()
    moves = []
    for san in sans:
        moves.append(board.push_san(san))
    return tuple(moves)


def hand_game(position: KrkPosition) -> ProofGame:
    """The paper's game (plus the tempo moves for White to move), replay-checked."""
    if position == PFIX_BLACK:
        sans = PAPER_GAME
    elif position == PFIX_WHITE:
        sans = PAPER_GAME + TEMPO_MOVES
    else:
        raise ValueError(f"{position} is not PFix")
    game = ProofGame(chess.STARTING_FEN, _moves_from_san(sans))
    game.replay_check(position.board())
    return game


def pfix_proof_game(white_to_move: bool, *, search_seconds: float = 60.0) -> PfixProof:
    """Claim 3 for one side to move: search first (``search_seconds`` > 0), else the hand game."""
    position = PFIX_WHITE if white_to_move else PFIX_BLACK
    start = time.perf_counter()
    search = "not run"
    if search_seconds > 0:
        from retro.proofgame import prove  # heavy import (kernel search, A*), only when searching

        verdict = prove(position.board(), time_limit=search_seconds)
        search = f"{verdict.status}{': ' + verdict.reason if verdict.reason else ''} ({verdict.seconds:.0f} s)"
        if verdict.status == "legal" and verdict.proof_game is not None:
            verdict.proof_game.replay_check(position.board())
            return PfixProof(position, "retro.proofgame.prove", verdict.proof_game, search, time.perf_counter() - start)
    source = "paper, section 5.2" + (" + 36...Kc6 37.Rh2 Kb5 38.Rh1 Kc5" if white_to_move else "")
    return PfixProof(position, source, hand_game(position), search, time.perf_counter() - start)

"""The node budget of :func:`retro.proofgame.prove` counts the initial paths' nodes too, and
holds: the pawn plans' paths stop when the run's budget is spent (so a run at a node budget
does the same work whatever the machine's load)."""

from __future__ import annotations

import json
from pathlib import Path

import chess

from retro.proofgame import prove

DEV = Path(__file__).resolve().parents[2] / "data" / "cpr-923-dev.jsonl"


def _legal(index: int) -> str:
    rows = [json.loads(line) for line in DEV.read_text().splitlines() if line.strip()]
    return [row["fen"] for row in rows if row["legal"]][index]


def test_initial_paths_stay_within_the_node_budget() -> None:
    # dev legal #0: its first pawn plans searched 40,081 nodes on a 10,000-node budget
    # (time limit 300 s) before the plans were given what is left of the budget
    verdict = prove(chess.Board(_legal(0)), max_nodes=3000, time_limit=300)
    assert verdict.status == "unknown"
    assert verdict.nodes <= 3001

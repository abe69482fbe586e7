"""The answer of ``retro spg``: a frozen dataclass with ``fen``, ``status`` and ``as_dict()``."""

from __future__ import annotations

from dataclasses import dataclass, field

from retro.core.status import SpgStatus

__all__ = ["SpgVerdict"]


@dataclass(frozen=True)
class SpgVerdict:
    """``unique`` (one game), ``solutions`` (k >= 2 games; ``cooked`` when the list may be
    incomplete: the cap was reached, or the budget ran out after two were found),
    ``no_solution`` (proved: exhaustive search or a proved rule, named in ``reason``), or
    ``unknown`` (the budget ran out; ``reason`` says what was explored, ``solutions``
    holds any game already found). Every listed game was replayed with python-chess."""

    fen: str
    status: SpgStatus
    plies: int
    solutions: list[list[str]] = field(default_factory=list)
    cooked: bool = False
    nodes: int = 0
    seconds: float = 0.0
    reason: str = ""
    black_first: bool = False  # the games start with a Black move (an -i position with Black to move)

    def as_dict(self) -> dict:
        return {
            "fen": self.fen,
            "status": str(self.status),
            "plies": self.plies,
            "solutions": self.solutions,
            "cooked": self.cooked,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
            "reason": self.reason,
        }

    def text(self) -> str:
        """Human-readable lines: the status, then one numbered game per line."""
        head = f"{self.fen} {self.plies}: {self.status}"
        if self.status == SpgStatus.SOLUTIONS:
            head += f" ({len(self.solutions)}{' or more, cooked' if self.cooked else ''})"
        lines = [f"{head} - {self.reason} ({self.nodes} nodes, {self.seconds:.2f} s)"]
        for index, game in enumerate(self.solutions, 1):
            lines.append(f"  {index}. {_numbered(game, self.black_first)}")
        return "\n".join(lines)


def _numbered(san: list[str], black_first: bool) -> str:
    if not san:
        return "(no moves: the diagram is the initial position)"
    parts, number = [], 1
    for index, move in enumerate(san):
        white_move = (index % 2 == 0) != black_first
        if white_move:
            parts.append(f"{number}.{move}")
        else:
            parts.append(f"{number}...{move}" if index == 0 else move)
            number += 1
    return " ".join(parts)

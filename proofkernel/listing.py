"""The verdict of ``retro proofkernel``: the proof kernels found between two positions.

``status`` is ``found`` (``kernels`` lists them), ``none`` (the whole kernel space was
searched without reaching the goal: the goal has no proof kernel, so it is illegal,
:mod:`proofkernel.search`) or ``unknown`` (the node budget stopped the search first).
``complete`` tells whether the list holds every kernel; ``stopped_by`` names what cut
it short otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from retro.core.status import KernelStatus

__all__ = ["KernelListing"]


@dataclass(frozen=True)
class KernelListing:
    """Kernels from the initial position to ``fen``, in texel's notation, with their
    extended kernels when they were asked for (``extended``, one per kernel)."""

    fen: str
    status: KernelStatus
    kernels: tuple[str, ...]
    nodes: int
    stopped_by: str | None
    extended: tuple[str, ...] | None = None

    @property
    def complete(self) -> bool:
        return self.stopped_by is None

    def as_dict(self) -> dict[str, Any]:
        """The JSON record of ``retro proofkernel``."""
        record: dict[str, Any] = {
            "fen": self.fen,
            "status": self.status,
            "kernels": list(self.kernels),
            "nodes": self.nodes,
            "complete": self.complete,
            "stopped_by": self.stopped_by,
        }
        if self.extended is not None:
            record["extended"] = list(self.extended)
        return record

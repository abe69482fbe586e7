"""The status vocabularies of retro's verdicts, one ``StrEnum`` per command family.

A verdict's ``status`` is one of these members. Because ``StrEnum`` members are ``str``
instances equal to their values, ``json.dumps`` writes the plain strings below, so the
JSON contract of ``--json``, of the Python API's ``as_dict()`` and of the HTTP API is
exactly the table in the design notes: a status compares equal to its string
(``LegalityStatus.LEGAL == "legal"``).
"""

from __future__ import annotations

from enum import StrEnum

__all__ = [
    "CheckStatus",
    "KernelStatus",
    "RevmovesStatus",
    "LegalityStatus",
    "UnwinnabilityStatus",
    "DeadStatus",
    "CageStatus",
    "LastMoveStatus",
    "SpgStatus",
    "EstimateStatus",
    "ERROR",
]


class CheckStatus(StrEnum):
    """``retro check``: a static rule proves the position illegal, or none objects."""

    ILLEGAL = "illegal"
    UNKNOWN = "unknown"


class KernelStatus(StrEnum):
    """``retro proofkernel``: proof kernels were found, the search proved there is none, or
    its node budget ran out before it found one (which proves nothing)."""

    FOUND = "found"
    NONE = "none"
    UNKNOWN = "unknown"


class RevmovesStatus(StrEnum):
    """``retro revmoves``: the position has retractions, or none."""

    FOUND = "found"
    NONE = "none"


class LegalityStatus(StrEnum):
    """``retro proofgame``: legal (with a replayed proof game), illegal (with the rule), unknown."""

    LEGAL = "legal"
    ILLEGAL = "illegal"
    UNKNOWN = "unknown"


class UnwinnabilityStatus(StrEnum):
    """``retro unwinnable``: the intended winner can mate (with a helpmate line), cannot, or undecided."""

    WINNABLE = "winnable"
    UNWINNABLE = "unwinnable"
    UNDETERMINED = "undetermined"


class DeadStatus(StrEnum):
    """``retro dead``: FIDE 5.2.2, neither side can mate (dead), one can (alive), or undecided."""

    DEAD = "dead"
    ALIVE = "alive"
    UNDETERMINED = "undetermined"


class CageStatus(StrEnum):
    """``retro cage``: the zone is a verified cage, or verification failed or ran out of budget."""

    CAGE = "cage"
    NOT_VERIFIED = "not_verified"


class LastMoveStatus(StrEnum):
    """``retro lastmove``: one sequence survives every filter and the rules refute every
    other (unique), at least two survive every filter (multiple), the rules refute every
    sequence (none), or candidates were left unchecked or unenumerated by the time limit
    with fewer than two survivors of every filter (unknown: the answer is not settled)."""

    UNIQUE = "unique"
    MULTIPLE = "multiple"
    NONE = "none"
    UNKNOWN = "unknown"


class SpgStatus(StrEnum):
    """``retro spg``: exactly one game, k >= 2 games, proved none, or the budget ran out."""

    UNIQUE = "unique"
    SOLUTIONS = "solutions"
    NO_SOLUTION = "no_solution"
    UNKNOWN = "unknown"


class EstimateStatus(StrEnum):
    """``retro estimate``: the estimate is complete."""

    DONE = "done"


ERROR = "error"
"""The status of a batch record for an input line that could not be read."""

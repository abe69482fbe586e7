"""The public JSON of every command keeps its keys and statuses.

``data/json-contract.jsonl`` holds the records the commands printed, on the cases of
:mod:`tests.json_contract`, before their verdicts were unified. Today's records must
keep every key saved (in nested objects too) and give the same statuses; values such as
timings and node counts are not compared. New keys are allowed (a field added to a
verdict does not break a client).
"""

from __future__ import annotations

from typing import Any

import pytest

from retro.core.status import (
    ERROR,
    CageStatus,
    CheckStatus,
    DeadStatus,
    EstimateStatus,
    KernelStatus,
    LastMoveStatus,
    LegalityStatus,
    RevmovesStatus,
    UnwinnabilityStatus,
)
from tests.conftest import read_jsonl
from tests.json_contract import CASES, records

SAVED = {row["case"]: row for row in read_jsonl("json-contract.jsonl")}

#: the statuses the design's table allows per command (proofkernel also says "unknown"
#: when its budget stops an incomplete search; krk explains with the legality statuses)
VOCABULARY: dict[str, set[str]] = {
    "check": set(CheckStatus),
    "revmoves": set(RevmovesStatus),
    "proofkernel": set(KernelStatus) | {"unknown"},
    "proofgame": set(LegalityStatus),
    "lastmove": set(LastMoveStatus),
    "cage": set(CageStatus),
    "unwinnable": set(UnwinnabilityStatus),
    "dead": set(DeadStatus),
    "estimate": set(EstimateStatus),
    "krk": set(LegalityStatus),
    "rndfen": set(),
}


def _missing_keys(saved: Any, now: Any, path: str = "") -> list[str]:
    """Keys of ``saved`` (recursively, through lists of objects) absent from ``now``."""
    if isinstance(saved, dict):
        if not isinstance(now, dict):
            return [f"{path or '.'} is no longer an object"]
        missing = [f"{path}.{key}" for key in saved if key not in now]
        for key in saved.keys() & now.keys():
            missing += _missing_keys(saved[key], now[key], f"{path}.{key}")
        return missing
    if isinstance(saved, list) and saved and isinstance(saved[0], dict):
        if not isinstance(now, list) or not now:
            return [f"{path} lost its objects"]
        return _missing_keys(saved[0], now[0], f"{path}[0]")
    return []


def test_every_command_has_saved_records():
    assert {argv[0] for _, argv, _ in CASES} == set(VOCABULARY)
    assert set(SAVED) == {name for name, _, _ in CASES}


@pytest.mark.parametrize("name, argv, lines", CASES, ids=[case[0] for case in CASES])
def test_records_keep_keys_and_statuses(name, argv, lines):
    saved = SAVED[name]["records"]
    now = records(argv, lines)
    assert len(now) == len(saved)
    for old, new in zip(saved, now, strict=True):
        assert _missing_keys(old, new) == []
        assert new.get("status") == old.get("status")
        if "status" in new:
            assert new["status"] in VOCABULARY[argv[0]] | {ERROR}

"""Shared fixtures: texel's unit-test expectations (data/texel-cases.jsonl)."""

from __future__ import annotations

import json
from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / "data"


def texel_cases(kind: str) -> list[dict]:
    with (DATA / "texel-cases.jsonl").open() as handle:
        return [case for case in map(json.loads, handle) if case["kind"] == kind]

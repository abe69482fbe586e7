"""Shared test helpers: the project's own copy of the data files (``data/``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

DATA_DIR = Path(__file__).resolve().parent.parent / "data"


def data_path(name: str) -> Path:
    return DATA_DIR / name


def read_jsonl(name: str) -> list[dict]:
    with open(data_path(name), encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def texel_cases(kind: str) -> list[dict]:
    """The expectations of texel's unit tests of one kind (see data/README.md)."""
    return [case for case in read_jsonl("texel-cases.jsonl") if case["kind"] == kind]


@pytest.fixture
def data_dir() -> Path:
    return DATA_DIR

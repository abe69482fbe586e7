"""``retro cage``: the time limit stops the verifier with ``not_verified``, and ``--svg`` draws the zone."""

from __future__ import annotations

import contextlib
import io
import json
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import chess
import pytest

import cages.verify
from cages.verify import verify
from retro.cli import main

# Not a cage within depth 20, but the verifier needs 28,029 states (some 15 s) to show it.
SLOW = "8/8/8/8/8/1P1P4/PBPNP3/RRK5"  # the verifier needs some 20 s to find the way home
ROOK_IN_THE_CORNER = "8/8/8/8/8/8/6PP/6Nr"  # with g1 frozen, a cage (README)


def _run(argv: list[str]) -> dict[str, Any]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["cage", *argv, "--json"]) == 0
    return dict(json.loads(out.getvalue()))


def test_time_limit_is_not_verified_in_time() -> None:
    start = time.monotonic()
    record = _run([SLOW, "-t", "0.5"])
    assert time.monotonic() - start < 3
    assert record["status"] == "not_verified" and record["reason"] == "the time limit was reached"
    assert record["seconds"] < 1.5 and 0 < record["nodes"] < 28_029


def test_time_limit_leaves_a_quick_cage_verified() -> None:
    record = _run([ROOK_IN_THE_CORNER, "--frozen", "g1", "--depth", "5", "-t", "5"])
    assert record["status"] == "cage"


def test_time_limit_must_be_positive(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cage", ROOK_IN_THE_CORNER, "-t", "0"]) == 2
    assert capsys.readouterr().err == "retro cage: error: -t/--time-limit must be positive\n"


def _filled(svg: Path) -> dict[str, str]:
    """The squares of python-chess's SVG board that carry a fill rectangle: square name -> colour."""
    rects = list(ET.parse(svg).getroot().iter("{http://www.w3.org/2000/svg}rect"))
    plain = [r for r in rects if "square" in r.get("class", "")]
    filled = [r for r in rects if "square" not in r.get("class", "")]
    size = float(plain[0].get("width", 0))
    offset = min(float(r.get("x", 0)) for r in plain)
    squares = {}
    for rect in filled:
        if rect.get("fill") in (None, "none") or rect.get("width") != plain[0].get("width"):
            continue
        file = round((float(rect.get("x", 0)) - offset) / size)
        rank = 7 - round((float(rect.get("y", 0)) - offset) / size)
        squares[chess.square_name(chess.square(file, rank))] = rect.get("fill", "")
    return squares


def test_svg_draws_the_zone_and_the_frozen_units(tmp_path: Path) -> None:
    svg = tmp_path / "cage.svg"
    record = _run([ROOK_IN_THE_CORNER, "--frozen", "g1", "--zone", "a8", "--svg", str(svg)])
    filled = _filled(svg)
    assert set(filled) == set(record["zone"]) == {"a8", "f1", "g1", "h1", "f2", "g2", "h2", "f3", "g3", "h3"}
    assert filled["g1"] != filled["h1"] and len({filled[s] for s in filled if s != "g1"}) == 1


# Lemma cages at work (cages/verify.py): a king shut in behind pawns while a rook wanders.
LEMMAS = chess.Board("nK1k4/r1ppRppp/pp2p3/8/8/8/8/8 w - - 0 1")


def test_the_clock_is_read_though_lemma_searches_add_many_states() -> None:
    verdict = verify(LEMMAS, time_limit=1e-9)
    assert verdict.status == "not_verified" and verdict.reason == "the time limit was reached"
    assert verdict.nodes <= 64


@pytest.mark.parametrize("ticks", [5, 12, 20])
def test_a_lemma_cut_short_by_the_clock_is_not_kept(ticks: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The clock advances one second per reading, so the time limit falls inside the search
    (in a lemma search too): the lemmas kept are those the full run finds, with its answers,
    never an unfinished lemma's "no" (a later run with more time would reuse it)."""
    full: dict[tuple[object, ...], bool] = {}
    assert verify(LEMMAS, lemmas=full).status == "cage"
    readings = iter(range(10**9))
    monkeypatch.setattr(cages.verify.time, "perf_counter", lambda: float(next(readings)))
    cut: dict[tuple[object, ...], bool] = {}
    assert verify(LEMMAS, lemmas=cut, time_limit=ticks).status == "not_verified"
    assert cut and cut.items() <= full.items()

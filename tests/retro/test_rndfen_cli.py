"""`retro rndfen N [SEED]`: header with the multiplier, FENs with m in field 6, static filter."""

from __future__ import annotations

import json

import chess
import pytest

from retro.cli import main
from retro.core.position import parse_fen
from retro.core.rules import check_static
from retro.sampling import STANDARD, multiplicity


def _run(capsys, *args: str) -> tuple[int, list[str], str]:
    code = main(["rndfen", *args])
    captured = capsys.readouterr()
    return code, captured.out.splitlines(), captured.err


@pytest.mark.slow
def test_header_and_fens_with_multiplicity(capsys):
    code, lines, err = _run(capsys, "--all", "150", "11")
    assert code == 0
    header = lines[0].split()
    assert header[:2] == ["#", "rndfen:"]
    fields = dict(zip(header[2::2], header[3::2], strict=False))
    assert int(fields["samples"]) == 150 and int(fields["seed"]) == 11
    assert int(fields["size"]) == STANDARD.size
    assert float(fields["multiplier"]) == pytest.approx(STANDARD.size / 150, rel=1e-6)
    fens = lines[1:]
    assert len(fens) == 150
    for fen in fens:
        position = parse_fen(fen)
        assert position.field5 == 0
        assert position.multiplicity == multiplicity(position.board) >= 1
    assert "printed 150 of 150" in err


def test_static_filter_keeps_exactly_the_unobjected_draws_in_order(capsys):
    _, every, _ = _run(capsys, "--all", "300", "4")
    code, kept, err = _run(capsys, "300", "4")
    assert code == 0 and kept[0] == every[0]
    expected = [fen for fen in every[1:] if check_static(chess.Board(fen)).status != "illegal"]
    assert kept[1:] == expected
    assert 0 < len(expected) < 300  # most draws of S are statically illegal, not all
    assert f"printed {len(expected)} of 300 draws ({300 - len(expected)} proven illegal" in err


def test_seed_determinism(capsys):
    a = _run(capsys, "--all", "20", "5")[1]
    b = _run(capsys, "--all", "20", "5")[1]
    c = _run(capsys, "--all", "20", "6")[1]
    assert a == b and a[1:] != c[1:]
    # without a seed one is chosen and printed, so the run can be repeated
    header = _run(capsys, "--all", "3")[1][0].split()
    seed = header[header.index("seed") + 1]
    assert _run(capsys, "--all", "3", seed)[1][1:] == _run(capsys, "--all", "3", seed)[1][1:]


def test_json(capsys):
    code, lines, _ = _run(capsys, "--json", "--all", "10", "2")
    assert code == 0
    head = json.loads(lines[0])
    assert head["size"] == STANDARD.size and head["samples"] == 10 and head["seed"] == 2
    records = [json.loads(line) for line in lines[1:]]
    assert [r["draw"] for r in records] == list(range(10))
    text = _run(capsys, "--all", "10", "2")[1][1:]
    assert [r["fen"] for r in records] == text
    assert all(r["m"] == multiplicity(chess.Board(r["fen"])) for r in records)


def test_bad_input(capsys):
    code, lines, err = _run(capsys, "0")
    assert code == 2 and "positive" in err and "Traceback" not in err
    with pytest.raises(SystemExit) as exit_info:
        main(["rndfen", "many"])
    assert exit_info.value.code == 2


@pytest.mark.slow
def test_a_reader_that_stops_early_ends_the_run_quietly():
    """`retro rndfen ... | head -1`: once the reader has gone, the run ends with exit
    code 0 and nothing on stderr (a BrokenPipeError is an OSError: it used to be
    reported as an error, exit code 2)."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, PYTHONPATH=str(root))
    process = subprocess.Popen(
        [sys.executable, "-m", "retro.cli", "rndfen", "--all", "5000", "1"],
        cwd=root,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    assert process.stdout.readline().startswith(b"# rndfen:")
    process.stdout.close()
    assert process.wait(timeout=120) == 0
    assert process.stderr.read() == b""

"""`retro estimate`: status files (proofgame lines, JSON, Tromp's format) and the chain."""

from __future__ import annotations

import json
from fractions import Fraction

import chess
import pytest

from retro.cli import main
from retro.sampling import STANDARD
from tests.conftest import data_path, read_jsonl

TROMP_N = 8726713169886222032347729969256422370854716254


def _run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["estimate", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_tromp_labels_from_the_data(capsys):
    # The labelled part of Tromp's sample: every unlisted draw of the 10,000 counts as
    # illegal, so this is the estimate if only these legal positions were legal.
    rows = read_jsonl("cpr-923-dev.jsonl")
    weights = [Fraction(1, int(row["fen"].split()[5])) for row in rows if row["legal"]]
    code, out, _ = _run(
        capsys, "--status", str(data_path("cpr-923-dev.jsonl")), "--samples", "10000", "--size", str(TROMP_N), "--json"
    )
    assert code == 0
    result = json.loads(out)
    assert (result["legal"], result["illegal"], result["unknown"]) == (len(weights), 10000 - len(weights), 0)
    assert result["estimate"] == pytest.approx(float(TROMP_N * sum(weights) / 10000), rel=1e-12)
    assert result["ci_low"] < result["estimate"] < result["ci_high"]
    assert result["size"] == TROMP_N and result["samples"] == 10000


def test_status_lines_bounds_and_errors(tmp_path, capsys):
    start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"
    lines = [
        "# a comment",
        f"{start} 0 1 legal: proof: ",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 2 legal: proof: e4 e5 Nf3 Nc6",
        "k7/8/8/8/8/8/8/QQQQKQQQ w - - 0 1 illegal: the side not to move (black) is in check",
        "8/8/8/8/8/8/1k6/K7 w - - 0 4 unknown: search budget exhausted",
        "zz error: a FEN has 4 to 6 fields, got 1: 'zz'",
        "8/8/8/8/8/8/1k6/4K3 b - - 0 1",  # Tromp's format, undecided
    ]
    status = tmp_path / "status.txt"
    status.write_text("\n".join(lines) + "\n")
    code, out, _ = _run(capsys, "--status", str(status), "--samples", "10", "--size", "100", "--json")
    assert code == 0
    result = json.loads(out)
    # Y: 1 and 1/2 for the legal lines; unknowns m = 4, error (m = 1), bare FEN m = 1
    assert (result["legal"], result["illegal"], result["unknown"], result["errors"]) == (2, 5, 3, 1)
    assert result["estimate"] == pytest.approx(100 * 1.5 / 10)
    assert result["low"] == result["estimate"]
    assert result["high"] == pytest.approx(100 * (1.5 + 0.25 + 1 + 1) / 10)
    code, out, _ = _run(capsys, "--status", str(status), "--samples", "10", "--size", "100")
    assert code == 0 and "legal 2, illegal 5, unknown 3 (of which 1 error lines)" in out
    assert "unknowns all illegal .. all legal: 15 .. 37.5" in out


def test_proofgame_json_records(tmp_path, capsys):
    records = [
        {"fen": "8/8/8/8/8/8/1k6/K7 w - - 0 3", "status": "legal", "proof": []},
        {"fen": "8/8/8/8/8/8/1k6/K7 b - - 0 1", "status": "illegal", "reason": "x"},
        {"input": "zz", "status": "error", "error": "bad"},
    ]
    status = tmp_path / "s.jsonl"
    status.write_text("".join(json.dumps(r) + "\n" for r in records))
    code, out, _ = _run(capsys, "--status", str(status), "--size", "30", "--json")
    result = json.loads(out)
    assert code == 0 and result["samples"] == 3
    assert result["estimate"] == pytest.approx(30 * (1 / 3) / 3)
    assert (result["legal"], result["illegal"], result["unknown"]) == (1, 1, 1)


@pytest.mark.parametrize(
    "args, message",
    [
        (["--status", "{file}"], "--size"),
        (["--status", "{file}", "--size", "10", "--samples", "1"], "smaller than"),
        (["--status", "{bad}", "--size", "10"], "line 2"),
        (["--status", "{missing}", "--size", "10"], "No such file"),
        ([], "--samples"),
        (["--samples", "5", "--size", "7"], "drop --size"),
    ],
)
def test_bad_input(tmp_path, capsys, args, message):
    good = tmp_path / "good.txt"
    good.write_text("8/8/8/8/8/8/1k6/K7 w - - 0 1 legal: proof: \n8/8/8/8/8/8/1k6/K7 b - - 0 1\n")
    bad = tmp_path / "bad.txt"
    bad.write_text("8/8/8/8/8/8/1k6/K7 w - - 0 1\n8/8/8 w legal: proof:\n")
    paths = {"file": good, "bad": bad, "missing": tmp_path / "none"}
    code, _, err = _run(capsys, *[a.format(**paths) for a in args])
    assert code == 2 and message in err and "Traceback" not in err


def test_chain_writes_every_draw_and_resumes(tmp_path, capsys):
    out_file = tmp_path / "chain.txt"
    args = ["--samples", "40", "--seed", "6", "-m", "300", "-t", "60", "-o", str(out_file), "--json"]
    code, out, _ = _run(capsys, *args)
    assert code == 0
    result = json.loads(out)
    lines = out_file.read_text().splitlines()
    assert lines[0] == f"# retro estimate: samples 40 seed 6 size {STANDARD.size}"
    # the draws are those of `retro rndfen 60 2 --all`, in order
    assert main(["rndfen", "--all", "40", "6"]) == 0
    drawn = capsys.readouterr().out.splitlines()[1:]
    assert [line.split(" legal:")[0].split(" illegal:")[0].split(" unknown:")[0] for line in lines[1:]] == drawn
    counts = {
        s: sum(f" {s}: " in line or line.endswith(f" {s}:") for line in lines[1:])
        for s in ("legal", "illegal", "unknown")
    }
    assert (result["legal"], result["illegal"], result["unknown"]) == (
        counts["legal"],
        counts["illegal"],
        counts["unknown"],
    )
    assert counts["illegal"] < 40 and sum(counts.values()) == 40
    for line in lines[1:]:  # every legal verdict carries a proof game reaching the draw
        if " legal: proof:" in line:
            fen, proof = line.split(" legal: proof:")
            board = chess.Board()
            for san in proof.split():
                board.push_san(san)
            assert board.board_fen() == fen.split()[0]
    # resume: a torn file is completed to the same content
    out_file.write_text("\n".join(lines[:20]) + "\n" + lines[20][:20])
    code, again, _ = _run(capsys, *args)
    assert code == 0 and out_file.read_text().splitlines() == lines and json.loads(again) == result
    # the file is a status file: the same estimate from it
    code, from_file, _ = _run(capsys, "--status", str(out_file), "--size", str(STANDARD.size), "--json")
    assert code == 0 and json.loads(from_file) == result
    # another seed does not append to this run's file
    code, _, err = _run(capsys, "--samples", "40", "--seed", "3", "-o", str(out_file))
    assert code == 2 and "another run" in err

"""Fuzzing every command's batch reader: files of random bytes, random text and
near-FENs (real positions with one edit). Each non-comment line gets exactly one JSON
record, nothing raises, no record reports an internal error, and every decided line
gets the record it gets when it is the only line of the file."""

from __future__ import annotations

import contextlib
import io
import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from retro.cli import main

FENS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2",
    "8/8/8/4k3/8/8/8/3QK3 b - - 0 1",
    "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
    "8/1p3k2/pPp3p1/P1Pp1pPp/2bP1P1P/4BK2/8/8 w - -",
    "r3k1r1/ppp2p1p/8/2q1p2K/8/5P2/PPn1N1PP/R1B4R w q - 2 20",
    "8/8/3r4/4K3/8/4kqpb/8/8 w - - 0 1",
    "8/8/8/8/8/8/PPkPP3/KR1b4 w - - 0 1",
]

# cheap budgets: the point is the reader, not the search
COMMANDS = {
    "check": [],
    "revmoves": [],
    "dead": ["--quick"],
    "unwinnable": ["--quick"],
    "proofkernel": ["-m", "200"],
    "proofgame": ["--nokernel", "-m", "20", "-t", "0.3"],
    "lastmove": ["--no-legality", "--no-auto-cages", "--extra-depth", "0"],
    "cage": ["--depth", "2", "--max-nodes", "200"],
    "spg": ["-m", "300", "-t", "0.5"],
}
VOLATILE = {"seconds", "passthrough"}


@st.composite
def near_fens(draw: st.DrawFn) -> bytes:
    """A real FEN with one edit: a character replaced, inserted or deleted, a field
    dropped, or a suffix (side name, EPD id, junk) added."""
    fen = draw(st.sampled_from(FENS))
    edit = draw(st.sampled_from(["none", "replace", "insert", "delete", "field", "suffix", "tokens", "tokens"]))
    position = draw(st.integers(0, len(fen) - 1))
    char = draw(st.sampled_from(list("12345678/pnbrqkPNBRQKwb- x9\x00\t")))
    if edit == "replace":
        fen = fen[:position] + char + fen[position + 1 :]
    elif edit == "insert":
        fen = fen[:position] + char + fen[position:]
    elif edit == "delete":
        fen = fen[:position] + fen[position + 1 :]
    elif edit == "field":
        fields = fen.split()
        del fields[draw(st.integers(0, len(fields) - 1))]
        fen = " ".join(fields)
    elif edit == "suffix":
        fen = " ".join(fen.split()[:4]) + draw(st.sampled_from([" white", " black", ' id "pos 1";', " zone=c1", " ;"]))
    elif edit == "tokens":  # each command's own trailing tokens and labels, after a 4- or 6-field FEN
        fields = fen.split()
        if draw(st.booleans()):
            fields = fields[:4]
        fen = " ".join(fields + draw(st.lists(st.sampled_from(OWN_TOKENS + ["game1", "x:"]), max_size=3)))
    return fen.encode()


#: The batch tokens the commands define (unwinnable's winner, lastmove's retract=, spg's plies).
OWN_TOKENS = ["white", "black", "BLACK", "retract=w", "retract=b", "retract=both", "2", "3"]


LINES = st.one_of(
    near_fens(),
    st.binary(max_size=40).filter(lambda raw: b"\n" not in raw),
    st.text(max_size=40).filter(lambda text: "\n" not in text).map(lambda text: text.encode()),
    st.sampled_from([b"", b"   ", b"# comment", b"\r", b"\xff\xfe", b"x" * 2000]),
)


def _run(command: str, lines: list[bytes]) -> tuple[list[dict], str]:
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "in.txt"
        path.write_bytes(b"".join(line + b"\n" for line in lines))
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main([command, "-f", str(path), "--json", *COMMANDS[command]])
    records = [json.loads(line) for line in out.getvalue().splitlines()]
    assert code == (2 if any(record["status"] == "error" for record in records) else 0), err.getvalue()
    return records, err.getvalue()


def _is_comment(line: bytes) -> bool:
    try:
        return line.decode("utf-8").strip().startswith("#")
    except UnicodeDecodeError:
        return False


def _stable(value: object) -> object:
    """The record without its timings, at any depth."""
    if isinstance(value, dict):
        return {key: _stable(item) for key, item in value.items() if key not in VOLATILE}
    if isinstance(value, list):
        return [_stable(item) for item in value]
    return value


def _fuzz(command: str, lines: list[bytes]) -> None:
    records, err = _run(command, lines)
    kept = [line for line in lines if not _is_comment(line)]
    assert len(records) == len(kept)
    assert "Traceback" not in err
    event(f"{sum(record['status'] != 'error' for record in records)} decided lines")
    for line, record in zip(kept, records, strict=True):
        assert "internal error" not in record.get("error", ""), (line, record)
        if command == "unwinnable" and record["status"] != "error":  # a winner named on the line is the one asked
            named = [word.lower() for word in line.decode().split() if word.lower() in ("white", "black")]
            assert not named or record["winner"] == named[-1], (line, record)
        if record["status"] != "error" and command != "cage":  # cages verified earlier help later lines
            alone, _ = _run(command, [line])
            assert [_stable(r) for r in alone] == [_stable(record)]


def _test(command: str):  # one hypothesis test per command, so each reports its own examples
    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.lists(LINES, min_size=1, max_size=5))
    def test(lines: list[bytes]) -> None:
        _fuzz(command, lines)

    test.__name__ = f"test_batch_reader_{command}"
    return test


for _command in COMMANDS:
    globals()[f"test_batch_reader_{_command}"] = _test(_command)

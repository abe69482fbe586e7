"""`retro proofgame` CLI: single position, batch status lines, passes and resume."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import chess
import pytest

from retro.commands.proofgame import parse_status_line
from retro.core import cpsat
from tests.conftest import texel_cases

FENS = [
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
    "k7/8/8/8/8/8/8/QQQQKQQQ w - - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1",
]


def _retro(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "retro.cli", *args], input=stdin, capture_output=True, text=True, timeout=120
    )


def test_single_position_text_and_bad_input() -> None:
    out = _retro("proofgame", "-nokernel", FENS[0])
    assert out.returncode == 0 and out.stdout.startswith("legal: proof: ")
    san = out.stdout.split("proof:")[1].split()
    board = chess.Board()
    for move in san:
        board.push_san(move)
    assert board.board_fen() == chess.Board(FENS[0]).board_fen()
    bad = _retro("proofgame", "zz")
    assert bad.returncode == 2 and "Traceback" not in bad.stderr


@pytest.mark.parametrize("case", texel_cases("filter_pass")[:6], ids=lambda c: c["source"].split(":")[-1])
def test_status_line_parsing(case: dict) -> None:
    fen, status, rest = parse_status_line(case["input_line"])
    assert fen == case["fen"].strip()
    assert case["input_tokens"].startswith(f"{status}:")


@pytest.mark.slow
def test_batch_passes_and_resume(tmp_path: Path) -> None:
    inp = tmp_path / "in.txt"
    inp.write_text("\n".join(FENS + ["not a fen"]) + "\n")
    prefix = str(tmp_path / "out")
    first = _retro("proofgame", "-f", str(inp), "-o", prefix, "-m", "5000", "-t", "10")
    assert first.returncode == 2, first.stderr  # the last line is bad
    clean = Path(prefix + "00").read_text().splitlines()
    assert len(clean) == 5
    statuses = [parse_status_line(line)[1] for line in clean]
    assert statuses[:4] == ["legal", "legal", "illegal", "legal"] and statuses[4] == "error"
    # simulate a killed run: keep one finished line and a torn one
    Path(prefix + "00").write_text(clean[0] + "\n" + clean[1][:20])
    for extra in tmp_path.glob("out0[1-9]"):
        extra.unlink()
    second = _retro("proofgame", "-f", str(inp), "-o", prefix, "-m", "5000", "-t", "10")
    assert second.returncode == 2, second.stderr
    resumed = Path(prefix + "00").read_text().splitlines()
    assert resumed == clean  # nothing lost, nothing duplicated
    # its own output is valid input: decided lines pass through unchanged
    again = _retro("proofgame", "-f", "-", stdin="\n".join(clean[:4]) + "\n")
    assert again.stdout.splitlines() == clean[:4]


def test_a_decided_line_of_a_full_fen_passes_through_unproved() -> None:
    """A pass file's status line of a six-field FEN (Tromp's sample) is read with its
    status, not as a FEN labelled "legal: proof: ..." (the batch reader's labelled-FEN
    rule): the line passes through as it is. The proof given is a valid detour that a
    new search would not return, so a line proved again would differ; the unknown line
    is passed through too, as without --retry."""
    fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    lines = [f"{fen} legal: proof: Nf3 Nc6 Ng1 Nb8 e4 e5", f"{FENS[2]} unknown: search budget exhausted"]
    out = _retro("proofgame", "-f", "-", stdin="\n".join(lines) + "\n")
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == lines


def test_shortest_has_no_node_budget_the_user_did_not_set(monkeypatch, capsys) -> None:
    """Only the time limit ends ``--shortest`` unless ``-m`` is given."""
    import retro.spg.shortest
    from retro.cli import main
    from retro.core.status import LegalityStatus
    from retro.proofgame import ProofGameVerdict

    seen: list[int | None] = []

    def recorded(board: chess.Board, **options) -> ProofGameVerdict:
        seen.append(options["max_nodes"])
        return ProofGameVerdict(board.fen(), LegalityStatus.UNKNOWN, "stub")

    monkeypatch.setattr(retro.spg.shortest, "shortest_proof_game", recorded)
    assert main(["proofgame", "--shortest", "-t", "30", FENS[0]]) == 0
    assert main(["proofgame", "--shortest", "-m", "5000", FENS[0]]) == 0
    assert seen == [None, 5000]


def _modules_imported_proving_illegal(fen: str) -> set[str]:
    """The modules ``retro proofgame FEN`` imports (``-X importtime``); it must say illegal."""
    out = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "retro.cli", "proofgame", fen],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.stdout.startswith("illegal: ")
    return {line.split("|")[-1].strip() for line in out.stderr.splitlines() if line.startswith("import time:")}


@pytest.mark.parametrize(
    "fen",
    [
        "rnbqkbnr/p1pppppp/p7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",  # texel's illegal sample: a static rule
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1",  # tempo parity
    ],
)
def test_a_position_the_static_rules_decide_does_not_load_the_search(fen: str) -> None:
    """Start-up: SciPy and OR-Tools (most of it) are imported only when a search runs."""
    assert any(case.get("fen") == fen for case in texel_cases("legality")) or " b KQkq" in fen
    imported = _modules_imported_proving_illegal(fen)
    assert not imported & {"scipy", "ortools", "numba", "astar.heuristic", "proofkernel.extended"}


@pytest.mark.parametrize(
    "fen",
    [
        "4RR2/p2n3p/1kqr1Q1N/1pq5/1Nb1P2P/4p1bb/bq3QKn/1QR2rB1 w - - 0 1",  # dev: the pawn-fates model refutes it
        "k1bBrR2/1B1rbN2/p2BN1Q1/2n3bP/p2bNR1p/2R1n3/P4b2/1K3b2 b - - 0 1",  # texel: the static last-move walk
    ],
)
def test_a_position_the_pawn_fates_model_decides_does_not_load_pandas(fen: str) -> None:
    """Start-up: the CP-SAT models are solved without ``cp_model.py`` (which imports pandas),
    on the OR-Tools releases whose compiled helper retro.core.cpsat uses."""
    if not cpsat.native_available():
        pytest.skip("this OR-Tools release is solved through cp_model (retro.core.cpsat.NATIVE_RELEASES)")
    imported = _modules_imported_proving_illegal(fen)
    assert "ortools.sat.python.cp_model_helper" in imported
    assert not imported & {"pandas", "ortools.sat.python.cp_model", "scipy", "astar.heuristic"}

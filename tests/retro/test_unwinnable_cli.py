"""CLI tests of `retro unwinnable` and `retro dead`."""

from __future__ import annotations

import json

import chess
import pytest

from retro.cli import main


def test_unwinnable_default_winner_and_line(capsys) -> None:
    # Position 16 (White to move... intended winner given explicitly): White mates by Qd1+ Rxd1 Bxd1.
    assert main(["unwinnable", "8/4P2p/1p6/3Q1P2/2p3B1/Pk6/1P6/1K3r2 w - - 0 1", "white"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("winnable for white: ")
    board = chess.Board("8/4P2p/1p6/3Q1P2/2p3B1/Pk6/1P6/1K3r2 w - - 0 1")
    for uci in out.split("[")[0].split(":")[1].split():
        board.push_uci(uci)
    assert board.is_checkmate()


def test_unwinnable_json_default_is_side_not_to_move(capsys) -> None:
    assert main(["unwinnable", "5r1k/6P1/7K/5q2/8/8/8/8 b - -", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["winner"] == "white" and record["status"] == "unwinnable"


def test_unwinnable_text_names_the_winner_evaluated(capsys) -> None:
    # The default winner (the side not to move) is named too, not only an explicit one.
    assert main(["unwinnable", "5r1k/6P1/7K/5q2/8/8/8/8 b - -"]) == 0
    assert capsys.readouterr().out.startswith("unwinnable for white  [")
    assert main(["unwinnable", "5r1k/6P1/7K/5q2/8/8/8/8 b - -", "black"]) == 0
    assert capsys.readouterr().out.startswith("winnable for black: ")


def _slow_load(monkeypatch, seconds: float) -> None:
    """Make loading the compiled core take ``seconds`` more (the first call that loads it)."""
    import time

    from retro.unwinnable import jitcore

    real = jitcore.warm_up

    def warm_up() -> float:
        start = time.perf_counter()
        loading = not jitcore.READY
        real()
        if loading:
            time.sleep(seconds)
        return time.perf_counter() - start

    monkeypatch.setattr(jitcore, "READY", False)
    monkeypatch.setattr(jitcore, "warm_up", warm_up)


@pytest.mark.slow
def test_compiled_load_time_is_not_the_query_time(monkeypatch, capsys) -> None:
    # A single --compiled query: the core's load is noted on stderr, and neither the
    # unwinnable nor the dead record counts it in its seconds (0 nodes: semi-static).
    fen = "8/1p3k2/pPp3p1/P1Pp1pPp/2bP1P1P/4BK2/8/8 w - - 0 1"
    for command in ("unwinnable", "dead"):
        _slow_load(monkeypatch, 1.0)
        assert main([command, fen, "--compiled", "--json"]) == 0
        captured = capsys.readouterr()
        assert json.loads(captured.out)["seconds"] < 0.5, command
        assert "loaded the compiled search core in" in captured.err or "compiled the search core" in captured.err


def test_dead_api_seconds_exclude_the_compiled_load(monkeypatch) -> None:
    from retro.unwinnable import is_dead

    _slow_load(monkeypatch, 1.0)
    board = chess.Board("8/1p3k2/pPp3p1/P1Pp1pPp/2bP1P1P/4BK2/8/8 w - - 0 1")
    verdict = is_dead(board, compiled=True)
    assert verdict.status == "dead" and verdict.seconds < 0.5


def test_dead_text(capsys) -> None:
    assert main(["dead", "8/1p3k2/pPp3p1/P1Pp1pPp/2bP1P1P/4BK2/8/8 w - - 0 1"]) == 0
    assert capsys.readouterr().out.startswith("dead")


def test_bad_input_exit_2(capsys) -> None:
    assert main(["unwinnable", "xx w - -"]) == 2
    assert "error" in capsys.readouterr().err


def test_batch_with_error_record(tmp_path, capsys) -> None:
    path = tmp_path / "q.txt"
    path.write_text("5r1k/6P1/7K/5q2/8/8/8/8 b - - black\nbad line\n8/8/8/8/8/8/8/8 w - -\n")
    assert main(["unwinnable", "-f", str(path), "--json"]) == 2
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["status"] for r in records] == ["winnable", "error", "error"]
    assert records[0]["winner"] == "black"


def test_batch_with_two_processes_gives_the_records_of_one(tmp_path, capsys) -> None:
    # -j 2 (retro.batch's parallel driver): the same records in the same order as -j 1
    # (the seconds aside), for both commands, bad lines included; and the same records
    # from the pure-Python searches (--no-compiled) as from the compiled core.
    lines = [
        "5r1k/6P1/7K/5q2/8/8/8/8 b - - black",
        "bad line",
        "8/1p3k2/pPp3p1/P1Pp1pPp/2bP1P1P/4BK2/8/8 w - - 0 1",
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        "8/8/8/4k3/8/8/8/3QK3 b - - 0 1",
    ]
    path = tmp_path / "q.txt"
    path.write_text("\n".join(lines) + "\n")
    for command in ("unwinnable", "dead"):
        runs = []
        for options in (["--compiled", "-j", "1"], ["--compiled", "-j", "2"], ["--no-compiled"]):
            assert main([command, "-f", str(path), "--json", "--max-nodes", "20000", *options]) == 2
            records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
            runs.append([{k: v for k, v in r.items() if k != "seconds"} for r in records])
        assert runs[0] == runs[1] == runs[2] and len(runs[0]) == len(lines)
        assert runs[0][1]["status"] == "error"


def test_batch_loads_the_compiled_core_only_for_long_batches(tmp_path, monkeypatch, capsys) -> None:
    # Loading the core (about 1 s) pays off only from COMPILED_FROM_LINES lines on (more
    # for --quick); --compiled / --no-compiled override the size.
    from retro.commands import unwinnable as command

    loads: list[int] = []
    monkeypatch.setattr(command, "_load_compiled_core", lambda: loads.append(1))
    monkeypatch.setattr(command, "COMPILED_FROM_LINES", {False: 3, True: 5})
    path = tmp_path / "q.txt"
    for lines, options, expected in (
        (2, [], 0),
        (3, [], 1),
        (3, ["--quick"], 0),
        (5, ["--quick"], 1),
        (2, ["--compiled"], 1),
        (3, ["--no-compiled"], 0),
    ):
        path.write_text("8/8/8/4k3/8/8/8/3QK3 b - - 0 1\n" * lines)
        loads.clear()
        assert main(["unwinnable", "-f", str(path), "--json", "--max-nodes", "2000", *options]) == 0
        assert len(loads) == expected, (lines, options)
        assert len(capsys.readouterr().out.splitlines()) == lines

"""`--scheduler ADDRESS`: batch work on a Dask cluster (two local workers on loopback)
gives the same output, in the same order, as the local run."""

from __future__ import annotations

import json

import pytest
from distributed import LocalCluster

from retro.cli import main
from retro.distributed import map_ordered

# Cheap positions: short proof games, a static illegality, a bad line.
POSITIONS = [
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "k7/8/8/8/8/8/8/QQQQKQQQ w - - 0 1",
    "not a fen",
    "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1",
    "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
]


@pytest.fixture(scope="module")
def scheduler():
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    ) as cluster:
        yield cluster.scheduler_address


def _square(x: int) -> int:
    return x * x


def test_map_ordered_keeps_input_order(scheduler):
    assert list(map_ordered(_square, range(30), scheduler=scheduler, window=3)) == [x * x for x in range(30)]


def test_proofgame_batch_same_output(tmp_path, capsys, scheduler):
    inputs = tmp_path / "in.txt"
    inputs.write_text("\n".join(POSITIONS) + "\n")
    outputs = []
    for extra in ([], ["--scheduler", scheduler]):
        assert main(["proofgame", "-f", str(inputs), "-m", "3000", "-t", "60", *extra]) == 2  # one line is bad
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1]
    lines = outputs[0].splitlines()
    assert len(lines) == 5 and " legal: proof: e4 e5 Nf3 Nc6" in lines[0] and " error: " in lines[2]


@pytest.mark.slow
def test_estimate_chain_same_output(tmp_path, capsys, scheduler):
    results = []
    for name, extra in (("local", []), ("cluster", ["--scheduler", scheduler])):
        path = tmp_path / name
        assert (
            main(
                [
                    "estimate",
                    "--samples",
                    "40",
                    "--seed",
                    "6",
                    "-m",
                    "300",
                    "-t",
                    "60",
                    "-o",
                    str(path),
                    "--json",
                    *extra,
                ]
            )
            == 0
        )
        results.append((json.loads(capsys.readouterr().out), path.read_text()))
    assert results[0] == results[1]
    assert results[0][0]["unknown"] + results[0][0]["legal"] > 0  # some draws did go to the cluster


def test_unreachable_scheduler():
    # an OSError, which the CLI reports in one line with exit code 2
    with pytest.raises(OSError):
        list(map_ordered(_square, [1], scheduler="tcp://127.0.0.1:9", timeout=1))

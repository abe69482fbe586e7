"""Benchmark ``retro.proofgame.prove`` on the legal positions of data/cpr-923-dev.jsonl.

Prints one line per position (status, seconds, nodes, texel's and our length, index
among the legal positions, the reason of an unknown), then: positions tried,
replay-verified proof games found, time per position (median/mean/max), nodes per
position, the same for the proved positions alone, proof-game length distribution,
and any verdict that contradicts the label (must be 0).

The default budget is ``retro proofgame``'s (``prove``'s defaults: 200,000 nodes, 60 s).
``--only`` picks positions by their index among the legal ones (e.g. the ones a pass
left unknown); the load average and the CPU seconds of the run are printed with the
figures (the machine is shared: wall-clock budgets shrink under load).

With ``--texel PATH`` (texel's ``texelutil``) the benchmark runs both programs side by side
instead, one position at a time and back to back in the same run: ``texelutil -j 1
proofgame -f -o OUT`` with the position alone on its stdin (its verdict is the status line of
its last pass file; it has no time limit: past ``--seconds`` + 30 s it is stopped,
``timeout``), then ``python -m retro.cli proofgame FEN --json -t S -m N`` as a
subprocess of this interpreter with this tree on PYTHONPATH, so that both walls include the
process start. It prints both verdicts, walls and CPU seconds per position, then per program
the verdicts, median/mean/max wall, median/mean CPU and the ratio retro/texel of the medians and of the means,
with the load. The positions: ``--positions FILE`` (one FEN per line, or a pass file's
status lines), else the selected rows of the dev file, its legal ones or with
``--illegal`` its illegal ones. Every retro proof game is replayed with python-chess.

usage: .venv/bin/python bench/proofgame.py [--limit N] [--only I,J,..] [--nodes N] [--seconds S] [--weight A:B]
       .venv/bin/python bench/proofgame.py --texel PATH [--positions FILE | [--illegal] [--limit N]] [--seconds S]
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import functools
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import chess
from startup import installed_env  # bench/ is the script's directory

from retro.proofgame import ProofGameVerdict, prove

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data" / "cpr-923-dev.jsonl"


def _random_game(seed: int, plies: int) -> dict:
    import random

    rng = random.Random(seed)
    board = chess.Board()
    san = []
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            break
        move = rng.choice(moves)
        san.append(board.san(move))
        board.push(move)
    return {"fen": board.fen(), "legal": True, "proof": " ".join(san)}


def _cpu_clock() -> None:
    """Make the time limits count this process's CPU seconds: ``time.monotonic`` (what the
    searches read) becomes ``time.process_time``. On a shared machine, the budget then
    buys what it buys on an idle core."""
    time.monotonic = time.process_time


def _prove(fen: str, **options: Any) -> ProofGameVerdict:
    verdict = prove(
        chess.Board(fen),
        max_nodes=options["nodes"],
        time_limit=options["seconds"],
        seed=options["seed"],
        weight=options["weight"],
        use_kernel=options["use_kernel"],
    )
    return verdict


def _child_cpu() -> float:
    """CPU seconds (user + system) of the waited-for child processes so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _texel_call(texel: str, fen: str, seconds: float) -> tuple[str, float, float]:
    """Texel's verdict word (legal, illegal, unknown, or timeout past ``seconds``), the
    wall and the CPU seconds of one ``texelutil -j 1 proofgame -f -o OUT`` call on ``fen``
    alone."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "pg"
        cpu = _child_cpu()
        start = time.perf_counter()
        try:
            subprocess.run(
                [texel, "-j", "1", "proofgame", "-f", "-o", str(out)],
                input=fen + "\n",
                capture_output=True,
                text=True,
                timeout=seconds,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return "timeout", time.perf_counter() - start, _child_cpu() - cpu
        wall = time.perf_counter() - start
        passes = sorted(Path(folder).glob("pg[0-9][0-9]"))
        line = passes[-1].read_text().strip() if passes else ""
        words = line.split()[6:7]  # after the six FEN fields: "legal:", "illegal:", "unknown:"
        return (words[0].rstrip(":") if words else "error"), wall, _child_cpu() - cpu


def _retro_call(fen: str, seconds: float, nodes: int) -> tuple[str, float, float, str]:
    """retro's verdict, the wall and CPU seconds of one ``retro proofgame`` process
    (start-up included) and its reason; a legal verdict's proof game is replayed to the
    goal."""
    env = installed_env(ROOT)  # bytecode kept, as an installed retro
    command = [sys.executable, "-m", "retro.cli", "proofgame", fen, "--json", "-t", str(seconds), "-m", str(nodes)]
    cpu = _child_cpu()
    start = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False, cwd=ROOT)
    wall = time.perf_counter() - start
    cpu = _child_cpu() - cpu
    try:
        record = json.loads(done.stdout.strip().splitlines()[-1])
    except (IndexError, json.JSONDecodeError):
        return "error", wall, cpu, done.stderr.strip()[-200:]
    status = str(record.get("status"))
    if status == "legal":
        board = chess.Board()
        for move in record["proof"]:
            board.push_san(move)
        goal = chess.Board(fen)
        assert board.board_fen() == goal.board_fen() and board.turn == goal.turn, fen
    return status, wall, cpu, str(record.get("reason") or "")


def _summary(name: str, walls: list[float], cpus: list[float], verdicts: collections.Counter[str]) -> str:
    return (
        f"{name:6s} {dict(verdicts)}; wall median {statistics.median(walls):.2f} s, "
        f"mean {statistics.mean(walls):.2f} s, max {max(walls):.2f} s; CPU median {statistics.median(cpus):.2f} s, "
        f"mean {statistics.mean(cpus):.2f} s"
    )


def side_by_side(texel: str, fens: list[str], seconds: float, nodes: int) -> None:
    """The ``--texel`` run: see the module docstring."""
    load = os.getloadavg()
    print(f"load average at the start {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}; {len(fens)} positions")
    columns = f"{'texel':8s} {'wall':>7s} {'cpu':>6s}   {'retro':8s} {'wall':>7s} {'cpu':>6s}"
    print(f"{'#':>3s} {columns}  ratio  reason (retro)")
    texel_walls, retro_walls, texel_cpus, retro_cpus = [], [], [], []
    texel_verdicts: collections.Counter[str] = collections.Counter()
    retro_verdicts: collections.Counter[str] = collections.Counter()
    for number, fen in enumerate(fens):
        texel_status, texel_wall, texel_cpu = _texel_call(texel, fen, seconds + 30)
        retro_status, retro_wall, retro_cpu, reason = _retro_call(fen, seconds, nodes)
        texel_walls.append(texel_wall)
        retro_walls.append(retro_wall)
        texel_cpus.append(texel_cpu)
        retro_cpus.append(retro_cpu)
        texel_verdicts[texel_status] += 1
        retro_verdicts[retro_status] += 1
        print(
            f"{number:3d} {texel_status:8s} {texel_wall:6.2f}s {texel_cpu:5.2f}s   "
            f"{retro_status:8s} {retro_wall:6.2f}s {retro_cpu:5.2f}s "
            f"{retro_wall / max(texel_wall, 1e-3):6.1f}  {reason[:70]}",
            flush=True,
        )
    print(_summary("texel", texel_walls, texel_cpus, texel_verdicts))
    print(_summary("retro", retro_walls, retro_cpus, retro_verdicts))
    print(
        f"ratio retro/texel: medians {statistics.median(retro_walls) / statistics.median(texel_walls):.2f}, "
        f"means {statistics.mean(retro_walls) / statistics.mean(texel_walls):.2f}; CPU medians "
        f"{statistics.median(retro_cpus) / max(statistics.median(texel_cpus), 1e-3):.2f}"
    )
    print("load average at the end " + " ".join(f"{x:.1f}" for x in os.getloadavg()))


def _positions(path: Path) -> list[str]:
    """The FENs of a file: the first six fields of each non-blank line."""
    return [" ".join(line.split()[:6]) for line in path.read_text().splitlines() if line.strip()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--limit", type=int, default=176, help="first N legal positions (file order)")
    parser.add_argument("--only", help="comma-separated indices among the legal positions")
    defaults = prove.__kwdefaults__ or {}  # the budget of retro proofgame
    parser.add_argument("--nodes", type=int, default=defaults["max_nodes"])
    parser.add_argument("--seconds", type=float, default=defaults["time_limit"])
    parser.add_argument("--weight", default="1:5")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--nokernel", action="store_true")
    parser.add_argument("-j", "--jobs", type=int, default=1, help="positions in parallel processes")
    parser.add_argument(
        "--random-games",
        type=int,
        default=0,
        metavar="N",
        help="instead of the dev file: final positions of N seeded random games",
    )
    parser.add_argument("--plies", type=int, default=20, help="length of the random games")
    parser.add_argument(
        "--cpu-clock",
        action="store_true",
        help="time limits count each worker's CPU seconds instead of wall-clock seconds (a shared machine)",
    )
    parser.add_argument("--texel", metavar="PATH", help="texelutil: run it and retro side by side (see above)")
    parser.add_argument("--positions", type=Path, help="with --texel: the positions, one FEN per line")
    parser.add_argument("--illegal", action="store_true", help="with --texel: the dev file's illegal rows")
    args = parser.parse_args()
    a, b = (int(x) for x in args.weight.split(":"))
    rows = [json.loads(line) for line in DATA.read_text().splitlines() if line.strip()]
    if args.texel:
        if args.positions:
            fens = _positions(args.positions)
        else:
            chosen = [row["fen"] for row in rows if row["legal"] != args.illegal][: args.limit]
            fens = [chosen[int(text)] for text in args.only.split(",")] if args.only else chosen
        side_by_side(args.texel, fens, args.seconds, args.nodes)
        return
    legal = [row for row in rows if row["legal"]][: args.limit]
    indices = list(range(len(legal)))
    if args.only:
        indices = [int(text) for text in args.only.split(",")]
        legal = [legal[i] for i in indices]
    if args.random_games:
        legal = [_random_game(seed, args.plies) for seed in range(args.random_games)]
        indices = list(range(len(legal)))
    load = os.getloadavg()
    times, nodes, lengths, found, wrong = [], [], [], 0, 0
    statuses: collections.Counter[str] = collections.Counter()
    start = time.perf_counter()
    work = functools.partial(
        _prove, nodes=args.nodes, seconds=args.seconds, seed=args.seed, weight=(a, b), use_kernel=not args.nokernel
    )
    initializer = _cpu_clock if args.cpu_clock else None
    pool = concurrent.futures.ProcessPoolExecutor(args.jobs, initializer=initializer) if args.jobs > 1 else None
    if pool is None and initializer is not None:
        initializer()
    fens = [row["fen"] for row in legal]
    verdicts = pool.map(work, fens) if pool is not None else map(work, fens)
    proved_times, proved_nodes = [], []
    for index, row, verdict in zip(indices, legal, verdicts, strict=True):
        statuses[str(verdict.status)] += 1
        times.append(verdict.seconds)
        nodes.append(verdict.nodes)
        if verdict.status == "legal":
            assert verdict.proof_game is not None and verdict.proof_game.reaches(chess.Board(row["fen"]))
            found += 1
            lengths.append(len(verdict.proof_game.moves))
            proved_times.append(verdict.seconds)
            proved_nodes.append(verdict.nodes)
        if verdict.status == "illegal":
            wrong += 1
        ours = len(verdict.proof_game.moves) if verdict.proof_game else "-"
        print(
            f"{verdict.status:8s} {verdict.seconds:6.1f}s {verdict.nodes:7d} nodes "
            f"known-len {len(row['proof'].split()):4d} ours {ours}  #{index} {verdict.reason}{verdict.found_by}",
            flush=True,
        )
    if pool is not None:
        pool.shutdown()
    cpu = sum(
        usage.ru_utime + usage.ru_stime
        for usage in (resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN))
    )
    print(
        f"budget: {args.nodes} nodes and {args.seconds} s per position, weight {args.weight}, "
        f"kernel {'off' if args.nokernel else 'on'}, {'CPU' if args.cpu_clock else 'wall-clock'} seconds"
    )
    print(f"positions {len(legal)}: legal (replay-verified) {found}, {dict(statuses)}, contradicting the label {wrong}")
    print(
        f"time per position: median {statistics.median(times):.2f} s, mean {statistics.mean(times):.2f} s, "
        f"max {max(times):.2f} s; total {time.perf_counter() - start:.0f} s wall, {cpu:.0f} s CPU"
    )
    print(
        f"load average (1, 5, 15 min) at the start {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}, at the end "
        + " ".join(f"{x:.1f}" for x in os.getloadavg())
    )
    print(
        f"nodes per position: median {statistics.median(nodes):.0f}, mean {statistics.mean(nodes):.0f}, "
        f"max {max(nodes)}"
    )
    if proved_times:
        deciles = "-"
        if len(proved_times) > 1:
            deciles = " ".join(f"{q:.1f}" for q in statistics.quantiles(proved_times, n=10))
        print(
            f"proved positions: time median {statistics.median(proved_times):.2f} s, mean "
            f"{statistics.mean(proved_times):.2f} s (deciles {deciles}); nodes median "
            f"{statistics.median(proved_nodes):.0f}, mean {statistics.mean(proved_nodes):.0f}"
        )
    if lengths:
        print(
            f"proof-game lengths (plies): min {min(lengths)}, median {statistics.median(lengths)}, max {max(lengths)}"
        )
        hist = collections.Counter(10 * (n // 10) for n in lengths)
        print("  " + ", ".join(f"{k}-{k + 9}: {hist[k]}" for k in sorted(hist)))


if __name__ == "__main__":
    main()

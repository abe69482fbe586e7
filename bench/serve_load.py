"""Load test of ``retro serve``: many ``dead`` requests from concurrent clients, on loopback only.

Usage::

    .venv/bin/python bench/serve_load.py [--requests 2000] [--clients 8] [--workers 2] [--deadline 900] [--batch K]

Starts ``retro serve`` on a free port of 127.0.0.1, waits until its workers are ready, then
``--clients`` threads (each with one keep-alive HTTP connection) send ``POST /api/v1/dead``
for the first ``--requests`` positions of data/lichess-30k-positions.txt (FEN + game id per
line), in turn; with ``--batch K`` each request is a ``POST /api/v1/dead/batch`` of K of
those positions (adjudication as a service: one record per FEN, in order), and the
throughput is given in positions too. Prints the throughput, the p50 / p90 / p99 / max latency, the verdict
counts, and the peak resident memory of the server and its workers (sampled every 50 ms,
summed over the process tree). Every request must answer 200 with a record for its FEN:
the script exits 1 otherwise. The run is bounded by ``--requests`` and ``--deadline``
(seconds), and stops the server at the end.
"""

from __future__ import annotations

import argparse
import collections
import http.client
import itertools
import json
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
POSITIONS = ROOT / "data" / "lichess-30k-positions.txt"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _fens(count: int) -> list[str]:
    fens = []
    with open(POSITIONS, encoding="utf-8") as handle:
        for line in itertools.islice(handle, count):
            fens.append(" ".join(line.split()[:6]))  # the seventh field is the game id
    return fens


def _status(port: int) -> dict:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        connection.request("GET", "/api/v1/status")
        return json.loads(connection.getresponse().read())
    finally:
        connection.close()


def _wait_ready(server: subprocess.Popen, port: int, workers: int, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            sys.exit("retro serve exited before it was ready")
        try:
            if _status(port)["pool"]["ready"] == workers:
                return
        except OSError:
            pass
        time.sleep(0.2)
    sys.exit("retro serve did not get ready")


class _MemorySampler(threading.Thread):
    """Peak RSS of a process and its children, sampled every 50 ms."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.root, self.peak, self.stopped = psutil.Process(pid), 0, threading.Event()

    def run(self) -> None:
        while not self.stopped.is_set():
            total = 0
            for process in [self.root, *self.root.children(recursive=True)]:
                try:
                    total += process.memory_info().rss
                except psutil.Error:
                    pass
            self.peak = max(self.peak, total)
            self.stopped.wait(0.05)


def _client(
    port: int,
    jobs: collections.deque,
    latencies: list[float],
    results: list[tuple[str, int, dict]],
    deadline: float,
    batch: bool,
) -> None:
    """Send the chunks of ``jobs`` (one FEN each, or K with ``batch``); one result per FEN."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
    path = "/api/v1/dead/batch" if batch else "/api/v1/dead"
    try:
        while time.monotonic() < deadline:
            try:
                chunk = jobs.popleft()
            except IndexError:
                return
            body = json.dumps({"fens": chunk} if batch else {"fen": chunk[0]})
            start = time.perf_counter()
            try:
                connection.request("POST", path, body, {"Content-Type": "application/json"})
                response = connection.getresponse()
                payload = response.read()
                status = response.status
            except (OSError, http.client.HTTPException) as error:
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
                results.extend((fen, 0, {"error": repr(error)}) for fen in chunk)
                continue
            latencies.append(time.perf_counter() - start)
            try:
                answer = json.loads(payload)
            except ValueError:
                answer = {"error": payload[:200].decode(errors="replace")}
            records = answer.get("records", []) if batch and status == 200 else [answer] * len(chunk)
            if len(records) != len(chunk):
                records = [{"error": f"{len(records)} records for {len(chunk)} FENs"}] * len(chunk)
            results.extend((fen, status, record) for fen, record in zip(chunk, records, strict=True))
    finally:
        connection.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--deadline", type=float, default=900.0, help="stop sending after this many seconds")
    parser.add_argument("--batch", type=int, default=0, metavar="K", help="K positions per dead/batch request")
    args = parser.parse_args()
    if not 1 <= args.requests <= 30_000 or not 1 <= args.clients <= 64:
        parser.error("--requests must be 1..30000 and --clients 1..64")
    if not 0 <= args.batch <= 1000:
        parser.error("--batch must be 0..1000 (the server's default --max-batch)")
    fens = _fens(args.requests)
    size = max(1, args.batch)
    chunks = [fens[i : i + size] for i in range(0, len(fens), size)]
    port = _free_port()
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "retro.cli",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--workers",
            str(args.workers),
            "--queue",
            str(max(16, 2 * args.clients)),
        ],
        cwd=ROOT,
        env=env,
    )
    try:
        _wait_ready(server, port, args.workers)
        sampler = _MemorySampler(server.pid)
        sampler.start()
        jobs: collections.deque[list[str]] = collections.deque(chunks)
        latencies: list[float] = []
        results: list[tuple[str, int, dict]] = []
        deadline = time.monotonic() + args.deadline
        start = time.perf_counter()
        threads = [
            threading.Thread(target=_client, args=(port, jobs, latencies, results, deadline, args.batch > 0))
            for _ in range(args.clients)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        wall = time.perf_counter() - start
        sampler.stopped.set()
        sampler.join()
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
    failures = [
        (fen, status, record)
        for fen, status, record in results
        if status != 200 or record.get("fen", "").split()[:4] != fen.split()[:4]
    ]
    verdicts = collections.Counter(record.get("status", "?") for _, status, record in results if status == 200)
    ordered = sorted(latencies)

    def quantile(q: float) -> float:
        return 1e3 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    kind = f"dead/batch requests of {args.batch} positions" if args.batch else "dead requests"
    print(
        f"retro serve load: {len(results)} of {len(fens)} positions in {len(latencies)} {kind}, "
        f"{args.clients} clients, {args.workers} workers, loopback"
    )
    print(
        f"  wall {wall:.1f} s, throughput {len(latencies) / wall:.1f} requests/s, {len(results) / wall:.1f} positions/s"
    )
    if ordered:
        print(
            f"  latency p50 {quantile(0.50):.1f} ms, p90 {quantile(0.90):.1f} ms, p99 {quantile(0.99):.1f} ms, "
            f"max {1e3 * ordered[-1]:.1f} ms, mean {1e3 * statistics.fmean(ordered):.1f} ms"
        )
    print(f"  peak memory (server + workers, RSS) {sampler.peak / 2**20:.0f} MiB")
    print("  verdicts: " + ", ".join(f"{name} {count}" for name, count in verdicts.most_common()))
    print(f"  failed requests: {len(failures) + len(fens) - len(results)}")
    for fen, status, record in failures[:5]:
        print(f"    {status} {fen}: {record.get('error', record)}")
    return 1 if failures or len(results) != len(fens) else 0


if __name__ == "__main__":
    sys.exit(main())

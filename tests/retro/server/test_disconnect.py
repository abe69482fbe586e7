"""A client that disconnects frees its worker, and the server logs it in one line: on a live
server (uvicorn), over a real socket."""

from __future__ import annotations

import json
import socket
import tempfile
import time
import urllib.parse
import urllib.request
from typing import IO

import pytest

from tests.retro.server.conftest import running_server
from tests.retro.server.test_api import LONG_SEARCH


def _pool(url: str) -> dict[str, int]:
    with urllib.request.urlopen(f"{url}/api/v1/status", timeout=5) as response:
        return dict(json.load(response)["pool"])


def _leave_during_search(live_server: str) -> None:
    """Send a long proof search and close the connection once a worker has started it."""
    address = urllib.parse.urlsplit(live_server)
    body = json.dumps({"fen": LONG_SEARCH, "time_limit": 50}).encode()
    request = (
        f"POST /api/v1/proofgame HTTP/1.1\r\nHost: {address.netloc}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    ).encode() + body
    with socket.create_connection((address.hostname, address.port), timeout=5) as connection:
        connection.sendall(request)
        deadline = time.monotonic() + 10
        while _pool(live_server)["busy"] != 1:
            assert time.monotonic() < deadline, "the search did not start"
            time.sleep(0.05)


def test_client_disconnect_kills_the_search(live_server: str) -> None:
    _leave_during_search(live_server)
    closed = time.monotonic()
    while _pool(live_server)["busy"] != 0 or _pool(live_server)["ready"] != 2:
        assert time.monotonic() - closed < 20, "the worker was not freed after the client left"
        time.sleep(0.1)
    freed = time.monotonic() - closed
    pool = _pool(live_server)
    assert pool["busy"] == 0 and pool["ready"] == 2, pool  # the worker was killed and replaced
    assert freed < 20 < 50  # freed long before the request's own time limit


@pytest.mark.slow
def test_a_disconnect_is_logged_in_one_line() -> None:
    with tempfile.TemporaryFile() as log:
        with running_server(workers=1, stderr=log) as url:
            _leave_during_search(url)
            deadline = time.monotonic() + 20
            while _pool(url)["ready"] != 1 or b"disconnected" not in _read(log):
                assert time.monotonic() < deadline, _read(log).decode()
                time.sleep(0.1)
            time.sleep(0.5)  # anything else it would log comes now
            lines = _read(log).decode().splitlines()
        assert lines == ["WARNING:  retro serve: POST /api/v1/proofgame: the client disconnected; its job was stopped"]


def _read(log: IO[bytes]) -> bytes:
    log.seek(0)
    return log.read()

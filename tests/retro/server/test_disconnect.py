"""A client that disconnects frees its worker: on a live server (uvicorn), over a real socket."""

from __future__ import annotations

import json
import socket
import time
import urllib.parse
import urllib.request

from tests.retro.server.test_api import LONG_SEARCH


def _pool(url: str) -> dict[str, int]:
    with urllib.request.urlopen(f"{url}/api/v1/status", timeout=5) as response:
        return dict(json.load(response)["pool"])


def test_client_disconnect_kills_the_search(live_server: str) -> None:
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
    closed = time.monotonic()
    while _pool(live_server)["busy"] != 0 or _pool(live_server)["ready"] != 2:
        assert time.monotonic() - closed < 20, "the worker was not freed after the client left"
        time.sleep(0.1)
    freed = time.monotonic() - closed
    pool = _pool(live_server)
    assert pool["busy"] == 0 and pool["ready"] == 2, pool  # the worker was killed and replaced
    assert freed < 20 < 50  # freed long before the request's own time limit

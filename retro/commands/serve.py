"""``retro serve``: the workbench page and the JSON API on a local HTTP server.

Start-up is checked before anything is announced: the options, then the listening
sockets, bound here (every address ``--host`` resolves to, as uvicorn would) and handed
to uvicorn. A bad port, a host that does not resolve or is not this machine's, or a port
in use is the usual one-line error and exit code 2; the line "the workbench is at ..."
is printed only once the sockets listen, so a client that reads it can connect.
"""

from __future__ import annotations

import argparse
import os
import socket
import sys

__all__ = ["register", "run", "listen"]


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="the workbench in a browser, and the JSON API (POST /api/v1/<command>)",
        description="Start a local HTTP server: the workbench page at / (board, set-up editor and a panel per "
        "command) and the JSON API at /api/v1/<command>, answering the records of `retro <command> --json` "
        "(described at /docs). The searches run in a bounded pool of worker processes; each request's time "
        "limit and node budget are capped by --max-time and --max-nodes; a request that runs out of time, "
        "or whose client disconnects, has its worker killed and replaced. Open http://HOST:PORT/ in a browser.",
        epilog="example: retro serve --port 8000 --workers 2   (then open http://127.0.0.1:8000/)",
    )
    parser.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)"
    )
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument(
        "--workers",
        type=int,
        default=os.cpu_count() or 1,
        metavar="N",
        help="worker processes for the searches (default: the number of CPUs)",
    )
    parser.add_argument(
        "--queue",
        type=int,
        default=16,
        metavar="N",
        help="requests that may wait for a busy pool; beyond that the answer is 503 (default 16)",
    )
    parser.add_argument(
        "--max-time",
        type=float,
        default=60.0,
        metavar="SEC",
        help="time limit of a request, and cap on the time it asks for (default 60)",
    )
    parser.add_argument(
        "--max-nodes",
        type=int,
        default=1_000_000,
        metavar="N",
        help="cap on the node budget a request asks for (default 1,000,000)",
    )
    parser.add_argument(
        "--max-body", type=int, default=1 << 20, metavar="BYTES", help="largest request body (default 1 MiB)"
    )
    parser.add_argument(
        "--max-batch",
        type=int,
        default=1000,
        metavar="N",
        help="most FENs in one /api/v1/dead/batch request (default 1000)",
    )
    parser.add_argument(
        "--cages",
        metavar="FILE",
        help="known-cage library for lastmove (default: the project's data/cages.txt if present, the library "
        "`retro lastmove` reads by default); the server only reads it",
    )
    parser.set_defaults(func=run)


def listen(host: str, port: int, backlog: int = 2048) -> list[socket.socket]:
    """Listening TCP sockets on every address ``host`` resolves to (``ValueError`` with
    a one-line message when one cannot be bound: the host is unknown or not this
    machine's, the port is in use or reserved)."""
    if not 1 <= port <= 65535:
        raise ValueError(f"--port must be from 1 to 65535, got {port}")
    where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    try:
        addresses = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as error:
        raise ValueError(f"cannot listen on {where}: unknown host ({getattr(error, 'strerror', error)})") from None
    sockets: list[socket.socket] = []
    try:
        for family, kind, proto, _name, address in dict.fromkeys(addresses):
            sock = socket.socket(family, kind, proto)
            sockets.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            sock.bind(address)
            sock.listen(backlog)
    except OSError as error:
        for sock in sockets:
            sock.close()
        reason = (error.strerror or str(error)).lower()
        raise ValueError(f"cannot listen on {where}: {reason}") from None
    return sockets


def run(args: argparse.Namespace) -> int:
    for name in ("workers", "max_nodes", "max_body", "max_batch"):
        if getattr(args, name) < 1:
            raise ValueError(f"--{name.replace('_', '-')} must be at least 1")
    if args.queue < 0 or args.max_time <= 0:
        raise ValueError("--queue must be at least 0 and --max-time positive")
    from cages.library import default_library

    cages = args.cages or default_library()
    if cages is not None and not os.path.isfile(cages):
        raise ValueError(f"no cage library at {cages}")

    import uvicorn

    from retro.server.app import Settings, create_app
    from retro.server.commands import Limits

    limits = Limits(
        max_time=args.max_time,
        max_nodes=args.max_nodes,
        max_batch=args.max_batch,
        cages=os.path.abspath(cages) if cages else None,
    )
    app = create_app(Settings(workers=args.workers, queue=args.queue, max_body=args.max_body, limits=limits))
    sockets = listen(args.host, args.port)
    print(
        f"retro serve: the workbench is at http://{args.host}:{args.port}/ (API description at /docs); Ctrl-C stops it",
        flush=True,
    )
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(
            f"retro serve: warning: listening on {args.host}: anyone who reaches it can use the API "
            "(there is no authentication)",
            file=sys.stderr,
            flush=True,
        )
    try:
        uvicorn.Server(uvicorn.Config(app, log_level="warning")).run(sockets=sockets)
    finally:
        for sock in sockets:
            sock.close()
    return 0

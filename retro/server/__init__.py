"""``retro serve``: the workbench page and the JSON API over the ``retro`` commands.

* :mod:`retro.server.app` — the ASGI application (FastAPI on uvicorn): routes, limits.
* :mod:`retro.server.commands` — one request model per command and its command line.
* :mod:`retro.server.pool` — the bounded pool of worker processes (kill and replace).
* :mod:`retro.server.worker` — the worker process: runs ``retro COMMAND ... --json``.
* :mod:`retro.server.jobs` — background jobs the page polls and cancels.
* :mod:`retro.server.playback` — positions along a proof game, helpmate or retraction.
* ``static/`` — the page (HTML, JS, CSS), served from the package: no network needed.
"""

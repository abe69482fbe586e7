"""Batch work on a Dask distributed cluster (``--scheduler ADDRESS``).

The same contract as local batch runs (:func:`retro.batch.run_batch`): one call of a
picklable function per input, results yielded in input order, each as soon as it and
every earlier one are done, so callers can write and flush line by line and an
interrupted run loses only unfinished work (resume is the caller's business, exactly
as for local processes). At most ``window`` tasks are in flight (default: four per
worker thread), so long inputs stream instead of being submitted at once.

Needs the optional ``dask`` extra (``pip install 'retro[dask]'``, which installs
``dask[distributed]``); the workers must be able to import ``retro`` (same package
installed, e.g. ``dask worker ADDRESS`` started from the project's virtualenv).
"""

from __future__ import annotations

import collections
import itertools
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

__all__ = ["DistributedUnavailableError", "map_ordered"]

T = TypeVar("T")


class DistributedUnavailableError(ValueError):
    """``--scheduler`` was given but ``dask.distributed`` is not installed."""


def _client(scheduler: str, timeout: float) -> Any:
    try:
        from distributed import Client
    except ImportError:
        raise DistributedUnavailableError("--scheduler needs dask.distributed: pip install 'retro[dask]'") from None
    return Client(scheduler, timeout=timeout, set_as_default=False)


def map_ordered(
    function: Callable[[T], Any],
    items: Iterable[T],
    *,
    scheduler: str,
    window: int | None = None,
    timeout: float = 20.0,
) -> Iterator[Any]:
    """Yield ``function(item)`` for each item, in input order, computed on the cluster
    whose scheduler listens at ``scheduler`` (``tcp://host:port``). An exception
    raised by ``function`` is re-raised here, as a local run would. A scheduler that
    cannot be reached raises ``OSError`` (a timeout) after ``timeout`` seconds."""
    client = _client(scheduler, timeout)
    try:
        if window is None:
            window = 4 * max(1, sum(client.nthreads().values()))
        source = iter(items)
        pending: collections.deque = collections.deque(
            client.submit(function, item, pure=False) for item in itertools.islice(source, window)
        )
        while pending:
            future = pending.popleft()
            result = future.result()
            future.release()
            for item in itertools.islice(source, 1):
                pending.append(client.submit(function, item, pure=False))
            yield result
    finally:
        client.close()

"""The time limit of one unwinnability query.

:func:`time_limit` sets the deadline (a ``time.perf_counter()`` value) of the searches run
inside it, for the current context only (a ``contextvars.ContextVar``, so threads and
concurrent queries do not see each other's); :func:`current` reads it and :func:`check`
raises :class:`TimeLimitReached` once it has passed. The searches read the deadline when
they start and check it every so many nodes (:data:`CHECK_EVERY` and :data:`CHECK_EVERY_EXPANSIONS` in the
pure-Python searches, ``jitcore._CHECK_EVERY`` in the compiled one), so a query overruns its limit by
at most the time of that many nodes plus the step that was running between two checks
(the semi-static checks are not interrupted). Without a deadline nothing is checked and
the searches visit exactly the same nodes: a time limit only decides when a query stops,
and a stopped query answers ``undetermined`` — running out of time proves nothing.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = ["TimeLimitReached", "time_limit", "current", "check", "CHECK_EVERY", "CHECK_EVERY_EXPANSIONS"]

#: Nodes between two looks at the clock in the pure-Python Find-Helpmate (a power of two:
#: the test is ``count & (CHECK_EVERY - 1) == 0``).
CHECK_EVERY = 256
#: Expansions between two looks at the clock in the closure searches and the scouts (an
#: expansion enters all the children of a position at once, about 30 on average).
CHECK_EVERY_EXPANSIONS = 16

_DEADLINE: ContextVar[float | None] = ContextVar("retro_unwinnable_deadline", default=None)


class TimeLimitReached(Exception):
    """The query's deadline passed during a search (caught by the routine, which answers
    ``undetermined``; never seen by the callers of :func:`retro.unwinnable.analyze`)."""


@contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Run the body with a deadline ``seconds`` from now (``None``: no deadline)."""
    token = _DEADLINE.set(None if seconds is None else time.perf_counter() + seconds)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def current() -> float | None:
    """The deadline of the current context (a ``time.perf_counter()`` value), or None."""
    return _DEADLINE.get()


def check(deadline: float | None) -> None:
    """Raise :class:`TimeLimitReached` if ``deadline`` (None: none) has passed."""
    if deadline is not None and time.perf_counter() >= deadline:
        raise TimeLimitReached

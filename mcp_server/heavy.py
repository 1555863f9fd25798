"""Heavy building off the event loop, one job at a time per worker, for at most a share of the time.

A page of a long game's log or a replay step is real work (milliseconds to a few tenths of a second of
CPU). Run on the event loop, a few clients asking for such pages in a loop hold every other request of
the worker behind them; run in as many threads as they ask for, they still share the interpreter with
the loop. :func:`off_loop` runs such a job in a worker thread under one per-process limiter, so however
many are asked for at once, one runs and the rest wait without using the CPU, and the event loop keeps
serving the other clients between the job's slices.

One job at a time is not enough when clients ask for heavy pages back to back: the worker thread then
never rests, and every time the event loop releases the interpreter (a socket write, a database read) it
waits up to a switch interval to get it back, so every other request slows down several times over
(benchmarks/attack.py, "replay page": the worker thread busy 90% of the time, other clients' p99 3.3x
idle). After each job the next one waits until heavy work has used at most :data:`HEAVY_SHARE` of the
time since the previous one started: a job of ``t`` seconds is followed by a rest of
``t * (1 / HEAVY_SHARE - 1)`` (at most :data:`MAX_REST_S`). Heavy pages queue longer under a flood; the
other requests keep their pace.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import Any, TypeVar

import anyio
import anyio.to_thread

T = TypeVar("T")

HEAVY_JOBS = 1
"""Heavy jobs a worker runs at once (the others queue, using no CPU)."""
HEAVY_SHARE = 0.25
"""The most of a worker's time heavy jobs may take when they come back to back (they rest in between)."""
MAX_REST_S = 1.0
"""The longest rest after one heavy job (a job that waited long for the interpreter does not stall the queue)."""

_limiter: anyio.CapacityLimiter | None = None
_rest_until = 0.0


def limiter() -> anyio.CapacityLimiter:
    """Return the process's limiter of heavy jobs (made on first use, inside the running event loop)."""
    global _limiter
    if _limiter is None:
        _limiter = anyio.CapacityLimiter(HEAVY_JOBS)
    return _limiter


async def off_loop(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run ``fn(*args, **kwargs)`` in a worker thread, one heavy job at a time per process, heavy jobs taking at
    most :data:`HEAVY_SHARE` of the time; return its result.

    Raises:
        Exception: whatever ``fn`` raises.
    """
    global _rest_until
    async with limiter():
        rest = _rest_until - time.monotonic()
        if rest > 0:
            await anyio.sleep(rest)
        start = time.monotonic()
        try:
            return await anyio.to_thread.run_sync(functools.partial(fn, *args, **kwargs))
        finally:
            took = time.monotonic() - start
            _rest_until = time.monotonic() + min(MAX_REST_S, took * (1 / HEAVY_SHARE - 1))

"""Heavy building off the event loop, one job at a time per worker.

A page of a long game's log or a replay step is real work (milliseconds to a few tenths of a second of
CPU). Run on the event loop, a few clients asking for such pages in a loop hold every other request of
the worker behind them; run in as many threads as they ask for, they still share the interpreter with
the loop. :func:`off_loop` runs such a job in a worker thread under one per-process limiter, so however
many are asked for at once, one runs and the rest wait without using the CPU, and the event loop keeps
serving the other clients between the job's slices.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

import anyio
import anyio.to_thread

T = TypeVar("T")

HEAVY_JOBS = 1
"""Heavy jobs a worker runs at once (the others queue, using no CPU)."""

_limiter: anyio.CapacityLimiter | None = None


def limiter() -> anyio.CapacityLimiter:
    """Return the process's limiter of heavy jobs (made on first use, inside the running event loop)."""
    global _limiter
    if _limiter is None:
        _limiter = anyio.CapacityLimiter(HEAVY_JOBS)
    return _limiter


async def off_loop(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run ``fn(*args, **kwargs)`` in a worker thread, one heavy job at a time per process; return its result.

    Raises:
        Exception: whatever ``fn`` raises.
    """
    return await anyio.to_thread.run_sync(functools.partial(fn, *args, **kwargs), limiter=limiter())

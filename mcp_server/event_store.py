"""A bounded in-memory SSE event store for ``--streaming``: priming events, ``retry`` and resumption.

With an event store the SDK's streamable HTTP transport (protocols 2025-11-25 and later) opens every
SSE stream with a *priming event* (an id and empty data) carrying the ``retry`` field
(:data:`RETRY_MS`), gives every message an event id, and lets a client whose stream broke reconnect
with ``GET`` and ``Last-Event-ID`` to receive what it missed (SEP-1699, SSE polling).

The store is per worker and bounded: at most :data:`MAX_EVENTS` events in all and
:data:`MAX_EVENTS_PER_STREAM` per stream, the oldest dropped first, and nothing older than
:data:`MAX_AGE_S`. A client that comes back after its events were dropped gets nothing replayed.
"""

from __future__ import annotations

import contextlib
import itertools
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass

from mcp.server.streamable_http import EventCallback, EventId, EventMessage, EventStore, StreamId
from mcp_types import JSONRPCMessage

RETRY_MS = 2000
"""The ``retry`` field of priming events: milliseconds a client waits before reconnecting a broken stream."""

MAX_EVENTS = 5000
"""The most events held in all (oldest dropped first)."""

MAX_EVENTS_PER_STREAM = 200
"""The most events held for one stream (oldest dropped first)."""

MAX_AGE_S = 600.0
"""Events older than this many seconds are dropped (a session idle that long is closed anyway)."""


@dataclass(frozen=True)
class _Event:
    event_id: EventId
    stream_id: StreamId
    message: JSONRPCMessage | None
    at: float


class MemoryEventStore(EventStore):
    """The SDK's :class:`EventStore` in memory, bounded in count, per stream and in age."""

    def __init__(
        self,
        *,
        max_events: int = MAX_EVENTS,
        per_stream: int = MAX_EVENTS_PER_STREAM,
        max_age_s: float = MAX_AGE_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.max_events = max_events
        self.per_stream = per_stream
        self.max_age_s = max_age_s
        self.clock = clock
        self._events: OrderedDict[EventId, _Event] = OrderedDict()
        self._streams: dict[StreamId, deque[EventId]] = {}
        self._ids = itertools.count(1)

    @property
    def count(self) -> int:
        """How many events are held now (not ``__len__``: the SDK tests the store for truth)."""
        return len(self._events)

    def _drop(self, event_id: EventId) -> None:
        event = self._events.pop(event_id, None)
        if event is None:
            return
        ids = self._streams.get(event.stream_id)
        if ids is not None:
            with contextlib.suppress(ValueError):  # dropped from its stream already
                ids.remove(event_id)
            if not ids:
                del self._streams[event.stream_id]

    def _expire(self, now: float) -> None:
        while self._events:
            oldest = next(iter(self._events.values()))
            if len(self._events) <= self.max_events and now - oldest.at <= self.max_age_s:
                return
            self._drop(oldest.event_id)

    async def store_event(self, stream_id: StreamId, message: JSONRPCMessage | None) -> EventId:
        """Store one event (``message`` ``None``: a priming event) and return its new id. Never raises."""
        now = self.clock()
        event_id = f"{next(self._ids)}"
        self._events[event_id] = _Event(event_id, stream_id, message, now)
        ids = self._streams.setdefault(stream_id, deque())
        ids.append(event_id)
        while len(ids) > self.per_stream:
            self._drop(ids[0])
        self._expire(now)
        return event_id

    async def replay_events_after(self, last_event_id: EventId, send_callback: EventCallback) -> StreamId | None:
        """Send the stream's messages stored after ``last_event_id``; return its stream id (``None``: unknown id).

        Raises:
            Exception: whatever ``send_callback`` raises (the client went away).
        """
        self._expire(self.clock())
        last = self._events.get(last_event_id)
        if last is None:
            return None
        after = False
        for event_id in list(self._streams.get(last.stream_id, ())):
            if after:
                event = self._events.get(event_id)
                if event is not None and event.message is not None:
                    await send_callback(EventMessage(event.message, event.event_id))
            elif event_id == last_event_id:
                after = True
        return last.stream_id

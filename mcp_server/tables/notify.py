"""Cross-worker wake-ups: a PostgreSQL ``LISTEN`` connection per process.

Every write to a table sends ``NOTIFY <channel>, '<table id> <revision>'`` in its transaction (see
:mod:`club_agentes.mcp_server.store.tables`), so PostgreSQL delivers it when the write commits. A
:class:`Listener` thread holds one connection that listens on the channel and hands each payload
to the event loop, where the table's waiters wake and catch up (not for a revision the process already
holds, such as its own write's: :func:`table_payload`). The connection is re-opened after an error
(with a short back-off); while it is down (or not yet up), waiters re-read the store at the short
``poll_s`` interval, and once a ``LISTEN`` is in place every waiter re-reads the store once, so a
notification sent while nobody listened is not slept past.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable
from typing import Any

log = logging.getLogger("club_agentes.tables.notify")


def table_payload(payload: str) -> tuple[str, int | None]:
    """Return the table id and the revision a write created from a notification's payload (``"t-... 7"``;
    ``None`` for a payload of the table id alone). Raises nothing."""
    table_id, _, revision = payload.partition(" ")
    return table_id, int(revision) if revision.isdigit() else None


def _conninfo(store: Any) -> str:
    """Return the connection string of the store's PostgreSQL pool."""
    pool = store.db._pool  # the Database keeps its psycopg pool; a LISTEN needs a connection of its own
    return str(pool.conninfo)


class Listener:
    """A thread listening for notifications on a channel and calling ``on_table(payload)`` in the event loop (on the
    tables' channel a payload is read by :func:`table_payload`)."""

    def __init__(
        self,
        store: Any,
        channel: str,
        loop: asyncio.AbstractEventLoop,
        on_table: Callable[[str], None],
        on_listening: Callable[[], None] | None = None,
    ) -> None:
        self.channel = channel
        self.loop = loop
        self.on_table = on_table
        self.on_listening = on_listening
        self._conninfo = _conninfo(store)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.ready = threading.Event()

    def start(self) -> None:
        """Start listening (returns at once; :attr:`ready` is set once the first ``LISTEN`` is in place)."""
        self._thread = threading.Thread(target=self._run, name=f"listen-{self.channel}", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop listening (the thread ends within a second)."""
        self._stop.set()

    def _run(self) -> None:
        import psycopg

        backoff = 0.2
        while not self._stop.is_set():
            try:
                with psycopg.connect(self._conninfo, autocommit=True) as conn:
                    conn.execute(f'LISTEN "{self.channel}"')
                    self.ready.set()
                    if self.on_listening is not None:  # what was sent before this LISTEN is not delivered
                        self._call(self.on_listening)
                    backoff = 0.2
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=1.0):
                            self._deliver(note.payload)
                            if self._stop.is_set():
                                break
            except Exception as exc:
                self.ready.clear()  # waiters poll the store at their short interval until LISTEN is back
                if self._stop.is_set():
                    return
                log.warning("table notifications: %s; listening again in %.1f s", str(exc).splitlines()[0], backoff)
                self._stop.wait(backoff)
                backoff = min(backoff * 2, 5.0)

    def _deliver(self, payload: str) -> None:
        self._call(self.on_table, payload)

    def _call(self, fn: Callable[..., None], *args: Any) -> None:
        try:
            self.loop.call_soon_threadsafe(fn, *args)
        except RuntimeError:  # the loop is closed: nothing waits any more
            self._stop.set()

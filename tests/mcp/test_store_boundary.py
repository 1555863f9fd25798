"""The store's async boundary (issue 26 point 3): a store call held by a lock waits in a thread, never on the
event loop. While another connection holds the row (PostgreSQL ``FOR UPDATE``) or the write lock (SQLite
``BEGIN IMMEDIATE``) that one store call needs, an unrelated coroutine keeps running and a second store call
on another connection completes; the lock is released only after they did, so a blocked loop fails the test
(the holder would give up after its timeout and the held call would end first)."""

from __future__ import annotations

import asyncio
import contextvars
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from club_agentes.mcp_server.store import Store, StoreError, TableRow

from tests.conftest import DbLocation

pytestmark = pytest.mark.anyio

requester: contextvars.ContextVar[str] = contextvars.ContextVar("requester", default="nobody")
HOLD_AT_MOST_S = 10.0
"""The lock holder's give-up time (only reached when the loop is blocked, i.e. when the test fails)."""


def _table(table_id: str) -> TableRow:
    return TableRow(table_id, "se-vende", {}, 5, True, ["agent", "agent"], False, 1.0, "playing")


@contextmanager
def held_lock(loc: DbLocation, table_id: str) -> Iterator[tuple[threading.Event, threading.Event]]:
    """Hold, from another connection in a thread, the lock a write to ``table_id`` needs, until released.

    Yields ``(locked, release)``: ``locked`` is set once the lock is held; setting ``release`` ends the hold.
    """
    locked, release, failed = threading.Event(), threading.Event(), []

    def hold() -> None:
        try:
            if loc.kind == "postgresql":
                import psycopg

                with psycopg.connect(loc.location, autocommit=True) as conn:
                    conn.execute(f'SET search_path TO "{loc.schema}"')
                    with conn.transaction():
                        conn.execute("SELECT id FROM game_tables WHERE id = %s FOR UPDATE", (table_id,))
                        locked.set()
                        release.wait(HOLD_AT_MOST_S)
            else:
                conn = sqlite3.connect(loc.location, isolation_level=None, timeout=30)
                try:
                    conn.execute("BEGIN IMMEDIATE")  # SQLite's write lock: every writer waits for it
                    locked.set()
                    release.wait(HOLD_AT_MOST_S)
                    conn.execute("COMMIT")
                finally:
                    conn.close()
        except Exception as exc:  # pragma: no cover - reported by the test below
            failed.append(exc)
            locked.set()

    thread = threading.Thread(target=hold, name="lock-holder")
    thread.start()
    try:
        yield locked, release
    finally:
        release.set()
        thread.join()
    assert not failed, failed


def started(fn: Callable[..., Any], flag: threading.Event) -> Callable[..., Any]:
    """Return ``fn`` that first sets ``flag`` (so the test knows the held call is under way in its thread)."""

    def call(*args: Any, **kwargs: Any) -> Any:
        flag.set()
        return fn(*args, **kwargs)

    return call


async def until(flag: threading.Event) -> None:
    """Yield to the loop until ``flag`` is set (never blocks the loop)."""
    while not flag.is_set():
        await asyncio.sleep(0.005)


async def test_a_held_store_call_does_not_block_other_coroutines(db_location: DbLocation) -> None:
    store, other = db_location.open(), db_location.open()
    try:
        store.tables.create_table(_table("t-000000000001"))
        store.tables.create_table(_table("t-000000000002"))
        with held_lock(db_location, "t-000000000001") as (locked, release):
            await until(locked)
            going = threading.Event()
            held = asyncio.create_task(
                store.run(
                    started(store.tables.abort_table, going),
                    "t-000000000001",
                    revision=1,
                    note="held by a lock",
                    now=time.time(),
                )
            )
            await until(going)  # the held call is in its thread, waiting for the lock
            ticks = 0
            for _ in range(50):  # an unrelated coroutine keeps running
                await asyncio.sleep(0)
                ticks += 1
            row = await other.run(other.tables.load_table, "t-000000000002")  # another connection answers
            assert not held.done(), "the held store call ended before the lock was released"
            assert ticks == 50 and row is not None and row.id == "t-000000000002"
            release.set()
            assert await held == 2  # and the held call completes once the lock is released
        assert store.tables.load_table("t-000000000001").status == "aborted"  # type: ignore[union-attr]
    finally:
        store.close()
        other.close()


async def test_a_second_call_on_the_same_postgresql_store_runs_beside_a_held_one(pg_location: DbLocation) -> None:
    """PostgreSQL's pool: the executor has a thread per pooled connection, so the same store answers a second
    call while its first one waits for a lock."""
    store = pg_location.open()
    try:
        assert store.db.workers > 1
        store.tables.create_table(_table("t-000000000001"))
        store.tables.create_table(_table("t-000000000002"))
        with held_lock(pg_location, "t-000000000001") as (locked, release):
            await until(locked)
            going = threading.Event()
            held = asyncio.create_task(
                store.run(started(store.tables.abort_table, going), "t-000000000001", revision=1, note="x", now=1.0)
            )
            await until(going)
            head = await store.run(store.tables.table_head, "t-000000000002")
            assert not held.done() and head is not None and head.revision == 1
            release.set()
            assert await held == 2
    finally:
        store.close()


async def test_run_passes_results_errors_and_context_and_refuses_once_closed(tmp_path) -> None:
    store = Store(tmp_path / "club.sqlite3")
    assert store.db.workers == 1
    assert await store.run(store.tables.load_table, "t-000000000009") is None
    with pytest.raises(ZeroDivisionError):
        await store.run(lambda: 1 / 0)
    requester.set("ana")  # the caller's context variables reach the call (as with asyncio.to_thread)
    assert await store.run(requester.get) == "ana"
    store.close()
    with pytest.raises(StoreError, match="is closed"):
        await store.run(store.tables.load_table, "t-000000000009")


async def test_sqlite_calls_run_inline_unless_they_would_wait(tmp_path) -> None:
    """SQLite: a call that would not wait runs on the loop's own thread (no hop); one that meets a lock of another
    process (or the connection in use by another thread) moves to the store's thread before doing anything."""
    loc = DbLocation("sqlite", str(tmp_path / "club.sqlite3"))
    store = loc.open()
    try:

        def where(table_id: str) -> str:
            store.tables.abort_table(table_id, revision=store.tables.table_head(table_id).revision, note="x", now=1.0)  # type: ignore[union-attr]
            return threading.current_thread().name

        store.tables.create_table(_table("t-000000000001"))
        store.tables.create_table(_table("t-000000000002"))
        assert await store.run(where, "t-000000000001") == threading.current_thread().name  # inline
        with held_lock(loc, "t-000000000002") as (locked, release):
            await until(locked)
            moved = asyncio.create_task(store.run(where, "t-000000000002"))
            for _ in range(20):
                await asyncio.sleep(0)
            assert not moved.done()
            release.set()
            assert (await moved).startswith("store-sqlite")  # waited in the store's thread
        assert store.tables.load_table("t-000000000002").status == "aborted"  # type: ignore[union-attr]
        busy, free = threading.Event(), threading.Event()

        def use_connection() -> None:  # another thread of this process (a bot lane) in a transaction
            with store.db.tx():
                busy.set()
                free.wait(HOLD_AT_MOST_S)

        lane = threading.Thread(target=use_connection)
        lane.start()
        await until(busy)
        read = asyncio.create_task(
            store.run(lambda: (store.tables.table_head("t-000000000001"), threading.current_thread().name))
        )
        for _ in range(20):
            await asyncio.sleep(0)
        assert not read.done()
        free.set()
        head, name = await read
        lane.join()
        assert head is not None and name.startswith("store-sqlite")
    finally:
        store.close()


async def test_an_inline_sqlite_call_that_committed_is_never_started_again(tmp_path) -> None:
    """An inline call that meets a lock after it committed a write waits where it is: moving it would repeat
    the write."""
    loc = DbLocation("sqlite", str(tmp_path / "club.sqlite3"))
    store = loc.open()
    try:
        store.tables.create_table(_table("t-000000000001"))
        runs = []
        holder: list[threading.Thread] = []
        locked, release = threading.Event(), threading.Event()

        def hold() -> None:
            conn = sqlite3.connect(loc.location, isolation_level=None, timeout=30)
            conn.execute("BEGIN IMMEDIATE")
            locked.set()
            release.wait(HOLD_AT_MOST_S)
            conn.execute("COMMIT")
            conn.close()

        def two_writes() -> int:
            runs.append(1)
            store.tables.create_table(_table(f"t-00000000010{len(runs)}"))  # committed
            holder.append(threading.Thread(target=hold))
            holder[0].start()
            locked.wait()
            threading.Timer(0.1, release.set).start()  # the lock goes away soon; this call waits for it inline
            return store.tables.abort_table("t-000000000001", revision=1, note="x", now=1.0)

        assert await store.run(two_writes) == 2
        holder[0].join()
        assert runs == [1] and len(store.tables.list_tables(limit=10)) == 2
    finally:
        store.close()

"""Fewer trips to the store per move, with the same answers (PostgreSQL, and SQLite in the last point).

* A call of ``store.run`` holds one pooled connection for all its statements (``Database._pinned_call``): a
  table's head and what a live copy missed were five checkouts from the pool, now one.
* The answer to a move (``play_move``, with or without ``wait_s``) is read from the live table the move was just
  written to, without reading the table's head again, while no other worker's ``NOTIFY`` says the table moved
  since (``TableService._unmoved``); once one does, the head is read as before.
* A move is looked at without reading the head first while no ``NOTIFY`` came since this process last read or
  wrote the table (``TableService._sync`` with ``trust``). When the table was behind after all (a ``NOTIFY`` on
  its way), the move is not refused on what the table in memory says, and the store refuses a write on a table
  behind it: the head is read and the move looked at again, as if it had just arrived.
* SQLite too: the answer to a write of this process, and a waiter that write wakes, are read from the table it
  wrote without ``PRAGMA data_version``; a turn's ``UPDATE`` checks the table row itself instead of reading it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from club_agentes.mcp_server.store import Store
from club_agentes.mcp_server.store.db import StoreError
from club_agentes.mcp_server.tables import TableService, catchup

from tests.conftest import DbLocation
from tests.mcp.helpers import CallCount
from tests.mcp.test_wakeups import service, two_agents

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def requests(store: Store) -> int:
    """Return how many connections the store's PostgreSQL pool has handed out so far."""
    return int(store.db._pool.get_stats().get("requests_num", 0))


async def test_one_store_call_takes_one_connection_for_all_its_statements(pg_location: DbLocation) -> None:
    store = pg_location.open()
    try:
        db = store.db
        db.migrate([])
        await store.run(lambda: db.one("SELECT 1"))  # the executor's thread exists

        def reads_and_writes() -> tuple[Any, ...]:
            a = db.one("SELECT 1")
            with db.tx() as tx:
                tx.execute("CREATE TABLE IF NOT EXISTS pin_probe (n BIGINT)")
                tx.execute("INSERT INTO pin_probe (n) VALUES (?)", (7,))
            b = db.all("SELECT n FROM pin_probe")
            return a, b

        before = requests(store)
        a, b = await store.run(reads_and_writes)
        assert (a, b) == ((1,), [(7,)])
        assert requests(store) - before == 1, "two reads and a transaction took one connection from the pool"

        def read_inside_a_transaction() -> tuple[Any, ...]:
            with db.tx() as tx:
                tx.execute("INSERT INTO pin_probe (n) VALUES (?)", (8,))
                outside = db.all("SELECT n FROM pin_probe ORDER BY n")  # another connection: not yet committed
            return outside, db.all("SELECT n FROM pin_probe ORDER BY n")

        before = requests(store)
        outside, after = await store.run(read_inside_a_transaction)
        assert outside == [(7,)] and after == [(7,), (8,)]
        assert requests(store) - before == 2

        def fails_then_reads() -> Any:
            with pytest.raises(Exception, match="pin_missing"), db.tx() as tx:
                tx.execute("INSERT INTO pin_missing (n) VALUES (1)")
            return db.one("SELECT COUNT(*) FROM pin_probe")  # the connection is usable after the rollback

        assert await store.run(fails_then_reads) == (2,)
    finally:
        store.close()


class Heads:
    """Count the reads of a table's head (``catchup.read_fresh``) a service's store makes."""

    def __init__(self, svc: TableService) -> None:
        self.count = 0
        run: Callable[..., Any] = svc.store.run

        async def counted(fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
            if fn is catchup.read_fresh:
                self.count += 1
            return await run(fn, *args, **kwargs)

        svc.store.run = counted  # type: ignore[method-assign]


async def listening(*svcs: TableService) -> None:
    """Start the services and wait until each one's PostgreSQL listener is in place."""
    for svc in svcs:
        svc._ensure_started()
    for _ in range(500):
        if all(s._listener is not None and s._listener.ready.is_set() for s in svcs):
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the listeners did not start")


async def test_a_moves_answer_is_read_from_the_table_it_was_written_to(pg_location: DbLocation) -> None:
    async with service(pg_location, poll_s=60.0) as a, service(pg_location, poll_s=60.0) as b:
        await listening(a, b)
        tid, ana, bob = await two_agents(a)
        heads = Heads(a)
        first = await a.wait(tid, ana, 0)
        assert first.ready
        base = heads.count
        played = await a.play(tid, ana, first.state.moves[0].id, first.state.seat_version)
        assert played.accepted and played.state.table.version == first.state.table.version + 1
        assert heads.count == base, "nothing came from the other worker since ana's read: no head read"

        # bob moves on the other worker; ana's play_move(wait_s) on this one wakes on its NOTIFY.
        async def bob_moves() -> None:
            out = await b.wait(tid, bob, 10)
            assert out.ready
            await b.play(tid, bob, out.state.moves[0].id, out.state.seat_version)

        mover = asyncio.create_task(bob_moves())
        out = await a.wait(tid, ana, 10)
        await mover
        assert out.ready and out.waited_s < 5, "the other worker's move woke the waiter"
        after_bob = out.state.table.version
        waiting = asyncio.create_task(a.play(tid, ana, out.state.moves[0].id, out.state.seat_version, 10))
        out_b = await b.wait(tid, bob, 10)
        assert out_b.ready
        await b.play(tid, bob, out_b.state.moves[0].id, out_b.state.seat_version)
        answered = await asyncio.wait_for(waiting, 10)
        assert answered.accepted and answered.state.decision.yours
        assert answered.state.table.version == after_bob + 2


async def test_news_from_another_worker_makes_the_answer_read_the_head(pg_location: DbLocation) -> None:
    async with service(pg_location, poll_s=60.0) as a, service(pg_location, poll_s=60.0) as b:
        await listening(a, b)
        tid, ana, _bob = await two_agents(a)
        first = await a.wait(tid, ana, 0)
        live = a.live(tid)
        assert live is not None
        written = a.written(live)
        assert a._unmoved(live, written)
        a._on_notify(f"{tid} {live.revision + 1}")  # another worker stored a newer revision
        assert not a._unmoved(live, written)
        heads = Heads(a)
        await a._fresh(tid, written)
        assert heads.count == 1, "the head is read when another worker may have written"
        fresh = a.written(live)
        a._on_notify(f"{tid} {live.revision}")  # a revision this process holds already is no news
        assert a._unmoved(live, fresh)
        a._on_listening()  # the listener came back: notifications may have been missed
        assert not a._unmoved(live, fresh)
        assert first.ready


class Deaf:
    """Hold back a service's NOTIFYs (as if they were still on their way), then deliver them."""

    def __init__(self, svc: TableService) -> None:
        assert svc._listener is not None
        self.listener = svc._listener
        self.held: list[str] = []
        self.on_table = self.listener.on_table
        self.listener.on_table = self.held.append

    def deliver(self) -> None:
        self.listener.on_table = self.on_table
        for payload in self.held:
            self.on_table(payload)


async def test_a_move_on_a_table_behind_the_store_is_looked_at_again_not_refused(pg_location: DbLocation) -> None:
    async with service(pg_location, poll_s=60.0) as a, service(pg_location, poll_s=60.0) as b:
        await listening(a, b)
        tid, ana, bob = await two_agents(a)
        first = await a.wait(tid, ana, 0)
        assert first.ready and first.state.table.version == 0
        deaf = Deaf(a)
        # ana plays on the other worker, then bob: worker a hears nothing and still holds version 0.
        m1 = await b.play(tid, ana, first.state.moves[0].id, first.state.seat_version)
        seen = await b.wait(tid, bob, 0)
        m2 = await b.play(tid, bob, seen.state.moves[0].id, seen.state.seat_version)
        assert m1.accepted and m2.accepted
        live = a.live(tid)
        assert live is not None and live.version == 0 and live.synced == live.news
        heads = Heads(a)
        # ana's turn on the store (version 2) and in a's memory (version 0): the move (sent without a version) is
        # checked and played in memory, the store refuses the write, the head is read and the move played at 2.
        m3 = await a.play(tid, ana, "add 1", None)
        assert m3.accepted and m3.played_version == 3 and m3.state.table.version == 3
        assert heads.count >= 1
        # bob's turn on the store; a's memory is at version 3 and thinks bob decides: bob's move with a version
        # a does not know yet is not refused as "not yet there" but looked at on the store's head.
        seen = await b.wait(tid, bob, 0)
        m4 = await b.play(tid, bob, seen.state.moves[0].id, seen.state.seat_version)
        assert m4.accepted
        ana_now = await b.wait(tid, ana, 0)
        m5 = await a.play(tid, ana, ana_now.state.moves[0].id, ana_now.state.seat_version)
        assert m5.accepted and m5.played_version == 5, m5.refusal
        # a move that is refused on the store's head is refused as before, with the store's situation.
        m6 = await a.play(tid, ana, "add 1", None)
        assert not m6.accepted and m6.refusal is not None and m6.state.table.version == 5
        deaf.deliver()
        out = await a.wait(tid, bob, 0)
        assert out.ready and out.state.table.version == 5


async def test_a_workers_own_notify_heard_before_its_write_returns_is_no_news(pg_location: DbLocation) -> None:
    """The listener may hand a write's own ``NOTIFY`` to the event loop before the store call that wrote it
    returns (it did for about 45% of the moves of ``benchmarks/scale.py`` on two workers): it is no news, and the
    next reads of the table (the move's answer, the seat's next move) do not go to the store for it."""
    async with service(pg_location, poll_s=60.0) as a, service(pg_location, poll_s=60.0) as b:
        await listening(a, b)
        tid, ana, _bob = await two_agents(a)
        first = await a.wait(tid, ana, 0)
        live = a.live(tid)
        assert live is not None and live.synced == live.news
        deaf = Deaf(a)
        loop = asyncio.get_running_loop()
        append = a.store.tables.append

        def append_then_hear(app: Any) -> int:
            revision = append(app)
            deadline = time.monotonic() + 10
            while not deaf.held and time.monotonic() < deadline:
                time.sleep(0.01)
            loop.call_soon_threadsafe(deaf.deliver)
            time.sleep(0.2)  # the NOTIFY reaches the event loop before this store call's result does
            return revision

        a.store.tables.append = append_then_hear  # type: ignore[method-assign]
        news = live.news
        heads = Heads(a)
        out = await a.play(tid, ana, first.state.moves[0].id, first.state.seat_version)
        assert out.accepted
        assert deaf.held == [f"{tid} {live.revision}"], "the write's own NOTIFY came while it was being stored"
        assert live.news == news and live.synced == live.news
        assert a._unmoved(live, a.written(live))
        assert heads.count == 0


async def test_another_workers_notify_heard_during_a_write_is_news_once_the_write_ends(pg_location: DbLocation) -> None:
    """A ``NOTIFY`` put aside during a write counts as news when the write made another revision, or failed."""
    async with service(pg_location, poll_s=60.0) as a:
        tid, ana, _bob = await two_agents(a)
        await a.wait(tid, ana, 0)
        live = a.live(tid)
        assert live is not None
        held = live.revision
        for made, counted in ((held + 1, 0), (held + 2, 1), (None, 1)):
            news = live.news
            live.begin_write()
            live.heard(held + 1)
            assert live.news == news, "put aside while the write is being stored"
            live.end_write(made)
            assert live.news == news + counted, (made, counted)
        news = live.news
        live.heard(held)
        assert live.news == news, "a revision the table holds is no news"
        live.heard(held + 1)
        assert live.news == news + 1, "a newer revision heard while nothing is written is news"


async def test_a_table_and_what_a_copy_misses_are_read_in_one_statement_as_four_reads_give_them(
    pg_location: DbLocation,
) -> None:
    """``TableStore.load_table_since`` (PostgreSQL) gives what ``load_table``, ``load_moves``, ``load_events`` and
    ``seat_claims`` give, in one statement."""
    async with service(pg_location, poll_s=60.0) as a:
        tid, ana, bob = await two_agents(a)
        for token in (ana, bob, ana, bob):
            seen = await a.wait(tid, token, 0)
            assert seen.ready
            assert (await a.play(tid, token, seen.state.moves[0].id, seen.state.seat_version)).accepted
        tables = a.store.tables
        row = tables.load_table(tid)
        assert row is not None and row.version >= 4
        statements = CallCount(a.store.db, "one")
        for version, events in ((0, 0), (2, 1), (row.version, row.event_count)):
            found = tables.load_table_since(tid, version, row.revision - 1, events)
            assert found is not None and found[1] is not None
            assert found[0] == row
            assert found[1] == (
                tables.load_moves(tid, after=version, upto=row.version),
                tables.load_events(tid, everything=True, from_idx=events) if row.event_count > events else [],
                tables.seat_claims(tid),
            )
        assert tables.load_table_since(tid, row.version, row.revision, row.event_count) == (row, None)
        assert tables.load_table_since("t-none", 0, 0, 0) is None
        assert statements.calls == 5


def logged_statements(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Return a list that collects the SQL of every statement the store's transactions and cursors run
    (``Tx.execute`` and ``Tx.many``) until the test ends."""
    from club_agentes.mcp_server.store.db import Tx

    statements: list[str] = []
    execute, many = Tx.execute, Tx.many

    def logged(self: Tx, sql: str, args: Any = ()) -> int:
        statements.append(sql)
        return execute(self, sql, args)

    def logged_many(self: Tx, sql: str, rows: Any) -> None:
        statements.append(sql)
        many(self, sql, rows)

    monkeypatch.setattr(Tx, "execute", logged)
    monkeypatch.setattr(Tx, "many", logged_many)
    return statements


async def test_a_move_is_stored_on_postgresql_in_one_statement(
    pg_location: DbLocation, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``TableStore._append_alone``: the table row's check, update (seat versions merged) and ``NOTIFY``, the
    moves and the events are one statement, a transaction of its own (no ``BEGIN`` nor ``COMMIT``); nothing reads
    or locks the row first. A write the row does not match goes the checked way, in a transaction."""
    statements = logged_statements(monkeypatch)
    async with service(pg_location, poll_s=60.0) as a, service(pg_location, poll_s=60.0) as b:
        await listening(a, b)
        tid, ana, bob = await two_agents(a)
        heard: list[str] = []
        assert b._listener is not None
        on_table = b._listener.on_table
        b._listener.on_table = lambda payload: (heard.append(payload), on_table(payload))  # type: ignore[assignment]
        seen = await a.wait(tid, ana, 0)
        transactions: list[int] = []
        tx = a.store.db.tx
        a.store.db.tx = lambda: (transactions.append(1), tx())[1]  # type: ignore[method-assign]
        statements.clear()
        out = await a.play(tid, ana, seen.state.moves[0].id, seen.state.seat_version)
        assert out.accepted
        assert not transactions, "the one statement is a transaction of its own: no BEGIN, no COMMIT"
        writes = [s for s in statements if not s.startswith("SELECT")]
        assert len(writes) == 1 and writes[0].startswith("WITH u AS (UPDATE game_tables SET"), writes
        assert "INSERT INTO moves" in writes[0] and "INSERT INTO table_events" in writes[0]
        assert not [s for s in statements if "FOR UPDATE" in s or "pg_notify" in s.split("RETURNING")[0]]
        live = a.live(tid)
        assert live is not None
        row = a.store.tables.load_table(tid)
        assert row is not None and row.revision == live.revision and row.seat_versions == live.seat_versions
        for _ in range(200):
            if f"{tid} {row.revision}" in heard:
                break
            await asyncio.sleep(0.01)
        assert f"{tid} {row.revision}" in heard, "the other worker heard the write's NOTIFY"
        # A write numbered on an older log does not match the row: the checked way refuses it as stale (nothing
        # is written), and the move is looked at again on the table as stored.
        seen_b = await b.wait(tid, bob, 0)
        live_b = b.live(tid)
        assert live_b is not None and seen_b.ready
        live_b.event_count -= 1
        statements.clear()
        out_b = await b.play(tid, bob, seen_b.state.moves[0].id, seen_b.state.seat_version)
        assert out_b.accepted
        assert sum(1 for s in statements if "FOR UPDATE" in s) >= 1, "the checked way read and locked the row"
        after = a.store.tables.load_table(tid)
        assert after is not None and after.version == row.version + 1
        assert after.event_count == len(a.store.tables.load_events(tid, everything=True))
        assert [e.idx for e in a.store.tables.load_events(tid, everything=True)] == list(range(after.event_count))


class DataVersions:
    """Count the ``PRAGMA data_version`` reads (``Database.data_version``) a SQLite service's store makes."""

    def __init__(self, svc: TableService) -> None:
        self.count = 0
        read: Callable[[], int | None] = svc.store.db.data_version

        def counted() -> int | None:
            self.count += 1
            return read()

        svc.store.db.data_version = counted  # type: ignore[method-assign]


async def test_on_sqlite_a_moves_answer_and_a_waiter_it_wakes_read_no_data_version(tmp_path: Path) -> None:
    async with service(DbLocation("sqlite", str(tmp_path / "club.sqlite3")), poll_s=60.0) as svc:
        tid, ana, bob = await two_agents(svc)
        first = await svc.wait(tid, ana, 0)
        assert first.ready
        reads = DataVersions(svc)
        played = await svc.play(tid, ana, first.state.moves[0].id, first.state.seat_version)
        assert played.accepted and played.state.table.version == first.state.table.version + 1
        assert reads.count == 1, "the move's look at the table reads data_version; its answer does not"

        waiter = asyncio.create_task(svc.wait(tid, ana, 10))  # ana waits while bob decides
        live = svc.live(tid)
        assert live is not None
        for _ in range(2000):  # until the waiter has checked and sleeps (its check read data_version once)
            if live.waiters or waiter.done():
                break
            await asyncio.sleep(0)
        assert live.waiters == 1 and not waiter.done()
        reads.count = 0
        out = await svc.wait(tid, bob, 0)
        assert out.ready and reads.count == 1
        await svc.play(tid, bob, out.state.moves[0].id, out.state.seat_version)
        woken = await asyncio.wait_for(waiter, 5)
        assert woken.ready and woken.state.table.version == out.state.table.version + 1
        assert reads.count == 2, "the woken waiter reads the table it was woken by, not data_version"


async def test_on_sqlite_another_connections_commit_after_an_answer_is_read_next_time(tmp_path: Path) -> None:
    where = DbLocation("sqlite", str(tmp_path / "club.sqlite3"))
    async with service(where, poll_s=60.0) as a, service(where, poll_s=60.0) as b:
        tid, ana, bob = await two_agents(a)
        first = await a.wait(tid, ana, 0)
        played = await a.play(tid, ana, first.state.moves[0].id, first.state.seat_version)
        assert played.accepted
        out_b = await b.wait(tid, bob, 0)  # the other connection reads the file and moves bob
        assert out_b.ready
        await b.play(tid, bob, out_b.state.moves[0].id, out_b.state.seat_version)
        seen = await a.wait(tid, ana, 0)  # no write of its own: data_version says another connection committed
        assert seen.ready and seen.state.table.version == out_b.state.table.version + 1


async def test_a_move_is_stored_on_sqlite_with_the_rows_check_in_its_update(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``TableStore._append_at_once`` on SQLite: the table row is checked by the ``UPDATE`` that writes it
    (``RETURNING`` the new revision), then the moves and events; nothing reads the row first. A write the row does
    not match writes nothing that way and goes the checked way, in the same transaction."""
    statements = logged_statements(monkeypatch)
    async with service(DbLocation("sqlite", str(tmp_path / "club.sqlite3")), poll_s=60.0) as a:
        tid, ana, bob = await two_agents(a)
        seen = await a.wait(tid, ana, 0)
        statements.clear()
        out = await a.play(tid, ana, seen.state.moves[0].id, seen.state.seat_version)
        assert out.accepted
        assert [s.split(" (")[0].split(" SET")[0] for s in statements] == [
            "UPDATE game_tables",
            "INSERT INTO moves",
            "INSERT INTO table_events",
        ], statements
        assert "RETURNING revision" in statements[0]
        with pytest.raises(StoreError, match="for PostgreSQL"):
            a.store.db.write_alone("UPDATE game_tables SET note = 'x'")  # SQLite writes take tx()
        live = a.live(tid)
        row = a.store.tables.load_table(tid)
        assert live is not None and row is not None
        assert (row.version, row.revision, row.seat_versions) == (live.version, live.revision, live.seat_versions)

        # A write numbered on an older log: the UPDATE matches no row, the checked way reads the row and refuses
        # it as stale (nothing is written), and the move is looked at again on the table as stored.
        seen_b = await a.wait(tid, bob, 0)
        assert seen_b.ready
        live.event_count -= 1
        statements.clear()
        out_b = await a.play(tid, bob, seen_b.state.moves[0].id, seen_b.state.seat_version)
        assert out_b.accepted
        assert any(s.startswith("SELECT version, revision, status, event_count") for s in statements), statements
        after = a.store.tables.load_table(tid)
        assert after is not None and after.version == row.version + 1 and after.revision > row.revision
        events = a.store.tables.load_events(tid, everything=True)
        assert [e.idx for e in events] == list(range(after.event_count))
        moves = a.store.tables.load_moves(tid)
        assert [m.version for m in moves] == list(range(1, after.version + 1))

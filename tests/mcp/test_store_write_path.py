"""The store's write path for a move (issue 26 point 5): SQLite's busy timeout is set only when it changes, an inline
read or ``data_version`` that meets a busy file never waits on the loop, and an append merges the seat versions in
its ``UPDATE`` (``json_patch``) into the very text the merge of dicts writes."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest
from club_agentes.mcp_server.eventrow import EventRow
from club_agentes.mcp_server.store import Store, TableRow
from club_agentes.mcp_server.store.db import SQLITE_BUSY_MS
from club_agentes.mcp_server.store.tables import Append, StaleVersion

pytestmark = pytest.mark.anyio

HOLD_AT_MOST_S = 10.0


def _table(table_id: str) -> TableRow:
    return TableRow(table_id, "se-vende", {}, 5, True, ["agent", "agent"], False, 1.0, "playing")


def _busy_timeout(store: Store) -> int:
    conn = store.db._sqlite
    assert conn is not None
    return int(conn.execute("PRAGMA busy_timeout").fetchone()[0])


async def test_inline_calls_set_the_busy_timeout_once_and_calls_in_a_thread_wait(tmp_path: Path) -> None:
    store = Store(tmp_path / "club.sqlite3")
    try:
        store.tables.create_table(_table("t-000000000001"))
        assert _busy_timeout(store) == SQLITE_BUSY_MS  # a call off the loop waits
        for v in range(3):
            await store.run(
                store.tables.append, Append("t-000000000001", v, [(0, {"n": v}, "agent", 2.0)], [], "playing")
            )
            await store.run(store.tables.table_head, "t-000000000001")
            assert _busy_timeout(store) == 0  # inline calls that may move: kept at zero between them
        assert store.tables.table_head("t-000000000001") is not None  # a call off the loop (no inline call)
        assert _busy_timeout(store) == SQLITE_BUSY_MS
        assert store.db.data_version() is not None and _busy_timeout(store) == 0  # a peek never waits
    finally:
        store.close()


class _BusyFile:
    """A SQLite connection whose file answers "busy" to every statement run with a zero busy timeout (SQLite in WAL
    mode does so for a read only in rare moments, such as another process recovering the log)."""

    def __init__(self, store: Store) -> None:
        conn = store.db._sqlite
        assert conn is not None
        self.conn, self.db = conn, store.db

    def _check(self, sql: str) -> None:
        if self.db._busy_ms == 0 and not sql.startswith("PRAGMA busy_timeout"):
            raise sqlite3.OperationalError("database is locked")

    def execute(self, sql: str, args: Any = ()) -> Any:
        self._check(sql)
        return self.conn.execute(sql, args)

    def cursor(self) -> Any:
        outer, cur = self, self.conn.cursor()

        class Cursor:
            def execute(self, sql: str, args: Any = ()) -> Any:
                outer._check(sql)
                return cur.execute(sql, args)

            def __getattr__(self, name: str) -> Any:
                return getattr(cur, name)

        return Cursor()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.conn, name)


async def test_an_inline_read_or_peek_that_meets_a_busy_file_never_waits_on_the_loop(tmp_path: Path) -> None:
    """A file that answers "busy": ``data_version`` answers ``None`` and an inline read moves to the store's thread,
    where it reads with the busy timeout that waits."""
    store = Store(tmp_path / "club.sqlite3")
    real = store.db._sqlite
    try:
        store.tables.create_table(_table("t-000000000001"))
        store.db._sqlite = _BusyFile(store)  # type: ignore[assignment]
        assert store.db.data_version() is None
        row, name = await store.run(
            lambda: (store.tables.load_table("t-000000000001"), threading.current_thread().name)
        )
        assert row is not None and name.startswith("store-sqlite")
        assert store.db._busy_ms == SQLITE_BUSY_MS
        head = await store.run(store.tables.table_head, "t-000000000001")  # again: the file is still busy
        assert head is not None and head.revision == 1
    finally:
        store.db._sqlite = real
        store.close()


async def test_seat_versions_merged_by_the_update_are_the_text_the_merge_of_dicts_writes(tmp_path: Path) -> None:
    merged, decoded = Store(tmp_path / "a.sqlite3"), Store(tmp_path / "b.sqlite3")
    try:
        assert merged.tables._patch
        decoded.tables._patch = False  # the merge in Python, as on PostgreSQL
        changes: list[dict[int, int]] = [{}, {1: 1}, {0: 2, 3: 2}, {12: 3, 1: 3}, {}, {3: 5, 2: 5}, {0: 6}]
        for store in (merged, decoded):
            store.tables.create_table(
                TableRow(
                    "t-000000000001",
                    "se-vende",
                    {},
                    5,
                    True,
                    ["agent", "agent", "bot", "agent"],
                    False,
                    1.0,
                    "playing",
                    seat_versions={2: 0, 0: 0},
                ),
                [(0, None, "dealt", None)],
            )
            for v, seen in enumerate(changes):
                events = [EventRow(1 + v, v + 1, (0, 2), f"move {v}", {"n": v})]
                store.tables.append(
                    Append(
                        "t-000000000001", v, [(v % 4, {"n": v}, "agent", 2.0)], events, "playing", seat_versions=seen
                    )
                )
            with pytest.raises(StaleVersion):  # still refused when stale
                store.tables.append(Append("t-000000000001", 2, [(0, {"n": 9}, "agent", 3.0)], [], "playing"))
        texts = [
            s.db.one("SELECT seat_versions, event_count, revision FROM game_tables WHERE id = 't-000000000001'")
            for s in (merged, decoded)
        ]
        assert texts[0] == texts[1] == ('{"2":5,"0":6,"1":3,"3":5,"12":3}', 8, 8)
        assert merged.tables.load_table("t-000000000001") == decoded.tables.load_table("t-000000000001")
    finally:
        merged.close()
        decoded.close()

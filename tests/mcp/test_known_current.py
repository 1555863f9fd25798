"""On SQLite a process skips re-reading a table's revision only while nobody else can have changed it:
its own writes and reads are known, any commit by another connection (another worker, the CLI) forgets
everything (``PRAGMA data_version``)."""

from __future__ import annotations

import threading
from pathlib import Path

from club_agentes.mcp_server.store import TableRow
from club_agentes.mcp_server.store.tables import Append

from tests.conftest import DbLocation

TABLE = "t-000000000001"
OTHER = "t-000000000002"


def _row(table_id: str) -> TableRow:
    return TableRow(table_id, "se-vende", {}, 5, True, ["agent", "agent"], False, 1.0, "playing")


def _append(table_id: str, base: int) -> Append:
    return Append(
        table_id=table_id, base_version=base, moves=[(0, {"type": "x"}, "agent", 2.0)], events=[], status="playing"
    )


def test_own_writes_and_reads_are_known_until_another_connection_commits(tmp_path: Path) -> None:
    where = DbLocation("sqlite", str(tmp_path / "club.sqlite3"))
    mine, other = where.open(), where.open()
    try:
        mine.tables.create_table(_row(TABLE))
        mine.tables.create_table(_row(OTHER))
        assert not mine.tables.known_current(TABLE, 0)  # the first check starts the record: nothing known yet
        revision = mine.tables.append(_append(TABLE, 0))
        assert mine.tables.known_current(TABLE, revision)
        assert not mine.tables.known_current(TABLE, revision - 1)  # an older revision is never current
        assert not mine.tables.known_current(OTHER, 0)  # never read nor written here

        other.tables.append(_append(OTHER, 0))  # another connection commits (to another table, even)
        assert not mine.tables.known_current(TABLE, revision)  # so nothing is known any more
        head = mine.tables.table_head(TABLE)
        assert head is not None and head.revision == revision
        assert mine.tables.known_current(TABLE, revision)  # read again: known again

        newer = other.tables.append(_append(TABLE, 1))  # the other connection moves this very table on
        assert not mine.tables.known_current(TABLE, revision)
        assert mine.tables.table_head(TABLE).revision == newer  # type: ignore[union-attr]
        assert mine.tables.known_current(TABLE, newer)
    finally:
        mine.close()
        other.close()


def test_a_busy_connection_never_claims_to_know(tmp_path: Path) -> None:
    store = DbLocation("sqlite", str(tmp_path / "club.sqlite3")).open()
    taken, release = threading.Event(), threading.Event()

    def hold() -> None:  # the store's thread using the connection
        with store.db._lock:
            taken.set()
            release.wait(10)

    try:
        store.tables.create_table(_row(TABLE))
        assert not store.tables.known_current(TABLE, 0)  # the first check starts the record
        revision = store.tables.append(_append(TABLE, 0))
        assert store.tables.known_current(TABLE, revision)
        worker = threading.Thread(target=hold)
        worker.start()
        taken.wait(10)
        assert store.db.data_version() is None
        assert not store.tables.known_current(TABLE, revision)
        release.set()
        worker.join()
        assert store.tables.known_current(TABLE, revision)
    finally:
        release.set()
        store.close()


def test_postgresql_never_claims_to_know(db_location: DbLocation) -> None:
    store = db_location.open()
    try:
        store.tables.create_table(_row(TABLE))
        assert not store.tables.known_current(TABLE, 0)  # the first check starts the record
        revision = store.tables.append(_append(TABLE, 0))
        assert store.tables.known_current(TABLE, revision) == (db_location.kind == "sqlite")
    finally:
        store.close()

"""What a turn costs the store in pages: SQLite files made with small pages, and the stalled-bot index only on
rows that wait for a bot (an agents' turn leaves it alone)."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path
from typing import Any

from club_agentes.mcp_server.eventrow import EventRow
from club_agentes.mcp_server.store import MoveRow, Store
from club_agentes.mcp_server.store.db import SQLITE_PAGE_SIZE
from club_agentes.mcp_server.store.tables import Append

from tests.conftest import DbLocation
from tests.mcp.test_storage import _append, _table


def test_a_new_sqlite_file_has_small_pages_and_an_older_file_keeps_its_own(tmp_path: Path) -> None:
    new = Store(tmp_path / "new.sqlite3")
    assert new.db._sqlite is not None
    assert new.db._sqlite.execute("PRAGMA page_size").fetchone()[0] == SQLITE_PAGE_SIZE == 1024
    new.close()

    old_path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(old_path)  # a file made before: SQLite's default page size, a table in it
    conn.execute("PRAGMA page_size=4096")
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    conn.close()
    old = Store(old_path)
    assert old.db._sqlite is not None
    assert old.db._sqlite.execute("PRAGMA page_size").fetchone()[0] == 4096
    old.tables.create_table(_table("t-0000000000a1", 1.0, ["bot:random", "bot:random"]))
    old.tables.append(_append("t-0000000000a1", 0, 0, "x"))
    old.close()
    again = Store(old_path)
    assert [m.version for m in again.tables.load_moves("t-0000000000a1")] == [1]
    again.close()


def _waiting(s: Store, table_id: str, waiting_on: str | None, updated_at: float, status: str = "playing") -> None:
    with s.db.tx() as tx:
        tx.execute(
            "UPDATE game_tables SET waiting_on = ?, updated_at = ?, status = ? WHERE id = ?",
            (waiting_on, updated_at, status, table_id),
        )


def test_stalled_bot_tables_are_found_through_the_index_of_rows_waiting_for_a_bot(db_location: DbLocation) -> None:
    s = db_location.open()
    for k, (waiting_on, at, status) in enumerate(
        [("bot", 5.0, "playing"), ("agent", 1.0, "playing"), ("bot", 2.0, "playing"), ("bot", 1.0, "finished"),
         ("bot", 9.0, "playing"), (None, 1.0, "playing")]
    ):  # fmt: skip
        tid = f"t-0000000000b{k}"
        s.tables.create_table(_table(tid, 1.0, ["bot:random", "bot:random"]))
        _waiting(s, tid, waiting_on, at, status)
    asked: list[tuple[str, Any]] = []
    read = s.db.all

    def logged(sql: str, args: Any = ()) -> list[tuple[Any, ...]]:
        asked.append((sql, args))
        return read(sql, args)

    s.db.all = logged  # type: ignore[method-assign]  # the query stalled_bot_tables asks, to explain it below
    assert s.tables.stalled_bot_tables(6.0) == ["t-0000000000b2", "t-0000000000b0"]
    assert s.tables.stalled_bot_tables(6.0, limit=1) == ["t-0000000000b2"]
    assert s.tables.stalled_bot_tables(1.5) == []
    s.db.all = read  # type: ignore[method-assign]
    (query, args), *_ = asked
    with s.db.tx() as tx:
        if tx.dialect == "sqlite":
            plan = " ".join(str(r[3]) for r in tx.all("EXPLAIN QUERY PLAN " + query, args))
        else:
            tx.execute("SET LOCAL enable_seqscan = off")  # a handful of rows: make the planner show its index
            plan = " ".join(str(r[0]) for r in tx.all("EXPLAIN " + query, args))
        names = {str(r[0]) for r in tx.all(_INDEXES[tx.dialect], ())}
    assert "game_tables_waiting_on_bot" in plan, plan
    assert "game_tables_waiting_on_bot" in names and "game_tables_by_waiting" not in names
    s.close()


_INDEXES = {
    "sqlite": "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'game_tables'",
    "postgresql": "SELECT indexname FROM pg_indexes WHERE tablename = 'game_tables' AND schemaname = current_schema()",
}


def test_a_store_made_before_drops_the_index_of_every_row_for_the_one_of_rows_waiting_for_a_bot(
    tmp_path: Path,
) -> None:
    path = tmp_path / "club.sqlite3"
    Store(path).close()
    conn = sqlite3.connect(path)  # back to the schema of tables migration 2
    conn.execute("DROP INDEX game_tables_waiting_on_bot")
    conn.execute("CREATE INDEX game_tables_by_waiting ON game_tables (waiting_on, updated_at)")
    conn.execute("DELETE FROM schema_migrations WHERE component = 'tables' AND version = 3")
    conn.commit()
    conn.close()
    s = Store(path)
    with s.db.tx() as tx:
        names = {str(r[0]) for r in tx.all(_INDEXES["sqlite"], ())}
    assert "game_tables_waiting_on_bot" in names and "game_tables_by_waiting" not in names
    s.close()


def _turn(table_id: str, base: int) -> Append:
    """A turn at a table of agents, written at time ``10 + base`` (each turn moves the row's updated_at)."""
    return Append(
        table_id=table_id,
        base_version=base,
        moves=[(base % 2, {"type": "x"}, "agent", 2.0)],
        events=[(base + 1, None, f"move {base + 1}", None)],
        status="playing",
        waiting_on="agent",
        now=10.0 + base,
    )


def _wal_pages(s: Store, table_id: str, base: int) -> int:
    """Append one turn at ``table_id`` (from version ``base``, the row waiting on an agent) and return the pages
    its commit wrote to the WAL (the WAL emptied first)."""
    conn = s.db._sqlite
    assert conn is not None
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    s.tables.append(_turn(table_id, base))
    wal = Path(s.db.location + "-wal").stat().st_size
    return (wal - 32) // (SQLITE_PAGE_SIZE + 24)  # a 32-byte header, then frames of a 24-byte header and a page


def test_a_turn_at_a_table_of_agents_leaves_the_stalled_bot_index_alone(tmp_path: Path) -> None:
    """A turn rewrites the row's updated_at: with the index of every row (before tables migration 3) that changes
    one more page of every commit; the index of rows waiting for a bot is left alone at a table of agents."""
    s = Store(tmp_path / "club.sqlite3")
    s.tables.create_table(_table("t-0000000000c1", 1.0, ["bot:random", "bot:random"]))
    _waiting(s, "t-0000000000c1", "agent", 1.0)
    s.tables.append(_turn("t-0000000000c1", 0))  # the first rows of each table
    now = _wal_pages(s, "t-0000000000c1", 1)
    with s.db.tx() as tx:
        tx.execute("CREATE INDEX game_tables_by_waiting ON game_tables (waiting_on, updated_at)")
    before = _wal_pages(s, "t-0000000000c1", 2)
    assert before == now + 1, (before, now)
    assert s.tables.stalled_bot_tables(9.0) == []
    _waiting(s, "t-0000000000c1", "bot", 8.0)
    assert s.tables.stalled_bot_tables(9.0) == ["t-0000000000c1"]
    s.close()


_AWKWARD = ["", "a", 'quote " and \\ backslash', "línea\nnueva\ttab", "… «Construir» ✓ 🎲", "\u2028\u2029", "{}[],:"]


def test_a_turn_written_in_one_statement_reads_back_as_written(db_location: DbLocation) -> None:
    """On PostgreSQL a turn's moves and events travel as JSON text (:data:`~.tables._APPEND_AT_ONCE`): every
    value reads back as it was written, awkward text and floats included, on both stores."""
    rng = random.Random(5)
    s = db_location.open()
    s.tables.create_table(_table("t-0000000000d1", 1.0, ["bot:random", "bot:random"]))
    written: list[tuple[MoveRow, list[EventRow]]] = []
    idx = 0
    for base in range(40):
        move = {"type": rng.choice(_AWKWARD) or "x", "say": rng.choice(_AWKWARD), "n": rng.randint(-(2**62), 2**62)}
        at = rng.choice([1.0e9 + rng.random(), 0.1 + 0.2, 5e-324, 1.7976931348623157e308, float(base)])
        events = [
            EventRow(
                idx + k,
                base + 1,
                rng.choice([None, (0,), (0, 1)]),
                rng.choice(_AWKWARD) or "e",
                rng.choice([None, {"k": rng.choice(_AWKWARD), "v": [1, 2.5, None, True]}]),
            )
            for k in range(rng.randint(1, 3))
        ]
        idx += len(events)
        s.tables.append(
            Append(
                table_id="t-0000000000d1",
                base_version=base,
                moves=[(base % 2, move, rng.choice(["agent", "bot:random"]), at)],
                events=events,
                status="playing",
                waiting_on="agent",
                now=10.0 + base,
            )
        )
        written.append((MoveRow(base + 1, base % 2, move, "", at), events))
    moves = s.tables.load_moves("t-0000000000d1")
    assert [(m.version, m.seat, m.move, m.at) for m in moves] == [(w.version, w.seat, w.move, w.at) for w, _ in written]
    stored = s.tables.load_events("t-0000000000d1", everything=True)
    assert stored == [e for _, events in written for e in events]
    s.close()

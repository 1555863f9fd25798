"""The tables part of the store: tables, seat claims, the append-only move and event logs, snapshots.

Tables are event-sourced: a table row holds (game, config, seed, seats, table options) and the
``moves`` rows hold every accepted move in order; ``table_events`` holds every event those moves
(and the deal, at version 0) caused, with its audience, so logs are read without replaying;
``table_snapshots`` holds the game state every few moves and at the end, so a table loads as its
latest snapshot plus the moves after it.

Every change to a table (creation, a seat claim, moves, a status change, a timeout) is one
transaction that bumps the table's ``revision``: other processes sharing the database compare
it with the revision they hold and catch up on what they miss. A change also writes what it
causes in the same transaction: a claim writes the ``playing`` status it causes, the last moves
write the ``finished`` status and the result, so a crash can never leave them apart.

Moves are appended with the version they create as part of the primary key, and every write
reads the table row under a lock (``FOR UPDATE`` on PostgreSQL; SQLite's ``BEGIN IMMEDIATE``
serialises writers), so two racing submissions (even from two processes or machines sharing the
database) can never both apply: the second is refused with :class:`StaleVersion`.

On PostgreSQL every write also sends ``NOTIFY`` on :func:`channel_name` with the table id (and the
revision it creates), so the workers listening there wake their long-polls at once.

Durability: SQLite in WAL mode with ``synchronous=NORMAL`` commits each transaction to the
write-ahead log before the call returns, so a killed process loses no acknowledged move;
PostgreSQL commits durably.

Fault injection (tests only): every write calls :attr:`TableStore.fault_hook` with the name of each
point between its statements (``"create:table"``, ``"claim:seat"``, ``"append:moves"``,
``"append:events"``, ``"append:table"``...). In production it is :func:`no_fault`, which does
nothing; a test installs its own hook (raising there rolls the whole write back; the crash tests'
server launcher, ``tests/mcp/fault_server.py``, installs one that SIGKILLs the process at a point).
"""

from __future__ import annotations

import contextlib
import json
import re
import sqlite3
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, cast

import orjson
from club_agentes.mcp_server.eventrow import EventRow
from club_agentes.mcp_server.store.db import Database, IntegrityError, Migration, StorePart, Tx

STATUSES = ("waiting", "playing", "finished", "aborted")
"""Table statuses: open agent seats / being played / over with a result / stopped by the server."""

OPEN_STATUSES = ("waiting", "playing")
_KNOWN_TABLES = 10_000
"""At most this many tables' current revisions are remembered (:meth:`TableStore.known_current`)."""

MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        "tables",
        1,
        (
            """CREATE TABLE IF NOT EXISTS game_tables (
                id TEXT PRIMARY KEY,
                game TEXT NOT NULL,
                config TEXT NOT NULL,
                seed BIGINT NOT NULL,
                seeded INTEGER NOT NULL,
                seats TEXT NOT NULL,
                require_club_pass INTEGER NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                status TEXT NOT NULL,
                version BIGINT NOT NULL DEFAULT 0,
                result TEXT
            )""",
            """CREATE TABLE IF NOT EXISTS seat_claims (
                table_id TEXT NOT NULL REFERENCES game_tables(id),
                seat INTEGER NOT NULL,
                agent TEXT NOT NULL,
                token_hash TEXT NOT NULL,
                joined_at DOUBLE PRECISION NOT NULL,
                seen_events BIGINT NOT NULL DEFAULT 0,
                PRIMARY KEY (table_id, seat)
            )""",
            """CREATE TABLE IF NOT EXISTS moves (
                table_id TEXT NOT NULL REFERENCES game_tables(id),
                version BIGINT NOT NULL,
                seat INTEGER NOT NULL,
                move TEXT NOT NULL,
                actor TEXT NOT NULL,
                at DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (table_id, version)
            )""",
        ),
    ),
    Migration(
        "tables",
        2,
        (
            "ALTER TABLE game_tables ADD COLUMN revision BIGINT NOT NULL DEFAULT 1",
            "ALTER TABLE game_tables ADD COLUMN creator TEXT",
            "ALTER TABLE game_tables ADD COLUMN table_options TEXT NOT NULL DEFAULT '{}'",
            "ALTER TABLE game_tables ADD COLUMN open_seats INTEGER NOT NULL DEFAULT 0",
            "ALTER TABLE game_tables ADD COLUMN waiting_on TEXT",
            "ALTER TABLE game_tables ADD COLUMN deadline_at DOUBLE PRECISION",
            "ALTER TABLE game_tables ADD COLUMN updated_at DOUBLE PRECISION NOT NULL DEFAULT 0",
            "ALTER TABLE game_tables ADD COLUMN seat_versions TEXT NOT NULL DEFAULT '{}'",
            "ALTER TABLE game_tables ADD COLUMN bot_cpu_ms BIGINT NOT NULL DEFAULT 0",
            "ALTER TABLE game_tables ADD COLUMN event_count BIGINT NOT NULL DEFAULT -1",
            "ALTER TABLE game_tables ADD COLUMN note TEXT",
            "ALTER TABLE seat_claims ADD COLUMN timeouts INTEGER NOT NULL DEFAULT 0",
            "ALTER TABLE seat_claims ADD COLUMN bot TEXT",
            # Open agent seats of tables stored before this migration: agent seats minus claims.
            """UPDATE game_tables SET open_seats =
                (LENGTH(seats) - LENGTH(REPLACE(seats, '"agent"', ''))) / 7
                - (SELECT COUNT(*) FROM seat_claims c WHERE c.table_id = game_tables.id),
                updated_at = created_at""",
            """CREATE TABLE IF NOT EXISTS table_events (
                table_id TEXT NOT NULL REFERENCES game_tables(id),
                idx BIGINT NOT NULL,
                version BIGINT NOT NULL,
                audience TEXT,
                text TEXT NOT NULL,
                data TEXT,
                PRIMARY KEY (table_id, idx)
            )""",
            "CREATE INDEX IF NOT EXISTS table_events_by_version ON table_events (table_id, version)",
            """CREATE TABLE IF NOT EXISTS table_snapshots (
                table_id TEXT NOT NULL REFERENCES game_tables(id),
                version BIGINT NOT NULL,
                format INTEGER NOT NULL,
                data TEXT NOT NULL,
                meta TEXT NOT NULL,
                PRIMARY KEY (table_id, version)
            )""",
            "CREATE INDEX IF NOT EXISTS game_tables_by_created ON game_tables (created_at, id)",
            "CREATE INDEX IF NOT EXISTS game_tables_by_status ON game_tables (status, created_at)",
            "CREATE INDEX IF NOT EXISTS game_tables_by_game ON game_tables (game, created_at)",
            "CREATE INDEX IF NOT EXISTS game_tables_by_creator ON game_tables (creator, status)",
            "CREATE INDEX IF NOT EXISTS game_tables_by_deadline ON game_tables (deadline_at)",
            "CREATE INDEX IF NOT EXISTS game_tables_by_waiting ON game_tables (waiting_on, updated_at)",
            "CREATE INDEX IF NOT EXISTS seat_claims_by_agent ON seat_claims (agent)",
            "CREATE INDEX IF NOT EXISTS moves_by_seat ON moves (table_id, seat, version)",
        ),
    ),
    # The one query of game_tables_by_waiting asks for tables waiting on a bot (stalled_bot_tables). Every turn
    # writes updated_at, so the index of every table's row changed on every move; indexed only where a bot is
    # awaited, a turn at a table of agents leaves it alone (one changed page fewer per move).
    Migration(
        "tables",
        3,
        (
            "DROP INDEX IF EXISTS game_tables_by_waiting",
            "CREATE INDEX IF NOT EXISTS game_tables_waiting_on_bot ON game_tables (status, updated_at)"
            " WHERE waiting_on = 'bot'",
        ),
    ),
)


class StaleVersion(Exception):
    """Another write reached the table first; ``current`` is the table's version now."""

    def __init__(self, current: int, revision: int = 0) -> None:
        super().__init__(f"the table is at version {current}")
        self.current = current
        self.revision = revision


class InjectedFault(Exception):
    """Raised by a test's fault hook between the statements of a write (the write rolls back)."""


@dataclass(frozen=True)
class TableRow:
    """A stored table: its definition and everything its writes keep current.

    Attributes:
        id, game, config, seed, seeded, seats, require_club_pass, created_at: the definition.
        status: one of :data:`STATUSES`.
        version: moves applied (the last move's version).
        result: the result as JSON once finished.
        revision: bumped by every write to the table (claims, moves, status, timeouts).
        creator: the agent that created it (``None`` for tables stored before creators were kept).
        table_options: the table's own options (decision clock, seats per agent...), as JSON.
        open_seats: agent seats nobody has claimed yet.
        waiting_on: ``"agent"`` or ``"bot"`` while playing (who must decide next), else ``None``.
        deadline_at: when the decision clock of the current decision runs out (``None``: no clock).
        updated_at: the time of the last write.
        seat_versions: seat -> the version at which that seat's view or legal moves last changed.
        bot_cpu_ms: CPU milliseconds its bots have used.
        event_count: events stored (``-1``: a table stored before events were kept).
        note: why the server stopped the table (status ``aborted``), else ``None``.
    """

    id: str
    game: str
    config: dict[str, Any]
    seed: int
    seeded: bool
    seats: list[str]
    require_club_pass: bool
    created_at: float
    status: str
    version: int = 0
    result: dict[str, Any] | None = None
    revision: int = 1
    creator: str | None = None
    table_options: dict[str, Any] = field(default_factory=dict)
    open_seats: int = 0
    waiting_on: str | None = None
    deadline_at: float | None = None
    updated_at: float = 0.0
    seat_versions: dict[int, int] = field(default_factory=dict)
    bot_cpu_ms: int = 0
    event_count: int = 0
    note: str | None = None


@dataclass(frozen=True)
class TableHead:
    """The cheap part of a table row that tells a process whether it must catch up."""

    revision: int
    version: int
    status: str


@dataclass(frozen=True)
class SeatClaim:
    """An agent seated at a table (the token itself is never stored, only its hash).

    Attributes:
        timeouts: decisions in a row the decision clock made for this seat.
        bot: the bot kind playing the seat since the clock handed it over, else ``None``.
    """

    table_id: str
    seat: int
    agent: str
    token_hash: str
    joined_at: float
    timeouts: int = 0
    bot: str | None = None


@dataclass(frozen=True)
class MoveRow:
    """One accepted move."""

    version: int
    seat: int
    move: dict[str, Any]
    actor: str
    at: float


@dataclass(frozen=True)
class SnapshotRow:
    """A stored game state: the engine's snapshot (format ``format``) at ``version``, and table facts."""

    version: int
    format: int
    data: dict[str, Any]
    meta: dict[str, Any]


EventTuple = tuple[int, tuple[int, ...] | None, str, Mapping[str, Any] | None]
"""The plain form of an event the store's entry points accept besides an :class:`EventRow`: ``(version,
audience, text, data)``, with no place in the log yet (the store places it: :func:`_placed`)."""

_UNPLACED = -1
"""The ``idx`` of a row made of an :data:`EventTuple` by :class:`Append` (the store places it when it writes)."""


class MisplacedEvent(ValueError):
    """An event row is not at the place of the log it is written to (it was built on an older event count)."""


def _unplaced(e: EventTuple) -> EventRow:
    """Return a plain event as a row with no place in the log yet."""
    version, audience, text, data = e
    return EventRow(
        _UNPLACED,
        version,
        tuple(audience) if audience is not None else None,
        text,
        dict(data) if data is not None else None,
    )


def _placed(events: Sequence[EventRow | EventTuple], start: int) -> Sequence[EventRow]:
    """Return ``events`` as rows at places ``start``, ``start + 1``... of the log: the rows the service built (at
    those places already) as they are, with no copy; a plain tuple or a row made of one is placed there.

    Raises:
        MisplacedEvent: a row was built at another place (the log moved on since: the write is stale).
    """
    if all(type(e) is EventRow and e.idx == start + i for i, e in enumerate(events)):
        return cast(Sequence[EventRow], events)  # every one is a row (checked just above)
    rows = []
    for i, e in enumerate(events):
        row = e if isinstance(e, EventRow) else _unplaced(e)
        if row.idx == _UNPLACED:
            row = replace(row, idx=start + i)
        elif row.idx != start + i:
            raise MisplacedEvent(f"event {row.idx} ({row.text[:40]!r}) written at place {start + i} of the log")
        rows.append(row)
    return rows


@dataclass
class Append:
    """One atomic write of moves and everything they cause.

    Attributes:
        table_id: the table.
        base_version: the version the moves were applied on (the write fails if the table moved on).
        moves: ``(seat, move_json, actor, at)`` in order; ``actor`` is ``"agent"``, ``"bot"`` or ``"clock"``.
        events: the rows of the events those moves caused, in order, each at its place in the table's log (the
            write fails as stale if the stored log does not end just before the first). Plain ``(version,
            audience, text, data)`` tuples (:data:`EventTuple`) are accepted too: they are made rows here, once,
            and the store places them at the end of the log when it writes (and puts the placed rows here).
        status, result: the status (and result, once finished) the moves leave.
        waiting_on, deadline_at: who decides next and when their clock runs out.
        seat_versions: the seats whose view or legal moves changed -> the new version.
        timeouts: seat -> decisions in a row now timed out (0 resets the count).
        handed: seat -> the bot kind that plays the seat from now on.
        snapshot: ``(version, format, data, meta)`` to store, if any.
        bot_cpu_ms: CPU milliseconds the bots used for these moves.
        now: the time of the write.
        revision: when set, the write also fails unless the table is at this revision (a write with no
            move, such as a seat handed to a bot, is guarded by it).
    """

    table_id: str
    base_version: int
    moves: list[tuple[int, dict[str, Any], str, float]]
    events: list[EventRow]
    status: str
    result: dict[str, Any] | None = None
    waiting_on: str | None = None
    deadline_at: float | None = None
    seat_versions: dict[int, int] = field(default_factory=dict)
    timeouts: dict[int, int] = field(default_factory=dict)
    handed: dict[int, str] = field(default_factory=dict)
    snapshot: tuple[int, int, dict[str, Any], dict[str, Any]] | None = None
    bot_cpu_ms: int = 0
    now: float = 0.0
    revision: int | None = None

    def __post_init__(self) -> None:
        events: Sequence[EventRow | EventTuple] = self.events  # what is accepted (see the docstring)
        if not all(type(e) is EventRow for e in events):
            self.events = [e if isinstance(e, EventRow) else _unplaced(e) for e in events]


@dataclass(frozen=True)
class _Head:
    version: int
    revision: int
    status: str
    event_count: int
    seat_versions: dict[int, int]


_TABLE_COLS = (
    "id, game, config, seed, seeded, seats, require_club_pass, created_at, status, version, result, revision,"
    " creator, table_options, open_seats, waiting_on, deadline_at, updated_at, seat_versions, bot_cpu_ms,"
    " event_count, note"
)


_SINCE = (
    "SELECT "
    + ", ".join(f"t.{c.strip()}" for c in _TABLE_COLS.split(","))
    + ", CASE WHEN t.revision = ? THEN NULL ELSE json_build_array("
    "(SELECT COALESCE(json_agg(json_build_array(m.version, m.seat, m.move, m.actor, m.at) ORDER BY m.version), '[]')"
    " FROM moves m WHERE m.table_id = t.id AND m.version > ? AND m.version <= t.version),"
    " CASE WHEN t.event_count > ? THEN (SELECT COALESCE(json_agg(json_build_array(e.idx, e.version, e.audience,"
    " e.text, e.data) ORDER BY e.idx), '[]') FROM table_events e WHERE e.table_id = t.id AND e.idx >= ?)"
    " ELSE '[]' END,"
    " (SELECT COALESCE(json_agg(json_build_array(c.seat, c.agent, c.token_hash, c.joined_at, c.timeouts, c.bot)"
    " ORDER BY c.seat), '[]') FROM seat_claims c WHERE c.table_id = t.id))::text END"
    " FROM game_tables t WHERE t.id = ?"
)
"""PostgreSQL: a table's row and, when its revision moved, what a copy of it misses
(:meth:`TableStore.load_table_since`)."""

_TURN_WHERE = {
    revision: " WHERE id = ? AND version = ? AND event_count = ? AND status IN ("
    + ", ".join(f"'{x}'" for x in OPEN_STATUSES)
    + ")"
    + (" AND revision = ?" if revision else "")
    for revision in (False, True)
}
"""The check of a turn's ``UPDATE`` of the table row (:meth:`TableStore._turn_row` gives its values): the version
and the end of the event log the turn extends, an open table, and the revision when the write names one."""

_APPEND_AT_ONCE = {
    revision: "WITH u AS (UPDATE game_tables SET version = ?, revision = revision + 1, status = ?, result = ?,"
    " waiting_on = ?, deadline_at = ?, updated_at = ?, seat_versions = (seat_versions::jsonb || ?::jsonb)::text,"
    " bot_cpu_ms = bot_cpu_ms + ?, event_count = ?"
    + _TURN_WHERE[revision]
    + " RETURNING id, revision, pg_notify(?, id || ' ' || revision)),"
    " m AS (INSERT INTO moves (table_id, version, seat, move, actor, at)"
    " SELECT u.id, x.version, x.seat, x.move, x.actor, x.at"
    " FROM u, json_to_recordset(?::json)"
    " AS x(version bigint, seat integer, move text, actor text, at double precision)),"
    " e AS (INSERT INTO table_events (table_id, idx, version, audience, text, data)"
    " SELECT u.id, y.idx, y.version, y.audience, y.text, y.data"
    " FROM u, json_to_recordset(?::json)"
    " AS y(idx bigint, version bigint, audience text, text text, data text))"
    " SELECT revision FROM u"
    for revision in (False, True)
}
"""PostgreSQL: a turn's write in one statement (:meth:`TableStore._append_alone`): the table row's check (its
``WHERE``), update and ``NOTIFY``, and the moves and events inserted only when the row matched; by whether the
write also names the revision it extends. The moves and the events each come as one JSON array of rows (one text
parameter, written by orjson): psycopg writes a Python list as a PostgreSQL array in Python, element by element,
and ten array parameters were over half of the statement's cost in psycopg."""

_APPEND_ROW_AT_ONCE = {
    revision: "UPDATE game_tables SET version = ?, revision = revision + 1, status = ?, result = ?, waiting_on = ?,"
    " deadline_at = ?, updated_at = ?, seat_versions = json_patch(seat_versions, ?), bot_cpu_ms = bot_cpu_ms + ?,"
    " event_count = ?" + _TURN_WHERE[revision] + " RETURNING revision"
    for revision in (False, True)
}
"""SQLite: the table row's check (its ``WHERE``) and update of a turn's write in one statement
(:meth:`TableStore._append_at_once`), by whether the write also names the revision it extends; the moves and events
follow in the same transaction only when the row matched."""

_APPEND_HEAD = "SELECT version, revision, status, event_count FROM game_tables WHERE id = ?"
"""SQLite: what :meth:`TableStore.append` checks of the table row when the seat versions are merged in the UPDATE."""

_APPEND_UPDATE = {
    patch: "UPDATE game_tables SET version = ?, revision = ?, status = ?, result = ?, waiting_on = ?, deadline_at = ?,"
    " updated_at = ?, seat_versions = " + ("json_patch(seat_versions, ?)" if patch else "?") + ","
    " bot_cpu_ms = bot_cpu_ms + ?, event_count = ? WHERE id = ?"
    for patch in (False, True)
}
"""The ``UPDATE`` of the table row by :meth:`TableStore.append`, by whether SQLite merges the seat versions (the
stored ones with the changed ones: :meth:`TableStore._patch`) or the statement writes them all, merged before."""


def _table(r: Sequence[Any]) -> TableRow:
    return TableRow(
        id=r[0],
        game=r[1],
        config=_loads(r[2]),
        seed=int(r[3]),
        seeded=bool(r[4]),
        seats=_loads(r[5]),
        require_club_pass=bool(r[6]),
        created_at=float(r[7]),
        status=r[8],
        version=int(r[9]),
        result=_loads(r[10]) if r[10] else None,
        revision=int(r[11]),
        creator=r[12],
        table_options=_loads(r[13]) if r[13] else {},
        open_seats=int(r[14]),
        waiting_on=r[15],
        deadline_at=float(r[16]) if r[16] is not None else None,
        updated_at=float(r[17]),
        seat_versions={int(k): int(v) for k, v in _loads(r[18] or "{}").items()},
        bot_cpu_ms=int(r[19]),
        event_count=int(r[20]),
        note=r[21],
    )


def _audience(audience: Iterable[int] | None) -> str | None:
    """Encode an audience as ``",0,2,"`` (so ``LIKE '%,2,%'`` finds a seat), ``None`` for everyone."""
    return None if audience is None else "," + ",".join(str(int(s)) for s in audience) + ","


def _move_columns(a: Append) -> list[tuple[int, int, str, str, float]]:
    """Return the stored columns (version, seat, move, actor, at) of the moves of ``a``, the table id aside."""
    return [
        (a.base_version + i, seat, _dumps(move), actor, float(at))
        for i, (seat, move, actor, at) in enumerate(a.moves, 1)
    ]


_MOVE_KEYS = ("version", "seat", "move", "actor", "at")
"""The keys of a move's row in :data:`_APPEND_AT_ONCE`'s JSON (:func:`_move_columns`' columns, in order)."""
_EVENT_KEYS = ("idx", "version", "audience", "text", "data")
"""The keys of an event's row in :data:`_APPEND_AT_ONCE`'s JSON (:func:`_event_columns`' columns, in order)."""


def _event_columns(e: EventRow) -> tuple[int, int, str | None, str, str | None]:
    """Return the stored columns (idx, version, audience, text, data) of a placed event row, the table id aside."""
    return (e.idx, e.version, _audience(e.audience), e.text, _dumps(e.data) if e.data is not None else None)


def _decode_audience(text: str | None) -> tuple[int, ...] | None:
    return None if text is None else tuple(int(s) for s in text.strip(",").split(",") if s)


_LONG_NUMBER = re.compile(r"\d{19}")


def _loads(text: str | bytes) -> Any:
    """Return the value of JSON ``text`` written by :func:`_dumps`, as ``json.loads`` would (orjson, which
    reads it with a fraction of the work; the stdlib for what orjson reads otherwise or refuses: a number of 19
    digits or more, which orjson would turn into a float beyond 64 bits, and ``NaN``). Raises what
    ``json.loads`` raises for text that is not JSON."""
    if _LONG_NUMBER.search(text if isinstance(text, str) else text.decode("utf-8", "replace")) is None:
        with contextlib.suppress(orjson.JSONDecodeError):  # NaN, say: the stdlib reads it below
            return orjson.loads(text)
    return json.loads(text)


def _dumps(value: Any) -> str:
    """Return ``value`` as compact JSON text (orjson; the stdlib for what orjson refuses: an integer beyond 64
    bits, say). Raises what ``json.dumps`` raises for a value that is not JSON."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode("utf-8")
    except (orjson.JSONEncodeError, TypeError):
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _json_patch(db: Database) -> bool:
    """Whether this SQLite library merges as :meth:`TableStore.append` needs: ``json_patch`` (built in since 3.38,
    an extension before) keeping stored keys in place, appending new ones, writing minified text."""
    try:
        return db.one("""SELECT json_patch('{"0":1,"2":3}', '{"1":4,"0":5}')""") == ('{"0":5,"2":3,"1":4}',)
    except sqlite3.Error:
        return False


def channel_name(schema: str | None) -> str:
    """Return the PostgreSQL ``NOTIFY`` channel of the tables of one schema (``None``: the default)."""
    suffix = "".join(c for c in (schema or "public").lower() if c.isalnum() or c == "_")[:40]
    return f"club_tables_{suffix}"


def no_fault(point: str) -> None:
    """The production fault hook: does nothing at any write point (tests install their own)."""


class TableStore(StorePart):
    """Tables, seat claims, moves, events and snapshots, over :attr:`db`.

    Attributes:
        fault_hook: called with the name of each point between the statements of a write (tests only:
            see the module's docstring); :func:`no_fault` unless a test replaces it.
    """

    fault_hook: Callable[[str], None] = staticmethod(no_fault)
    _channel: str | None = None

    def __init__(self, db: Database) -> None:
        super().__init__(db)
        self._current: dict[str, int] = {}
        """SQLite: table id -> the revision this process last wrote or read, while no other connection wrote."""
        self._seen_version: int | None = None
        """SQLite: the ``data_version`` under which :attr:`_current` holds."""
        self._patch = db.dialect == "sqlite" and _json_patch(db)
        """Whether :meth:`append` merges the seat versions in its ``UPDATE`` with ``json_patch`` (SQLite: the
        stored keys stay in place and new ones follow in order, minified, the text a merge of dicts dumps),
        instead of reading and decoding them first."""
        self._returning = self._patch and sqlite3.sqlite_version_info >= (3, 35, 0)
        """SQLite: whether :meth:`append` may check and update the table row in one statement (``RETURNING``, since
        SQLite 3.35, with the ``json_patch`` merge)."""

    # ----- what this process knows is current (SQLite)

    def known_current(self, table_id: str, revision: int) -> bool:
        """Return whether ``revision`` is certainly the table's stored revision, without reading the table.

        True only on SQLite, when this process itself wrote or read that revision last and no other
        connection (another worker, a command-line tool) has committed anything to the file since
        (``PRAGMA data_version`` unchanged): only a commit can change a revision, and this process's own
        commits are recorded as they happen. Otherwise ``False``: the caller reads the table's head. The
        first call only starts the record (``False``), so what was known before it never counts.

        Raises:
            StoreError: the database is closed.
        """
        seen = self.db.data_version()
        if seen is None:
            return False
        if seen != self._seen_version:
            self._current.clear()  # another connection committed: nothing is known any more
            self._seen_version = seen
            return False
        return self._current.get(table_id) == revision

    def _known(self, table_id: str, revision: int) -> None:
        """Record ``revision`` as the table's stored revision (just committed or read by this process)."""
        if self.db.dialect != "sqlite":
            return
        current = self._current
        if len(current) >= _KNOWN_TABLES and table_id not in current:
            current.clear()  # bounded: a table forgotten is read again, never served stale
        current[table_id] = revision

    # ----- helpers

    def tables_channel(self) -> str | None:
        """Return the ``NOTIFY`` channel this store's writes announce on (``None`` on SQLite)."""
        if self.db.dialect != "postgresql":
            return None
        if self._channel is None:
            row = self.db.one("SELECT current_schema()")
            self._channel = channel_name(str(row[0]) if row and row[0] else None)
        return self._channel

    def _notify(self, tx: Tx, table_id: str, revision: int | None = None) -> None:
        """Announce a write to ``table_id`` (PostgreSQL): the payload is the table id and, when known, the
        revision the write creates (``"t-... 7"``), so a worker that already holds that revision does not wake."""
        channel = self.tables_channel()
        if channel is not None:
            tx.execute("SELECT pg_notify(?, ?)", (channel, table_id if revision is None else f"{table_id} {revision}"))

    def _locked_row(self, tx: Tx, table_id: str) -> _Head | None:
        """Read (and lock) what a write checks and extends: version, revision, status, events, seat versions."""
        lock = " FOR UPDATE" if tx.dialect == "postgresql" else ""
        r = tx.one(
            f"SELECT version, revision, status, event_count, seat_versions FROM game_tables WHERE id = ?{lock}",
            (table_id,),
        )
        if r is None:
            return None
        versions = {int(k): int(v) for k, v in _loads(r[4] or "{}").items()}
        return _Head(int(r[0]), int(r[1]), str(r[2]), int(r[3]), versions)

    def _insert_events(self, tx: Tx, table_id: str, rows: Sequence[EventRow]) -> None:
        """Write event rows (placed: :func:`_placed`)."""
        if rows:
            tx.many(
                "INSERT INTO table_events (table_id, idx, version, audience, text, data) VALUES (?, ?, ?, ?, ?, ?)",
                [(table_id, *_event_columns(e)) for e in rows],
            )

    # ----- writing

    def create_table(
        self,
        row: TableRow,
        setup_events: Sequence[EventRow | EventTuple] = (),
        *,
        claims: Sequence[SeatClaim] = (),
        within: Callable[[Tx, str], None] | None = None,
    ) -> None:
        """Store a new table with the events of its deal (version 0), in one transaction.

        ``setup_events`` are rows at places 0, 1... of the log, or plain tuples (:data:`EventTuple`), placed there.
        ``claims`` are seats taken at creation (matchmaking: the table and its seats commit together);
        ``within(tx, table_id)`` runs first in the same transaction (e.g. to lock and settle the seeks of the match),
        and whatever it raises rolls everything back.

        Raises:
            MisplacedEvent: a row of ``setup_events`` is not at its place (nothing is stored then).
            Exception: whatever ``within`` raises (nothing is stored then).
        """
        setup_events = _placed(setup_events, 0)
        with self.db.tx() as tx:
            if within is not None:
                within(tx, row.id)
            tx.execute(
                f"INSERT INTO game_tables ({_TABLE_COLS}) VALUES"
                " (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, NULL, 1, ?, ?, ?, ?, ?, ?, ?, 0, ?, NULL)",
                (
                    row.id,
                    row.game,
                    _dumps(row.config),
                    row.seed,
                    int(row.seeded),
                    _dumps(row.seats),
                    int(row.require_club_pass),
                    row.created_at,
                    row.status,
                    row.creator,
                    _dumps(row.table_options),
                    row.open_seats,
                    row.waiting_on,
                    row.deadline_at,
                    row.updated_at or row.created_at,
                    _dumps({str(k): v for k, v in row.seat_versions.items()}),
                    len(setup_events),
                ),
            )
            self.fault_hook("create:table")
            for c in claims:
                tx.execute(
                    "INSERT INTO seat_claims (table_id, seat, agent, token_hash, joined_at, seen_events, timeouts, bot)"
                    " VALUES (?, ?, ?, ?, ?, 0, 0, NULL)",
                    (c.table_id, c.seat, c.agent, c.token_hash, c.joined_at),
                )
            self._insert_events(tx, row.id, setup_events)
            self.fault_hook("create:events")
            self._notify(tx, row.id)

    def claim_seat(
        self,
        claim: SeatClaim,
        *,
        revision: int,
        status: str,
        waiting_on: str | None,
        deadline_at: float | None,
        now: float,
    ) -> int:
        """Seat an agent and write the status it causes, in one transaction; return the new revision.

        Raises:
            StaleVersion: the table changed since ``revision`` (e.g. the seat was taken meanwhile).
        """
        try:
            with self.db.tx() as tx:
                row = self._locked_row(tx, claim.table_id)
                if row is None or row.revision != revision:
                    raise StaleVersion(row.version if row else 0, row.revision if row else 0)
                tx.execute(
                    "INSERT INTO seat_claims (table_id, seat, agent, token_hash, joined_at, seen_events, timeouts, bot)"
                    " VALUES (?, ?, ?, ?, ?, 0, 0, NULL)",
                    (claim.table_id, claim.seat, claim.agent, claim.token_hash, claim.joined_at),
                )
                self.fault_hook("claim:seat")
                versions = {**row.seat_versions, claim.seat: row.version}
                tx.execute(
                    "UPDATE game_tables SET revision = ?, status = ?, open_seats = open_seats - 1, waiting_on = ?,"
                    " deadline_at = ?, updated_at = ?, seat_versions = ? WHERE id = ?",
                    (
                        revision + 1,
                        status,
                        waiting_on,
                        deadline_at,
                        now,
                        _dumps({str(k): v for k, v in versions.items()}),
                        claim.table_id,
                    ),
                )
                self.fault_hook("claim:table")
                self._notify(tx, claim.table_id, revision + 1)
        except IntegrityError:
            head = self.table_head(claim.table_id)
            raise StaleVersion(head.version if head else 0, head.revision if head else 0) from None
        self._known(claim.table_id, revision + 1)
        return revision + 1

    def append(self, a: Append) -> int:
        """Append moves with their events, status, result, clock and snapshot in one transaction.

        Returns the table's new revision.

        Raises:
            StaleVersion: the table's stored version is not ``a.base_version`` (another move won), or its event log
                does not end where ``a.events`` start (another write added events).
        """
        try:
            revision = self._append_alone(a) if self.db.dialect == "postgresql" else None
            if revision is None:
                with self.db.tx() as tx:
                    revision = self._append_at_once(tx, a) if tx.dialect == "sqlite" else None
                    if revision is None:
                        revision = self._append_checked(tx, a)
        except IntegrityError:
            head = self.table_head(a.table_id)
            raise StaleVersion(head.version if head else 0, head.revision if head else 0) from None
        self._known(a.table_id, revision)
        return revision

    def _append_checked(self, tx: Tx, a: Append) -> int:
        """:meth:`append` in ``tx``: read (and lock) the table's row, check the write against it, write it.

        Raises:
            StaleVersion: the write does not extend the stored table (see :meth:`append`).
        """
        patch = self._patch
        if patch:  # the seat versions are merged by the UPDATE: the row's other facts are all it needs
            r = tx.one(_APPEND_HEAD, (a.table_id,))
            row = _Head(int(r[0]), int(r[1]), str(r[2]), int(r[3]), {}) if r is not None else None
        else:
            row = self._locked_row(tx, a.table_id)
        if (
            row is None
            or row.version != a.base_version
            or row.status not in OPEN_STATUSES
            or (a.revision is not None and row.revision != a.revision)
        ):
            raise StaleVersion(row.version if row else 0, row.revision if row else 0)
        start = max(row.event_count, 0)
        try:
            events = _placed(a.events, start)
        except MisplacedEvent:  # numbered on an older log: another write added events (one with no move)
            raise StaleVersion(row.version, row.revision) from None
        if events is not a.events:
            a.events = list(events)
        v = self._append_rows(tx, a, events)
        versions = a.seat_versions if patch else {**row.seat_versions, **a.seat_versions}
        tx.execute(
            _APPEND_UPDATE[patch],
            (
                v,
                row.revision + 1,
                a.status,
                _dumps(a.result) if a.result is not None else None,
                a.waiting_on,
                a.deadline_at,
                a.now,
                _dumps({str(k): x for k, x in versions.items()}),
                a.bot_cpu_ms,
                start + len(a.events),
                a.table_id,
            ),
        )
        self.fault_hook("append:table")
        self._notify(tx, a.table_id, row.revision + 1)
        return row.revision + 1

    def _turn_row(self, a: Append) -> tuple[Any, ...] | None:
        """Return the table row's new columns and the checks of its ``WHERE`` for a turn written with the row
        checked by its ``UPDATE`` (:data:`_APPEND_AT_ONCE`, :data:`_APPEND_ROW_AT_ONCE`), or ``None`` for a write
        of another kind: events not rows already placed in the log (as the service builds them), none at all, a
        seat claim to change or a snapshot (:meth:`_append_checked` writes those)."""
        events = a.events
        if (
            not events
            or a.timeouts
            or a.handed
            or a.snapshot is not None
            or not all(type(e) is EventRow and e.idx == events[0].idx + i for i, e in enumerate(events))
        ):
            return None
        start = events[0].idx
        checks: tuple[Any, ...] = (a.table_id, a.base_version, start)
        if a.revision is not None:
            checks += (a.revision,)
        return (
            a.base_version + len(a.moves),
            a.status,
            _dumps(a.result) if a.result is not None else None,
            a.waiting_on,
            a.deadline_at,
            a.now,
            _dumps({str(k): x for k, x in a.seat_versions.items()}),
            a.bot_cpu_ms,
            start + len(events),
            *checks,
        )

    def _append_alone(self, a: Append) -> int | None:
        """PostgreSQL: :meth:`append` as one statement that is its own transaction (:meth:`.Database.write_alone`):
        the table row's check (its ``WHERE``), update and ``NOTIFY``, and the moves and events inserted only when
        the row matched (:data:`_APPEND_AT_ONCE`). Each statement costs about 100,000 instructions in psycopg: one
        in place of three (the same statement between a ``BEGIN`` and a ``COMMIT``).

        Returns the new revision; ``None`` when nothing was written (the write is of another kind, or the row
        does not match: :meth:`_append_checked` then decides, in a transaction).
        """
        row = self._turn_row(a)
        if row is None:
            return None
        moves = _dumps([dict(zip(_MOVE_KEYS, m, strict=True)) for m in _move_columns(a)])
        events = _dumps([dict(zip(_EVENT_KEYS, _event_columns(e), strict=True)) for e in a.events])
        for point in ("append:moves", "append:events", "append:snapshot", "append:table"):
            self.fault_hook(point)  # before the one statement: a crash here stores nothing
        r = self.db.write_alone(_APPEND_AT_ONCE[a.revision is not None], (*row, self.tables_channel(), moves, events))
        return None if r is None else int(r[0])

    def _append_at_once(self, tx: Tx, a: Append) -> int | None:
        """SQLite: :meth:`append` in ``tx`` with the table row checked by the ``UPDATE`` that writes it
        (:data:`_APPEND_ROW_AT_ONCE`, ``RETURNING`` the new revision) instead of read first, then the moves and
        events; for the turns :meth:`_turn_row` takes.

        Returns the new revision; ``None`` when nothing was written (the write is of another kind, this SQLite
        cannot, or the row does not match: :meth:`_append_checked` then decides, in the same transaction).
        """
        row = self._turn_row(a) if self._returning else None
        if row is None:
            return None
        updated = tx.all(_APPEND_ROW_AT_ONCE[a.revision is not None], row)  # all: the statement runs to its end
        if not updated:
            return None
        self._append_rows(tx, a, a.events)
        self.fault_hook("append:table")
        return int(updated[0][0])

    def _append_rows(self, tx: Tx, a: Append, events: Sequence[EventRow]) -> int:
        """Write the moves, events, seat changes and snapshot of ``a`` in ``tx`` (the table row aside); return the
        version the moves reach."""
        if a.moves:
            tx.many(
                "INSERT INTO moves (table_id, version, seat, move, actor, at) VALUES (?, ?, ?, ?, ?, ?)",
                [(a.table_id, *m) for m in _move_columns(a)],
            )
        self.fault_hook("append:moves")
        self._insert_events(tx, a.table_id, events)
        self.fault_hook("append:events")
        for seat, count in a.timeouts.items():
            tx.execute("UPDATE seat_claims SET timeouts = ? WHERE table_id = ? AND seat = ?", (count, a.table_id, seat))
        for seat, kind in a.handed.items():
            tx.execute("UPDATE seat_claims SET bot = ? WHERE table_id = ? AND seat = ?", (kind, a.table_id, seat))
        if a.snapshot is not None:
            sv, fmt, data, meta = a.snapshot
            tx.execute(
                "INSERT INTO table_snapshots (table_id, version, format, data, meta) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (table_id, version) DO NOTHING",
                (a.table_id, sv, fmt, _dumps(data), _dumps(meta)),
            )
        self.fault_hook("append:snapshot")
        return a.base_version + len(a.moves)

    def tables_without_events(self) -> list[str]:
        """Return the ids of the tables stored before events were kept (``event_count`` -1), oldest first."""
        rows = self.db.all("SELECT id FROM game_tables WHERE event_count < 0 ORDER BY created_at, id", ())
        return [r[0] for r in rows]

    def backfill_events(
        self,
        table_id: str,
        events: Sequence[EventRow | EventTuple],
        *,
        version: int,
    ) -> bool:
        """Store the events of a table kept before events were stored (regenerated by replay).

        ``events`` are rows at places 0, 1... of the log, or plain tuples (:data:`EventTuple`), placed there.
        Returns ``False`` (and writes nothing) if the table has events already or moved past ``version``.

        Raises:
            MisplacedEvent: a row of ``events`` is not at its place (nothing is stored then).
        """
        events = _placed(events, 0)
        with self.db.tx() as tx:
            row = self._locked_row(tx, table_id)
            if row is None or row.event_count >= 0 or row.version != version:
                return False
            tx.execute("DELETE FROM table_events WHERE table_id = ?", (table_id,))
            self._insert_events(tx, table_id, events)
            tx.execute("UPDATE game_tables SET event_count = ? WHERE id = ?", (len(events), table_id))
        return True

    def abort_table(self, table_id: str, *, revision: int, note: str, now: float) -> int:
        """Stop a table for good (status ``aborted``) with one sentence saying why; return the new revision.

        Raises:
            StaleVersion: the table changed since ``revision``.
        """
        with self.db.tx() as tx:
            row = self._locked_row(tx, table_id)
            if row is None or row.revision != revision:
                raise StaleVersion(row.version if row else 0, row.revision if row else 0)
            tx.execute(
                "UPDATE game_tables SET status = 'aborted', note = ?, waiting_on = NULL, deadline_at = NULL,"
                " revision = ?, updated_at = ? WHERE id = ?",
                (note, revision + 1, now, table_id),
            )
            self._notify(tx, table_id, revision + 1)
        self._known(table_id, revision + 1)
        return revision + 1

    # ----- reading one table

    def load_table(self, table_id: str) -> TableRow | None:
        """Return a table's row, or ``None``."""
        r = self.db.one(f"SELECT {_TABLE_COLS} FROM game_tables WHERE id = ?", (table_id,))
        return _table(r) if r else None

    def load_table_since(
        self, table_id: str, version: int, revision: int, event_count: int
    ) -> tuple[TableRow, tuple[list[MoveRow], list[EventRow], list[SeatClaim]] | None] | None:
        """PostgreSQL: return a table's row and, unless its revision is ``revision``, what a copy of the table at
        ``version`` with ``event_count`` events misses: the moves after ``version`` up to the row's version, the
        events from place ``event_count`` on (none when the row has no more), and the seat claims; in one
        statement (each statement costs about 100,000 instructions in psycopg, and reading these took four).

        Returns ``None`` for an unknown table. Raises what the database raises (``StoreError``).
        """
        r = self.db.one(_SINCE, (revision, version, event_count, event_count, table_id))
        if r is None:
            return None
        row = _table(r)
        if r[-1] is None:
            return row, None
        moves, events, claims = _loads(r[-1])
        return row, (
            [MoveRow(int(m[0]), int(m[1]), _loads(m[2]), m[3], float(m[4])) for m in moves],
            [
                EventRow(int(e[0]), int(e[1]), _decode_audience(e[2]), e[3], _loads(e[4]) if e[4] else None)
                for e in events
            ],
            [SeatClaim(table_id, int(c[0]), c[1], c[2], float(c[3]), int(c[4]), c[5]) for c in claims],
        )

    def table_head(self, table_id: str) -> TableHead | None:
        """Return a table's revision, version and status (one indexed read), or ``None``."""
        r = self.db.one("SELECT revision, version, status FROM game_tables WHERE id = ?", (table_id,))
        if r is None:
            return None
        self._known(table_id, int(r[0]))  # a commit by another connection after this read clears it (data_version)
        return TableHead(int(r[0]), int(r[1]), str(r[2]))

    def table_version(self, table_id: str) -> int:
        """Return the stored version of a table (0 if unknown)."""
        head = self.table_head(table_id)
        return head.version if head else 0

    def seat_claims(self, table_id: str) -> list[SeatClaim]:
        """Return the agents seated at a table, by seat."""
        return self.seat_claims_of([table_id]).get(table_id, [])

    def seat_claims_of(self, table_ids: Sequence[str]) -> dict[str, list[SeatClaim]]:
        """Return the seat claims of several tables in one query: table id -> claims by seat."""
        out: dict[str, list[SeatClaim]] = {}
        if not table_ids:
            return out
        marks = ", ".join("?" for _ in table_ids)
        rows = self.db.all(
            "SELECT table_id, seat, agent, token_hash, joined_at, timeouts, bot FROM seat_claims"
            f" WHERE table_id IN ({marks}) ORDER BY table_id, seat",
            tuple(table_ids),
        )
        for r in rows:
            out.setdefault(r[0], []).append(SeatClaim(r[0], int(r[1]), r[2], r[3], float(r[4]), int(r[5]), r[6]))
        return out

    def load_moves(self, table_id: str, after: int = 0, upto: int | None = None) -> list[MoveRow]:
        """Return a table's moves with ``after < version <= upto``, in order."""
        sql = "SELECT version, seat, move, actor, at FROM moves WHERE table_id = ? AND version > ?"
        args: list[Any] = [table_id, after]
        if upto is not None:
            sql += " AND version <= ?"
            args.append(upto)
        rows = self.db.all(sql + " ORDER BY version", args)
        return [MoveRow(int(r[0]), int(r[1]), _loads(r[2]), r[3], float(r[4])) for r in rows]

    def last_moves_by_seat(self, table_id: str) -> dict[int, int]:
        """Return seat -> the version of that seat's latest move."""
        rows = self.db.all("SELECT seat, MAX(version) FROM moves WHERE table_id = ? GROUP BY seat", (table_id,))
        return {int(s): int(v) for s, v in rows}

    def load_events(
        self,
        table_id: str,
        *,
        after_version: int = -1,
        upto_version: int | None = None,
        seat: int | None = None,
        everything: bool = False,
        limit: int | None = None,
        newest: bool = False,
        from_idx: int | None = None,
    ) -> list[EventRow]:
        """Return a table's events with ``after_version < version <= upto_version``, in log order.

        ``from_idx`` keeps the events from that place in the log on.
        ``everything`` returns every event (the full log); otherwise public events plus those whose
        audience includes ``seat`` (``None``: public events only). ``limit`` with ``newest`` keeps the
        latest ``limit`` events.
        """
        sql = "SELECT idx, version, audience, text, data FROM table_events WHERE table_id = ? AND version > ?"
        args: list[Any] = [table_id, after_version]
        if upto_version is not None:
            sql += " AND version <= ?"
            args.append(upto_version)
        if from_idx is not None:
            sql += " AND idx >= ?"
            args.append(from_idx)
        if not everything:
            if seat is None:
                sql += " AND audience IS NULL"
            else:
                sql += " AND (audience IS NULL OR audience LIKE ?)"
                args.append(f"%,{int(seat)},%")
        sql += " ORDER BY idx DESC" if newest else " ORDER BY idx"
        if limit is not None:
            sql += " LIMIT ?"
            args.append(limit)
        rows = self.db.all(sql, args)
        if newest:
            rows.reverse()
        return [
            EventRow(int(r[0]), int(r[1]), _decode_audience(r[2]), r[3], _loads(r[4]) if r[4] else None) for r in rows
        ]

    def count_events(self, table_id: str, *, after_version: int, seat: int | None) -> int:
        """Return how many events after ``after_version`` a seat (``None``: the public) may see."""
        if seat is None:
            r = self.db.one(
                "SELECT COUNT(*) FROM table_events WHERE table_id = ? AND version > ? AND audience IS NULL",
                (table_id, after_version),
            )
        else:
            r = self.db.one(
                "SELECT COUNT(*) FROM table_events WHERE table_id = ? AND version > ?"
                " AND (audience IS NULL OR audience LIKE ?)",
                (table_id, after_version, f"%,{int(seat)},%"),
            )
        return int(r[0]) if r else 0

    def latest_snapshot(self, table_id: str, fmt: int, upto: int | None = None) -> SnapshotRow | None:
        """Return the newest snapshot of a table in format ``fmt`` (at a version ``<= upto``), or ``None``."""
        r = self.db.one(
            "SELECT version, format, data, meta FROM table_snapshots WHERE table_id = ? AND format = ?"
            " AND version <= ? ORDER BY version DESC LIMIT 1",
            (table_id, fmt, upto if upto is not None else 2**62),
        )
        return SnapshotRow(int(r[0]), int(r[1]), _loads(r[2]), _loads(r[3])) if r else None

    # ----- reading many tables

    def list_tables(
        self,
        game: str | None = None,
        status: str | None = None,
        *,
        open_seats: bool = False,
        agent: str | None = None,
        before: tuple[float, str] | None = None,
        limit: int = 50,
    ) -> list[TableRow]:
        """Return tables newest first, optionally filtered, starting after the cursor ``before``.

        ``agent`` keeps the tables that agent created or sits at; ``open_seats`` those with an
        agent seat to take; ``before`` is the ``(created_at, id)`` of the last table of the previous page.
        """
        sql = f"SELECT {_TABLE_COLS} FROM game_tables WHERE 1=1"
        args: list[Any] = []
        if game:
            sql += " AND game = ?"
            args.append(game)
        if status:
            sql += " AND status = ?"
            args.append(status)
        if open_seats:
            sql += " AND open_seats > 0 AND status = 'waiting'"
        if agent is not None:
            sql += " AND (creator = ? OR id IN (SELECT table_id FROM seat_claims WHERE agent = ?))"
            args += [agent, agent]
        if before is not None:
            sql += " AND (created_at < ? OR (created_at = ? AND id > ?))"
            args += [before[0], before[0], before[1]]
        sql += " ORDER BY created_at DESC, id LIMIT ?"
        args.append(limit)
        return [_table(r) for r in self.db.all(sql, args)]

    def open_table_counts(self, agent: str) -> tuple[int, int]:
        """Return (tables ``agent`` created that are not over, such tables of every agent)."""
        r = self.db.one(
            "SELECT COUNT(CASE WHEN creator = ? THEN 1 END), COUNT(*) FROM game_tables"
            " WHERE status IN ('waiting', 'playing')",
            (agent,),
        )
        return (int(r[0]), int(r[1])) if r else (0, 0)

    def due_tables(self, now: float, limit: int = 20) -> list[str]:
        """Return playing tables whose decision clock has run out, earliest first."""
        rows = self.db.all(
            "SELECT id FROM game_tables WHERE deadline_at IS NOT NULL AND deadline_at <= ? AND status = 'playing'"
            " ORDER BY deadline_at LIMIT ?",
            (now, limit),
        )
        return [str(r[0]) for r in rows]

    def expired_waiting_tables(self, now: float, expiry_s: float, limit: int = 20) -> list[str]:
        """Return waiting tables whose wait for agents has run out (``deadline_at``), earliest first.

        A waiting table stored before tables had a deadline (``deadline_at`` null) is given one here, ``expiry_s``
        from the first time a sweeper sees it: an upgrade never ends a table that was waiting at once.
        """
        undated = self.db.all(
            "SELECT id FROM game_tables WHERE status = 'waiting' AND deadline_at IS NULL LIMIT ?", (limit,)
        )
        if undated:
            with self.db.tx() as tx:
                for (table_id,) in undated:
                    tx.execute(
                        "UPDATE game_tables SET deadline_at = ? WHERE id = ? AND deadline_at IS NULL",
                        (now + expiry_s, table_id),
                    )
        rows = self.db.all(
            "SELECT id FROM game_tables WHERE status = 'waiting' AND deadline_at IS NOT NULL AND deadline_at <= ?"
            " ORDER BY deadline_at LIMIT ?",
            (now, limit),
        )
        return [str(r[0]) for r in rows]

    def revoked_seats(self, limit: int = 20) -> dict[str, list[int]]:
        """Return table id -> seats held by a revoked agent and not yet handed to a bot, at playing tables."""
        rows = self.db.all(
            "SELECT c.table_id, c.seat FROM agents a JOIN seat_claims c ON c.agent = a.name"
            " JOIN game_tables t ON t.id = c.table_id"
            " WHERE a.revoked_at IS NOT NULL AND c.bot IS NULL AND t.status = 'playing'"
            " ORDER BY c.table_id, c.seat LIMIT ?",
            (limit,),
        )
        out: dict[str, list[int]] = {}
        for r in rows:
            out.setdefault(str(r[0]), []).append(int(r[1]))
        return out

    def claim_resume(self, now: float, gap: float) -> bool:
        """Claim the start-up resumption of the tables: ``True`` for the one worker that should do it now.

        Under a lock (a transaction-scoped advisory lock on PostgreSQL; SQLite's ``BEGIN IMMEDIATE``
        write lock), the time of the last resumption is read and, unless another worker resumed less
        than ``gap`` seconds ago, replaced by ``now``: workers starting together resume once.
        """
        with self.db.tx() as tx:
            if tx.dialect == "postgresql":
                tx.execute("SELECT pg_advisory_xact_lock(hashtext(?))", ("tables:resume",))
            r = tx.one("SELECT value FROM meta WHERE key = 'tables_resumed_at'")
            try:
                last = float(r[0]) if r else None
            except ValueError:
                last = None
            if last is not None and 0 <= now - last < gap:
                return False
            tx.execute(
                "INSERT INTO meta (key, value) VALUES ('tables_resumed_at', ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (repr(now),),
            )
            return True

    def stalled_bot_tables(self, before: float, limit: int = 20) -> list[str]:
        """Return playing tables where a bot must move and nothing was written since ``before``."""
        rows = self.db.all(
            "SELECT id FROM game_tables WHERE waiting_on = 'bot' AND updated_at < ? AND status = 'playing'"
            " ORDER BY updated_at LIMIT ?",
            (before, limit),
        )
        return [str(r[0]) for r in rows]

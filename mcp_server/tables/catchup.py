"""Catching a live table up with the store: what another process wrote since the table was read is read off the
event loop (:func:`read_fresh`, :func:`read_behind`) and applied through :meth:`.live.LiveTable.apply`, the one way
moves reach a table in memory (:func:`apply_behind`, :func:`catch_up`)."""

from __future__ import annotations

from dataclasses import dataclass

from club_agentes.mcp_server.eventrow import EventRow
from club_agentes.mcp_server.store import Store
from club_agentes.mcp_server.store.tables import Append, MoveRow, SeatClaim, TableHead, TableRow
from club_agentes.mcp_server.tables.live import LiveTable


@dataclass(frozen=True)
class Behind:
    """What a live table misses of the store (read off the event loop by :func:`read_behind`)."""

    row: TableRow
    moves: list[MoveRow]
    events: list[EventRow]
    claims: list[SeatClaim]


def read_behind(store: Store, table_id: str, version: int, revision: int, event_count: int) -> Behind | None:
    """Read what a live table at ``version``/``revision`` with ``event_count`` events misses of the store (blocks;
    on PostgreSQL one statement: :meth:`.TableStore.load_table_since`).

    Returns ``None`` when the store went somewhere the live state cannot follow (the caller reloads the table);
    a :class:`Behind` without moves when only the row changed.
    """
    if store.db.dialect == "postgresql":
        found = store.tables.load_table_since(table_id, version, revision, event_count)
        if found is None:
            return None
        return _followed(found[0], version, *(found[1] or ([], [], [])))
    row = store.tables.load_table(table_id)
    if row is None or row.version < version:
        return None
    if row.revision == revision:
        return Behind(row, [], [], [])
    moves = store.tables.load_moves(table_id, after=version, upto=row.version)
    if len(moves) != row.version - version:
        return None
    events = (
        store.tables.load_events(table_id, everything=True, from_idx=event_count)
        if row.event_count > event_count
        else []
    )
    return Behind(row, moves, events, store.tables.seat_claims(table_id))


def _followed(
    row: TableRow, version: int, moves: list[MoveRow], events: list[EventRow], claims: list[SeatClaim]
) -> Behind | None:
    """Return what a live table at ``version`` misses, read with ``row``; ``None`` when the live state cannot
    follow the store there (the row is behind it, or moves are missing)."""
    if row.version < version or len(moves) != row.version - version:
        return None
    return Behind(row, moves, events, claims)


def read_fresh(
    store: Store, table_id: str, version: int, revision: int, event_count: int
) -> tuple[TableHead | TableRow | None, Behind | bool | None]:
    """Read a table's head and, when its revision is not ``revision``, what a live table at ``version``/``revision``
    with ``event_count`` events misses (blocks; one trip off the event loop instead of two).

    Returns ``(head, behind)``: ``head`` is ``None`` for an unknown table; ``behind`` is ``False`` when nothing
    was read past the head (unknown table, or the revision is current), else what :func:`read_behind` returned
    (``None``: the store went somewhere the live state cannot follow).

    On PostgreSQL the head is the whole row, read with what the table misses in one statement
    (:meth:`.TableStore.load_table_since`): a statement costs about 100,000 instructions there (psycopg), far more
    than reading the row's other columns. On SQLite a short read costs a few thousand: the three columns of the
    head, and the row and what the table misses only when it is behind.
    """
    if store.db.dialect == "postgresql":
        found = store.tables.load_table_since(table_id, version, revision, event_count)
        if found is None:
            return None, False
        row, missed = found
        return row, False if missed is None else _followed(row, version, *missed)
    head = store.tables.table_head(table_id)
    if head is None or head.revision == revision:
        return head, False
    return head, read_behind(store, table_id, version, revision, event_count)


def catch_up(store: Store, live: LiveTable) -> bool:
    """Bring a live table to the stored revision, applying only the moves it misses (blocks: reads the store).

    Returns ``False`` when the store went somewhere the live state cannot follow (the caller reloads the table).

    Raises:
        IllegalMove, InvalidMove: a stored move does not replay (a corrupted store).
    """
    behind = read_behind(store, live.id, live.version, live.revision, live.event_count)
    if behind is None:
        return False
    apply_behind(live, behind)
    return True


def apply_behind(live: LiveTable, behind: Behind) -> None:
    """Bring a live table to the stored revision read by :func:`read_behind`, through :meth:`LiveTable.apply`.

    Raises:
        IllegalMove, InvalidMove: a stored move does not replay (a corrupted store).
    """
    row = behind.row
    if row.revision == live.revision:
        return
    append = Append(
        table_id=live.id,
        base_version=live.version,
        moves=[(m.seat, m.move, m.actor, m.at) for m in behind.moves],
        events=behind.events,
        status=row.status,
        result=row.result,
        waiting_on=row.waiting_on,
        deadline_at=row.deadline_at,
        seat_versions=dict(row.seat_versions),
    )
    live.apply(append, row.revision)
    live.apply_row(row, behind.claims)
    if any(s not in live.caches for s in live.claims):
        live.caches.clear()
        live.unseen.clear()

"""A table's log, a page at a time (``game_log``): read from the store, never from the game in memory."""

from __future__ import annotations

from typing import TYPE_CHECKING

from club_agentes.mcp_server.eventrow import EventRow
from club_agentes.mcp_server.heavy import off_loop
from club_agentes.mcp_server.store.tables import MoveRow
from club_agentes.mcp_server.tables import reading
from club_agentes.mcp_server.tables.common import (
    _LOG_CURSOR,
    _TABLE_ID,
    LOG_PAGE_EVENTS,
    LOG_READ_CHUNK,
    MAX_LOG_PAGE,
    _owned_seat,
)
from club_agentes.mcp_server.tables.config import TableError
from club_agentes.mcp_server.tables.facts import LogPage

if TYPE_CHECKING:
    from club_agentes.mcp_server.tables.service import TableService


async def log(
    svc: TableService, table_id: str, token: str | None, cursor: str | None, limit: int, agent: str | None
) -> LogPage:
    """Return one page of a table's log: public, a seat's, or (once the game is over) the full log.

    Pages cover versions (moves): the first page starts with the deal (version 0); ``next_cursor``
    continues. A page covers at most ``limit`` versions, and ends early once it holds
    :data:`LOG_PAGE_EVENTS` events (``upto`` says where). Never loads the game. With a token, ``agent``
    (the connection's; ``None`` for an in-process caller) must hold its seat.

    Raises:
        TableError: unknown table, bad token, a token of another agent's seat, bad cursor or limit.
    """
    svc._ensure_started()
    if not isinstance(table_id, str) or not _TABLE_ID.fullmatch(table_id):
        raise svc._unknown(table_id)
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LOG_PAGE:
        raise TableError(f"limit must be a whole number of moves from 1 to {MAX_LOG_PAGE}")
    row = await svc.store.run(svc.store.tables.load_table, table_id)
    if row is None:
        raise svc._unknown(table_id)
    claims = {c.seat: c for c in await svc.store.run(svc.store.tables.seat_claims, table_id)}
    seat = None
    if token:
        seat = _owned_seat(table_id, claims, token, agent)
    after = -1
    if cursor is not None:
        m = _LOG_CURSOR.fullmatch(cursor) if isinstance(cursor, str) else None
        if m is None:
            raise TableError("cursor must be a next_cursor from an earlier game_log answer, e.g. 'v200'")
        after = int(m.group(1))
    full = row.status in ("finished", "aborted")
    upto = min(row.version, after + limit)
    events, moves, upto = await off_loop(_log_rows, svc, table_id, after, upto, seat, full)  # off the loop
    return LogPage(
        table=reading.row_facts(svc, row, claims),
        scope="full" if full else ("seat" if seat is not None else "public"),
        seat=None if full else seat,
        events=events,
        moves=moves,
        seed=row.seed if full else None,
        after=after,
        upto=upto,
        next_cursor=f"v{upto}" if upto < row.version else None,
    )


def _log_rows(
    svc: TableService, table_id: str, after: int, upto: int, seat: int | None, full: bool
) -> tuple[list[EventRow], list[MoveRow] | None, int]:
    """Return a log page's events, moves (full log only) and last version (blocks: see :func:`log`).

    Reads :data:`LOG_READ_CHUNK` versions per statement (the loop's own short reads wait for one chunk at most)
    and ends before ``upto`` at the chunk that brings the page to :data:`LOG_PAGE_EVENTS` events.
    """
    events: list[EventRow] = []
    moves: list[MoveRow] | None = [] if full else None
    lo = after
    while lo < upto:
        hi = min(upto, lo + LOG_READ_CHUNK)
        events += svc.store.tables.load_events(table_id, after_version=lo, upto_version=hi, seat=seat, everything=full)
        if moves is not None:
            moves += svc.store.tables.load_moves(table_id, after=max(lo, 0), upto=hi)
        lo = hi
        if len(events) >= LOG_PAGE_EVENTS:
            break
    return events, moves, lo

"""Listing tables a page at a time (the body of :meth:`TableService.list`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from club_agentes.mcp_server.store.tables import (
    STATUSES,
)
from club_agentes.mcp_server.tables import reading
from club_agentes.mcp_server.tables.common import (
    _LIST_CURSOR,
    MAX_LIST_PAGE,
)
from club_agentes.mcp_server.tables.config import (
    TableError,
)
from club_agentes.mcp_server.tables.facts import (
    TablePage,
)

if TYPE_CHECKING:
    from club_agentes.mcp_server.tables.service import TableService


async def list(
    svc: TableService,
    game: str | None = None,
    status: str | None = None,
    *,
    open_seats: bool = False,
    agent: str | None = None,
    cursor: str | None = None,
    limit: int = 50,
) -> TablePage:
    """:meth:`TableService.list` (its docstring says what it does and raises)."""
    svc._ensure_started()
    if status is not None and status not in STATUSES:
        raise TableError(f"status must be one of {', '.join(repr(s) for s in STATUSES)}, not {str(status)[:30]!r}")
    if game is not None:
        svc._game(game)
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LIST_PAGE:
        raise TableError(f"limit must be a whole number from 1 to {MAX_LIST_PAGE}")
    before = None
    if cursor is not None:
        m = _LIST_CURSOR.fullmatch(cursor) if isinstance(cursor, str) else None
        if m is None:
            raise TableError("cursor must be a next_cursor from an earlier list_tables answer")
        try:
            before = (float.fromhex(m.group(1)), m.group(2))
        except ValueError:
            raise TableError("cursor must be a next_cursor from an earlier list_tables answer") from None
    rows = await svc.store.run(
        svc.store.tables.list_tables, game, status, open_seats=open_seats, agent=agent, before=before, limit=limit + 1
    )
    more = len(rows) > limit
    rows = rows[:limit]
    claims = await svc.store.run(svc.store.tables.seat_claims_of, [r.id for r in rows])
    tables = [reading.row_facts(svc, r, {c.seat: c for c in claims.get(r.id, [])}) for r in rows]
    nxt = f"{rows[-1].created_at.hex()}/{rows[-1].id}" if more and rows else None
    return TablePage(tables, nxt)

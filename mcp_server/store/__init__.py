"""The server's store: tables and moves, quiz attempts, passes (and, as issues add them, agents,
ratings and matchmaking), in one SQLite file or one PostgreSQL database.

:class:`Store` is the facade the services use; each part lives in its own module with its own
migrations (:mod:`.tables`, :mod:`.quizzes`), over one :class:`~.db.Database`.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from club_agentes.mcp_server.store import agents, clubhouse, limits, oauth, quizzes, tables
from club_agentes.mcp_server.store.agents import AgentStoreSQL
from club_agentes.mcp_server.store.clubhouse import ClubhouseStoreSQL
from club_agentes.mcp_server.store.db import Database, IntegrityError, Migration, StoreError, open_database
from club_agentes.mcp_server.store.limits import LimitStoreSQL
from club_agentes.mcp_server.store.oauth import OAuthStoreSQL
from club_agentes.mcp_server.store.quizzes import QuizStoreSQL
from club_agentes.mcp_server.store.tables import MoveRow, SeatClaim, StaleVersion, TableRow, TableStore

DB_ENV = "CLUB_AGENTES_DB"
SCHEMA_ENV = "CLUB_AGENTES_DB_SCHEMA"

MIGRATIONS: tuple[Migration, ...] = (
    *tables.MIGRATIONS,
    *quizzes.MIGRATIONS,
    *agents.MIGRATIONS,
    *limits.MIGRATIONS,
    *clubhouse.MIGRATIONS,
    *oauth.MIGRATIONS,
)
"""Every store part's migrations."""


def default_db_path() -> Path:
    """Return the default SQLite path: ``$XDG_DATA_HOME/club-agentes/club.sqlite3`` (or ``~/.local/share/...``)."""
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "club-agentes" / "club.sqlite3"

T = TypeVar("T")


def default_location() -> str:
    """Return the store location: ``$CLUB_AGENTES_DB`` (a path or a ``postgresql://`` URL), else the default path."""
    return os.environ.get(DB_ENV) or str(default_db_path())


class Store(TableStore, QuizStoreSQL, AgentStoreSQL, LimitStoreSQL, ClubhouseStoreSQL, OAuthStoreSQL):
    """Every part of the store over one database (implements ``quizzes.store.QuizStore`` too).

    Attributes:
        db: the database.
        path: the location it was opened with (a file path, or a URL without password).
    """

    def __init__(self, location: str | Path | None = None, *, schema: str | None = None) -> None:
        """Open (creating and migrating if needed) the store at ``location`` (default: :func:`default_location`).

        ``schema`` is a PostgreSQL schema to use (created if missing; default ``$CLUB_AGENTES_DB_SCHEMA``),
        e.g. one per test or one per club sharing a server.

        Raises:
            StoreError: the database cannot be opened or migrated.
        """
        schema = schema if schema is not None else (os.environ.get(SCHEMA_ENV) or None)
        self.db: Database = open_database(location if location is not None else default_location(), schema=schema)
        self.path = self.db.location
        self.db.migrate(MIGRATIONS)

    def close(self) -> None:
        """Close the database."""
        self.db.close()

    async def run(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """Run a store call (``fn``, e.g. ``self.append``) for a coroutine and return its result.

        The one async boundary of the store: every store call a coroutine makes goes through it. On PostgreSQL
        the call runs in a thread, so a query's round trip never stalls other clients of the loop. On SQLite (a
        local file: a call costs microseconds) it runs inline: a thread hop costs more than the call, and while
        the loop is busy a thread waits up to the interpreter's switch interval (5 ms) for each hand-over of
        the GIL (measured: tests/mcp/test_wakeups.py's waiter then needed up to 2,072 loop turns instead of 15).

        Raises:
            Exception: whatever ``fn`` raises (``StaleVersion``, ``StoreError``...).
        """
        if self.db.dialect == "sqlite":
            return fn(*args, **kwargs)
        return await asyncio.to_thread(fn, *args, **kwargs)


__all__ = [
    "DB_ENV",
    "SCHEMA_ENV",
    "Database",
    "IntegrityError",
    "Migration",
    "MoveRow",
    "SeatClaim",
    "StaleVersion",
    "Store",
    "StoreError",
    "TableRow",
    "default_db_path",
    "default_location",
    "open_database",
]

"""The server's store: tables and moves, quiz attempts, passes (and, as issues add them, agents,
ratings and matchmaking), in one SQLite file or one PostgreSQL database.

:class:`Store` is what the services use: one attribute per part (``store.tables``, ``store.quizzes``,
``store.agents``, ``store.limits``, ``store.clubhouse``, ``store.oauth``), each a class in its own module
with its own migrations, over one :class:`~.db.Database`; ``await store.run(fn, *args)`` is the one way
coroutines call them (off the event loop).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import ParamSpec, TypeVar

from club_agentes.mcp_server.store import agents, clubhouse, limits, oauth, quizzes, tables
from club_agentes.mcp_server.store.agents import AgentStoreSQL
from club_agentes.mcp_server.store.clubhouse import ClubhouseStoreSQL
from club_agentes.mcp_server.store.db import (
    Database,
    IntegrityError,
    Migration,
    StoreError,
    StorePart,
    open_database,
)
from club_agentes.mcp_server.store.limits import LimitStoreSQL
from club_agentes.mcp_server.store.oauth import OAuthStoreSQL
from club_agentes.mcp_server.store.quizzes import QuizStoreSQL
from club_agentes.mcp_server.store.tables import MoveRow, SeatClaim, StaleVersion, TableRow, TableStore

P = ParamSpec("P")
R = TypeVar("R")

MIGRATIONS: tuple[Migration, ...] = (
    *tables.MIGRATIONS,
    *quizzes.MIGRATIONS,
    *agents.MIGRATIONS,
    *limits.MIGRATIONS,
    *clubhouse.MIGRATIONS,
    *oauth.MIGRATIONS,
)
"""Every store part's migrations."""


DB_ENV = "CLUB_AGENTES_DB"
SCHEMA_ENV = "CLUB_AGENTES_DB_SCHEMA"


def default_db_path() -> Path:
    """Return the default SQLite path: ``$XDG_DATA_HOME/club-agentes/club.sqlite3`` (or ``~/.local/share/...``).

    The environment is read through :mod:`club_agentes.mcp_server.settings`.
    """
    from club_agentes.mcp_server import settings  # settings imports the store's limits: import when called

    return settings.default_db_path()


def default_location() -> str:
    """Return the store location: ``$CLUB_AGENTES_DB`` (a path or a ``postgresql://`` URL), else the default path."""
    from club_agentes.mcp_server import settings

    return settings.default_db_location()


class Store:
    """Every part of the store over one database, as one attribute each (composition).

    Attributes:
        db: the database (one connection source shared by every part).
        path: the location it was opened with (a file path, or a URL without password).
        tables: tables, seat claims, moves, events and snapshots (:class:`~.tables.TableStore`).
        quizzes: quiz attempts and club passes (:class:`~.quizzes.QuizStoreSQL`, a ``quizzes.store.QuizStore``).
        agents: agents and their key hashes (:class:`~.agents.AgentStoreSQL`).
        limits: rate counters and leases (:class:`~.limits.LimitStoreSQL`).
        clubhouse: ratings, rated games and the matchmaking queue (:class:`~.clubhouse.ClubhouseStoreSQL`).
        oauth: OAuth clients, sign-ins, codes and tokens (:class:`~.oauth.OAuthStoreSQL`).
    """

    def __init__(self, location: str | Path | None = None, *, schema: str | None = None) -> None:
        """Open (creating and migrating if needed) the store at ``location`` (default: :func:`default_location`).

        ``schema`` is a PostgreSQL schema to use (created if missing; default ``$CLUB_AGENTES_DB_SCHEMA``),
        e.g. one per test or one per club sharing a server.

        Raises:
            StoreError: the database cannot be opened or migrated.
        """
        from club_agentes.mcp_server import settings

        schema = schema if schema is not None else settings.default_db_schema()
        self.db: Database = open_database(location if location is not None else default_location(), schema=schema)
        self.path = self.db.location
        self.db.migrate(MIGRATIONS)
        self.tables = TableStore(self.db)
        self.quizzes = QuizStoreSQL(self.db)
        self.agents = AgentStoreSQL(self.db)
        self.limits = LimitStoreSQL(self.db)
        self.clubhouse = ClubhouseStoreSQL(self.db)
        self.oauth = OAuthStoreSQL(self.db)

    async def run(self, fn: Callable[P, R], /, *args: P.args, **kwargs: P.kwargs) -> R:
        """Run the blocking store call ``fn(*args, **kwargs)`` off the event loop; return its result.

        Every store call made from a coroutine goes through here (``await store.run(store.tables.load_table,
        table_id)``), so a query held by a lock or a slow network stalls only its caller, never the other
        clients of the event loop: on PostgreSQL it runs on one of the database's own threads; on SQLite inline
        while it would not wait, else on the database's one thread (see :mod:`.db`).

        Raises:
            StoreError: the database is closed.
            Exception: whatever ``fn`` raises.
        """
        return await self.db.run(fn, *args, **kwargs)

    def close(self) -> None:
        """Close the database (after the calls :meth:`run` started have finished)."""
        self.db.close()


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
    "StorePart",
    "TableRow",
    "default_db_path",
    "default_location",
    "open_database",
]

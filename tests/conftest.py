"""Fixtures shared by every test package: where a test's store lives (SQLite and PostgreSQL).

PostgreSQL tests need a server: set ``CLUB_AGENTES_TEST_PG`` to its URL (CI uses
``postgresql://postgres@127.0.0.1:5432/test``). Without it they skip with one line saying so;
with ``CLUB_AGENTES_REQUIRE_PG=1`` (set by ``.ci/run``) a skip is an error instead. Each test gets
its own PostgreSQL schema, dropped afterwards, so runs never collide.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

PG_ENV = "CLUB_AGENTES_TEST_PG"
REQUIRE_ENV = "CLUB_AGENTES_REQUIRE_PG"
SKIP_REASON = f"PostgreSQL tests need a server: set {PG_ENV}=postgresql://postgres@127.0.0.1:5432/test to run them"


@dataclass(frozen=True)
class DbLocation:
    """Where a test's store lives: a SQLite file, or a PostgreSQL URL and a schema of its own."""

    kind: str
    location: str
    schema: str | None = None

    def open(self):
        """Open a :class:`Store` here."""
        from club_agentes.mcp_server.store import Store

        return Store(self.location, schema=self.schema)

    def env(self) -> dict[str, str]:
        """Return the environment that points a server process here."""
        out = {"CLUB_AGENTES_DB": self.location}
        if self.schema:
            out["CLUB_AGENTES_DB_SCHEMA"] = self.schema
        return out


def pg_url() -> str | None:
    """Return the test PostgreSQL URL, or skip (fail when it is required)."""
    url = os.environ.get(PG_ENV)
    if not url:
        if os.environ.get(REQUIRE_ENV) == "1":
            pytest.fail(f"{PG_ENV} is not set but {REQUIRE_ENV}=1: PostgreSQL tests must run here")
        pytest.skip(SKIP_REASON)
    return url


@pytest.fixture
def pg_location() -> Iterator[DbLocation]:
    """A PostgreSQL schema of this test's own (dropped afterwards)."""
    url = pg_url()
    assert url is not None
    schema = "t_" + secrets.token_hex(6)
    yield DbLocation("postgresql", url, schema)
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


@pytest.fixture(params=["sqlite", "postgresql"])
def db_location(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[DbLocation]:
    """The same test over a SQLite file and over a PostgreSQL schema."""
    if request.param == "sqlite":
        yield DbLocation("sqlite", str(tmp_path / "club.sqlite3"))
        return
    yield from pg_location.__wrapped__()  # type: ignore[attr-defined]


@pytest.fixture
def anyio_backend() -> str:
    """Async tests run on asyncio."""
    return "asyncio"

"""Fixtures: an in-process server over a fresh SQLite store, reached through the SDK's Client."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from club_agentes.mcp_server.app import ClubApp, build_app
from club_agentes.mcp_server.store import Store
from mcp import Client

from tests.mcp.helpers import Checked


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "club.sqlite3"


@pytest.fixture
async def club(db_path: Path) -> AsyncIterator[Checked]:
    app = build_app(Store(db_path))
    async with Client(app.server) as client:
        yield await Checked(client).load()
    await app.tables.aclose()
    app.store.close()


@pytest.fixture
async def app(tmp_path: Path) -> AsyncIterator[tuple[ClubApp, Checked]]:
    """An in-process server over a fresh SQLite store, with its checked client (for tests that read the store)."""
    a = build_app(Store(tmp_path / "club.sqlite3"))
    async with Client(a.server) as client:
        yield a, await Checked(client).load()
    await a.tables.aclose()
    a.store.close()

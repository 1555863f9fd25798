"""Fixtures: a server over a fresh SQLite store with the clubhouse registered."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from club_agentes.mcp_server.app import ClubApp
from club_agentes.mcp_server.clubhouse import Clubhouse
from club_agentes.mcp_server.store import Store

from tests.clubhouse.helpers import clubhouse_app


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
async def club(tmp_path: Path) -> AsyncIterator[tuple[ClubApp, Clubhouse]]:
    """The server's services over a fresh SQLite file, the clubhouse registered."""
    app, house = clubhouse_app(Store(tmp_path / "club.sqlite3"))
    yield app, house
    await house.aclose()
    await app.tables.aclose()
    app.store.close()

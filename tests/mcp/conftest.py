"""Fixtures: an in-process server over a fresh SQLite store, reached through the SDK's Client."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from club_agentes.mcp_server.app import build_server
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
    store = Store(db_path)
    server = build_server(store)
    async with Client(server) as client:
        yield await Checked(client).load()
    store.close()

"""No single request holds the server: option values have ranges (the abusive table of issue 11 is refused
with one sentence), the worst table the ranges allow plays in the background (create_table answers at once)
while another client is served, and answers are a page at a time. (benchmarks/mcp.py prints the latency
ratio of list_games during such a table to its idle value.)"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest
from club_agentes.engine.core import get_game
from mcp import Client

from tests.mcp.helpers import Checked, start_http_server, stop

pytestmark = pytest.mark.anyio


def worst_options(game_id: str) -> dict[str, Any]:
    """The longest table a game's option ranges allow: every number at its maximum, the longest mode."""
    schema = get_game(game_id).config_schema()
    out: dict[str, Any] = {}
    for name, prop in schema.get("properties", {}).items():
        if "maximum" in prop and "integer" in (prop["type"] if isinstance(prop["type"], list) else [prop["type"]]):
            if name.endswith("limit"):
                out[name] = prop["maximum"]
        elif name == "mode" and "campeonato" in prop.get("enum", ()):
            out[name] = "campeonato"
    return out


async def test_the_abusive_table_of_issue_11_is_refused_with_the_range(club: Checked) -> None:
    text = await club.error(
        "create_table",
        {
            "game": "market-fortune",
            "seats": ["bot:random"] * 6,
            "options": {"mode": "campeonato", "turn_limit": 100000},
        },
    )
    assert "turn_limit" in text and "1000" in text and len(text) < 300


async def test_the_worst_allowed_table_plays_in_the_background_while_others_are_served(tmp_path: Path) -> None:
    proc, url = start_http_server(tmp_path / "club.sqlite3")
    try:
        async with Client(url) as host, Client(url) as other:
            h, o = await Checked(host).load(), await Checked(other).load()
            for _ in range(5):
                await o.call("list_games", {})
            t = await h.call(
                "create_table",
                {"game": "market-fortune", "seats": ["bot:random"] * 6, "options": worst_options("market-fortune")},
            )
            assert t["status"] == "playing"  # answered at once: the bots play in the background
            # Bot workers run at a lower CPU priority and start on demand, so on a busy machine the first
            # moves may take a while: other clients are served all along, and the table advances.
            versions = []
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                assert len((await o.call("list_games", {}))["games"]) == 3
                versions.append((await o.call("game_log", {"table_id": t["table_id"], "limit": 1}))["version"])
                if versions[-1] > versions[0] and len(versions) >= 10:
                    break
                await asyncio.sleep(0.05)
            assert versions[-1] > versions[0], "the table advances in the background"
            page = await o.call("game_log", {"table_id": t["table_id"], "limit": 500})
            assert page["upto"] - page["after"] <= 500
            listed = await o.call("list_tables", {"limit": 1})
            assert len(listed["tables"]) == 1
    finally:
        stop(proc)

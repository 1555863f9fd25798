"""The installed server over real transports: stdio (subprocess) and streamable HTTP (loopback),
through the SDK's own Client: the tools with their schemas, the corpus, and a game of each
Market Fortune mode played to the end by agents and bots."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from tests.mcp.helpers import Checked, server_command, start_http_server

pytestmark = pytest.mark.anyio

EXPECTED_TOOLS = {
    "list_games",
    "rules_toc",
    "read_rules",
    "search_rules",
    "start_quiz",
    "submit_quiz",
    "practice_question",
    "verify_club_pass",
    "create_table",
    "join_table",
    "get_view",
    "play_move",
    "wait_for_turn",
    "game_log",
    "list_tables",
}


async def play_mode(c: Checked, mode: str, seed: int) -> dict:
    t = await c.call(
        "create_table",
        {
            "game": "market-fortune",
            "seats": ["agent", "bot:heuristic", "agent", "bot:random"],
            "options": {"mode": mode, "require_club_pass": False},
            "seed": seed,
        },
    )
    tid = t["table_id"]
    tokens = [(await c.call("join_table", {"table_id": tid, "agent": f"a{i}"}))["seat_token"] for i in range(2)]
    rng = random.Random(seed)
    for _ in range(50_000):
        for tok in tokens:
            w = await c.call("wait_for_turn", {"table_id": tid, "seat_token": tok, "timeout_s": 0})
            if w["status"] == "finished":
                return await c.call("game_log", {"table_id": tid})
            if w["ready"]:
                v = await c.call("get_view", {"table_id": tid, "seat_token": tok})
                out = await c.call(
                    "play_move",
                    {
                        "table_id": tid,
                        "seat_token": tok,
                        "move": rng.choice(v["legal_moves"])["id"],
                        "expected_version": v["version"],
                    },
                )
                assert out["accepted"], out["refusal"]
    raise AssertionError(f"the {mode} game did not end")


async def exercise(client: Client) -> None:
    c = await Checked(client).load()
    tools = (await client.list_tools()).tools
    assert {t.name for t in tools} == EXPECTED_TOOLS
    assert all(t.output_schema for t in tools)
    s = await c.call("read_rules", {"game": "yo-soy-el-jefe", "section": "6-ejemplos/pago-y-cartas"})
    assert "30 millones" in s["text"]
    assert (await c.call("search_rules", {"query": "dado fortune"}))["hits"]
    assert "valid game ids" in await c.error("rules_toc", {"game": "nope"})
    for seed, mode in enumerate(("familia", "fortuna", "campeonato"), 1):
        log = await play_mode(c, mode, seed)
        assert log["scope"] == "full" and log["result"]["winners"], mode


async def test_stdio_subprocess(tmp_path: Path) -> None:
    cmd = server_command(tmp_path / "club.sqlite3")
    async with Client(StdioServerParameters(command=cmd[0], args=cmd[1:])) as client:
        await exercise(client)


async def test_http_loopback(tmp_path: Path) -> None:
    proc, url = start_http_server(tmp_path / "club.sqlite3")
    try:
        async with Client(url) as client:
            await exercise(client)
    finally:
        proc.terminate()
        proc.wait(10)


async def test_http_legacy_protocol(tmp_path: Path) -> None:
    """Clients of older protocol versions (initialize handshake) are served too."""
    proc, url = start_http_server(tmp_path / "club.sqlite3")
    try:
        async with Client(url, mode="legacy") as client:
            c = await Checked(client).load()
            assert len((await c.call("list_games", {}))["games"]) == 3
    finally:
        proc.terminate()
        proc.wait(10)

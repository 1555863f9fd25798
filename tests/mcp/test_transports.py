"""The installed server over real transports: stdio (subprocess) and streamable HTTP (loopback), through
the SDK's own Client: the tools with their schemas, the corpus, one game per transport played to the end
by agents and bots, and two agents with their own keys playing Se Vende at once over HTTP."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from tests.mcp.helpers import Checked, add_agent, keyed_client, server_command, start_http_server, stop

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
    "leaderboard",
    "agent_profile",
    "seek_game",
}


async def play_mode(c: Checked, mode: str, seed: int, turn_limit: int | None = None) -> dict[str, Any]:
    """Two agent seats (one client holding both) and two bots play a Market Fortune game to its end."""
    t = await c.call(
        "create_table",
        {
            "game": "market-fortune",
            "seats": ["agent", "bot:heuristic", "agent", "bot:random"],
            "options": {
                "mode": mode,
                "require_club_pass": False,
                "seats_per_agent": 2,
                **({"turn_limit": turn_limit} if turn_limit else {}),
            },
            "seed": seed,
        },
    )
    tid = t["table_id"]
    tokens = [(await c.call("join_table", {"table_id": tid}))["seat_token"] for _ in range(2)]
    rng = random.Random(seed)
    for _ in range(50_000):
        for tok in tokens:
            w = await c.call("wait_for_turn", {"table_id": tid, "seat_token": tok, "timeout_s": 0})
            if w["status"] == "finished":
                log = await c.call("game_log", {"table_id": tid})
                return log
            if w["ready"]:
                out = await c.call(
                    "play_move",
                    {
                        "table_id": tid,
                        "seat_token": tok,
                        "move": rng.choice(w["legal_moves"])["id"],
                        "expected_version": w["seat_version"],
                    },
                )
                assert out["accepted"], out["refusal"]
    raise AssertionError(f"the {mode} game did not end")


async def exercise(client: Client, modes: tuple[str, ...] = ("fortuna",), turn_limit: int | None = 30) -> None:
    c = await Checked(client).load()
    tools = (await client.list_tools()).tools
    assert {t.name for t in tools} == EXPECTED_TOOLS
    assert all(t.output_schema for t in tools)
    s = await c.call("read_rules", {"game": "yo-soy-el-jefe", "section": "6-ejemplos/pago-y-cartas"})
    assert "30 millones" in s["text"]
    assert (await c.call("search_rules", {"query": "dado fortune"}))["hits"]
    for seed, mode in enumerate(modes, 1):
        log = await play_mode(c, mode, seed, turn_limit)
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
        stop(proc)


@pytest.mark.slow
async def test_http_every_market_fortune_mode(tmp_path: Path) -> None:
    proc, url = start_http_server(tmp_path / "club.sqlite3")
    try:
        async with Client(url) as client:
            await exercise(client, ("familia", "fortuna", "campeonato"), turn_limit=None)
    finally:
        stop(proc)


async def test_http_legacy_protocol(tmp_path: Path) -> None:
    """Clients of older protocol versions (initialize handshake) are served too."""
    proc, url = start_http_server(tmp_path / "club.sqlite3")
    try:
        async with Client(url, mode="legacy") as client:
            c = await Checked(client).load()
            assert len((await c.call("list_games", {}))["games"]) == 3
    finally:
        stop(proc)


async def agent_loop(url: str, key: str, table_id: str | None, seed: int, stats: dict[str, int]) -> dict[str, Any]:
    """One agent on its own key and connection: join, then wait_for_turn -> play_move with expected_version."""
    rng = random.Random(seed)
    async with keyed_client(url, key) as c:
        token = (await c.call("join_table", {"table_id": table_id}))["seat_token"]
        answer = await c.call("wait_for_turn", {"table_id": table_id, "seat_token": token, "timeout_s": 60})
        while True:
            if answer["status"] == "finished":
                return answer
            if not answer["decision"]["yours"]:
                answer = await c.call("wait_for_turn", {"table_id": table_id, "seat_token": token, "timeout_s": 60})
                continue
            move = rng.choice(answer["legal_moves"])["id"]
            out = await c.call(
                "play_move",
                {"table_id": table_id, "seat_token": token, "move": move, "expected_version": answer["seat_version"]},
            )
            stats["moves"] += 1
            if not out["accepted"]:
                assert out["refusal"]["kind"] == "stale_version", out["refusal"]
                stats["stale"] += 1
            answer = out


async def test_two_agents_play_se_vende_over_http_without_stale_refusals(tmp_path: Path) -> None:
    """Each agent sends expected_version with every move; the other seat's sealed choices never make it stale."""
    db = tmp_path / "club.sqlite3"
    keys = [add_agent(db, name) for name in ("ana", "bob")]
    proc, url = start_http_server(db, keys=True)
    try:
        async with keyed_client(url, keys[0]) as host:
            t = await host.call(
                "create_table",
                {
                    "game": "se-vende",
                    "seats": ["agent", "agent"],
                    "options": {"require_club_pass": False, "turn_limit": 6},
                    "seed": 11,
                },
            )
        stats = {"moves": 0, "stale": 0}
        ends = await asyncio.gather(*(agent_loop(url, k, t["table_id"], i, stats) for i, k in enumerate(keys)))
        assert all(e["status"] == "finished" for e in ends) and stats["moves"] > 20
        assert stats["stale"] == 0, f"{stats['stale']} stale_version refusals in {stats['moves']} moves"
        assert sorted(s["agent"] for s in await _seats(url, keys[0], t["table_id"])) == ["ana", "bob"]
    finally:
        stop(proc)


async def _seats(url: str, key: str, table_id: str) -> list[dict[str, Any]]:
    async with keyed_client(url, key) as c:
        return (await c.call("game_log", {"table_id": table_id, "limit": 1}))["seats"]

"""Per-agent budgets of refused moves, log pages and rule searches over HTTP with agent keys (issue 23, point 3): beyond
them a call is refused at once with one sentence naming when to retry; another agent is still served. Nothing
here asserts on time: counts and sentences."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
from club_agentes.mcp_server.budgets import LOG_MOVES_BURST, REFUSED_MOVES_BURST, SEARCHES_BURST

from tests.mcp.helpers import add_agent, start_http_server, stop

HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


async def call(c: httpx.AsyncClient, url: str, key: str, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    """Call a tool over stateless HTTP with ``key``; return the JSON-RPC result."""
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": tool, "arguments": args}}
    r = await c.post(url, content=json.dumps(body), headers={**HEADERS, "Authorization": f"Bearer {key}"})
    assert r.status_code == 200, r.text
    return r.json()["result"]


def text(result: dict[str, Any]) -> str:
    return " ".join(part.get("text", "") for part in result.get("content", []))


def test_refused_moves_and_log_pages_are_budgeted_per_agent(tmp_path: Path) -> None:
    db = tmp_path / "club.sqlite3"
    alice, bob = add_agent(db, "alice"), add_agent(db, "bob")
    proc, url = start_http_server(db, None, keys=True)

    async def run() -> None:
        async with httpx.AsyncClient(timeout=60) as c:
            seats = ["agent", "bot:heuristic"]
            own = {"game": "se-vende", "seats": seats, "options": {"require_club_pass": False}}
            tokens = {}
            for name, key in (("alice", alice), ("bob", bob)):
                t = (await call(c, url, key, "create_table", own))["structuredContent"]
                seat = (await call(c, url, key, "join_table", {"table_id": t["table_id"]}))["structuredContent"]
                tokens[name] = (t["table_id"], seat["seat_token"])
            tid, token = tokens["alice"]
            bad = {"table_id": tid, "seat_token": token, "move": "no such move " * 10}
            answers = []
            while len(answers) < 3 * REFUSED_MOVES_BURST:  # the balance refills a little while these are sent
                answers.append(await call(c, url, alice, "play_move", bad))
                if "moves refused in a minute" in text(answers[-1]):
                    break
            refusal = text(answers[-1])
            assert answers[-1]["isError"] and "retry after" in refusal and refusal.count(". ") == 0, refusal
            refused = [a for a in answers if a.get("structuredContent", {}).get("accepted") is False]
            assert len(refused) == len(answers) - 1 >= REFUSED_MOVES_BURST  # each with its reason and closest moves
            btid, btoken = tokens["bob"]
            other = await call(c, url, bob, "play_move", {"table_id": btid, "seat_token": btoken, "move": "nonsense"})
            assert other["structuredContent"]["accepted"] is False  # bob's budget is his own

            # A finished bots-only game, its full log read again and again.
            game = {"game": "se-vende", "seats": ["bot:random", "bot:random"], "options": {"require_club_pass": False}}
            g = (await call(c, url, alice, "create_table", game))["structuredContent"]["table_id"]
            for _ in range(600):
                page = (await call(c, url, bob, "game_log", {"table_id": g, "limit": 1}))["structuredContent"]
                if page["status"] == "finished":
                    break
                await asyncio.sleep(0.1)
            versions = page["version"] + 1
            pages: list[dict[str, Any]] = []
            while len(pages) < 3 * (LOG_MOVES_BURST // versions + 1):  # the balance refills while pages are read
                pages.append(await call(c, url, alice, "game_log", {"table_id": g, "limit": 500}))
                if pages[-1].get("isError"):
                    break
            refusal = text(pages[-1])
            assert "moves of game logs in a minute; retry after" in refusal and refusal.count(". ") == 0, refusal
            assert len(pages) - 1 >= LOG_MOVES_BURST // versions  # every page up to the burst was served
            assert not (await call(c, url, bob, "game_log", {"table_id": g, "limit": 500})).get("isError")

            searches: list[dict[str, Any]] = []
            while len(searches) < 3 * SEARCHES_BURST:
                searches.append(await call(c, url, alice, "search_rules", {"query": "descartar"}))
                if searches[-1].get("isError"):
                    break
            refusal = text(searches[-1])
            assert "searched the rules more than" in refusal and "retry after" in refusal, refusal
            assert len(searches) - 1 >= SEARCHES_BURST and refusal.count(". ") == 0
            assert not (await call(c, url, bob, "search_rules", {"query": "descartar"})).get("isError")

    try:
        asyncio.run(run())
    finally:
        stop(proc)

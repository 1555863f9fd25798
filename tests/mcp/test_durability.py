"""A server killed with SIGKILL at random points loses no acknowledged move, and every table
goes on after a restart (HTTP server subprocess over one SQLite file)."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from pathlib import Path

import pytest
from mcp import Client

from tests.mcp.helpers import Checked, start_http_server

pytestmark = pytest.mark.anyio

GAMES = [("market-fortune", {"mode": "fortuna"}), ("se-vende", {}), ("yo-soy-el-jefe", {})]


def stored_moves(db: Path, table_id: str) -> dict[int, str]:
    with sqlite3.connect(db) as con:
        rows = con.execute("SELECT version, move FROM moves WHERE table_id = ?", (table_id,)).fetchall()
    return {v: m for v, m in rows}


@pytest.mark.parametrize(("game", "options"), GAMES, ids=[g for g, _ in GAMES])
async def test_sigkill_loses_no_acknowledged_move(tmp_path: Path, game: str, options: dict) -> None:
    db = tmp_path / "club.sqlite3"
    rng = random.Random(f"{game}-kill")
    proc, url = start_http_server(db)
    acked: dict[int, str] = {}
    kills = 0
    try:
        async with Client(url) as client:
            c = await Checked(client).load()
            t = await c.call(
                "create_table",
                {
                    "game": game,
                    "seats": ["agent", "agent", "bot:random"],
                    "options": {**options, "require_club_pass": False},
                },
            )
            tid = t["table_id"]
            tokens = [(await c.call("join_table", {"table_id": tid, "agent": f"a{i}"}))["seat_token"] for i in range(2)]
        finished = False
        while not finished:
            async with Client(url) as client:
                c = await Checked(client).load()
                kill_after = rng.randint(3, 25)
                for step in range(10_000):
                    views = [await c.call("get_view", {"table_id": tid, "seat_token": tok}) for tok in tokens]
                    assert views[0]["version"] >= max(acked, default=0)
                    if views[0]["status"] == "finished":
                        finished = True
                        break
                    seat = next(i for i, v in enumerate(views) if v["decision"]["yours"])
                    move = rng.choice(views[seat]["legal_moves"])
                    args = {"table_id": tid, "seat_token": tokens[seat], "move": move["id"]}
                    if step == kill_after and kills < 4:
                        # Kill the server while this move is in flight, at a random moment.
                        task = asyncio.create_task(c.call("play_move", args))
                        await asyncio.sleep(rng.uniform(0, 0.01))
                        proc.kill()
                        proc.wait(10)
                        kills += 1
                        try:
                            out = await asyncio.wait_for(task, 5)
                            if out["accepted"]:
                                acked[views[seat]["version"] + 1] = json.dumps(move["move"])
                        except BaseException:
                            pass
                        break
                    out = await c.call("play_move", args)
                    assert out["accepted"]
                    acked[views[seat]["version"] + 1] = json.dumps(move["move"])
            if not finished:
                proc, url = start_http_server(db)
            stored = stored_moves(db, tid)
            for version, move_json in acked.items():
                assert version in stored, f"acknowledged move {version} was lost"
                assert json.loads(stored[version]) == json.loads(move_json)
        assert kills >= 1
    finally:
        proc.kill()
        proc.wait(10)

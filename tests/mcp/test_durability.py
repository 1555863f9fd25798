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
KILLS = 3
AFTER_LAST_RESTART = 15  # moves played after the last restart, to show the table goes on


def stored_moves(db: Path, table_id: str) -> dict[int, str]:
    with sqlite3.connect(db) as con:
        rows = con.execute("SELECT version, move FROM moves WHERE table_id = ?", (table_id,)).fetchall()
    return dict(rows)


class Incarnation:
    """One life of the server: play until the game ends or the planned kill."""

    def __init__(self, url: str, proc, rng: random.Random, acked: dict[int, str]) -> None:
        self.url, self.proc, self.rng, self.acked = url, proc, rng, acked
        self.killed = False
        self.finished = False

    async def run(self, tid: str, tokens: list[str], kill: bool) -> None:
        kill_after = self.rng.randint(2, 15) if kill else -1
        async with Client(self.url) as client:
            c = await Checked(client).load()
            for step in range(100_000 if kill else AFTER_LAST_RESTART):
                views = [await c.call("get_view", {"table_id": tid, "seat_token": tok}) for tok in tokens]
                assert views[0]["version"] >= max(self.acked, default=0), "an acknowledged move is missing"
                if views[0]["status"] == "finished":
                    self.finished = True
                    return
                seat = next(i for i, v in enumerate(views) if v["decision"]["yours"])
                move = self.rng.choice(views[seat]["legal_moves"])
                args = {"table_id": tid, "seat_token": tokens[seat], "move": move["id"]}
                version = views[seat]["version"] + 1
                if step == kill_after:
                    # SIGKILL while this move is in flight, at a random moment.
                    task = asyncio.create_task(c.call("play_move", args))
                    await asyncio.sleep(self.rng.uniform(0, 0.01))
                    self.proc.kill()
                    self.proc.wait(10)
                    self.killed = True
                    try:
                        out = await asyncio.wait_for(task, 5)
                    except BaseException:  # the connection died with the server
                        out = None
                    if out is not None and out["accepted"]:
                        self.acked[version] = json.dumps(move["move"])
                    raise ConnectionAbortedError("server killed")
                out = await c.call("play_move", args)
                assert out["accepted"], out["refusal"]
                self.acked[version] = json.dumps(move["move"])


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
        while True:
            life = Incarnation(url, proc, rng, acked)
            try:
                await life.run(tid, tokens, kill=kills < KILLS)
            except BaseException:  # a planned kill ends the session with transport errors
                if not life.killed:
                    raise
            stored = stored_moves(db, tid)
            for version, move_json in acked.items():
                assert version in stored, f"acknowledged move {version} was lost"
                assert json.loads(stored[version]) == json.loads(move_json)
            if not life.killed:
                break
            kills += 1
            proc, url = start_http_server(db)
        assert kills == KILLS or life.finished
        assert max(acked) > 0
    finally:
        proc.kill()
        proc.wait(10)

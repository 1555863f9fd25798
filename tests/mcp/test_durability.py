"""A server killed with SIGKILL loses no acknowledged move, on SQLite and on PostgreSQL: at random moments
while moves are in flight, and at every commit point of create, join, move and finish (the server kills
itself between the statements of a write). After each restart every table can still be joined, played
and read. These runs start many server processes: they are in the slow set."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest
from mcp import Client

from tests.conftest import DbLocation
from tests.mcp.helpers import Checked, start_http_server, stop

pytestmark = [pytest.mark.anyio, pytest.mark.slow]

GAMES = [("market-fortune", {"mode": "fortuna"}), ("se-vende", {}), ("yo-soy-el-jefe", {})]
KILLS = 2
AFTER_LAST_RESTART = 15  # moves played after the last restart, to show the table goes on


def stored_moves(loc: DbLocation, table_id: str) -> dict[int, dict[str, Any]]:
    store = loc.open()
    try:
        return {m.version: m.move for m in store.tables.load_moves(table_id)}
    finally:
        store.close()


def start(loc: DbLocation, fault_point: str | None = None) -> tuple[Any, str]:
    return start_http_server(loc.location, loc.env(), fault_point=fault_point)


class Incarnation:
    """One life of the server: play until the game ends or the planned kill."""

    def __init__(self, url: str, proc: Any, rng: random.Random, acked: dict[int, str]) -> None:
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
                seat = next((i for i, v in enumerate(views) if v["decision"]["yours"]), None)
                if seat is None:  # bots are playing (in the background after a restart)
                    await c.call("wait_for_turn", {"table_id": tid, "seat_token": tokens[0], "timeout_s": 2})
                    continue
                move = self.rng.choice(views[seat]["legal_moves"])
                args = {
                    "table_id": tid,
                    "seat_token": tokens[seat],
                    "move": move["id"],
                    "expected_version": views[seat]["seat_version"],
                }
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
                    if out is not None and out["accepted"] and out["played_version"] is not None:
                        self.acked[out["played_version"]] = json.dumps(move["move"])
                    raise ConnectionAbortedError("server killed")
                out = await c.call("play_move", args)
                if not out["accepted"]:  # the bots moved on since the view (in the background after a restart)
                    assert out["refusal"]["kind"] == "stale_version", out["refusal"]
                    continue
                assert out["played"]["move"] == move["move"]
                if out["played_version"] is not None:  # else overtaken or queued (issue 25): nothing stored yet
                    self.acked[out["played_version"]] = json.dumps(move["move"])


@pytest.mark.parametrize(("game", "options"), GAMES, ids=[g for g, _ in GAMES])
async def test_sigkill_loses_no_acknowledged_move(db_location: DbLocation, game: str, options: dict) -> None:
    rng = random.Random(f"{game}-kill")
    proc, url = start(db_location)
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
                    "options": {**options, "require_club_pass": False, "seats_per_agent": 2},
                },
            )
            tid = t["table_id"]
            tokens = [(await c.call("join_table", {"table_id": tid}))["seat_token"] for _ in range(2)]
        while True:
            life = Incarnation(url, proc, rng, acked)
            try:
                await life.run(tid, tokens, kill=kills < KILLS)
            except BaseException:  # a planned kill ends the session with transport errors
                if not life.killed:
                    raise
            stored = stored_moves(db_location, tid)
            for version, move_json in acked.items():
                assert version in stored, f"acknowledged move {version} was lost"
                assert stored[version] == json.loads(move_json)
            assert sorted(stored) == list(range(1, len(stored) + 1)), "a version is missing or doubled"
            if not life.killed:
                break
            kills += 1
            proc, url = start(db_location)
        assert kills == KILLS or life.finished
        assert max(acked) > 0
    finally:
        stop(proc)


POINTS = ["create:events", "claim:table", "append:moves", "append:table"]
"""One point inside each kind of write (every point is tested in process: test_tables_service.py)."""


@pytest.mark.parametrize("point", POINTS)
async def test_a_server_killed_at_a_commit_point_loses_nothing(db_location: DbLocation, point: str) -> None:
    """The server kills itself between the statements of a write; after a restart the write is wholly absent
    (never half-done), everything acknowledged before it is there, and every table goes on."""
    proc, url = start(db_location)
    tid = ""
    tokens: list[str] = []
    try:
        async with Client(url) as client:
            c = await Checked(client).load()
            t = await c.call(
                "create_table",
                {
                    "game": "se-vende",
                    "seats": ["agent", "agent"],
                    "options": {"require_club_pass": False, "seats_per_agent": 2},
                    "seed": 5,
                },
            )
            tid = t["table_id"]
            tokens = [(await c.call("join_table", {"table_id": tid}))["seat_token"]]
        stop(proc)
        proc, url = start(db_location, fault_point=point)
        with pytest.raises(BaseException):  # noqa: B017 - the server dies in the middle of the call
            async with Client(url) as client:
                c = await Checked(client).load()
                if point.startswith("create"):
                    await c.call("create_table", {"game": "se-vende", "seats": ["agent", "agent"]})
                elif point.startswith("claim"):
                    await c.call("join_table", {"table_id": tid})
                else:
                    tokens.append((await c.call("join_table", {"table_id": tid}))["seat_token"])
                    w = await c.call("wait_for_turn", {"table_id": tid, "seat_token": tokens[0], "timeout_s": 5})
                    await c.call(
                        "play_move", {"table_id": tid, "seat_token": tokens[0], "move": w["legal_moves"][0]["id"]}
                    )
        assert proc.wait(10) != 0
        proc, url = start(db_location)
        store = db_location.open()
        try:
            for row in store.tables.list_tables(limit=100):
                claims = store.tables.seat_claims(row.id)
                assert row.open_seats == sum(1 for s in row.seats if s == "agent") - len(claims)
                assert (row.status == "waiting") == (row.open_seats > 0), row
                assert row.version == len(store.tables.load_moves(row.id))
                assert row.event_count == len(store.tables.load_events(row.id, everything=True))
        finally:
            store.close()
        async with Client(url) as client:  # the table can still be joined, played and read
            c = await Checked(client).load()
            while len(tokens) < 2:
                tokens.append((await c.call("join_table", {"table_id": tid}))["seat_token"])
            for _ in range(6):
                for tok in tokens:
                    w = await c.call("wait_for_turn", {"table_id": tid, "seat_token": tok, "timeout_s": 0})
                    if w["ready"] and w["status"] == "playing":
                        out = await c.call(
                            "play_move", {"table_id": tid, "seat_token": tok, "move": w["legal_moves"][0]["id"]}
                        )
                        assert out["accepted"], out["refusal"]
            assert (await c.call("game_log", {"table_id": tid}))["version"] >= 3
    finally:
        stop(proc)

"""Several workers on one store: two table services (in process) and two server processes (HTTP) sharing one
SQLite file or one PostgreSQL schema join, play and finish tables through either at random; a long-poll on
one wakes when a move lands on the other (through PostgreSQL LISTEN/NOTIFY); no move is lost or applied
twice."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator
from typing import Any

import pytest
from club_agentes.engine.core import Game, UnknownGame
from club_agentes.mcp_server.tables import TableService, TableSettings
from club_agentes.rules_corpus import load_corpus
from mcp import Client

from tests.conftest import DbLocation
from tests.mcp.helpers import Checked, start_http_server, stop
from tests.mcp.table_toys import Race

pytestmark = pytest.mark.anyio

CORPUS = load_corpus()


class Anyone:
    def admit(self, club_pass: str | None, agent: str, game: str) -> str | None:
        return None


def race(game_id: str) -> Game:
    if game_id != "toy-race":
        raise UnknownGame(game_id)
    return Race()


@contextlib.asynccontextmanager
async def worker(loc: DbLocation, **settings: Any) -> AsyncIterator[TableService]:
    base = {"bot_workers": 0, "decision_timeout_s": None, "sweep_s": 3600, **settings}
    svc = TableService(loc.open(), CORPUS, Anyone(), games=race, settings=TableSettings(**base))
    try:
        yield svc
    finally:
        await svc.aclose()
        svc.store.close()


async def test_a_long_poll_wakes_through_listen_notify_when_another_worker_writes(pg_location: DbLocation) -> None:
    """Worker A re-reads the store only once a minute here, so its waiter wakes only by NOTIFY from B."""
    async with worker(pg_location, poll_s=60.0) as a, worker(pg_location) as b:
        t = await a.create("toy-race", ["agent", "agent"], {"require_club_pass": False, "goal": 50}, 4)
        tid = t.table.table_id
        j0 = await a.join(tid, "ana", None, None)
        j1 = await b.join(tid, "bob", None, None)
        await a.view(tid, j1.token)  # A holds the table live
        assert a._listener is not None and await asyncio.to_thread(a._listener.ready.wait, 10)
        waiter = asyncio.create_task(a.wait(tid, j1.token, 30))
        await asyncio.sleep(0.2)
        assert not waiter.done()
        assert (await b.play(tid, j0.token, "add 1", None)).accepted
        woke = await asyncio.wait_for(waiter, 40)
        assert woke.ready and woke.reason == "your_decision" and woke.state.table.version == 1


async def test_two_workers_join_play_and_finish_a_table_at_random(db_location: DbLocation) -> None:
    async with worker(db_location) as a, worker(db_location) as b:
        rng = random.Random(17)
        t = await a.create("toy-race", ["agent", "agent", "bot:random"], {"require_club_pass": False, "goal": 60}, 9)
        tid = t.table.table_id
        tokens = [(await a.join(tid, "ana", None, None)).token, (await b.join(tid, "bob", None, None)).token]
        acked: dict[int, dict[str, Any]] = {}
        for _ in range(500):
            svc = rng.choice([a, b])
            waits = [await svc.wait(tid, tok, 0) for tok in tokens]
            if waits[0].state.table.status == "finished":
                break
            seat = next((i for i, w in enumerate(waits) if w.ready), None)
            if seat is None:  # the bot is playing
                await svc.wait(tid, tokens[0], 2)
                continue
            move = rng.choice(waits[seat].state.moves)
            other = rng.choice([a, b])
            out = await other.play(tid, tokens[seat], move.id, waits[seat].state.seat_version)
            if out.accepted:
                assert out.played_version is not None
                acked[out.played_version] = move.move
        stored = {m.version: m.move for m in a.store.tables.load_moves(tid)}
        assert sorted(stored) == list(range(1, len(stored) + 1))
        assert all(stored[v] == m for v, m in acked.items()) and len(acked) > 10
        assert a.store.tables.load_table(tid).status == "finished"  # type: ignore[union-attr]
        assert (await b.view(tid, tokens[0])).table.status == "finished"


async def play_through(urls: list[str], rng: random.Random) -> tuple[dict[int, dict[str, Any]], dict[str, Any]]:
    """Create a table on one worker, join through both, play through either at random to the end."""
    async with Client(urls[0]) as ca, Client(urls[1]) as cb:
        clients = [await Checked(ca).load(), await Checked(cb).load()]
        t = await clients[0].call(
            "create_table",
            {
                "game": "se-vende",
                "seats": ["agent", "agent", "bot:heuristic"],
                "options": {"require_club_pass": False, "seats_per_agent": 2},
                "seed": 21,
            },
        )
        tid = t["table_id"]
        tokens = [(await c.call("join_table", {"table_id": tid}))["seat_token"] for c in clients]
        acked: dict[int, dict[str, Any]] = {}
        for _ in range(5000):
            c = rng.choice(clients)
            waits = [
                await c.call("wait_for_turn", {"table_id": tid, "seat_token": tok, "timeout_s": 0}) for tok in tokens
            ]
            if waits[0]["status"] == "finished":
                return acked, waits[0]
            ready = [i for i, w in enumerate(waits) if w["ready"]]
            if not ready:
                await clients[0].call("wait_for_turn", {"table_id": tid, "seat_token": tokens[0], "timeout_s": 2})
                continue
            seat = rng.choice(ready)
            pick = rng.choice(waits[seat]["legal_moves"])
            out = await rng.choice(clients).call(
                "play_move",
                {
                    "table_id": tid,
                    "seat_token": tokens[seat],
                    "move": pick["id"],
                    "expected_version": waits[seat]["seat_version"],
                },
            )
            if out["accepted"]:
                acked[out["played_version"]] = pick["move"]
            else:
                assert out["refusal"]["kind"] == "stale_version", out["refusal"]
    raise AssertionError("the game did not end")


@pytest.mark.slow
async def test_two_server_processes_share_tables(db_location: DbLocation) -> None:
    procs = [start_http_server(db_location.location, db_location.env()) for _ in range(2)]
    try:
        acked, end = await play_through([url for _, url in procs], random.Random(5))
        store = db_location.open()
        try:
            stored = {m.version: m.move for m in store.tables.load_moves(end["table_id"])}
        finally:
            store.close()
        assert sorted(stored) == list(range(1, len(stored) + 1)), "a version is missing or doubled"
        assert all(stored[v] == m for v, m in acked.items()) and len(acked) > 20
        assert end["result"]["winners"]
        # A long-poll on one process wakes when the other process applies the move it waits for.
        async with Client(procs[0][1]) as ca, Client(procs[1][1]) as cb:
            a, b = await Checked(ca).load(), await Checked(cb).load()
            t = await a.call(
                "create_table",
                {
                    "game": "market-fortune",
                    "seats": ["agent", "agent"],
                    "options": {"require_club_pass": False, "seats_per_agent": 2},
                },
            )
            toks = [(await a.call("join_table", {"table_id": t["table_id"]}))["seat_token"] for _ in range(2)]
            views = [await b.call("get_view", {"table_id": t["table_id"], "seat_token": tok}) for tok in toks]
            mover = next(i for i, v in enumerate(views) if v["decision"]["yours"])
            idle = 1 - mover
            waiter = asyncio.create_task(
                a.call("wait_for_turn", {"table_id": t["table_id"], "seat_token": toks[idle], "timeout_s": 30})
            )
            for _ in range(40):  # the mover finishes its turn through the other process
                v = await b.call("get_view", {"table_id": t["table_id"], "seat_token": toks[mover]})
                if not v["decision"]["yours"]:
                    break
                await b.call(
                    "play_move",
                    {"table_id": t["table_id"], "seat_token": toks[mover], "move": v["legal_moves"][0]["id"]},
                )
            woke = await asyncio.wait_for(waiter, 40)
            assert woke["ready"] and woke["reason"] == "your_decision" and woke["legal_moves"]
    finally:
        for proc, _ in procs:
            stop(proc)

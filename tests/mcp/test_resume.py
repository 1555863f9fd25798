"""Resume on start: a server killed with SIGKILL during a bots-only game and with an agent's decision clock
running, then restarted, resumes the bots and enforces the clock that ran out while it was down, with no
client call at all (the store is polled directly), on SQLite and on PostgreSQL; and workers starting
together resume once (the claim is taken under the store's lock)."""

from __future__ import annotations

import asyncio
import time

import pytest
from mcp import Client

from tests.conftest import DbLocation
from tests.mcp.helpers import Checked, start_http_server, stop

pytestmark = pytest.mark.anyio

CLOCK_S = 3


def versions(loc: DbLocation, *table_ids: str) -> list[int]:
    store = loc.open()
    try:
        return [store.tables.table_version(t) for t in table_ids]
    finally:
        store.close()


def clock_moves(loc: DbLocation, table_id: str, after: int) -> list[int]:
    """The seats the decision clock played for at ``table_id`` after version ``after``."""
    store = loc.open()
    try:
        return [m.seat for m in store.tables.load_moves(table_id, after=after) if m.actor == "clock"]
    finally:
        store.close()


@pytest.mark.slow
async def test_after_a_sigkill_bots_and_clocks_resume_without_any_client_call(db_location: DbLocation) -> None:
    env = {**db_location.env(), "CLUB_AGENTES_LIMITS": "open_tables=none,tables_per_hour=none"}
    proc, url = start_http_server(db_location.location, env)
    try:
        async with Client(url) as client:
            c = await Checked(client).load()
            bots = await c.call(
                "create_table",
                {"game": "market-fortune", "seats": ["bot:mcts", "bot:mcts"], "options": {"mode": "fortuna"}},
            )
            for _ in range(300):  # the bots-only game is under way
                if versions(db_location, bots["table_id"])[0] > 0:
                    break
                await asyncio.sleep(0.1)
            clocked = await c.call(
                "create_table",
                {
                    "game": "market-fortune",
                    "seats": ["agent", "bot:heuristic"],
                    "options": {"require_club_pass": False, "decision_timeout_s": CLOCK_S, "mode": "fortuna"},
                },
            )
            token = (await c.call("join_table", {"table_id": clocked["table_id"]}))["seat_token"]
            turn = await c.call(
                "wait_for_turn", {"table_id": clocked["table_id"], "seat_token": token, "timeout_s": 30}
            )
            assert turn["ready"] and turn["reason"] == "your_decision"
            ids = (bots["table_id"], clocked["table_id"])
        proc.kill()
        proc.wait(10)
        before = versions(db_location, *ids)
        assert before[0] > 0
        await asyncio.sleep(CLOCK_S + 0.5)  # the agent's clock runs out while no server runs
        assert versions(db_location, *ids) == before
        proc, url = start_http_server(db_location.location, env)
        deadline = time.monotonic() + 10
        resumed, clocked_seats = False, []
        while time.monotonic() < deadline and not (resumed and clocked_seats):
            resumed = versions(db_location, ids[0])[0] > before[0]
            clocked_seats = clock_moves(db_location, ids[1], before[1])
            await asyncio.sleep(0.2)
        if not (resumed and clocked_seats):
            stop(proc)
            log = proc.stderr.read().decode()[-3000:] if proc.stderr else ""
            raise AssertionError(f"within 10 s of the restart: resumed {resumed}, clock {clocked_seats}\n{log}")
        assert clocked_seats[0] == 0
    finally:
        stop(proc)


async def test_workers_starting_together_resume_once(db_location: DbLocation) -> None:
    stores = [db_location.open(), db_location.open()]
    try:
        now = time.time()
        claims = await asyncio.gather(
            *(asyncio.to_thread(s.tables.claim_resume, now, 5.0) for s in stores for _ in range(4))
        )
        assert sorted(claims) == [False] * 7 + [True]
        assert not stores[0].tables.claim_resume(now + 1, 5.0)
        assert stores[1].tables.claim_resume(now + 6, 5.0)  # a later start of the club resumes again
    finally:
        for s in stores:
            s.close()

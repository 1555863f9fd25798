"""Simultaneous sealed choices are never stale against each other across workers: two server processes on
one PostgreSQL schema, both seats of a Se Vende table sending their sealed setup discard at the same moment,
each through its own process (docs/tables.md, per-seat versions)."""

from __future__ import annotations

import asyncio

import pytest
from mcp import Client

from tests.conftest import DbLocation
from tests.mcp.helpers import Checked, start_http_server, stop

pytestmark = pytest.mark.anyio

TABLES = 30


@pytest.mark.slow
async def test_sealed_discards_sent_at_once_through_two_postgresql_workers_are_both_accepted(
    pg_location: DbLocation,
) -> None:
    env = {**pg_location.env(), "CLUB_AGENTES_LIMITS": "open_tables=none,tables_per_hour=none"}
    procs = [start_http_server(pg_location.location, env) for _ in range(2)]
    store = pg_location.open()
    try:
        async with Client(procs[0][1]) as ca, Client(procs[1][1]) as cb:
            a, b = await Checked(ca).load(), await Checked(cb).load()
            refused: list[str] = []
            for seed in range(TABLES):
                t = await a.call(
                    "create_table",
                    {
                        "game": "se-vende",
                        "seats": ["agent", "agent"],
                        "options": {"require_club_pass": False, "seats_per_agent": 2},
                        "seed": seed,
                    },
                )
                tid = t["table_id"]
                tokens = [(await a.call("join_table", {"table_id": tid}))["seat_token"] for _ in range(2)]
                views = [
                    await c.call("get_view", {"table_id": tid, "seat_token": tok})
                    for c, tok in zip((a, b), tokens, strict=True)
                ]
                assert all(v["decision"]["kind"] == "simultaneous" and v["decision"]["yours"] for v in views)
                outs = await asyncio.gather(
                    *(
                        c.call(
                            "play_move",
                            {
                                "table_id": tid,
                                "seat_token": tok,
                                "move": v["legal_moves"][-1]["id"],
                                "expected_version": v["seat_version"],
                            },
                        )
                        for c, tok, v in zip((a, b), tokens, views, strict=True)
                    )
                )
                refused += [o["refusal"]["reason"] for o in outs if not o["accepted"]]
                accepted = sum(1 for o in outs if o["accepted"])
                assert [len(store.tables.load_moves(tid))] == [store.tables.table_version(tid)] == [accepted]
            assert refused == [], f"{len(refused)} of {2 * TABLES} sealed choices refused: {refused[:3]}"
    finally:
        store.close()
        for proc, _ in procs:
            stop(proc)

"""Finding opponents: the pairing plan, two agents seated together, bot fill, timeouts, passes, two server processes."""

from __future__ import annotations

import asyncio
import json
import os
from typing import Any

import pytest
from club_agentes.engine.core import Rng
from club_agentes.mcp_server.app import ClubApp
from club_agentes.mcp_server.clubhouse import Clubhouse
from club_agentes.mcp_server.clubhouse.matchmaking import GAP_BASE, SeekRefused, plan
from club_agentes.mcp_server.store.clubhouse import SeekRow
from mcp import Client

from tests.clubhouse.helpers import start_server
from tests.conftest import DbLocation
from tests.mcp.helpers import add_agent, keyed_client, stop

pytestmark = pytest.mark.anyio

NO_PASS = {"require_club_pass": False}


def seek(
    sid: str, rating: float, created: float, *, wait: float = 30.0, bot_fill: bool = True, seats: int = 2
) -> SeekRow:
    return SeekRow(
        id=sid,
        queue=f"se-vende/{seats}/{{}}",
        agent=f"agent-{sid}",
        game="se-vende",
        seats=seats,
        options={},
        bot_fill=bot_fill,
        rating=rating,
        created_at=created,
        deadline_at=created + wait,
        seen_at=created,
        status="waiting",
    )


def fixed(n: int) -> int:
    return 0


# ---------------------------------------------------------------------------- the plan


def test_pairing_prefers_the_closest_rating_to_the_longest_waiting_agent() -> None:
    rows = [seek("a", 20, 0.0), seek("b", 40, 0.5), seek("c", 23, 1.0)]
    groups, expired = plan(rows, now=1.0, rng=fixed)
    assert expired == [] and len(groups) == 1
    assert {r.id for r, _ in groups[0].members} == {"a", "c"} and groups[0].bots == ()
    assert sorted(seat for _, seat in groups[0].members) == [0, 1]


def test_a_far_rating_waits_until_the_window_has_widened() -> None:
    rows = [seek("a", 10, 0.0), seek("b", 10 + GAP_BASE + 6, 0.0)]
    assert plan(rows, now=1.0, rng=fixed) == ([], [])  # 11 apart, window 6 after 1 s
    groups, _ = plan(rows, now=7.0, rng=fixed)  # window 12 after 7 s
    assert len(groups) == 1 and {r.id for r, _ in groups[0].members} == {"a", "b"}


def test_when_its_wait_is_over_an_agent_gets_bots_or_any_agent_or_expires() -> None:
    lone = [seek("a", 25, 0.0, wait=5)]
    assert plan(lone, now=4.9, rng=fixed) == ([], [])
    groups, _ = plan(lone, now=5.0, rng=fixed)
    assert len(groups) == 1 and groups[0].bots == (0,) and groups[0].spec == ["bot:heuristic", "agent"]
    no_fill = [seek("a", 25, 0.0, wait=5, bot_fill=False)]
    assert plan(no_fill, now=5.0, rng=fixed) == ([], ["a"])
    far = [seek("a", 0, 0.0, wait=1), seek("b", 90, 0.5, bot_fill=False)]
    groups, _ = plan(far, now=1.0, rng=fixed)  # its time is up: any agent beats a bot
    assert len(groups) == 1 and groups[0].bots == ()


def test_bot_fill_takes_only_agents_that_allow_it_and_seats_come_shuffled() -> None:
    rows = [
        seek("a", 25, 0.0, wait=1, seats=4),
        seek("b", 25, 0.2, seats=4),
        seek("c", 25, 0.3, bot_fill=False, seats=4),
    ]
    rng = Rng(3)
    groups, _ = plan(rows, now=2.0, rng=rng.below)
    assert len(groups) == 1
    g = groups[0]
    assert {r.id for r, _ in g.members} == {"a", "b"} and len(g.bots) == 2
    assert sorted([s for _, s in g.members] + list(g.bots)) == [0, 1, 2, 3]
    seat_sets = {tuple(s for _, s in plan(rows, now=2.0, rng=Rng(k).below)[0][0].members) for k in range(20)}
    assert len(seat_sets) > 1  # nobody always sits first


# ---------------------------------------------------------------------------- through the service and the tools


async def test_two_agents_seeking_a_two_seat_table_are_seated_together(club: tuple[ClubApp, Clubhouse]) -> None:
    app, house = club
    mm = house.matchmaker
    alice = mm.request("alice", "se-vende", 2, NO_PASS, 20, False, None)
    bob = mm.request("bob", "se-vende", 2, NO_PASS, 20, False, None)
    a, b = await asyncio.gather(mm.seek(alice), mm.seek(bob))
    assert a.matched and b.matched and a.reason == b.reason == "matched"
    assert a.joined is not None and b.joined is not None
    assert a.joined.table.table_id == b.joined.table.table_id
    assert {a.joined.seat, b.joined.seat} == {0, 1}
    assert a.opponents == {b.joined.seat: "bob"} and b.opponents == {a.joined.seat: "alice"}
    view = await app.tables.view(a.joined.table.table_id, a.joined.token)
    assert view.table.status == "playing" and view.seat == a.joined.seat
    assert {s.agent for s in view.table.seats} == {"alice", "bob"}


async def test_a_lone_agent_with_bot_fill_gets_a_table_after_max_wait_s(club: tuple[ClubApp, Clubhouse]) -> None:
    app, _ = club
    async with Client(app.server) as client:
        result = await client.call_tool(
            "seek_game", {"game": "market-fortune", "max_wait_s": 0.5, "options": {**NO_PASS, "mode": "fortuna"}}
        )
        assert not result.is_error, result.content
        out = result.structured_content
        assert out is not None
        assert out["matched"] and out["reason"] == "bot_fill" and out["waited_s"] >= 0.5
        assert [s["player"] for s in out["seats"] if not s["you"]] == ["bot:heuristic"]
        assert "Seat token (secret, shown once)" in result.content[0].text
        view = await client.call_tool("get_view", {"table_id": out["table_id"], "seat_token": out["seat_token"]})
        assert not view.is_error and view.structured_content["seat"] == out["seat"]  # type: ignore[index]
        unmatched = await client.call_tool(
            "seek_game", {"game": "se-vende", "max_wait_s": 0.3, "bot_fill": False, "options": NO_PASS}
        )
        assert unmatched.structured_content == {
            **unmatched.structured_content,  # type: ignore[dict-item]
            "matched": False,
            "reason": "timeout",
            "table_id": None,
            "seat_token": None,
        }


async def test_seek_game_asks_for_the_club_pass_the_table_will_demand(club: tuple[ClubApp, Clubhouse]) -> None:
    app, _ = club
    async with Client(app.server) as client:
        refused = await client.call_tool("seek_game", {"game": "se-vende", "max_wait_s": 0})
        assert refused.is_error
        text = refused.content[0].text
        assert "pass" in text and "\n" not in text
        for args in (
            {"game": "se-vende", "seats": 9, "options": NO_PASS},
            {"game": "se-vende", "options": {**NO_PASS, "seats_per_agent": 2}},
            {"game": "market-fortune", "options": {**NO_PASS, "mode": "ninguno"}},
            {"game": "se-vende", "options": NO_PASS, "max_wait_s": 999},
        ):
            bad = await client.call_tool("seek_game", args)
            assert bad.is_error and "\n" not in bad.content[0].text and "Traceback" not in bad.content[0].text, args


async def test_an_agent_waits_in_a_queue_once_and_a_cancelled_call_leaves_it(club: tuple[ClubApp, Clubhouse]) -> None:
    _, house = club
    mm = house.matchmaker
    req = mm.request("alice", "se-vende", 3, NO_PASS, 30, False, None)
    task = asyncio.ensure_future(mm.seek(req))
    for _ in range(100):
        if house.store.queue_lengths().get(req.queue) == 1:
            break
        await asyncio.sleep(0.02)
    with pytest.raises(SeekRefused, match="already waiting"):
        await mm.seek(req)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert house.store.queue_lengths().get(req.queue) is None


# ---------------------------------------------------------------------------- two server processes


async def _seek_over_http(url: str, key: str, game: str) -> dict[str, Any]:
    async with keyed_client(url + "/mcp", key) as c:
        return await c.call("seek_game", {"game": game, "seats": 2, "max_wait_s": 30, "options": NO_PASS})


@pytest.mark.slow
async def test_two_server_processes_on_one_postgresql_database_seat_two_agents_together(
    pg_location: DbLocation,
) -> None:
    env = pg_location.env()
    store = pg_location.open()  # migrate once before the servers race to
    store.close()
    keys = {name: add_agent(pg_location.location, name, env) for name in ("alice", "bob")}
    one, url1 = start_server(env, keys=True)
    two, url2 = start_server(env, keys=True)
    try:
        a, b = await asyncio.gather(
            _seek_over_http(url1, keys["alice"], "yo-soy-el-jefe"), _seek_over_http(url2, keys["bob"], "yo-soy-el-jefe")
        )
    finally:
        stop(one)
        stop(two)
    assert a["matched"] and b["matched"] and a["reason"] == b["reason"] == "matched", json.dumps([a, b])[:500]
    assert a["table_id"] == b["table_id"] and {a["seat"], b["seat"]} == {0, 1}
    assert {s["player"] for s in a["seats"]} == {"alice", "bob"}
    assert os.environ.get("CLUB_AGENTES_TEST_PG")

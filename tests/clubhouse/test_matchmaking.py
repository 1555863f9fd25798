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
        if house.store.clubhouse.queue_lengths().get(req.queue) == 1:
            break
        await asyncio.sleep(0.02)
    with pytest.raises(SeekRefused, match="already waiting"):
        await mm.seek(req)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert house.store.clubhouse.queue_lengths().get(req.queue) is None


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


# ---------------------------------------------------------------------------- many seekers at once (issue 23)


def _stuck_tables(loc_store: Any) -> list[tuple[str, str, int]]:
    """Tables left waiting with an agent seated (what a half-committed pairing used to leave)."""
    rows = loc_store.db.all(
        "SELECT t.id, t.status, COUNT(c.seat) FROM game_tables t LEFT JOIN seat_claims c ON c.table_id = t.id"
        " WHERE t.status = 'waiting' GROUP BY t.id, t.status"
    )
    return [(str(r[0]), str(r[1]), int(r[2])) for r in rows if int(r[2]) > 0]


def _check_outcomes(outcomes: list[dict[str, Any]], names: list[str]) -> None:
    """Every seeker was seated (with one other seeker, at a table of two) or told no opponent came in time."""
    by_table: dict[str, list[dict[str, Any]]] = {}
    for name, out in zip(names, outcomes, strict=True):
        assert out["matched"] or out["reason"] == "timeout", (name, out)
        if out["matched"]:
            assert out["reason"] == "matched" and out["table_id"] and out["seat_token"], (name, out)
            by_table.setdefault(out["table_id"], []).append({**out, "name": name})
    for table_id, seated in by_table.items():
        assert len(seated) == 2 and {s["seat"] for s in seated} == {0, 1}, (table_id, seated)
        assert {s["name"] for s in seated} == {p["player"] for p in seated[0]["seats"]}, seated


async def _seek_in_process(house: Clubhouse, agent: str, wait: float) -> dict[str, Any]:
    mm = house.matchmaker
    out = await mm.seek(mm.request(agent, "se-vende", 2, NO_PASS, wait, False, None))
    if not out.matched:
        return {"matched": False, "reason": out.reason}
    assert out.joined is not None
    names = {s.seat: (s.agent or s.kind) for s in out.joined.table.seats}
    return {
        "matched": True,
        "reason": out.reason,
        "table_id": out.joined.table.table_id,
        "seat": out.joined.seat,
        "seat_token": out.joined.token,
        "seats": [{"player": p} for p in names.values()],
    }


async def test_forty_concurrent_seekers_on_two_workers_are_all_seated_or_told_to_wait(db_location: DbLocation) -> None:
    """Two workers (two apps, two connections) on one database, 40 agents seeking at once: no error, no table
    left waiting, each agent seated at a playing table with one other seeker (or told nobody came)."""
    from tests.clubhouse.helpers import clubhouse_app

    stores = [db_location.open(), db_location.open()]
    workers = [clubhouse_app(s) for s in stores]
    for _, house in workers:
        house.matchmaker.poll_s = 0.05
    names = [f"seeker-{i:02d}" for i in range(40)]
    try:
        results = await asyncio.gather(
            *(_seek_in_process(workers[i % 2][1], name, 15) for i, name in enumerate(names)), return_exceptions=True
        )
        errors = [r for r in results if isinstance(r, BaseException)]
        assert errors == [], [f"{type(e).__name__}: {e}" for e in errors][:5]
        outcomes = [r for r in results if isinstance(r, dict)]
        _check_outcomes(outcomes, names)
        assert sum(1 for o in outcomes if o["matched"]) >= 38  # 40 same-rated agents in one queue pair up
        assert _stuck_tables(stores[0]) == []
        for out in outcomes:
            if out["matched"]:
                app = workers[0][0]
                view = await app.tables.view(out["table_id"], out["seat_token"])
                assert view.table.status == "playing" and view.seat == out["seat"]
        queue = next(iter(stores[0].clubhouse.queue_lengths()), None)
        assert queue is None, stores[0].clubhouse.queue_lengths()
    finally:
        for app, house in workers:
            await house.aclose()
            await app.tables.aclose()
        for s in stores:
            s.close()


async def test_a_matched_seek_whose_caller_gave_up_leaves_no_table(club: tuple[ClubApp, Clubhouse]) -> None:
    """The table, its seat claims and the seeks' seats commit together: a match that failed (its caller gave up)
    stores no table at all."""
    app, house = club
    mm = house.matchmaker
    rows = []
    for name in ("alice", "bob"):
        req = mm.request(name, "se-vende", 2, NO_PASS, 20, False, None)
        rows.append(mm._enqueue(req, 25.0, "0" * 64))
    groups, waiting = mm.pass_once(rows[0].queue)
    assert len(groups) == 1 and waiting == 0
    mm._fail(rows[0].queue, groups[0].match_id, "the caller gave up")
    before = app.store.db.one("SELECT COUNT(*) FROM game_tables")
    await mm._make_table(groups[0])
    after = app.store.db.one("SELECT COUNT(*) FROM game_tables")
    assert before == after, "a failed match stores no table"
    assert {r.status for r in mm._members(groups[0].match_id)} == {"failed"}
    assert app.store.db.one("SELECT COUNT(*) FROM seat_claims") == (0,)


async def _seek_http(url: str, key: str) -> dict[str, Any]:
    async with keyed_client(url + "/mcp", key) as c:
        return await c.call(
            "seek_game", {"game": "se-vende", "seats": 2, "max_wait_s": 30, "bot_fill": False, "options": NO_PASS}
        )


@pytest.mark.slow
async def test_forty_concurrent_seekers_over_http_on_two_postgresql_server_processes(pg_location: DbLocation) -> None:
    """Issue 23, point 2: 40 agents seek at once through two server processes on one PostgreSQL database: 0 errors
    (no deadlock), 0 tables left waiting, every agent seated or told to wait."""
    env = pg_location.env()
    store = pg_location.open()  # migrate once before the servers race to
    names = [f"seeker-{i:02d}" for i in range(40)]
    keys = {name: add_agent(pg_location.location, name, env) for name in names}
    one, url1 = start_server(env, keys=True)
    two, url2 = start_server(env, keys=True)
    try:
        results = await asyncio.gather(
            *(_seek_http(url1 if i % 2 else url2, keys[n]) for i, n in enumerate(names)), return_exceptions=True
        )
    finally:
        stop(one)
        stop(two)
    try:
        errors = [r for r in results if isinstance(r, BaseException)]
        assert errors == [], [f"{type(e).__name__}: {str(e)[:300]}" for e in errors][:5]
        outcomes = [r for r in results if isinstance(r, dict)]
        _check_outcomes(outcomes, names)
        assert _stuck_tables(store) == []
        seated = store.db.one("SELECT COUNT(*) FROM seat_claims")
        assert seated == (sum(1 for o in outcomes if o["matched"]),)
    finally:
        store.close()

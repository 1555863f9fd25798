"""Reads never write (issue 13.8), through MCP clients over HTTP at a 3-seat Yo soy el jefe table of two agents:
``get_view``, ``wait_for_turn``, ``game_log`` and ``list_tables`` leave the table's ``version``, every
``seat_version``, the stored row, its events and the listed move ids as they were; two clients on one seat get
the same answer however often either reads; ``since`` returns exactly the events newer than the version it names.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from club_agentes.mcp_server.app import ClubApp

from tests.mcp.edge import keyed_client
from tests.mcp.yo_soy_el_jefe_table import SEATED, boss_seed, keyed_club, seat_everyone

pytestmark = pytest.mark.anyio


@pytest.fixture
def club(tmp_path: Path) -> Iterator[tuple[ClubApp, str, dict[str, str]]]:
    """A club served over HTTP with keys; yields the app, its URL and a key per agent."""
    with keyed_club(tmp_path / "club.sqlite3") as served:
        yield served


async def test_reads_never_write_and_two_clients_on_one_seat_see_the_same(club) -> None:
    app, url, keys = club
    seed, _ = boss_seed()
    async with (
        keyed_client(url, keys["ana"]) as ana,
        keyed_client(url, keys["ana"]) as ana2,
        keyed_client(url, keys["bea"]) as bea,
    ):
        tools = {t.name: t for t in (await ana.client.list_tools()).tools}
        for name in ("get_view", "wait_for_turn", "game_log", "list_tables"):
            assert tools[name].annotations is not None and tools[name].annotations.read_only_hint, name
        clients = {"ana": ana, "bea": bea}
        tid, tokens = await seat_everyone(clients, seed)

        async def play(seat: int, move: str) -> dict[str, Any]:
            args = {"table_id": tid, "seat_token": tokens[seat], "move": move}
            out = await clients[SEATED[seat]].call("play_move", args)
            assert out["accepted"], out["refusal"]
            return out

        first = await play(0, "negotiate")
        bid = next(m["text"] for m in first["legal_moves"] if m["move"]["type"] == "bid")
        await play(0, bid)
        mine = await play(0, "price 2M")
        # The others answer: events seat 0 has not looked at yet.
        await play(1, "pass")
        await play(2, "pass")

        def stored() -> tuple[Any, ...]:
            events = [app.store.tables.count_events(tid, after_version=-1, seat=s) for s in (None, 0, 1, 2)]
            return app.store.tables.load_table(tid), app.store.tables.seat_claims(tid), events

        before = stored()
        seen = await ana.client.call_tool("get_view", {"table_id": tid, "seat_token": tokens[0]})
        base = seen.structured_content
        assert base["since"] == mine["version"]  # by default, since the seat's own last move
        assert sorted({e["version"] for e in base["events"]}) == [mine["version"] + 1, mine["version"] + 2]
        for _ in range(2):  # every read, from either client of the seat, any number of times
            for client in (ana, ana2):
                again = await client.client.call_tool("get_view", {"table_id": tid, "seat_token": tokens[0]})
                assert again.structured_content == base and again.content[0].text == seen.content[0].text
                w = await client.call("wait_for_turn", {"table_id": tid, "seat_token": tokens[0], "timeout_s": 0})
                assert w["ready"] and w["legal_moves"] == base["legal_moves"] and w["events"] == base["events"]
                log = await client.call("game_log", {"table_id": tid, "seat_token": tokens[0]})
                assert log["version"] == base["version"] and log["scope"] == "seat"
                public = await client.call("game_log", {"table_id": tid})
                assert public["version"] == base["version"] and public["scope"] == "public"
                listed = await client.call("list_tables", {"mine": True})
                assert [x["table_id"] for x in listed["tables"]] == [tid]
            for seat in (1, 2):
                v = await clients[SEATED[seat]].call("get_view", {"table_id": tid, "seat_token": tokens[seat]})
                assert v["version"] == base["version"]
        assert stored() == before
        after = await ana2.call("get_view", {"table_id": tid, "seat_token": tokens[0]})
        assert (after["version"], after["seat_version"]) == (base["version"], base["seat_version"])
        # The ids the first client was shown are still good after the second client read the seat.
        out = await ana.call("play_move", {"table_id": tid, "seat_token": tokens[0], "move": "m1"})
        assert out["accepted"] and out["played"] == base["legal_moves"][0]


async def test_since_returns_only_what_is_newer(club) -> None:
    _app, url, keys = club
    seed, _ = boss_seed()
    async with keyed_client(url, keys["ana"]) as ana, keyed_client(url, keys["bea"]) as bea:
        clients = {"ana": ana, "bea": bea}
        tid, tokens = await seat_everyone(clients, seed)

        async def call(seat: int, tool: str, **args: Any) -> dict[str, Any]:
            return await clients[SEATED[seat]].call(tool, {"table_id": tid, "seat_token": tokens[seat], **args})

        async def play(seat: int, move: str) -> dict[str, Any]:
            out = await call(seat, "play_move", move=move)
            assert out["accepted"], out["refusal"]
            return out

        async def events(seat: int, since: int | None) -> list[dict[str, Any]]:
            v = await call(seat, "get_view", **({} if since is None else {"since": since}))
            assert since is None or v["since"] == min(since, v["version"])
            assert v["events_omitted"] == 0
            return v["events"]

        start = await play(0, "negotiate")
        bid = next(m["text"] for m in start["legal_moves"] if m["move"]["type"] == "bid")
        await play(0, bid)
        priced = await play(0, "price 3M")
        marks = [start, priced]
        offer = next(m["text"] for m in (await call(1, "get_view"))["legal_moves"] if m["move"]["type"] == "offer")
        await play(1, offer)
        marks.append(await play(1, "price 1M"))
        marks.append(await play(2, "pass"))
        now = marks[-1]["version"]
        for seat in range(3):
            everything = (await call(seat, "game_log"))["events"]
            assert everything[0]["version"] == 0  # the deal, then every move's events
            private = [e for e in everything if e["private"]]
            assert private and all("you were dealt" in e["text"] for e in private)  # one's own hand only
            assert await events(seat, -1) == everything
            for mark in marks:
                for since in (mark["version"], mark["seat_version"]):
                    got = await events(seat, since)
                    assert got == [e for e in everything if e["version"] > since], (seat, since)
            assert await events(seat, now) == []
        # By default: the events since the seat's own last move.
        assert await events(2, None) == []
        assert sorted({e["version"] for e in await events(0, None)}) == list(range(priced["version"] + 1, now + 1))
        # A version beyond the table's is read as "now": nothing newer.
        assert await events(1, now + 50) == []

"""Issue 13 through an MCP client over HTTP, two agents with their own keys at one 3-seat Yo soy el jefe table:

* moves in plain words (13.2): every legal move's ``says`` names the seats it concerns as ``seat N`` with the
  agent seated there, its ``text`` writes seats as ``seat N`` (the old bare form still parses), and a move that
  is legal but can never help carries a ``note`` saying why, in the data and in the compact text;
* reads never write (13.8): ``get_view``, ``wait_for_turn``, ``game_log`` and ``list_tables`` leave the table's
  ``version``, every ``seat_version``, the stored row, its events and the listed move ids as they were; two
  clients on one seat get the same answer however often either reads; ``since`` returns exactly the events
  newer than the version it names.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from club_agentes.engine.core import get_game
from club_agentes.engine.yo_soy_el_jefe.state import CARDS, COLOURS
from club_agentes.mcp_server.app import ClubApp

from tests.mcp.edge import http_club, keyed_client
from tests.mcp.helpers import Checked

pytestmark = pytest.mark.anyio

GAME = get_game("yo-soy-el-jefe")
AGENTS = ("ana", "bea")
SEATED = ("ana", "bea", "ana")
"""The agent seated at seat 0, 1 and 2 (seat 0 is the first player and the boss)."""
OPTIONS = {"first_player": 0, "marker_start": 13}
"""Space 13 needs every colour, so every investor card takes part in the deal."""
TABLE = {"require_club_pass": False, "decision_timeout_s": None, "seats_per_agent": 2}


def boss_seed() -> tuple[int, str]:
    """Return a seed that deals seat 0 a family card and a travel card it may play on an investor of its own, and
    that colour; these are the legal moves that can never help the boss."""
    config = GAME.make_config(len(SEATED), OPTIONS)
    for seed in range(2_000):
        state = GAME.new_game(config, seed)
        tokens = {f"{CARDS[c].kind}:{CARDS[c].colour}" for c in state.hands[0]}
        for colour in (COLOURS[c] for c in state.investors_of(0)):
            if f"family:{colour}" in tokens and f"travel:{colour}" in tokens:
                return seed, colour
    raise AssertionError("no seed deals seat 0 a family and a travel card of a colour it holds")


@pytest.fixture
def club(tmp_path: Path) -> Iterator[tuple[ClubApp, str, dict[str, str]]]:
    """A club served over HTTP with keys; yields the app, its URL and a key per agent."""
    with http_club(tmp_path / "club.sqlite3") as (app, url):
        yield app, url, {name: app.agents.add(name)[1] for name in AGENTS}


async def seat_everyone(clients: dict[str, Checked], seed: int) -> tuple[str, dict[int, str]]:
    """ana creates the seeded table; each agent takes its seat. Returns the table id and the seat tokens."""
    t = await clients["ana"].call(
        "create_table",
        {"game": GAME.id, "seats": ["agent"] * len(SEATED), "options": {**OPTIONS, **TABLE}, "seed": seed},
    )
    tokens = {}
    for seat, name in enumerate(SEATED):
        j = await clients[name].call("join_table", {"table_id": t["table_id"], "seat": seat})
        assert j["agent"] == name
        tokens[seat] = j["seat_token"]
    return t["table_id"], tokens


def label(seat: int) -> str:
    return f"seat {seat} ({SEATED[seat]})"


def check_words(moves: list[dict[str, Any]], me: int, boss: int) -> None:
    """Every move names the seats it concerns as ``seat N`` in its text, and with the agent's name in ``says``."""
    assert moves
    for m in moves:
        assert m["says"].endswith(".") and m["says"][0].isupper(), m
        target = m["move"].get("seat")
        if target is not None:
            assert f"seat {target}" in m["text"], m
            if target != me or m["move"]["type"] == "travel":
                assert label(target) in m["says"], m
        # No bare seat number: every number in the text is a seat written "seat N", money ("2M") or dividends.
        rest = re.sub(r"\bseat \d\b", "", m["text"])
        assert not re.search(r"\b\d\b(?!M| dividends)", rest), m
        if me != boss and m["move"]["type"] in ("offer", "refuse", "accept"):
            assert label(boss) in m["says"], m


async def test_moves_name_seats_with_their_agents_and_a_pointless_move_says_why(club) -> None:
    _app, url, keys = club
    seed, colour = boss_seed()
    async with keyed_client(url, keys["ana"]) as ana, keyed_client(url, keys["bea"]) as bea:
        clients = {"ana": ana, "bea": bea}
        tid, tokens = await seat_everyone(clients, seed)
        await ana.call("play_move", {"table_id": tid, "seat_token": tokens[0], "move": "negotiate"})
        r = await ana.client.call_tool("get_view", {"table_id": tid, "seat_token": tokens[0]})
        boss = r.structured_content
        check_words(boss["legal_moves"], 0, 0)
        moves = {m["text"]: m for m in boss["legal_moves"]}
        # Legal but never helpful for the boss: its own investor already takes part for free.
        travel = moves[f"travel investor seat 0 {colour}"]
        assert travel["says"].startswith(f"Play a travel card (viaje) {colour} on {label(0)}'s {colour} investor")
        assert travel["note"] and "can only take it away" in travel["note"]
        family = moves[f"family {colour}"]
        assert family["note"] and f"your own {colour} investor already takes part for free" in family["note"]
        helpful = [m for m in boss["legal_moves"] if m["move"]["type"] in ("bid", "pass")]
        assert helpful and all(m["note"] is None for m in helpful)
        # The compact text shows the note beside the move's words.
        text = r.content[0].text
        assert f"{travel['id']} {travel['text']}: " in text and f"[{travel['note']}]" in text
        assert label(1) in text and label(2) in text
        # Each seat's own moves name the boss with the boss's agent.
        for seat in (1, 2):
            v = await clients[SEATED[seat]].call("get_view", {"table_id": tid, "seat_token": tokens[seat]})
            check_words(v["legal_moves"], seat, 0)
            offers = [m for m in v["legal_moves"] if m["move"]["type"] == "offer"]
            assert offers and all(f"to the boss, {label(0)}" in m["says"] for m in offers)
        # The old bare form still parses; the move is played and listed back in the new form.
        bea_colour = next(m["move"]["colour"] for m in boss["legal_moves"] if m["move"].get("seat") == 1)
        out = await ana.call("play_move", {"table_id": tid, "seat_token": tokens[0], "move": f"bid 1 {bea_colour}"})
        assert out["accepted"] and out["played"]["text"] == f"bid seat 1 {bea_colour}"
        assert out["played"]["says"] == f"Propose a price to {label(1)} for its {bea_colour}: you name the amount next."
        out = await ana.call("play_move", {"table_id": tid, "seat_token": tokens[0], "move": "price 2M"})
        assert out["played"]["says"].startswith(f"Propose 2M to {label(1)} for its {bea_colour}, paid from the")
        v = await bea.call("get_view", {"table_id": tid, "seat_token": tokens[1]})
        check_words(v["legal_moves"], 1, 0)
        accept = next(m for m in v["legal_moves"] if m["text"] == f"accept seat 1 {bea_colour}")
        assert accept["says"] == (
            f"Accept the boss's ({label(0)}) offer of 2M for your {bea_colour}: it binds, and is paid if the "
            "deal closes."
        )


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
            events = [app.store.count_events(tid, after_version=-1, seat=s) for s in (None, 0, 1, 2)]
            return app.store.load_table(tid), app.store.seat_claims(tid), events

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

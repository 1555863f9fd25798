"""Moves in plain words through an MCP client over HTTP (issue 13.2), at a 3-seat Yo soy el jefe table of two agents:
every legal move's ``says`` names the seats it concerns as ``seat N`` with the agent seated there, its ``text``
writes seats as ``seat N`` (the old bare form still parses), and a move that is legal but can never help carries
a ``note`` saying why, in the data and in the compact text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from club_agentes.mcp_server.app import ClubApp

from tests.mcp.edge import keyed_client
from tests.mcp.yo_soy_el_jefe_table import SEATED, boss_seed, keyed_club, label, seat_everyone

pytestmark = pytest.mark.anyio


@pytest.fixture
def club(tmp_path: Path) -> Iterator[tuple[ClubApp, str, dict[str, str]]]:
    """A club served over HTTP with keys; yields the app, its URL and a key per agent."""
    with keyed_club(tmp_path / "club.sqlite3") as served:
        yield served


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

"""A 3-seat Yo soy el jefe table served over HTTP to two agents with their own keys (ana holds seats 0 and 2, bea
seat 1), shared by the tests of move words and of reads (``test_move_words.py``, ``test_reads_never_write.py``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from club_agentes.engine.core import get_game
from club_agentes.engine.yo_soy_el_jefe.state import CARDS, COLOURS
from club_agentes.mcp_server.app import ClubApp

from tests.mcp.edge import http_club
from tests.mcp.helpers import Checked

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


@contextmanager
def keyed_club(path: Path) -> Iterator[tuple[ClubApp, str, dict[str, str]]]:
    """A club served over HTTP with keys; yields the app, its URL and a key per agent."""
    with http_club(path) as (app, url):
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

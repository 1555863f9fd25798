"""Every registered game played to the end through the MCP layer (in process), agents and bots
mixed, every response validated against its schema and scanned for hidden card ids."""

from __future__ import annotations

import json
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from club_agentes.engine.core import all_games
from club_agentes.mcp_server.app import ClubApp, build_app
from club_agentes.mcp_server.store import Store
from mcp import Client

from tests.mcp.helpers import Checked

pytestmark = pytest.mark.anyio

CASES = [(g.id, seats, opts) for g in all_games() for seats, opts in g.sample_configs()]


@pytest.fixture
async def app(tmp_path: Path) -> AsyncIterator[tuple[ClubApp, Checked]]:
    a = build_app(Store(tmp_path / "club.sqlite3"))
    async with Client(a.server) as client:
        yield a, await Checked(client).load()
    a.store.close()


def assert_no_leak(app: ClubApp, table_id: str, seat: int, response: dict) -> None:
    live = app.tables._live[table_id]
    hidden = live.game.hidden_ids(live.state, seat)
    text = json.dumps(response, ensure_ascii=False)
    leaked = sorted(h for h in hidden if h in text)
    assert not leaked, f"seat {seat} was shown hidden ids {leaked[:5]}"


async def play_to_end(app: ClubApp, c: Checked, game: str, seats: list[str], options: dict, seed: int) -> dict:
    t = await c.call("create_table", {"game": game, "seats": seats, "options": {**options, "require_club_pass": False}})
    tid = t["table_id"]
    tokens = {}
    for s, spec in enumerate(seats):
        if spec == "agent":
            j = await c.call("join_table", {"table_id": tid, "agent": f"agent-{s}", "seat": s})
            tokens[s] = j["seat_token"]
    rng = random.Random(seed)
    for _ in range(20_000):
        progressed = False
        for seat, tok in tokens.items():
            v = await c.call("get_view", {"table_id": tid, "seat_token": tok})
            assert_no_leak(app, tid, seat, v)
            if v["status"] == "finished":
                return v
            if v["decision"]["yours"]:
                assert v["legal_moves"], "a deciding seat must have a legal move"
                out = await c.call(
                    "play_move",
                    {"table_id": tid, "seat_token": tok, "move": rng.choice(v["legal_moves"])["id"]},
                )
                assert out["accepted"], out["refusal"]
                assert_no_leak(app, tid, seat, out)
                progressed = True
        assert progressed, "no agent could move although the game is not over"
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(("game", "seats", "options"), CASES, ids=lambda x: str(x))
async def test_agents_and_bots_play_to_the_end(app, game: str, seats: int, options: dict) -> None:
    a, c = app
    kinds = ["agent", "agent"] + ["bot:heuristic", "bot:random"] * seats
    v = await play_to_end(a, c, game, kinds[:seats], options, seed=seats)
    assert v["result"]["winners"] and v["decision"]["kind"] == "over"
    log = await c.call("game_log", {"table_id": v["table_id"]})
    assert log["scope"] == "full" and len(log["moves"]) == v["version"]


async def test_illegal_move_is_explained_with_the_rulebook(app) -> None:
    _, c = app
    for game in all_games():
        seats = ["agent"] * game.min_seats
        t = await c.call(
            "create_table", {"game": game.id, "seats": seats, "options": {"require_club_pass": False}, "seed": 3}
        )
        toks = [
            (await c.call("join_table", {"table_id": t["table_id"], "agent": f"x{s}"}))["seat_token"]
            for s in range(len(seats))
        ]
        views = [await c.call("get_view", {"table_id": t["table_id"], "seat_token": tok}) for tok in toks]
        deciding = next(i for i, v in enumerate(views) if v["decision"]["yours"])
        idle = next((i for i, v in enumerate(views) if not v["decision"]["yours"]), None)
        if idle is None:
            continue  # everyone decides at once: there is no out-of-turn move to try
        move = views[deciding]["legal_moves"][0]["move"]
        out = await c.call("play_move", {"table_id": t["table_id"], "seat_token": toks[idle], "move": move})
        assert not out["accepted"] and out["version"] == views[idle]["version"]
        r = out["refusal"]
        assert r["kind"] == "rule" and r["rule_id"] and r["rule_text"] and r["reason"].endswith(".")
        after = await c.call("get_view", {"table_id": t["table_id"], "seat_token": toks[idle]})
        assert after["version"] == views[idle]["version"]


async def test_list_tables_and_wait_for_turn_in_process(app) -> None:
    _, c = app
    t = await c.call(
        "create_table",
        {"game": "se-vende", "seats": ["agent", "agent"], "options": {"require_club_pass": False}, "seed": 9},
    )
    listed = await c.call("list_tables", {"game": "se-vende", "status": "waiting"})
    entry = next(x for x in listed["tables"] if x["table_id"] == t["table_id"])
    assert [s["open"] for s in entry["seats"]] == [True, True]
    toks = [(await c.call("join_table", {"table_id": t["table_id"], "agent": f"w{i}"}))["seat_token"] for i in range(2)]
    assert not (await c.call("list_tables", {"status": "waiting"}))["tables"]
    # Se Vende: both seats choose at once, so both are told to decide.
    for tok in toks:
        w = await c.call("wait_for_turn", {"table_id": t["table_id"], "seat_token": tok, "timeout_s": 1})
        assert w["ready"] and w["reason"] == "your_decision" and w["decision"]["kind"] == "simultaneous"
    assert "status must be" in await c.error("list_tables", {"status": "closed"})
    assert "timeout_s" in await c.error(
        "wait_for_turn", {"table_id": t["table_id"], "seat_token": toks[0], "timeout_s": 99}
    )

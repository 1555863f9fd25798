"""Inputs the tools refuse cleanly: names that fold to a bot's are refused at every registration path, the
integer arguments of the table tools take integers only (never a boolean read as 1), and no error sentence
of any tool echoes more than 200 characters of what the caller sent."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest
from club_agentes.mcp_server.auth import AgentRegistry
from club_agentes.mcp_server.store import Store
from club_agentes.quizzes.harness import InvalidAgent

from tests.mcp.edge import http_club, keyed_client
from tests.mcp.helpers import CLI, Checked

pytestmark = pytest.mark.anyio

BOTLIKE = ["bot-heuristic", "bot:mcts", "Bot_heuristic", "BÓT heuristic", "bot", " BOT.random ", "bot--x"]
FINE = ["botanist", "robot-7", "abbot", "bots"]


def test_names_that_fold_to_a_bots_are_refused_by_the_registry(tmp_path: Path) -> None:
    store = Store(tmp_path / "club.sqlite3")
    try:
        reg = AgentRegistry(store)
        for name in BOTLIKE:
            with pytest.raises(InvalidAgent, match="reads as a bot's name"):
                reg.add(name)
        assert reg.list() == []
        assert [reg.add(n)[0].name for n in FINE] == FINE
    finally:
        store.close()


def test_agents_add_refuses_a_bot_name_with_one_sentence(tmp_path: Path) -> None:
    db = tmp_path / "club.sqlite3"
    done = subprocess.run(
        [str(CLI), "agents", "add", "Bot:Heuristic", "--db", str(db)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2, done
    assert "reads as a bot's name" in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "ca_" not in done.stdout


async def test_register_agent_refuses_a_bot_name(tmp_path: Path) -> None:
    with http_club(tmp_path / "db", open_registration=True) as (app, url):
        async with keyed_client(url, None) as anon:
            error = await anon.error("register_agent", {"name": "bot_heuristic"})
            assert "reads as a bot's name" in error
            assert (await anon.call("register_agent", {"name": "botanist"}))["agent"] == "botanist"
        assert [a.name for a in app.store.agents.list_agents()] == ["botanist"]


async def test_integer_arguments_refuse_booleans_and_strings(app: Any) -> None:
    club_app, club = app
    t = await club.call(
        "create_table",
        {
            "game": "market-fortune",
            "seats": ["agent", "agent"],
            "options": {"require_club_pass": False, "seats_per_agent": 2},
        },
    )
    tid = t["table_id"]
    tokens = [(await club.call("join_table", {"table_id": tid}))["seat_token"] for _ in range(2)]
    views = [await club.call("get_view", {"table_id": tid, "seat_token": tok}) for tok in tokens]
    seat = next(i for i, v in enumerate(views) if v["decision"]["yours"])
    move = {"table_id": tid, "seat_token": tokens[seat], "move": views[seat]["legal_moves"][0]["id"]}
    bad: list[tuple[str, dict[str, Any], str]] = [
        ("play_move", {**move, "expected_version": True}, "expected_version"),
        ("play_move", {**move, "expected_version": "0"}, "expected_version"),
        ("play_move", {**move, "expected_version": 0.0}, "expected_version"),
        ("play_move", {**move, "wait_s": True}, "wait_s"),
        ("get_view", {"table_id": tid, "seat_token": tokens[0], "since": True}, "since"),
        ("get_view", {"table_id": tid, "seat_token": tokens[0], "full": 1}, "full"),
        ("wait_for_turn", {"table_id": tid, "seat_token": tokens[0], "timeout_s": False}, "timeout_s"),
        ("wait_for_turn", {"table_id": tid, "seat_token": tokens[0], "since": False}, "since"),
        ("game_log", {"table_id": tid, "limit": True}, "limit"),
        ("list_tables", {"limit": True}, "limit"),
        ("list_tables", {"mine": 1}, "mine"),
        ("join_table", {"table_id": tid, "seat": True}, "seat"),
        ("create_table", {"game": "se-vende", "seats": ["bot:random"] * 2, "seed": True}, "seed"),
    ]
    for name, args, arg in bad:
        error = await club.error(name, args)
        assert f"'{arg}'" in error, (name, args, error)
    assert club_app.store.tables.load_moves(tid) == [], "a refused call changed the table"
    out = await club.call("play_move", {**move, "expected_version": views[seat]["seat_version"]})
    assert out["accepted"]


def _long_runs(text: str, marker: str) -> bool:
    """Whether ``text`` holds more than 200 consecutive characters of the periodic ``marker``."""
    return marker[:201] in text or marker[1:202] in text


def _filled(schema: dict[str, Any], value: str) -> dict[str, Any]:
    """Arguments for a tool: every string argument the long ``value``, other required ones a plausible value."""
    props = schema.get("properties", {})
    out: dict[str, Any] = {}
    for name, prop in props.items():
        kinds = {prop.get("type")} | {p.get("type") for p in prop.get("anyOf", [])}
        if "string" in kinds:
            out[name] = value
        elif name in schema.get("required", []):
            out[name] = [value] if "array" in kinds else {value[:300]: value} if "object" in kinds else 1
    return out


async def test_no_error_echoes_more_than_200_characters_of_the_input(club: Checked) -> None:
    marker = "q7" * 3000
    tools = (await club.client.list_tools()).tools
    checked = 0
    for tool in tools:
        args = _filled(tool.input_schema, marker)
        if not args:
            continue
        r = await club.client.call_tool(tool.name, args)
        text = " ".join(getattr(c, "text", "") for c in r.content)
        if r.is_error:
            checked += 1
            assert not _long_runs(text, marker), f"{tool.name} echoed more than 200 characters: {text[:400]}"
    assert checked >= 10


def test_clip_echoes_cuts_any_long_copy_of_an_input_wherever_it_starts() -> None:
    import random

    from club_agentes.mcp_server.toolkit import clip_echoes

    rng = random.Random(3)
    sent = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz ") for _ in range(5000))
    for start, length in ((0, 900), (37, 260), (1234, 500), (4000, 201)):
        message = f"the move {sent[start : start + length]!r} names no legal move; send one id."
        clipped = clip_echoes(message, {"move": sent, "n": [1, {"x": sent}]})
        longest = max(k for k in range(0, 202) if any(clipped[i : i + k] in sent for i in range(len(clipped))))
        assert longest <= 200, (start, length, longest)
        assert clipped.startswith("the move '") and clipped.endswith("names no legal move; send one id.")
    short = "unknown table 't-0' ; list_tables shows them"
    assert clip_echoes(short, {"table_id": "t-0"}) == short

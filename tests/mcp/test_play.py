"""Every registered game played to the end through the MCP layer (in process), agents and bots mixed:
every response validated against its schema and scanned for hidden card ids and names, moves in plain
words, compact text, the full log replaying the game exactly, and results explained."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest
from club_agentes.engine.core import all_games, get_game
from club_agentes.mcp_server.app import ClubApp

from tests.mcp.helpers import Checked

pytestmark = pytest.mark.anyio

CASES = [
    pytest.param(g.id, seats, opts, marks=() if i == 0 else pytest.mark.slow, id=f"{g.id}-{seats}-{opts}")
    for g in all_games()
    for i, (seats, opts) in enumerate(g.sample_configs())
]
"""Every sample configuration of every game; the first of each game in the default run, the rest in the slow set."""


def assert_no_leak(app: ClubApp, table_id: str, seat: int, response: dict[str, Any]) -> None:
    """Nothing another seat holds, nor the deck, shows in an answer: by card id or by printed name.

    Events are told to their audience only (each event's stored audience is checked); a public event may
    name a card that was public then and is hidden now (a card taken from a face-up pile), so the scan
    covers everything else: the view, the moves, the decision, the result.
    """
    live = app.tables.live(table_id)
    assert live is not None
    events = response.get("events", [])
    if events:
        stored = {
            e.idx: e for e in app.store.tables.load_events(table_id, everything=True, from_idx=events[0]["index"])
        }
        for e in events:
            audience = stored[e["index"]].audience
            assert audience is None or seat in audience, f"seat {seat} was told another seat's event {e['text']!r}"
    game = live.game
    hidden = game.hidden_ids(_state_at(app, table_id, live, response["version"]), seat)
    # "played" echoes the move this seat itself sent: a card it paid may be hidden by now (the discard
    # pile shuffled into the deck by the same move), and naming it back to the seat tells it nothing new.
    shown = {k: v for k, v in response.items() if k not in ("events", "played")}
    text = json.dumps(shown, ensure_ascii=False)
    leaked = sorted(h for h in hidden if h in text)
    assert not leaked, f"seat {seat} was shown hidden ids {leaked[:5]}: ...{_around(text, leaked[0])}..."
    names = game.card_names()
    if names:
        visible = {names[c] for c in names if c not in hidden}
        secret = {names[h] for h in hidden if h in names} - visible  # a name shared with a visible copy is fine
        shown = sorted(n for n in secret if n in text)
        assert not shown, f"seat {seat} was shown hidden card names {shown[:5]}"


def _state_at(app: ClubApp, table_id: str, live: Any, version: int) -> Any:
    """Return the table's state at ``version``: the live one, or replayed from the store when bots
    playing in the background have moved the live table past the answer being checked."""
    if live.version == version:
        return live.state
    row = app.store.tables.load_table(table_id)
    assert row is not None
    game = live.game
    state, _ = game.start(live.config, row.seed)
    for m in app.store.tables.load_moves(table_id, upto=version):
        game.apply(state, m.seat, game.parse_move(m.move))
    return state


def _around(text: str, needle: str) -> str:
    i = text.index(needle)
    return text[max(0, i - 200) : i + 60]


async def play_to_end(
    app: ClubApp, c: Checked, game: str, seats: list[str], options: dict, seed: int
) -> tuple[dict[str, Any], dict[int, str]]:
    """Play with wait_for_turn -> play_move only (the answers stand alone), checking as we go.

    Returns the last answer (the game over) and the seat tokens.
    """
    t = await c.call(
        "create_table",
        {"game": game, "seats": seats, "options": {**options, "require_club_pass": False, "seats_per_agent": 6}},
    )
    tid = t["table_id"]
    tokens = {}
    for s, spec in enumerate(seats):
        if spec == "agent":
            j = await c.call("join_table", {"table_id": tid, "seat": s})
            tokens[s] = j["seat_token"]
    rng = random.Random(seed)
    checked = 0
    for step in range(20_000):
        progressed = False
        for seat, tok in tokens.items():
            w = await c.call("wait_for_turn", {"table_id": tid, "seat_token": tok, "timeout_s": 0})
            if step % 10 == 0 or w["status"] == "finished":
                assert_no_leak(app, tid, seat, w)
            if w["status"] == "finished":
                return w, tokens
            if not w["ready"]:
                continue
            moves = w["legal_moves"]
            assert moves, "a deciding seat must have a legal move"
            assert all(m["says"] and m["id"] and m["text"] for m in moves)
            pick = rng.choice(moves)
            out = await c.call(
                "play_move",
                {"table_id": tid, "seat_token": tok, "move": pick["id"], "expected_version": w["seat_version"]},
            )
            assert out["accepted"], out["refusal"]
            assert out["played"]["move"] == pick["move"]
            if checked < 3 or step % 10 == 0:
                assert_no_leak(app, tid, seat, out)
                checked += 1
            progressed = True
        if not progressed:  # bots are playing in the background: wait for the next agent decision
            ready = []
            for tok in tokens.values():
                w = await c.call("wait_for_turn", {"table_id": tid, "seat_token": tok, "timeout_s": 2})
                ready.append(w["ready"])
            assert any(ready), "no agent could move although the game is not over"
    raise AssertionError("the game did not end")


async def full_log(c: Checked, table_id: str) -> dict[str, Any]:
    """Read a finished table's whole log, page by page."""
    events, moves, cursor = [], [], None
    while True:
        page = await c.call("game_log", {"table_id": table_id, **({"cursor": cursor} if cursor else {}), "limit": 100})
        events += page["events"]
        moves += page["moves"]
        cursor = page["next_cursor"]
        if cursor is None:
            return {**page, "events": events, "moves": moves}


@pytest.mark.parametrize(("game", "seats", "options"), CASES)
async def test_agents_and_bots_play_to_the_end(app, game: str, seats: int, options: dict) -> None:
    a, c = app
    kinds = ["agent", "agent"] + ["bot:heuristic", "bot:random"] * seats
    if seats == 2:  # one agent against the heuristic bot: a shorter game, every path still taken
        kinds = ["agent", "bot:heuristic"]
    w, _ = await play_to_end(a, c, game, kinds[:seats], options, seed=seats)
    assert w["result"]["winners"] and w["decision"]["kind"] == "over"
    log = await full_log(c, w["table_id"])
    assert log["scope"] == "full" and len(log["moves"]) == w["version"]
    # The full log replays the game exactly: the deal from the seed, then every move.
    g = get_game(game)
    state, setup = g.start(g.make_config(seats, log["options"]), log["seed"])
    assert [e["text"].split("] ", 1)[-1] for e in log["events"][: len(setup)]] == [e.text for e in setup]
    for m in log["moves"]:
        g.apply(state, m["seat"], g.parse_move(m["move"]))
    live = a.tables.live(w["table_id"])
    if live is not None:
        assert json.dumps(g.snapshot(state), sort_keys=True) == json.dumps(g.snapshot(live.state), sort_keys=True)
    assert g.result(state) is not None and list(g.result(state).winners) == w["result"]["winners"]


async def test_a_game_result_is_explained_seat_by_seat_in_data_and_text(app) -> None:
    a, c = app
    w, tokens = await play_to_end(a, c, "se-vende", ["agent", "bot:heuristic"], {}, seed=4)
    result = w["result"]
    assert result["rule_id"] and len(result["breakdown"]) == 2
    for b in result["breakdown"]:
        assert b["lines"] and abs(sum(x["amount"] for x in b["lines"]) - b["total"]) < 1e-6
    r = await c.client.call_tool("get_view", {"table_id": w["table_id"], "seat_token": tokens[0]})
    text = r.content[0].text
    assert "Game over:" in text and result["rule_id"] in text and "seat 1 (bot:heuristic):" in text


async def test_illegal_move_is_explained_with_the_rulebook(app) -> None:
    _, c = app
    for game in all_games():
        seats = ["agent"] * game.min_seats
        t = await c.call(
            "create_table",
            {"game": game.id, "seats": seats, "options": {"require_club_pass": False, "seats_per_agent": 6}, "seed": 3},
        )
        toks = [(await c.call("join_table", {"table_id": t["table_id"]}))["seat_token"] for _ in seats]
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


async def test_free_text_that_names_no_move_gets_the_closest_moves_not_an_error(app) -> None:
    _, c = app
    t = await c.call(
        "create_table",
        {
            "game": "market-fortune",
            "seats": ["agent", "bot:random"],
            "options": {"require_club_pass": False},
            "seed": 8,
        },
    )
    tok = (await c.call("join_table", {"table_id": t["table_id"]}))["seat_token"]
    w = await c.call("wait_for_turn", {"table_id": t["table_id"], "seat_token": tok, "timeout_s": 5})
    assert w["ready"]
    for move in ("I'd like to build from the deck please", {"type": "build", "source": "the moon"}, "construir mazo"):
        r = await c.client.call_tool("play_move", {"table_id": t["table_id"], "seat_token": tok, "move": move})
        assert not r.is_error
        out = r.structured_content
        assert not out["accepted"] and out["refusal"]["kind"] == "unparsed", out
        assert len(out["refusal"]["closest"]) == 3 and out["refusal"]["examples"] and out["legal_moves"]
        assert "Closest legal moves:" in r.content[0].text
    assert "seat token is not valid" in await c.error(
        "play_move", {"table_id": t["table_id"], "seat_token": "nope", "move": "anything"}
    )


async def test_answers_stand_alone_and_are_compact(app) -> None:
    """wait_for_turn and play_move carry the same compact text as get_view: the decision, what changed, the
    moves with their plain words; never the JSON dump of the structured content."""
    _, c = app
    t = await c.call(
        "create_table",
        {
            "game": "yo-soy-el-jefe",
            "seats": ["agent", "bot:heuristic", "bot:random"],
            "options": {"require_club_pass": False},
        },
    )
    tok = (await c.call("join_table", {"table_id": t["table_id"]}))["seat_token"]
    w = await c.client.call_tool("wait_for_turn", {"table_id": t["table_id"], "seat_token": tok, "timeout_s": 10})
    v = await c.client.call_tool("get_view", {"table_id": t["table_id"], "seat_token": tok})
    assert w.content[0].text == v.content[0].text  # the same rendering (same version, same events)
    text = w.content[0].text
    assert not text.lstrip().startswith("{") and f"m1 {w.structured_content['legal_moves'][0]['text']}: " in text
    # The header names the version to send as expected_version (seat_version too when it differs).
    assert text.startswith(f"{t['table_id']} v{w.structured_content['version']} · seat 0 (")
    moves = w.structured_content["legal_moves"]
    assert all(m["says"] for m in moves)
    assert len(text.encode()) < len(json.dumps(w.structured_content).encode())
    p = await c.client.call_tool(
        "play_move",
        {
            "table_id": t["table_id"],
            "seat_token": tok,
            "move": "m1",
            "expected_version": w.structured_content["seat_version"],
        },
    )
    assert p.structured_content["accepted"] and p.content[0].text.startswith(t["table_id"])


async def two_seat_table(c: Checked, game: str, seed: int) -> dict[str, Any]:
    """Create a seeded table of two agent seats that one agent may both take; return create_table's answer."""
    return await c.call(
        "create_table",
        {
            "game": game,
            "seats": ["agent", "agent"],
            "options": {"require_club_pass": False, "seats_per_agent": 2},
            "seed": seed,
        },
    )


async def test_play_move_with_wait_s_brings_the_next_decision_in_one_call(app) -> None:
    _, c = app
    tid = (await two_seat_table(c, "market-fortune", 4))["table_id"]
    toks = [(await c.call("join_table", {"table_id": tid}))["seat_token"] for _ in range(2)]
    assert "wait_s" in await c.error("play_move", {"table_id": tid, "seat_token": toks[0], "move": "m1", "wait_s": 99})
    moves = crossed = 0
    while moves < 12:
        views = [await c.call("get_view", {"table_id": tid, "seat_token": tok}) for tok in toks]
        me = next(i for i, v in enumerate(views) if v["decision"]["yours"])
        other = 1 - me
        mover = asyncio.create_task(
            c.call("play_move", {"table_id": tid, "seat_token": toks[me], "move": "m1", "wait_s": 10})
        )
        out = None
        for _ in range(200):  # the other seat plays until the first seat's decision comes back
            await asyncio.sleep(0.01)
            if mover.done():
                out = mover.result()
                break
            w = await c.call("get_view", {"table_id": tid, "seat_token": toks[other]})
            if w["decision"]["yours"]:
                assert (await c.call("play_move", {"table_id": tid, "seat_token": toks[other], "move": "m1"}))[
                    "accepted"
                ]
                moves += 1
                crossed += 1
        out = out or await asyncio.wait_for(mover, 5)
        moves += 1
        assert out["accepted"] and (out["decision"]["yours"] or out["status"] == "finished")
        assert out["legal_moves"] or out["status"] == "finished"
        # Everything since the move is listed: the other seat's moves too.
        assert out["since"] == out["played_version"] - 1 and len(out["events"]) >= 1
        if out["status"] == "finished":
            break
    assert crossed, "no answer waited for the other seat's move"


async def test_list_tables_and_wait_for_turn_in_process(app) -> None:
    _, c = app
    t = await two_seat_table(c, "se-vende", 9)
    listed = await c.call("list_tables", {"game": "se-vende", "status": "waiting"})
    entry = next(x for x in listed["tables"] if x["table_id"] == t["table_id"])
    assert [s["open"] for s in entry["seats"]] == [True, True] and entry["creator"] == "local"
    assert [x["table_id"] for x in (await c.call("list_tables", {"open_seats": True}))["tables"]] == [t["table_id"]]
    toks = [(await c.call("join_table", {"table_id": t["table_id"]}))["seat_token"] for _ in range(2)]
    assert not (await c.call("list_tables", {"status": "waiting"}))["tables"]
    assert [x["table_id"] for x in (await c.call("list_tables", {"mine": True}))["tables"]] == [t["table_id"]]
    # Se Vende: both seats choose at once, so both are told to decide, with their moves.
    for tok in toks:
        w = await c.call("wait_for_turn", {"table_id": t["table_id"], "seat_token": tok, "timeout_s": 1})
        assert w["ready"] and w["reason"] == "your_decision" and w["decision"]["kind"] == "simultaneous"
        assert w["legal_moves"] and w["decision"]["deadline_at"] and w["decision"]["seconds_left"] > 0
    assert "'status'" in await c.error("list_tables", {"status": "closed"})
    assert "timeout_s" in await c.error(
        "wait_for_turn", {"table_id": t["table_id"], "seat_token": toks[0], "timeout_s": 99}
    )
    assert "expected_version" in await c.error(
        "play_move", {"table_id": t["table_id"], "seat_token": toks[0], "move": "m1", "expected_versoin": 3}
    )
    assert "connected as 'local'" in await c.error("join_table", {"table_id": t["table_id"], "agent": "someone-else"})


async def test_a_seat_that_never_moves_is_played_by_the_clock_and_the_game_ends(app) -> None:
    _, c = app
    t = await c.call(
        "create_table",
        {
            "game": "se-vende",
            "seats": ["agent", "bot:random"],
            "options": {"require_club_pass": False, "decision_timeout_s": 1, "max_timeouts": 1},
            "seed": 2,
        },
    )
    assert t["table_rules"]["decision_timeout_s"] == 1
    tok = (await c.call("join_table", {"table_id": t["table_id"]}))["seat_token"]
    w = await c.call("wait_for_turn", {"table_id": t["table_id"], "seat_token": tok, "timeout_s": 10})
    assert w["decision"]["yours"] and w["decision"]["deadline_at"]
    for _ in range(600):  # the agent never answers: the clock plays for it, then a bot takes its seat
        w = await c.call("wait_for_turn", {"table_id": t["table_id"], "seat_token": tok, "timeout_s": 10})
        if w["status"] == "finished":
            break
        await asyncio.sleep(0.1)  # it is still "our" decision until the clock runs out
    assert w["status"] == "finished" and w["result"]["winners"] is not None
    log = await c.call("game_log", {"table_id": t["table_id"], "limit": 500})
    notices = [e for e in log["events"] if e["data"] and e["data"].get("timeout")]
    assert notices and "ran out of time" in notices[0]["text"]
    assert log["seats"][0]["played_by"] == "bot:heuristic" and log["seats"][0]["agent"] == "local"
    assert any(m["actor"] == "clock" for m in log["moves"])

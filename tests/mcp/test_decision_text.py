"""Every answer that asks a seat to decide carries the seat's state (issue 25, points 1, 3 and 5).

Full games of each game are played through the MCP layer in process, two agent seats (one call per
decision: ``play_move(wait_s)``) and a heuristic bot, and every answer's text is checked:

* the first decision shows the seat's whole hand (read back from the text, compared with the view);
* no event of the seat's own is folded away: every own event the answer covers is in its text, and
  none is left out of the answer (the stored log is the reference);
* every legal move's text form is shown beside its id and parses back to that very move, at 200
  decisions per game;
* the decision clock's time left is shown.

Then the smaller points: refusals of unread and other-step moves list the step's forms, create_table
lists the options, join_table once started carries the decision, agent_profile of an unknown agent.
"""

from __future__ import annotations

import asyncio
import random
import re
from collections import Counter
from typing import Any

import pytest
from club_agentes.engine.core import get_game
from club_agentes.mcp_server.app import ClubApp
from club_agentes.mcp_server.tables.eventfold import is_own

from tests.mcp.helpers import Checked

pytestmark = pytest.mark.anyio

GAMES = ("market-fortune", "se-vende", "yo-soy-el-jefe")
DECISIONS = 200
"""Decisions sampled per game for the form round trip."""
MOVE_LINE = re.compile(r"^(m\d+) (.+?): ", re.M)
CARD_ID = re.compile(r" \([A-Z]{2,4}(?:-[A-Z0-9]+)+\)")


# --------------------------------------------------------------------------- reading the hand back


def _you_line(text: str) -> str:
    line = next((x for x in text.split("\n") if x.startswith("You: ")), None)
    assert line is not None, f"no 'You:' state line in:\n{text}"
    return line


def hand_in_text(game: str, text: str) -> Counter[str]:
    """The hand as the text writes it, read back card by card (a multiset of the view's card keys)."""
    line = _you_line(text)
    out: Counter[str] = Counter()
    if game == "market-fortune":
        part = line.split("hand ($ 3M, +R +3M) ", 1)[1].split("; strategies", 1)[0]
        if part == "empty":
            return out
        for group in part.split("; "):
            industry, values = _industry(group)
            for v in values.split():
                out[f"{'+R' if v.startswith('+') else '$'} {industry} {v.lstrip('+')}"] += 1
    elif game == "se-vende":
        m = re.search(r"hand (\d+) \(cost/VP\): (.*?); tableau", line)
        if m is None:
            assert "hand empty" in line
            return out
        for group in m.group(2).split("; "):
            kind = next(k for k in ("mundos militares (defence/VP) ", "mundos ", "desarrollos ") if group.startswith(k))
            for card in re.findall(r"(.+?) \d+/\d+(?: (?:caída|producción) [^,]+)?(?:, |$)", group[len(kind) :]):
                out[card] += 1
    else:
        part = re.search(r"hand \d+/\d+: (.*)$", line)
        assert part is not None
        if part.group(1) != "no cards":
            for item in part.group(1).split(", "):
                name, _, k = item.partition(" x")
                out[name] += int(k) if k.isdigit() else 1
    return out


def _industry(group: str) -> tuple[str, str]:
    """``Energía 2M +3M`` -> (``Energía``, ``2M +3M``): an industry's name is the words before the values."""
    words = group.split()
    k = next(i for i, w in enumerate(words) if re.fullmatch(r"\+?\d+M", w))
    return " ".join(words[:k]), " ".join(words[k:])


def hand_in_view(game: str, view: dict[str, Any]) -> Counter[str]:
    """The seat's hand from its view, as :func:`hand_in_text` keys it."""
    out: Counter[str] = Counter()
    for c in view["hand"]:
        if game == "market-fortune":
            out[f"{'+R' if c['kind'] == 'rendimiento' else '$'} {c['industry']} {c['value']}M"] += 1
        else:
            out[c["name"]] += 1
    return out


# --------------------------------------------------------------------------- the checks of one answer


def check_own_events(app: ClubApp, table_id: str, seat: int, answer: dict[str, Any], text: str) -> None:
    """Every own event the answer covers is in the structured events and in the text."""
    stored = [
        e
        for e in app.store.tables.load_events(table_id, everything=True)
        if since_of(answer) < e.version <= answer["version"] and (e.audience is None or seat in e.audience)
    ]
    listed = {e["index"] for e in answer["events"]}
    for e in stored:
        if not is_own(e, seat):
            continue
        assert e.idx in listed, f"own event {e.text!r} left out of the answer (since {since_of(answer)})"
        assert CARD_ID.sub("", e.text) in text, f"own event {e.text!r} folded away in:\n{text}"


def since_of(answer: dict[str, Any]) -> int:
    return int(answer["since"])


def check_forms(game: str, answer: dict[str, Any], text: str) -> int:
    """Each legal move's line shows its id and text form, and the form parses back to that move."""
    engine = get_game(game)
    shown = dict(MOVE_LINE.findall(text))
    for m in answer["legal_moves"]:
        assert m["id"] in shown, f"{m['id']} ({m['text']}) is not listed in:\n{text}"
        form = shown[m["id"]]
        assert form == m["text"]
        assert engine.parse_move(form).to_json() == m["move"], f"{form!r} does not parse back to {m['move']}"
    return 1


async def play_seat(
    app: ClubApp, c: Checked, game: str, table_id: str, token: str, seat: int, rng: random.Random, tally: Counter[str]
) -> None:
    """Play one seat to the end, one call per decision, checking every answer."""
    r = await c.client.call_tool("wait_for_turn", {"table_id": table_id, "seat_token": token, "timeout_s": 60})
    answer, text = dict(r.structured_content), r.content[0].text
    first = True
    while answer["status"] == "playing":
        if not (answer["decision"]["yours"] and answer["legal_moves"]):
            r = await c.client.call_tool("wait_for_turn", {"table_id": table_id, "seat_token": token, "timeout_s": 60})
            answer, text = dict(r.structured_content), r.content[0].text
            continue
        check_own_events(app, table_id, seat, answer, text)
        tally["forms"] += check_forms(game, answer, text)
        assert re.search(r"\(\w+(; chosen: seats? [\d, ]+)?; \d+m\d\ds left\)", text), text
        if first:
            view = await c.call("get_view", {"table_id": table_id, "seat_token": token})
            if view["version"] == answer["version"]:
                assert hand_in_text(game, text) == hand_in_view(game, view["view"]), text
                tally["first_hands"] += 1
            first = False
        move = rng.choice(answer["legal_moves"])["id"]
        r = await c.client.call_tool(
            "play_move", {"table_id": table_id, "seat_token": token, "move": move, "wait_s": 30}
        )
        answer, text = dict(r.structured_content), r.content[0].text
    check_own_events(app, table_id, seat, answer, text)


@pytest.mark.parametrize("game", GAMES)
async def test_every_decision_carries_the_state_and_forms_that_parse(app, game: str) -> None:
    a, c = app
    tally: Counter[str] = Counter()
    seed = 0
    while tally["forms"] < DECISIONS:
        seed += 1
        t = await c.call(
            "create_table",
            {
                "game": game,
                "seats": ["agent", "agent", "bot:heuristic"],
                "options": {"require_club_pass": False, "seats_per_agent": 2},
                "seed": seed,
            },
        )
        tid = t["table_id"]
        tokens = [(await c.call("join_table", {"table_id": tid}))["seat_token"] for _ in range(2)]
        await asyncio.gather(
            *(play_seat(a, c, game, tid, tok, i, random.Random(seed * 10 + i), tally) for i, tok in enumerate(tokens))
        )
    assert tally["first_hands"] >= 1


# --------------------------------------------------------------------------- the smaller points


async def _one_agent_table(c: Checked, game: str, seed: int = 3, **options: Any) -> tuple[str, str, dict[str, Any]]:
    t = await c.call(
        "create_table",
        {
            "game": game,
            "seats": ["agent", "bot:heuristic", "bot:heuristic"],
            "options": {"require_club_pass": False, **options},
            "seed": seed,
        },
    )
    r = await c.client.call_tool("join_table", {"table_id": t["table_id"]})
    return t["table_id"], r.structured_content["seat_token"], {"join": r}


@pytest.mark.parametrize("game", GAMES)
async def test_join_once_started_carries_the_state_and_the_decision(app, game: str) -> None:
    _, c = app
    tid, tok, got = await _one_agent_table(c, game)
    joined = got["join"]
    text = joined.content[0].text
    assert "The game has started." in text
    decision = joined.structured_content["decision"]
    assert decision is not None and joined.structured_content["table_id"] == tid and tok
    if joined.structured_content["legal_moves"]:  # the seat's decision (else the bots are still playing)
        assert decision["yours"] and "Your decision (" in text and _you_line(text)
        for m in joined.structured_content["legal_moves"]:
            assert f"{m['id']} {m['text']}: " in text
    else:
        assert "Waiting for " in text


@pytest.mark.parametrize(
    ("game", "wrong"),
    [("se-vende", "pay SV-C001"), ("market-fortune", "reveal"), ("yo-soy-el-jefe", "close")],
)
async def test_refusals_of_unread_or_other_step_moves_list_the_forms_of_the_step(app, game: str, wrong: str) -> None:
    _, c = app
    tid, tok, _ = await _one_agent_table(c, game)
    w = await c.call("wait_for_turn", {"table_id": tid, "seat_token": tok, "timeout_s": 30})
    assert w["decision"]["yours"]
    types: dict[str, str] = {}
    for m in w["legal_moves"]:
        types.setdefault(m["move"]["type"], m["text"])  # the first move of each type is the example
    for sent in ("frobnicate 3", wrong):
        r = await c.client.call_tool("play_move", {"table_id": tid, "seat_token": tok, "move": sent})
        out, text = r.structured_content, r.content[0].text
        assert not out["accepted"], text
        forms = out["refusal"]["forms_now"]
        assert len(forms) == len(types), forms
        line = next(x for x in text.split("\n") if x.startswith("Accepted now"))
        for form, example in zip(forms, types.values(), strict=True):
            assert form in line and form.endswith(example)


async def test_create_table_lists_every_option_with_its_value_and_range(app) -> None:
    _, c = app
    r = await c.client.call_tool(
        "create_table",
        {
            "game": "market-fortune",
            "seats": ["agent", "bot:heuristic"],
            "options": {"mode": "campeonato", "require_club_pass": False, "max_timeouts": 1},
        },
    )
    text = r.content[0].text
    assert "Options {" not in text
    for part in (
        "mode campeonato (familia, fortuna or campeonato)",
        "turn_limit 400 (1 to 1000)",
        "game_limit 20 (1 to 20)",
        "require_club_pass false (true or false)",
        "max_timeouts 1 (1 to 100)",
        "seats_per_agent 1 (1 to 6)",
    ):
        assert part in text, text
    assert "decision_timeout_s 300 (1 to 86400 or null)" in text
    assert "mcts_budget_ms" not in text  # only at a table with a bot:mcts seat


async def test_a_table_without_a_clock_says_so(app) -> None:
    _, c = app
    tid, tok, _ = await _one_agent_table(c, "market-fortune", decision_timeout_s=None)
    r = await c.client.call_tool("wait_for_turn", {"table_id": tid, "seat_token": tok, "timeout_s": 30})
    assert "; no clock)" in r.content[0].text


async def test_agent_profile_of_an_unknown_agent_is_refused_by_name(app) -> None:
    _, c = app
    text = await c.error("agent_profile", {"agent": "nadie-conocido"})
    assert "no agent named 'nadie-conocido' is known here" in text
    me = await c.call("agent_profile", {})
    assert me["agent"]
    assert (await c.call("agent_profile", {"agent": me["agent"]}))["agent"] == me["agent"]


async def test_counts_are_in_the_right_number(app) -> None:
    _, c = app
    text = await c.error("create_table", {"game": "market-fortune", "seats": ["agent"]})
    assert "1 was given" in text

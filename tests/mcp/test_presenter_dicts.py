"""The hot answers' dicts: get_view, play_move and wait_for_turn write their structured content directly as the
JSON their output model would dump, without building the models at run time (issue 26 point 5).

What run-time validation used to guarantee is checked here instead, over many real states: every dict the
presenter writes is its model's own dump (``Model.model_validate(d).model_dump(mode="json", by_alias=True)``,
value for value and type for type: no tuple for a list, no int for a float) and the whole result is
byte-identical (``json.dumps``) to what the model-building code wrote (kept below as the reference). The states
come from seeded games of every game through the MCP client (agents and bots; refusals of every kind, stale
versions and move ids, waits that time out, views since any version, finished tables), from the service-level
scenarios of queued and overtaken moves, and from hand-made edge values (a clock, an aborted table, a result
with whole numbers).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from club_agentes.engine.core import get_game
from club_agentes.mcp_server.eventrow import EventRow
from club_agentes.mcp_server.models_tables import (
    Decision,
    EventInfo,
    LegalMove,
    MoveOutcome,
    Refusal,
    ResultInfo,
    ScoreLineInfo,
    SeatInfo,
    SeatScoreInfo,
    TableRules,
    TableView,
    WaitResult,
)
from club_agentes.mcp_server.tables import TableService, presenter
from club_agentes.mcp_server.tables.facts import (
    DecisionFacts,
    MoveFacts,
    MoveResult,
    RefusalFacts,
    SeatFacts,
    SeatState,
    TableFacts,
    WaitOutcome,
)
from club_agentes.mcp_server.tables.wording import _num, forms_now, iso, refusal_lines, seat_text
from club_agentes.mcp_server.toolkit import ModelResult, compact
from mcp_types import CallToolResult
from pydantic import BaseModel

from tests.mcp import test_negotiation_races, test_queued_acts
from tests.mcp.test_tables_service import QUIET, service

pytestmark = pytest.mark.anyio


# --------------------------------------------------------------------------- the model-building code, as it was


def old_seat_info(s: SeatFacts) -> SeatInfo:
    return SeatInfo(
        seat=s.seat,
        kind=s.kind,
        agent=s.agent,
        open=s.open,
        played_by=f"bot:{s.played_by}" if s.played_by else None,
        timeouts=s.timeouts,
    )


def old_table_rules(t: TableFacts) -> TableRules:
    o = t.table_options
    return TableRules(
        require_club_pass=bool(o.get("require_club_pass", t.require_club_pass)),
        decision_timeout_s=o.get("decision_timeout_s"),
        max_timeouts=int(o.get("max_timeouts", 3)),
        seats_per_agent=int(o.get("seats_per_agent", 1)),
    )


def old_decision(d: DecisionFacts, now: float) -> Decision:
    return Decision(
        kind=d.kind,  # type: ignore[arg-type]
        seats=d.seats,
        done=d.done,
        prompt=d.prompt,
        yours=d.yours,
        deadline_at=iso(d.deadline_at),
        seconds_left=round(max(0.0, d.deadline_at - now), 1) if d.deadline_at is not None else None,
    )


def old_legal_move(m: MoveFacts) -> LegalMove:
    return LegalMove(id=m.id, text=m.text, move=m.move, says=m.says, note=m.note)


def old_event_info(e: EventRow) -> EventInfo:
    return EventInfo(index=e.idx, version=e.version, text=e.text, private=e.audience is not None, data=e.data)


def old_result_info(r: dict[str, Any] | None) -> ResultInfo | None:
    if r is None:
        return None
    return ResultInfo(
        winners=list(r.get("winners", [])),
        scores=[float(x) for x in r.get("scores", [])],
        reason=str(r.get("reason", "")),
        rule_id=r.get("rule_id"),
        breakdown=[
            SeatScoreInfo(
                seat=int(b["seat"]),
                total=float(b["total"]),
                unit=str(b.get("unit", "")),
                lines=[
                    ScoreLineInfo(label=x["label"], amount=float(x["amount"]), rule_id=x.get("rule_id"))
                    for x in b.get("lines", [])
                ],
            )
            for b in r.get("breakdown", [])
        ],
    )


def old_view(s: SeatState) -> CallToolResult:
    t = s.table
    model = TableView(
        table_id=t.table_id,
        game=t.game,
        status=t.status,  # type: ignore[arg-type]
        version=t.version,
        seat_version=s.seat_version,
        seat=s.seat,
        seats=[old_seat_info(x) for x in t.seats],
        decision=old_decision(s.decision, s.now),
        view=s.view,
        since=s.since,
        events=[old_event_info(e) for e in s.events],
        events_omitted=s.events_omitted,
        legal_moves=[old_legal_move(m) for m in s.moves],
        result=old_result_info(t.result),
        table_rules=old_table_rules(t),
        note=t.note,
    )
    return compact(model, seat_text(s))


def old_outcome(r: MoveResult) -> CallToolResult:
    s, t = r.state, r.state.table
    refusal = None
    head: list[str] = []
    if r.refusal is not None:
        f = r.refusal
        forms = forms_now(f, s)
        refusal = Refusal(
            kind=f.kind,  # type: ignore[arg-type]
            reason=f.reason,
            rule_id=f.rule_id,
            rule_title=f.rule_title,
            rule_text=f.rule_text,
            current_version=t.version,
            seat_version=s.seat_version,
            closest=[old_legal_move(m) for m in f.closest],
            examples=f.examples,
            forms_now=forms,
        )
        head = refusal_lines(f, forms)
    elif r.overtaken is not None:
        head = [f"Overtaken: {r.overtaken}"]
    elif r.queued is not None:
        head = [f"Queued: {r.queued}"]
    model = MoveOutcome(
        accepted=r.accepted,
        table_id=t.table_id,
        status=t.status,  # type: ignore[arg-type]
        version=t.version,
        seat_version=s.seat_version,
        played=old_legal_move(r.played) if r.played is not None else None,
        played_version=r.played_version,
        refusal=refusal,
        overtaken=r.overtaken,
        queued=r.queued,
        since=s.since,
        events=[old_event_info(e) for e in s.events],
        events_omitted=s.events_omitted,
        decision=old_decision(s.decision, s.now),
        legal_moves=[old_legal_move(m) for m in s.moves],
        result=old_result_info(t.result),
    )
    return compact(model, seat_text(s, head))


def old_waited(w: WaitOutcome) -> CallToolResult:
    s, t = w.state, w.state.table
    model = WaitResult(
        table_id=t.table_id,
        ready=w.ready,
        reason=w.reason,  # type: ignore[arg-type]
        status=t.status,  # type: ignore[arg-type]
        version=t.version,
        seat_version=s.seat_version,
        decision=old_decision(s.decision, s.now),
        legal_moves=[old_legal_move(m) for m in s.moves],
        since=s.since,
        events=[old_event_info(e) for e in s.events],
        events_omitted=s.events_omitted,
        result=old_result_info(t.result),
        waited_s=w.waited_s,
    )
    head = [] if w.ready else [f"Still waiting after {_num(w.waited_s)} s."]
    return compact(model, seat_text(s, head))


# --------------------------------------------------------------------------- the check


def assert_same(a: Any, b: Any, where: str = "$") -> None:
    """``a`` and ``b`` are equal with the same types all the way down (``1 == 1.0 == True`` does not pass)."""
    assert type(a) is type(b), f"{where}: {type(a).__name__} {a!r} vs {type(b).__name__} {b!r}"
    if isinstance(a, dict):
        assert list(a) == list(b), f"{where}: keys {list(a)} vs {list(b)}"
        for k in a:
            assert_same(a[k], b[k], f"{where}.{k}")
    elif isinstance(a, list):
        assert len(a) == len(b), f"{where}: {len(a)} items vs {len(b)}"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            assert_same(x, y, f"{where}[{i}]")
    else:
        assert a == b, f"{where}: {a!r} vs {b!r}"


def wire(result: CallToolResult) -> str:
    return json.dumps(result.model_dump(mode="json", by_alias=True, exclude_none=True))


ANSWERS: dict[str, tuple[Callable[[Any], CallToolResult], Callable[[Any], CallToolResult], type[BaseModel]]] = {
    "view": (presenter.view, old_view, TableView),
    "outcome": (presenter.outcome, old_outcome, MoveOutcome),
    "waited": (presenter.waited, old_waited, WaitResult),
}


def features(kind: str, facts: Any) -> list[str]:
    """What a checked state shows (to know which paths the replays reached)."""
    s: SeatState = facts if kind == "view" else facts.state
    out = [kind, f"status:{s.table.status}", f"decision:{s.decision.kind}"]
    if s.events:
        out.append("events")
    if any(e.audience is not None for e in s.events):
        out.append("private event")
    if any(e.data for e in s.events):
        out.append("event data")
    if s.events_omitted:
        out.append("events omitted")
    if s.moves:
        out.append("legal moves")
    if any(m.note for m in s.moves):
        out.append("move note")
    if s.decision.deadline_at is not None:
        out.append("clock")
    if s.table.result is not None:
        out.append("result")
    if s.table.note is not None:
        out.append("table note")
    if kind == "outcome":
        r: MoveResult = facts
        out += ["accepted"] if r.accepted else []
        out += [f"refusal:{r.refusal.kind}"] if r.refusal is not None else []
        out += ["closest"] if r.refusal is not None and r.refusal.closest else []
        out += ["queued"] if r.queued is not None else []
        out += ["overtaken"] if r.overtaken is not None else []
    if kind == "waited":
        out.append(f"wait:{facts.reason}")
    return out


class Checker:
    """Checks each answer the presenter writes against its model and the model-building code; counts features."""

    def __init__(self) -> None:
        self.seen: Counter[str] = Counter()

    def check(self, kind: str, facts: Any) -> None:
        new_answer, old_answer, model = ANSWERS[kind]
        new, old = new_answer(facts), old_answer(facts)
        assert isinstance(new, ModelResult) and new.model_class is model
        data = new.structured_content
        assert data is not None
        assert_same(data, model.model_validate(data).model_dump(mode="json", by_alias=True))
        assert json.dumps(data) == json.dumps(old.structured_content)
        assert_same(data, old.structured_content)
        assert wire(new) == wire(old)
        self.seen.update(features(kind, facts))

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """Check every state the service returns from now on (through any caller: MCP tools or tests)."""
        view, play, wait = TableService.view, TableService.play, TableService.wait

        async def checked_view(svc: TableService, *args: Any, **kw: Any) -> SeatState:
            out = await view(svc, *args, **kw)
            self.check("view", out)
            return out

        async def checked_play(svc: TableService, *args: Any, **kw: Any) -> MoveResult:
            out = await play(svc, *args, **kw)
            self.check("outcome", out)
            return out

        async def checked_wait(svc: TableService, *args: Any, **kw: Any) -> WaitOutcome:
            out = await wait(svc, *args, **kw)
            self.check("waited", out)
            return out

        monkeypatch.setattr(TableService, "view", checked_view)
        monkeypatch.setattr(TableService, "play", checked_play)
        monkeypatch.setattr(TableService, "wait", checked_wait)


@pytest.fixture
def checker(monkeypatch: pytest.MonkeyPatch) -> Checker:
    c = Checker()
    c.install(monkeypatch)
    return c


# --------------------------------------------------------------------------- seeded games through the MCP client


GAMES: dict[str, tuple[list[str], dict[str, Any]]] = {
    "market-fortune": (["agent", "agent", "bot:random"], {"turn_limit": 60}),
    "se-vende": (["agent", "agent"], {"turn_limit": 6}),
    "yo-soy-el-jefe": (["agent", "agent", "agent"], {"quick_game": True, "failed_negotiations_limit": 2}),
}
"""Every game, with short options so that a seeded game ends within a few hundred moves; a bot at one table."""

HOLDS = {"yo-soy-el-jefe"}
"""Games whose server holds a move sent while another seat names its price (seconds, for a sequential client):
no move id is played blind there."""


async def replay(c: Any, game: str, seed: int) -> None:
    """Agents (and a bot) play a seeded game to its end, with refusals of every kind along the way."""
    rng = random.Random(seed)
    seats, game_options = GAMES[game]
    agents = seats.count("agent")
    options = {**game_options, "require_club_pass": False, "decision_timeout_s": 3600, "seats_per_agent": agents}
    t = await c.call("create_table", {"game": game, "seats": seats, "options": options, "seed": seed})
    tid = t["table_id"]
    tokens = [(await c.call("join_table", {"table_id": tid}))["seat_token"]]
    # Before the game starts: a waiting table.
    await c.call("get_view", {"table_id": tid, "seat_token": tokens[0]})
    await c.call("wait_for_turn", {"table_id": tid, "seat_token": tokens[0], "timeout_s": 0})
    await c.call("play_move", {"table_id": tid, "seat_token": tokens[0], "move": "m1"})
    tokens += [(await c.call("join_table", {"table_id": tid}))["seat_token"] for _ in range(agents - 1)]
    old_moves: list[dict[str, Any]] = []
    finished = False
    for _ in range(2000):
        progressed = False
        for tok in tokens:
            args = {"table_id": tid, "seat_token": tok}
            if (
                game not in HOLDS and rng.random() < 0.1
            ):  # an id played blind: stale, not this seat's decision, or accepted
                await c.call("play_move", {**args, "move": "m1"})
            w = await c.call("wait_for_turn", {**args, "timeout_s": 0})
            finished = w["status"] == "finished"
            if finished:
                break
            if rng.random() < 0.1:
                since = rng.randint(-1, w["version"])
                await c.call("get_view", {**args, "since": since, "full": rng.random() < 0.5})
            if not w["ready"]:
                continue
            moves = w["legal_moves"]
            listed = {json.dumps(m["move"], sort_keys=True) for m in moves}
            r = rng.random()
            if r < 0.05:
                await c.call("play_move", {**args, "move": "pay everyone a pony"})
            elif r < 0.08:
                await c.call("play_move", {**args, "move": moves[0]["text"][:-1]})
            elif r < 0.12 and w["seat_version"] > 0:
                await c.call("play_move", {**args, "move": "m1", "expected_version": w["seat_version"] - 1})
            elif r < 0.2:
                stale = [m for m in old_moves if json.dumps(m, sort_keys=True) not in listed]
                if stale:
                    await c.call("play_move", {**args, "move": rng.choice(stale)})
            old_moves = (old_moves + [m["move"] for m in moves[:5]])[-200:]
            pick = rng.choice(moves)
            wait_s = 0.01 if rng.random() < 0.2 else 0
            out = await c.call(
                "play_move", {**args, "move": pick["id"], "expected_version": w["seat_version"], "wait_s": wait_s}
            )
            progressed = progressed or out["accepted"]
        if finished:
            break
        if not progressed:  # a bot plays in the background
            await c.call("wait_for_turn", {"table_id": tid, "seat_token": tokens[0], "timeout_s": 0.2})
    assert finished, f"{game} seed {seed} did not end"
    for tok in tokens:  # a finished table
        args = {"table_id": tid, "seat_token": tok}
        await c.call("get_view", {**args, "since": -1})
        await c.call("wait_for_turn", {**args, "timeout_s": 1})
        await c.call("play_move", {**args, "move": "m1"})


@pytest.mark.parametrize("game", list(GAMES))
async def test_every_hot_answer_of_seeded_games_is_its_models_dump_and_the_old_json(
    app: Any, checker: Checker, game: str
) -> None:
    _, c = app
    for seed in (1, 2):
        await replay(c, game, seed)
    seen = checker.seen
    expected = {
        "view",
        "outcome",
        "waited",
        "status:waiting",
        "status:playing",
        "status:finished",
        "events",
        "event data",
        "legal moves",
        "clock",
        "result",
        "accepted",
        "wait:your_decision",
        "wait:game_over",
        "wait:timeout",
        "refusal:unparsed",
        "refusal:not_started",
        "refusal:game_over",
    }
    assert expected <= set(seen), sorted(expected - set(seen))
    assert seen["outcome"] > 50 and seen["waited"] > 100, seen


async def test_the_replays_together_reach_private_events_and_every_refusal_of_a_started_game(
    app: Any, checker: Checker
) -> None:
    _, c = app
    for game in GAMES:
        await replay(c, game, 3)
    seen = set(checker.seen)
    expected = {
        "private event",
        "events omitted",
        "closest",
        "refusal:rule",
        "refusal:stale_version",
        "refusal:stale_move_id",
        "refusal:not_your_decision",
    }
    assert expected <= seen, sorted(expected - seen)


# --------------------------------------------------------------------------- queued and overtaken moves


@pytest.fixture
async def svc(tmp_path: Path) -> AsyncIterator[TableService]:
    async with service(tmp_path / "db", games=get_game, settings=QUIET) as s:
        yield s


async def test_queued_and_overtaken_moves_are_their_models_dump_and_the_old_json(
    svc: TableService, checker: Checker
) -> None:
    await test_queued_acts.test_acts_decided_before_a_hire_set_are_queued_then_played_in_any_order(svc)
    await test_queued_acts.test_a_queued_travel_card_whose_investor_another_card_sent_travelling_is_overtaken(svc)
    await test_negotiation_races.test_a_pass_after_a_change_that_concerns_the_seat_is_overtaken_not_refused(svc)
    await test_negotiation_races.test_an_accept_of_a_price_withdrawn_or_changed_meanwhile_is_refused(svc)
    assert {"queued", "overtaken", "accepted"} <= set(checker.seen), sorted(checker.seen)


# --------------------------------------------------------------------------- edge values by hand


async def test_edge_values_are_their_models_dump_and_the_old_json(svc: TableService, checker: Checker) -> None:
    """Whole numbers where the models have floats (a clock, the seconds waited, a result), an aborted table."""
    created = await svc.create("market-fortune", ["agent", "bot:random"], {"require_club_pass": False}, 5)
    tid = created.table.table_id
    token = (await svc.join(tid, "ana", None, None)).token
    state = await svc.view(tid, token)
    t = state.table
    rules = {**t.table_options, "decision_timeout_s": 30, "max_timeouts": 2, "seats_per_agent": 1}
    result = {
        "winners": [1],
        "scores": [3, 7.5],
        "reason": "seat 1 is richest.",
        "breakdown": [
            {"seat": 0, "total": 3, "lines": [{"label": "cash", "amount": 3}]},
            {"seat": 1, "total": 7.5, "unit": "M", "lines": [{"label": "cash", "amount": 7, "rule_id": "r1"}]},
        ],
    }
    aborted = replace(t, status="aborted", note="The server stopped this table.", result=result, table_options=rules)
    clocked = replace(state.decision, deadline_at=1_900_000_000)
    for table in (t, aborted, replace(t, table_options=rules)):
        for decision in (state.decision, clocked):
            for now in (1_899_999_990, 1_899_999_990.25, 1_900_000_100.0):
                s = replace(state, table=table, decision=decision, now=now)
                checker.check("view", s)
                checker.check("waited", WaitOutcome(False, "timeout", 2, s))
                checker.check("waited", WaitOutcome(True, "your_decision", 0.125, s))
                checker.check("outcome", MoveResult(True, s, played=s.moves[0] if s.moves else None, played_version=3))
                refusal = RefusalFacts("rule", "no.", "r1", "Title", "Text", move_type="pay")
                checker.check("outcome", MoveResult(False, s, refusal=refusal))
    assert checker.seen["table note"] and checker.seen["clock"] and checker.seen["result"]

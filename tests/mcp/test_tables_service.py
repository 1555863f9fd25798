"""Table mechanics with the core's toy games: seats, tokens, move forms, staleness, races,
waiting, logs and replay after a restart. (Real games are played end to end in test_play.py.)"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from club_agentes.engine.core import UnknownGame
from club_agentes.mcp_server.store import Store
from club_agentes.mcp_server.tables import TableError, TableService
from club_agentes.rules_corpus import load_corpus

from tests.engine.toys import ReactionToy, SealedToy

pytestmark = pytest.mark.anyio

TOYS = {"toy-sealed": SealedToy(), "toy-reaction": ReactionToy()}


def toy(game_id: str):
    if game_id not in TOYS:
        raise UnknownGame(f"unknown game {game_id!r}; valid game ids are: {', '.join(TOYS)}")
    return TOYS[game_id]


class Passes:
    def admit(self, club_pass: str | None, agent: str, game: str) -> str | None:
        return None if club_pass == f"pass-for-{agent}" else "the club pass is missing or not valid for this agent"


def service(path: Path) -> TableService:
    return TableService(Store(path), load_corpus(), Passes(), games=toy)


async def seated(svc: TableService, game: str, seats: list[str], **opts):
    t = await svc.create(game, seats, {"require_club_pass": False, **opts}, 7)
    tokens = []
    for i, spec in enumerate(seats):
        if spec == "agent":
            tokens.append((await svc.join(t.table_id, f"agent{i}", None, None)).seat_token)
    return t.table_id, tokens


async def test_create_validates_input(tmp_path: Path) -> None:
    svc = service(tmp_path / "db")
    for args, words in [
        (("chess", ["agent", "agent"]), "valid game ids"),
        (("toy-reaction", []), "seats is empty"),
        (("toy-reaction", ["agent", "robot"]), "'agent' or one of"),
        (("toy-reaction", ["agent"]), "2 to 5 seats"),
    ]:
        with pytest.raises(TableError, match=words):
            await svc.create(*args, None, None)
    with pytest.raises(TableError, match="no options"):
        await svc.create("toy-reaction", ["agent", "agent"], {"speed": 3}, None)
    with pytest.raises(TableError, match="seed must be"):
        await svc.create("toy-reaction", ["agent", "agent"], None, -1)


async def test_join_needs_a_pass_and_tokens_are_per_seat(tmp_path: Path) -> None:
    svc = service(tmp_path / "db")
    t = await svc.create("toy-reaction", ["agent", "agent"], None, None)
    assert t.require_club_pass and t.status == "waiting" and not t.seeded
    with pytest.raises(TableError, match="club pass"):
        await svc.join(t.table_id, "ana", None, None)
    a = await svc.join(t.table_id, "ana", "pass-for-ana", None)
    with pytest.raises(TableError, match="not open"):
        await svc.join(t.table_id, "bob", "pass-for-bob", 0)
    b = await svc.join(t.table_id, "bob", "pass-for-bob", None)
    assert (a.seat, b.seat, b.status) == (0, 1, "playing") and a.seat_token != b.seat_token
    with pytest.raises(TableError, match="no open agent seat"):
        await svc.join(t.table_id, "cy", "pass-for-cy", None)
    assert (await svc.view(t.table_id, b.seat_token)).seat == 1
    with pytest.raises(TableError, match="seat token is not valid"):
        await svc.view(t.table_id, a.seat_token + "x")
    other = await svc.create("toy-reaction", ["agent", "agent"], {"require_club_pass": False}, None)
    with pytest.raises(TableError, match="seat token is not valid"):
        await svc.view(other.table_id, a.seat_token)
    with pytest.raises(TableError, match="unknown table"):
        await svc.view("t-000000000000", a.seat_token)


async def test_moves_by_id_text_and_json(tmp_path: Path) -> None:
    svc = service(tmp_path / "db")
    tid, (t0, t1, t2) = await seated(svc, "toy-reaction", ["agent", "agent", "agent"])
    v = await svc.view(tid, t0)
    assert v.decision.yours and [m.text for m in v.legal_moves] == ["attack 1", "attack 2"]
    out = await svc.play(tid, t0, "m2", None)
    assert out.accepted and out.version == 1 and out.events[0].text == "seat 0 attacks seat 2"
    out = await svc.play(tid, t1, "pass", None)  # text form
    assert out.accepted
    out = await svc.play(tid, t2, {"type": "pass"}, None)  # JSON form
    assert out.accepted and out.version == 3
    await svc.play(tid, t0, "attack 1", None)
    await svc.view(tid, t1)  # lists block and pass as m1, m2
    with pytest.raises(TableError, match="m1 to m2"):
        await svc.play(tid, t1, "m9", None)


async def test_rule_breaking_move_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    svc = service(tmp_path / "db")
    tid, (t0, t1) = await seated(svc, "toy-reaction", ["agent", "agent"])
    out = await svc.play(tid, t1, {"type": "attack", "target": 0}, None)
    assert not out.accepted and out.refusal is not None
    assert out.refusal.kind == "rule" and out.refusal.rule_id == "toy/not-your-decision"
    assert out.version == 0 and out.legal_moves == []
    assert (await svc.view(tid, t0)).version == 0


async def test_stale_move_ids_and_versions_are_refused(tmp_path: Path) -> None:
    svc = service(tmp_path / "db")
    tid, (t0, t1) = await seated(svc, "toy-reaction", ["agent", "agent"])
    await svc.view(tid, t0)
    await svc.view(tid, t1)
    assert (await svc.play(tid, t0, "m1", 0)).accepted
    # t1 was listed nothing at version 0; it is polled now, but an old id must not be reused blindly.
    out = await svc.play(tid, t1, "m1", None)
    assert not out.accepted and out.refusal.kind == "stale_move_id"
    assert [m.text for m in out.legal_moves] == ["block", "pass"]
    out = await svc.play(tid, t1, "m2", 0)
    assert not out.accepted and out.refusal.kind == "stale_version" and out.refusal.current_version == 1
    assert (await svc.play(tid, t1, "m2", 1)).accepted


async def test_racing_submissions_never_both_apply(tmp_path: Path) -> None:
    svc = service(tmp_path / "db")
    tid, (t0, _t1) = await seated(svc, "toy-reaction", ["agent", "agent"])
    results = await asyncio.gather(
        svc.play(tid, t0, {"type": "attack", "target": 1}, 0),
        svc.play(tid, t0, {"type": "attack", "target": 1}, 0),
    )
    assert sorted(r.accepted for r in results) == [False, True]
    loser = next(r for r in results if not r.accepted)
    assert loser.refusal.kind == "stale_version" and loser.refusal.current_version == 1
    assert svc.store.table_version(tid) == 1


async def test_two_processes_sharing_a_store_cannot_both_append(tmp_path: Path) -> None:
    a, b = service(tmp_path / "db"), service(tmp_path / "db")
    tid, (t0, _t1) = await seated(a, "toy-reaction", ["agent", "agent"])
    await b.view(tid, t0)  # b has the table live at version 0
    assert (await a.play(tid, t0, {"type": "attack", "target": 1}, None)).accepted
    # b notices the store moved on, replays, and refuses the stale expectation.
    out = await b.play(tid, t0, {"type": "attack", "target": 1}, 0)
    assert not out.accepted and out.refusal.kind == "stale_version"


async def test_sealed_choices_stay_sealed_at_the_table(tmp_path: Path) -> None:
    svc = service(tmp_path / "db")
    tid, (t0, t1, t2) = await seated(svc, "toy-sealed", ["agent", "agent", "agent"])
    for tok in (t0, t1, t2):
        d = (await svc.view(tid, tok)).decision
        assert d.kind == "simultaneous" and d.yours
    assert (await svc.play(tid, t1, {"type": "pick", "value": 2}, None)).accepted
    v0 = await svc.view(tid, t0)
    assert v0.decision.done == [1] and v0.view["my_choice"] is None
    assert (await svc.view(tid, t1)).decision.yours is False


async def test_move_ids_survive_other_seats_sealed_choices(tmp_path: Path) -> None:
    """Another seat's sealed choice moves the version but not my options: my listed ids still hold."""
    svc = service(tmp_path / "db")
    tid, (t0, t1, _t2) = await seated(svc, "toy-sealed", ["agent", "agent", "agent"])
    await svc.view(tid, t0)  # lists m1..m3 at version 0
    assert (await svc.play(tid, t1, {"type": "pick", "value": 1}, None)).accepted
    out = await svc.play(tid, t0, "m3", None)
    assert out.accepted and out.version == 2


async def test_wait_for_turn_wakes_on_the_other_seats_move(tmp_path: Path) -> None:
    svc = service(tmp_path / "db")
    tid, (t0, t1) = await seated(svc, "toy-reaction", ["agent", "agent"])
    quick = await svc.wait(tid, t1, 0)
    assert not quick.ready and quick.reason == "timeout"
    waiter = asyncio.create_task(svc.wait(tid, t1, 10))
    await asyncio.sleep(0.05)
    assert not waiter.done()
    await svc.play(tid, t0, {"type": "attack", "target": 1}, None)
    res = await asyncio.wait_for(waiter, 5)
    assert res.ready and res.reason == "your_decision" and res.waited_s < 5
    with pytest.raises(TableError, match="timeout_s"):
        await svc.wait(tid, t1, 61)


async def test_bots_fill_seats_and_game_ends_with_full_log(tmp_path: Path) -> None:
    svc = service(tmp_path / "db")
    tid, (t0,) = await seated(svc, "toy-reaction", ["agent", "bot:random", "bot:random"])
    for _ in range(200):
        v = await svc.view(tid, t0)
        if v.status == "finished":
            break
        if v.decision.yours:
            await svc.play(tid, t0, "m1", None)
        else:
            raise AssertionError("bots should have played until the agent must decide")
    assert v.status == "finished" and v.result is not None
    log = await svc.log(tid, None)
    assert log.scope == "full" and log.seed == 7 and log.moves and len(log.moves) == v.version


async def test_public_log_hides_private_events(tmp_path: Path) -> None:
    svc = service(tmp_path / "db")
    tid, (t0, _t1) = await seated(svc, "toy-reaction", ["agent", "agent"])
    await svc.play(tid, t0, "attack 1", None)
    public = await svc.log(tid, None)
    assert public.scope == "public" and public.moves is None and public.seed is None
    mine = await svc.log(tid, t0)
    assert mine.scope == "seat" and mine.seat == 0


async def test_restart_rebuilds_tables_by_replay(tmp_path: Path) -> None:
    svc = service(tmp_path / "db")
    tid, (t0, t1) = await seated(svc, "toy-reaction", ["agent", "agent"])
    await svc.play(tid, t0, "attack 1", None)
    await svc.play(tid, t1, "block", None)
    before = json.dumps(TOYS["toy-reaction"].snapshot(svc._live[tid].state), sort_keys=True)
    again = service(tmp_path / "db")
    v = await again.view(tid, t1)
    assert v.version == 2 and v.events == []  # events already seen stay seen
    after = json.dumps(TOYS["toy-reaction"].snapshot(again._live[tid].state), sort_keys=True)
    assert before == after
    assert (await again.play(tid, t1, "attack 0", None)).accepted

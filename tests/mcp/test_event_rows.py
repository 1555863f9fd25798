"""One event type in the table service (issue 26): ``EventRow`` from the turn to the store, the live tail and the
bot lanes, each row at its place in the table's log, the same place in memory as in the store."""

from __future__ import annotations

import asyncio
import pickle
from pathlib import Path

import pytest
from club_agentes.engine.core import Event, get_game
from club_agentes.mcp_server.eventrow import EventRow, event_rows
from club_agentes.mcp_server.store.tables import Append, MisplacedEvent, StaleVersion, TableRow
from club_agentes.mcp_server.tables.lanes import LaneTask, LaneWorker, Sync

from tests.conftest import DbLocation
from tests.mcp.test_tables_service import Clock, seated, service


def test_event_rows_number_the_engine_events_and_own_their_data() -> None:
    shared = {"roll": 3}  # the engine words many events once and shares them
    rows = event_rows([Event("a", None, shared), Event("b", (1,))], 4, 10)
    assert rows == [EventRow(10, 4, None, "a", {"roll": 3}), EventRow(11, 4, (1,), "b", None)]
    assert rows[0].data is not shared
    assert event_rows([], 4, 10) == []


def test_lane_results_carry_rows_that_pickle_numbered_on_from_the_task() -> None:
    game = get_game("se-vende")
    config = game.make_config(3, {})
    _state, setup = game.start(config, 11)
    task = LaneTask(
        table_id="t-00000000000a",
        game_id="se-vende",
        options={},
        seats=3,
        seed=11,
        base_version=0,
        bots={0: "random", 1: "random", 2: "random"},
        sync=Sync(-1, full=True),
        max_moves=12,
        max_cpu_s=30.0,
        first_event=len(setup),
    )
    res = pickle.loads(pickle.dumps(LaneWorker().run(task)))  # as a lane process sends it back
    assert res.error is None and len(res.moves) == 12
    state, _ = game.start(config, 11)
    expected = event_rows(setup, 0, 0)
    for version, lm in enumerate(res.moves, 1):
        assert all(type(e) is EventRow for e in lm.events)
        expected += event_rows(game.apply(state, lm.seat, game.parse_move(lm.move)), version, len(expected))
    assert [e for lm in res.moves for e in lm.events] == expected[len(setup) :]


def _table(table_id: str) -> TableRow:
    return TableRow(table_id, "se-vende", {}, 5, True, ["agent", "agent"], False, 1.0, "playing")


def test_the_store_takes_rows_at_their_places_and_refuses_rows_built_on_an_older_log(db_location: DbLocation) -> None:
    s = db_location.open()
    tid = "t-000000000040"
    deal = [EventRow(0, 0, None, "deal", None), EventRow(1, 0, (1,), "hand", {"cards": [1, 2]})]
    s.tables.create_table(_table(tid), deal)
    moved = [EventRow(2, 1, None, "seat 0 did x", {}), EventRow(3, 1, (0,), "only seat 0 sees", {"k": 1})]
    a = Append(tid, 0, [(0, {"type": "x"}, "agent", 2.0)], moved, "playing", now=2.0)
    revision = s.tables.append(a)
    assert a.events is moved  # the service's rows are written as they are
    # A write with no move adds an event at version 1 (an act queued behind an interruption dropped, say) ...
    note = EventRow(4, 1, (1,), "your queued act was dropped", None)
    s.tables.append(Append(tid, 1, [], [note], "playing", now=3.0, revision=revision))
    # ... so a move another worker numbered on the count before that note is stale: nothing of it is written.
    late = Append(tid, 1, [(1, {"type": "y"}, "agent", 4.0)], [EventRow(4, 2, None, "seat 1 did y", None)], "playing")
    with pytest.raises(StaleVersion) as err:
        s.tables.append(late)
    assert err.value.current == 1
    row = s.tables.load_table(tid)
    assert row is not None and (row.version, row.event_count) == (1, 5)
    assert s.tables.load_events(tid, everything=True) == [*deal, *moved, note]
    s.tables.append(Append(tid, 1, [(1, {"type": "y"}, "agent", 4.0)], [EventRow(5, 2, None, "y", None)], "playing"))
    assert [e.idx for e in s.tables.load_events(tid, everything=True)] == list(range(6))
    with pytest.raises(MisplacedEvent):  # a deal's rows start the log
        s.tables.create_table(_table("t-000000000041"), [EventRow(1, 0, None, "deal", None)])
    assert s.tables.load_table("t-000000000041") is None
    s.close()


def test_plain_tuples_become_rows_once_and_the_store_places_them(db_location: DbLocation) -> None:
    s = db_location.open()
    tid = "t-000000000042"
    s.tables.create_table(_table(tid), [(0, None, "deal", None)])
    a = Append(tid, 0, [(0, {"type": "x"}, "agent", 2.0)], [(1, [0], "x", {"k": 1}), (1, None, "y", {})], "playing")
    assert all(type(e) is EventRow for e in a.events)
    s.tables.append(a)
    assert a.events == [EventRow(1, 1, (0,), "x", {"k": 1}), EventRow(2, 1, None, "y", {})]
    assert s.tables.load_events(tid, everything=True)[1:] == a.events
    s.close()


@pytest.mark.anyio
async def test_the_live_tail_holds_the_rows_the_store_holds(tmp_path: Path) -> None:
    clock = Clock()
    path = tmp_path / "db"
    async with service(path, clock=clock) as svc:
        tid, (_t0, t1) = await seated(
            svc, "toy-race", ["agent", "agent", "bot:random"], goal=25, decision_timeout_s=30, max_timeouts=2
        )
        for turn in range(60):
            v = await svc.view(tid, t1)
            if v.table.status == "finished":
                break
            if v.decision.yours:
                await svc.play(tid, t1, "add 1" if turn % 2 else "add 2", None)
            else:  # seat 0 is silent: the clock plays for it, then hands it to a bot
                clock.now += 31
                await svc.tick()
        live = svc.live(tid)
        assert live is not None and live.status == "finished"
        stored = svc.store.tables.load_events(tid, everything=True)
        assert any(e.data and e.data.get("handed_to") for e in stored)  # the clock's notices are rows too
        assert [e.idx for e in stored] == list(range(len(stored))) and live.event_count == len(stored)
        assert live.tail == stored[-len(live.tail) :]
    async with service(path) as again:
        await again.view(tid, t1)
        reloaded = again.live(tid)
        assert reloaded is not None and reloaded.tail == live.tail


@pytest.mark.anyio
async def test_a_bots_only_table_numbers_its_rows_on_from_the_deal(tmp_path: Path) -> None:
    async with service(tmp_path / "db") as svc:
        t = await svc.create("toy-race", ["bot:random", "bot:random"], {"goal": 60}, 5)
        for _ in range(300):
            row = svc.store.tables.load_table(t.table.table_id)
            assert row is not None
            if row.status == "finished":
                break
            await asyncio.sleep(0.02)
        assert row.status == "finished"
        stored = svc.store.tables.load_events(t.table.table_id, everything=True)
        assert [e.idx for e in stored] == list(range(row.event_count)) and stored[-1].version == row.version

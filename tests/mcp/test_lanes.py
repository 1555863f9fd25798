"""Bot lanes: a lane process plays what the same worker plays in this process, a lane whose process died is started
again (the table then comes back whole), any event loop may use the lanes, closing cancels queued work and ends the
processes, a process that cannot start leaves the bots to a thread of this process, and a lane gets an agent's
moves from the table in memory, as it would from the store."""

from __future__ import annotations

import asyncio
import os
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from club_agentes.engine.core import get_game
from club_agentes.mcp_server.tables import lanes as lanes_module
from club_agentes.mcp_server.tables import live as live_module
from club_agentes.mcp_server.tables.lanes import Lanes, LaneTask, LaneWorker, Sync

from tests.mcp.helpers import CallCount
from tests.mcp.test_tables_service import seated, service


def _task(table_id: str = "t-0000000000a1", max_moves: int = 30) -> LaneTask:
    return LaneTask(
        table_id=table_id,
        game_id="market-fortune",
        options={},
        seats=2,
        seed=4,
        base_version=0,
        bots={0: "random", 1: "heuristic"},
        sync=Sync(-1, full=True),
        max_moves=max_moves,
        max_cpu_s=30.0,
    )


def _moves(res: object) -> list[tuple[int, dict[str, object]]]:
    return [(m.seat, m.move) for m in res.moves]  # type: ignore[attr-defined]


def _process_ids(lanes: Lanes) -> list[int]:
    return [lane._process.pid for lane in lanes._lanes if lane is not None and lane._process is not None]


def test_a_lane_process_plays_what_the_worker_plays_here_and_keeps_the_table_between_tasks() -> None:
    here = LaneWorker()
    first = here.run(_task())
    more = here.run(replace(_task(), base_version=30, sync=Sync(30)))
    lanes = Lanes(1)
    try:
        assert lanes.processes

        async def both() -> tuple[object, object]:
            a = await lanes.run(_task())
            b = await lanes.run(replace(_task(), base_version=30, sync=Sync(30)))  # no moves sent: the lane has it
            return a, b

        got_first, got_more = asyncio.run(both())
        assert _process_ids(lanes) and all(pid != os.getpid() for pid in _process_ids(lanes))
    finally:
        lanes.close()
    assert first.error is None and len(first.moves) == 30
    assert _moves(got_first) == _moves(first)
    assert not got_more.need_sync and _moves(got_more) == _moves(more)  # type: ignore[attr-defined]


def test_a_lane_whose_process_died_asks_for_the_whole_table_and_runs_again() -> None:
    lanes = Lanes(1)
    try:

        async def play() -> tuple[object, object, object]:
            await lanes.run(_task())
            (pid,) = _process_ids(lanes)
            os.kill(pid, 9)
            died = await lanes.run(replace(_task(), base_version=30, sync=Sync(30)))
            again = await lanes.run(replace(_task(), base_version=30, sync=Sync(30)))  # a new process: not held
            whole = await lanes.run(replace(_task(), base_version=0, sync=Sync(-1, full=True)))
            return died, again, whole

        died, again, whole = asyncio.run(play())
        assert died.need_sync and not died.moves  # type: ignore[attr-defined]
        assert again.need_sync  # type: ignore[attr-defined]
        assert _moves(whole) == _moves(LaneWorker().run(_task()))
    finally:
        lanes.close()


def test_lanes_serve_one_event_loop_after_another_and_several_tasks_at_once() -> None:
    lanes = Lanes(2)
    try:
        ids = [f"t-00000000{k:04x}" for k in range(6)]

        async def many() -> list[object]:
            return await asyncio.gather(*(lanes.run(_task(t, 10)) for t in ids))

        for _ in range(2):  # a second loop: the lanes answer it as they answered the first
            got = asyncio.run(many())
            assert [len(r.moves) for r in got] == [10] * 6  # type: ignore[attr-defined]
            ids = [f"t-00000001{k:04x}" for k in range(6)]
    finally:
        lanes.close()


def test_closing_the_lanes_cancels_queued_work_and_refuses_more() -> None:
    lanes = Lanes(1)

    async def queue_then_close() -> list[object]:
        await lanes.run(_task("t-0000000000b0", 1))  # the process is up
        runs = [asyncio.ensure_future(lanes.run(_task(f"t-0000000000b{k}", 400))) for k in range(1, 6)]
        await asyncio.sleep(0)
        lanes.close()
        return await asyncio.gather(*runs, return_exceptions=True)

    outcomes = asyncio.run(queue_then_close())
    assert any(isinstance(o, asyncio.CancelledError) for o in outcomes), outcomes
    assert not any(isinstance(o, Exception) for o in outcomes), outcomes
    with pytest.raises(RuntimeError, match="closed"):
        asyncio.run(lanes.run(_task()))


def test_lane_processes_end_when_the_lanes_close() -> None:
    lanes = Lanes(1)
    asyncio.run(lanes.run(_task("t-0000000000c0", 1)))
    (lane,) = [lane for lane in lanes._lanes if lane is not None]
    lanes.close()
    deadline = time.monotonic() + 20
    while lane._process.is_alive() and time.monotonic() < deadline:  # type: ignore[union-attr]
        time.sleep(0.05)
    assert not lane._process.is_alive()  # type: ignore[union-attr]


def test_processes_that_cannot_start_leave_the_bots_to_a_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lanes_module, "_process_main", os._exit)  # the child fails at once (os._exit takes one int)
    lanes = Lanes(1)
    try:
        got = asyncio.run(lanes.run(_task()))
        assert not lanes.processes
        assert _moves(got) == _moves(LaneWorker().run(_task()))
    finally:
        lanes.close()


async def _play_against_a_bot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kept: int) -> tuple[list[Any], int]:
    """Play 40 agent moves (always the first legal one) against a random bot; return the stored moves and how
    many times the bot lane's sync read moves from the store."""
    monkeypatch.setattr(live_module, "LANE_MOVES", kept)
    async with service(tmp_path / "club.sqlite3", games=get_game) as svc:
        load_moves = svc.store.tables.load_moves
        reads = CallCount(svc.store.tables, "load_moves")
        tid, (token,) = await seated(svc, "market-fortune", ["agent", "bot:random"], seed=5)
        state = (await svc.wait(tid, token, 10)).state
        for _ in range(40):
            assert state.decision.yours and state.moves, state.decision
            out = await svc.play(tid, token, state.moves[0].id, wait_s=10)
            assert out.accepted, out.refusal
            state = out.state
        stored = [(m.seat, m.move) for m in load_moves(tid)]
    return stored, reads.calls


@pytest.mark.anyio
async def test_a_bot_lane_gets_the_agents_moves_from_memory_as_it_would_from_the_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from_memory, reads = await _play_against_a_bot(tmp_path / "a", monkeypatch, live_module.LANE_MOVES)
    assert reads == 1  # the whole table, once, when the lane first gets it (full_sync)
    from_store, reads = await _play_against_a_bot(tmp_path / "b", monkeypatch, 0)  # none kept: the store path
    assert reads > 10
    assert from_memory == from_store and len(from_memory) > 40 and any(seat == 1 for seat, _ in from_memory)

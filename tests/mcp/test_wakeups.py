"""No lost wake-ups: ``wait_for_turn`` and ``play_move(wait_s)`` never sleep past a decision that exists.

A waiter subscribes to its table's wake-ups before it checks the table, and subscribes again (and re-checks)
when the table it subscribed to was replaced in memory. The deterministic tests inject a move at the worst
moment (between the check and the sleep; while the table is reloaded) and count event-loop turns, never
time. The soaks play many moves between two agents with random small delays and check, through the
service's own answers, that no wait ran out its time while its seat had a decision.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from club_agentes.mcp_server.limits import Limits, LimitSettings
from club_agentes.mcp_server.tables import TableService, TableSettings
from club_agentes.mcp_server.tables.facts import WaitOutcome
from club_agentes.rules_corpus import load_corpus

from tests.conftest import DbLocation
from tests.mcp.test_workers import Anyone, race

pytestmark = pytest.mark.anyio

CORPUS = load_corpus()


@pytest.fixture
def sqlite_location(tmp_path: Path) -> DbLocation:
    return DbLocation("sqlite", str(tmp_path / "club.sqlite3"))


@contextlib.asynccontextmanager
async def service(loc: DbLocation, *, limits: bool = False, **settings: Any) -> AsyncIterator[TableService]:
    """A table service on ``loc``; with ``limits``, long-polls are counted in the store as the tools' are."""
    base = {"bot_workers": 0, "decision_timeout_s": None, "sweep_s": 3600, **settings}
    store = loc.open()
    quotas = Limits(LimitSettings(), store) if limits else None
    svc = TableService(store, CORPUS, Anyone(), games=race, settings=TableSettings(**base), limits=quotas)
    try:
        yield svc
    finally:
        await svc.aclose()
        svc.store.close()


async def two_agents(svc: TableService, goal: int = 50) -> tuple[str, str, str]:
    t = await svc.create("toy-race", ["agent", "agent"], {"require_club_pass": False, "goal": goal}, 4)
    tid = t.table.table_id
    j0 = await svc.join(tid, "ana", None, None)
    j1 = await svc.join(tid, "bob", None, None)
    return tid, j0.token, j1.token


async def turns_until_done(task: asyncio.Task[Any], turns: int = 2000) -> bool:
    """Let the event loop run ``turns`` times (no time passes on purpose); return whether ``task`` ended."""
    for _ in range(turns):
        if task.done():
            return True
        await asyncio.sleep(0)
    return task.done()


async def test_a_move_between_the_waiters_check_and_its_sleep_wakes_it(sqlite_location: DbLocation) -> None:
    """Seat 1 waits; seat 0 moves right after seat 1's check found no decision and before it sleeps."""
    async with service(sqlite_location, poll_s=60.0) as svc:
        tid, t0, t1 = await two_agents(svc)
        check = svc._wait_check
        injected: list[int] = []

        async def check_then_move(*args: Any) -> tuple[WaitOutcome | None, Any]:
            outcome, live = await check(*args)
            if outcome is None and not injected:
                played = await svc.play(tid, t0, "add 1", None)  # the move lands in the window
                assert played.accepted and played.played_version is not None
                injected.append(played.played_version)
            return outcome, live

        svc._wait_check = check_then_move  # type: ignore[method-assign]
        waiter = asyncio.create_task(svc.wait(tid, t1, 30))
        woke = await turns_until_done(waiter)
        if not woke:
            waiter.cancel()
        assert injected == [1]
        assert woke, "the waiter slept past the decision the move gave it"
        out = waiter.result()
        assert out.ready and out.reason == "your_decision" and out.state.table.version == 1


async def test_a_waiter_wakes_when_its_table_is_reloaded_and_then_moves(sqlite_location: DbLocation) -> None:
    """Seat 1 sleeps on the table in memory; the table is dropped and reloaded (as after an engine error or a
    failed catch-up), and seat 0's move lands on the reloaded table: the waiter still wakes."""
    async with service(sqlite_location, poll_s=60.0) as svc:
        tid, t0, t1 = await two_agents(svc)
        waiter = asyncio.create_task(svc.wait(tid, t1, 30))
        assert not await turns_until_done(waiter, 200)  # asleep: seat 0 must decide
        old = svc.live(tid)
        svc._live.drop(tid)
        assert (await svc.play(tid, t0, "add 2", None)).accepted
        assert svc.live(tid) is not old
        woke = await turns_until_done(waiter)
        if not woke:
            waiter.cancel()
        assert woke, "the waiter slept on the table that was replaced in memory"
        out = waiter.result()
        assert out.ready and out.reason == "your_decision" and out.state.table.version == 1


class Tally:
    """What the soak's waits answered: a wait that ran out its time while its seat had a decision is lost."""

    def __init__(self) -> None:
        self.waits = 0
        self.lost = 0
        self.moves = 0


def wait_was_lost(out: WaitOutcome, timeout_s: float) -> bool:
    """A wait is lost when it used its whole time and still ends on the seat's decision: the decision came
    within milliseconds of the wait's start (the other seat only thinks a few) and nothing woke the waiter."""
    return out.reason == "your_decision" and out.waited_s >= timeout_s


async def agent(
    svcs: list[TableService], tid: str, token: str, name: str, rng: random.Random, tally: Tally, timeout_s: float
) -> None:
    """Play one seat to the end of the game: wait for the turn, think a little, move (sometimes waiting)."""
    while True:
        svc = rng.choice(svcs)
        out = await svc.wait(tid, token, timeout_s, agent=name)
        tally.waits += 1
        tally.lost += wait_was_lost(out, timeout_s)
        if out.reason == "game_over":
            return
        if not out.ready:
            continue
        await asyncio.sleep(rng.random() * 0.004)  # a small, random think
        pick = rng.choice(out.state.moves)
        other = rng.choice(svcs)
        wait_s = rng.choice([0.0, timeout_s])
        played = await other.play(tid, token, pick.id, out.state.seat_version, wait_s, agent=name)
        if played.accepted:
            tally.moves += 1
        # play_move(wait_s) answered without the decision while the game goes on: its wait ran out its time (the
        # other seat moves within milliseconds); if the decision exists right after, the wait slept past it.
        if wait_s and played.accepted and played.state.table.status == "playing" and not played.state.decision.yours:
            now = await other.wait(tid, token, 0, agent=name)
            tally.waits += 1
            tally.lost += now.ready


async def soak(locs: list[DbLocation], moves: int, seed: int, parallel: int = 1) -> Tally:
    """Play whole games (about 330 moves each, ``parallel`` tables at once) until ``moves`` moves were played,
    with one table service per location (two on one location: two workers sharing a store)."""
    timeout_s = 20.0  # far above any think: a wait that runs it out while a decision exists is a lost wake-up
    async with contextlib.AsyncExitStack() as stack:
        svcs = [await stack.enter_async_context(service(loc, limits=True, poll_s=60.0)) for loc in locs]
        tally = Tally()
        rng = random.Random(seed)

        async def game(g: int) -> None:
            t = await svcs[0].create("toy-race", ["agent", "agent"], {"require_club_pass": False, "goal": 500}, seed)
            tid = t.table.table_id
            names = (f"ana{g}", f"bob{g}")
            tokens = [(await svcs[0].join(tid, name, None, None)).token for name in names]
            await asyncio.gather(
                *(
                    agent(svcs, tid, tok, n, random.Random(rng.random()), tally, timeout_s)
                    for tok, n in zip(tokens, names, strict=True)
                )
            )

        while tally.moves < moves:
            await asyncio.gather(*(game(g) for g in range(parallel)))
        return tally


async def test_a_few_hundred_moves_with_random_delays_lose_no_wake_up(db_location: DbLocation) -> None:
    tally = await soak([db_location], 300, 5)
    assert tally.moves >= 300 and tally.waits >= tally.moves
    assert tally.lost == 0


@pytest.mark.slow
async def test_thousands_of_moves_across_two_postgresql_workers_lose_no_wake_up(pg_location: DbLocation) -> None:
    """About 1,300 moves (4 whole games at once) keep CI's slow step near a minute or two on a shared machine;
    the issue's 10,000 run with ``CLUB_AGENTES_WAKEUP_MOVES=10000`` (minutes: give pytest ``--timeout``)."""
    moves = int(os.environ.get("CLUB_AGENTES_WAKEUP_MOVES", "1200"))
    tally = await soak([pg_location, pg_location], moves, 11, parallel=4)
    assert tally.moves >= moves and tally.waits >= tally.moves
    assert tally.lost == 0

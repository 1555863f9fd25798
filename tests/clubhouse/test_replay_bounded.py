"""Replays cost what they show (issue 23, point 3): a step is built from the nearest checkpoint (a snapshot the
table stored, or one the spectator cached) plus the moves after it, the cache of checkpoints is bounded in bytes,
a step that runs out of its CPU budget answers 503 and leaves its work behind, and the page lists a window of
moves, not the whole game."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from club_agentes.engine.core import get_game
from club_agentes.mcp_server.app import ClubApp
from club_agentes.mcp_server.clubhouse import Clubhouse
from club_agentes.mcp_server.clubhouse.draw import drawn_view
from club_agentes.mcp_server.clubhouse.spectate import CHECKPOINT_EVERY, ByteCache, ReplayBusy
from club_agentes.mcp_server.clubhouse.web import MOVE_WINDOW
from club_agentes.mcp_server.http import build_http_app
from club_agentes.mcp_server.limits import LimitSettings
from club_agentes.mcp_server.store import Store

from tests.clubhouse.helpers import clubhouse_app, state_at

pytestmark = pytest.mark.anyio

BASE = "http://127.0.0.1:8000"
CACHE_MB = 1


async def bots_game(app: ClubApp, game: str, seats: int, seed: int) -> str:
    """Create a bots-only table, let it play to the end in the background; return its id."""
    created = await app.tables.create(game, ["bot:random"] * seats, {"require_club_pass": False}, seed, creator="x")
    tid = created.table.table_id
    for _ in range(6000):
        row = app.store.tables.load_table(tid)
        assert row is not None
        if row.status == "finished":
            return tid
        await asyncio.sleep(0.02)
    raise AssertionError(f"table {tid} did not finish")


@pytest.fixture
async def long_game(tmp_path: Path) -> AsyncIterator[tuple[ClubApp, Clubhouse, str]]:
    limits = LimitSettings(replay_cache_mb=CACHE_MB)
    app, house = clubhouse_app(Store(tmp_path / "club.sqlite3"), http=True, no_auth=True, limits=limits)
    tid = await bots_game(app, "se-vende", 4, seed=7)
    yield app, house, tid
    await house.aclose()
    await app.tables.aclose()
    app.store.close()


def test_the_byte_cache_keeps_within_its_budget_and_drops_the_least_recently_used() -> None:
    cache = ByteCache(3 * (100 + ByteCache.ENTRY_OVERHEAD))
    for k in range(5):
        cache.put(("t", k), b"x" * 100)
        assert cache.size <= cache.max_bytes  # type: ignore[operator]
    assert len(cache) == 3 and cache.get(("t", 0)) is None and cache.get(("t", 4)) == b"x" * 100
    cache.get(("t", 2))
    cache.put(("t", 5), b"y" * 100)
    assert cache.get(("t", 2)) is not None and cache.get(("t", 3)) is None
    cache.put(("t", 6), b"z" * 10_000)  # larger than the whole budget: not kept, nothing dropped for it
    assert cache.get(("t", 6)) is None and len(cache) == 3


async def test_every_step_shows_the_true_position_from_checkpoints_in_a_bounded_cache(
    long_game: tuple[ClubApp, Clubhouse, str],
) -> None:
    app, house, tid = long_game
    spectator = house.spectator
    assert spectator.replays.max_bytes == CACHE_MB * 2**20  # the replay_cache_mb limit reached the spectator
    replay = spectator.replay(tid)
    row = app.store.tables.load_table(tid)
    assert row is not None and replay.count == row.version + 1 and row.version > 150
    fmt = get_game("se-vende").snapshot_version
    assert app.store.tables.latest_snapshot(tid, fmt, upto=row.version) is not None  # the table stored snapshots
    assert app.store.tables.latest_snapshot(tid, fmt, upto=50) is None  # ...not before its 100th move
    wanted = sorted({0, 1, 15, 16, 17, 99, 100, 101, 150, row.version // 2, row.version - 1, row.version})
    for index in wanted:
        step = await asyncio.to_thread(spectator.replay_step, replay, index)
        game, state = state_at(app.store, tid, index)
        assert step.version == index and step.view == game.view(state, None), index
        assert all(e.version == index for e in step.events)
    assert len(spectator.replays) > 0 and spectator.replays.size <= CACHE_MB * 2**20
    # Walking every step keeps the cache within its budget (only checkpoints are kept, not views).
    for index in range(replay.count):
        await asyncio.to_thread(spectator.replay_step, replay, index)
        assert spectator.replays.size <= CACHE_MB * 2**20
    assert len(spectator.replays) <= replay.count // CHECKPOINT_EVERY
    with pytest.raises(IndexError):
        spectator.replay_step(replay, replay.count)


async def test_a_step_over_its_cpu_budget_answers_503_and_a_retry_gets_further(
    long_game: tuple[ClubApp, Clubhouse, str],
) -> None:
    app, house, tid = long_game
    spectator = house.spectator
    spectator.replay_cpu_s = 0.0  # every checkpoint is over the budget: one checkpoint of progress per request
    replay = spectator.replay(tid)
    index = 95  # before the table's first stored snapshot (every 100 moves): built from the deal
    with pytest.raises(ReplayBusy):
        spectator.replay_step(replay, index)
    assert spectator.replays.get((tid, CHECKPOINT_EVERY)) is not None  # the work done is kept
    web = build_http_app(app, app.settings)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=web), base_url=BASE, timeout=60) as client:
        answers = []
        for _ in range(10):
            r = await client.get(f"/tables/{tid}/replay/{index}?lang=en")
            answers.append(r.status_code)
            if r.status_code == 200:
                break
            assert r.status_code == 503 and r.headers["retry-after"] == "1" and "retry" in r.json()["error"]
        assert answers[-1] == 200 and 503 in answers, answers
        game, state = state_at(app.store, tid, index)
        data = r.json()
        assert data["index"] == index
        assert data["scene"]["view"] == json.loads(json.dumps(drawn_view(game.view(state, None))))


async def test_the_replay_page_lists_a_window_of_moves_around_the_step(
    long_game: tuple[ClubApp, Clubhouse, str],
) -> None:
    app, _, tid = long_game
    row = app.store.tables.load_table(tid)
    assert row is not None and row.version + 1 > MOVE_WINDOW
    web = build_http_app(app, app.settings)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=web), base_url=BASE, timeout=60) as client:
        first = await client.get(f"/tables/{tid}/replay?lang=en")
        steps = [int(s) for s in re.findall(r'<a href="[^"]*" data-step="(\d+)"', first.text)]
        assert steps == list(range(MOVE_WINDOW)) and "Later moves" in first.text and "Earlier moves" not in first.text
        assert f'data-steps="{row.version + 1}"' in first.text
        last = await client.get(f"/tables/{tid}/replay?lang=en&step={row.version}")
        steps = [int(s) for s in re.findall(r'<a href="[^"]*" data-step="(\d+)"', last.text)]
        assert steps == list(range(row.version + 1 - MOVE_WINDOW, row.version + 1))
        assert "Earlier moves" in last.text and "Later moves" not in last.text
        assert 'aria-current="step"' in last.text


async def test_newest_public_events_read_in_windows_are_those_of_the_whole_range(
    long_game: tuple[ClubApp, Clubhouse, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A spectator stream of a long finished game reads its newest events in version windows (the store's query over
    # the whole range scans every event); the windows grow until they hold the events asked for.
    import club_agentes.mcp_server.clubhouse.spectate as spectate

    app, house, tid = long_game
    row = app.store.tables.load_table(tid)
    assert row is not None and row.version > 40
    monkeypatch.setattr(spectate, "EVENT_WINDOW", 2)
    for after, upto, limit in ((-1, row.version, 200), (-1, row.version, 5), (10, row.version - 3, 30), (-1, 7, 50)):
        whole = app.store.tables.load_events(
            tid, after_version=after, upto_version=upto, seat=None, limit=limit, newest=True
        )
        assert house.spectator.public_events(tid, after, upto, limit) == whole, (after, upto, limit)
        assert whole

"""Bots: lanes play the bot seats of a table (:func:`drive`), bots-only tables headless (:func:`drive_headless`),
under a per-table CPU budget (:func:`throttle`, :func:`spend`); :func:`lane_task` builds every lane task.

Moves the lanes play reach the table through the one write path (:func:`.turn.commit`), except those of a
bots-only table, which is not held in memory (its moves are appended to the store directly).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from club_agentes.engine.core import Game, Pending
from club_agentes.mcp_server.eventrow import EventRow, event_rows
from club_agentes.mcp_server.store.tables import (
    Append,
    StaleVersion,
    TableRow,
)
from club_agentes.mcp_server.tables import turn
from club_agentes.mcp_server.tables.common import _Bucket, _charged_ms
from club_agentes.mcp_server.tables.config import (
    TableError,
)
from club_agentes.mcp_server.tables.lanes import (
    LaneResult,
    LaneTask,
    Sync,
    restorable,
)
from club_agentes.mcp_server.tables.live import (
    LiveTable,
)

if TYPE_CHECKING:
    from club_agentes.mcp_server.tables.service import TableService

log = logging.getLogger("club_agentes.tables")

ONCE_CPU_S = 60.0
"""The CPU seconds the heuristic bot may take for one timed-out decision the rules give no default for."""


def lane_task(
    svc: TableService,
    row: TableRow,
    base_version: int,
    sync: Sync,
    *,
    first_event: int,
    bots: Mapping[int, str] | None = None,
    once: tuple[int, ...] = (),
    snapshot_every: int = 0,
) -> LaneTask:
    """Build the bot work of a table for a lane (the one place a :class:`LaneTask` is made).

    ``first_event`` is the table's event count at ``base_version`` (the lane numbers its event rows from there).
    ``bots`` (seat -> bot kind) play until an agent must decide, in chunks of the settings' ``chunk_moves`` and
    ``chunk_cpu_s``; ``once`` instead names the seats whose one decision the heuristic bot makes for the clock
    (one move each, at most a minute of CPU). ``snapshot_every`` asks the lane for snapshots (headless tables).
    """
    if once:
        max_moves, max_cpu_s = len(once), ONCE_CPU_S
    else:
        max_moves, max_cpu_s = svc.settings.chunk_moves, svc.settings.chunk_cpu_s
    return LaneTask(
        table_id=row.id,
        game_id=row.game,
        options=row.config,
        seats=len(row.seats),
        seed=row.seed,
        base_version=base_version,
        bots=dict(bots or {}),
        sync=sync,
        once=once,
        max_moves=max_moves,
        max_cpu_s=max_cpu_s,
        snapshot_every=snapshot_every,
        first_event=first_event,
    )


def kick(svc: TableService, table_id: str) -> asyncio.Task[None]:
    task = svc._drivers.get(table_id)
    if task is None or task.done():
        task = svc._spawn(drive(svc, table_id), f"bots {table_id}")
        svc._drivers[table_id] = task
        task.add_done_callback(lambda t: svc._drivers.pop(table_id, None) if svc._drivers.get(table_id) is t else None)
    return task


async def after_write(svc: TableService, live: LiveTable) -> None:
    """Let bots reply to a write, waiting briefly so that quick replies come in the same answer."""
    if live.status == "playing" and live.waiting_on == "bot":
        task = kick(svc, live.id)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(task), timeout=svc.settings.reply_wait_s)


def throttle(svc: TableService, table_id: str) -> float:
    """Return how long a table's bots must rest before their next piece of work (the CPU share)."""
    now = time.monotonic()
    s = svc.settings
    b = svc._buckets.get(table_id)
    if b is None:
        b = svc._buckets[table_id] = _Bucket(s.bot_cpu_burst_s, now)
    b.tokens = min(s.bot_cpu_burst_s, b.tokens + (now - b.at) * s.bot_cpu_share)
    b.at = now
    return 0.0 if b.tokens > 0 else -b.tokens / s.bot_cpu_share + 0.001


def spend(svc: TableService, table_id: str, cpu_s: float) -> None:
    b = svc._buckets.get(table_id)
    if b is not None:
        b.tokens -= cpu_s


async def full_sync(svc: TableService, table_id: str, game: Game, upto: int, *, snapshot: bool = True) -> Sync:
    snap = (
        await svc.store.run(svc.store.tables.latest_snapshot, table_id, game.snapshot_version)
        if snapshot and restorable(game)
        else None
    )
    if snap is not None and snap.version > upto:
        snap = None
    start = snap.version if snap is not None else 0
    moves = await svc.store.run(svc.store.tables.load_moves, table_id, after=start, upto=upto)
    return Sync(
        start,
        full=True,
        snapshot=(snap.version, snap.format, snap.data) if snap is not None else None,
        moves=tuple((m.seat, m.move) for m in moves),
    )


async def run_lane(svc: TableService, task: LaneTask, game: Game) -> LaneResult:
    """Run bot work, resending the whole table once if the lane does not hold it.

    Raises:
        RuntimeError: the lane could not get the table (a defect).
    """
    res = await svc.lanes.run(task)
    if res.need_sync:
        sync = await full_sync(svc, task.table_id, game, task.base_version, snapshot=not res.restore_failed)
        res = await svc.lanes.run(replace(task, sync=sync))
        if res.need_sync and res.restore_failed:
            sync = await full_sync(svc, task.table_id, game, task.base_version, snapshot=False)
            res = await svc.lanes.run(replace(task, sync=sync))
        if res.need_sync:
            raise RuntimeError(f"the bot lane could not rebuild table {task.table_id}")
    return res


async def lane_sync(svc: TableService, live: LiveTable) -> Sync:
    """Return how the table's lane reaches the table's version: nothing to send, the moves it misses (from memory,
    else from the store), or the whole table."""
    if live.lane_version == live.version:
        return Sync(live.version)
    if live.lane_version is not None and live.lane_version + len(live.lane_moves) == live.version:
        return Sync(live.lane_version, moves=tuple(live.lane_moves))
    if live.lane_version is not None and live.lane_version < live.version:
        moves = await svc.store.run(svc.store.tables.load_moves, live.id, after=live.lane_version, upto=live.version)
        return Sync(live.lane_version, moves=tuple((m.seat, m.move) for m in moves))
    return Sync(-1)  # the lane cannot hold it: it answers need_sync and gets the whole table


def over_budget(svc: TableService, cpu_ms: int) -> bool:
    return cpu_ms >= svc.settings.bot_cpu_total_s * 1000


async def abort(svc: TableService, table_id: str, revision: int, note: str) -> None:
    with contextlib.suppress(StaleVersion):
        await svc.store.run(svc.store.tables.abort_table, table_id, revision=revision, note=note, now=svc._clock())
    live = svc._live.peek(table_id)
    if live is not None:
        live.wake()
        svc._live.drop(table_id)


async def drive(svc: TableService, table_id: str) -> None:
    """Play the bot seats of a table until an agent must decide or the game ends."""
    try:
        if svc._live.peek(table_id) is None:
            row = await svc.store.run(svc.store.tables.load_table, table_id)
            if row is None or row.status != "playing":
                return
            if "agent" not in row.seats:
                await drive_headless(svc, row)
                return
        while True:
            delay = throttle(svc, table_id)
            if delay > 0:
                await asyncio.sleep(delay)
            async with svc._locked(table_id) as live:
                if live.status != "playing":
                    return
                bots = live.bots()
                prev = live.pending()
                if not any(s in bots for s in prev.seats):
                    return
                if over_budget(svc, live.row.bot_cpu_ms):
                    await abort(
                        svc,
                        table_id,
                        live.revision,
                        f"the server stopped this table: its bots used their whole CPU budget "
                        f"({svc.settings.bot_cpu_total_s:g} s)",
                    )
                    return
                first = live.event_count
                task = lane_task(svc, live.row, live.version, await lane_sync(svc, live), first_event=first, bots=bots)
                res = await run_lane(svc, task, live.game)
                spend(svc, table_id, res.cpu_s)
                if res.error is not None:
                    log.error("engine defect while bots played table %s:\n%s", table_id, res.error)
                    await abort(svc, table_id, live.revision, "the server stopped this table after an engine error")
                    return
                if not res.moves:
                    return
                await apply_lane_moves(svc, live, res, prev, res.cpu_s)
                live.lane_version = live.version
                live.lane_moves.clear()
                if live.status != "playing" or not any(s in bots for s in live.pending().seats):
                    return  # an agent decides now: no need to take the lock again to find that out
    except asyncio.CancelledError:
        raise
    except TableError:
        return
    except StaleVersion:
        return
    except Exception:
        log.exception("bots of table %s stopped on a defect", table_id)


async def apply_lane_moves(svc: TableService, live: LiveTable, res: LaneResult, prev: Pending, cpu_s: float) -> None:
    """Apply moves a lane played to the live state and store them (call with the table's lock held).

    Raises:
        StaleVersion: another write reached the table first.
    """
    game = live.game
    base = live.version
    moves = []
    rows: list[EventRow] = []
    v = base
    live.ensure_caches()
    try:
        for lm in res.moves:
            parsed = game.parse_move(lm.move)
            events = game.apply(live.state, lm.seat, parsed)
            v += 1
            moves.append((lm.seat, parsed, lm.actor))
            rows += event_rows(events, v, live.event_count + len(rows))
    except Exception:
        svc._live.drop(live.id)
        raise
    await turn.commit(svc, live, base, prev, moves, rows, bot_cpu_s=cpu_s)


async def drive_headless(svc: TableService, row: TableRow) -> None:
    """Play a bots-only table to its end in the background, without holding its state here."""
    table_id = row.id
    game = svc._game(row.game)
    version, cpu_ms = row.version, row.bot_cpu_ms
    first_event = max(row.event_count, 0)  # as the store counts the log (-1: a table from before events were kept)
    lane_version: int | None = None
    every = svc.settings.snapshot_every if restorable(game) else 0
    bots = {s: spec[4:] for s, spec in enumerate(row.seats)}
    while True:
        delay = throttle(svc, table_id)
        if delay > 0:
            await asyncio.sleep(delay)
        if over_budget(svc, cpu_ms):
            head = await svc.store.run(svc.store.tables.table_head, table_id)
            if head is not None and head.status == "playing":
                await abort(
                    svc,
                    table_id,
                    head.revision,
                    f"the server stopped this table: its bots used their whole CPU budget "
                    f"({svc.settings.bot_cpu_total_s:g} s)",
                )
            return
        sync = Sync(version) if lane_version == version else Sync(-1)
        task = lane_task(svc, row, version, sync, first_event=first_event, bots=bots, snapshot_every=every)
        res = await run_lane(svc, task, game)
        spend(svc, table_id, res.cpu_s)
        if res.error is not None:
            log.error("engine defect while bots played table %s:\n%s", table_id, res.error)
            head = await svc.store.run(svc.store.tables.table_head, table_id)
            if head is not None:
                await abort(svc, table_id, head.revision, "the server stopped this table after an engine error")
            return
        if not res.moves:
            return
        now = svc._clock()
        rows = [e for lm in res.moves for e in lm.events]  # the lane numbered them on from first_event
        v = version + len(res.moves)
        snapshot: tuple[int, int, dict[str, Any], dict[str, Any]] | None = (
            (res.snapshot[0], res.snapshot[1], res.snapshot[2], {}) if res.snapshot else None
        )
        append = Append(
            table_id=table_id,
            base_version=version,
            moves=[(lm.seat, lm.move, lm.actor, now) for lm in res.moves],
            events=rows,
            status="finished" if res.over else "playing",
            result=res.result,
            waiting_on=None if res.over else "bot",
            snapshot=snapshot,
            bot_cpu_ms=_charged_ms(res.cpu_s),
            now=now,
        )
        try:
            await svc.store.run(svc.store.tables.append, append)
        except StaleVersion:
            return  # another worker plays it
        version = lane_version = v
        first_event += len(rows)
        svc.moves_applied += len(res.moves)
        cpu_ms += _charged_ms(res.cpu_s)
        svc._live.drop(table_id)
        if res.over:
            svc._buckets.pop(table_id, None)
            return

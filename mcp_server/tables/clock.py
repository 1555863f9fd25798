"""The decision clock and the sweeper: timed-out decisions, expired waiting tables, revoked agents' seats,
stalled bots, idle tables dropped from memory (:func:`tick`). Timed-out moves go through :func:`.turn.commit`.
"""

from __future__ import annotations

import asyncio
import builtins
import logging
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from club_agentes.engine.core import Pending
from club_agentes.mcp_server.eventrow import EventRow, event_rows
from club_agentes.mcp_server.store.tables import (
    StaleVersion,
)
from club_agentes.mcp_server.tables import bots, turn
from club_agentes.mcp_server.tables.common import RESUME_BATCH, RESUME_GAP_S, STALL_S
from club_agentes.mcp_server.tables.config import (
    TableError,
)
from club_agentes.mcp_server.tables.lanes import (
    Sync,
)
from club_agentes.mcp_server.tables.live import (
    LiveTable,
)

if TYPE_CHECKING:
    from club_agentes.mcp_server.tables.service import TableService

log = logging.getLogger("club_agentes.tables")


async def tick(svc: TableService) -> None:
    """Do the periodic work once: play timed-out decisions, resume stalled bots, drop idle tables."""
    for table_id in await svc.store.run(svc.store.tables.due_tables, svc._clock()):
        try:
            await timeout(svc, table_id)
        except (TableError, StaleVersion):
            continue
        except Exception:
            log.exception("the decision clock failed at table %s", table_id)
    expiry = svc.settings.waiting_expiry_s
    expired = (
        await svc.store.run(svc.store.tables.expired_waiting_tables, svc._clock(), expiry) if expiry is not None else []
    )
    for table_id in expired:
        try:
            await expire(svc, table_id)
        except (TableError, StaleVersion):
            continue
        except Exception:
            log.exception("expiring the waiting table %s failed", table_id)
    for table_id, seats in (await svc.store.run(svc.store.tables.revoked_seats)).items():
        try:
            await hand_revoked(svc, table_id, seats)
        except (TableError, StaleVersion):
            continue
        except Exception:
            log.exception("handing revoked seats to a bot failed at table %s", table_id)
    for table_id in await svc.store.run(svc.store.tables.stalled_bot_tables, svc._clock() - STALL_S):
        if table_id not in svc._drivers:
            bots.kick(svc, table_id)
    svc._live.drop_idle(svc.settings.idle_s)


async def hand_revoked(svc: TableService, table_id: str, seats: Sequence[int]) -> None:
    """Hand the seats of revoked agents at a playing table to bot:heuristic (the clock's last resort).

    One guarded write per table: on several workers one wins, the others get ``StaleVersion``.

    Raises:
        TableError: unknown table.
        StaleVersion: another worker wrote to the table first.
    """
    async with svc._locked(table_id) as live:
        if live.status != "playing":
            return
        handed = {s: "heuristic" for s in seats if s in live.claims and live.claims[s].bot is None}
        if not handed:
            return
        prev = live.pending()
        live.ensure_caches()
        rows = [
            EventRow(
                live.event_count + i,
                live.version,
                None,
                f"{live.names()[s]}: the agent was revoked, so bot:heuristic plays the seat for the rest of the game.",
                {"revoked": True, "seat": s, "handed_to": "bot:heuristic"},
            )
            for i, s in enumerate(sorted(handed))
        ]
        await turn.commit(svc, live, live.version, prev, [], rows, handed=handed)
    log.info("table %s: seats %s of revoked agents handed to bot:heuristic", table_id, sorted(handed))
    await bots.after_write(svc, live)


async def sweep_forever(svc: TableService) -> None:
    while True:
        try:
            await tick(svc)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table sweeper failed")
        await asyncio.sleep(svc.settings.sweep_s)


async def expire(svc: TableService, table_id: str) -> None:
    """Stop a table whose wait for agents ran out (status ``aborted``: its open-table slot is freed).

    Raises:
        TableError: unknown table.
        StaleVersion: another worker changed the table first.
    """
    waited = svc.settings.waiting_expiry_s
    async with svc._locked(table_id) as live:
        now = svc._clock()
        # A table stored before waiting tables had a deadline waits from its last write.
        due = live.deadline_at if live.deadline_at is not None else (live.row.updated_at or 0) + (waited or 0)
        if live.status != "waiting" or waited is None or due > now:
            return
        note = (
            f"the table expired: no agent took a seat for {waited / 60:g} minutes while seats "
            f"{live.open_seats()} were open; create a table or call seek_game again"
        )
        revision = await svc.store.run(
            svc.store.tables.abort_table, table_id, revision=live.revision, note=note, now=now
        )
        live.stopped(revision, note)


async def timeout(svc: TableService, table_id: str) -> None:
    """Play the decisions whose clock ran out at a table (the rules' default, else the heuristic bot's).

    Raises:
        TableError: unknown table.
        StaleVersion: another worker played or timed out the decision first.
    """
    async with svc._locked(table_id) as live:
        now = svc._clock()
        if live.status != "playing" or live.deadline_at is None or live.deadline_at > now:
            return
        prev = live.pending()
        bot_seats = live.bots()
        late = [s for s in prev.seats if s not in bot_seats and s in live.claims]
        if not late:
            return
        live.begin_write()  # the clock's moves change the state before they are stored: readers wait
        try:
            await clock_plays(svc, live, prev, late)
        except BaseException:
            svc._live.drop(table_id)  # the state may be half-changed: reload it from the store
            raise
        finally:
            live.end_write()
    await bots.after_write(svc, live)


async def clock_plays(svc: TableService, live: LiveTable, prev: Pending, late: Sequence[int]) -> None:
    """Play the late seats' decisions and store them (call with the table's lock held).

    Raises:
        StaleVersion: another worker played or timed out the decision first.
    """
    table_id = live.id
    game, state = live.game, live.state
    timeout = live.opts.decision_timeout_s or 0
    base = live.version
    live.ensure_caches()
    moves: builtins.list[tuple[int, Any, str]] = []
    rows: builtins.list[EventRow] = []
    timeouts: dict[int, int] = {}
    handed: dict[int, str] = {}
    no_default: builtins.list[int] = []
    for seat in late:
        if seat not in game.pending(state).seats:
            continue
        try:
            default = game.default_move(state, seat)
        except Exception:  # the heuristic bot decides instead
            log.exception("engine defect: %s default_move() at table %s", live.row.game, table_id)
            default = None
        if default is None:
            no_default.append(seat)
            continue
        move, rule_id = default
        events = game.apply(state, seat, move)
        v = base + len(moves) + 1
        rows += timeout_notice(svc, live, seat, v, live.event_count + len(rows), timeout, move.text(), rule_id)
        rows += event_rows(events, v, live.event_count + len(rows))
        moves.append((seat, move, "clock"))
    if no_default:
        task = bots.lane_task(svc, live.row, base, Sync(-1), first_event=live.event_count, once=tuple(no_default))
        if moves:
            # The lane works from the stored table: give it the default moves played just now.
            task = replace(task, base_version=base + len(moves), first_event=live.event_count + len(rows))
            sync = await bots.full_sync(svc, table_id, game, base)
            sync = replace(sync, moves=sync.moves + tuple((s, m.to_json()) for s, m, _ in moves))
            task = replace(task, sync=sync)
        res = await bots.run_lane(svc, task, game)
        if res.error is not None:
            svc._live.drop(table_id)
            log.error("engine defect while the clock played at table %s:\n%s", table_id, res.error)
            return
        for lm in res.moves:
            parsed = game.parse_move(lm.move)
            events = game.apply(state, lm.seat, parsed)
            v = base + len(moves) + 1
            rows += timeout_notice(svc, live, lm.seat, v, live.event_count + len(rows), timeout, parsed.text(), None)
            rows += event_rows(events, v, live.event_count + len(rows))
            moves.append((lm.seat, parsed, "clock"))
    for seat, _m, _a in moves:
        count = live.claims[seat].timeouts + 1
        timeouts[seat] = count
        if count >= live.opts.max_timeouts:
            handed[seat] = "heuristic"
            rows.append(
                EventRow(
                    live.event_count + len(rows),
                    base + len(moves),
                    None,
                    f"{live.names()[seat]} ran out of time {count} times in a row: bot:heuristic plays "
                    "the seat for the rest of the game.",
                    {"timeout": True, "seat": seat, "handed_to": "bot:heuristic"},
                )
            )
    if not moves:
        return
    await turn.commit(svc, live, base, prev, moves, rows, timeouts=timeouts, handed=handed)


def timeout_notice(
    svc: TableService,
    live: LiveTable,
    seat: int,
    version: int,
    first: int,
    timeout: float,
    text: str,
    rule_id: str | None,
) -> builtins.list[EventRow]:
    """The events of a timed-out decision, at places ``first`` and ``first + 1`` of the log: a public notice (no
    secret revealed) and the move to the seat."""
    who = live.names()[seat]
    how = (
        f"the rules' default was played (rule {rule_id})"
        if rule_id
        else "bot:heuristic chose (no rule gives a default here)"
    )
    data = {"timeout": True, "seat": seat, "rule_id": rule_id, "by": "default" if rule_id else "bot:heuristic"}
    return [
        EventRow(first, version, None, f"{who} ran out of time ({timeout:g} s for this decision): {how}.", data),
        EventRow(first + 1, version, (seat,), f"The clock played for you: {text}.", {**data, "move": text}),
    ]


async def resume(svc: TableService) -> None:
    """Once per start of the club (one worker of several claims it: ``TableStore.claim_resume``), resume every table
    where a bot must move and enforce the decision clocks that ran out while no worker ran. Errors are logged
    (the sweeper retries); raises only ``CancelledError``."""
    now = svc._clock()
    try:
        claimed = await svc.store.run(svc.store.tables.claim_resume, now, RESUME_GAP_S)
        if not claimed:
            return
        stalled = await svc.store.run(svc.store.tables.stalled_bot_tables, now + 1, RESUME_BATCH)
        for table_id in stalled:
            if table_id not in svc._drivers:
                bots.kick(svc, table_id)
        log.info("start-up: resumed %d tables where a bot must move", len(stalled))
        await tick(svc)  # decision clocks that ran out while no worker ran
    except asyncio.CancelledError:
        raise
    except Exception:
        log.exception("resuming the tables at start-up failed (the sweeper goes on)")

"""Creating tables and seating agents (the bodies of :meth:`TableService.create`, ``seated`` and ``join``)."""

from __future__ import annotations

import contextlib
import hmac
import secrets
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from club_agentes.engine.core import ConfigError
from club_agentes.engine.core.text import counted
from club_agentes.mcp_server.eventrow import event_rows
from club_agentes.mcp_server.store.db import Tx
from club_agentes.mcp_server.store.tables import (
    SeatClaim,
    StaleVersion,
    TableRow,
)
from club_agentes.mcp_server.tables import bots, reading, turn
from club_agentes.mcp_server.tables.common import (
    _hash,
)
from club_agentes.mcp_server.tables.config import (
    MAX_SEED,
    TABLE_OPTION_SCHEMA,
    TableError,
    split_options,
)
from club_agentes.mcp_server.tables.facts import (
    Created,
    Joined,
)
from club_agentes.mcp_server.tables.live import (
    LiveTable,
)

if TYPE_CHECKING:
    from club_agentes.mcp_server.tables.service import TableService


async def create(
    svc: TableService,
    game_id: str,
    seats: list[str],
    options: Mapping[str, Any] | None,
    seed: int | None,
    *,
    creator: str | None = None,
    seated: Mapping[int, tuple[str, str]] | None = None,
    within: Callable[[Tx, str], None] | None = None,
) -> Created:
    """:meth:`TableService.create` (its docstring says what it does and raises)."""
    svc._ensure_started()
    game = svc._game(game_id)
    if not isinstance(seats, list) or not seats:
        raise TableError("seats is empty; give one entry per seat: 'agent', 'bot:random' or 'bot:heuristic'")
    kinds = ", ".join(f"'bot:{k}'" for k in game.bots)
    for i, spec in enumerate(seats):
        if not isinstance(spec, str) or (spec != "agent" and not (spec.startswith("bot:") and spec[4:] in game.bots)):
            shown = spec[:40] if isinstance(spec, str) else spec
            raise TableError(f"seat {i} is {shown!r}; each seat must be 'agent' or one of {kinds}")
    if not game.min_seats <= len(seats) <= game.max_seats:
        raise TableError(
            f"{game_id} is played by {game.min_seats} to {game.max_seats} seats; {len(seats)} "
            f"{'was' if len(seats) == 1 else 'were'} given"
        )
    agents = sum(1 for s in seats if s == "agent")
    if options is not None and not isinstance(options, Mapping):
        raise TableError("options must be an object of option names and values, e.g. {'mode': 'fortuna'}")
    table_opts, game_opts = split_options(options, svc.settings, has_agents=agents > 0)
    try:
        config = game.make_config(len(seats), game_opts)
    except ConfigError as exc:
        raise TableError(str(exc)) from None
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED):
        raise TableError(f"seed must be an integer from 0 to {MAX_SEED}, or omitted for a secret random seed")
    if seated is not None and sorted(seated) != [i for i, spec in enumerate(seats) if spec == "agent"]:
        raise TableError("seated must name every agent seat of the table, and only those")
    receipt: str | None = None
    if svc.limits is not None and creator is not None:
        mine, everyone = await svc.store.run(svc.store.tables.open_table_counts, creator)
        svc.limits.check_open_tables(creator, mine, everyone)
        receipt = svc.limits.take("table", creator)
    real_seed = secrets.randbits(63) if seed is None else seed
    state, setup = game.start(config, real_seed)
    events = event_rows(setup, 0, 0)  # the deal: version 0, the start of the log
    now = svc._clock()
    expiry = svc.settings.waiting_expiry_s
    row = TableRow(
        id="t-" + secrets.token_hex(6),
        game=game_id,
        config=config.to_json(),
        seed=real_seed,
        seeded=seed is not None,
        seats=list(seats),
        require_club_pass=table_opts.require_club_pass,
        created_at=now,
        status="waiting" if agents else "playing",
        creator=creator,
        table_options=table_opts.to_json(),
        open_seats=agents,
        waiting_on=None if agents else "bot",
        deadline_at=now + expiry if agents and expiry is not None else None,
        updated_at=now,
    )
    claims = {s: SeatClaim(row.id, s, a, h, now) for s, (a, h) in (seated or {}).items()}
    live: LiveTable | None = None
    if agents:
        live = LiveTable(
            row=row,
            game=game,
            config=config,
            state=state,
            opts=table_opts,
            version=0,
            revision=1,
            status=row.status,
            result=None,
            waiting_on=None,
            deadline_at=row.deadline_at,
            note=None,
            claims=dict(claims),
            seat_versions={s: 0 for s in claims},
            last_moved={},
            event_count=len(events),
        )
        if claims:  # every agent seat taken at once: the game starts now
            waiting_on, deadline = turn.decision_meta(svc, live, live.pending(), None, live.bots(), now)
            row = replace(
                row,
                status="playing",
                open_seats=0,
                waiting_on=waiting_on,
                deadline_at=deadline,
                seat_versions=dict(live.seat_versions),
            )
            live.row, live.status, live.waiting_on, live.deadline_at = row, "playing", waiting_on, deadline
    try:
        await svc.store.run(
            svc.store.tables.create_table,
            row,
            events,
            claims=list(claims.values()),
            within=within,
        )
    except BaseException:
        if svc.limits is not None:
            with contextlib.suppress(Exception):
                svc.limits.give_back(receipt)  # the table was not stored: it does not count
        raise
    if live is not None:
        live.add_events(events)
        svc._live.put(live)
    if row.waiting_on == "bot":
        bots.kick(svc, row.id)
    schema = dict(game.config_schema())
    props = {**schema.get("properties", {}), **TABLE_OPTION_SCHEMA}
    schema = {**schema, "properties": props}
    return Created(reading.row_facts(svc, row, claims), schema)


async def seated(svc: TableService, table_id: str, agent: str, seat: int, token: str) -> Joined:
    """:meth:`TableService.seated` (its docstring says what it does and raises)."""
    live = await svc._fresh(table_id)
    claim = live.claims.get(seat)
    if claim is None or claim.agent != agent or not hmac.compare_digest(claim.token_hash, _hash(token)):
        raise TableError(f"seat {seat} at table {table_id} is not yours; call seek_game again")
    version = live.seat_versions.get(seat, live.version)
    state = await reading.seat_state(svc, live, seat)
    return Joined(reading.table_facts(svc, live), seat, agent, token, version, state)


async def join(svc: TableService, table_id: str, agent: str, club_pass: str | None, seat: int | None) -> Joined:
    """:meth:`TableService.join` (its docstring says what it does and raises)."""
    async with svc._locked(table_id) as live:
        open_seats = live.open_seats()
        if live.status == "aborted":  # e.g. it expired waiting: no seat can bring it back
            raise TableError(f"table {table_id} is closed: {live.note or 'the server stopped it'}")
        if not open_seats:
            raise TableError(
                f"table {table_id} has no open agent seat; list_tables(open_seats=true) shows tables to join"
            )
        if seat is None:
            seat = open_seats[0]
        elif seat not in open_seats:
            raise TableError(f"seat {seat} is not open at table {table_id}; open agent seats: {open_seats}")
        held = sorted(s for s, c in live.claims.items() if c.agent == agent)
        if len(held) >= live.opts.seats_per_agent:
            raise TableError(
                f"{agent} already holds seat {', '.join(map(str, held))} at table {table_id}, and this table "
                f"allows {counted(live.opts.seats_per_agent, 'seat')} per agent (its creator sets seats_per_agent)"
            )
        if live.opts.require_club_pass:
            refusal = svc.verifier.admit(club_pass, agent, live.row.game)
            if refusal is not None:
                raise TableError(refusal)
        token = secrets.token_urlsafe(24)
        now = svc._clock()
        claim = SeatClaim(table_id, seat, agent, _hash(token), now)
        starts = len(open_seats) == 1
        status = "playing" if starts else "waiting"
        waiting_on, deadline = None, None
        if not starts and svc.settings.waiting_expiry_s is not None:
            deadline = now + svc.settings.waiting_expiry_s  # each seat taken restarts the wait
        live.begin_write()  # readers wait until the claim is stored
        revision: int | None = None
        try:
            if starts:  # an agent's claim changes neither who decides nor which seats bots play
                waiting_on, deadline = turn.decision_meta(svc, live, live.pending(), None, live.bots(), now)
            revision = await svc.store.run(
                svc.store.tables.claim_seat,
                claim,
                revision=live.revision,
                status=status,
                waiting_on=waiting_on,
                deadline_at=deadline,
                now=now,
            )
        except StaleVersion:
            svc._live.drop(table_id)
            raise TableError(
                f"seat {seat} at table {table_id} was taken (or the table changed) a moment ago; call join_table again"
            ) from None
        except BaseException:
            svc._live.drop(table_id)
            raise
        finally:
            live.end_write(revision)
        live.seat_taken(claim, revision, status, waiting_on, deadline)
        facts = reading.table_facts(svc, live)
        seat_version = live.version
    if not starts:
        return Joined(facts, seat, agent, token, seat_version)
    await bots.after_write(svc, live)
    fresh = await svc._fresh(table_id)  # the game has started: the seat's situation
    state = await reading.seat_state(svc, fresh, seat)
    return Joined(facts, seat, agent, token, seat_version, state)

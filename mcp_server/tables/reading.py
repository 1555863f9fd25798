"""What a seat is told: the table's facts, the decision, the legal moves with their words, the events since a version.

Plain data (:mod:`.facts`) built from a :class:`~.live.LiveTable` for :class:`~.service.TableService`'s answers;
nothing here writes. The seat's view and its text come from the table's per-(version, seat) cache
(:meth:`~.live.LiveTable.cache`), computed once and only when a reader asks.
"""

from __future__ import annotations

import logging
from bisect import bisect_right
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from club_agentes.engine.core import IllegalMove
from club_agentes.engine.core.moves import MoveCodec
from club_agentes.mcp_server.eventrow import EventRow
from club_agentes.mcp_server.store import Store
from club_agentes.mcp_server.store.tables import (
    SeatClaim,
    TableRow,
)
from club_agentes.mcp_server.tables.closest import closest_moves
from club_agentes.mcp_server.tables.common import MAX_EVENTS, OWN_EVENTS_READ, _owned_seat
from club_agentes.mcp_server.tables.config import (
    TableOptions,
)
from club_agentes.mcp_server.tables.eventfold import keep_own
from club_agentes.mcp_server.tables.facts import (
    DecisionFacts,
    MoveFacts,
    RefusalFacts,
    SeatFacts,
    SeatState,
    TableFacts,
)
from club_agentes.mcp_server.tables.live import (
    LiveTable,
)

if TYPE_CHECKING:
    from club_agentes.mcp_server.tables.service import TableService

log = logging.getLogger("club_agentes.tables")


def seat_facts(svc: TableService, seats: list[str], claims: Mapping[int, SeatClaim]) -> list[SeatFacts]:
    out = []
    for s, spec in enumerate(seats):
        c = claims.get(s)
        out.append(
            SeatFacts(
                seat=s,
                kind=spec,
                agent=c.agent if c else None,
                open=spec == "agent" and c is None,
                played_by=c.bot if c else None,
                timeouts=c.timeouts if c else 0,
            )
        )
    return out


def row_facts(svc: TableService, row: TableRow, claims: Mapping[int, SeatClaim]) -> TableFacts:
    return TableFacts(
        table_id=row.id,
        game=row.game,
        status=row.status,
        version=row.version,
        seats=seat_facts(svc, row.seats, claims),
        options=row.config,
        table_options=TableOptions.from_json(
            {"require_club_pass": row.require_club_pass, **row.table_options}
        ).to_json(),
        require_club_pass=row.require_club_pass,
        seeded=row.seeded,
        creator=row.creator,
        created_at=row.created_at,
        note=row.note,
        result=row.result,
        deadline_at=row.deadline_at,
    )


def table_facts(svc: TableService, live: LiveTable) -> TableFacts:
    return TableFacts(
        table_id=live.id,
        game=live.row.game,
        status=live.status,
        version=live.version,
        seats=seat_facts(svc, live.row.seats, live.claims),
        options=live.row.config,
        table_options=live.opts.to_json(),
        require_club_pass=live.opts.require_club_pass,
        seeded=live.row.seeded,
        creator=live.row.creator,
        created_at=live.row.created_at,
        note=live.note,
        result=live.result,
        deadline_at=live.deadline_at,
    )


def decision_of(svc: TableService, live: LiveTable, seat: int | None) -> DecisionFacts:
    if live.status == "waiting":
        return DecisionFacts(
            "waiting_for_players", [], [], f"The game starts when agent seats {live.open_seats()} are taken.", False
        )
    if live.status == "aborted":
        return DecisionFacts("over", [], [], live.note or "The server stopped this table.", False)
    p = live.pending()
    yours = seat is not None and seat in p.seats and live.bot_kind(seat) is None
    deadline = live.deadline_at if p.kind != "over" else None
    return DecisionFacts(p.kind, list(p.seats), list(p.done), p.prompt, yours, deadline)


def move_facts(svc: TableService, live: LiveTable, seat: int) -> list[MoveFacts]:
    """The seat's legal moves with ids and plain words (built once per seat version and seat names)."""
    cache = live.cache(seat)
    notes = live.notes(seat)
    if cache.facts is None:
        cache.facts = [
            MoveFacts(f"m{i}", m.text(), m.to_json(), n.says, n.note)
            for i, (m, n) in enumerate(zip(cache.moves, notes, strict=True), 1)
        ]
    return list(cache.facts)


def _version(e: EventRow) -> int:
    return e.version


def _read_events(store: Store, table_id: str, seat: int, since: int) -> tuple[int, list[EventRow]]:
    """Return how many events after ``since`` ``seat`` may see, and the newest :data:`OWN_EVENTS_READ` (blocks)."""
    total = store.tables.count_events(table_id, after_version=since, seat=seat)
    return total, store.tables.load_events(table_id, after_version=since, seat=seat, limit=OWN_EVENTS_READ, newest=True)


async def events_for(svc: TableService, live: LiveTable, seat: int, since: int) -> tuple[list[EventRow], int]:
    # The seat's own events are never left out (eventfold.keep_own); others' beyond the newest MAX_EVENTS are.
    if live.tail_covers(since):
        tail = live.tail  # in version order: only the events after ``since`` are looked at
        start = bisect_right(tail, since, key=_version)
        events = [e for e in tail[start:] if e.audience is None or seat in e.audience]
        return keep_own(events, seat, MAX_EVENTS)
    total, events = await svc.store.run(_read_events, svc.store, live.id, seat, since)
    kept, _ = keep_own(events, seat, MAX_EVENTS)
    return kept, max(0, total - len(kept))


async def seat_state(
    svc: TableService, live: LiveTable, seat: int, since: int | None = None, *, full: bool = False
) -> SeatState:
    decision = decision_of(svc, live, seat)
    cache = live.cache(seat)
    moves: list[MoveFacts] = []
    seat_version = live.seat_versions.get(seat, live.version)
    if decision.yours and cache.moves:
        moves = move_facts(svc, live, seat)
        live.listed[seat] = seat_version
    if since is None:
        since = live.last_moved.get(seat, -1)
    since = max(-1, min(since, live.version))
    events, omitted = await events_for(svc, live, seat, since)
    return SeatState(
        table=table_facts(svc, live),
        seat=seat,
        seat_version=seat_version,
        decision=decision,
        view=cache.view,
        events=events,
        events_omitted=omitted,
        since=since,
        moves=moves,
        brief=live.brief(seat),
        render=live.game.render(cache.view) if full else None,
        now=svc._clock(),
    )


def seat_of(svc: TableService, live: LiveTable, token: str, agent: str | None = None) -> int:
    """Return the seat of ``token`` at ``live``, checking that ``agent`` holds it.

    Raises:
        TableError: the token is not a seat token of this table, or (``agent`` given) its seat
            belongs to another agent.
    """
    return _owned_seat(live.id, live.claims, token, agent)


def played_facts(svc: TableService, live: LiveTable, seat: int, move: Any) -> MoveFacts:
    """Return the facts of ``move`` as the seat's legal moves list it (its id and words), or, for a move not among
    them, its text form as its words and no id.

    The listed facts are reused when the seat's answer already built them (:func:`move_facts`): a move played by
    its id or text was listed just before.

    Raises:
        Exception: whatever the move's text or JSON form raises (an engine defect).
    """
    cache = live.cache(seat)
    try:
        i = cache.moves.index(move)  # the first legal move equal to ``move`` (the same object when played by id)
    except ValueError:
        return MoveFacts("", move.text(), move.to_json(), move.text())
    notes = live.notes(seat)  # first: a change of the seats' names drops the facts built with the old ones
    if cache.facts is not None:
        return cache.facts[i]
    m = cache.moves[i]
    return MoveFacts(f"m{i + 1}", m.text(), m.to_json(), notes[i].says, notes[i].note)


def rule_refusal(svc: TableService, exc: IllegalMove) -> RefusalFacts:
    title = text = None
    if svc.corpus.has(exc.rule_id):
        section = svc.corpus.sections[exc.rule_id]
        title, text = section.title, section.text
    reason = exc.message if exc.message.endswith((".", "!", "?")) else exc.message + "."
    return RefusalFacts("rule", reason, exc.rule_id, title, text)


def unparsed(svc: TableService, live: LiveTable, seat: int, move: Any, why: str) -> RefusalFacts:
    """A refusal of a move that names no legal move: the closest legal moves and one example per form."""
    moves = move_facts(svc, live, seat) if decision_of(svc, live, seat).yours else []
    sent = move if isinstance(move, str) else str(move)
    closest = closest_moves(sent[:500], moves)  # compares a bounded prefix: see tables/closest.py
    codec = getattr(type(live.game), "moves", None)
    examples = list(codec.examples().values()) if isinstance(codec, MoveCodec) else []
    reason = why.rstrip(".") + "."
    if moves:
        reason += " The closest legal moves are listed; play one by id, text or JSON."
    return RefusalFacts("unparsed", reason, closest=closest, examples=examples)

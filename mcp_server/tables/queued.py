"""Queued acts: a move decided before a short interruption that asks the seat itself first (``Game.interlude``: in
Yo soy el jefe, a stop window opened by another seat's travel card, boss card or hire set) waits in memory until
the interruption is over, then is played through the one write path (:func:`.turn.commit`) as the seat's move if it
is still legal and means the same (``Game.move_basis``), or dropped with a note to the seat (Yo soy el jefe's
ruling ``actos-en-espera``; docs/tables.md).

:func:`queue` takes the act (called by :func:`.rebase.rebase` for a stale move that cannot be played now only
because the seat must answer the interruption first); :func:`settle` runs after every write of this process
(the end of :func:`.turn.commit`) and plays or drops the acts whose interruption is over. A queued act lives in
the memory of the process that accepted it (:attr:`.live.LiveTable.queued`): a restart, or the table dropped
from memory, loses it (nothing of it was stored).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from club_agentes.engine.core import IllegalMove, InvalidMove
from club_agentes.mcp_server.eventrow import EventRow, event_rows
from club_agentes.mcp_server.store.tables import StaleVersion
from club_agentes.mcp_server.tables.live import LiveTable

if TYPE_CHECKING:
    from club_agentes.mcp_server.tables.service import TableService

log = logging.getLogger("club_agentes.tables")


@dataclass
class QueuedAct:
    """A seat's act waiting for the interruption that asks the seat first to end.

    Attributes:
        seat: the seat whose act it is.
        move: the act (a parsed move, legal when it was decided).
        decided: the version of what the seat saw when it decided.
        then: the game state at ``decided`` (read only: what the act meant).
        basis: ``Game.move_basis`` of the act at ``decided``.
        seen: the last table version at which this process saw the interruption still on (the act waiting).
    """

    seat: int
    move: Any
    decided: int
    then: Any
    basis: Any
    seen: int


def queueable(live: LiveTable, seat: int, then: Any, move: Any) -> bool:
    """Return whether a move decided on ``then`` (legal then, not legal now) waits as a queued act: the table is
    playing, an interruption (``Game.interlude``) that was not on at ``then`` asks ``seat`` now, so the act cannot
    be played until the seat has answered it. Raises nothing."""
    game = live.game
    return (
        live.status == "playing"
        and live.bot_kind(seat) is None
        and seat in live.pending().seats
        and game.interlude(live.state)
        and not game.interlude(then)
    )


def queue(live: LiveTable, seat: int, move: Any, decided: int, then: Any, what: str) -> str:
    """Queue ``move`` of ``seat`` (decided at version ``decided`` on the state ``then``) until the interruption
    that asks the seat first is over, and return the sentence for the seat (``what``: the events since, in words).

    A seat has at most one queued act: a newer one replaces the older, and the sentence says so.

    Raises:
        NotImplementedError: the game does not say what its moves answer (``Game.move_basis``); call only for
            a game that does.
    """
    basis = live.game.move_basis(then, seat, move)
    old = live.queued.get(seat)
    live.queued[seat] = QueuedAct(seat, move, decided, then, basis, live.version)
    replaced = f" It replaces your queued '{old.move.text()}'." if old is not None else ""
    return (
        f"your '{move.text()}' decided at version {decided} is queued, not refused: since then {what}, which asks "
        "you first, so answer that from the moves listed now; once it is over your act is played as your move if "
        "it is still legal and means the same, else dropped, and your events say which (nothing is stored until "
        f"then).{replaced}"
    )


async def settle(svc: TableService, live: LiveTable, base: int) -> None:
    """Play or drop the queued acts whose interruption is over, after a write from version ``base`` (call with
    the table's lock held, once the write is applied).

    An act is played as its seat's move through :func:`.turn.commit` when it is legal now and means the same
    (``Game.move_basis`` equal at its version and now), with a note to the seat (an event only it sees);
    otherwise it is dropped (or, when others' acts already did its work, ``Game.overtaken``, spent), and a note
    to the seat (stored without a move) says what changed. When writes this process did not make came between
    (another worker's, caught up from the store) and the seat moved among them after the interruption was over
    (its answers to the interruption do not count), it decided again: the act is dropped the same way. Acts of a
    table no longer playing, or of a seat a bot plays now, are dropped silently. Raises nothing: a failed write
    (another worker's write first, a defect) loses the act, logged.
    """
    if not live.queued:
        return
    if live.status != "playing":
        live.queued.clear()
        return
    game = live.game
    if game.interlude(live.state):
        for act in live.queued.values():
            act.seen = live.version
        return
    ready = list(live.queued.values())
    live.queued.clear()
    unseen = {act.seat: base != act.seen for act in ready}  # writes of other workers came before this one
    for act in ready:
        if live.status != "playing":
            return
        if game.interlude(live.state):  # an earlier act opened another interruption: wait for that one
            act.seen = live.version
            live.queued[act.seat] = act
            continue
        try:
            await _settle_one(svc, live, act, unseen[act.seat])
        except StaleVersion:
            log.info("table %s: seat %d's queued act was lost to another worker's write", live.id, act.seat)
            return
        except Exception:
            log.exception("table %s: seat %d's queued act %s failed", live.id, act.seat, act.move)
            return


async def _settle_one(svc: TableService, live: LiveTable, act: QueuedAct, unseen: bool) -> None:
    """Play ``act`` or drop it with a note (see :func:`settle`); ``unseen``: writes this process did not make came
    after the last version at which it saw the interruption on.

    Raises:
        StaleVersion: another worker's write reached the table first (the live table is dropped).
        IllegalMove, InvalidMove: the engine refused a move it listed as legal (a defect).
    """
    from club_agentes.mcp_server.tables import rebase, turn  # both import this module

    game, seat = live.game, act.seat
    if live.bot_kind(seat) is not None:
        return
    said = f"your '{act.move.text()}' decided at version {act.decided} and queued"
    moved = await _moved_after(svc, live, act) if unseen and live.last_moved.get(seat, -1) > act.seen else None
    why: str | None = None
    if moved is not None:
        why = f"you moved at version {moved}, after what asked you first was over"
    elif seat not in live.pending().seats or act.move not in game.legal_moves(live.state, seat):
        why = "it can no longer be played"
    elif game.move_basis(live.state, seat, act.move) != act.basis:
        why = "it would now answer something else"
    prev = live.pending()
    now = live.version
    live.ensure_caches()
    if why is not None:
        what = await rebase.what_changed(svc, live, seat, act.decided)
        spent = None if moved is not None else game.overtaken(act.then, live.state, seat, act.move)
        if spent is not None:  # ruling pases-adelantados: others' acts already did its work
            outcome, note = "overtaken", f"{said} was overtaken, not played: since then {what}, so {spent}"
        else:
            outcome, note = "dropped", f"{said} was dropped, not played: since then {what}, so {why}"
        data = {"queued": outcome, "move": act.move.to_json(), "decided": act.decided}
        note += "; decide from the moves listed now."
        await turn.commit(svc, live, now, prev, [], [EventRow(live.event_count, now, (seat,), note, data)])
        return
    try:
        events = game.apply(live.state, seat, act.move)
    except (IllegalMove, InvalidMove):
        svc._live.drop(live.id)  # the state may be half-changed: reload it from the store
        raise
    rows = event_rows(events, now + 1, live.event_count)
    note = f"{said} was played as your move at version {now + 1}, once what asked you first was answered."
    data = {"queued": "played", "move": act.move.to_json(), "decided": act.decided}
    rows.append(EventRow(live.event_count + len(rows), now + 1, (seat,), note, data))
    claim = live.claims.get(seat)
    timeouts = {seat: 0} if claim is not None and claim.timeouts else {}
    await turn.commit(svc, live, now, prev, [(seat, act.move, "agent")], rows, timeouts=timeouts)


async def _moved_after(svc: TableService, live: LiveTable, act: QueuedAct) -> int | None:
    """Return the version at which ``act``'s seat moved after the interruption it waits for was over, among the
    writes since ``act.seen`` (other workers' writes: replayed from the store), else ``None``.

    Raises:
        IllegalMove, InvalidMove: a stored move does not replay (a corrupted store).
    """
    from club_agentes.mcp_server.tables import rebase  # rebase imports this module

    game = live.game
    state = game.clone(await rebase.state_at(svc, live, act.seen))
    rows = await svc.store.run(svc.store.tables.load_moves, live.id, act.seen, live.version)
    over = False
    for row in rows:
        if row.seat == act.seat and over:
            return row.version
        game.apply(state, row.seat, game.parse_move(row.move))
        over = over or not game.interlude(state)
    return None

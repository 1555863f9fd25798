"""Moves decided on an older version: held while other seats briefly interrupt, queued while an interruption asks
the seat itself first (:mod:`.queued`), or checked against the state they would be applied to
(``Game.move_basis``, ``Game.interlude``)."""

from __future__ import annotations

import contextlib
import logging
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from club_agentes.engine.core import Game, InvalidMove
from club_agentes.mcp_server.store import Store
from club_agentes.mcp_server.tables import queued, reading
from club_agentes.mcp_server.tables.common import _MOVE_ID, PAST_STATES, _rebases
from club_agentes.mcp_server.tables.config import (
    TableError,
)
from club_agentes.mcp_server.tables.facts import (
    RefusalFacts,
)
from club_agentes.mcp_server.tables.lanes import (
    restorable,
)
from club_agentes.mcp_server.tables.live import (
    LiveTable,
)

if TYPE_CHECKING:
    from club_agentes.mcp_server.tables.service import TableService

log = logging.getLogger("club_agentes.tables")


@dataclass(frozen=True)
class Spent:
    """A move decided on an older version that is accepted without being stored now (:func:`rebase`).

    Attributes:
        why: the sentence for the seat.
        decided: the version the move was decided on (the answer lists the events since).
        queued: ``False``: others' acts already did its work (``Game.overtaken``), nothing is left to do;
            ``True``: it waits for the interruption that asks the seat first (:mod:`.queued`).
    """

    why: str
    decided: int
    queued: bool = False


def decided_on(svc: TableService, live: LiveTable, seat: int, move: Any, expected_version: Any) -> int | None:
    """Return the older version a move was decided on, if what the seat sees changed since, else ``None``.

    That is ``expected_version``, or without it the version a move id was listed at.
    """
    seat_version = live.seat_versions.get(seat, live.version)
    if expected_version is None:
        listed = live.listed.get(seat)
        if isinstance(move, str) and _MOVE_ID.fullmatch(move.strip()) and listed is not None:
            return listed if listed < seat_version else None
        return None
    if isinstance(expected_version, bool) or not isinstance(expected_version, int):
        return None
    return expected_version if 0 <= expected_version < seat_version else None


def held(svc: TableService, live: LiveTable, seat: int, move: Any, expected_version: Any) -> bool:
    """Return whether a move decided on an older version waits: other seats briefly interrupt the seat's
    decision now (``Game.interlude``: a price being named, a stop window it does not answer)."""
    return (
        live.status == "playing"
        and _rebases(live.game)
        and decided_on(svc, live, seat, move, expected_version) is not None
        and seat not in live.pending().seats
        and live.game.interlude(live.state)
    )


async def hold(
    svc: TableService,
    table_id: str,
    token: str,
    move: Any,
    expected_version: Any,
    until: float,
    agent: str | None = None,
) -> None:
    """Wait (until ``until``, a monotonic time) while the move is held (:meth:`_held`), so that it is checked
    once the decision is back.

    Raises:
        TableError: unknown table, bad token or a token of another agent's seat.
    """
    # First from the table in memory (no read of the store: most moves are not held); once held, fresh.
    cached = svc._live.peek(table_id) if isinstance(table_id, str) else None
    while True:
        from_memory = cached is not None
        live = cached if cached is not None else await svc._fresh(table_id)
        cached = None
        # No await from the read to the sleep: a write after the check sets the event taken here.
        changed = live.changed
        try:
            seat = reading.seat_of(svc, live, token, agent)
        except TableError:
            if not from_memory:
                raise
            continue  # the table in memory may not know a seat taken through another worker: read it fresh
        remaining = until - time.monotonic()
        if remaining <= 0 or not held(svc, live, seat, move, expected_version):
            return
        if not from_memory:  # held by what the memory says: re-check at the store's revision before sleeping
            await svc._sleep_on(live, changed, remaining)


async def state_at(svc: TableService, live: LiveTable, version: int) -> Any:
    """Return the game's state at an older ``version`` (rebuilt from the store off the event loop; a few are
    kept). Read only.

    Raises:
        IllegalMove, InvalidMove: a stored move does not replay (a corrupted store).
    """
    key = (live.id, version)
    state = svc._past.get(key)
    if state is not None:
        svc._past.move_to_end(key)
        return state
    state = await svc.store.run(_replay, svc.store, live.game, live.config, live.row.seed, live.id, version)
    svc._past[key] = state
    while len(svc._past) > PAST_STATES:
        svc._past.popitem(last=False)
    return state


def _replay(store: Store, game: Game, config: Any, seed: int, table_id: str, version: int) -> Any:
    """Rebuild a table's game state at ``version``: its latest snapshot up to it, then the moves (blocks).

    Raises:
        IllegalMove, InvalidMove: a stored move does not replay (a corrupted store).
    """
    state = None
    base = 0
    if restorable(game):
        snap = store.tables.latest_snapshot(table_id, game.snapshot_version)
        if snap is not None and snap.version <= version:
            with contextlib.suppress(NotImplementedError, ValueError):
                state, base = game.restore(config, snap.data), snap.version
    if state is None:
        state, _setup = game.start(config, seed)
    for m in store.tables.load_moves(table_id, after=base, upto=version):
        game.apply(state, m.seat, game.parse_move(m.move))
    return state


async def what_changed(svc: TableService, live: LiveTable, seat: int, decided: int) -> str:
    """Return what happened since version ``decided``, as ``seat`` may know it, in a clause: the events since (the
    last 2 when there are more).

    Raises:
        TableError: the table no longer exists (read from the store).
    """
    events, _omitted = await reading.events_for(svc, live, seat, decided)
    changes = [e.text.rstrip(". ") for e in events if e.version > decided]
    if len(changes) > 2:
        return f"{changes[-2]}, then {changes[-1]} (the last 2 of {len(changes)} events)"
    return ", then ".join(changes) or "the game moved on"


async def rebase(
    svc: TableService, live: LiveTable, seat: int, move: Any, expected_version: Any, refusal: RefusalFacts
) -> tuple[RefusalFacts | None, Any, Spent | None]:
    """Check a move decided on an older version against the state it would be applied to.

    The move is read as it was meant then (a move id in the list of then); it is played if it is legal now
    and means the same (``Game.move_basis`` is equal then and now). A move whose work others' acts already
    did (``Game.overtaken``: a pass whose change was answered, a refusal of a price already off the table) is
    spent: nothing is played and the seat is told so. A move that cannot be played now only because an
    interruption that opened since asks the seat first (``Game.interlude``: a stop window) is queued until it is
    over (:func:`.queued.queue`). Otherwise the refusal says in one sentence what changed. Games that do not say
    what their moves depend on keep ``refusal``. Returns ``(None, move, None)`` to play, ``(None, move, Spent)``
    for a spent or queued move, or ``(refusal, None, None)``.

    Raises:
        IllegalMove, InvalidMove: a stored move does not replay (a corrupted store).
    """
    decided = decided_on(svc, live, seat, move, expected_version)
    game = live.game
    if decided is None or not _rebases(game) or decided > live.version:
        return refusal, None, None
    old = await state_at(svc, live, decided)
    then = game.legal_moves(old, seat) if seat in game.pending(old).seats else []
    chosen: Any = None
    m = _MOVE_ID.fullmatch(move.strip()) if isinstance(move, str) else None
    if m is not None:
        k = int(m.group(1))
        chosen = then[k - 1] if k <= len(then) else None
    elif isinstance(move, str | dict):
        with contextlib.suppress(InvalidMove, ValueError, KeyError, TypeError, IndexError):
            chosen = game.parse_move(move)
    if chosen is None or chosen not in then:
        return refusal, None, None  # not a move of then: nothing to keep
    now = live.cache(seat).moves
    legal = chosen in now
    if legal and game.move_basis(old, seat, chosen) == game.move_basis(live.state, seat, chosen):
        return None, chosen, None
    what = await what_changed(svc, live, seat, decided)
    spent = game.overtaken(old, live.state, seat, chosen)
    if spent is not None:
        after = "decide from the moves listed now" if now else "wait_for_turn waits for your next decision"
        return (
            None,
            chosen,
            Spent(
                f"your '{chosen.text()}' decided at version {decided} was overtaken, not refused: since then "
                f"{what}, so {spent}. Nothing was stored; {after}.",
                decided,
            ),
        )
    if not legal and queued.queueable(live, seat, old, chosen):
        return None, chosen, Spent(queued.queue(live, seat, chosen, decided, old, what), decided, queued=True)
    if legal:
        why = "would now answer something else; decide again from the moves listed now"
    elif now:
        why = "can no longer be played; decide again from the moves listed now"
    else:
        why = "can no longer be played, and the decision is not yours now (wait_for_turn waits for it)"
    return (
        RefusalFacts(
            refusal.kind, f"you decided '{chosen.text()}' at version {decided}, but since then {what}, so it {why}."
        ),
        None,
        None,
    )

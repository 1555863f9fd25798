"""The one write path: a turn's moves and events, stored in one transaction and applied to the live table.

Every change to a playing table (an agent's move: :func:`play_once`; the bots' moves: :func:`.bots.drive`; a
clock timeout: :func:`.clock.timeout`; a seat handed to a bot: :func:`.clock.hand_revoked`) goes through
:func:`commit`, which stores the turn (:class:`~club_agentes.mcp_server.store.tables.Append`) and then applies
it to the table in memory with :meth:`.live.LiveTable.apply`, the only way a live table changes.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from club_agentes.engine.core import IllegalMove, InvalidMove, Pending
from club_agentes.mcp_server.eventrow import EventRow, event_rows
from club_agentes.mcp_server.store.tables import (
    Append,
    StaleVersion,
)
from club_agentes.mcp_server.tables import bots, queued, reading, rebase
from club_agentes.mcp_server.tables.common import _MOVE_ID, HOLD_S, MOVE_ATTEMPTS, _charged_ms
from club_agentes.mcp_server.tables.config import MAX_WAIT_S, TableError
from club_agentes.mcp_server.tables.facts import (
    MoveFacts,
    MoveResult,
    RefusalFacts,
)
from club_agentes.mcp_server.tables.lanes import (
    restorable,
    result_json,
)
from club_agentes.mcp_server.tables.live import (
    LiveTable,
    SeatCache,
    Seen,
    says_touched,
    seat_changed,
)

from club_agentes.errors import Refused

if TYPE_CHECKING:
    from club_agentes.mcp_server.tables.service import TableService

log = logging.getLogger("club_agentes.tables")


def decision_meta(
    svc: TableService, live: LiveTable, pending: Pending, prev: Pending | None, bot_seats: Mapping[int, str], now: float
) -> tuple[str | None, float | None]:
    """Return who decides next (``agent``/``bot``) and when the agents' clock runs out."""
    if pending.kind == "over":
        return None, None
    waiting_on = "bot" if any(s in bot_seats for s in pending.seats) else "agent"
    timeout = live.opts.decision_timeout_s
    agents = [s for s in pending.seats if s not in bot_seats]
    if timeout is None or not agents:
        return waiting_on, None
    if (
        prev is not None
        and live.deadline_at is not None
        and pending.kind == "simultaneous"
        and prev.kind == "simultaneous"
        and set(pending.seats) <= set(prev.seats)
    ):
        return waiting_on, live.deadline_at  # the same sealed choice goes on: same clock for everyone
    return waiting_on, now + timeout


async def commit(
    svc: TableService,
    live: LiveTable,
    base: int,
    prev: Pending | None,
    moves: list[tuple[int, Any, str]],
    events: list[EventRow],
    *,
    timeouts: Mapping[int, int] | None = None,
    handed: Mapping[int, str] | None = None,
    bot_cpu_s: float = 0.0,
) -> None:
    """The one write path: store a turn (moves already applied to ``live.state``, with everything they cause)
    as one :class:`Append`, then apply it to the live table (:meth:`LiveTable.apply`).

    ``events`` are the rows of everything the turn caused, in order, numbered on from ``live.event_count``
    (:func:`~club_agentes.mcp_server.eventrow.event_rows`); the store takes them there and the live tail keeps them.

    Every move goes through here: an agent's (:func:`play_once`), the bots' (:func:`.bots.apply_lane_moves`),
    the clock's (:func:`.clock.clock_plays`), and a seat handed to a bot (:func:`.clock.hand_revoked`). Call
    with the table's lock held. Readers wait while the store takes the turn (:meth:`LiveTable.settled`). On
    failure the live table is dropped (its state is ahead of the store) and the error propagates. A write
    without moves is guarded by the table's revision and keeps the decision clock's deadline.

    Raises:
        StaleVersion: another write reached the table first.
    """
    live.begin_write()
    revision: int | None = None
    try:
        append, seen = _append(
            svc, live, base, prev, moves, events, dict(timeouts or {}), dict(handed or {}), bot_cpu_s
        )
        news = live.news
        revision = await svc.store.run(svc.store.tables.append, append)
        svc.moves_applied += len(moves)
        live.apply(append, revision, seen=seen)
        live.synced = max(live.synced, news)  # the store took it at the revision the table was at: nothing newer
    except BaseException:
        svc._live.drop(live.id)
        raise
    finally:
        live.end_write(revision)
    await queued.settle(svc, live, base)  # issue 25: acts queued behind an interruption this write may have ended


def _append(
    svc: TableService,
    live: LiveTable,
    base: int,
    prev: Pending | None,
    moves: list[tuple[int, Any, str]],
    events: list[EventRow],
    timeouts: dict[int, int],
    handed: dict[int, str],
    bot_cpu_s: float,
) -> tuple[Append, Seen]:
    """Return the write of a turn: its moves and events, the status, clock and result they leave, and the seats
    whose version moves, with the seats' cached views after it (:func:`seat_versions`)."""
    game, state = live.game, live.state
    now = svc._clock()
    version = base + len(moves)
    pending = game.pending(state)
    over = pending.kind == "over"
    bot_seats = {**live.bots(), **handed}
    waiting_on, deadline = decision_meta(svc, live, pending, prev, bot_seats, now)
    if not moves and deadline is not None and live.deadline_at is not None:
        deadline = live.deadline_at  # nothing was played: the clock of whoever still decides goes on
    seen = seat_versions(live, prev, pending, version, moves)
    result = result_json(game.result(state)) if over else None
    every = svc.settings.snapshot_every
    snapshot: tuple[int, int, dict[str, Any], dict[str, Any]] | None = None
    if restorable(game) and moves and (over or version // every > base // every):
        try:
            snapshot = (version, game.snapshot_version, game.snapshot(state), {})
        except Exception:  # a snapshot is an optimisation: the moves are stored all the same
            log.exception("engine defect: %s snapshot() at table %s", live.row.game, live.id)
    append = Append(
        table_id=live.id,
        base_version=base,
        moves=[(seat, m.to_json(), actor, now) for seat, m, actor in moves],
        events=events,
        status="finished" if over else "playing",
        result=result,
        waiting_on=waiting_on,
        deadline_at=deadline,
        seat_versions=seen.changed,
        timeouts=timeouts,
        handed=handed,
        snapshot=snapshot,
        bot_cpu_ms=_charged_ms(bot_cpu_s),
        now=now,
        revision=None if moves else live.revision,
    )
    return append, seen


def seat_versions(
    live: LiveTable, prev: Pending | None, pending: Pending, version: int, moves: Sequence[tuple[int, Any, str]]
) -> Seen:
    """Return the seats whose version moves to ``version`` with this write, and keep their caches current.

    At a game that says which seats each move reaches (``Game.touched``), from what the write knows: the seats
    that moved, the seats its moves reach and those whose part in the pending decision changed (:func:`reach`);
    no view is computed, and what a seat sees is computed when it reads (:meth:`LiveTable.cache`). Otherwise a
    seat that moved sees something new (its own move), and a seat that has not read since its version last
    moved (:attr:`LiveTable.unseen`) moves at every write: both without computing their view; for any other
    seat what it sees now is compared with what it saw before (:func:`~.live.seat_changed`). Each seat's cache
    in the answer is valid for what it sees at ``version``.
    """
    reached = reach(live, prev, pending, moves)
    if reached is not None:
        if not moves:  # nothing played: the state, and what each seat sees, stay as they were
            return Seen({seat: version for seat in reached if seat in live.claims}, dict(live.caches), set(live.unseen))
        return Seen({seat: version for seat in live.claims if seat in reached}, {}, set())
    changed: dict[int, int] = {}
    unseen = live.unseen | {seat for seat, _m, _a in moves}
    caches: dict[int, SeatCache] = {}
    for seat in live.claims:
        if seat in unseen:
            changed[seat] = version
            continue
        old = live.caches.get(seat)
        new = seat_changed(live.game, live.state, seat, pending, old)
        if new is not None:
            changed[seat] = version
            caches[seat] = new
        elif old is not None:
            caches[seat] = old
    return Seen(changed, caches, unseen & set(live.claims))


def reach(
    live: LiveTable, prev: Pending | None, pending: Pending, moves: Sequence[tuple[int, Any, str]]
) -> set[int] | None:
    """Return the seats whose view this write may change, from what it knows, or ``None`` when only comparing the
    views can tell (the game does not say, ``Game.touched``, for one of the moves).

    That is the seats that moved, those each move reaches (``Game.touched``) and those whose part in the pending
    decision (deciding or not, and the kind and prompt of the decision) differs before and after the write
    (every seat when the decision before is not known). Raises nothing but the engine's defects.
    """
    game = live.game
    if not says_touched(game):
        return None
    out: set[int] = set()
    for seat, move, _actor in moves:
        touched = game.touched(live.state, seat, move)
        if touched is None:
            return None
        out.add(seat)
        out.update(touched)
    if prev is None:
        out.update(live.claims)
    elif prev != pending:
        out.update(s for s in live.claims if _part(prev, s) != _part(pending, s))
    return out


def _part(pending: Pending, seat: int) -> tuple[str, str] | None:
    """Return ``seat``'s part in a pending decision: its kind and prompt when the seat decides, else ``None``."""
    return (pending.kind, pending.prompt) if seat in pending.seats else None


async def play(
    svc: TableService,
    table_id: str,
    token: str,
    move: str | dict[str, Any],
    expected_version: int | None,
    wait_s: float,
    agent: str | None,
) -> MoveResult:
    """:meth:`TableService.play`: check the arguments, then hold the move while other seats briefly interrupt
    the decision (:func:`.rebase.hold`) and play it (:func:`play_once`).

    Raises:
        TableError: unknown table, bad token, a token of another agent's seat, a bad ``wait_s`` or
            ``expected_version`` (not a whole number: a boolean is refused, never read as 1).
    """
    if isinstance(expected_version, bool) or not isinstance(expected_version, int | None):
        raise TableError(
            "expected_version must be a whole number (the version or seat_version you decided on), "
            f"not {str(expected_version)[:40]!r}"
        )
    if isinstance(wait_s, bool) or not isinstance(wait_s, int | float) or not 0 <= wait_s <= MAX_WAIT_S:
        raise TableError(f"wait_s must be from 0 to {MAX_WAIT_S:g} seconds, not {str(wait_s)[:20]}")
    until = time.monotonic() + HOLD_S
    while True:
        await rebase.hold(svc, table_id, token, move, expected_version, until, agent)
        result = await play_once(svc, table_id, token, move, expected_version, wait_s, agent, until)
        if result is not None:
            return result


async def play_once(
    svc: TableService,
    table_id: str,
    token: str,
    move: str | dict[str, Any],
    expected_version: int | None,
    wait_s: float,
    agent: str | None,
    until: float,
) -> MoveResult | None:
    """:meth:`play` once; ``None`` when the move is to be held again (another interruption came first).

    When another worker's write wins the race to the store, the move is tried again (at most
    ``MOVE_ATTEMPTS`` times) against the table as it now stands, checked at the seat version it was
    decided on, so only a move whose situation still stands (or that still means the same) is applied.

    Raises:
        TableError: unknown table, bad token or a token of another agent's seat.
    """
    decided_at: int | None = None
    stale: StaleVersion | None = None
    spent: rebase.Spent | None = None
    # The first look may skip reading the table's head (PostgreSQL, nothing says another worker wrote since this
    # process last read or wrote it: TableService._sync with trust). Then the table may be behind the store by a
    # write whose NOTIFY is on its way: before anything is refused, and when the store refuses the write for
    # being behind, the head is read and the move looked at again as if it had just arrived.
    trust = True
    attempt = 0
    while attempt < MOVE_ATTEMPTS:
        async with svc._locked(table_id, trust=trust) as live:
            unconfirmed, trust = live.unconfirmed, False
            try:
                seat = reading.seat_of(svc, live, token, agent)
            except TableError:
                if unconfirmed:
                    continue  # a seat taken through another worker, say: read the store
                raise
            if decided_at is None:
                sent, sent_version = move, expected_version
                refusal, parsed = check_move(svc, live, seat, move, expected_version)
                decided_at = live.seat_versions.get(seat, live.version)
            else:
                # Another worker wrote first: the move stands if the seat's situation did not change since
                # it was decided (another seat's sealed choice, say), exactly as on one worker.
                sent, sent_version = parsed.to_json(), decided_at
                refusal, parsed = check_move(svc, live, seat, sent, sent_version)
            if refusal is not None and unconfirmed:
                decided_at = None
                continue
            if refusal is not None and refusal.kind in ("stale_version", "stale_move_id"):
                if attempt == 0 and time.monotonic() < until and rebase.held(svc, live, seat, move, expected_version):
                    return None
                refusal, parsed, spent = await rebase.rebase(svc, live, seat, sent, sent_version, refusal)
            if refusal is not None:
                return MoveResult(False, await reading.seat_state(svc, live, seat), refusal=refusal)
            if spent is not None:
                break  # answered after the table's lock is let go
            game = live.game
            prev = live.pending()
            base = live.version
            live.ensure_caches()
            played = reading.played_facts(svc, live, seat, parsed)
            try:
                events = game.apply(live.state, seat, parsed)
            except IllegalMove as exc:
                if unconfirmed:
                    decided_at = None
                    continue
                refused = replace(reading.rule_refusal(svc, exc), move_type=getattr(parsed, "type", None))
                return MoveResult(False, await reading.seat_state(svc, live, seat), refusal=refused)
            except InvalidMove as exc:
                if unconfirmed:
                    decided_at = None
                    continue
                return MoveResult(
                    False,
                    await reading.seat_state(svc, live, seat),
                    refusal=reading.unparsed(svc, live, seat, move, str(exc)),
                )
            except Exception:
                svc._live.drop(table_id)  # the state may be half-changed: reload it from the store
                log.exception("engine defect: %s apply(seat %d, %s) at table %s", live.row.game, seat, parsed, table_id)
                raise
            rows = event_rows(events, base + 1, live.event_count)
            claim = live.claims[seat]
            stale = None
            try:
                await commit(
                    svc, live, base, prev, [(seat, parsed, "agent")], rows, timeouts={seat: 0} if claim.timeouts else {}
                )
                written = svc.written(live)
            except StaleVersion as exc:
                if unconfirmed:
                    decided_at = None  # decided on a table behind the store: look at the move again
                    continue
                stale = exc
        if stale is None:
            break
        attempt += 1
    if spent is not None:
        return await answer_spent(svc, table_id, token, seat, parsed, spent, wait_s, agent)
    if stale is not None:
        fresh = await svc._fresh(table_id)
        return MoveResult(
            False,
            await reading.seat_state(svc, fresh, seat),
            refusal=RefusalFacts(
                "stale_version",
                f"another move reached table {table_id} first (it is at version {stale.current}); "
                "look at the new situation and decide again.",
            ),
        )
    await bots.after_write(svc, live)
    # The answer is read without the table's head when nothing says another worker wrote since (_unmoved).
    if wait_s > 0:
        # Over the agent's long-poll limit (Refused) the move stands all the same: it is answered at once below.
        with contextlib.suppress(Refused):
            waited = await svc.wait(table_id, token, wait_s, since=base, agent=agent, written=written)
            return MoveResult(True, waited.state, played=played, played_version=base + 1)
    fresh = await svc._fresh(table_id, written)
    return MoveResult(
        True, await reading.seat_state(svc, fresh, seat, since=base), played=played, played_version=base + 1
    )


async def answer_spent(
    svc: TableService,
    table_id: str,
    token: str,
    seat: int,
    move: Any,
    spent: rebase.Spent,
    wait_s: float,
    agent: str | None,
) -> MoveResult:
    """The answer to a move that others' acts made spent (:func:`.rebase.rebase`): nothing stored; the seat's
    state now, with the events since the version it was decided on, after waiting up to ``wait_s`` for the
    seat's next decision when it is not the seat's now.

    Raises:
        TableError: unknown table, bad token or a token of another agent's seat.
    """
    decided = spent.decided
    overtaken, queued_why = (None, spent.why) if spent.queued else (spent.why, None)  # issue 25: queued acts
    played = MoveFacts("", move.text(), move.to_json(), move.text())
    if wait_s > 0:
        with contextlib.suppress(Refused):
            waited = await svc.wait(table_id, token, wait_s, since=decided, agent=agent)
            return MoveResult(True, waited.state, played=played, overtaken=overtaken, queued=queued_why)
    fresh = await svc._fresh(table_id)
    return MoveResult(
        True,
        await reading.seat_state(svc, fresh, seat, since=decided),
        played=played,
        overtaken=overtaken,
        queued=queued_why,
    )


def check_move(
    svc: TableService, live: LiveTable, seat: int, move: Any, expected_version: int | None
) -> tuple[RefusalFacts | None, Any]:
    """Return ``(refusal, None)`` or ``(None, parsed move)``."""
    if live.status == "waiting":
        return RefusalFacts(
            "not_started", f"the game has not started: agent seats {live.open_seats()} are still open."
        ), None
    if live.status in ("finished", "aborted"):
        return RefusalFacts("game_over", "the game is over; game_log(table_id) shows how it went."), None
    bot = live.bot_kind(seat)
    if bot is not None:
        return RefusalFacts(
            "not_your_decision",
            f"your seat is played by bot:{bot} for the rest of the game: its decision clock ran out "
            f"{live.opts.max_timeouts} times in a row.",
        ), None
    seat_version = live.seat_versions.get(seat, live.version)
    if expected_version is not None:
        if expected_version > live.version:
            return RefusalFacts(
                "stale_version",
                f"you expected version {expected_version} but the table is only at version {live.version}.",
            ), None
        if expected_version < seat_version:
            return RefusalFacts(
                "stale_version",
                f"you decided at version {expected_version} but what your seat sees changed at version "
                f"{seat_version}; look at the new situation and decide again.",
            ), None
    if isinstance(move, str):
        m = _MOVE_ID.fullmatch(move.strip())
        if m:
            cache = live.cache(seat)
            if not cache.moves:
                d = reading.decision_of(svc, live, seat)
                who = ", ".join(f"seat {s}" for s in d.seats) or "nobody"
                return RefusalFacts(
                    "not_your_decision",
                    f"it is not your decision now ({who} must decide: {d.prompt}); call wait_for_turn.",
                ), None
            listed = live.listed.get(seat)
            if expected_version is None and listed is not None and listed != seat_version:
                return RefusalFacts(
                    "stale_move_id",
                    f"move id {move.strip()} was listed at version {listed}, but what your seat sees changed at "
                    f"version {seat_version}; use an id from the legal moves listed now.",
                ), None
            k = int(m.group(1))
            if k > len(cache.moves):
                return reading.unparsed(
                    svc,
                    live,
                    seat,
                    move,
                    f"there is no move {move.strip()}; the legal move ids now are m1 to m{len(cache.moves)}",
                ), None
            return None, cache.moves[k - 1]
    if not isinstance(move, str | dict):
        return reading.unparsed(
            svc, live, seat, move, "a move is a legal move id such as 'm1', its text, or its JSON"
        ), None
    try:
        return None, live.game.parse_move(move)
    except (InvalidMove, ValueError, KeyError, TypeError, IndexError) as exc:
        return reading.unparsed(svc, live, seat, move, str(exc) or "the move cannot be read"), None

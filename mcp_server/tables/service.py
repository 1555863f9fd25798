"""The table service: lifecycle, seats and tokens, moves, bots, the decision clock, logs and listings.

It returns plain data (:mod:`~club_agentes.mcp_server.tables.facts`); the presenter shapes it for MCP. Every
refusal the caller can fix is a :class:`TableError` (a :class:`~club_agentes.errors.Refused`); a move that breaks
a rule is not an error but a :class:`~club_agentes.mcp_server.tables.facts.MoveResult` with ``accepted=False``.

How a table lives:

* **Storage**: every change is one transaction of the store that writes what it causes with it
  (a claim and the ``playing`` status; the last moves, ``finished`` and the result; a timeout and
  the seat handed to a bot) and bumps the table's revision. Nothing acknowledged is held only in
  memory. **Every move goes through one function**, :func:`.turn.commit`: it stores the turn (one
  ``Append``: the moves and the events they cause) and then applies it to the live table with
  :meth:`.live.LiveTable.apply`, the one way moves reach a table in memory (catch-up uses it too). Store
  calls go through the store's async boundary, ``await store.run(...)`` (a thread on PostgreSQL).
* **Several processes** may serve one store: before answering, a process compares the table's stored revision
  with its own (not read on SQLite while ``PRAGMA data_version`` says no other connection committed:
  ``TableStore.known_current``, nor for the answer to a write of its own; on PostgreSQL not for a move's first
  look and the move's own answer while no other worker's ``NOTIFY`` came since this process last read or wrote
  the table: :meth:`TableService._sync`, :meth:`TableService._unmoved`) and applies only the moves it misses;
  writes carry the version they were decided on, so the loser of a race gets ``stale_version``.
  ``wait_for_turn`` wakes on ``LISTEN`` or polls (SQLite).
* **Per-seat versions** (:func:`.turn.seat_versions`, from ``Game.touched`` or by comparing views) move only
  when what the seat sees changes: another seat's sealed choice never makes ``expected_version`` stale, and
  move ids stay valid while ``seat_version`` stands. A move decided on an older version is still played
  when it is legal now and means the same (``Game.move_basis``), and one sent while other seats briefly
  interrupt the decision (``Game.interlude``) waits for them.
* **Bots** play in lanes off the event loop (:mod:`.lanes`): after an agent's move (waiting a moment so that
  quick bot replies come in the same answer), and in the background for bots-only tables, under a per-table
  CPU budget; the number of lanes bounds bot work overall.
* **The decision clock**: a table with ``decision_timeout_s`` gives each decision of an agent seat that many
  seconds (the deadline is stored, so every worker enforces it, and after a restart too); when it runs out
  the rules' default move (``Game.default_move``) or else the heuristic bot's is played for the seat and
  logged as a timeout; after ``max_timeouts`` in a row a bot takes the seat over.
* **Seats belong to agents**: a seat token is compared with the table's in constant time, then its seat's agent
  with the caller's; a token used by another agent is refused before anything is read. The sweeper hands the
  seats of revoked agents to ``bot:heuristic`` (one guarded write; any worker).
* **Start**: :meth:`TableService.start` runs the sweeper at once, and one worker of those starting together
  resumes bot tables and enforces clocks that ran out while none ran.
* **Memory**: live tables are a bounded cache (:class:`~.live.LiveTables`) reloaded from the latest snapshot
  plus the moves after it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Coroutine, Mapping
from typing import Any

from club_agentes.engine.core import Game, UnknownGame, get_game
from club_agentes.mcp_server.store import Store
from club_agentes.mcp_server.store.db import Tx
from club_agentes.mcp_server.tables import bots, clock, gamelog, listing, reading, seating, turn
from club_agentes.mcp_server.tables.catchup import Behind, apply_behind, read_behind, read_fresh
from club_agentes.mcp_server.tables.common import (
    _TABLE_ID,
    MAX_LIST_PAGE,
    MAX_LOG_PAGE,
    PassVerifier,
    TableLimits,
    _Bucket,
    _version_arg,
)
from club_agentes.mcp_server.tables.config import MAX_WAIT_S, TableError, TableSettings
from club_agentes.mcp_server.tables.facts import Created, Joined, LogPage, MoveResult, SeatState, TablePage, WaitOutcome
from club_agentes.mcp_server.tables.lanes import Lanes, shared_lanes
from club_agentes.mcp_server.tables.live import LiveTable, LiveTables, Written, backfill_old_tables, load_table
from club_agentes.mcp_server.tables.notify import Listener, table_payload
from club_agentes.rules_corpus import Corpus

__all__ = ["MAX_LIST_PAGE", "MAX_LOG_PAGE", "PassVerifier", "TableLimits", "TableService"]

log = logging.getLogger("club_agentes.tables")


class TableService:
    """Creates tables, seats agents, applies moves, runs bots and the clock, answers views, logs and listings."""

    def __init__(
        self,
        store: Store,
        corpus: Corpus,
        verifier: PassVerifier,
        *,
        games: Callable[[str], Game] = get_game,
        clock: Callable[[], float] = time.time,
        limits: TableLimits | None = None,
        settings: TableSettings | None = None,
        lanes: Lanes | None = None,
    ) -> None:
        """Build the service.

        ``games`` resolves game ids (default: the installed games); with another resolver bots run in
        a thread lane of this process. ``limits`` (default none) sets the quotas on tables created,
        open tables and concurrent long-polls. ``settings`` default to :meth:`TableSettings.from_env`. Tables
        stored before events were kept get their events here, once (:func:`~.live.backfill_old_tables`).

        Raises:
            TableError: a ``CLUB_AGENTES_*`` table setting has a bad value.
        """
        self.store = store
        self.corpus = corpus
        self.verifier = verifier
        self.limits = limits
        self.settings = settings if settings is not None else TableSettings.from_env()
        self._games = games
        self._clock = clock
        if lanes is not None:
            self.lanes = lanes
        elif games is get_game and self.settings.bot_workers > 0:
            self.lanes = shared_lanes(self.settings.bot_workers)
        else:
            self.lanes = Lanes(0, resolve=games)
        self._live = LiveTables(self.settings.max_live_tables)
        self._loading: dict[str, asyncio.Future[LiveTable]] = {}
        self._drivers: dict[str, asyncio.Task[None]] = {}
        self._buckets: dict[str, _Bucket] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self.moves_applied = 0
        """Moves this worker applied and stored (for its metrics)."""
        self._loop: asyncio.AbstractEventLoop | None = None
        self._listener: Listener | None = None
        self._channel = store.tables.tables_channel()
        backfill_old_tables(store, games)
        self._past: OrderedDict[tuple[str, int], Any] = OrderedDict()

    # ------------------------------------------------------------------ lifecycle

    def _ensure_started(self) -> None:
        """Start the background work (clock and bot sweeper, PostgreSQL listener) in the running loop."""
        loop = asyncio.get_running_loop()
        if self._loop is loop:
            return
        self._loop = loop
        self._spawn(clock.sweep_forever(self), "table sweeper")
        channel = self._channel
        if channel is not None:
            if self._listener is not None:
                self._listener.stop()
            self._listener = Listener(self.store, channel, loop, self._on_notify, self._on_listening)
            self._listener.start()

    async def start(self) -> None:
        """Start the background work now, at the server's start, without waiting for a client call.

        The clock and the bot sweeper start on this loop; then, once per start of the club (one worker
        of several claims it, under a lock of the store: :meth:`TableStore.claim_resume`), every bots-only or
        bot-to-move table is resumed and every decision clock that ran out while no worker ran is
        enforced. Errors are logged: the server serves all the same (the sweeper retries).
        """
        self._ensure_started()
        self._spawn(clock.resume(self), "table resume")

    def _spawn(self, coro: Coroutine[Any, Any, Any], name: str) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coro, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def aclose(self) -> None:
        """Stop the background work (bots in flight stop at their next step)."""
        if self._listener is not None:
            self._listener.stop()
            self._listener = None
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task
        self._loop = None

    def _on_notify(self, payload: str) -> None:
        table_id, revision = table_payload(payload)
        live = self._live.peek(table_id)
        if live is not None:
            live.heard(revision)

    def _on_listening(self) -> None:
        """The listener's ``LISTEN`` is in place (again): notifications sent while it was not may be lost, so
        every waiter re-reads the store once."""
        self._live.wake_all()

    @property
    def live_tables(self) -> int:
        """How many tables this process holds in memory."""
        return len(self._live)

    def load(self) -> dict[str, int]:
        """Return this worker's load for its metrics: live tables, waiters, bot work queued on the lanes."""
        return {"live_tables": len(self._live), "waiters": self._live.waiters(), "lane_queue": self.lanes.queued}

    def live(self, table_id: str) -> LiveTable | None:
        """Return the live table of this process, if it holds it (for tests and tools that inspect)."""
        return self._live.peek(table_id)

    # ------------------------------------------------------------------ loading

    def _game(self, game_id: str) -> Game:
        try:
            return self._games(game_id)
        except UnknownGame as exc:
            raise TableError(str(exc)) from None

    def _unknown(self, table_id: str) -> TableError:
        shown = table_id[:40] if isinstance(table_id, str) else type(table_id).__name__
        return TableError(f"unknown table {shown!r}; list_tables shows the existing tables")

    async def _get(self, table_id: str) -> LiveTable:
        """Return the live table (loading it if needed), without checking the store's revision.

        Raises:
            TableError: unknown table.
        """
        self._ensure_started()
        if not isinstance(table_id, str) or not _TABLE_ID.fullmatch(table_id):
            raise self._unknown(table_id)
        live = self._live.get(table_id)
        if live is not None:
            return live
        pending = self._loading.get(table_id)
        if pending is None:
            pending = asyncio.get_running_loop().create_future()
            self._loading[table_id] = pending
            try:
                loaded = await self.store.run(load_table, self.store, self._game, table_id)
                if loaded is None:
                    raise self._unknown(table_id)
                self._live.put(loaded)
                pending.set_result(loaded)
            except BaseException as exc:
                pending.set_exception(exc)
                raise
            finally:
                self._loading.pop(table_id, None)
                if pending.done() and not pending.cancelled():
                    pending.exception()  # mark retrieved
            if loaded.status == "playing" and loaded.waiting_on == "bot":
                bots.kick(self, table_id)
            return loaded
        return await asyncio.shield(pending)

    async def _sync(self, live: LiveTable, *, stale: bool = False, trust: bool = False) -> bool:
        """Catch ``live`` up with the store under its lock (``stale``: a newer revision was just read); False: reload.

        ``trust`` (a move's first look, :func:`.turn.play_once`): on PostgreSQL, skip reading the head while no
        other worker's ``NOTIFY`` came since this process last read it or wrote (:attr:`LiveTable.synced`), and
        mark ``live`` :attr:`~LiveTable.unconfirmed`; the caller reads it (``_sync`` again) before it refuses
        anything, and a write on a table that moved meanwhile fails on the store's revision as any race does.

        Raises:
            TableError: the table no longer exists.
        """
        live.unconfirmed = False
        if not stale and self.store.tables.known_current(live.id, live.revision):
            return True  # SQLite: nobody else wrote since this process last wrote or read this revision
        if trust and not stale and live.synced == live.news and self._listening():
            live.unconfirmed = True
            return True
        behind: Behind | bool | None
        seen = (self.store, live.id, live.version, live.revision, live.event_count)
        news = live.news
        if stale:
            behind = await self.store.run(read_behind, *seen)
        else:  # the head, and what is missed when it moved, in one trip
            head, behind = await self.store.run(read_fresh, *seen)
            if head is None:
                self._live.drop(live.id)
                raise self._unknown(live.id)
        if not self._catch_up(live, behind):
            return False
        live.synced = max(live.synced, news)
        return True

    def _listening(self) -> bool:
        """Return whether this process's PostgreSQL listener is in place (other workers' writes wake it)."""
        listener = self._listener
        return listener is not None and listener.ready.is_set()

    def _catch_up(self, live: LiveTable, behind: Behind | bool | None) -> bool:
        """Apply what :func:`read_fresh` (or :func:`read_behind`) read to ``live`` (``False``: nothing to apply);
        ``False`` when the live state cannot follow the store (the caller reloads the table)."""
        if behind is None:
            return False
        if isinstance(behind, Behind):
            apply_behind(live, behind)
        return True

    async def _fresh(self, table_id: str, written: Written | None = None) -> LiveTable:
        """Return the live table at the store's latest revision (``written``: see :meth:`written`).

        Raises:
            TableError: unknown table.
        """
        for _ in range(3):
            live = await self._get(table_id)
            await live.settled()
            if live.writing is None and (
                self._unmoved(live, written) or self.store.tables.known_current(table_id, live.revision)
            ):
                return live  # as in _sync
            seen = (live.version, live.revision, live.event_count)
            news = live.news
            head, behind = await self.store.run(read_fresh, self.store, table_id, *seen)
            if head is None:
                self._live.drop(table_id)
                raise self._unknown(table_id)
            if head.revision == live.revision and live.writing is None:
                live.synced = max(live.synced, news)
                return live
            async with live.lock:
                if self._live.peek(table_id) is live and (
                    live.revision == head.revision
                    or (  # what was read applies only to the table as it was when read
                        self._catch_up(live, behind)
                        if behind is not False and seen == (live.version, live.revision, live.event_count)
                        else await self._sync(live, stale=True)
                    )
                ):
                    live.synced = max(live.synced, news)
                    return live  # caught up, here or meanwhile by another caller
            self._live.drop(table_id)
        return await self._get(table_id)

    def written(self, live: LiveTable) -> Written:
        """Return the mark of a write this request just made to ``live`` (call right after :func:`.turn.commit`),
        for the read of the same request's answer (:meth:`wait`, :meth:`_fresh`). Raises nothing."""
        return Written(live, live.news)

    def _unmoved(self, live: LiveTable, written: Written | None) -> bool:
        """Return whether the answer to the request that made ``written`` may be read from ``live`` without
        reading the table's head from the store.

        True while ``live`` is the table this request wrote to and, on PostgreSQL, no other worker's ``NOTIFY`` of
        a newer revision has reached this process since (:attr:`LiveTable.news`) and the listener is in place. The
        request's own move is then in ``live`` (read-your-writes), and so is every write stored before it (the
        store took the move only at the revision ``live`` was at). A write another worker stores after it can
        be missed only while its ``NOTIFY`` is on its way: a waiter subscribed before this check, so that
        ``NOTIFY`` wakes it (the same rule as every sleep of :meth:`wait`), and an answer given now shows the
        table as it was when the request's move was stored, a moment of the request's own.

        On SQLite the same holds without a listener: the write was checked against the stored row under the
        file's write lock, so ``live`` is the store as of that commit. A commit by another connection after it
        is found by the next read of ``PRAGMA data_version`` (:meth:`.TableStore.known_current`) or the
        waiter's poll, as one made just after the check would be; skipping that read here saves one statement
        per answer. Raises nothing.
        """
        if written is None or written.live is not live or written.news != live.news:
            return False
        return self._listening() or self.store.db.dialect == "sqlite"

    @contextlib.asynccontextmanager
    async def _locked(self, table_id: str, *, trust: bool = False) -> AsyncIterator[LiveTable]:
        """Hold a table's lock with the table at the store's latest revision (``trust``: see :meth:`_sync`).

        Raises:
            TableError: unknown table.
        """
        for _ in range(5):
            live = await self._get(table_id)
            async with live.lock:
                if self._live.peek(table_id) is not live:
                    continue
                if not await self._sync(live, trust=trust):
                    self._live.drop(table_id)
                    continue
                try:
                    yield live
                finally:
                    live.unconfirmed = False
                return
        raise TableError(f"table {table_id} is changing too fast to be read; try again")

    # ------------------------------------------------------------------ creating and joining

    async def create(
        self,
        game_id: str,
        seats: list[str],
        options: Mapping[str, Any] | None,
        seed: int | None,
        *,
        creator: str | None = None,
        seated: Mapping[int, tuple[str, str]] | None = None,
        within: Callable[[Tx, str], None] | None = None,
    ) -> Created:
        """Create a table; a bots-only table starts playing in the background at once.

        A table with agent seats waits for them until ``waiting_expiry_s`` passes without a seat taken,
        then expires (see :meth:`tick`). ``seated`` (matchmaking: seat -> (agent, hash of its token))
        takes every agent seat at creation, in the same transaction, so the game starts at once;
        ``within(tx, table_id)`` runs first in that transaction (the matchmaker settles its seeks there) and may raise
        to store nothing.

        Raises:
            TableError: unknown game, bad seat list, bad options or seed, or ``seated`` not naming
                exactly the agent seats.
            Refused: a quota (tables per hour, open tables) is reached (with ``retry_after``).
            Exception: whatever ``within`` raises (nothing is stored then).
        """
        return await seating.create(self, game_id, seats, options, seed, creator=creator, seated=seated, within=within)

    async def seated(self, table_id: str, agent: str, seat: int, token: str) -> Joined:
        """Return the seat ``agent`` was given at creation (``create(seated=...)``) with its secret token.

        Raises:
            TableError: unknown table, or the seat is not ``agent``'s with that token.
        """
        return await seating.seated(self, table_id, agent, seat, token)

    async def join(self, table_id: str, agent: str, club_pass: str | None, seat: int | None) -> Joined:
        """Seat ``agent`` at an open agent seat and return its secret token.

        Raises:
            TableError: unknown table, a closed table (e.g. expired), no open seat, the agent already holds
                its seats here, or a refused club pass.
        """
        return await seating.join(self, table_id, agent, club_pass, seat)

    # ------------------------------------------------------------------ reading

    async def view(
        self, table_id: str, token: str, since: int | None = None, *, full: bool = False, agent: str | None = None
    ) -> SeatState:
        """Return what the token's seat may see now; never writes.

        ``since`` (a table or seat version from an earlier answer) selects the events after it; by
        default the events since the seat's own last move. ``full`` adds the engine's whole rendering.
        ``agent`` (the connection's; ``None`` for an in-process caller) must hold the token's seat.

        Raises:
            TableError: unknown table, bad token, a token of another agent's seat, or a bad ``since``.
        """
        since = _version_arg("since", since)
        live = await self._fresh(table_id)
        seat = reading.seat_of(self, live, token, agent)
        return await reading.seat_state(self, live, seat, since, full=full)

    async def wait(
        self,
        table_id: str,
        token: str,
        timeout_s: float,
        since: int | None = None,
        *,
        agent: str | None = None,
        written: Written | None = None,
    ) -> WaitOutcome:
        """Wait up to ``timeout_s`` (at most 60) seconds until the seat must decide or the game ends.

        The answer carries the decision and the legal moves (their ids usable at once). ``written``: the
        mark of the write the same request made just before (:meth:`written`; ``play_move`` with ``wait_s``).

        Raises:
            TableError: unknown table, bad token, a token of another agent's seat, a bad timeout or ``since``.
            Refused: the agent already holds as many long-polls as allowed.
        """
        if isinstance(timeout_s, bool) or not isinstance(timeout_s, int | float) or not 0 <= timeout_s <= MAX_WAIT_S:
            raise TableError(f"timeout_s must be from 0 to {MAX_WAIT_S:g} seconds, not {str(timeout_s)[:20]}")
        start = time.monotonic()
        since = _version_arg("since", since)
        # Subscribe before checking: a write (or a NOTIFY) from here on sets ``changed``, so a decision that
        # appears between the check and the sleep ends the sleep at once instead of being slept past.
        live = await self._get(table_id)
        changed = live.changed
        outcome, checked = await self._wait_check(table_id, token, timeout_s, since, start, agent, written)
        if outcome is not None:
            return outcome  # no long-poll held for an answer that needs no waiting
        hold: contextlib.AbstractAsyncContextManager[None] = contextlib.nullcontext()
        if self.limits is not None and agent is not None:
            hold = self.limits.ahold("long_poll", agent, timeout_s)
        async with hold:
            while True:
                if checked is live:  # else the table was replaced in memory meanwhile: subscribe to the new one
                    await self._sleep_on(live, changed, timeout_s - (time.monotonic() - start))
                # Woken with no NOTIFY since the table was last read or written here (by a write of this process,
                # or by the check's own catch-up, which sets the event it subscribed to): the table in memory is
                # the store's as far as anything says, and a NOTIFY still on its way wakes this waiter again
                # (:meth:`_unmoved`). A sleep that ran out reads the table's head, as a safety net.
                mark = Written(checked, checked.synced) if changed.is_set() else None
                live = checked
                changed = live.changed
                outcome, checked = await self._wait_check(table_id, token, timeout_s, since, start, agent, mark)
                if outcome is not None:
                    return outcome

    def _poll_s(self) -> float:
        """Return how long a waiter sleeps before it re-reads the store without a wake-up: long once the
        PostgreSQL listener is in place (a NOTIFY wakes it), ``poll_s`` without one or while it connects."""
        listener = self._listener
        if listener is None or not listener.ready.is_set():
            return self.settings.poll_s
        return max(self.settings.poll_s, 5.0)

    async def _sleep_on(self, live: LiveTable, changed: asyncio.Event, remaining: float) -> None:
        """Sleep until ``changed`` (taken from ``live`` before the caller's check) is set, at most ``remaining``
        seconds and one poll. Raises nothing (a timeout is how a sleep ends without a wake-up)."""
        live.waiters += 1
        try:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), timeout=max(0.0, min(remaining, self._poll_s())))
        finally:
            live.waiters -= 1

    async def _wait_check(
        self,
        table_id: str,
        token: str,
        timeout_s: float,
        since: int | None,
        start: float,
        agent: str | None,
        written: Written | None = None,
    ) -> tuple[WaitOutcome | None, LiveTable]:
        """Return wait_for_turn's answer if it is due now (a decision, the end, the timeout), with the table.

        Raises:
            TableError: unknown table, bad token, or a token of another agent's seat.
        """
        live = await self._fresh(table_id, written)
        seat = reading.seat_of(self, live, token, agent)
        waited = round(time.monotonic() - start, 3)
        if live.status in ("finished", "aborted"):
            return WaitOutcome(True, "game_over", waited, await reading.seat_state(self, live, seat, since)), live
        if reading.decision_of(self, live, seat).yours:
            return WaitOutcome(True, "your_decision", waited, await reading.seat_state(self, live, seat, since)), live
        if timeout_s - (time.monotonic() - start) <= 0:
            return WaitOutcome(False, "timeout", waited, await reading.seat_state(self, live, seat, since)), live
        return None, live

    async def log(
        self, table_id: str, token: str | None, cursor: str | None = None, limit: int = 200, *, agent: str | None = None
    ) -> LogPage:
        """Return one page of a table's log: public, a seat's, or (once the game is over) the full log
        (:func:`.gamelog.log`).

        Raises:
            TableError: unknown table, bad token, a token of another agent's seat, bad cursor or limit.
        """
        return await gamelog.log(self, table_id, token, cursor, limit, agent)

    async def list(
        self,
        game: str | None = None,
        status: str | None = None,
        *,
        open_seats: bool = False,
        agent: str | None = None,
        cursor: str | None = None,
        limit: int = 50,
    ) -> TablePage:
        """List tables newest first, a page at a time.

        ``open_seats`` keeps tables with a seat to take; ``agent`` those that agent created or sits at.

        Raises:
            TableError: unknown status or game, bad cursor or limit.
        """
        return await listing.list(self, game, status, open_seats=open_seats, agent=agent, cursor=cursor, limit=limit)

    # ------------------------------------------------------------------ playing

    async def play(
        self,
        table_id: str,
        token: str,
        move: str | dict[str, Any],
        expected_version: int | None = None,
        wait_s: float = 0.0,
        *,
        agent: str | None = None,
    ) -> MoveResult:
        """Validate and apply a move for the token's seat, then let bots reply (briefly waited for).

        A move that breaks a rule, names no legal move, comes too late (``expected_version``) or
        cannot be read is not applied: the result says ``accepted=False`` with the reason, the legal
        moves, and for unreadable text the closest legal moves and the accepted forms. With
        ``wait_s`` (at most 60 seconds), an accepted move's answer waits, as :meth:`wait` does, until
        the seat must decide again or the game ends, and lists everything that happened since the move
        (at once when the agent already holds as many long-polls as allowed: the move stands). A move
        decided before other seats briefly interrupted the decision waits for them (:meth:`_hold`).

        Raises:
            TableError: unknown table, bad token, a token of another agent's seat, a bad ``wait_s`` or
                ``expected_version`` (not a whole number: a boolean is refused, never read as 1).
        """
        return await turn.play(self, table_id, token, move, expected_version, wait_s, agent)

    # ------------------------------------------------------------------ the decision clock

    async def tick(self) -> None:
        """Do the periodic work once (:func:`.clock.tick`): play timed-out decisions, expire waiting tables,
        hand revoked agents' seats to a bot, resume stalled bots, drop idle tables."""
        await clock.tick(self)

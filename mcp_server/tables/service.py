"""The table service: lifecycle, seats and tokens, moves, bots, the decision clock, logs and listings.

It returns plain data (:mod:`~club_agentes.mcp_server.tables.facts`); the presenter shapes it for
MCP. Every refusal the caller can fix is a :class:`TableError` (a
:class:`~club_agentes.errors.Refused`); a move that breaks a rule is not an error but a
:class:`~club_agentes.mcp_server.tables.facts.MoveResult` with ``accepted=False``.

How a table lives:

* **Storage**: every change is one transaction of the store that writes what it causes with it
  (a claim and the ``playing`` status; the last moves, ``finished`` and the result; a timeout and
  the seat handed to a bot) and bumps the table's revision. Nothing acknowledged is held only in
  memory.
* **Several processes** may serve one store: before answering, a process compares the table's
  stored revision with its own and applies only the moves it misses; writes carry the version
  they were decided on, so the loser of a race gets ``stale_version``. ``wait_for_turn`` wakes
  through PostgreSQL ``LISTEN`` (or re-reads the store twice a second on SQLite).
* **Per-seat versions**: after every write, each seated agent's view and legal moves are
  compared with what it saw before; a seat's ``seat_version`` moves only when they change, so another seat's
  sealed choice never makes this seat's ``expected_version`` stale, and move ids stay valid
  while ``seat_version`` stands. A move decided on an older version is still played when it is
  legal now and means the same (``Game.move_basis``: Yo soy el jefe's open negotiation), and one
  sent while other seats briefly interrupt the decision (``Game.interlude``) waits for them.
* **Bots** play in lanes off the event loop (:mod:`.lanes`): after an agent's move (waiting a
  moment so that quick bot replies come in the same answer), and in the background for
  bots-only tables, under a per-table CPU budget; the number of lanes bounds bot work overall.
* **The decision clock**: a table with ``decision_timeout_s`` gives each decision of an agent
  seat that many seconds (the deadline is stored, so every worker enforces it, and after a
  restart too); when it runs out the rules' default move (``Game.default_move``) or else the
  heuristic bot's is played for the seat and logged as a timeout; after ``max_timeouts`` in a
  row a bot takes the seat over.
* **Seats belong to agents**: a seat token is compared with the table's in constant time, then its
  seat's agent with the caller's; a token used by another agent is refused before anything is read.
  The sweeper hands the seats of revoked agents to ``bot:heuristic`` (one guarded write; any worker).
* **Start**: :meth:`TableService.start` runs the sweeper at once, and one worker of those starting
  together resumes bot tables and enforces clocks that ran out while none ran.
* **Memory**: live tables are a bounded cache (:class:`~.live.LiveTables`) reloaded from the
  latest snapshot plus the moves after it.
"""

from __future__ import annotations

import asyncio
import builtins
import contextlib
import hashlib
import hmac
import logging
import math
import re
import secrets
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from club_agentes.engine.core import ConfigError, Game, IllegalMove, InvalidMove, Pending, UnknownGame, get_game
from club_agentes.engine.core.moves import MoveCodec
from club_agentes.engine.core.text import counted
from club_agentes.mcp_server.heavy import off_loop
from club_agentes.mcp_server.store import Store
from club_agentes.mcp_server.store.db import Tx
from club_agentes.mcp_server.store.tables import (
    STATUSES,
    Append,
    EventRow,
    MoveRow,
    SeatClaim,
    StaleVersion,
    TableRow,
)
from club_agentes.mcp_server.tables.closest import closest_moves
from club_agentes.mcp_server.tables.config import (
    MAX_SEED,
    MAX_WAIT_S,
    TABLE_OPTION_SCHEMA,
    TableError,
    TableOptions,
    TableSettings,
    split_options,
)
from club_agentes.mcp_server.tables.eventfold import keep_own
from club_agentes.mcp_server.tables.facts import (
    Created,
    DecisionFacts,
    Joined,
    LogPage,
    MoveFacts,
    MoveResult,
    RefusalFacts,
    SeatFacts,
    SeatState,
    TableFacts,
    TablePage,
    WaitOutcome,
)
from club_agentes.mcp_server.tables.lanes import (
    LaneResult,
    Lanes,
    LaneTask,
    Sync,
    event_tuple,
    restorable,
    result_json,
    shared_lanes,
)
from club_agentes.mcp_server.tables.live import (
    LiveTable,
    LiveTables,
    backfill_old_tables,
    catch_up,
    load_table,
    seat_fingerprint,
)
from club_agentes.mcp_server.tables.notify import Listener
from club_agentes.rules_corpus import Corpus

from club_agentes.errors import Refused

log = logging.getLogger("club_agentes.tables")

MAX_EVENTS = 50
"""The most events of other seats one answer carries (older ones are counted and left to ``game_log``); the
seat's own are all carried."""
OWN_EVENTS_READ = 500
"""Events read from the store for an answer whose events the in-memory tail does not cover: the seat's own among
them are all kept, the others' newest MAX_EVENTS."""
MAX_LOG_PAGE = 500
"""The most versions (moves) one ``game_log`` page covers."""
LOG_READ_CHUNK = 50
"""Versions a ``game_log`` page reads per statement (see :meth:`TableService._log_rows`)."""
MAX_LIST_PAGE = 100
"""The most tables one ``list_tables`` page lists."""
MOVE_ATTEMPTS = 4
"""How often a move is tried when another worker's write wins the race (each retry re-checks it against the
seat's version, so only a move whose situation still stands is applied)."""
STALL_S = 10.0
RESUME_GAP_S = 5.0
"""Workers starting within this many seconds of one another resume the tables once."""
RESUME_BATCH = 1000
"""The most bot tables resumed at start-up at once (the sweeper takes up the rest, 20 at a time)."""
"""A playing table where a bot must move and nothing was written for this long is taken up by a sweeper."""
HOLD_S = 20.0
"""How long a move decided before other seats briefly interrupted the decision (``Game.interlude``: a price being
named, a stop window) waits for the interruption to end before it is checked."""
PAST_STATES = 16
"""Older game states kept (rebuilt from the store) to tell what a stale move meant when it was decided."""

EventRows = list[tuple[int, tuple[int, ...] | None, str, Mapping[str, Any] | None]]
"""Events to store: (version, audience, text, data)."""

_MOVE_ID = re.compile(r"m([1-9][0-9]{0,4})")
_TABLE_ID = re.compile(r"t-[0-9a-f]{12}")
_LOG_CURSOR = re.compile(r"v(\d{1,12})")
_LIST_CURSOR = re.compile(r"(0x[0-9a-f.p+-]{1,40})/(t-[0-9a-f]{12})")


class PassVerifier(Protocol):
    """Decides whether an agent may sit at a table that requires a club pass."""

    def admit(self, club_pass: str | None, agent: str, game: str) -> str | None:
        """Return ``None`` to admit, or one sentence saying why the pass is refused."""
        ...


class TableLimits(Protocol):
    """The quotas the table service asks (``club_agentes.mcp_server.limits.Limits`` implements it)."""

    def take(self, kind: str, subject: str) -> str | None:
        """Count one table created by ``subject`` or refuse (``Refused`` with ``retry_after``); return a receipt."""
        ...

    def give_back(self, receipt: str | None) -> None:
        """Uncount what :meth:`take` counted (the table was not stored after all)."""
        ...

    def check_open_tables(self, agent: str, mine: int, everyone: int) -> None:
        """Refuse one more open table (``Refused`` with ``retry_after``)."""
        ...

    def ahold(self, kind: str, subject: str, seconds: float) -> contextlib.AbstractAsyncContextManager[None]:
        """Hold one concurrent long-poll of ``subject`` for the block, or refuse."""
        ...


def _rebases(game: Game) -> bool:
    """Return whether ``game`` says what its moves depend on (``Game.move_basis``): a stale move may then be played."""
    return type(game).move_basis is not Game.move_basis


def _charged_ms(cpu_s: float) -> int:
    """Whole milliseconds charged to a table's bot CPU budget for one piece of bot work.

    Rounded up: chunks of a few fast moves each cost under half a millisecond, and rounding them to
    the nearest millisecond let a table spend its budget without the count ever growing.
    """
    return math.ceil(cpu_s * 1000)


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _version_arg(name: str, value: object) -> int | None:
    """Return a version argument (``None`` or a whole number from -1), refusing anything else.

    Raises:
        TableError: ``value`` is a boolean, not a whole number, or below -1.
    """
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < -1:
        raise TableError(
            f"{name} must be a whole number (a version or seat_version from an earlier answer), not {str(value)[:40]!r}"
        )
    return value


def _owned_seat(table_id: str, claims: Mapping[int, SeatClaim], token: object, agent: str | None) -> int:
    """Return the seat whose token is ``token``, refusing it unless ``agent`` holds that seat.

    The token is compared with every claim in constant time first; then the seat's owner with
    ``agent`` (``None``: an in-process caller that acts for no agent, e.g. a test or a benchmark).
    A token used by another agent than its seat's is refused and shows nothing.

    Raises:
        TableError: the token is not a seat token of this table, or its seat belongs to another agent.
    """
    digest = _hash(token if isinstance(token, str) else "")
    found = None
    for seat, claim in claims.items():
        if hmac.compare_digest(digest, claim.token_hash):
            found = seat
    if found is None:
        raise TableError(
            f"the seat token is not valid at table {table_id}; use the token join_table returned for this table"
        )
    if agent is not None and not hmac.compare_digest(claims[found].agent.encode(), agent.encode()):
        raise TableError(
            f"this seat token belongs to a seat of another agent at table {table_id}, and you are connected as "
            f"{agent[:64]!r}: use only the seat tokens join_table gave you"
        )
    return found


@dataclass
class _Bucket:
    """A table's bot CPU allowance: ``tokens`` CPU seconds, refilled at the table's share of a core."""

    tokens: float
    at: float


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
        backfill_old_tables(store, games)
        self._past: OrderedDict[tuple[str, int], Any] = OrderedDict()

    # ------------------------------------------------------------------ lifecycle

    def _ensure_started(self) -> None:
        """Start the background work (clock and bot sweeper, PostgreSQL listener) in the running loop."""
        loop = asyncio.get_running_loop()
        if self._loop is loop:
            return
        self._loop = loop
        self._spawn(self._sweep_forever(), "table sweeper")
        channel = self.store.tables.tables_channel()
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
        self._spawn(self._resume(), "table resume")

    async def _resume(self) -> None:
        now = self._clock()
        try:
            claimed = await asyncio.to_thread(self.store.tables.claim_resume, now, RESUME_GAP_S)
            if not claimed:
                return
            bots = await asyncio.to_thread(self.store.tables.stalled_bot_tables, now + 1, RESUME_BATCH)
            for table_id in bots:
                if table_id not in self._drivers:
                    self._kick(table_id)
            log.info("start-up: resumed %d tables where a bot must move", len(bots))
            await self.tick()  # decision clocks that ran out while no worker ran
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("resuming the tables at start-up failed (the sweeper goes on)")

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

    def _on_notify(self, table_id: str) -> None:
        live = self._live.peek(table_id)
        if live is not None:
            live.wake()

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
                loaded = await asyncio.to_thread(load_table, self.store, self._game, table_id)
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
                self._kick(table_id)
            return loaded
        return await asyncio.shield(pending)

    async def _sync(self, live: LiveTable) -> bool:
        """Catch ``live`` up with the store (call with its lock held); ``False`` if it must be reloaded.

        Raises:
            TableError: the table no longer exists.
        """
        head = self.store.tables.table_head(live.id)
        if head is None:
            self._live.drop(live.id)
            raise self._unknown(live.id)
        if head.revision == live.revision:
            return True
        if catch_up(self.store, live):
            live.wake()
            return True
        return False

    async def _fresh(self, table_id: str) -> LiveTable:
        """Return the live table at the store's latest revision.

        Raises:
            TableError: unknown table.
        """
        for _ in range(3):
            live = await self._get(table_id)
            head = self.store.tables.table_head(table_id)
            if head is None:
                self._live.drop(table_id)
                raise self._unknown(table_id)
            if head.revision == live.revision:
                return live
            async with live.lock:
                if self._live.peek(table_id) is live and await self._sync(live):
                    return live
            self._live.drop(table_id)
        return await self._get(table_id)

    @contextlib.asynccontextmanager
    async def _locked(self, table_id: str) -> AsyncIterator[LiveTable]:
        """Hold a table's lock with the table at the store's latest revision.

        Raises:
            TableError: unknown table.
        """
        for _ in range(5):
            live = await self._get(table_id)
            async with live.lock:
                if self._live.peek(table_id) is not live:
                    continue
                if not await self._sync(live):
                    self._live.drop(table_id)
                    continue
                yield live
                return
        raise TableError(f"table {table_id} is changing too fast to be read; try again")

    # ------------------------------------------------------------------ facts

    def _seat_facts(self, seats: list[str], claims: Mapping[int, SeatClaim]) -> list[SeatFacts]:
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

    def _row_facts(self, row: TableRow, claims: Mapping[int, SeatClaim]) -> TableFacts:
        return TableFacts(
            table_id=row.id,
            game=row.game,
            status=row.status,
            version=row.version,
            seats=self._seat_facts(row.seats, claims),
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

    def _facts(self, live: LiveTable) -> TableFacts:
        return TableFacts(
            table_id=live.id,
            game=live.row.game,
            status=live.status,
            version=live.version,
            seats=self._seat_facts(live.row.seats, live.claims),
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

    def _decision(self, live: LiveTable, seat: int | None) -> DecisionFacts:
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

    def _move_facts(self, live: LiveTable, seat: int) -> list[MoveFacts]:
        """The seat's legal moves with ids and plain words (built once per seat version and seat names)."""
        cache = live.cache(seat)
        notes = live.notes(seat)
        if cache.facts is None:
            cache.facts = [
                MoveFacts(f"m{i}", m.text(), m.to_json(), n.says, n.note)
                for i, (m, n) in enumerate(zip(cache.moves, notes, strict=True), 1)
            ]
        return list(cache.facts)

    def _events_for(self, live: LiveTable, seat: int, since: int) -> tuple[list[EventRow], int]:
        # The seat's own events are never left out (eventfold.keep_own); others' beyond the newest MAX_EVENTS are.
        if live.tail_covers(since):
            events = [e for e in live.tail if e.version > since and (e.audience is None or seat in e.audience)]
            return keep_own(events, seat, MAX_EVENTS)
        total = self.store.tables.count_events(live.id, after_version=since, seat=seat)
        events = self.store.tables.load_events(
            live.id, after_version=since, seat=seat, limit=OWN_EVENTS_READ, newest=True
        )
        kept, _ = keep_own(events, seat, MAX_EVENTS)
        return kept, max(0, total - len(kept))

    def _seat_state(self, live: LiveTable, seat: int, since: int | None = None, *, full: bool = False) -> SeatState:
        decision = self._decision(live, seat)
        cache = live.cache(seat)
        moves: list[MoveFacts] = []
        seat_version = live.seat_versions.get(seat, live.version)
        if decision.yours and cache.moves:
            moves = self._move_facts(live, seat)
            live.listed[seat] = seat_version
        if since is None:
            since = live.last_moved.get(seat, -1)
        since = max(-1, min(since, live.version))
        events, omitted = self._events_for(live, seat, since)
        return SeatState(
            table=self._facts(live),
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
            now=self._clock(),
        )

    def _seat_of(self, live: LiveTable, token: str, agent: str | None = None) -> int:
        """Return the seat of ``token`` at ``live``, checking that ``agent`` holds it.

        Raises:
            TableError: the token is not a seat token of this table, or (``agent`` given) its seat
                belongs to another agent.
        """
        return _owned_seat(live.id, live.claims, token, agent)

    # ------------------------------------------------------------------ writing

    def _decision_meta(
        self, live: LiveTable, pending: Pending, prev: Pending | None, bots: Mapping[int, str], now: float
    ) -> tuple[str | None, float | None]:
        """Return who decides next (``agent``/``bot``) and when the agents' clock runs out."""
        if pending.kind == "over":
            return None, None
        waiting_on = "bot" if any(s in bots for s in pending.seats) else "agent"
        timeout = live.opts.decision_timeout_s
        agents = [s for s in pending.seats if s not in bots]
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

    def _commit(
        self,
        live: LiveTable,
        base: int,
        prev: Pending | None,
        moves: list[tuple[int, Any, str]],
        events: Sequence[tuple[int, tuple[int, ...] | None, str, Mapping[str, Any] | None]],
        *,
        timeouts: Mapping[int, int] | None = None,
        handed: Mapping[int, str] | None = None,
        bot_cpu_s: float = 0.0,
    ) -> None:
        """Store moves already applied to ``live.state`` with everything they cause; update ``live``.

        Call with the table's lock held. On failure the live table is dropped (its state is ahead of
        the store) and the error propagates. A write without moves (a seat handed to a bot) is
        guarded by the table's revision and keeps the decision clock's deadline.

        Raises:
            StaleVersion: another write reached the table first.
        """
        try:
            self._commit_inner(live, base, prev, moves, events, dict(timeouts or {}), dict(handed or {}), bot_cpu_s)
        except BaseException:
            self._live.drop(live.id)
            raise

    def _commit_inner(
        self,
        live: LiveTable,
        base: int,
        prev: Pending | None,
        moves: list[tuple[int, Any, str]],
        events: Sequence[tuple[int, tuple[int, ...] | None, str, Mapping[str, Any] | None]],
        timeouts: dict[int, int],
        handed: dict[int, str],
        bot_cpu_s: float,
    ) -> None:
        game, state = live.game, live.state
        now = self._clock()
        version = base + len(moves)
        pending = game.pending(state)
        over = pending.kind == "over"
        bots = {**live.bots(), **handed}
        waiting_on, deadline = self._decision_meta(live, pending, prev, bots, now)
        if not moves and deadline is not None and live.deadline_at is not None:
            deadline = live.deadline_at  # nothing was played: the clock of whoever still decides goes on
        caches = {}
        changed: dict[int, int] = {}
        # A seat that moved here sees something new (its own move), and an unseen seat's version
        # moves at every write: both get this version without computing their view now; the
        # next read computes it (most often the answer to this very move, after the bots' replies).
        unseen = live.unseen | {seat for seat, _m, _a in moves}
        for seat in live.claims:
            if seat in unseen:
                changed[seat] = version
                continue
            c = seat_fingerprint(game, state, seat, pending)
            old = live.caches.get(seat)
            if old is None or not c.same_as(old):
                changed[seat] = version
            else:
                c = old
            caches[seat] = c
        result = result_json(game.result(state)) if over else None
        every = self.settings.snapshot_every
        snapshot: tuple[int, int, dict[str, Any], dict[str, Any]] | None = None
        if restorable(game) and moves and (over or version // every > base // every):
            try:
                snapshot = (version, game.snapshot_version, game.snapshot(state), {})
            except Exception:  # a snapshot is an optimisation: the moves are stored all the same
                log.exception("engine defect: %s snapshot() at table %s", live.row.game, live.id)
        revision = self.store.tables.append(
            Append(
                table_id=live.id,
                base_version=base,
                moves=[(seat, m.to_json(), actor, now) for seat, m, actor in moves],
                events=list(events),
                status="finished" if over else "playing",
                result=result,
                waiting_on=waiting_on,
                deadline_at=deadline,
                seat_versions=changed,
                timeouts=timeouts,
                handed=handed,
                snapshot=snapshot,
                bot_cpu_ms=_charged_ms(bot_cpu_s),
                now=now,
                revision=None if moves else live.revision,
            )
        )
        self.moves_applied += len(moves)
        live.version = version
        live.revision = revision
        live.status = "finished" if over else "playing"
        live.result = result
        live.waiting_on = waiting_on
        live.deadline_at = deadline
        live.caches = caches
        live.unseen = unseen & set(live.claims)
        live.seat_versions.update(changed)
        v = base
        for seat, _m, _a in moves:
            v += 1
            live.last_moved[seat] = v
        for seat, count in timeouts.items():
            if seat in live.claims:
                live.claims[seat] = replace(live.claims[seat], timeouts=count)
        for seat, kind in handed.items():
            if seat in live.claims:
                live.claims[seat] = replace(live.claims[seat], bot=kind)
        rows = [
            EventRow(live.event_count + i, ev[0], ev[1], ev[2], dict(ev[3]) if ev[3] is not None else None)
            for i, ev in enumerate(events)
        ]
        live.event_count += len(events)
        live.add_events(rows)
        live.row = replace(live.row, bot_cpu_ms=live.row.bot_cpu_ms + _charged_ms(bot_cpu_s))
        live.wake()

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
        self._ensure_started()
        game = self._game(game_id)
        if not isinstance(seats, list) or not seats:
            raise TableError("seats is empty; give one entry per seat: 'agent', 'bot:random' or 'bot:heuristic'")
        kinds = ", ".join(f"'bot:{k}'" for k in game.bots)
        for i, spec in enumerate(seats):
            if not isinstance(spec, str) or (
                spec != "agent" and not (spec.startswith("bot:") and spec[4:] in game.bots)
            ):
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
        table_opts, game_opts = split_options(options, self.settings, has_agents=agents > 0)
        try:
            config = game.make_config(len(seats), game_opts)
        except ConfigError as exc:
            raise TableError(str(exc)) from None
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED):
            raise TableError(f"seed must be an integer from 0 to {MAX_SEED}, or omitted for a secret random seed")
        if seated is not None and sorted(seated) != [i for i, spec in enumerate(seats) if spec == "agent"]:
            raise TableError("seated must name every agent seat of the table, and only those")
        receipt: str | None = None
        if self.limits is not None and creator is not None:
            mine, everyone = self.store.tables.open_table_counts(creator)
            self.limits.check_open_tables(creator, mine, everyone)
            receipt = self.limits.take("table", creator)
        real_seed = secrets.randbits(63) if seed is None else seed
        state, setup = game.start(config, real_seed)
        now = self._clock()
        expiry = self.settings.waiting_expiry_s
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
                event_count=len(setup),
            )
            if claims:  # every agent seat taken at once: the game starts now
                waiting_on, deadline = self._decision_meta(live, live.pending(), None, live.bots(), now)
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
            self.store.tables.create_table(
                row, [(0, *event_tuple(e)) for e in setup], claims=list(claims.values()), within=within
            )
        except BaseException:
            if self.limits is not None:
                with contextlib.suppress(Exception):
                    self.limits.give_back(receipt)  # the table was not stored: it does not count
            raise
        if live is not None:
            live.add_events([EventRow(i, 0, *event_tuple(e)) for i, e in enumerate(setup)])
            self._live.put(live)
        if row.waiting_on == "bot":
            self._kick(row.id)
        schema = dict(game.config_schema())
        props = {**schema.get("properties", {}), **TABLE_OPTION_SCHEMA}
        schema = {**schema, "properties": props}
        return Created(self._row_facts(row, claims), schema)

    async def seated(self, table_id: str, agent: str, seat: int, token: str) -> Joined:
        """Return the seat ``agent`` was given at creation (``create(seated=...)``) with its secret token.

        Raises:
            TableError: unknown table, or the seat is not ``agent``'s with that token.
        """
        live = await self._fresh(table_id)
        claim = live.claims.get(seat)
        if claim is None or claim.agent != agent or not hmac.compare_digest(claim.token_hash, _hash(token)):
            raise TableError(f"seat {seat} at table {table_id} is not yours; call seek_game again")
        version = live.seat_versions.get(seat, live.version)
        return Joined(self._facts(live), seat, agent, token, version, self._seat_state(live, seat))

    async def join(self, table_id: str, agent: str, club_pass: str | None, seat: int | None) -> Joined:
        """Seat ``agent`` at an open agent seat and return its secret token.

        Raises:
            TableError: unknown table, a closed table (e.g. expired), no open seat, the agent already holds
                its seats here, or a refused club pass.
        """
        async with self._locked(table_id) as live:
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
                refusal = self.verifier.admit(club_pass, agent, live.row.game)
                if refusal is not None:
                    raise TableError(refusal)
            token = secrets.token_urlsafe(24)
            now = self._clock()
            claim = SeatClaim(table_id, seat, agent, _hash(token), now)
            starts = len(open_seats) == 1
            status = "playing" if starts else "waiting"
            waiting_on, deadline = None, None
            if not starts and self.settings.waiting_expiry_s is not None:
                deadline = now + self.settings.waiting_expiry_s  # each seat taken restarts the wait
            live.claims[seat] = claim  # for the clock and bots computed below; undone on failure
            if starts:
                waiting_on, deadline = self._decision_meta(live, live.pending(), None, live.bots(), now)
            try:
                revision = self.store.tables.claim_seat(
                    claim, revision=live.revision, status=status, waiting_on=waiting_on, deadline_at=deadline, now=now
                )
            except StaleVersion:
                self._live.drop(table_id)
                raise TableError(
                    f"seat {seat} at table {table_id} was taken (or the table changed) a moment ago; "
                    "call join_table again"
                ) from None
            live.revision = revision
            live.status = status
            live.waiting_on = waiting_on
            live.deadline_at = deadline
            live.seat_versions[seat] = live.version
            live.row = replace(live.row, open_seats=live.row.open_seats - 1, status=status)
            live.wake()
            facts = self._facts(live)
            seat_version = live.version
        if not starts:
            return Joined(facts, seat, agent, token, seat_version)
        await self._after_write(live)
        state = self._seat_state(await self._fresh(table_id), seat)  # the game has started: the seat's situation
        return Joined(facts, seat, agent, token, seat_version, state)

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
        seat = self._seat_of(live, token, agent)
        return self._seat_state(live, seat, since, full=full)

    async def wait(
        self,
        table_id: str,
        token: str,
        timeout_s: float,
        since: int | None = None,
        *,
        agent: str | None = None,
    ) -> WaitOutcome:
        """Wait up to ``timeout_s`` (at most 60) seconds until the seat must decide or the game ends.

        The answer carries the decision and the legal moves (their ids usable at once).

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
        outcome, checked = await self._wait_check(table_id, token, timeout_s, since, start, agent)
        if outcome is not None:
            return outcome  # no long-poll held for an answer that needs no waiting
        hold: contextlib.AbstractAsyncContextManager[None] = contextlib.nullcontext()
        if self.limits is not None and agent is not None:
            hold = self.limits.ahold("long_poll", agent, timeout_s)
        async with hold:
            while True:
                if checked is live:  # else the table was replaced in memory meanwhile: subscribe to the new one
                    await self._sleep_on(live, changed, timeout_s - (time.monotonic() - start))
                live = checked
                changed = live.changed
                outcome, checked = await self._wait_check(table_id, token, timeout_s, since, start, agent)
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
        self, table_id: str, token: str, timeout_s: float, since: int | None, start: float, agent: str | None
    ) -> tuple[WaitOutcome | None, LiveTable]:
        """Return wait_for_turn's answer if it is due now (a decision, the end, the timeout), with the table.

        Raises:
            TableError: unknown table, bad token, or a token of another agent's seat.
        """
        live = await self._fresh(table_id)
        seat = self._seat_of(live, token, agent)
        waited = round(time.monotonic() - start, 3)
        if live.status in ("finished", "aborted"):
            return WaitOutcome(True, "game_over", waited, self._seat_state(live, seat, since)), live
        if self._decision(live, seat).yours:
            return WaitOutcome(True, "your_decision", waited, self._seat_state(live, seat, since)), live
        if timeout_s - (time.monotonic() - start) <= 0:
            return WaitOutcome(False, "timeout", waited, self._seat_state(live, seat, since)), live
        return None, live

    async def log(
        self, table_id: str, token: str | None, cursor: str | None = None, limit: int = 200, *, agent: str | None = None
    ) -> LogPage:
        """Return one page of a table's log: public, a seat's, or (once the game is over) the full log.

        Pages cover versions (moves): the first page starts with the deal (version 0); ``next_cursor``
        continues. Never loads the game. With a token, ``agent`` (the connection's; ``None`` for an
        in-process caller) must hold its seat.

        Raises:
            TableError: unknown table, bad token, a token of another agent's seat, bad cursor or limit.
        """
        self._ensure_started()
        if not isinstance(table_id, str) or not _TABLE_ID.fullmatch(table_id):
            raise self._unknown(table_id)
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LOG_PAGE:
            raise TableError(f"limit must be a whole number of moves from 1 to {MAX_LOG_PAGE}")
        row = self.store.tables.load_table(table_id)
        if row is None:
            raise self._unknown(table_id)
        claims = {c.seat: c for c in self.store.tables.seat_claims(table_id)}
        seat = None
        if token:
            seat = _owned_seat(table_id, claims, token, agent)
        after = -1
        if cursor is not None:
            m = _LOG_CURSOR.fullmatch(cursor) if isinstance(cursor, str) else None
            if m is None:
                raise TableError("cursor must be a next_cursor from an earlier game_log answer, e.g. 'v200'")
            after = int(m.group(1))
        full = row.status in ("finished", "aborted")
        upto = min(row.version, after + limit)
        events, moves = await off_loop(self._log_rows, table_id, after, upto, seat, full)  # a page: off the loop
        return LogPage(
            table=self._row_facts(row, claims),
            scope="full" if full else ("seat" if seat is not None else "public"),
            seat=None if full else seat,
            events=events,
            moves=moves,
            seed=row.seed if full else None,
            after=after,
            upto=upto,
            next_cursor=f"v{upto}" if upto < row.version else None,
        )

    def _log_rows(
        self, table_id: str, after: int, upto: int, seat: int | None, full: bool
    ) -> tuple[list[EventRow], list[MoveRow] | None]:
        """Return a log page's events and (for the full log) moves (blocks: see :meth:`log`).

        Read :data:`LOG_READ_CHUNK` versions at a time: the store serves one statement at a time, so the event
        loop's own short reads wait for one chunk at most, not for the whole page.
        """
        events: list[EventRow] = []
        moves: list[MoveRow] | None = [] if full else None
        lo = after
        while lo < upto:
            hi = min(upto, lo + LOG_READ_CHUNK)
            events += self.store.tables.load_events(
                table_id, after_version=lo, upto_version=hi, seat=seat, everything=full
            )
            if moves is not None:
                moves += self.store.tables.load_moves(table_id, after=max(lo, 0), upto=hi)
            lo = hi
        return events, moves

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
        self._ensure_started()
        if status is not None and status not in STATUSES:
            raise TableError(f"status must be one of {', '.join(repr(s) for s in STATUSES)}, not {str(status)[:30]!r}")
        if game is not None:
            self._game(game)
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LIST_PAGE:
            raise TableError(f"limit must be a whole number from 1 to {MAX_LIST_PAGE}")
        before = None
        if cursor is not None:
            m = _LIST_CURSOR.fullmatch(cursor) if isinstance(cursor, str) else None
            if m is None:
                raise TableError("cursor must be a next_cursor from an earlier list_tables answer")
            try:
                before = (float.fromhex(m.group(1)), m.group(2))
            except ValueError:
                raise TableError("cursor must be a next_cursor from an earlier list_tables answer") from None
        rows = self.store.tables.list_tables(
            game, status, open_seats=open_seats, agent=agent, before=before, limit=limit + 1
        )
        more = len(rows) > limit
        rows = rows[:limit]
        claims = self.store.tables.seat_claims_of([r.id for r in rows])
        tables = [self._row_facts(r, {c.seat: c for c in claims.get(r.id, [])}) for r in rows]
        nxt = f"{rows[-1].created_at.hex()}/{rows[-1].id}" if more and rows else None
        return TablePage(tables, nxt)

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
        if isinstance(expected_version, bool) or not isinstance(expected_version, int | None):
            raise TableError(
                "expected_version must be a whole number (the version or seat_version you decided on), "
                f"not {str(expected_version)[:40]!r}"
            )
        if isinstance(wait_s, bool) or not isinstance(wait_s, int | float) or not 0 <= wait_s <= MAX_WAIT_S:
            raise TableError(f"wait_s must be from 0 to {MAX_WAIT_S:g} seconds, not {str(wait_s)[:20]}")
        until = time.monotonic() + HOLD_S
        while True:
            await self._hold(table_id, token, move, expected_version, until, agent)
            result = await self._play_once(table_id, token, move, expected_version, wait_s, agent, until)
            if result is not None:
                return result

    async def _play_once(
        self,
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
        spent: tuple[str, int] | None = None
        for _attempt in range(MOVE_ATTEMPTS):
            async with self._locked(table_id) as live:
                seat = self._seat_of(live, token, agent)
                if decided_at is None:
                    sent, sent_version = move, expected_version
                    refusal, parsed = self._check_move(live, seat, move, expected_version)
                    decided_at = live.seat_versions.get(seat, live.version)
                else:
                    # Another worker wrote first: the move stands if the seat's situation did not change since
                    # it was decided (another seat's sealed choice, say), exactly as on one worker.
                    sent, sent_version = parsed.to_json(), decided_at
                    refusal, parsed = self._check_move(live, seat, sent, sent_version)
                if refusal is not None and refusal.kind in ("stale_version", "stale_move_id"):
                    if _attempt == 0 and time.monotonic() < until and self._held(live, seat, move, expected_version):
                        return None
                    refusal, parsed, spent = self._rebase(live, seat, sent, sent_version, refusal)
                if refusal is not None:
                    return MoveResult(False, self._seat_state(live, seat), refusal=refusal)
                if spent is not None:
                    break  # answered after the table's lock is let go
                game = live.game
                prev = live.pending()
                base = live.version
                live.ensure_caches()
                played = self._played_facts(live, seat, parsed)
                try:
                    events = game.apply(live.state, seat, parsed)
                except IllegalMove as exc:
                    refused = replace(self._rule_refusal(exc), move_type=getattr(parsed, "type", None))
                    return MoveResult(False, self._seat_state(live, seat), refusal=refused)
                except InvalidMove as exc:
                    return MoveResult(
                        False, self._seat_state(live, seat), refusal=self._unparsed(live, seat, move, str(exc))
                    )
                except Exception:
                    self._live.drop(table_id)  # the state may be half-changed: reload it from the store
                    log.exception(
                        "engine defect: %s apply(seat %d, %s) at table %s", live.row.game, seat, parsed, table_id
                    )
                    raise
                rows = [(base + 1, *event_tuple(e)) for e in events]
                claim = live.claims[seat]
                stale = None
                try:
                    self._commit(
                        live, base, prev, [(seat, parsed, "agent")], rows, timeouts={seat: 0} if claim.timeouts else {}
                    )
                except StaleVersion as exc:
                    stale = exc
            if stale is None:
                break
        if spent is not None:
            return await self._spent(table_id, token, seat, parsed, spent, wait_s, agent)
        if stale is not None:
            fresh = await self._fresh(table_id)
            return MoveResult(
                False,
                self._seat_state(fresh, seat),
                refusal=RefusalFacts(
                    "stale_version",
                    f"another move reached table {table_id} first (it is at version {stale.current}); "
                    "look at the new situation and decide again.",
                ),
            )
        await self._after_write(live)
        if wait_s > 0:
            # Over the agent's long-poll limit (Refused) the move stands all the same: it is answered at once below.
            with contextlib.suppress(Refused):
                waited = await self.wait(table_id, token, wait_s, since=base, agent=agent)
                return MoveResult(True, waited.state, played=played, played_version=base + 1)
        fresh = await self._fresh(table_id)
        return MoveResult(True, self._seat_state(fresh, seat, since=base), played=played, played_version=base + 1)

    async def _spent(
        self,
        table_id: str,
        token: str,
        seat: int,
        move: Any,
        spent: tuple[str, int],
        wait_s: float,
        agent: str | None,
    ) -> MoveResult:
        """The answer to a move that others' acts made spent (:meth:`_rebase`): nothing stored; the seat's state
        now, with the events since the version it was decided on, after waiting up to ``wait_s`` for the seat's
        next decision when it is not the seat's now.

        Raises:
            TableError: unknown table, bad token or a token of another agent's seat.
        """
        why, decided = spent
        played = MoveFacts("", move.text(), move.to_json(), move.text())
        if wait_s > 0:
            with contextlib.suppress(Refused):
                waited = await self.wait(table_id, token, wait_s, since=decided, agent=agent)
                return MoveResult(True, waited.state, played=played, overtaken=why)
        fresh = await self._fresh(table_id)
        return MoveResult(True, self._seat_state(fresh, seat, since=decided), played=played, overtaken=why)

    def _played_facts(self, live: LiveTable, seat: int, move: Any) -> MoveFacts:
        cache = live.cache(seat)
        for i, m in enumerate(cache.moves):
            if m == move:
                notes = live.notes(seat)
                return MoveFacts(f"m{i + 1}", m.text(), m.to_json(), notes[i].says, notes[i].note)
        return MoveFacts("", move.text(), move.to_json(), move.text())

    def _check_move(
        self, live: LiveTable, seat: int, move: Any, expected_version: int | None
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
                    d = self._decision(live, seat)
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
                    return self._unparsed(
                        live,
                        seat,
                        move,
                        f"there is no move {move.strip()}; the legal move ids now are m1 to m{len(cache.moves)}",
                    ), None
                return None, cache.moves[k - 1]
        if not isinstance(move, str | dict):
            return self._unparsed(
                live, seat, move, "a move is a legal move id such as 'm1', its text, or its JSON"
            ), None
        try:
            return None, live.game.parse_move(move)
        except (InvalidMove, ValueError, KeyError, TypeError, IndexError) as exc:
            return self._unparsed(live, seat, move, str(exc) or "the move cannot be read"), None

    # ------------------------------------------------------------------ moves decided on an older version

    def _decided_on(self, live: LiveTable, seat: int, move: Any, expected_version: Any) -> int | None:
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

    def _held(self, live: LiveTable, seat: int, move: Any, expected_version: Any) -> bool:
        """Return whether a move decided on an older version waits: other seats briefly interrupt the seat's
        decision now (``Game.interlude``: a price being named, a stop window it does not answer)."""
        return (
            live.status == "playing"
            and _rebases(live.game)
            and self._decided_on(live, seat, move, expected_version) is not None
            and seat not in live.pending().seats
            and live.game.interlude(live.state)
        )

    async def _hold(
        self, table_id: str, token: str, move: Any, expected_version: Any, until: float, agent: str | None = None
    ) -> None:
        """Wait (until ``until``, a monotonic time) while the move is held (:meth:`_held`), so that it is checked
        once the decision is back.

        Raises:
            TableError: unknown table, bad token or a token of another agent's seat.
        """
        # First from the table in memory (no read of the store: most moves are not held); once held, fresh.
        cached = self._live.peek(table_id) if isinstance(table_id, str) else None
        while True:
            from_memory = cached is not None
            live = cached if cached is not None else await self._fresh(table_id)
            cached = None
            # No await from the read to the sleep: a write after the check sets the event taken here.
            changed = live.changed
            try:
                seat = self._seat_of(live, token, agent)
            except TableError:
                if not from_memory:
                    raise
                continue  # the table in memory may not know a seat taken through another worker: read it fresh
            remaining = until - time.monotonic()
            if remaining <= 0 or not self._held(live, seat, move, expected_version):
                return
            if not from_memory:  # held by what the memory says: re-check at the store's revision before sleeping
                await self._sleep_on(live, changed, remaining)

    def _state_at(self, live: LiveTable, version: int) -> Any:
        """Return the game's state at an older ``version`` (rebuilt from the store; a few are kept). Read only.

        Raises:
            IllegalMove, InvalidMove: a stored move does not replay (a corrupted store).
        """
        key = (live.id, version)
        state = self._past.get(key)
        if state is not None:
            self._past.move_to_end(key)
            return state
        game = live.game
        base = 0
        if restorable(game):
            snap = self.store.tables.latest_snapshot(live.id, game.snapshot_version)
            if snap is not None and snap.version <= version:
                with contextlib.suppress(NotImplementedError, ValueError):
                    state, base = game.restore(live.config, snap.data), snap.version
        if state is None:
            state, _setup = game.start(live.config, live.row.seed)
        for m in self.store.tables.load_moves(live.id, after=base, upto=version):
            game.apply(state, m.seat, game.parse_move(m.move))
        self._past[key] = state
        while len(self._past) > PAST_STATES:
            self._past.popitem(last=False)
        return state

    def _rebase(
        self, live: LiveTable, seat: int, move: Any, expected_version: Any, refusal: RefusalFacts
    ) -> tuple[RefusalFacts | None, Any, tuple[str, int] | None]:
        """Check a move decided on an older version against the state it would be applied to.

        The move is read as it was meant then (a move id in the list of then); it is played if it is legal now
        and means the same (``Game.move_basis`` is equal then and now). A move that acts on nothing and whose
        work others' acts already did (``Game.overtaken``: a pass whose change was answered) is spent: nothing
        is played and the seat is told so. Otherwise the refusal says in one sentence what changed. Games that
        do not say what their moves depend on keep ``refusal``. Returns ``(None, move, None)`` to play,
        ``(None, move, (sentence, version decided on))`` for a spent move, or ``(refusal, None, None)``.

        Raises:
            IllegalMove, InvalidMove: a stored move does not replay (a corrupted store).
        """
        decided = self._decided_on(live, seat, move, expected_version)
        game = live.game
        if decided is None or not _rebases(game) or decided > live.version:
            return refusal, None, None
        old = self._state_at(live, decided)
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
        events, _omitted = self._events_for(live, seat, decided)
        changes = [e.text.rstrip(". ") for e in events if e.version > decided]
        if len(changes) > 2:
            what = f"{changes[-2]}, then {changes[-1]} (the last 2 of {len(changes)} events)"
        else:
            what = ", then ".join(changes) or "the game moved on"
        spent = game.overtaken(old, live.state, seat, chosen)
        if spent is not None:
            after = "decide from the moves listed now" if now else "wait_for_turn waits for your next decision"
            return (
                None,
                chosen,
                (
                    f"your '{chosen.text()}' decided at version {decided} was overtaken, not refused: since then "
                    f"{what}, so {spent}. Nothing was stored; {after}.",
                    decided,
                ),
            )
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

    def _rule_refusal(self, exc: IllegalMove) -> RefusalFacts:
        title = text = None
        if self.corpus.has(exc.rule_id):
            section = self.corpus.sections[exc.rule_id]
            title, text = section.title, section.text
        reason = exc.message if exc.message.endswith((".", "!", "?")) else exc.message + "."
        return RefusalFacts("rule", reason, exc.rule_id, title, text)

    def _unparsed(self, live: LiveTable, seat: int, move: Any, why: str) -> RefusalFacts:
        """A refusal of a move that names no legal move: the closest legal moves and one example per form."""
        moves = self._move_facts(live, seat) if self._decision(live, seat).yours else []
        sent = move if isinstance(move, str) else str(move)
        closest = closest_moves(sent[:500], moves)  # compares a bounded prefix: see tables/closest.py
        codec = getattr(type(live.game), "moves", None)
        examples = list(codec.examples().values()) if isinstance(codec, MoveCodec) else []
        reason = why.rstrip(".") + "."
        if moves:
            reason += " The closest legal moves are listed; play one by id, text or JSON."
        return RefusalFacts("unparsed", reason, closest=closest, examples=examples)

    # ------------------------------------------------------------------ bots

    def _kick(self, table_id: str) -> asyncio.Task[None]:
        task = self._drivers.get(table_id)
        if task is None or task.done():
            task = self._spawn(self._drive(table_id), f"bots {table_id}")
            self._drivers[table_id] = task
            task.add_done_callback(
                lambda t: self._drivers.pop(table_id, None) if self._drivers.get(table_id) is t else None
            )
        return task

    async def _after_write(self, live: LiveTable) -> None:
        """Let bots reply to a write, waiting briefly so that quick replies come in the same answer."""
        if live.status == "playing" and live.waiting_on == "bot":
            task = self._kick(live.id)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(task), timeout=self.settings.reply_wait_s)

    def _throttle(self, table_id: str) -> float:
        """Return how long a table's bots must rest before their next piece of work (the CPU share)."""
        now = time.monotonic()
        s = self.settings
        b = self._buckets.get(table_id)
        if b is None:
            b = self._buckets[table_id] = _Bucket(s.bot_cpu_burst_s, now)
        b.tokens = min(s.bot_cpu_burst_s, b.tokens + (now - b.at) * s.bot_cpu_share)
        b.at = now
        return 0.0 if b.tokens > 0 else -b.tokens / s.bot_cpu_share + 0.001

    def _spend(self, table_id: str, cpu_s: float) -> None:
        b = self._buckets.get(table_id)
        if b is not None:
            b.tokens -= cpu_s

    async def _full_sync(self, table_id: str, game: Game, upto: int, *, snapshot: bool = True) -> Sync:
        snap = (
            self.store.tables.latest_snapshot(table_id, game.snapshot_version)
            if snapshot and restorable(game)
            else None
        )
        if snap is not None and snap.version > upto:
            snap = None
        start = snap.version if snap is not None else 0
        moves = self.store.tables.load_moves(table_id, after=start, upto=upto)
        return Sync(
            start,
            full=True,
            snapshot=(snap.version, snap.format, snap.data) if snap is not None else None,
            moves=tuple((m.seat, m.move) for m in moves),
        )

    async def _run_lane(self, task: LaneTask, game: Game) -> LaneResult:
        """Run bot work, resending the whole table once if the lane does not hold it.

        Raises:
            RuntimeError: the lane could not get the table (a defect).
        """
        res = await self.lanes.run(task)
        if res.need_sync:
            sync = await self._full_sync(task.table_id, game, task.base_version, snapshot=not res.restore_failed)
            res = await self.lanes.run(replace(task, sync=sync))
            if res.need_sync and res.restore_failed:
                sync = await self._full_sync(task.table_id, game, task.base_version, snapshot=False)
                res = await self.lanes.run(replace(task, sync=sync))
            if res.need_sync:
                raise RuntimeError(f"the bot lane could not rebuild table {task.table_id}")
        return res

    def _lane_sync(self, live: LiveTable) -> Sync:
        if live.lane_version == live.version:
            return Sync(live.version)
        if live.lane_version is not None and live.lane_version < live.version:
            moves = self.store.tables.load_moves(live.id, after=live.lane_version, upto=live.version)
            return Sync(live.lane_version, moves=tuple((m.seat, m.move) for m in moves))
        return Sync(-1)  # the lane cannot hold it: it answers need_sync and gets the whole table

    def _over_budget(self, cpu_ms: int) -> bool:
        return cpu_ms >= self.settings.bot_cpu_total_s * 1000

    async def _abort(self, table_id: str, revision: int, note: str) -> None:
        with contextlib.suppress(StaleVersion):
            self.store.tables.abort_table(table_id, revision=revision, note=note, now=self._clock())
        live = self._live.peek(table_id)
        if live is not None:
            live.wake()
            self._live.drop(table_id)

    async def _drive(self, table_id: str) -> None:
        """Play the bot seats of a table until an agent must decide or the game ends."""
        try:
            if self._live.peek(table_id) is None:
                row = self.store.tables.load_table(table_id)
                if row is None or row.status != "playing":
                    return
                if "agent" not in row.seats:
                    await self._drive_headless(row)
                    return
            while True:
                delay = self._throttle(table_id)
                if delay > 0:
                    await asyncio.sleep(delay)
                async with self._locked(table_id) as live:
                    if live.status != "playing":
                        return
                    bots = live.bots()
                    prev = live.pending()
                    if not any(s in bots for s in prev.seats):
                        return
                    if self._over_budget(live.row.bot_cpu_ms):
                        await self._abort(
                            table_id,
                            live.revision,
                            f"the server stopped this table: its bots used their whole CPU budget "
                            f"({self.settings.bot_cpu_total_s:g} s)",
                        )
                        return
                    task = LaneTask(
                        table_id=table_id,
                        game_id=live.row.game,
                        options=live.row.config,
                        seats=len(live.row.seats),
                        seed=live.row.seed,
                        base_version=live.version,
                        bots=bots,
                        sync=self._lane_sync(live),
                        max_moves=self.settings.chunk_moves,
                        max_cpu_s=self.settings.chunk_cpu_s,
                    )
                    res = await self._run_lane(task, live.game)
                    self._spend(table_id, res.cpu_s)
                    if res.error is not None:
                        log.error("engine defect while bots played table %s:\n%s", table_id, res.error)
                        await self._abort(
                            table_id, live.revision, "the server stopped this table after an engine error"
                        )
                        return
                    if not res.moves:
                        return
                    self._apply_lane_moves(live, res, prev, res.cpu_s)
                    live.lane_version = live.version
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

    def _apply_lane_moves(self, live: LiveTable, res: LaneResult, prev: Pending, cpu_s: float) -> None:
        """Apply moves a lane played to the live state and store them (call with the table's lock held).

        Raises:
            StaleVersion: another write reached the table first.
        """
        game = live.game
        base = live.version
        moves = []
        rows: EventRows = []
        v = base
        live.ensure_caches()
        try:
            for lm in res.moves:
                parsed = game.parse_move(lm.move)
                events = game.apply(live.state, lm.seat, parsed)
                v += 1
                moves.append((lm.seat, parsed, lm.actor))
                rows += [(v, *event_tuple(e)) for e in events]
        except Exception:
            self._live.drop(live.id)
            raise
        self._commit(live, base, prev, moves, rows, bot_cpu_s=cpu_s)

    async def _drive_headless(self, row: TableRow) -> None:
        """Play a bots-only table to its end in the background, without holding its state here."""
        table_id = row.id
        game = self._game(row.game)
        version, cpu_ms = row.version, row.bot_cpu_ms
        lane_version: int | None = None
        every = self.settings.snapshot_every if restorable(game) else 0
        bots = {s: spec[4:] for s, spec in enumerate(row.seats)}
        while True:
            delay = self._throttle(table_id)
            if delay > 0:
                await asyncio.sleep(delay)
            if self._over_budget(cpu_ms):
                head = self.store.tables.table_head(table_id)
                if head is not None and head.status == "playing":
                    await self._abort(
                        table_id,
                        head.revision,
                        f"the server stopped this table: its bots used their whole CPU budget "
                        f"({self.settings.bot_cpu_total_s:g} s)",
                    )
                return
            task = LaneTask(
                table_id=table_id,
                game_id=row.game,
                options=row.config,
                seats=len(row.seats),
                seed=row.seed,
                base_version=version,
                bots=bots,
                sync=Sync(version) if lane_version == version else Sync(-1),
                max_moves=self.settings.chunk_moves,
                max_cpu_s=self.settings.chunk_cpu_s,
                snapshot_every=every,
            )
            res = await self._run_lane(task, game)
            self._spend(table_id, res.cpu_s)
            if res.error is not None:
                log.error("engine defect while bots played table %s:\n%s", table_id, res.error)
                head = self.store.tables.table_head(table_id)
                if head is not None:
                    await self._abort(table_id, head.revision, "the server stopped this table after an engine error")
                return
            if not res.moves:
                return
            now = self._clock()
            rows: EventRows = []
            v = version
            for lm in res.moves:
                v += 1
                rows += [(v, *ev) for ev in lm.events]
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
                await asyncio.to_thread(self.store.tables.append, append)
            except StaleVersion:
                return  # another worker plays it
            version = lane_version = v
            self.moves_applied += len(res.moves)
            cpu_ms += _charged_ms(res.cpu_s)
            self._live.drop(table_id)
            if res.over:
                self._buckets.pop(table_id, None)
                return

    # ------------------------------------------------------------------ the decision clock

    async def tick(self) -> None:
        """Do the periodic work once: play timed-out decisions, resume stalled bots, drop idle tables."""
        now = self._clock()
        for table_id in self.store.tables.due_tables(now):
            try:
                await self._timeout(table_id)
            except (TableError, StaleVersion):
                continue
            except Exception:
                log.exception("the decision clock failed at table %s", table_id)
        expiry = self.settings.waiting_expiry_s
        for table_id in self.store.tables.expired_waiting_tables(now, expiry) if expiry is not None else ():
            try:
                await self._expire(table_id)
            except (TableError, StaleVersion):
                continue
            except Exception:
                log.exception("expiring the waiting table %s failed", table_id)
        for table_id, seats in self.store.tables.revoked_seats().items():
            try:
                await self._hand_revoked(table_id, seats)
            except (TableError, StaleVersion):
                continue
            except Exception:
                log.exception("handing revoked seats to a bot failed at table %s", table_id)
        for table_id in self.store.tables.stalled_bot_tables(now - STALL_S):
            if table_id not in self._drivers:
                self._kick(table_id)
        self._live.drop_idle(self.settings.idle_s)

    async def _hand_revoked(self, table_id: str, seats: Sequence[int]) -> None:
        """Hand the seats of revoked agents at a playing table to bot:heuristic (the clock's last resort).

        One guarded write per table: on several workers one wins, the others get ``StaleVersion``.

        Raises:
            TableError: unknown table.
            StaleVersion: another worker wrote to the table first.
        """
        async with self._locked(table_id) as live:
            if live.status != "playing":
                return
            handed = {s: "heuristic" for s in seats if s in live.claims and live.claims[s].bot is None}
            if not handed:
                return
            prev = live.pending()
            live.ensure_caches()
            rows: EventRows = [
                (
                    live.version,
                    None,
                    f"{live.names()[s]}: the agent was revoked, so bot:heuristic plays the seat for the rest "
                    "of the game.",
                    {"revoked": True, "seat": s, "handed_to": "bot:heuristic"},
                )
                for s in sorted(handed)
            ]
            self._commit(live, live.version, prev, [], rows, handed=handed)
        log.info("table %s: seats %s of revoked agents handed to bot:heuristic", table_id, sorted(handed))
        await self._after_write(live)

    async def _sweep_forever(self) -> None:
        while True:
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("table sweeper failed")
            await asyncio.sleep(self.settings.sweep_s)

    async def _expire(self, table_id: str) -> None:
        """Stop a table whose wait for agents ran out (status ``aborted``: its open-table slot is freed).

        Raises:
            TableError: unknown table.
            StaleVersion: another worker changed the table first.
        """
        waited = self.settings.waiting_expiry_s
        async with self._locked(table_id) as live:
            now = self._clock()
            # A table stored before waiting tables had a deadline waits from its last write.
            due = live.deadline_at if live.deadline_at is not None else (live.row.updated_at or 0) + (waited or 0)
            if live.status != "waiting" or waited is None or due > now:
                return
            note = (
                f"the table expired: no agent took a seat for {waited / 60:g} minutes while seats "
                f"{live.open_seats()} were open; create a table or call seek_game again"
            )
            live.revision = self.store.tables.abort_table(table_id, revision=live.revision, note=note, now=now)
            live.status, live.note, live.waiting_on, live.deadline_at = "aborted", note, None, None
            live.row = replace(live.row, status="aborted", note=note, deadline_at=None)
            live.wake()

    async def _timeout(self, table_id: str) -> None:
        """Play the decisions whose clock ran out at a table (the rules' default, else the heuristic bot's).

        Raises:
            TableError: unknown table.
            StaleVersion: another worker played or timed out the decision first.
        """
        async with self._locked(table_id) as live:
            now = self._clock()
            if live.status != "playing" or live.deadline_at is None or live.deadline_at > now:
                return
            prev = live.pending()
            bots = live.bots()
            late = [s for s in prev.seats if s not in bots and s in live.claims]
            if not late:
                return
            try:
                await self._clock_plays(live, prev, late)
            except BaseException:
                self._live.drop(table_id)  # the state may be half-changed: reload it from the store
                raise
        await self._after_write(live)

    async def _clock_plays(self, live: LiveTable, prev: Pending, late: Sequence[int]) -> None:
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
        rows: EventRows = []
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
            rows += self._timeout_notice(live, seat, v, timeout, move.text(), rule_id)
            rows += [(v, *event_tuple(e)) for e in events]
            moves.append((seat, move, "clock"))
        if no_default:
            task = LaneTask(
                table_id=table_id,
                game_id=live.row.game,
                options=live.row.config,
                seats=len(live.row.seats),
                seed=live.row.seed,
                base_version=base,
                bots={},
                once=tuple(no_default),
                sync=Sync(-1),
                max_moves=len(no_default),
                max_cpu_s=60.0,
            )
            if moves:
                # The lane works from the stored table: give it the default moves played just now.
                task = replace(task, base_version=base + len(moves))
                sync = await self._full_sync(table_id, game, base)
                sync = replace(sync, moves=sync.moves + tuple((s, m.to_json()) for s, m, _ in moves))
                task = replace(task, sync=sync)
            res = await self._run_lane(task, game)
            if res.error is not None:
                self._live.drop(table_id)
                log.error("engine defect while the clock played at table %s:\n%s", table_id, res.error)
                return
            for lm in res.moves:
                parsed = game.parse_move(lm.move)
                events = game.apply(state, lm.seat, parsed)
                v = base + len(moves) + 1
                rows += self._timeout_notice(live, lm.seat, v, timeout, parsed.text(), None)
                rows += [(v, *event_tuple(e)) for e in events]
                moves.append((lm.seat, parsed, "clock"))
        for seat, _m, _a in moves:
            count = live.claims[seat].timeouts + 1
            timeouts[seat] = count
            if count >= live.opts.max_timeouts:
                handed[seat] = "heuristic"
                rows.append(
                    (
                        base + len(moves),
                        None,
                        f"{live.names()[seat]} ran out of time {count} times in a row: bot:heuristic plays "
                        "the seat for the rest of the game.",
                        {"timeout": True, "seat": seat, "handed_to": "bot:heuristic"},
                    )
                )
        if not moves:
            return
        self._commit(live, base, prev, moves, rows, timeouts=timeouts, handed=handed)

    def _timeout_notice(
        self, live: LiveTable, seat: int, version: int, timeout: float, text: str, rule_id: str | None
    ) -> EventRows:
        """The events of a timed-out decision: a public notice (no secret revealed) and the move to the seat."""
        who = live.names()[seat]
        how = (
            f"the rules' default was played (rule {rule_id})"
            if rule_id
            else "bot:heuristic chose (no rule gives a default here)"
        )
        data = {"timeout": True, "seat": seat, "rule_id": rule_id, "by": "default" if rule_id else "bot:heuristic"}
        return [
            (version, None, f"{who} ran out of time ({timeout:g} s for this decision): {how}.", data),
            (version, (seat,), f"The clock played for you: {text}.", {**data, "move": text}),
        ]

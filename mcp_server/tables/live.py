"""Live tables: the game state of tables in use, kept in a bounded cache and rebuilt from the store.

A :class:`LiveTable` holds a table's state at its stored version, the facts of its row (status,
revision, clock, seat versions), its seat claims, the recent events, and per seat what that seat
sees now (:class:`SeatCache`: its view, its legal moves and their plain words). Loading a table
is its latest snapshot (when the game restores snapshots) plus the moves after it; catching up
after another process wrote applies only the moves this process misses.

:class:`LiveTables` is the cache: at most ``max_live_tables`` tables, least recently used dropped
first, finished and idle tables dropped early; a table with waiters or work in progress stays.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from club_agentes.engine.core import Game, Pending
from club_agentes.engine.core.errors import EngineError
from club_agentes.engine.core.model import MoveNote
from club_agentes.mcp_server.eventrow import EventRow, event_rows
from club_agentes.mcp_server.store import Store
from club_agentes.mcp_server.store.tables import Append, SeatClaim, TableRow
from club_agentes.mcp_server.tables.config import TableOptions
from club_agentes.mcp_server.tables.lanes import restorable, result_json

log = logging.getLogger("club_agentes.tables")

TAIL_EVENTS = 300
"""Recent events kept in memory per table (older ones are read from the store)."""

LANE_MOVES = 256
"""Moves kept in memory per table for its bot lane between two pieces of bot work (:attr:`LiveTable.lane_moves`)."""


@dataclass
class SeatCache:
    """What one seat sees at the table's current state (valid while its ``seat_version`` stands).

    Attributes:
        view: the engine's view for the seat.
        moves: the seat's legal moves (empty when it must not decide).
        prompt: ``(kind, prompt)`` of the pending decision when it is the seat's, else ``None``.
        notes: the moves in plain words, for ``names`` (computed on first use).
        brief: the engine's state lines of the view, ``Game.state_text`` (computed on first use).
    """

    view: dict[str, Any]
    moves: list[Any]
    prompt: tuple[str, str] | None = None
    notes: list[MoveNote] | None = None
    names: tuple[str, ...] = ()
    brief: str | None = None
    facts: list[Any] | None = None

    def same_as(self, other: SeatCache) -> bool:
        """Return whether the seat sees the same as in ``other``: view, decision prompt and legal moves.

        Compared as values (moves are frozen dataclasses), which costs far less than serialising them.
        """
        return self.prompt == other.prompt and self.moves == other.moves and self.view == other.view


def says_touched(game: Game) -> bool:
    """Return whether ``game`` says which seats each move reaches (overrides ``Game.touched``): its tables move
    seat versions from what a write knows and never compute a view to compare. Raises nothing."""
    return type(game).touched is not Game.touched


def seat_fingerprint(game: Game, state: Any, seat: int, pending: Pending) -> SeatCache:
    """Return what ``seat`` sees now, to compare with what it saw before (:meth:`SeatCache.same_as`).

    Another seat's sealed choice changes neither this seat's view nor its legal moves, so the two
    compare equal (and the seat's version stays).
    """
    view = game.view(state, seat)
    if seat in pending.seats:
        return SeatCache(view, game.legal_moves(state, seat), (pending.kind, pending.prompt))
    return SeatCache(view, [])


def seat_changed(game: Game, state: Any, seat: int, pending: Pending, old: SeatCache | None) -> SeatCache | None:
    """Return what ``seat`` sees now if it differs from ``old`` (what it saw before the write), else ``None``.

    Raises:
        Exception: whatever the engine's ``view`` or ``legal_moves`` raises (a defect).
    """
    new = seat_fingerprint(game, state, seat, pending)
    return None if old is not None and new.same_as(old) else new


@dataclass(frozen=True)
class Seen:
    """What a turn of this process decided about the seats (:func:`.turn.seat_versions`).

    Attributes:
        changed: seat -> its new version (what it may see changed, or it moved, or it was unseen).
        caches: what each seat sees after the turn, where known (the unchanged ones and those compared).
        unseen: the seats that have not read since their version last moved.
    """

    changed: dict[int, int]
    caches: dict[int, SeatCache]
    unseen: set[int]


class Written(NamedTuple):
    """The mark of a write a request just made to a live table (:meth:`.service.TableService.written`).

    Attributes:
        live: the live table written to.
        news: its :attr:`LiveTable.news` right after the write.
    """

    live: LiveTable
    news: int


@dataclass
class LiveTable:
    """A table in memory at its stored ``version`` and ``revision``.

    Attributes:
        event_count: the events of the table's stored log: the place (``EventRow.idx``) its next event takes, from
            which a turn numbers the rows it builds (:func:`~club_agentes.mcp_server.eventrow.event_rows`).
        tail: the newest :data:`TAIL_EVENTS` rows of the log, in order: the rows a write of this process stored
            (``Append.events``, kept as they are) or read back from the store.
    """

    row: TableRow
    game: Game
    config: Any
    state: Any
    opts: TableOptions
    version: int
    revision: int
    status: str
    result: dict[str, Any] | None
    waiting_on: str | None
    deadline_at: float | None
    note: str | None
    claims: dict[int, SeatClaim]
    seat_versions: dict[int, int]
    last_moved: dict[int, int]
    event_count: int
    tail: list[EventRow] = field(default_factory=list)
    caches: dict[int, SeatCache] = field(default_factory=dict)
    # Seats whose view was not computed since their version last moved: each write moves it again.
    unseen: set[int] = field(default_factory=set)
    listed: dict[int, int] = field(default_factory=dict)
    lane_version: int | None = None
    lane_moves: list[tuple[int, Any]] = field(default_factory=list)
    """The moves (seat, move JSON) applied after :attr:`lane_version`, in order: what the table's bot lane misses
    (at most :data:`LANE_MOVES`; past that, the lane's sync reads them from the store)."""
    queued: dict[int, Any] = field(default_factory=dict)
    """Seat -> its act waiting for an interruption that asks it first (:class:`.queued.QueuedAct`; memory only)."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    waiters: int = 0
    touched: float = field(default_factory=time.monotonic)
    writing: asyncio.Future[None] | None = None
    """Set while a turn of this process is being stored (its moves are in :attr:`state`, not yet in
    :attr:`version`): readers wait for it (:meth:`settled`)."""
    news: int = 0
    """How many times another worker said this table may have moved past what this process holds (a ``NOTIFY``
    of a newer revision, or the listener back after it may have missed some): the wait that follows a write of
    this process compares it (:meth:`.service.TableService.wait`)."""
    synced: int = -1
    """:attr:`news` when this process last read the table's head or stored a write (-1: not since it was loaded,
    when a ``NOTIFY`` could find no live table to count on): while it equals :attr:`news`, nothing says another
    worker wrote since (:meth:`.service.TableService._sync` with ``trust``)."""
    heard_writing: list[int] = field(default_factory=list)
    """Revisions whose ``NOTIFY`` came while a turn of this process was being stored, each the very revision that
    turn makes (:meth:`heard`): most likely the turn's own, announced before its store call returned. They count
    as :attr:`news` only if the turn did not make that revision (:meth:`end_write`)."""
    unconfirmed: bool = False
    """Set for the holder of :attr:`lock` when :meth:`.service.TableService._locked` did not read the table's head
    (``trust``): a move is refused only after the head was read (:func:`.turn.play_once`)."""

    @property
    def id(self) -> str:
        """The table id."""
        return self.row.id

    def wake(self) -> None:
        """Wake every waiter of this table; later waiters wait on a fresh event."""
        self.changed.set()
        self.changed = asyncio.Event()

    def moved_elsewhere(self) -> None:
        """Count news from another worker (:attr:`news`) and wake every waiter of this table."""
        self.news += 1
        self.wake()

    def heard(self, revision: int | None) -> None:
        """Take a ``NOTIFY`` of a write to this table that created ``revision`` (``None``: not said).

        A revision this table holds already is no news. While this process stores a turn, the listener may
        deliver that turn's own ``NOTIFY`` before the store call returns: the revision right after the one held
        is then put aside until :meth:`end_write` knows whose it was, so a worker's own write does not make its
        next read go to the store. Anything else counts as news (:meth:`moved_elsewhere`). Raises nothing.
        """
        if revision is not None and revision <= self.revision:
            return
        if revision is not None and self.writing is not None and revision == self.revision + 1:
            self.heard_writing.append(revision)
            return
        self.moved_elsewhere()

    def begin_write(self) -> None:
        """Mark a turn in progress (call with the table's lock held, before the state changes)."""
        if self.writing is None:
            self.writing = asyncio.get_running_loop().create_future()

    def end_write(self, revision: int | None = None) -> None:
        """End the turn in progress (stored and applied, or failed): readers waiting for it go on.

        ``revision``: the revision the turn's write created (``None`` when it failed or is not known): a
        ``NOTIFY`` put aside meanwhile (:meth:`heard`) of any other revision counts as news. Raises nothing.
        """
        heard, self.heard_writing = self.heard_writing, []
        if any(r != revision for r in heard):
            self.moved_elsewhere()
        done, self.writing = self.writing, None
        if done is not None and not done.done():
            done.set_result(None)

    async def settled(self) -> None:
        """Wait until no turn of this process is in progress at this table. Raises nothing."""
        while self.writing is not None:
            await asyncio.shield(self.writing)

    def pending(self) -> Pending:
        """Return who must decide now."""
        return self.game.pending(self.state)

    def bot_kind(self, seat: int) -> str | None:
        """Return the bot kind that plays ``seat`` now (a bot seat, or an agent seat handed to a bot), else ``None``."""
        spec = self.row.seats[seat]
        if spec.startswith("bot:"):
            return spec[4:]
        claim = self.claims.get(seat)
        return claim.bot if claim is not None else None

    def bots(self) -> dict[int, str]:
        """Return seat -> bot kind for every seat a bot plays now."""
        out = {}
        for s in range(len(self.row.seats)):
            kind = self.bot_kind(s)
            if kind is not None:
                out[s] = kind
        return out

    def open_seats(self) -> list[int]:
        """Return the agent seats nobody has taken."""
        return [s for s, spec in enumerate(self.row.seats) if spec == "agent" and s not in self.claims]

    def cache(self, seat: int) -> SeatCache:
        """Return what ``seat`` sees now (computed if this process has not yet)."""
        c = self.caches.get(seat)
        if c is None:
            c = self.caches[seat] = seat_fingerprint(self.game, self.state, seat, self.pending())
            self.unseen.discard(seat)
        return c

    def ensure_caches(self) -> None:
        """Compute what every seated agent sees now (before a change, so the change can be compared).

        Seats in :attr:`unseen` are left out: their version moves at the next write anyway; and nothing is
        computed at a game that says which seats its moves reach (:func:`says_touched`): nothing is compared.
        """
        if says_touched(self.game):
            return
        for seat in self.claims:
            if seat not in self.unseen:
                self.cache(seat)

    def names(self) -> tuple[str, ...]:
        """Return one label per seat for plain-words moves: ``seat 1 (claude-7)``, ``seat 2 (bot:heuristic)``."""
        out = []
        for s, spec in enumerate(self.row.seats):
            claim = self.claims.get(s)
            who = claim.agent if claim is not None else (spec if spec.startswith("bot:") else "open seat")
            out.append(f"seat {s} ({who})")
        return tuple(out)

    def notes(self, seat: int) -> list[MoveNote]:
        """Return the seat's legal moves in plain words.

        An engine without ``explain``, or whose ``explain`` fails (logged with its traceback), gives
        each move's text form instead: the table goes on.
        """
        c = self.cache(seat)
        names = self.names()
        if c.notes is None or c.names != names:
            notes: list[MoveNote] = []
            if c.moves:
                try:
                    notes = list(self.game.explain(self.state, seat, c.moves, names))
                except Exception:
                    log.exception("engine defect: %s explain() at table %s, seat %d", self.row.game, self.id, seat)
            if len(notes) != len(c.moves):
                notes = [MoveNote(m.text()) for m in c.moves]
            c.notes, c.names, c.facts = notes, names, None
        return c.notes

    def brief(self, seat: int) -> str:
        """Return the engine's state lines of the seat's view (``Game.state_text``; "" if it fails, logged)."""
        c = self.cache(seat)
        if c.brief is None:
            try:
                text = self.game.state_text(c.view)
            except Exception:
                log.exception("engine defect: %s state_text() at table %s, seat %d", self.row.game, self.id, seat)
                text = ""
            c.brief = text.strip()
        return c.brief

    def add_events(self, events: Sequence[EventRow]) -> None:
        """Append stored event rows (the next places of the log, in order) to the in-memory tail (keeping the newest
        :data:`TAIL_EVENTS`)."""
        self.tail.extend(events)
        if len(self.tail) > TAIL_EVENTS:
            del self.tail[: len(self.tail) - TAIL_EVENTS]

    def tail_covers(self, after_version: int) -> bool:
        """Return whether the tail holds every event with a version after ``after_version``."""
        if self.event_count == 0:
            return True
        if not self.tail:
            return False
        first = self.tail[0]
        return first.idx == 0 or first.version <= after_version

    def apply(self, append: Append, revision: int, *, seen: Seen | None = None) -> None:
        """Apply one stored write to the table in memory: the only way moves (and the version) reach a live table.

        (A seat taken and a table stopped change no game state: :meth:`seat_taken`, :meth:`stopped`.)

        Both a turn of this process (:func:`.turn.commit`, once the store took it; its moves are
        already applied to :attr:`state`, as the turn played them to learn their events; ``seen`` says what each
        seat sees after it) and a write of another process read back from the store (:mod:`.catchup`: the moves
        are parsed and applied here, and the seats' cached views are dropped) come through here.

        Raises:
            IllegalMove, InvalidMove: a stored move does not replay (a corrupted store).
        """
        game = self.game
        v = append.base_version
        played = seen is not None
        for seat, move, _actor, _at in append.moves:
            if not played:
                game.apply(self.state, seat, game.parse_move(move))
            v += 1
            self.last_moved[seat] = v
        if self.lane_version is not None and len(self.lane_moves) < LANE_MOVES:
            self.lane_moves += [(seat, move) for seat, move, _actor, _at in append.moves]
        self.version = v
        self.revision = revision
        self.status = append.status
        self.result = append.result
        self.waiting_on = append.waiting_on
        self.deadline_at = append.deadline_at
        self.seat_versions.update(append.seat_versions)
        for seat, count in append.timeouts.items():
            if seat in self.claims:
                self.claims[seat] = replace(self.claims[seat], timeouts=count)
        for seat, kind in append.handed.items():
            if seat in self.claims:
                self.claims[seat] = replace(self.claims[seat], bot=kind)
        self.event_count += len(append.events)  # the rows are at their places: the store took them there
        self.add_events(append.events)
        if append.bot_cpu_ms:  # a write without bot time leaves the row as it is (no copy of it)
            self.row = replace(self.row, bot_cpu_ms=self.row.bot_cpu_ms + append.bot_cpu_ms)
        if seen is not None:
            self.caches, self.unseen = dict(seen.caches), set(seen.unseen)
        elif append.moves:
            self.caches.clear()
            self.unseen.clear()
        self.wake()

    def seat_taken(
        self, claim: SeatClaim, revision: int, status: str, waiting_on: str | None, deadline_at: float | None
    ) -> None:
        """Record a seat claim the store took at ``revision`` (the game starts when ``status`` is ``playing``)."""
        self.claims[claim.seat] = claim
        self.revision = revision
        self.status = status
        self.waiting_on = waiting_on
        self.deadline_at = deadline_at
        self.seat_versions[claim.seat] = self.version
        self.row = replace(self.row, open_seats=self.row.open_seats - 1, status=status)
        self.wake()

    def stopped(self, revision: int, note: str) -> None:
        """Record that the store stopped the table at ``revision`` (status ``aborted``, ``note`` says why)."""
        self.revision = revision
        self.status, self.note, self.waiting_on, self.deadline_at = "aborted", note, None, None
        self.row = replace(self.row, status="aborted", note=note, deadline_at=None)
        self.wake()

    def apply_row(self, row: TableRow, claims: Sequence[SeatClaim]) -> None:
        """Take the facts of a freshly read row that no move carries (claims, note, the row itself), after
        :meth:`apply` brought the game to its version."""
        self.row = row
        self.revision = row.revision
        self.status = row.status
        self.result = row.result
        self.waiting_on = row.waiting_on
        self.deadline_at = row.deadline_at
        self.note = row.note
        self.claims = {c.seat: c for c in claims}
        self.seat_versions = dict(row.seat_versions)
        self.event_count = max(row.event_count, 0)


def load_table(store: Store, games: Callable[[str], Game], table_id: str) -> LiveTable | None:
    """Rebuild a table from the store: its latest snapshot (if the game restores them) plus later moves.

    Loading never writes: the events of tables stored before events were kept are regenerated once, when the
    service starts (:func:`backfill_old_tables`).

    Returns ``None`` for an unknown table.

    Raises:
        UnknownGame: the table's game is not installed.
        IllegalMove, InvalidMove: a stored move does not replay (a corrupted store).
    """
    row = store.tables.load_table(table_id)
    if row is None:
        return None
    game = games(row.game)
    config = game.make_config(len(row.seats), row.config)
    state = None
    base = 0
    if restorable(game):
        snap = store.tables.latest_snapshot(table_id, game.snapshot_version)
        if snap is not None:
            try:
                state = game.restore(config, snap.data)
                base = snap.version
            except (NotImplementedError, ValueError):
                state = None
    if state is None:
        state, _ = game.start(config, row.seed)
        base = 0
    for m in store.tables.load_moves(table_id, after=base, upto=row.version):
        game.apply(state, m.seat, game.parse_move(m.move))
    claims = store.tables.seat_claims(table_id)
    live = LiveTable(
        row=row,
        game=game,
        config=config,
        state=state,
        opts=TableOptions.from_json({"require_club_pass": row.require_club_pass, **row.table_options}),
        version=row.version,
        revision=row.revision,
        status=row.status,
        result=row.result,
        waiting_on=row.waiting_on,
        deadline_at=row.deadline_at,
        note=row.note,
        claims={c.seat: c for c in claims},
        seat_versions=dict(row.seat_versions),
        last_moved=store.tables.last_moves_by_seat(table_id),
        event_count=max(row.event_count, 0),
    )
    live.add_events(store.tables.load_events(table_id, everything=True, limit=TAIL_EVENTS, newest=True))
    if live.result is None and live.status in ("playing", "finished") and game.pending(state).kind == "over":
        live.result = result_json(game.result(state))
    return live


def backfill_old_tables(store: Store, games: Callable[[str], Game]) -> int:
    """Store the events of every table stored before events were kept, regenerated by replay; return how many.

    The service runs it once when it is built, so a store written by an older version is converted before any
    table is loaded. A table whose game is not installed or whose moves no longer replay is left as it was
    (loading it reports why); a table another process converted first is skipped. Never raises but the
    store's errors.
    """
    converted = 0
    for table_id in store.tables.tables_without_events():
        row = store.tables.load_table(table_id)
        if row is None:
            continue
        try:
            game = games(row.game)
            state, setup = game.start(game.make_config(len(row.seats), row.config), row.seed)
            events = event_rows(setup, 0, 0)
            for m in store.tables.load_moves(table_id, upto=row.version):
                applied = game.apply(state, m.seat, game.parse_move(m.move))
                events += event_rows(applied, m.version, len(events))
        except EngineError as exc:  # an unknown game, a configuration or a move that no longer reads
            log.warning("table %s keeps no events: it does not replay (%s)", table_id, exc)
            continue
        converted += store.tables.backfill_events(table_id, events, version=row.version)
    return converted


class LiveTables:
    """The bounded cache of live tables (least recently used first out)."""

    def __init__(self, capacity: int) -> None:
        self.capacity = max(1, capacity)
        self._tables: OrderedDict[str, LiveTable] = OrderedDict()

    def __len__(self) -> int:
        return len(self._tables)

    def __contains__(self, table_id: object) -> bool:
        return table_id in self._tables

    def get(self, table_id: str) -> LiveTable | None:
        """Return a live table (marking it used), or ``None``."""
        live = self._tables.get(table_id)
        if live is not None:
            self._tables.move_to_end(table_id)
            live.touched = time.monotonic()
        return live

    def peek(self, table_id: str) -> LiveTable | None:
        """Return a live table without marking it used."""
        return self._tables.get(table_id)

    def put(self, live: LiveTable) -> None:
        """Keep a table, dropping the least recently used idle ones beyond the capacity.

        A table this replaces, or drops, wakes its waiters: they wait on the table now in memory."""
        old = self._tables.get(live.id)
        if old is not None and old is not live:
            old.wake()
        self._tables[live.id] = live
        self._tables.move_to_end(live.id)
        live.touched = time.monotonic()
        if len(self._tables) > self.capacity:
            for tid in list(self._tables):
                if len(self._tables) <= self.capacity:
                    break
                if tid != live.id and _idle(self._tables[tid]):
                    self._tables.pop(tid).wake()

    def waiters(self) -> int:
        """Return how many calls wait for a turn on the tables held."""
        return sum(live.waiters for live in self._tables.values())

    def drop(self, table_id: str) -> None:
        """Forget a table (it is reloaded from the store on its next use); its waiters wake, so that they wait
        on the reloaded table (a write to that one would not wake them)."""
        live = self._tables.pop(table_id, None)
        if live is not None:
            live.wake()

    def wake_all(self) -> None:
        """Wake the waiters of every table (they re-read the store): any of them may have moved elsewhere."""
        for live in self._tables.values():
            live.moved_elsewhere()

    def drop_idle(self, idle_s: float, finished_s: float = 5.0) -> int:
        """Drop tables unused for ``idle_s`` seconds (finished ones after ``finished_s``); return how many."""
        now = time.monotonic()
        dropped = 0
        for tid, live in list(self._tables.items()):
            limit = finished_s if live.status in ("finished", "aborted") else idle_s
            if now - live.touched >= limit and _idle(live):
                del self._tables[tid]
                live.wake()  # a waiter between its subscription and its sleep is not counted in ``waiters``
                dropped += 1
        return dropped


def _idle(live: LiveTable) -> bool:
    return live.waiters == 0 and not live.lock.locked()

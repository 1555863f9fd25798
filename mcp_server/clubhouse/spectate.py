"""What a spectator may see of a table: the public view, the public events, the result; and replays.

The table service answers seats (a token's view), not spectators, so this module is a thin reader
over the service's own building blocks (:func:`~club_agentes.mcp_server.tables.live.load_table`
and :func:`~club_agentes.mcp_server.tables.catchup.catch_up` over the store): it keeps its own small
cache of tables being watched, catches each up with the moves it misses, and gives out only
``game.view(state, None)`` (the spectator's view, which the engines build to show no hidden card)
and events whose audience is everyone. (It belongs in the table service as a public method; until
then it lives here.)

Replays cost what they show: a step is built from the nearest checkpoint (an engine snapshot the
table stored, or one this module cached, bounded in bytes) plus the moves after it, and shows the
spectator's view after that move and the events it caused (every event, private ones included: once
the game is over its full log is public); the move list is read a window at a time.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from club_agentes.engine.core import Game, get_game
from club_agentes.mcp_server.eventrow import EventRow
from club_agentes.mcp_server.store import Store
from club_agentes.mcp_server.store.tables import TableRow
from club_agentes.mcp_server.tables.catchup import catch_up
from club_agentes.mcp_server.tables.lanes import restorable
from club_agentes.mcp_server.tables.live import LiveTable, load_table

T = TypeVar("T")

WATCHED = 64
"""Tables whose live state this process keeps for spectators (least recently watched are dropped)."""
EVENT_WINDOW = 256
"""Versions the first read of a table's newest public events covers (see :meth:`Spectator.public_events`)."""
REPLAY_CACHE_BYTES = 64 * 2**20
"""The bytes of replay checkpoints kept in memory by default (the ``replay_cache_mb`` limit)."""
REPLAY_CPU_S = 2.0
"""The CPU seconds one replay step may take by default (the ``replay_cpu_ms`` limit)."""
READ_CHUNK = 50
"""Versions one store statement of a replay reads (the store serves one statement at a time, so the event loop's
own short reads wait for one chunk at most)."""
CHECKPOINT_EVERY = 16
"""A replay keeps the engine's snapshot every this many versions it passes (in :class:`ByteCache`)."""


class NotFound(LookupError):
    """No such table (or no replay of it yet); the message is one sentence."""


@dataclass(frozen=True)
class SeatLine:
    """A seat as a spectator sees it: who plays it."""

    seat: int
    player: str
    kind: str
    open: bool
    played_by: str | None


@dataclass(frozen=True)
class PublicTable:
    """A table as a spectator sees it at one version.

    Attributes:
        view: the engine's spectator view (``game.view(state, None)``).
        summary: the engine's compact text of that view.
        deciding: the seats that must decide now, and the prompt.
        result: the stored result once finished (winners, scores, reason, breakdown).
    """

    table_id: str
    game: str
    name: str
    status: str
    version: int
    revision: int
    seats: tuple[SeatLine, ...]
    view: dict[str, Any]
    summary: str
    deciding: tuple[int, ...]
    prompt: str
    result: dict[str, Any] | None
    note: str | None
    created_at: float
    updated_at: float


def seat_lines(row: TableRow, claims: dict[int, Any]) -> tuple[SeatLine, ...]:
    """Return who plays each seat of a stored table."""
    out = []
    for s, spec in enumerate(row.seats):
        c = claims.get(s)
        if c is not None:
            out.append(SeatLine(s, c.agent, spec, False, f"bot:{c.bot}" if c.bot else None))
        elif spec == "agent":
            out.append(SeatLine(s, "", spec, True, None))
        else:
            out.append(SeatLine(s, spec, spec, False, None))
    return tuple(out)


@dataclass(frozen=True)
class ReplayStep:
    """One step of a replay: the spectator's view after ``version`` and the events of that version."""

    version: int
    view: dict[str, Any]
    summary: str
    events: tuple[EventRow, ...]
    seat: int | None


@dataclass(frozen=True)
class Replay:
    """A finished game's replay header: who played, its options and result, and how many steps it has.

    Step ``i`` is the table after version ``i`` (step 0 is the deal); :meth:`Spectator.replay_step`
    builds one step, :meth:`Spectator.move_lines` a window of the move list.
    """

    table_id: str
    game: str
    name: str
    seats: tuple[SeatLine, ...]
    seed: int
    options: dict[str, Any]
    result: dict[str, Any] | None
    count: int


@dataclass(frozen=True)
class MoveLine:
    """One line of a replay's move list: the step, who moved, and the first event of that version."""

    index: int
    seat: int | None
    event: EventRow | None


class ReplayBusy(RuntimeError):
    """Building a replay step ran out of its CPU budget; what was built is kept, so a retry gets further."""


class ByteCache:
    """A least-recently-used cache of encoded values, bounded by the bytes it holds (not by entries).

    Values are stored encoded (compact JSON bytes), so :attr:`size` is what the cache really holds, give
    or take a small constant per entry; a value larger than the whole budget is not kept. Thread-safe.
    """

    ENTRY_OVERHEAD = 200
    """Bytes counted per entry on top of its value (the key, the dictionary slot, the bytes header)."""

    def __init__(self, max_bytes: int | None) -> None:
        self.max_bytes = max_bytes
        self._items: OrderedDict[tuple[Any, ...], bytes] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()

    @property
    def size(self) -> int:
        """The bytes held now (values plus :data:`ENTRY_OVERHEAD` per entry)."""
        return self._size

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: tuple[Any, ...]) -> bytes | None:
        """Return the value at ``key`` (now the most recently used), or ``None``."""
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: tuple[Any, ...], value: bytes) -> None:
        """Keep ``value`` at ``key``, dropping the least recently used values to stay within the budget."""
        cost = len(value) + self.ENTRY_OVERHEAD
        if self.max_bytes is not None and cost > self.max_bytes:
            return
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self._size -= len(old) + self.ENTRY_OVERHEAD
            self._items[key] = value
            self._size += cost
            while self.max_bytes is not None and self._size > self.max_bytes and self._items:
                _, dropped = self._items.popitem(last=False)
                self._size -= len(dropped) + self.ENTRY_OVERHEAD


def _encode(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


class Spectator:
    """Reads tables as a spectator; every method blocks (call them from a worker thread)."""

    def __init__(
        self,
        store: Store,
        games: Callable[[str], Game] = get_game,
        *,
        replay_cache_bytes: int | None = REPLAY_CACHE_BYTES,
        replay_cpu_s: float | None = REPLAY_CPU_S,
    ) -> None:
        self.store = store
        self._games = games
        self._live: OrderedDict[str, LiveTable] = OrderedDict()
        self.replays = ByteCache(replay_cache_bytes)
        """Replay checkpoints (engine snapshots every :data:`CHECKPOINT_EVERY` versions), bounded in bytes."""
        self.replay_cpu_s = replay_cpu_s
        self._lock = threading.Lock()

    def game(self, game_id: str) -> Game:
        """Return a game by id.

        Raises:
            UnknownGame: no such game.
        """
        return self._games(game_id)

    def _live_table(self, table_id: str) -> LiveTable:
        live = self._live.get(table_id)
        if live is not None:
            self._live.move_to_end(table_id)
            if catch_up(self.store, live):
                return live
            del self._live[table_id]
        loaded = load_table(self.store, self._games, table_id)
        if loaded is None:
            raise NotFound(f"there is no table {table_id[:40]!r}")
        self._live[table_id] = loaded
        while len(self._live) > WATCHED:
            self._live.popitem(last=False)
        return loaded

    def head(self, table_id: str) -> tuple[int, int, str] | None:
        """Return a table's ``(revision, version, status)`` (one indexed read), or ``None``."""
        h = self.store.tables.table_head(table_id)
        return (h.revision, h.version, h.status) if h is not None else None

    def public(self, table_id: str) -> PublicTable:
        """Return the table as a spectator sees it now.

        Raises:
            NotFound: no such table.
        """
        with self._lock:
            live = self._live_table(table_id)
            game = live.game
            view = game.view(live.state, None)
            pending = game.pending(live.state)
            summary = game.render(view)
            row = live.row
            return PublicTable(
                table_id=live.id,
                game=row.game,
                name=game.name,
                status=live.status,
                version=live.version,
                revision=live.revision,
                seats=seat_lines(row, live.claims),
                view=view,
                summary=summary,
                deciding=tuple(pending.seats) if live.status == "playing" else (),
                prompt=pending.prompt if live.status == "playing" else "",
                result=live.result,
                note=live.note,
                created_at=row.created_at,
                updated_at=row.updated_at,
            )

    def public_events(
        self, table_id: str, after_version: int = -1, upto_version: int | None = None, limit: int | None = None
    ) -> list[EventRow]:
        """Return the public events with ``after_version < version <= upto_version`` (the newest ``limit``).

        With a ``limit`` and an ``upto_version``, the newest versions are read first, in windows that double until
        ``limit`` events are found: the store's query over a whole long game's range scans every event of it (a
        spectator stream of a finished 30,000-move game spent 90% of its time in that one query: the attack
        benchmark's "spectator reconnects"), a window scans about as many as it shows.
        """
        if limit is None or upto_version is None:
            return self.store.tables.load_events(
                table_id, after_version=after_version, upto_version=upto_version, seat=None, limit=limit, newest=True
            )
        window = max(EVENT_WINDOW, limit)
        while True:
            low = max(after_version, upto_version - window)
            events = self.store.tables.load_events(
                table_id, after_version=low, upto_version=upto_version, seat=None, limit=limit, newest=True
            )
            if len(events) >= limit or low <= after_version:
                return events
            window *= 4

    def replay(self, table_id: str) -> Replay:
        """Return a finished game's replay header (one row and its seat claims: no game is replayed).

        Raises:
            NotFound: no such table, or it is not over yet.
        """
        row = self.store.tables.load_table(table_id)
        if row is None:
            raise NotFound(f"there is no table {table_id[:40]!r}")
        if row.status not in ("finished", "aborted"):
            raise NotFound(f"table {table_id} is not over yet; its replay opens when the game ends")
        game = self._games(row.game)
        claims = {c.seat: c for c in self.store.tables.seat_claims(table_id)}
        return Replay(
            table_id, row.game, game.name, seat_lines(row, claims), row.seed, row.config, row.result, row.version + 1
        )

    def replay_step(self, replay: Replay, index: int) -> ReplayStep:
        """Return step ``index`` of a replay: the spectator's view after version ``index`` and its events.

        The state comes from the nearest checkpoint at or before ``index``: an engine snapshot of this
        cache or of the store (the table stores one every few moves), plus the moves after it; never a
        replay from the deal held in memory. Checkpoints met on the way are cached (bounded in bytes), and
        the CPU budget is checked at each, so a step that runs out of it still leaves work behind.

        Raises:
            IndexError: ``index`` is not a step of the replay.
            ReplayBusy: the CPU budget ran out first (the checkpoints built so far are kept).
            IllegalMove, InvalidMove: a stored move does not replay (a corrupted store).
        """
        if not 0 <= index < replay.count:
            raise IndexError(f"step must be from 0 to {replay.count - 1}, not {index}")
        game = self._games(replay.game)
        state = self._state_at(replay, game, index)
        view = game.view(state, None)
        events = self.store.tables.load_events(
            replay.table_id, after_version=index - 1, upto_version=index, everything=True
        )
        seat = None
        if index > 0:
            moves = self.store.tables.load_moves(replay.table_id, after=index - 1, upto=index)
            seat = moves[0].seat if moves else None
        return ReplayStep(index, view, game.render(view), tuple(events), seat)

    def _state_at(self, replay: Replay, game: Game, index: int) -> Any:
        """Return the game state after version ``index``, from the nearest checkpoint (see :meth:`replay_step`)."""
        started = time.thread_time()
        config = game.make_config(len(replay.seats), replay.options)
        keep = restorable(game)
        state: Any = None
        base = 0
        if keep:
            mark = index - index % CHECKPOINT_EVERY
            while mark > 0:
                cached = self.replays.get((replay.table_id, mark))
                if cached is not None:
                    state, base = game.restore(config, json.loads(cached)), mark
                    break
                mark -= CHECKPOINT_EVERY
            snap = self.store.tables.latest_snapshot(replay.table_id, game.snapshot_version, upto=index)
            if snap is not None and snap.version > base:
                with contextlib.suppress(NotImplementedError, ValueError):
                    state, base = game.restore(config, snap.data), snap.version
        if state is None:
            state, _setup = game.start(config, replay.seed)
            base = 0
        for m in self.store.tables.load_moves(replay.table_id, after=base, upto=index):
            game.apply(state, m.seat, game.parse_move(m.move))
            if keep and m.version % CHECKPOINT_EVERY:
                continue  # the budget is checked at checkpoints, so every request leaves one more behind
            if keep:
                self.replays.put((replay.table_id, m.version), _encode(game.snapshot(state)))
            if m.version < index and self.replay_cpu_s is not None and time.thread_time() - started > self.replay_cpu_s:
                raise ReplayBusy(
                    f"step {index} of table {replay.table_id} needs more work than one request may do; "
                    "retry in a moment (the work done so far is kept)"
                )
        return state

    def move_lines(self, replay: Replay, first: int, last: int) -> list[MoveLine]:
        """Return the move list's lines for steps ``first`` to ``last`` (two indexed reads, no replay)."""
        first, last = max(0, first), min(last, replay.count - 1)
        if last < first:
            return []
        events: list[EventRow] = []
        seats: dict[int, int] = {}
        for lo in range(first - 1, last, READ_CHUNK):  # short statements: the store serves one at a time
            hi = min(last, lo + READ_CHUNK)
            events += self.store.tables.load_events(replay.table_id, after_version=lo, upto_version=hi, everything=True)
            seats.update((m.version, m.seat) for m in self.store.tables.load_moves(replay.table_id, after=lo, upto=hi))
        by_version: dict[int, list[EventRow]] = {}
        for e in events:
            by_version.setdefault(e.version, []).append(e)
        out = []
        for i in range(first, last + 1):
            mine = by_version.get(i, [])
            public = [e for e in mine if e.audience is None]
            shown = public or mine
            out.append(MoveLine(i, seats.get(i) if i > 0 else None, shown[0] if shown else None))
        return out

    def look_back(
        self, table_id: str, upto: int, versions: int, pick: Callable[[list[EventRow]], T | None]
    ) -> T | None:
        """Return ``pick`` of the public events up to version ``upto``, read newest first :data:`READ_CHUNK`
        versions at a time: the first chunk ``pick`` finds something in decides (at most ``versions`` read)."""
        hi = upto
        while hi >= 0 and upto - hi < versions:
            lo = max(-1, hi - READ_CHUNK)
            found = pick(self.store.tables.load_events(table_id, after_version=lo, upto_version=hi, seat=None))
            if found is not None:
                return found
            hi = lo
        return None

"""Bot work off the event loop: lanes (worker processes, or threads) that play the bot seats of tables.

A lane mirrors the tables sent to it: it keeps each table's game state between tasks, so a task
carries only the moves the lane has not seen (:class:`Sync`); a lane that does not hold the
table at the expected version answers ``need_sync`` and gets the table's latest snapshot and the
moves after it instead. A task plays the bot seats until an agent must decide, the game ends, or
the task's budget (moves, CPU seconds) is used, and returns the moves with their events, a
snapshot when one is due, the result at the end, and the CPU time it took.

Tables are assigned to lanes by a hash of their id, so a table's state stays in one lane and a
long bots-only game is played in pieces that interleave with other tables' pieces on that lane.

Production servers run lanes as worker processes (``spawn``, one bot decision at a time each), so
bot work never shares the server's interpreter: a slow bot (``bot:mcts`` thinks for half a second
of CPU per decision by default, the table option ``mcts_budget_ms``) cannot stall other requests. A
lane process exits when the server process dies. Games that are not installed entry points (tests'
toy games) run in thread lanes instead, with the same code.

This module imports only the engine (and :mod:`club_agentes.mcp_server.eventrow`, which imports nothing else)
so that lane processes start quickly.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import queue
import threading
import time
import traceback
import zlib
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from club_agentes.engine.core import Game, Result, Rng, get_game
from club_agentes.engine.core.model import decide
from club_agentes.mcp_server.eventrow import EventRow, event_rows

log = logging.getLogger("club_agentes.tables.bots")

CLOCK_BOT = "heuristic"
"""The bot kind that decides for a seat whose decision clock ran out (when the rules give no default)."""


def result_json(result: Result | None) -> dict[str, Any] | None:
    """Return a game result as JSON (winners, scores, reason, rule, per-seat breakdown), or ``None``."""
    if result is None:
        return None
    return {
        "winners": list(result.winners),
        "scores": [float(s) for s in result.scores],
        "reason": result.reason,
        "rule_id": result.rule_id,
        "breakdown": [
            {
                "seat": b.seat,
                "total": float(b.total),
                "unit": b.unit,
                "lines": [{"label": x.label, "amount": float(x.amount), "rule_id": x.rule_id} for x in b.lines],
            }
            for b in result.breakdown
        ],
    }


def restorable(game: Game) -> bool:
    """Return whether ``game`` restores its snapshots (else tables replay from the start)."""
    return type(game).restore is not Game.restore


def bot_rng(seed: int, version: int) -> Rng:
    """Return the random stream of the bot decision made at ``version`` (so that replays agree)."""
    return Rng(seed).fork(version + 1)


@dataclass(frozen=True)
class Sync:
    """How a lane gets a table to the task's base version.

    Attributes:
        from_version: the version the lane must already hold (ignored when ``full``).
        full: rebuild the table: from ``snapshot`` if given, else from the deal.
        snapshot: ``(version, format, data)`` of the engine snapshot to restore, or ``None``.
        moves: ``(seat, move_json)`` to apply after ``from_version`` (when ``full``: after the snapshot's
            version, or after the deal).
    """

    from_version: int
    full: bool = False
    snapshot: tuple[int, int, dict[str, Any]] | None = None
    moves: tuple[tuple[int, dict[str, Any]], ...] = ()


@dataclass(frozen=True)
class LaneTask:
    """Play a table's bot seats from ``base_version`` on.

    Attributes:
        table_id, game_id, options, seats, seed: the table.
        base_version: the version the table is at once ``sync`` is applied.
        bots: seat -> bot kind, for every seat a bot plays now.
        once: agent seats whose current decision the clock hands to :data:`CLOCK_BOT` (once each).
        bot_options: bot kind -> the options ``Game.make_bot`` gets for it at this table (e.g. the
            ``mcts`` search budget, from the table option ``mcts_budget_ms``).
        sync: how to reach ``base_version``.
        max_moves, max_cpu_s: the budget of this piece of work.
        snapshot_every: return a snapshot when a multiple of this is crossed or the game ends (0: never).
        first_event: the events in the table's log at ``base_version``: the place of the first event the work
            causes (its moves' events are rows numbered on from there).
    """

    table_id: str
    game_id: str
    options: Mapping[str, Any]
    seats: int
    seed: int
    base_version: int
    bots: Mapping[int, str]
    sync: Sync
    once: tuple[int, ...] = ()
    bot_options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    max_moves: int = 400
    max_cpu_s: float = 0.05
    snapshot_every: int = 0
    first_event: int = 0


@dataclass(frozen=True)
class LaneMove:
    """A move a lane played: the seat, its JSON and text, who chose it, and the events it caused (as the rows of
    the table's log they make: :class:`~club_agentes.mcp_server.eventrow.EventRow` pickles to the server)."""

    seat: int
    move: dict[str, Any]
    text: str
    actor: str
    events: tuple[EventRow, ...]


@dataclass
class LaneResult:
    """What a piece of bot work did.

    Attributes:
        need_sync: the lane does not hold the table at ``sync.from_version``; send a full sync.
        moves: the moves played, in order, from ``base_version + 1``.
        over: the game is over after them.
        result: the result as JSON (:func:`result_json`) when over.
        snapshot: ``(version, format, data)`` when one is due.
        cpu_s: CPU seconds the work took.
        error: the traceback of an engine defect, else ``None`` (the lane then forgets the table).
        restore_failed: the snapshot sent could not be restored; send a full sync without one.
    """

    table_id: str
    base_version: int
    need_sync: bool = False
    moves: list[LaneMove] = field(default_factory=list)
    over: bool = False
    result: dict[str, Any] | None = None
    snapshot: tuple[int, int, dict[str, Any]] | None = None
    cpu_s: float = 0.0
    error: str | None = None
    restore_failed: bool = False


@dataclass
class _Mirror:
    game: Game
    state: Any
    version: int
    bots: dict[str, Any] = field(default_factory=dict)


class LaneWorker:
    """Plays bot seats for the tables sent to it, keeping their states between tasks (a bounded cache)."""

    def __init__(self, resolve: Callable[[str], Game] = get_game, capacity: int = 256) -> None:
        self.resolve = resolve
        self.capacity = capacity
        self.cache: OrderedDict[str, _Mirror] = OrderedDict()

    def _rebuild(self, task: LaneTask) -> _Mirror | None:
        """Return the table at the sync's start (the snapshot, or the deal); ``None`` if the snapshot fails."""
        game = self.resolve(task.game_id)
        config = game.make_config(task.seats, task.options)
        snap = task.sync.snapshot
        if snap is None:
            state, _setup = game.start(config, task.seed)
            return _Mirror(game, state, 0)
        if snap[1] != game.snapshot_version or not restorable(game):
            return None
        try:
            return _Mirror(game, game.restore(config, snap[2]), snap[0])
        except (NotImplementedError, ValueError):
            return None

    def run(self, task: LaneTask) -> LaneResult:
        """Do one piece of bot work (see :class:`LaneTask`). Never raises: defects come back in ``error``."""
        started = time.thread_time()
        out = LaneResult(task.table_id, task.base_version)
        try:
            self._run(task, out, started)
        except Exception:
            self.cache.pop(task.table_id, None)
            out.error = traceback.format_exc()
        out.cpu_s = time.thread_time() - started
        return out

    def _run(self, task: LaneTask, out: LaneResult, started: float) -> None:
        mirror = self.cache.get(task.table_id)
        if task.sync.full:
            mirror = self._rebuild(task)
            if mirror is None:
                out.need_sync = out.restore_failed = True
                return
        elif mirror is None or mirror.version != task.sync.from_version:
            out.need_sync = True
            return
        moves = task.sync.moves
        game, state = mirror.game, mirror.state
        for mover, data in moves:
            game.apply(state, mover, game.parse_move(data))
            mirror.version += 1
        if mirror.version != task.base_version:
            self.cache.pop(task.table_id, None)
            out.need_sync = True
            return
        self.cache[task.table_id] = mirror
        self.cache.move_to_end(task.table_id)
        while len(self.cache) > self.capacity:
            self.cache.popitem(last=False)
        once = set(task.once)
        version = mirror.version
        idx = task.first_event
        playing = time.thread_time()  # the budget counts bot decisions, not the rebuild (charged all the same)
        while not out.moves or (len(out.moves) < task.max_moves and time.thread_time() - playing < task.max_cpu_s):
            pending = game.pending(state)
            if pending.kind == "over":
                break
            seat = next((s for s in pending.seats if s in task.bots or s in once), None)
            if seat is None:
                break
            if seat in task.bots:
                kind, actor = task.bots[seat], "bot"
            else:
                kind, actor = CLOCK_BOT, "clock"
                once.discard(seat)
            key = f"{seat}:{kind}"
            bot = mirror.bots.get(key)
            if bot is None:
                bot = mirror.bots[key] = game.make_bot(kind, **task.bot_options.get(kind, {}))
            legal = game.legal_moves(state, seat)
            move = decide(bot, game, state, seat, legal, bot_rng(task.seed, version))
            events = game.apply(state, seat, move)
            version += 1
            mirror.version = version
            rows = tuple(event_rows(events, version, idx))
            idx += len(rows)
            out.moves.append(LaneMove(seat, move.to_json(), move.text(), actor, rows))
        out.over = game.pending(state).kind == "over"
        if out.over:
            out.result = result_json(game.result(state))
        every = task.snapshot_every
        if every and out.moves and (out.over or version // every > task.base_version // every):
            out.snapshot = (version, game.snapshot_version, game.snapshot(state))
        if out.over:
            self.cache.pop(task.table_id, None)


# --------------------------------------------------------------------------- lane processes

LANE_NICENESS = 10
"""How much lower than the server's the CPU priority of bot worker processes is: when the machine is busy,
requests of agents are served before bot work."""


def _init_process(parent: int) -> None:
    """Start a lane process: a lower CPU priority, and a watchdog that ends it with the server."""
    with contextlib.suppress(OSError):
        os.nice(LANE_NICENESS)

    def watchdog() -> None:
        while True:
            time.sleep(0.5)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watchdog, name="lane-watchdog", daemon=True).start()


def _process_main(conn: Connection, parent: int) -> None:
    """A lane process: play each task read from ``conn`` and send its result back, until the server closes it.

    It then ends at once (``os._exit``): it holds nothing to save, and tearing its interpreter down (a full
    collection of every cached table) is work for nobody.
    """
    _init_process(parent)
    worker = LaneWorker()
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            os._exit(0)
        conn.send(worker.run(task))


class LaneDied(Exception):
    """A lane process ended (killed, or it could not start) before it answered a task."""


_Call = tuple[LaneTask, asyncio.AbstractEventLoop, "asyncio.Future[LaneResult]"]


def _settle(future: asyncio.Future[LaneResult], result: LaneResult | None, error: BaseException | None) -> None:
    """Give ``future`` its outcome in its own loop (unless its awaiter gave up on it)."""
    if future.done():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)  # type: ignore[arg-type]


class _Lane:
    """One lane: a thread that takes tasks in order from a queue and plays each, in this process (a thread lane:
    ``worker``) or in a worker process of its own (a process lane: the thread sends the task down a pipe and
    waits for the answer).

    Any event loop may call :meth:`call`: the thread hands each result to the loop that asked. A task of one bot
    decision costs the server 280,000 instructions this way against 680,000 through a one-process
    ``ProcessPoolExecutor``, which runs a managing thread, a feeder thread and queues with locks in Python for
    each task (``benchmarks/lane_hop.py``).
    """

    def __init__(self, name: str, worker: LaneWorker | None) -> None:
        """Start the lane: a process unless ``worker`` is given (then it runs the tasks in the lane's thread)."""
        self.worker = worker
        self.broken = False
        self._closing = False
        self._queue: queue.SimpleQueue[_Call | None] = queue.SimpleQueue()
        self._conn: Connection | None = None
        self._process: BaseProcess | None = None
        if worker is None:
            ctx = multiprocessing.get_context("spawn")
            self._conn, child = ctx.Pipe()
            self._process = ctx.Process(target=_process_main, args=(child, os.getpid()), name=name, daemon=True)
            self._process.start()
            child.close()
        threading.Thread(target=self._serve, name=name, daemon=True).start()

    def call(self, task: LaneTask) -> asyncio.Future[LaneResult]:
        """Queue ``task``; return the future of its result in the running loop (it raises :class:`LaneDied` if
        the lane process ends first)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[LaneResult] = loop.create_future()
        self._queue.put((task, loop, future))
        return future

    def close(self) -> None:
        """Stop the lane: the task being played finishes, queued ones are cancelled, the process ends."""
        self._closing = True
        self._queue.put(None)

    def _serve(self) -> None:
        while True:
            item = self._queue.get()
            if item is None or self.broken or self._closing:
                self._stop(item)
                return
            task, loop, future = item
            result: LaneResult | None = None
            error: BaseException | None = None
            try:
                if self.worker is not None:
                    result = self.worker.run(task)
                else:
                    assert self._conn is not None
                    self._conn.send(task)
                    result = self._conn.recv()
            except (EOFError, OSError) as exc:  # the process is gone: this lane is done
                self.broken = True
                error = LaneDied(f"bot lane process ended ({type(exc).__name__})")
            except BaseException as exc:  # handed to the awaiting coroutine, as an executor would
                error = exc
            with contextlib.suppress(RuntimeError):  # the loop that asked is closed: nobody waits for this
                loop.call_soon_threadsafe(_settle, future, result, error)

    def _stop(self, item: _Call | None) -> None:
        """End the lane's thread: answer every queued task (:class:`LaneDied` if the process died, else
        cancelled), close the pipe so the process ends, and reap it."""
        while True:
            if item is not None:
                _task, loop, future = item
                with contextlib.suppress(RuntimeError):
                    if self.broken:
                        loop.call_soon_threadsafe(_settle, future, None, LaneDied("bot lane process ended"))
                    else:
                        loop.call_soon_threadsafe(future.cancel)
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                break
        if self._conn is not None:
            self._conn.close()
        if self._process is not None:
            self._process.join(5)
            if self._process.is_alive():
                self._process.kill()


class Lanes:
    """A fixed set of lanes; each table goes to the lane its id hashes to (its state stays there).

    The number of lanes is the global ceiling of bot work: at most that many bot decisions run at
    once, whatever the number of tables.
    """

    def __init__(self, count: int, *, resolve: Callable[[str], Game] | None = None) -> None:
        """Make ``count`` lanes: processes when ``resolve`` is ``None`` (games from the registry), else threads.

        ``count`` 0 means one thread lane.
        """
        self.count = max(1, count)
        self.processes = resolve is None and count > 0
        self._resolve = resolve or get_game
        self._lanes: list[_Lane | None] = [None] * self.count
        self._workers: list[LaneWorker] = []
        self._lock = threading.Lock()
        self._closed = False
        self._started = False
        self.queued = 0
        """Bot work submitted and not finished (for the metrics)."""

    def _lane(self, i: int) -> _Lane:
        with self._lock:
            lane = self._lanes[i]
            if lane is None or lane.broken:
                if self.processes:
                    lane = _Lane(f"bot-lane-{i}", None)
                else:
                    while len(self._workers) <= i:
                        self._workers.append(LaneWorker(self._resolve))
                    lane = _Lane(f"bot-lane-{i}", self._workers[i])
                self._lanes[i] = lane
            return lane

    def lane_of(self, table_id: str) -> int:
        """Return the lane a table's bot work runs on."""
        return zlib.crc32(table_id.encode()) % self.count

    async def run(self, task: LaneTask) -> LaneResult:
        """Run one piece of bot work on the table's lane.

        Raises:
            RuntimeError: the lanes are closed.
            LaneDied: the lane's process died twice in a row on this task.
        """
        if self._closed:
            raise RuntimeError("the bot lanes are closed")
        self.queued += 1
        try:
            return await self._run(task)
        finally:
            self.queued -= 1

    async def _run(self, task: LaneTask) -> LaneResult:
        i = self.lane_of(task.table_id)
        for attempt in range(3):
            lane = self._lane(i)
            try:
                result = await lane.call(task)
                self._started = True
                return result
            except LaneDied:
                with self._lock:
                    if self._lanes[i] is lane:
                        self._lanes[i] = None
                lane.close()
                if not self._started:
                    # Worker processes cannot start here (e.g. a program without a __main__ guard):
                    # play bots in a thread of this process instead, with the same code.
                    log.warning("bot worker processes cannot start; bots play in a thread of this process")
                    self.processes = False
                    continue
                log.error("bot lane %d died; starting it again", i)
                if attempt:
                    raise
                # The new process holds no tables: ask for a full sync.
                return LaneResult(task.table_id, task.base_version, need_sync=True)
        raise RuntimeError("the bot lanes cannot run")

    def close(self) -> None:
        """Stop the lanes (running work finishes first; queued work is cancelled)."""
        self._closed = True
        with self._lock:
            lanes, self._lanes = self._lanes, [None] * self.count
        for lane in lanes:
            if lane is not None:
                lane.close()


_SHARED: dict[int, Lanes] = {}
_SHARED_LOCK = threading.Lock()


def shared_lanes(count: int) -> Lanes:
    """Return this process's lanes of ``count`` worker processes (one set per process, made on first use)."""
    with _SHARED_LOCK:
        lanes = _SHARED.get(count)
        if lanes is None or lanes._closed:
            lanes = _SHARED[count] = Lanes(count)
        return lanes

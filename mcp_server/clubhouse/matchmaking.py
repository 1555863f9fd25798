"""Finding opponents: a queue per (game, seat count, options) in the store, shared by every worker.

``seek_game`` puts the agent in its queue and waits (long-polls) until it is given a seat:

* **Matching** happens in a *pass*, one transaction under the queue's lock (so two workers never
  match the same seek twice). A pass takes the waiting seeks oldest first; the oldest anchors a group
  and takes the other waiting agents whose rating is closest to its own, provided the gap is within
  a window that widens the longer either has waited (:func:`gap_allowed`): pairing prefers close
  ratings, and nobody waits forever for a perfect match.
* **Bot fill**: once a seek's ``max_wait_s`` has run out and not enough agents wait, it gets a table
  anyway if it allowed bot fill: with any other waiting agents that allowed it too, the remaining
  seats played by ``bot:heuristic``. Otherwise it ends unmatched.
* **The table** is made by the worker whose pass formed the group (``TableService.create``, the
  group's longest-waiting agent as its creator, seats in a random order), with every agent seat
  already taken: each waiting call made its own secret seat token when it queued and stored only
  its hash in its seek, so the table, its seat claims and the seeks' ``seated`` status commit in
  one transaction, or not at all (no table is ever left waiting with part of a match seated). The
  club pass is checked when the call queues.
* **Locks**: every transaction that reads and then writes a queue's seeks takes the queue's lock
  first (:func:`~club_agentes.mcp_server.store.clubhouse.lock`, then row locks), in that order, so
  two workers can neither deadlock nor match a seek twice.
* **Liveness**: a waiting call touches its seek at every poll; a seek not touched for
  :data:`STALE_S` (its worker died) is dropped by the next pass. A call that is cancelled (the
  client left) withdraws its seek if it was not matched yet.

Nothing here holds state between calls but the store, so any number of workers may serve one queue.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from club_agentes.engine.core import ConfigError, Game, UnknownGame, get_game
from club_agentes.mcp_server.store import Store
from club_agentes.mcp_server.store import clubhouse as sql
from club_agentes.mcp_server.store.clubhouse import SeekRow
from club_agentes.mcp_server.store.db import Tx
from club_agentes.mcp_server.tables.config import TableError, split_options

from club_agentes.errors import Refused

if TYPE_CHECKING:
    from club_agentes.mcp_server.tables.facts import Joined
    from club_agentes.mcp_server.tables.service import TableService

log = logging.getLogger("club_agentes.clubhouse.matchmaking")

MAX_SEEK_WAIT_S = 60.0
"""The longest one ``seek_game`` call waits."""
DEFAULT_SEEK_WAIT_S = 30.0
POLL_S = 0.25
"""How often a waiting call runs a pass and looks at its seek."""
STALE_S = 10.0
"""A waiting seek not touched for this long belongs to a caller that is gone."""
MATCH_GRACE_S = 20.0
"""How long a matched seek waits for the worker making its table before it gives up."""
GAP_BASE = 5.0
"""Rating gap (``mu``) two agents may have to be paired at once."""
GAP_PER_S = 1.0
"""How much the allowed gap widens per second the longer-waiting of the two has waited."""
FILL_BOT = "bot:heuristic"


class SeekRefused(Refused):
    """A ``seek_game`` request the club refuses (bad game, seats or options, a refused pass)."""


class _MatchGone(Exception):
    """A member of a match gave up before its table was stored: the table's transaction rolls back."""


@dataclass(frozen=True)
class SeekRequest:
    """A validated ``seek_game`` call."""

    agent: str
    game: str
    seats: int
    options: dict[str, Any]
    max_wait_s: float
    bot_fill: bool
    club_pass: str | None

    @property
    def queue(self) -> str:
        """The queue key: agents meet only with the same game, seat count and options."""
        return f"{self.game}/{self.seats}/{json.dumps(self.options, sort_keys=True, separators=(',', ':'))}"


@dataclass(frozen=True)
class Group:
    """A match a pass formed: its seeks with their seats, and the seats bots fill."""

    match_id: str
    game: str
    seats: int
    options: dict[str, Any]
    members: tuple[tuple[SeekRow, int], ...]
    bots: tuple[int, ...]

    @property
    def spec(self) -> list[str]:
        """The table's seat list for ``create_table``."""
        out = ["agent"] * self.seats
        for s in self.bots:
            out[s] = FILL_BOT
        return out


@dataclass(frozen=True)
class SeekOutcome:
    """How a ``seek_game`` call ended.

    Attributes:
        matched: a seat was taken (``joined`` holds it).
        reason: ``matched`` (other agents), ``bot_fill`` (bots took the seats nobody came for), ``timeout``
            (no opponent in time and no bot fill).
        waited_s: seconds the call waited.
        opponents: the other seats' players (agent names or bot kinds), by seat.
        joined: the seat taken, with its secret token.
    """

    matched: bool
    reason: str
    waited_s: float
    queue_size: int
    opponents: dict[int, str]
    joined: Joined | None = None


def gap_allowed(a: SeekRow, b: SeekRow, now: float) -> float:
    """Return the rating gap allowed between two waiting seeks now (it widens as they wait)."""
    waited = max(now - a.created_at, now - b.created_at, 0.0)
    return GAP_BASE + GAP_PER_S * waited


def plan(
    rows: Sequence[SeekRow], now: float, rng: Callable[[int], int] = secrets.randbelow
) -> tuple[list[Group], list[str]]:
    """Decide the matches among the waiting seeks of one queue (oldest first); return them and the seeks that expire.

    ``rng(n)`` picks a number below ``n`` (the seat order); tests pass a seeded one.
    """
    free = list(rows)
    groups: list[Group] = []
    expired: list[str] = []
    while free:
        anchor = free[0]
        others = sorted(free[1:], key=lambda r: (abs(r.rating - anchor.rating), r.created_at, r.id))
        need = anchor.seats - 1
        close = [r for r in others if abs(r.rating - anchor.rating) <= gap_allowed(anchor, r, now)]
        due = now >= anchor.deadline_at
        if len(close) >= need:
            chosen = close[:need]
        elif due and len(others) >= need:
            chosen = others[:need]  # its time is up: any agents beat bots
        elif due and anchor.bot_fill:
            chosen = [r for r in others if r.bot_fill][:need]
        elif due:
            expired.append(anchor.id)
            free.remove(anchor)
            continue
        else:
            free.remove(anchor)  # it waits on; younger seeks may still pair among themselves
            continue
        members = [anchor, *chosen]
        for r in members:
            free.remove(r)
        order = list(range(anchor.seats))
        for i in range(len(order) - 1, 0, -1):  # Fisher-Yates: nobody always moves first
            j = rng(i + 1)
            order[i], order[j] = order[j], order[i]
        seated = tuple((r, order[i]) for i, r in enumerate(members))
        bots = tuple(sorted(order[len(members) :]))
        groups.append(Group(secrets.token_hex(8), anchor.game, anchor.seats, anchor.options, seated, bots))
    return groups, expired


class Matchmaker:
    """Runs ``seek_game``: validates, queues, matches in passes, makes tables and seats the caller."""

    def __init__(
        self,
        store: Store,
        tables: TableService,
        *,
        rating_of: Callable[[str, str], float],
        games: Callable[[str], Game] = get_game,
        clock: Callable[[], float] = time.time,
        poll_s: float = POLL_S,
    ) -> None:
        self.store = store
        self.tables = tables
        self.rating_of = rating_of
        self._games = games
        self._clock = clock
        self.poll_s = poll_s

    # ------------------------------------------------------------------ validation

    def request(
        self,
        agent: str,
        game: str,
        seats: int | None,
        options: Mapping[str, Any] | None,
        max_wait_s: float | None,
        bot_fill: bool,
        club_pass: str | None,
    ) -> SeekRequest:
        """Validate a ``seek_game`` call and check the club pass the table will demand.

        Raises:
            SeekRefused: unknown game, a seat count the game does not allow, bad options, a bad wait, or a
                club pass the table would refuse.
        """
        try:
            g = self._games(game)
        except UnknownGame as exc:
            raise SeekRefused(str(exc)) from None
        if seats is None:
            seats = max(2, g.min_seats) if g.max_seats >= 2 else g.min_seats
        if isinstance(seats, bool) or not isinstance(seats, int) or not g.min_seats <= seats <= g.max_seats:
            raise SeekRefused(f"{game} is played by {g.min_seats} to {g.max_seats} seats; seats was {str(seats)[:20]}")
        if options is not None and not isinstance(options, Mapping):
            raise SeekRefused("options must be an object of option names and values, e.g. {'mode': 'fortuna'}")
        opts = dict(options or {})
        if "seats_per_agent" in opts:
            raise SeekRefused("seek_game seats each agent once; leave seats_per_agent out")
        try:
            table_opts, game_opts = split_options(opts, self.tables.settings, has_agents=True)
            g.make_config(seats, game_opts)
        except TableError as exc:
            raise SeekRefused(str(exc)) from None
        except ConfigError as exc:
            raise SeekRefused(str(exc)) from None
        wait = DEFAULT_SEEK_WAIT_S if max_wait_s is None else max_wait_s
        if isinstance(wait, bool) or not isinstance(wait, int | float) or not 0 <= wait <= MAX_SEEK_WAIT_S:
            raise SeekRefused(f"max_wait_s must be from 0 to {MAX_SEEK_WAIT_S:g} seconds, not {str(wait)[:20]}")
        if table_opts.require_club_pass:
            refusal = self.tables.verifier.admit(club_pass, agent, game)
            if refusal is not None:
                raise SeekRefused(refusal)
        return SeekRequest(agent, game, seats, opts, float(wait), bool(bot_fill), club_pass)

    # ------------------------------------------------------------------ the store side (worker threads)

    def _enqueue(self, req: SeekRequest, rating: float, token_hash: str) -> SeekRow:
        """Add the caller's seek to its queue, under the queue's lock.

        Raises:
            SeekRefused: the agent already waits in this queue.
            StoreError: the database failed.
        """
        now = self._clock()
        row = SeekRow(
            id="s-" + secrets.token_hex(8),
            queue=req.queue,
            agent=req.agent,
            game=req.game,
            seats=req.seats,
            options=req.options,
            bot_fill=req.bot_fill,
            rating=rating,
            created_at=now,
            deadline_at=now + req.max_wait_s,
            seen_at=now,
            status="waiting",
            token_hash=token_hash,
        )
        with self.store.db.tx() as tx:
            sql.lock(tx, f"queue:{req.queue}")
            for other in sql.waiting_seeks(tx, req.queue):
                if other.agent == req.agent:
                    raise SeekRefused(
                        f"{req.agent} is already waiting in this queue ({req.game}, {req.seats} seats); "
                        "wait for that seek_game call to end"
                    )
            sql.insert_seek(tx, row)
        return row

    def pass_once(self, queue: str, touch: str | None = None) -> tuple[list[Group], int]:
        """Run one matching pass over ``queue`` (touching the seek ``touch``); return the groups formed and
        how many seeks still wait.

        Raises:
            StoreError: the database failed.
        """
        now = self._clock()
        with self.store.db.tx() as tx:
            sql.lock(tx, f"queue:{queue}")
            if touch is not None:
                sql.touch_seek(tx, touch, now)
            sql.drop_stale_seeks(tx, queue, now - STALE_S)
            rows = sql.waiting_seeks(tx, queue)
            groups, expired = plan(rows, now)
            for seek_id in expired:
                sql.end_seek(tx, seek_id, "expired", "no opponent came within max_wait_s and bot fill was off")
            for g in groups:
                note = f"bot fill at seats {list(g.bots)}" if g.bots else None
                sql.match_seeks(tx, [(r.id, seat) for r, seat in g.members], g.match_id, note)
            waiting = len(rows) - len(expired) - sum(len(g.members) for g in groups)
        return groups, waiting

    def _fail(self, queue: str, match_id: str, note: str) -> None:
        """Fail a match that got no table (under the queue's lock: a table being stored for it then rolls back)."""
        with self.store.db.tx() as tx:
            sql.lock(tx, f"queue:{queue}")
            sql.settle_match(tx, match_id, table_id=None, note=note)

    def _get(self, seek_id: str) -> SeekRow | None:
        with self.store.db.tx() as tx:
            return sql.get_seek(tx, seek_id)

    def _members(self, match_id: str) -> list[SeekRow]:
        with self.store.db.tx() as tx:
            return sql.match_members(tx, match_id)

    def _end(self, queue: str, seek_id: str, status: str, note: str) -> bool:
        with self.store.db.tx() as tx:
            sql.lock(tx, f"queue:{queue}")
            return sql.end_seek(tx, seek_id, status, note)

    # ------------------------------------------------------------------ the async side

    async def _make_table(self, g: Group) -> None:
        """Create the table of a group this worker formed, its agent seats taken, and seat its seeks, in one
        transaction; or fail the match with the reason (no table is stored then)."""
        first = g.members[0][0]
        queue = first.queue
        seated: dict[int, tuple[str, str]] = {}
        for r, seat in g.members:
            if r.token_hash is None:  # a seek queued by an older server: it cannot be seated here
                await self.store.run(self._fail, queue, g.match_id, "the server was upgraded while you waited")
                return
            seated[seat] = (r.agent, r.token_hash)

        def within(tx: Tx, table_id: str) -> None:
            sql.lock(tx, f"queue:{queue}")
            if not sql.seat_match(tx, g.match_id, table_id, len(g.members)):
                raise _MatchGone

        try:
            await self.tables.create(g.game, g.spec, g.options, None, creator=first.agent, seated=seated, within=within)
        except _MatchGone:
            return  # a member gave up before the table was stored: nothing was stored
        except Refused as exc:
            await self.store.run(self._fail, queue, g.match_id, str(exc))
            return
        except Exception:
            log.exception("seek_game could not create the table of match %s", g.match_id)
            await self.store.run(self._fail, queue, g.match_id, "the server failed to create the table")
            return

    async def seek(self, req: SeekRequest) -> SeekOutcome:
        """Queue ``req`` and wait until it is seated, or ``max_wait_s`` runs out without a match.

        Raises:
            SeekRefused: the agent already waits in this queue, or its match failed (the sentence says why).
            TableError: the seat given could not be read back (the table vanished meanwhile).
            StoreError: the database failed.
        """
        start = time.monotonic()
        rating = await self.store.run(self.rating_of, req.agent, req.game)
        token = secrets.token_urlsafe(24)  # this call's seat token: only its hash goes to the store
        row = await self.store.run(self._enqueue, req, rating, hashlib.sha256(token.encode("utf-8")).hexdigest())
        done = False
        try:
            waiting = 1
            matched_at: float | None = None
            while True:
                groups, waiting = await self.store.run(self.pass_once, req.queue, row.id)
                for g in groups:
                    await self._make_table(g)
                mine = await self.store.run(self._get, row.id)
                if mine is None:
                    raise SeekRefused("your seek left the queue unexpectedly; call seek_game again")
                if mine.status == "seated" and mine.table_id is not None and mine.seat is not None:
                    done = True
                    joined = await self.tables.seated(mine.table_id, req.agent, mine.seat, token)
                    members = await self.store.run(self._members, mine.match_id or "")
                    agents = {m.seat: m.agent for m in members if m.seat is not None}
                    others = {
                        s.seat: agents.get(s.seat) or s.agent or s.kind
                        for s in joined.table.seats
                        if s.seat != mine.seat
                    }
                    reason = "bot_fill" if mine.note and "bot fill" in mine.note else "matched"
                    return SeekOutcome(True, reason, round(time.monotonic() - start, 3), waiting, others, joined)
                if mine.status == "failed":
                    done = True
                    raise SeekRefused(f"the table for your match could not be made: {mine.note}")
                if mine.status in ("expired", "cancelled"):
                    done = True
                    return SeekOutcome(False, "timeout", round(time.monotonic() - start, 3), waiting, {})
                if mine.status == "matched":
                    matched_at = matched_at if matched_at is not None else time.monotonic()
                    if time.monotonic() - matched_at > MATCH_GRACE_S:
                        done = True
                        note = "the worker making the table stopped answering"
                        await self.store.run(self._fail, req.queue, mine.match_id or "", note)
                        again = await self.store.run(self._get, row.id)
                        if again is None or again.status != "seated":  # else the table made it just in time
                            raise SeekRefused(f"{note}; call seek_game again")
                        continue
                await asyncio.sleep(self.poll_s)
        finally:
            if not done:
                with contextlib.suppress(Exception):
                    await asyncio.shield(
                        self.store.run(self._end, req.queue, row.id, "cancelled", "the caller stopped waiting")
                    )

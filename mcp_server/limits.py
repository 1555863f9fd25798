"""Limits per identity, with a global ceiling: how much one agent (or one client address) may ask for.

Every limit is a setting (``serve --limits`` or ``CLUB_AGENTES_LIMITS``, a comma-separated list of
``name=value``, e.g. ``entry_quizzes_per_hour=5,practice_per_hour=60``); a value is a whole number
or ``none`` (no limit). Each ``X`` has a global ceiling ``X_global`` over all agents together.

=============================  =======  =======================================================
name                           default  what it limits
=============================  =======  =======================================================
``entry_quizzes_per_hour``     5        entry quizzes an agent starts in any hour, per game
``practice_per_hour``          120      practice questions an agent asks for in any hour
``tables_per_hour``            30       tables an agent creates in any hour
``open_tables``                5        tables of an agent not yet finished (waiting or playing)
``long_polls``                 4        ``wait_for_turn`` calls an agent has waiting at once
``registrations_per_hour``     5        ``register_agent`` calls from one client address per hour
``logins_per_hour``            20       keys tried on the OAuth login page from one client address per hour
``oauth_clients_per_hour``     20       OAuth clients registered (``POST /register``) from one address per hour
``legacy_sessions``            8        live legacy-protocol HTTP sessions per agent (or address)
``legacy_idle_s``              600      seconds after which an idle legacy session is closed
``body_bytes``                 1048576  bytes of a request body (a larger one gets 413)
``streams``                    4        ``GET /mcp`` streams an agent key holds open at once
``streams_per_address``        32       ``GET /mcp`` and spectator event streams one address holds open
``public_per_minute``          600      requests without a key from one address per minute (pages,
                                        replays, lobby, streams, sign-in, registration); 429 beyond
``header_timeout_s``           10       seconds a connection may take to send a request's headers
``replay_cache_mb``            64       megabytes of replay checkpoints a worker keeps in memory
``replay_cpu_ms``              2000     CPU milliseconds one replay step may take (503 beyond; the
                                        work done is kept, so a retry gets further)
=============================  =======  =======================================================

The last seven are held per worker, in memory (the edge answers before the database is read).

Global ceilings (defaults): ``entry_quizzes_per_hour_global`` 600, ``practice_per_hour_global``
6000, ``tables_per_hour_global`` 1000, ``open_tables_global`` 500, ``long_polls_global`` 200,
``registrations_per_hour_global`` 100, ``logins_per_hour_global`` 1000,
``oauth_clients_per_hour_global`` 1000, ``legacy_sessions_global`` 1000.

**Fair share.** No subject may take more than a share (default 10%, the server setting ``--fair-share``
/ ``CLUB_AGENTES_FAIR_SHARE``) of any global ceiling, whatever its own limit says: its effective
limit is ``min(limit, max(1, floor(ceiling * share)))``. So eight agents (or addresses, for
registrations) spending all they may leave at least a fifth of every ceiling to everyone else.
An agent's entry quizzes of every game count together against its share.

Counters live in the database (:mod:`club_agentes.mcp_server.store.limits`), so every worker
sharing it enforces the same limits. Every refusal is a :class:`LimitReached` (a
:class:`~club_agentes.errors.Refused`) whose sentence says which limit was reached and when to
retry, with ``retry_after`` in whole seconds.

API for services (the harness, the tables service):

* :meth:`Limits.take` ``(kind, subject)``: count one request of a rate kind (``"entry_quiz"``,
  ``"practice"``, ``"table"``, ``"registration"``, ``"login"``, ``"oauth_client"``) or refuse;
  :meth:`Limits.counting` counts one for a block and takes it back if the block is refused (a
  failed registration does not use up its address's registrations);
* :meth:`Limits.check_open_tables` ``(agent, mine, everyone)``: refuse one more open table;
* :meth:`Limits.hold` / :meth:`Limits.ahold` ``("long_poll", agent, seconds)``: a (sync / async)
  context manager holding one concurrent long-poll for its duration (``ahold`` parks the lease for
  :data:`PARK_S` seconds afterwards, for the agent's next long-poll on the same worker).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import dataclasses
import logging
import math
import secrets
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import anyio
from club_agentes.mcp_server.store.limits import Blocked

from club_agentes.errors import Refused

if TYPE_CHECKING:
    from club_agentes.mcp_server.store import Store

log = logging.getLogger("club_agentes.limits")

HOUR = 3600.0
LIMITS_ENV = "CLUB_AGENTES_LIMITS"
DEFAULT_FAIR_SHARE = 0.10
"""The share of a global ceiling one subject may take at most (the server setting ``fair_share``, in percent)."""


class LimitReached(Refused):
    """A limit was reached; the sentence says which and when to retry.

    Attributes:
        retry_after: whole seconds until the request may succeed.
    """

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class LimitsSyntaxError(ValueError):
    """A ``--limits`` text is malformed; the message is one sentence naming the bad part and the accepted names."""


@dataclass(frozen=True)
class LimitSettings:
    """Every limit (``None``: no limit). See the module docstring for what each one limits."""

    entry_quizzes_per_hour: int | None = 5
    entry_quizzes_per_hour_global: int | None = 600
    practice_per_hour: int | None = 120
    practice_per_hour_global: int | None = 6000
    tables_per_hour: int | None = 30
    tables_per_hour_global: int | None = 1000
    open_tables: int | None = 5
    open_tables_global: int | None = 500
    long_polls: int | None = 4
    long_polls_global: int | None = 200
    registrations_per_hour: int | None = 5
    registrations_per_hour_global: int | None = 100
    logins_per_hour: int | None = 20
    logins_per_hour_global: int | None = 1000
    oauth_clients_per_hour: int | None = 20
    oauth_clients_per_hour_global: int | None = 1000
    legacy_sessions: int | None = 8
    legacy_sessions_global: int | None = 1000
    legacy_idle_s: int = 600
    # The HTTP edge (see club_agentes.mcp_server.guard): bodies, streams, unauthenticated requests, headers.
    body_bytes: int | None = 1_048_576
    streams: int | None = 4
    streams_per_address: int | None = 32
    public_per_minute: int | None = 600
    header_timeout_s: int = 10
    replay_cache_mb: int | None = 64
    replay_cpu_ms: int | None = 2000

    @classmethod
    def names(cls) -> list[str]:
        """Return the accepted names, in declaration order."""
        return [f.name for f in dataclasses.fields(cls)]

    @classmethod
    def parse(cls, text: str | None, base: LimitSettings | None = None) -> LimitSettings:
        """Return ``base`` (default: the defaults) with the ``name=value`` pairs of ``text`` applied.

        Values are whole numbers >= 1, or ``none``/``off`` for no limit (not for ``legacy_idle_s``).

        Raises:
            LimitsSyntaxError: a pair is malformed, names an unknown limit, or has a bad value.
        """
        out = base or cls()
        if text is None or not text.strip():
            return out
        names = cls.names()
        changes: dict[str, int | None] = {}
        for part in text.split(","):
            if not part.strip():
                continue
            name, sep, value = (x.strip() for x in part.partition("="))
            if not sep or not name or not value:
                raise LimitsSyntaxError(f"limit {part.strip()[:60]!r} is not name=value; e.g. entry_quizzes_per_hour=5")
            if name not in names:
                import difflib

                close = difflib.get_close_matches(name, names, n=1)
                hint = f"did you mean {close[0]!r}? " if close else ""
                raise LimitsSyntaxError(f"unknown limit {name[:60]!r}; {hint}the limits are: {', '.join(names)}")
            if value.lower() in ("none", "off"):
                if name in ("legacy_idle_s", "header_timeout_s"):
                    raise LimitsSyntaxError(f"{name} needs a number of seconds (1 or more), not 'none'")
                changes[name] = None
                continue
            if not value.isdigit() or int(value) < 1:
                raise LimitsSyntaxError(f"limit {name} must be a whole number of at least 1 or 'none', not {value!r}")
            changes[name] = int(value)
        return dataclasses.replace(out, **changes)  # type: ignore[arg-type]  # names checked above

    def describe(self) -> str:
        """Return the settings as the ``name=value,...`` text :meth:`parse` reads."""
        return ",".join(f"{f}={'none' if v is None else v}" for f, v in dataclasses.asdict(self).items())


_RATE_KINDS: dict[str, tuple[str, str]] = {
    "entry_quiz": ("entry_quizzes_per_hour", "entry quizzes"),
    "practice": ("practice_per_hour", "practice questions"),
    "table": ("tables_per_hour", "tables created"),
    "registration": ("registrations_per_hour", "agent registrations"),
    "login": ("logins_per_hour", "sign-in attempts"),
    "oauth_client": ("oauth_clients_per_hour", "OAuth client registrations"),
}
_HOLD_KINDS: dict[str, tuple[str, str]] = {"long_poll": ("long_polls", "long-polls (wait_for_turn) waiting")}


_ENTRY_QUIZ_GAME: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "club_agentes_entry_quiz_game", default=None
)


@contextlib.contextmanager
def entry_quiz_game(game: str) -> Iterator[None]:
    """Count the entry quizzes started in the block per agent *and game*: a new game's quiz does not use
    the attempts of another (the hourly limit ``entry_quizzes_per_hour`` holds for each game; the global
    ceiling for all together)."""
    token = _ENTRY_QUIZ_GAME.set(game)
    try:
        yield
    finally:
        _ENTRY_QUIZ_GAME.reset(token)


def _when(ts: float) -> str:
    return datetime.fromtimestamp(int(ts), UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


PARK_S = 2.0
"""Seconds a long-poll's lease stays parked after its hold ends, for the subject's next hold on this worker."""

_PARK_MARGIN_S = 5.0
"""A parked lease is taken over only if it lasts this many seconds past the new hold's own end."""


@dataclass
class _Parked:
    """A lease (held, or parked: released in the store when ``timer`` fires unless taken over first).

    ``expires_at`` is at most the expiry the store keeps for it (it is never extended)."""

    lease: str
    expires_at: float
    timer: asyncio.TimerHandle | None


class Limits:
    """The limits of one server, counted in its store (shared by every worker on that store)."""

    def __init__(
        self,
        settings: LimitSettings,
        store: Store,
        *,
        clock: Callable[[], float] = time.time,
        fair_share: float | None = DEFAULT_FAIR_SHARE,
    ) -> None:
        """``fair_share``: the share (0-1] of each global ceiling one subject may take (``None``: no share rule).

        Raises:
            ValueError: ``fair_share`` is not in (0, 1].
        """
        if fair_share is not None and not 0 < fair_share <= 1:
            raise ValueError(f"fair_share must be more than 0 and at most 1, not {fair_share!r}")
        self.settings = settings
        self.store = store
        self.clock = clock
        self.fair_share = fair_share
        self._parked: dict[tuple[str, str], list[_Parked]] = {}
        self._releasing: set[asyncio.Task[None]] = set()

    def _limits(self, name: str) -> tuple[int | None, int | None]:
        return getattr(self.settings, name), getattr(self.settings, f"{name}_global")

    def share_of(self, ceiling: int | None) -> int | None:
        """Return the most one subject may take of ``ceiling`` (``None``: no ceiling or no share rule)."""
        if ceiling is None or self.fair_share is None:
            return None
        return max(1, math.floor(ceiling * self.fair_share + 1e-9))

    def fair_limit(self, name: str) -> int | None:
        """Return the per-subject limit ``name`` (e.g. ``"legacy_sessions"``) lowered to its fair share of the
        global ceiling ``name_global`` (``None``: no limit at all)."""
        limit, ceiling = self._limits(name)
        share = self.share_of(ceiling)
        if limit is None or share is None:
            return share if limit is None else limit
        return min(limit, share)

    def _refuse(self, blocked: Blocked, subject: str, what: str, per: str, now: float) -> LimitReached:
        retry = max(1, math.ceil(blocked.retry_after))
        when = f"retry after {retry} seconds (at {_when(now + retry)})"
        if blocked.scope == "agent":
            return LimitReached(
                f"{subject} has {blocked.count} {what}{per} (the limit is {blocked.limit}); {when}", retry
            )
        if blocked.scope == "share":
            pct = f"{(self.fair_share or 0) * 100:g}%"
            return LimitReached(
                f"{subject} has {blocked.count} {what}{per}, its fair share ({pct}) of the club's ceiling "
                f"(at most {blocked.limit} for any one); {when}",
                retry,
            )
        return LimitReached(
            f"the club has {blocked.count} {what}{per} from all agents together (its ceiling is {blocked.limit}); "
            f"{when}",
            retry,
        )

    def take(self, kind: str, subject: str) -> str | None:
        """Count one request of rate ``kind`` by ``subject`` (an agent, or a client address for registrations);
        return the receipt :meth:`give_back` takes (``None`` when nothing is limited, so nothing was counted).

        Raises:
            KeyError: ``kind`` is not a rate kind (a defect of the caller).
            LimitReached: the subject's hourly limit, its fair share or the global ceiling is reached.
        """
        name, what = _RATE_KINDS[kind]
        limit, ceiling = self._limits(name)
        if limit is None and ceiling is None:
            return None
        now = self.clock()
        key, per, group = subject, " in the last hour", None
        game = _ENTRY_QUIZ_GAME.get() if kind == "entry_quiz" else None
        if game is not None:  # counted per game (entry_quiz_game); the fair share over all games
            key, per, group = f"{subject}\x1f{game}", f" of {game} in the last hour", subject
        receipt = secrets.token_hex(12)
        blocked = self.store.limits.rate_take(
            kind,
            key,
            now=now,
            window=HOUR,
            limit=limit,
            global_limit=ceiling,
            share_limit=self.share_of(ceiling),
            share_group=group,
            event=receipt,
        )
        if blocked is not None:
            if blocked.scope == "share" and group is not None:
                per = " of all games in the last hour"
            raise self._refuse(blocked, subject, what, per, now)
        return receipt

    def give_back(self, receipt: str | None) -> None:
        """Uncount a request :meth:`take` counted (no-op for ``None``)."""
        if receipt is not None:
            self.store.limits.rate_give_back(receipt)

    @contextlib.contextmanager
    def counting(self, kind: str, subject: str) -> Iterator[None]:
        """Count one request of ``kind`` for the block, and give it back if the block is refused
        (raises :class:`~club_agentes.errors.Refused`): only requests that succeed use up a limit.

        Raises:
            KeyError: ``kind`` is not a rate kind (a defect of the caller).
            LimitReached: as :meth:`take`.
        """
        receipt = self.take(kind, subject)
        try:
            yield
        except Refused:
            self.give_back(receipt)
            raise

    def check_open_tables(self, agent: str, mine: int, everyone: int) -> None:
        """Refuse one more open table when ``agent`` has ``mine`` (or the club ``everyone``) at the limit.

        Raises:
            LimitReached: the agent's or the club's open tables are at their limit.
        """
        limit, ceiling = self._limits("open_tables")
        share = self.share_of(ceiling)
        if share is not None and (limit is None or share < limit) and mine >= share:
            raise LimitReached(
                f"{agent} has {mine} open tables, its fair share ({(self.fair_share or 0) * 100:g}%) of the club's "
                f"ceiling (at most {share} for any one); finish, or let expire, one of them and retry after 60 seconds",
                60,
            )
        if limit is not None and mine >= limit:
            raise LimitReached(
                f"{agent} has {mine} open tables (the limit is {limit}); finish, or let expire, one of them and "
                "retry after 60 seconds",
                60,
            )
        if ceiling is not None and everyone >= ceiling:
            raise LimitReached(
                f"the club has {everyone} open tables (its ceiling is {ceiling}); join one of them (list_tables) "
                "or retry after 60 seconds",
                60,
            )

    @contextlib.contextmanager
    def hold(self, kind: str, subject: str, seconds: float) -> Iterator[None]:
        """Hold one concurrent unit of ``kind`` (``"long_poll"``) for ``subject`` while the block runs.

        ``seconds`` bounds the hold: a lease a crashed worker never released stops counting after it
        (plus a margin).

        Raises:
            KeyError: ``kind`` is not a hold kind (a defect of the caller).
            LimitReached: the subject (or the club) already holds as many as allowed.
        """
        lease = self._acquire(kind, subject, seconds)
        try:
            yield
        finally:
            if lease is not None:
                self.store.limits.hold_release(lease)

    @contextlib.asynccontextmanager
    async def ahold(self, kind: str, subject: str, seconds: float) -> AsyncIterator[None]:
        """:meth:`hold` for async code: the store is reached through ``store.run`` (off the event loop).

        A lease let go here is parked for :data:`PARK_S` seconds before it is released in the store: the
        subject's next hold on this worker within that time takes it over instead of writing twice (an agent
        that plays and waits again at once, as most do, holds one lease from wait to wait). While parked it
        still counts against the subject's limits, on every worker, as a hold that just ended.

        Raises:
            KeyError: ``kind`` is not a hold kind (a defect of the caller).
            LimitReached: the subject (or the club) already holds as many as allowed.
        """
        ends_at = self.clock() + max(0.0, seconds)
        taken, spent = self._unpark(kind, subject, ends_at)
        for old in spent:  # released before this hold is counted, so they do not count against it
            await self._release(old)
        if taken is None:
            lease = await self.store.run(self._acquire, kind, subject, seconds)
            taken = None if lease is None else _Parked(lease, ends_at + 30, None)  # _acquire stored a later expiry
        try:
            yield
        finally:
            if taken is not None:
                self._park(kind, subject, taken)

    def _unpark(self, kind: str, subject: str, ends_at: float) -> tuple[_Parked | None, list[str]]:
        """Take over a parked lease of ``subject`` that lasts past a hold ending at ``ends_at`` (``None``: none);
        also return the parked leases too close to their expiry for it (the caller releases them)."""
        parked = self._parked.get((kind, subject))
        spent: list[str] = []
        while parked:
            p = parked.pop()
            if p.timer is not None:
                p.timer.cancel()
            if p.expires_at >= ends_at + _PARK_MARGIN_S:
                return p, spent
            spent.append(p.lease)
        return None, spent

    def _park(self, kind: str, subject: str, held: _Parked) -> None:
        """Park ``held``: released in the store after :data:`PARK_S` seconds unless taken over first."""
        key = (kind, subject)
        loop = asyncio.get_running_loop()

        def release() -> None:
            parked = self._parked.get(key, [])
            parked[:] = [p for p in parked if p is not held]
            if not parked:
                self._parked.pop(key, None)
            task = loop.create_task(self._release(held.lease))
            self._releasing.add(task)
            task.add_done_callback(self._releasing.discard)

        held.timer = loop.call_later(PARK_S, release)
        self._parked.setdefault(key, []).append(held)

    async def _release(self, lease: str) -> None:
        """Release ``lease`` in the store (a store that fails leaves it to expire, as a crashed worker's would)."""
        try:
            with anyio.CancelScope(shield=True):
                await self.store.run(self.store.limits.hold_release, lease)
        except Exception:
            log.warning("a long-poll lease could not be released; it expires by itself", exc_info=True)

    async def release_parked(self) -> None:
        """Release every parked lease now (a worker that stops); waits for releases under way."""
        for parked in list(self._parked.values()):
            for p in parked:
                if p.timer is not None:
                    p.timer.cancel()
                await self._release(p.lease)
        self._parked.clear()
        if self._releasing:
            await asyncio.gather(*self._releasing, return_exceptions=True)

    def _acquire(self, kind: str, subject: str, seconds: float) -> str | None:
        name, what = _HOLD_KINDS[kind]
        limit, ceiling = self._limits(name)
        if limit is None and ceiling is None:
            return None
        now = self.clock()
        lease = secrets.token_hex(12)
        blocked = self.store.limits.hold_take(
            lease,
            kind,
            subject,
            now=now,
            expires_at=now + max(0.0, seconds) + 30,
            limit=limit,
            global_limit=ceiling,
            share_limit=self.share_of(ceiling),
        )
        if blocked is not None:
            blocked = dataclasses.replace(blocked, retry_after=min(blocked.retry_after, 5.0))
            raise self._refuse(blocked, subject, what, " at once", now)
        return lease

"""Agent keys: making, storing (hashed), verifying and revoking them, and the SDK token verifier.

A key looks like ``ca_<key id>_<secret>``: ``<key id>`` is 16 hex digits that find the agent's row,
``<secret>`` 32 bytes from :mod:`secrets` (43 URL-safe characters). The store keeps only the key
id and the SHA-256 of the secret, compared in constant time (:func:`hmac.compare_digest`); the
key itself is shown once, when it is made.

:class:`AgentKeyVerifier` is the ``token_verifier`` handed to the SDK's ``MCPServer``: over HTTP
the SDK's bearer middleware calls it for the ``Authorization: Bearer <key>`` of every request,
and answers 401 when it returns ``None``. With the server's OAuth login on
(:mod:`club_agentes.mcp_server.oauth`) the same verifier also accepts the access tokens that login
issues. :class:`KeyChallenge` words those 401 answers (RFC 6750): a request without a bearer key is
told a key is required (no error code), a request whose key or token is not valid gets
``error="invalid_token"`` and a body that says the key is not valid.

Verified keys are cached per worker (:class:`KeyCache`) so that a request does not read the store and
hash its key again: an entry serves only while nothing about the agents changed since it was verified
(a revocation or rotation in this process clears it at once; on SQLite any commit by another connection
or process does too, seen through ``PRAGMA data_version``; on PostgreSQL every revocation and rotation
sends ``NOTIFY`` and a listening connection clears the cache, which serves nothing while that connection
is down), and for at most :data:`KEY_CACHE_S` seconds. The cached key is compared in constant time; a
wrong key is never cached.

Wrong keys are slowed per client address (:class:`KeyBackoff`): after a few in a row, each further
wrong key is answered 429 with ``Retry-After`` for a wait that doubles up to a bound, while a right
key from the same address is always served (never a lock-out of the key's owner).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import math
import re
import secrets
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from club_agentes.mcp_server.identity import NEEDS_AGENT
from club_agentes.mcp_server.proxies import client_address
from club_agentes.mcp_server.store import Store
from club_agentes.mcp_server.store.agents import AgentRecord
from club_agentes.quizzes.harness import InvalidAgent, normalize_agent_name
from mcp.server.auth.provider import AccessToken
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from club_agentes.errors import Refused

KEY_PREFIX = "ca_"
AGENT_SCOPE = "agent"
_KEY_RE = re.compile(r"ca_([0-9a-f]{16})_([A-Za-z0-9_-]{43})")
MAX_KEY_CHARS = 256


class AgentExists(Refused):
    """An agent with that (normalised) name exists already."""


class UnknownAgent(Refused):
    """No agent has that name."""


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode("ascii")).hexdigest()


def new_key() -> tuple[str, str, str]:
    """Return a fresh key and what the store keeps of it: ``(key, key_id, key_hash)``."""
    key_id = secrets.token_hex(8)
    secret = secrets.token_urlsafe(32)
    return f"{KEY_PREFIX}{key_id}_{secret}", key_id, _hash(secret)


BOT_NAME = "bot"
"""The name the club's bots go by (``bot:heuristic``, ``bot:mcts``...): no agent may take a name that folds to it."""


def reserved_bot_name(normal: str) -> bool:
    """Return whether a normalised agent name reads as a bot's (``bot``, ``bot-heuristic``...).

    Normalising (:func:`normalize_agent_name`: case and accents folded with the one
    :func:`~club_agentes.engine.core.text.fold`, every run of other characters one ``-``) turns
    ``bot:heuristic``, ``Bot_heuristic`` and ``BÖT heuristic`` into ``bot-heuristic``; ``botanist`` stays a name.
    """
    return normal == BOT_NAME or normal.startswith(BOT_NAME + "-")


class AgentRegistry:
    """The club's agents over the store: add, list, revoke, rotate keys, verify a key."""

    def __init__(self, store: Store, *, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock

    def add(self, name: str, *, origin: str = "cli") -> tuple[AgentRecord, str]:
        """Create an agent under the normalised form of ``name``; return its record and its key (shown once).

        Every way of making an agent (``agents add``, ``register_agent``, the OAuth login page) comes here.

        Raises:
            InvalidAgent: the name is not accepted (see :func:`normalize_agent_name`), or it folds to a
                bot's name (:func:`reserved_bot_name`).
            AgentExists: an agent with that normalised name exists (revoked or not).
        """
        normal = normalize_agent_name(name)
        if reserved_bot_name(normal):
            raise InvalidAgent(
                f"the agent name {name[:60]!r} reads as a bot's name ({normal!r}): names that fold to 'bot' or "
                "start with 'bot' and a separator are kept for the club's bots; choose another name"
            )
        key, key_id, key_hash = new_key()
        record = AgentRecord(normal, name.strip()[:64], key_id, key_hash, origin, self.clock())
        if not self.store.agents.add_agent(record):
            existing = self.store.agents.load_agent(normal)
            shown = f" (as {existing.display!r})" if existing and existing.display != name.strip() else ""
            raise AgentExists(
                f"an agent named {normal!r} exists already{shown}; names are compared without case, accents or "
                "punctuation, so choose another name (or rotate that agent's key with 'agents rotate')"
            )
        return record, key

    def get(self, name: str) -> AgentRecord:
        """Return an agent by (any form of) its name.

        Raises:
            InvalidAgent: the name is not accepted.
            UnknownAgent: no such agent.
        """
        normal = normalize_agent_name(name)
        record = self.store.agents.load_agent(normal)
        if record is None:
            raise UnknownAgent(f"no agent is named {normal!r}; 'club-agentes agents list' lists them")
        return record

    def list(self) -> list[AgentRecord]:
        """Return every agent, oldest first."""
        return self.store.agents.list_agents()

    def revoke(self, name: str) -> tuple[AgentRecord, int]:
        """Revoke an agent: its key, its OAuth tokens and its club passes stop working at once.

        Returns the agent and how many passes were revoked with it.

        Raises:
            InvalidAgent: the name is not accepted.
            UnknownAgent: no such agent, or it was revoked already.
        """
        record = self.get(name)
        if not self.store.agents.revoke_agent(record.name, self.clock()):
            raise UnknownAgent(f"the agent {record.name!r} was revoked already")
        agents_changed(self.store, record.name)
        self.store.oauth.revoke_oauth_agent(record.name)
        revoked = sum(
            1
            for p in self.store.quizzes.passes_for(record.name)
            if not p.revoked and self.store.quizzes.revoke_pass(p.jti)
        )
        return self.get(record.name), revoked

    def rotate(self, name: str) -> tuple[AgentRecord, str]:
        """Give an agent a new key (the old one and the OAuth tokens it signed in stop; a revoked agent is reinstated).

        Raises:
            InvalidAgent: the name is not accepted.
            UnknownAgent: no such agent.
        """
        record = self.get(name)
        key, key_id, key_hash = new_key()
        self.store.agents.replace_agent_key(record.name, key_id, key_hash)
        agents_changed(self.store, record.name)
        self.store.oauth.revoke_oauth_agent(record.name)  # tokens signed in with the old key go with it
        return self.get(record.name), key

    def verify(self, key: str) -> AgentRecord | None:
        """Return the (unrevoked) agent this key belongs to, or ``None``. Never raises for any string."""
        if not isinstance(key, str) or len(key) > MAX_KEY_CHARS:
            return None
        m = _KEY_RE.fullmatch(key.strip())
        if m is None:
            return None
        record = self.store.agents.agent_by_key_id(m.group(1))
        if record is None or record.revoked_at is not None:
            return None
        if not hmac.compare_digest(record.key_hash, _hash(m.group(2))):
            return None
        return record


KEY_CACHE_S = 60.0
"""The longest a verified key is served from a worker's :class:`KeyCache` without reading the store again."""
KEY_CACHE_SIZE = 10_000
"""The most keys a worker's :class:`KeyCache` holds (the least recently used go first)."""

_caches: weakref.WeakSet[KeyCache] = weakref.WeakSet()


def agents_channel(store: Store) -> str | None:
    """Return the PostgreSQL ``NOTIFY`` channel of agent changes of this store's schema (``None`` on SQLite)."""
    channel = store.tables.tables_channel()
    return None if channel is None else "club_agents_" + channel.removeprefix("club_tables_")


def agents_changed(store: Store, name: str) -> None:
    """Announce that an agent's key changed (revoked, rotated): every :class:`KeyCache` forgets what it verified.

    In this process at once; on PostgreSQL every other worker through ``NOTIFY`` (SQLite workers see the
    commit itself through ``PRAGMA data_version``). Called after the change is committed.

    Raises:
        StoreError: the notification could not be sent (the change itself is committed).
    """
    for cache in list(_caches):
        cache.clear()
    channel = agents_channel(store)
    if channel is not None:
        store.db.notify(channel, name)


@dataclass(frozen=True)
class _Verified:
    key: str
    token: AccessToken
    stamp: tuple[int, int]
    until: float


class KeyCache:
    """A worker's verified agent keys: key id -> the whole key and the access token it stands for.

    :meth:`stamp` is taken before the store is read, and an entry serves only while the stamp is still
    the same, so no verification that raced with a change is ever served after it:

    * the stamp's first part counts :meth:`clear` calls: :func:`agents_changed` (a revocation or a
      rotation in this process) and, on PostgreSQL, every notification of another process's change and
      every (re)connection of the listening connection;
    * its second part is SQLite's ``PRAGMA data_version``, which changes whenever another connection (the
      ``agents`` command, another worker) commits; on PostgreSQL it is 0, and nothing is served while the
      ``LISTEN`` connection is not in place.

    Entries also expire :data:`KEY_CACHE_S` seconds after they were verified. Never raises on lookups.
    """

    def __init__(self, store: Store, *, ttl_s: float = KEY_CACHE_S, size: int = KEY_CACHE_SIZE) -> None:
        self.store = store
        self.ttl_s = ttl_s
        self.size = size
        self._entries: OrderedDict[str, _Verified] = OrderedDict()
        self._epoch = 0
        self._lock = threading.Lock()
        self._sqlite = store.db.dialect == "sqlite"
        self._listener: Any = None
        self._listening: threading.Event | None = None
        _caches.add(self)

    def clear(self) -> None:
        """Forget every verified key (the next request of each reads the store). Never raises."""
        with self._lock:
            self._epoch += 1
            self._entries.clear()

    def stamp(self) -> tuple[int, int] | None:
        """Return the stamp of what the store says now, or ``None`` when nothing may be cached (PostgreSQL
        without its ``LISTEN`` connection in place; SQLite while another thread uses the connection).

        Raises:
            StoreError: the database is closed.
        """
        if self._sqlite:
            version = self.store.db.data_version()  # None while another thread uses the connection
            return None if version is None else (self._epoch, version)
        if self._listening is None or not self._listening.is_set():
            return None
        return (self._epoch, 0)

    def get(self, key: str, stamp: tuple[int, int] | None) -> AccessToken | None:
        """Return the access token of a key verified under this ``stamp`` and not expired, else ``None``."""
        if stamp is None:
            return None
        m = _KEY_RE.fullmatch(key)
        if m is None:
            return None
        with self._lock:
            entry = self._entries.get(m.group(1))
            if entry is None:
                return None
            if entry.stamp != stamp or entry.until <= time.monotonic():
                del self._entries[m.group(1)]
                return None
            self._entries.move_to_end(m.group(1))
        return entry.token if hmac.compare_digest(entry.key.encode(), key.encode()) else None

    def put(self, key: str, token: AccessToken, stamp: tuple[int, int] | None) -> None:
        """Remember a key the store just verified, read after ``stamp`` was taken (nothing if ``None`` or if
        the cache was cleared since)."""
        m = _KEY_RE.fullmatch(key)
        if stamp is None or m is None:
            return
        with self._lock:
            if stamp[0] != self._epoch:
                return
            self._entries[m.group(1)] = _Verified(key, token, stamp, time.monotonic() + self.ttl_s)
            self._entries.move_to_end(m.group(1))
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def listen(self) -> None:
        """On PostgreSQL, start the connection that listens for other processes' agent changes (once per
        event loop; called from the running loop). Never raises: without it nothing is cached."""
        channel = agents_channel(self.store) if not self._sqlite else None
        if channel is None:
            return
        loop = asyncio.get_running_loop()
        if self._listener is not None and self._listener.loop is loop:
            return
        from club_agentes.mcp_server.tables.notify import Listener

        if self._listener is not None:
            self._listener.stop()
        self._listener = Listener(self.store, channel, loop, lambda _name: self.clear(), self.clear)
        self._listening = self._listener.ready
        self._listener.start()

    def stop(self) -> None:
        """Stop listening (PostgreSQL); the cache then serves nothing. Never raises."""
        if self._listener is not None:
            self._listener.stop()
            self._listening = None
            self._listener = None


TokenLookup = Callable[[str], AccessToken | None]
"""Finds an OAuth access token by its text (the store's read; ``None`` when unknown or expired)."""


class AgentKeyVerifier:
    """The SDK ``TokenVerifier``: a bearer token is an agent key, or an access token of the OAuth login.

    For an agent key the access token's ``client_id`` and ``subject`` are the agent's name; for an
    OAuth access token ``client_id`` is the OAuth client and ``subject`` the agent it signed in as.
    """

    def __init__(self, registry: AgentRegistry, tokens: TokenLookup | None = None, *, cache: bool = True) -> None:
        """Build the verifier; ``cache``: keep verified agent keys in a :class:`KeyCache`."""
        self.registry = registry
        self.tokens = tokens
        self.cache = KeyCache(registry.store) if cache else None

    def verify(self, token: str, stamp: tuple[int, int] | None = None) -> AccessToken | None:
        """Return the access token ``token`` stands for, or ``None`` (blocking; one store read). Never raises
        for any string.

        An agent key found valid is cached under ``stamp`` (see :meth:`KeyCache.stamp`, taken before this read).
        """
        if self.tokens is not None and not token.strip().startswith(KEY_PREFIX):
            return self.tokens(token)
        record = self.registry.verify(token)
        if record is None:
            return None
        access = AccessToken(token=token, client_id=record.name, subject=record.name, scopes=[AGENT_SCOPE])
        if self.cache is not None and stamp is not None and isinstance(token, str):
            self.cache.put(token.strip(), access, stamp)
        return access

    def _cached(self, token: str) -> tuple[AccessToken | None, tuple[int, int] | None]:
        """Return the cached access token of an agent key (or ``None``) and the stamp taken. Never raises."""
        cache = self.cache
        if cache is None or not isinstance(token, str) or len(token) > MAX_KEY_CHARS:
            return None, None
        key = token.strip()
        if not key.startswith(KEY_PREFIX):
            return None, None
        try:
            stamp = cache.stamp()
        except Exception:  # the store cannot answer: verify() reads it and says what is wrong
            return None, None
        return cache.get(key, stamp), stamp

    async def verify_token(self, token: str) -> AccessToken | None:
        """Return the access token ``token`` stands for, or ``None`` (the SDK then answers 401)."""
        if self.cache is not None:
            self.cache.listen()
        hit, stamp = self._cached(token)  # no store read for a cached key
        if hit is not None:
            return hit
        # The store's one async boundary: PostgreSQL on its pool's threads, SQLite inline while it would not wait.
        return await self.registry.store.run(self.verify, token, stamp)


MISSING_KEY = (
    "A key is required: send 'Authorization: Bearer <agent key>' on every request (an operator makes keys with "
    "'club-agentes agents add NAME'{register}){login}."
)
REGISTER_TOO = "; without a key, this server's register_agent tool makes one"
LOGIN_TOO = ", or connect with an OAuth-capable client, which signs in on this server's login page"
INVALID_KEY = (
    "The key is not valid: this agent key or access token is unknown, revoked, expired or mistyped. Send a current "
    "key ('club-agentes agents add NAME' makes one, 'agents rotate NAME' replaces a lost one){login}."
)
LOGIN_AGAIN = ", or sign in again through your client's OAuth login"
INVALID_KEY_HEADER = "The agent key or access token is not valid (unknown, revoked, expired or mistyped)"
"""The ``error_description`` of ``WWW-Authenticate`` (RFC 6750 allows no quotes or backslashes there)."""
UNAUTHORIZED_CODE = -32001
"""The JSON-RPC error code of a 401 body."""


def challenge(missing: bool, resource_metadata: str | None, *, registration: bool = False) -> tuple[str, bytes]:
    """Return the ``WWW-Authenticate`` value and the JSON body of a 401 answer.

    ``missing``: the request carried no bearer key (RFC 6750 section 3.1: then no error code);
    ``resource_metadata``: the protected-resource metadata URL, advertised only while the OAuth login
    is on (the sentences mention the login then); ``registration``: anonymous requests may call
    ``register_agent`` (the body says so). The body is a JSON-RPC error (MCP clients show its
    message) whose ``data`` repeats the OAuth error fields.
    """
    parts = ['realm="club-agentes"']
    if not missing:
        parts += ['error="invalid_token"', f'error_description="{INVALID_KEY_HEADER}"']
    if resource_metadata is not None:
        parts.append(f'resource_metadata="{resource_metadata}"')
    parts.append(f'scope="{AGENT_SCOPE}"')
    login = resource_metadata is not None
    if missing:
        message = MISSING_KEY.format(register=REGISTER_TOO if registration else "", login=LOGIN_TOO if login else "")
    else:
        message = INVALID_KEY.format(login=LOGIN_AGAIN if login else "")
    data = {"error_description": message} if missing else {"error": "invalid_token", "error_description": message}
    body = {"jsonrpc": "2.0", "id": None, "error": {"code": UNAUTHORIZED_CODE, "message": message, "data": data}}
    return "Bearer " + ", ".join(parts), json.dumps(body).encode()


SLOW_DOWN_CODE = -32029
"""The JSON-RPC error code of a 429 body (too many wrong keys from one address)."""
SLOW_DOWN = (
    "Too many wrong keys from your address ({failures} in a row): wait {retry} seconds (Retry-After) before sending "
    "another key. A right key is always accepted."
)


@dataclass
class _Failures:
    count: int
    last: float
    blocked_until: float


class KeyBackoff:
    """Exponential backoff on wrong keys, per client address, held in memory by each worker.

    The first ``free`` wrong keys in a row from an address are answered 401 as usual. Each further one
    blocks the address for ``base_s`` seconds, doubling with every wrong key up to ``max_s``; a wrong
    key that arrives while its address is blocked is answered 429 with ``Retry-After`` (and doubles
    the wait). The count is forgotten ``forget_s`` seconds after the address's last wrong key.

    A right key is never refused and never waits, whatever its address did (the owner of a key is never
    locked out, even behind an address shared with someone guessing), and it does not clear the
    count either (a guesser holding one valid key cannot reset its own backoff). At most ``max_addresses``
    addresses are tracked (the least recently failed are forgotten first), so memory is bounded.
    """

    def __init__(
        self,
        *,
        free: int = 5,
        base_s: float = 1.0,
        max_s: float = 60.0,
        forget_s: float = 900.0,
        max_addresses: int = 10_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.free = free
        self.base_s = base_s
        self.max_s = max_s
        self.forget_s = forget_s
        self.max_addresses = max_addresses
        self.clock = clock
        self._seen: OrderedDict[str, _Failures] = OrderedDict()

    def failed(self, address: str) -> tuple[int, int | None]:
        """Record a wrong key from ``address``; return its wrong keys in a row and, if the address was
        blocked when it came, the whole seconds to wait (the answer is then 429), else ``None``."""
        now = self.clock()
        f = self._seen.pop(address, None)
        if f is None or now - f.last > self.forget_s:
            f = _Failures(0, now, now)
        blocked = f.blocked_until > now
        f.count += 1
        f.last = now
        if f.count > self.free:
            wait = min(self.max_s, self.base_s * 2 ** min(f.count - self.free - 1, 30))
            f.blocked_until = now + wait
        self._seen[address] = f
        while len(self._seen) > self.max_addresses:
            self._seen.popitem(last=False)
        return f.count, (max(1, math.ceil(f.blocked_until - now)) if blocked else None)


class KeyChallenge:
    """Outer ASGI layer that words the 401 answers of ``/mcp`` (see :func:`challenge`).

    A 401 of the SDK's bearer middleware is replaced by the missing-key answer when the request
    carried no ``Authorization: Bearer ...``, else by the invalid-key one. Under open registration an
    anonymous request whose tool needed an agent (:data:`~club_agentes.mcp_server.identity.NEEDS_AGENT`)
    gets the missing-key 401 too, so an OAuth-capable client signs in then (in JSON-response mode; an
    SSE stream has started before the tool runs, and keeps the tool's refusal). Other answers and
    paths pass untouched.
    """

    def __init__(
        self,
        app: ASGIApp,
        resource_metadata: str | None,
        *,
        registration: bool = False,
        path: str = "/mcp",
        backoff: KeyBackoff | None = None,
    ) -> None:
        self.app = app
        self.resource_metadata = resource_metadata
        self.registration = registration
        self.path = path
        self.backoff = backoff if backoff is not None else KeyBackoff()

    async def _slow_down(self, send: Send, failures: int, retry: int) -> None:
        message = SLOW_DOWN.format(failures=failures, retry=retry)
        body = json.dumps(
            {
                "jsonrpc": "2.0",
                "id": None,
                "error": {"code": SLOW_DOWN_CODE, "message": message, "data": {"retry_after": retry}},
            }
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 429,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"retry-after", str(retry).encode()),
                    (b"cache-control", b"no-store"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})

    async def _answer(self, send: Send, missing: bool) -> None:
        header, body = challenge(missing, self.resource_metadata, registration=self.registration)
        await send(
            {
                "type": "http.response.start",
                "status": 401,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"www-authenticate", header.encode()),
                    (b"cache-control", b"no-store"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve one ASGI event."""
        if scope["type"] != "http" or scope.get("path", "").rstrip("/") != self.path:
            await self.app(scope, receive, send)
            return
        missing = not Headers(scope=scope).get("authorization", "").lower().startswith("bearer ")
        replaced = False

        async def reword(message: Message) -> None:
            nonlocal replaced
            if message["type"] == "http.response.start" and (message["status"] == 401 or scope.get(NEEDS_AGENT)):
                replaced = True
                if message["status"] == 401 and not missing:  # a wrong key: slowed per address
                    failures, retry = self.backoff.failed(client_address(scope))
                    if retry is not None:
                        await self._slow_down(send, failures, retry)
                        return
                await self._answer(send, missing)
            elif not replaced:
                await send(message)

        await self.app(scope, receive, reword)

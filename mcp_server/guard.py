"""The HTTP edge's guards: what no client may exhaust, checked before any work is done.

:class:`EdgeGuard` is the outermost ASGI layer of the HTTP app (:func:`~club_agentes.mcp_server.http.build_http_app`).
Every limit is one of :class:`~club_agentes.mcp_server.limits.LimitSettings` (``--limits``), held in memory per
worker:

* **Request bodies** over ``body_bytes`` get 413, whether the ``Content-Length`` says so or the body runs over
  while it is read (the app then sees the client gone, and nothing it does is sent).
* **Request-body bytes** per agent key (or, without a key, per address) are rate-limited: at most
  :data:`BODY_BUDGET_BODIES` largest bodies a minute (16 MiB at the default 1 MiB limit); beyond, 429 with
  ``Retry-After``.
* A request over a rate limit waits up to :data:`REFUSAL_DELAY_S` before its 429.
* **Requests without a key** (spectator pages, replay steps, lobby, event streams, sign-in and registration
  pages, anonymous ``/mcp`` calls under open registration; every path but ``/mcp`` counts, with or without an
  ``Authorization`` header, since only ``/mcp`` checks it) are rate-limited per client address: a token bucket
  of ``public_per_minute`` requests, refilled evenly over a minute (bursts of a tenth of it); beyond it, 429
  with ``Retry-After``.
* **Streams**: ``GET /mcp`` streams are capped per agent key (``streams``) and, with the spectator event streams
  (``/lobby/stream``, ``/tables/{id}/stream``), per address (``streams_per_address``); one more gets 429.
* **Spectator pages** are sent with a Content-Security-Policy naming no other origin
  (:data:`SPECTATOR_CSP`: the pages' scripts and styles are files of this server, see
  :mod:`club_agentes.mcp_server.clubhouse.web`); every answer outside ``/mcp`` carries
  ``X-Content-Type-Options: nosniff`` and ``X-Frame-Options: DENY``.

The header-read timeout is the HTTP protocol's (:func:`header_timeout_protocol`): a connection that has not
sent a request's headers within ``header_timeout_s`` seconds of opening (or of starting a request) is closed.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from club_agentes.mcp_server.limits import LimitSettings
from club_agentes.mcp_server.proxies import client_address
from starlette.datastructures import Headers
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

SPECTATOR_CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "font-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)
"""The Content-Security-Policy of the spectator pages: this server's own files, no other origin, no framing."""
SPECTATOR_PATHS = re.compile(r"/(|lobby/stream|tables/.*|leaderboard(/.*)?|agents/.*|static/.*|favicon\.ico)")
"""The paths of the spectator web app (:func:`club_agentes.mcp_server.clubhouse.web.routes`)."""
SPECTATOR_STREAMS = re.compile(r"/(lobby/stream|tables/[^/]+/stream)")
"""The spectator event streams (server-sent events), capped per address with ``GET /mcp``."""
BODY_BUDGET_BODIES = 16
"""Request-body bytes one agent key (or, without a key, one address) may send per minute, in largest bodies
(``body_bytes``): 16 MiB a minute at the default limit, up to 8 of them at once. An agent's requests are a few
kilobytes; a flood of near-limit bodies (every one read, parsed and refused) kept a worker's event loop busy
(benchmarks/attack.py, "near-limit bodies": 220 bodies a second from four keys, other clients' p99 4.4x idle).
Beyond it, 429 with ``Retry-After``."""
REFUSAL_DELAY_S = 1.0
"""How long a request over a rate limit waits before its 429 (at most until the limit lets it through). A client
that sends its next request as soon as the last is answered would otherwise get thousands of 429s a second,
each a little work of the event loop (benchmarks/attack.py: 5,343 refused near-limit bodies kept other clients'
p99 at 2.7x idle); a waiting request costs nothing but its connection."""
BUCKETS = 10_000
"""Client addresses whose request buckets a worker remembers (the least recently seen are forgotten: full)."""


class RateBuckets:
    """Token buckets per key: ``per_minute`` requests, refilled evenly; a full bucket holds a burst of a tenth
    of them (at least 10, at most all of them)."""

    def __init__(self, per_minute: int, clock: Callable[[], float] = time.monotonic, burst: int | None = None) -> None:
        self.per_minute = per_minute
        self.burst = burst if burst is not None else max(min(per_minute, 10), per_minute // 10)
        self.rate = per_minute / 60.0
        self.clock = clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def take(self, key: str, cost: float = 1.0) -> float:
        """Spend ``cost`` (one request, or bytes) of ``key``; return 0 if allowed, else the seconds until it is."""
        now = self.clock()
        tokens, at = self._buckets.pop(key, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - at) * self.rate)
        wait = 0.0
        if tokens >= cost:
            tokens -= cost
        else:
            wait = (cost - tokens) / self.rate
        self._buckets[key] = (tokens, now)
        while len(self._buckets) > BUCKETS:
            self._buckets.popitem(last=False)
        return wait


class StreamCounts:
    """Open streams per key (in memory): :meth:`open` counts one if every key is below its cap."""

    def __init__(self) -> None:
        self._open: dict[str, int] = {}

    def count(self, key: str) -> int:
        """Return the streams ``key`` holds open now."""
        return self._open.get(key, 0)

    def open(self, keys: list[tuple[str, int | None]]) -> str | None:
        """Count one stream against each ``(key, cap)``; return the first key at its cap instead (nothing counted)."""
        for key, cap in keys:
            if cap is not None and self._open.get(key, 0) >= cap:
                return key
        for key, _ in keys:
            self._open[key] = self._open.get(key, 0) + 1
        return None

    def close(self, keys: list[tuple[str, int | None]]) -> None:
        """Release one stream of each key."""
        for key, _ in keys:
            left = self._open.get(key, 0) - 1
            if left > 0:
                self._open[key] = left
            else:
                self._open.pop(key, None)


def key_digest(authorization: str) -> str:
    """Return a short digest of an ``Authorization`` header (the key itself is never kept)."""
    return hashlib.sha256(authorization.encode("utf-8", "replace")).hexdigest()[:24]


async def _refuse(scope: Scope, receive: Receive, send: Send, status: int, text: str, retry: int | None = None) -> None:
    headers = {"X-Content-Type-Options": "nosniff"}
    if retry is not None:
        headers["Retry-After"] = str(retry)
    await PlainTextResponse(text, status_code=status, headers=headers)(scope, receive, send)


class EdgeGuard:
    """Outermost ASGI layer: body size, per-address rate of keyless requests, stream caps, security headers."""

    def __init__(
        self,
        app: ASGIApp,
        limits: LimitSettings,
        *,
        mcp_path: str = "/mcp",
        keys_required: bool = True,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.app = app
        self.limits = limits
        self.mcp_path = mcp_path
        self.keys_required = keys_required
        """Without keys (``--no-auth``, loopback only) every ``/mcp`` request is the local agent's: not counted."""
        self.public = RateBuckets(limits.public_per_minute, clock) if limits.public_per_minute else None
        self.bodies = (
            RateBuckets(
                BODY_BUDGET_BODIES * limits.body_bytes, clock, burst=BODY_BUDGET_BODIES // 2 * limits.body_bytes
            )
            if limits.body_bytes
            else None
        )
        self.streams = StreamCounts()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve one ASGI event under the guards."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        address = client_address(scope)
        path = scope.get("path", "")
        authorization = headers.get("authorization")
        mcp = path.rstrip("/") == self.mcp_path
        # Only /mcp checks a key; elsewhere an Authorization header proves nothing, so it buys no exemption.
        # Static assets (a page's script, style and icon, served from memory) are not counted: a page view
        # costs one request of the budget, not five.
        static = path.startswith("/static/") or path == "/favicon.ico"
        if self.public is not None and not static and (not mcp or (authorization is None and self.keys_required)):
            wait = self.public.take(address)
            if wait > 0:
                retry = max(1, int(wait + 0.999))
                text = (
                    f"This address sent more than {self.public.per_minute} requests without an agent key in a "
                    f"minute; retry after {retry} seconds (MCP requests with an agent key are not counted here)."
                )
                await asyncio.sleep(min(wait, REFUSAL_DELAY_S))  # a client in a loop waits too: see REFUSAL_DELAY_S
                await _refuse(scope, receive, send, 429, text, retry)
                return
        limit = self.limits.body_bytes
        length = headers.get("content-length")
        if limit is not None and length is not None and length.strip().isdigit() and int(length) > limit:
            await _refuse(scope, receive, send, 413, self._too_large(limit))
            return
        if self.bodies is not None and length is not None and length.strip().isdigit() and int(length) > 0:
            who = "key:" + key_digest(authorization) if authorization is not None else "addr:" + address
            wait = self.bodies.take(who, float(int(length)))
            if wait > 0:
                retry = max(1, int(wait + 0.999))
                text = (
                    f"This {'agent key' if authorization is not None else 'address'} sent more than "
                    f"{_size(self.bodies.per_minute)} of request bodies in a minute; retry after {retry} "
                    "seconds (an agent's requests are a few kilobytes each)."
                )
                await asyncio.sleep(min(wait, REFUSAL_DELAY_S))
                await _refuse(scope, receive, send, 429, text, retry)
                return
        keys = self._stream_keys(scope, path, address, authorization)
        if keys:
            full = self.streams.open(keys)
            if full is not None:
                who = "agent key" if full.startswith("key:") else "address"
                cap = dict(keys)[full]
                text = (
                    f"This {who} already holds {cap} open event streams, the most allowed; close one and retry "
                    "(a stream ends when its page or GET request is closed)."
                )
                await _refuse(scope, receive, send, 429, text, 5)
                return
        try:
            await self._serve(scope, receive, send, path, limit)
        finally:
            if keys:
                self.streams.close(keys)

    def _stream_keys(
        self, scope: Scope, path: str, address: str, authorization: str | None
    ) -> list[tuple[str, int | None]]:
        if scope.get("method") != "GET":
            return []
        if path.rstrip("/") == self.mcp_path:
            keys: list[tuple[str, int | None]] = [("addr:" + address, self.limits.streams_per_address)]
            if authorization is not None:
                keys.append(("key:" + key_digest(authorization), self.limits.streams))
            return keys
        if SPECTATOR_STREAMS.fullmatch(path):
            return [("addr:" + address, self.limits.streams_per_address)]
        return []

    @staticmethod
    def _too_large(limit: int) -> str:
        return f"The request body is larger than {limit} bytes, the most this server reads; send a smaller one."

    async def _serve(self, scope: Scope, receive: Receive, send: Send, path: str, limit: int | None) -> None:
        mcp = path.rstrip("/") == self.mcp_path
        spectator = not mcp and SPECTATOR_PATHS.fullmatch(path) is not None
        state: dict[str, Any] = {"received": 0, "started": False, "refused": False}

        async def guarded_receive() -> Message:
            message = await receive()
            if limit is not None and message["type"] == "http.request" and not state["refused"]:
                state["received"] += len(message.get("body", b""))
                if state["received"] > limit:
                    state["refused"] = True
                    if not state["started"]:
                        state["started"] = True
                        await _refuse(scope, _disconnected, send, 413, self._too_large(limit))
                    return {"type": "http.disconnect"}
            return message

        async def guarded_send(message: Message) -> None:
            if state["refused"]:
                return  # the 413 was sent: nothing of the app's answer follows it
            if message["type"] == "http.response.start":
                state["started"] = True
                if not mcp:
                    extra = [(b"x-content-type-options", b"nosniff"), (b"x-frame-options", b"DENY")]
                    if spectator:
                        extra.append((b"content-security-policy", SPECTATOR_CSP.encode()))
                    names = {k.lower() for k, _ in message.get("headers", [])}
                    message = {
                        **message,
                        "headers": [*message.get("headers", []), *(h for h in extra if h[0] not in names)],
                    }
            await send(message)

        await self.app(scope, guarded_receive, guarded_send)


def _size(n: int) -> str:
    """Return a byte count in MiB (or KiB below one MiB)."""
    return f"{n // 1_048_576} MiB" if n >= 1_048_576 else f"{max(1, n // 1024)} KiB"


async def _disconnected() -> Message:
    return {"type": "http.disconnect"}


def header_timeout_protocol(timeout_s: float) -> type:
    """Return uvicorn's httptools protocol with a header-read timeout of ``timeout_s`` seconds.

    A connection must send a request's complete headers within ``timeout_s`` of opening (and of the first
    byte of each later request on it), else it is closed: a slow client cannot hold a connection by
    trickling its headers (uvicorn's own ``timeout_keep_alive`` covers only the wait between requests).
    """
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    class HeaderTimeoutProtocol(HttpToolsProtocol):
        _header_timer: asyncio.TimerHandle | None = None

        def _arm(self) -> None:
            self._disarm()
            self._header_timer = self.loop.call_later(timeout_s, self._headers_too_slow)

        def _disarm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _headers_too_slow(self) -> None:
            self._header_timer = None
            if self.transport is not None and not self.transport.is_closing():
                self.transport.close()

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def on_message_begin(self) -> None:
            super().on_message_begin()
            if self._header_timer is None:
                self._arm()

        def on_headers_complete(self) -> None:
            self._disarm()
            super().on_headers_complete()

    return HeaderTimeoutProtocol

"""The HTTP edge: the SDK's streamable HTTP app behind host and origin checks, served by uvicorn.

:func:`build_http_app` returns one ASGI app:

* **Host and origin checks on every request and every address** (:class:`EdgeMiddleware`): a
  ``Host`` header that is not the bind address, a localhost name, the public URL's host or an
  ``--allowed-host`` gets 421; an ``Origin`` that is not one of theirs or an ``--allowed-origin``
  gets 403. The SDK's own transport check (the same :class:`TransportSecuritySettings`) runs again
  inside ``/mcp``; the edge adds it for every path and every bind address (the SDK switches it on
  only for loopback binds).
* **Agent keys** through the SDK's own auth support: the server is built with
  ``token_verifier``/``AuthSettings`` (see :mod:`club_agentes.mcp_server.app`), so the SDK's bearer
  middleware answers a request without a valid key with 401 and ``WWW-Authenticate`` (naming the
  protected-resource metadata it serves at ``/.well-known/oauth-protected-resource/mcp``). Under
  ``--open-registration`` a request to ``/mcp`` *without* an ``Authorization`` header is served
  anonymously instead (it may read the rules and call ``register_agent``); a bad key still gets 401.
* **Transport mode**: stateless JSON responses by default (any worker can answer any request, no
  session to exhaust); ``--streaming`` answers with SSE streams and keeps sessions for the legacy
  protocol, which expire when idle; the live ones are capped per agent key (or client address) in
  memory per worker, an idle one making room for a new one (:class:`LegacySessionCap`), and all of
  them globally by the SDK's ``max_sessions``.

Per-agent budgets of refused moves, log pages and rule searches (:class:`~club_agentes.mcp_server.budgets.ToolBudgets`)
are installed in the server's middleware when agent keys are required.

:func:`serve_http` runs the app with uvicorn (uvloop and httptools). Outermost,
:class:`~club_agentes.mcp_server.guard.EdgeGuard` refuses big bodies (413), keyless floods from one
address and too many open streams (429), and adds the spectator pages' security headers.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import re
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from club_agentes.mcp_server.budgets import ToolBudgets
from club_agentes.mcp_server.event_store import RETRY_MS, MemoryEventStore
from club_agentes.mcp_server.guard import EdgeGuard, header_timeout_protocol
from club_agentes.mcp_server.lifespan import StartupHook, release_leases
from club_agentes.mcp_server.oauth import auth_edge
from club_agentes.mcp_server.operations import Operations
from club_agentes.mcp_server.proxies import ForwardedFor, client_address, parse_networks
from club_agentes.mcp_server.settings import ServerSettings
from club_agentes.mcp_server.wire_result import add_inside
from mcp.server.streamable_http import MCP_SESSION_ID_HEADER
from mcp.server.streamable_http_manager import StreamableHTTPASGIApp
from mcp.server.transport_security import TransportSecurityMiddleware, TransportSecuritySettings
from mcp.shared.inbound import MCP_PROTOCOL_VERSION_HEADER
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS
from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

if TYPE_CHECKING:
    from club_agentes.mcp_server.app import ClubApp

log = logging.getLogger("club_agentes.http")

MCP_PATH = "/mcp"

SWITCH_INTERVAL_S = 0.0005
"""The interpreter's thread switch interval in the HTTP server (see :func:`serve_http`)."""

RETRY_AFTER_LIVE_S = 5
"""``Retry-After`` of a new session refused because all of its identity's sessions are live."""


def transport_security(settings: ServerSettings) -> TransportSecuritySettings:
    """Return the SDK transport-security settings for ``settings``: DNS-rebinding protection always on."""
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=settings.effective_allowed_hosts(),
        allowed_origins=settings.effective_allowed_origins(),
    )


@dataclass
class _Session:
    """One legacy session of an identity: when it was last used, and how many of its requests are in flight."""

    seen: float
    in_flight: int = 0
    version: str | None = None
    """The protocol version the session negotiated (from its initialize answer), once seen."""


_NEGOTIATED = re.compile(rb'"protocolVersion"\s*:\s*"([0-9]{4}-[0-9]{2}-[0-9]{2})"')


class LegacySessionCap:
    """Caps the *live* legacy-protocol sessions of one identity (an agent key, else a client address).

    Held in memory, per worker (a restart clears it). A session counts from the response that opened
    it until it is deleted, answers 404, or has been idle for ``idle_s`` (the SDK closes it then
    too). It is **live** while one of its requests is in flight (a POST being answered, an open GET
    stream) and **idle** otherwise. An identity at its cap that opens another session is admitted
    when one of its sessions is idle: the least recently used idle one is closed to make room (its
    id then answers 404, and a client still holding it initializes again), so a client that never
    sends ``DELETE`` is never locked out; only when all its sessions are live is it refused (429).

    Only requests that can open a session are checked: a POST to ``/mcp`` without a session id
    whose protocol header is absent or of the handshake era.
    """

    def __init__(self, per_identity: int | None, idle_s: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_identity = per_identity
        self.idle_s = idle_s
        self.clock = clock
        self._sessions: dict[str, dict[str, _Session]] = {}
        self._owner: dict[str, str] = {}

    @staticmethod
    def identity(headers: Headers, scope: Scope) -> str:
        """Return who a request counts against: a digest of its ``Authorization`` header, else its address."""
        auth = headers.get("authorization")
        if auth:
            return "key:" + hashlib.sha256(auth.encode("utf-8", "replace")).hexdigest()[:24]
        return "addr:" + client_address(scope)

    def _prune(self, who: str, now: float) -> dict[str, _Session]:
        mine = self._sessions.get(who, {})
        for sid, session in list(mine.items()):
            if not session.in_flight and now - session.seen > self.idle_s:
                del mine[sid]
                self._owner.pop(sid, None)
        if not mine:
            self._sessions.pop(who, None)
        return mine

    def admit(self, who: str) -> tuple[bool, str | None]:
        """Decide on a new session of ``who``: ``(admitted, session to close first)``.

        ``(True, None)``: below the cap. ``(True, sid)``: at the cap, and ``sid`` (its least recently
        used idle session) must be closed to make room; it is forgotten here. ``(False, None)``: every
        session of ``who`` is live.
        """
        if self.per_identity is None:
            return True, None
        mine = self._prune(who, self.clock())
        if len(mine) < self.per_identity:
            return True, None
        idle = [(session.seen, sid) for sid, session in mine.items() if not session.in_flight]
        if not idle:
            return False, None
        _, oldest = min(idle)
        self.closed(oldest)
        return True, oldest

    def opened(self, who: str, session_id: str) -> None:
        """Record a session that a response opened (its opening request still in flight)."""
        self._sessions.setdefault(who, {})[session_id] = _Session(self.clock(), in_flight=1)
        self._owner[session_id] = who

    def negotiated(self, session_id: str, version: str | None = None) -> str | None:
        """Return the protocol version a session negotiated; with ``version``, record it first."""
        session = self._session(session_id)
        if session is None:
            return None
        if version is not None:
            session.version = version
        return session.version

    def owner(self, session_id: str) -> str | None:
        """Return the identity that opened a session (``None``: not a session counted here)."""
        return self._owner.get(session_id)

    def _session(self, session_id: str) -> _Session | None:
        who = self._owner.get(session_id)
        return self._sessions.get(who, {}).get(session_id) if who is not None else None

    def began(self, session_id: str) -> None:
        """Record a request of a known session starting (it is live until :meth:`ended`)."""
        session = self._session(session_id)
        if session is not None:
            session.in_flight += 1
            session.seen = self.clock()

    def ended(self, session_id: str) -> None:
        """Record a request of a session ending (its idle time starts when none is left in flight)."""
        session = self._session(session_id)
        if session is not None:
            session.in_flight = max(0, session.in_flight - 1)
            session.seen = self.clock()

    def closed(self, session_id: str) -> None:
        """Forget a session (deleted, closed to make room, or unknown to the server)."""
        who = self._owner.pop(session_id, None)
        if who is not None:
            self._sessions.get(who, {}).pop(session_id, None)

    def open_count(self, who: str) -> int:
        """Return how many sessions ``who`` holds open now (live or idle)."""
        return len(self._prune(who, self.clock()))

    def live_count(self, who: str) -> int:
        """Return how many sessions of ``who`` have a request in flight now."""
        return sum(1 for s in self._prune(who, self.clock()).values() if s.in_flight)


SessionCloser = Callable[[str], Awaitable[None]]
"""Ends one session in the SDK's session manager (its id answers 404 afterwards)."""


class EdgeMiddleware:
    """Outermost ASGI layer: host and origin checks, anonymous access under open registration, session caps."""

    def __init__(
        self,
        app: ASGIApp,
        security: TransportSecuritySettings,
        *,
        anonymous_app: ASGIApp | None = None,
        sessions: LegacySessionCap | None = None,
        close_session: SessionCloser | None = None,
        path: str = MCP_PATH,
    ) -> None:
        self.app = app
        self.security = TransportSecurityMiddleware(security)
        self.anonymous_app = anonymous_app
        self.sessions = sessions
        self.close_session = close_session
        self.path = path

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve one ASGI event: refuse foreign hosts and origins, then route it."""
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        refusal = await self.security.validate_request(request, is_post=False)
        if refusal is None and not request.headers.get("host", "").strip():
            refusal = PlainTextResponse("", status_code=421)  # an empty Host is as unknown as a foreign one
        if refusal is not None:
            host = request.headers.get("host", "")[:100]
            origin = request.headers.get("origin", "")[:100]
            if refusal.status_code == 421:
                text = (
                    f"This server does not answer to the Host {host!r}; its operator can allow it with --allowed-host."
                )
            else:
                text = (
                    f"Requests from the Origin {origin!r} are refused; the operator can allow it with --allowed-origin."
                )
            await PlainTextResponse(text, status_code=refusal.status_code)(scope, receive, send)
            return
        target = self.app
        if scope["type"] == "http" and scope.get("path", "").rstrip("/") == self.path:
            headers = Headers(scope=scope)
            if self.anonymous_app is not None and "authorization" not in headers:
                target = self.anonymous_app
            if self.sessions is not None:
                await self._with_session_cap(target, scope, receive, send, headers)
                return
        await target(scope, receive, send)

    async def _with_session_cap(
        self, app: ASGIApp, scope: Scope, receive: Receive, send: Send, headers: Headers
    ) -> None:
        assert self.sessions is not None
        cap = self.sessions
        session_id = headers.get(MCP_SESSION_ID_HEADER)
        if session_id is not None:
            mine = cap.owner(session_id) == cap.identity(headers, scope)
            if scope.get("method") == "DELETE":
                if mine:
                    cap.closed(session_id)
                await app(scope, receive, send)
                return

            async def watch_known(message: Message) -> None:
                # A 404 to the session's own identity: the SDK no longer has it.
                if message["type"] == "http.response.start" and message["status"] == 404:
                    cap.closed(session_id)
                await send(message)

            if not mine:  # another identity's session id: the SDK answers 404, nothing to count
                await app(scope, receive, send)
                return
            scope = _at_negotiated_version(scope, headers, cap.negotiated(session_id))
            cap.began(session_id)
            try:
                await app(scope, receive, watch_known)
            finally:
                cap.ended(session_id)
            return
        version = headers.get(MCP_PROTOCOL_VERSION_HEADER)
        if scope.get("method") != "POST" or (version is not None and version not in HANDSHAKE_PROTOCOL_VERSIONS):
            await app(scope, receive, send)
            return
        who = cap.identity(headers, scope)
        admitted, make_room = cap.admit(who)
        if not admitted:
            live = cap.live_count(who)
            text = (
                f"This agent (or address) has {live} sessions with a request in progress, the most allowed; end one "
                f"(DELETE it, or let its open stream close) and retry: idle sessions make room by themselves."
            )
            response = PlainTextResponse(text, status_code=429, headers={"Retry-After": str(RETRY_AFTER_LIVE_S)})
            await response(scope, receive, send)
            return
        if make_room is not None and self.close_session is not None:
            log.debug("closing an idle legacy session of %s to make room for a new one", who[:12])
            await self.close_session(make_room)
        opened: list[str] = []

        async def watch_new(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] < 400:
                sid = Headers(raw=message.get("headers", [])).get(MCP_SESSION_ID_HEADER)
                if sid:
                    cap.opened(who, sid)
                    opened.append(sid)
            elif message["type"] == "http.response.body" and opened and cap.negotiated(opened[0]) is None:
                found = _NEGOTIATED.search(message.get("body", b""))
                if found:
                    cap.negotiated(opened[0], found.group(1).decode())
            await send(message)

        try:
            await app(scope, receive, watch_new)
        finally:
            for sid in opened:
                cap.ended(sid)


def _at_negotiated_version(scope: Scope, headers: Headers, negotiated: str | None) -> Scope:
    """Serve a session's request at the version the session negotiated when its header names an older one.

    The spec asks a client to send the negotiated version in ``MCP-Protocol-Version`` on every request
    of a session; some send an older one (the conformance suite sends 2025-03-26 on a 2025-11-25
    session). The SDK's transport reads the header to decide, per request, whether the client can
    resume a stream (priming events, SSE polling); the session's own negotiated version is the
    authority, so the header is raised to it. A header naming a newer or unknown version is left for
    the SDK to judge.
    """
    sent = headers.get(MCP_PROTOCOL_VERSION_HEADER)
    if (
        negotiated is None
        or sent is None
        or sent == negotiated
        or sent not in HANDSHAKE_PROTOCOL_VERSIONS
        or negotiated not in HANDSHAKE_PROTOCOL_VERSIONS
        or sent > negotiated
    ):
        return scope
    name = MCP_PROTOCOL_VERSION_HEADER.lower().encode()
    raw = [(k, v) for k, v in scope.get("headers", []) if k.lower() != name]
    return {**scope, "headers": [*raw, (name, negotiated.encode())]}


def build_http_app(club: ClubApp, settings: ServerSettings) -> ASGIApp:
    """Return the ASGI app that serves ``club`` over streamable HTTP at ``/mcp`` under ``settings``.

    The server must have been built for these settings (:func:`club_agentes.mcp_server.app.build_app`
    with ``settings``), so that it carries the SDK auth configuration when keys are required.
    """
    security = transport_security(settings)
    limits = settings.limits
    if club.keys_required and not any(isinstance(m, ToolBudgets) for m in club.server.middleware):  # innermost but one
        add_inside(club.server.middleware, ToolBudgets())
    streaming = settings.streaming
    inner = club.server.streamable_http_app(
        streamable_http_path=MCP_PATH,
        json_response=not streaming,
        stateless_http=not streaming,
        event_store=MemoryEventStore() if streaming else None,  # priming events, retry, Last-Event-ID
        retry_interval=RETRY_MS if streaming else None,
        transport_security=security,
        host=settings.host,
        session_idle_timeout=float(limits.legacy_idle_s),
        max_sessions=limits.legacy_sessions_global,
        **({"max_request_body_size": limits.body_bytes} if limits.body_bytes is not None else {}),
    )
    anonymous = StreamableHTTPASGIApp(club.server.session_manager) if club.open_registration else None
    # At most its fair share of the global ceiling.
    per_identity = club.limits.fair_limit("legacy_sessions") if club.limits is not None else limits.legacy_sessions
    sessions = LegacySessionCap(per_identity, float(limits.legacy_idle_s)) if streaming else None
    edge = EdgeMiddleware(
        inner, security, anonymous_app=anonymous, sessions=sessions, close_session=session_closer(club)
    )
    keyed = auth_edge(club, edge)  # 401s that say whether a key is missing or not valid; OAuth client limits
    # Outermost: the start-up hook, the client address behind trusted proxies, then /healthz and /metrics
    # (outside every check and limit), then the edge guard (bodies, keyless rates, stream caps, page headers).
    guarded = EdgeGuard(keyed, limits, mcp_path=MCP_PATH, keys_required=club.keys_required)
    routes = [str(getattr(r, "path", "")) for r in getattr(inner, "routes", [])]
    operations = Operations(guarded, club, metrics=settings.metrics, routes=routes)
    app = ForwardedFor(operations, parse_networks(settings.forwarded_allow_ips))
    # Bots and clocks resume at start, not at the first call; parked long-poll leases are released at the end.
    return StartupHook(app, club.tables.start, functools.partial(release_leases, club))


def session_closer(club: ClubApp) -> SessionCloser:
    """Return the function that ends one of ``club``'s streaming sessions, as an idle timeout would.

    The SDK's session manager has no public call to end a session from the server's side; its
    transport has (``terminate()``: the session's server task ends and the manager forgets it).
    """

    async def close(session_id: str) -> None:
        instances = getattr(club.server.session_manager, "_server_instances", {})
        transport = instances.get(session_id)
        if transport is not None and not transport.is_terminated:
            await transport.terminate()

    return close


def serve_http(club: ClubApp, settings: ServerSettings) -> None:
    """Serve ``club`` over HTTP with uvicorn (uvloop, httptools) until interrupted.

    uvicorn's access log (a line per request) is written at ``--log-level DEBUG`` only; uvicorn's lines go through
    the server's log queue, never written from the event loop. A connection that
    does not send a request's headers within ``header_timeout_s`` (a limit) is closed.
    """
    import uvicorn

    # A heavy job in a worker thread (a replay step, a log page: see club_agentes.mcp_server.heavy) holds the
    # interpreter for up to the switch interval each time the event loop wants it back; at the default 5 ms, a
    # request that waits on the network a few times pays that many times over. 0.5 ms keeps the loop close to
    # its idle latency while a heavy job runs.
    sys.setswitchinterval(SWITCH_INTERVAL_S)
    app = build_http_app(club, settings)
    uvicorn.run(
        app,
        host=settings.host,
        port=settings.port,
        loop="uvloop",
        http=header_timeout_protocol(float(settings.limits.header_timeout_s)),
        lifespan="on",
        log_level=settings.log_level.lower(),
        # uvicorn's own loggers propagate to the root logger, whose lines a thread writes (cli_serve.configure_logging):
        # with uvicorn's default configuration they went straight to stderr from the event loop, and a stderr pipe
        # that nobody read stopped the server (benchmarks/attack.py, near-limit bodies: every client waited 30 s).
        log_config=None,
        access_log=settings.log_level == "DEBUG",  # a line per request cost 8% of a request's CPU
        proxy_headers=False,
        server_header=False,
    )

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
  protocol, capped per agent key (or client address) with a short idle timeout
  (:class:`LegacySessionCap`) and globally by the SDK's ``max_sessions``.

:func:`serve_http` runs the app with uvicorn (uvloop and httptools).
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from club_agentes.mcp_server.oauth import auth_edge
from club_agentes.mcp_server.settings import ServerSettings
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


def transport_security(settings: ServerSettings) -> TransportSecuritySettings:
    """Return the SDK transport-security settings for ``settings``: DNS-rebinding protection always on."""
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=settings.effective_allowed_hosts(),
        allowed_origins=settings.effective_allowed_origins(),
    )


class LegacySessionCap:
    """Caps the open legacy-protocol sessions of one identity (an agent key, else a client address).

    A session counts from the response that opened it until it is deleted, answers 404, or has
    been idle for ``idle_s`` (the SDK closes it then too). Only requests that can open a session
    are checked: a POST to ``/mcp`` without a session id whose protocol header is absent or of
    the handshake era.
    """

    def __init__(self, per_identity: int | None, idle_s: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_identity = per_identity
        self.idle_s = idle_s
        self.clock = clock
        self._sessions: dict[str, dict[str, float]] = {}
        self._owner: dict[str, str] = {}

    @staticmethod
    def identity(headers: Headers, scope: Scope) -> str:
        """Return who a request counts against: a digest of its ``Authorization`` header, else its address."""
        auth = headers.get("authorization")
        if auth:
            return "key:" + hashlib.sha256(auth.encode("utf-8", "replace")).hexdigest()[:24]
        client = scope.get("client")
        return "addr:" + (str(client[0]) if client else "unknown")

    def _prune(self, who: str, now: float) -> dict[str, float]:
        mine = self._sessions.get(who, {})
        for sid, seen in list(mine.items()):
            if now - seen > self.idle_s:
                del mine[sid]
                self._owner.pop(sid, None)
        return mine

    def admit(self, who: str) -> float | None:
        """Return ``None`` when ``who`` may open one more session, else seconds until one frees up."""
        if self.per_identity is None:
            return None
        now = self.clock()
        mine = self._prune(who, now)
        if len(mine) < self.per_identity:
            return None
        return max(1.0, min(mine.values()) + self.idle_s - now)

    def opened(self, who: str, session_id: str) -> None:
        """Record a session that a response opened."""
        self._sessions.setdefault(who, {})[session_id] = self.clock()
        self._owner[session_id] = who

    def touched(self, session_id: str) -> None:
        """Record activity on a session."""
        who = self._owner.get(session_id)
        if who is not None and session_id in self._sessions.get(who, {}):
            self._sessions[who][session_id] = self.clock()

    def closed(self, session_id: str) -> None:
        """Forget a session (deleted, or unknown to the server)."""
        who = self._owner.pop(session_id, None)
        if who is not None:
            self._sessions.get(who, {}).pop(session_id, None)

    def open_count(self, who: str) -> int:
        """Return how many sessions ``who`` holds open now."""
        return len(self._prune(who, self.clock()))


class EdgeMiddleware:
    """Outermost ASGI layer: host and origin checks, anonymous access under open registration, session caps."""

    def __init__(
        self,
        app: ASGIApp,
        security: TransportSecuritySettings,
        *,
        anonymous_app: ASGIApp | None = None,
        sessions: LegacySessionCap | None = None,
        path: str = MCP_PATH,
    ) -> None:
        self.app = app
        self.security = TransportSecurityMiddleware(security)
        self.anonymous_app = anonymous_app
        self.sessions = sessions
        self.path = path

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve one ASGI event: refuse foreign hosts and origins, then route it."""
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        refusal = await self.security.validate_request(request, is_post=False)
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
            if scope.get("method") == "DELETE":
                cap.closed(session_id)
            else:
                cap.touched(session_id)

            async def watch_known(message: Message) -> None:
                if message["type"] == "http.response.start" and message["status"] == 404:
                    cap.closed(session_id)
                await send(message)

            await app(scope, receive, watch_known)
            return
        version = headers.get(MCP_PROTOCOL_VERSION_HEADER)
        if scope.get("method") != "POST" or (version is not None and version not in HANDSHAKE_PROTOCOL_VERSIONS):
            await app(scope, receive, send)
            return
        who = cap.identity(headers, scope)
        wait = cap.admit(who)
        if wait is not None:
            seconds = int(wait) + 1
            text = (
                f"This agent (or address) has {cap.open_count(who)} open sessions, the most allowed; close one "
                f"(DELETE) or retry after {seconds} seconds, when an idle one expires."
            )
            response = PlainTextResponse(text, status_code=429, headers={"Retry-After": str(seconds)})
            await response(scope, receive, send)
            return

        async def watch_new(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] < 400:
                sid = Headers(raw=message.get("headers", [])).get(MCP_SESSION_ID_HEADER)
                if sid:
                    cap.opened(who, sid)
            await send(message)

        await app(scope, receive, watch_new)


def build_http_app(club: ClubApp, settings: ServerSettings) -> ASGIApp:
    """Return the ASGI app that serves ``club`` over streamable HTTP at ``/mcp`` under ``settings``.

    The server must have been built for these settings (:func:`club_agentes.mcp_server.app.build_app`
    with ``settings``), so that it carries the SDK auth configuration when keys are required.
    """
    security = transport_security(settings)
    limits = settings.limits
    streaming = settings.streaming
    inner = club.server.streamable_http_app(
        streamable_http_path=MCP_PATH,
        json_response=not streaming,
        stateless_http=not streaming,
        transport_security=security,
        host=settings.host,
        session_idle_timeout=float(limits.legacy_idle_s),
        max_sessions=limits.legacy_sessions_global,
    )
    anonymous = StreamableHTTPASGIApp(club.server.session_manager) if club.open_registration else None
    sessions = LegacySessionCap(limits.legacy_sessions, float(limits.legacy_idle_s)) if streaming else None
    edge = EdgeMiddleware(inner, security, anonymous_app=anonymous, sessions=sessions)
    return auth_edge(club, edge)  # 401s that say whether a key is missing or not valid; OAuth client limits


def serve_http(club: ClubApp, settings: ServerSettings) -> None:
    """Serve ``club`` over HTTP with uvicorn (uvloop, httptools) until interrupted.

    uvicorn's access log (a line per request) is written at ``--log-level DEBUG`` only.
    """
    import uvicorn

    app = build_http_app(club, settings)
    uvicorn.run(
        app,
        host=settings.host,
        port=settings.port,
        loop="uvloop",
        http="httptools",
        lifespan="on",
        log_level=settings.log_level.lower(),
        access_log=settings.log_level == "DEBUG",  # a line per request cost 8% of a request's CPU
        proxy_headers=False,
        server_header=False,
    )

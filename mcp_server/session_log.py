"""The MCP ``logging`` capability: the server's own events, sent to the session that asked for them.

A client chooses a level and then receives, as ``notifications/message``, the server's events at or
above it while the server serves *that session's* requests (never another session's):

* **protocols 2024-11-05 to 2025-11-25**: ``logging/setLevel`` sets the level of the session (the
  connection: a stdio process, or a ``--streaming`` HTTP session); until then nothing is sent.
* **protocol 2026-07-28**: each request opts in with the ``_meta`` key
  ``io.modelcontextprotocol/logLevel`` (``logging/setLevel`` does not exist there).

The events are the server's log records under the ``club_agentes`` logger (warnings, errors,
defects) emitted while the request is served, plus the request layer's own (:func:`session_event`):
a refused call at ``info`` with its sentence, a defect at ``error``, and at ``debug`` one line per
request served with its duration. They ride the request's own response stream, before its response:
over HTTP that needs ``--streaming`` (a JSON response carries no notification).

:class:`SessionLogMiddleware` (an SDK server middleware) collects them per request; the log-record
handler (:class:`SessionLogHandler`) costs nothing when no session asked for a level.
"""

from __future__ import annotations

import contextvars
import logging
import time
from dataclasses import dataclass, field
from typing import Any, Final, get_args

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp_types import (
    LOG_LEVEL_META_KEY,
    EmptyResult,
    LoggingLevel,
    LoggingMessageNotification,
    LoggingMessageNotificationParams,
    SetLevelRequestParams,
)
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

__all__ = [
    "LEVELS",
    "SessionLogHandler",
    "SessionLogMiddleware",
    "install",
    "session_event",
    "set_level",
]

LEVELS: Final[tuple[LoggingLevel, ...]] = get_args(LoggingLevel)
"""The MCP log levels, least severe first (RFC 5424): debug, info, notice, warning, error, critical,
alert, emergency."""

_RANK: Final[dict[str, int]] = {level: i for i, level in enumerate(LEVELS)}

LEVEL_STATE_KEY = "club_agentes.log_level"
"""Key, in the SDK connection's per-connection ``state``, of the level ``logging/setLevel`` chose."""

ROOT_LOGGER = "club_agentes"
"""The logger whose records (and its children's) may be sent to a session."""


def mcp_level(levelno: int) -> LoggingLevel:
    """Return the MCP level of a Python logging level (DEBUG debug, INFO info, WARNING warning, ...)."""
    if levelno < logging.INFO:
        return "debug"
    if levelno < logging.WARNING:
        return "info"
    if levelno < logging.ERROR:
        return "warning"
    if levelno < logging.CRITICAL:
        return "error"
    return "critical"


@dataclass
class _Sink:
    """The log entries one request collects for its session, at or above ``threshold``."""

    threshold: int
    entries: list[tuple[LoggingLevel, str, str]] = field(default_factory=list)

    def wants(self, level: LoggingLevel) -> bool:
        return _RANK[level] >= self.threshold

    def add(self, level: LoggingLevel, logger: str, message: str) -> None:
        if self.wants(level):
            self.entries.append((level, logger, message))


_sink: contextvars.ContextVar[_Sink | None] = contextvars.ContextVar("club_agentes_session_log", default=None)


def session_event(level: LoggingLevel, message: str, logger: str = "club_agentes.requests") -> None:
    """Record an event for the session of the request being served, if it asked for ``level`` or lower.

    Does nothing (and costs one context-variable read) outside a request or when the session chose
    no level. Never raises.
    """
    sink = _sink.get()
    if sink is not None:
        sink.add(level, logger, message)


def wants(level: LoggingLevel) -> bool:
    """Whether the session of the request being served would receive an event at ``level``."""
    sink = _sink.get()
    return sink is not None and sink.wants(level)


class SessionLogHandler(logging.Handler):
    """A logging handler that copies records emitted during a request to that request's session log."""

    def emit(self, record: logging.LogRecord) -> None:
        """Add ``record`` to the current request's session log (if any); never raises."""
        sink = _sink.get()
        if sink is None:
            return
        try:
            sink.add(mcp_level(record.levelno), record.name, record.getMessage())
        except Exception:  # a handler must not raise into the code that logged
            self.handleError(record)


def _connection_state(ctx: ServerRequestContext[Any, Any]) -> dict[str, Any] | None:
    """The SDK connection's per-connection ``state`` (kept across the connection's requests), if reachable."""
    connection = getattr(ctx.session, "_connection", None)  # the SDK exposes state on Connection only
    state = getattr(connection, "state", None)
    return state if isinstance(state, dict) else None


def _requested_level(ctx: ServerRequestContext[Any, Any]) -> LoggingLevel | None:
    """The level the session asked for, for this request: ``_meta`` on 2026-07-28, ``logging/setLevel`` before."""
    if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
        meta: Any = ctx.meta or {}
        requested = meta.get(LOG_LEVEL_META_KEY) if isinstance(meta, dict) else None
        return requested if requested in _RANK else None
    state = _connection_state(ctx)
    level = state.get(LEVEL_STATE_KEY) if state is not None else None
    return level if level in _RANK else None


async def set_level(ctx: ServerRequestContext[Any, Any], params: SetLevelRequestParams) -> EmptyResult:
    """Handle ``logging/setLevel``: the session receives the server's events at ``params.level`` and above.

    Never raises (the SDK validates ``level`` before this runs).
    """
    state = _connection_state(ctx)
    if state is not None:
        state[LEVEL_STATE_KEY] = params.level
    session_event("info", f"log level of this session set to {params.level!r}")
    return EmptyResult()


def _target(ctx: ServerRequestContext[Any, Any]) -> str:
    params = ctx.params or {}
    for key in ("name", "uri"):
        value = params.get(key) if isinstance(params, dict) else None
        if isinstance(value, str):
            return f"{ctx.method} {value[:80]}"
    return ctx.method


class SessionLogMiddleware:
    """SDK server middleware: collect a request's events and send them to its session before the response."""

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        """Serve one message; for a request whose session chose a level, send its events as log notifications."""
        level = _requested_level(ctx) if ctx.request_id is not None else None
        if ctx.method == "logging/setLevel":
            params = ctx.params or {}
            chosen = params.get("level") if isinstance(params, dict) else None
            level = chosen if chosen in _RANK else level
        if level is None:
            return await call_next(ctx)
        sink = _Sink(_RANK[level])
        token = _sink.set(sink)
        started = time.perf_counter()
        try:
            return await call_next(ctx)
        finally:
            _sink.reset(token)
            sink.add(
                "debug", "club_agentes.requests", f"served {_target(ctx)} in {time.perf_counter() - started:.3f} s"
            )
            await _flush(ctx, sink)


async def _flush(ctx: ServerRequestContext[Any, Any], sink: _Sink) -> None:
    """Send a request's collected entries on its own response stream (best effort: a gone client loses them)."""
    for level, logger, message in sink.entries:
        note = LoggingMessageNotification(
            params=LoggingMessageNotificationParams(level=level, data=message, logger=logger)
        )
        try:
            # send_notification, not the deprecated send_log_message: the levels are filtered here already.
            await ctx.session.send_notification(note, related_request_id=ctx.request_id)
        except Exception:  # the client went away or its stream closed: its log is lost, the answer is not
            return


def install(logger_name: str = ROOT_LOGGER) -> SessionLogHandler:
    """Attach one :class:`SessionLogHandler` to ``logger_name`` (once per process); return it."""
    logger = logging.getLogger(logger_name)
    for handler in logger.handlers:
        if isinstance(handler, SessionLogHandler):
            return handler
    handler = SessionLogHandler()
    logger.addHandler(handler)
    return handler

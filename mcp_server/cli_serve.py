"""``club-agentes serve``: run the MCP server over stdio or streamable HTTP (uvicorn).

Every flag is a setting of :mod:`club_agentes.mcp_server.settings` (each also readable from its
``CLUB_AGENTES_*`` environment variable). A setting the server cannot use stops it with one
sentence on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import atexit
import logging
import logging.handlers
import queue
import sys
from typing import Any

from club_agentes.errors import Refused


def add_commands(sub: Any) -> None:
    """Declare the ``serve`` subcommand."""
    from club_agentes.mcp_server.settings import add_arguments

    serve = sub.add_parser(
        "serve",
        help="run the MCP server (stdio by default; --http for streamable HTTP at /mcp)",
        description="Run the MCP server. Over stdio the client acts as the local agent (--agent); over HTTP every "
        "request carries an agent key (Authorization: Bearer <key>, made by 'club-agentes agents add').",
    )
    add_arguments(serve, "serve")
    serve.set_defaults(run=run_serve)


LOG_QUEUE_LINES = 10_000
"""Log lines waiting for stderr; beyond them new lines are dropped (the server never waits on its log)."""


class DroppingQueueHandler(logging.handlers.QueueHandler):
    """Queue a log record without ever blocking; a record that finds the queue full is dropped and counted."""

    dropped = 0

    def enqueue(self, record: logging.LogRecord) -> None:
        """Put ``record`` on the queue, or count it as dropped when the queue is full (never raises)."""
        try:
            self.queue.put_nowait(record)
        except queue.Full:
            DroppingQueueHandler.dropped += 1


def configure_logging(level: str) -> None:
    """Send the server's log lines to stderr (stdout carries the stdio protocol), written by a thread of its own.

    The event loop only queues a line: a stderr that is read slowly or not at all (a full pipe) would otherwise
    block the loop in ``write`` and stall every client. Lines beyond :data:`LOG_QUEUE_LINES` waiting are dropped.
    """
    stream = logging.StreamHandler(sys.stderr)
    stream.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    lines: queue.Queue[logging.LogRecord] = queue.Queue(LOG_QUEUE_LINES)
    listener = logging.handlers.QueueListener(lines, stream)
    listener.start()

    def flush() -> None:  # at exit: the lines queued so far, unless stderr stays blocked (then left after 2 s)
        try:
            listener.enqueue_sentinel()
        except queue.Full:
            return
        if listener._thread is not None:
            listener._thread.join(2)

    atexit.register(flush)
    logging.basicConfig(handlers=[DroppingQueueHandler(lines)], level=getattr(logging, level, logging.INFO))


def run_serve(args: argparse.Namespace) -> int:
    """Serve until interrupted; return the exit status (2 when a setting or the key cannot be used)."""
    from club_agentes.mcp_server.app import build_app
    from club_agentes.mcp_server.settings import load_settings
    from club_agentes.mcp_server.store import StoreError
    from club_agentes.quizzes.bank import BankError

    try:
        configure_logging("INFO")
        settings = load_settings(args)
        logging.getLogger().setLevel(settings.log_level)
        app = build_app(settings=settings)
    except (Refused, StoreError, BankError) as exc:
        sys.stderr.write(f"club-agentes: {exc}\n")
        return 2
    if settings.http:
        from club_agentes.mcp_server.http import serve_http

        serve_http(app, settings)
    else:
        import anyio
        from club_agentes.mcp_server.lifespan import serve_stdio

        anyio.run(serve_stdio, app)
    return 0

"""``club-agentes serve``: run the MCP server over stdio or streamable HTTP (uvicorn).

Every flag is a setting of :mod:`club_agentes.mcp_server.settings` (each also readable from its
``CLUB_AGENTES_*`` environment variable). A setting the server cannot use stops it with one
sentence on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import logging
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


def configure_logging(level: str) -> None:
    """Send the server's log lines to stderr (stdout carries the stdio protocol)."""
    logging.basicConfig(
        stream=sys.stderr, level=getattr(logging, level, logging.INFO), format="%(levelname)s %(name)s: %(message)s"
    )


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

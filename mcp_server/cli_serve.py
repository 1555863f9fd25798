"""``club-agentes serve``: run the MCP server over stdio or streamable HTTP."""

from __future__ import annotations

import argparse
from typing import Any


def add_commands(sub: Any) -> None:
    """Declare the ``serve`` subcommand."""
    serve = sub.add_parser("serve", help="run the MCP server (stdio by default)")
    serve.add_argument("--http", action="store_true", help="serve streamable HTTP at /mcp instead of stdio")
    serve.add_argument("--host", default="127.0.0.1", help="HTTP host (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="HTTP port (default 8000)")
    serve.add_argument("--db", default=None, help="SQLite file (default $CLUB_AGENTES_DB or ~/.local/share/...)")
    serve.set_defaults(run=run_serve)


def run_serve(args: argparse.Namespace) -> int:
    """Serve until interrupted; return the exit status."""
    from club_agentes.mcp_server.app import build_server, open_store

    server = build_server(open_store(args.db))
    if args.http:
        server.run("streamable-http", host=args.host, port=args.port, streamable_http_path="/mcp")
    else:
        server.run()
    return 0

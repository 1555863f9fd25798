"""Test server: ``club-agentes serve --http`` with the clubhouse registered (tools and web app).

Until ``build_app`` registers the clubhouse itself, the clubhouse tests start this instead of the console
script. The store and every other setting come from the environment (``CLUB_AGENTES_DB``...).
Usage: ``python tests/clubhouse/serve.py --port N [--no-auth]``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


def main() -> None:
    """Serve until killed."""
    from club_agentes.mcp_server.app import build_app
    from club_agentes.mcp_server.clubhouse import register_clubhouse
    from club_agentes.mcp_server.http import serve_http
    from club_agentes.mcp_server.settings import load_settings

    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--no-auth", action="store_true")
    args = parser.parse_args()
    settings = load_settings(http=True, host="127.0.0.1", port=args.port, no_auth=args.no_auth, log_level="WARNING")
    app = build_app(settings=settings)
    register_clubhouse(app)
    serve_http(app, settings)


if __name__ == "__main__":
    main()

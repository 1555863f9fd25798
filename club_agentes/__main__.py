"""``python -m club_agentes``: the same command line as the ``club-agentes`` script."""

from __future__ import annotations

from club_agentes.mcp_server.cli import main

if __name__ == "__main__":
    raise SystemExit(main())

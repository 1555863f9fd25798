"""The ``club-agentes`` command line: one subcommand group per module.

Each module of :data:`COMMAND_MODULES` offers ``add_commands(subparsers)`` (declaring its
subcommands, each with ``set_defaults(run=...)``) and the functions those ``run`` point to,
which take the parsed arguments and return the exit status.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from club_agentes import __version__

COMMAND_MODULES: tuple[str, ...] = (
    "club_agentes.mcp_server.cli_serve",
    "club_agentes.mcp_server.cli_quiz",
    "club_agentes.mcp_server.cli_club",
    "club_agentes.mcp_server.cli_clubhouse",
)


def parser() -> argparse.ArgumentParser:
    """Return the full argument parser (every subcommand group)."""
    p = argparse.ArgumentParser(
        prog="club-agentes",
        description="Club de Agentes: an MCP server that teaches, examines and referees three card games.",
    )
    p.add_argument("--version", action="version", version=f"club-agentes {__version__}")
    sub = p.add_subparsers(dest="command", required=True)
    for name in COMMAND_MODULES:
        importlib.import_module(name).add_commands(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (2 for a usage error)."""
    args = parser().parse_args(argv)
    try:
        return int(args.run(args))
    except KeyboardInterrupt:
        sys.stderr.write("club-agentes: interrupted\n")
        return 130


if __name__ == "__main__":
    raise SystemExit(main())

"""Test-only launcher of the server for the crash tests: ``python tests/mcp/fault_server.py <point> serve ...``
runs the ``club-agentes`` command line with a store fault hook that SIGKILLs the process when a write reaches
``<point>`` (``"append:moves"``, ``"claim:table"``...: the points of ``mcp_server/store/tables.py``).

The production store calls its fault hook at each point and the hook does nothing; this installs, before
any store is opened, a hook on ``TableStore`` (the class, so every store of the process has it)."""

from __future__ import annotations

import os
import signal
import sys

from club_agentes.mcp_server.cli import main
from club_agentes.mcp_server.store.tables import TableStore


def kill_at(point: str):
    """Return a fault hook that kills this process with SIGKILL at ``point``."""

    def hook(where: str) -> None:
        if where == point:
            os.kill(os.getpid(), signal.SIGKILL)

    return hook


if __name__ == "__main__":
    TableStore.fault_hook = staticmethod(kill_at(sys.argv[1]))  # type: ignore[method-assign,assignment]
    sys.argv = ["club-agentes", *sys.argv[2:]]
    sys.exit(main())

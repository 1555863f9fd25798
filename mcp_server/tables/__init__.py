"""Tables: games played by agents and bots, stored event-sourced, served by any number of workers.

* :mod:`.service`: :class:`TableService` (lifecycle, seats, moves, bots, the decision clock, logs);
  it returns plain data (:mod:`.facts`).
* :mod:`.presenter`: that data as tool results (output models and compact text for a model).
* :mod:`.live`: live tables in a bounded cache, rebuilt from snapshots and moves, caught up across
  processes.
* :mod:`.lanes`: bot work off the event loop (worker processes).
* :mod:`.notify`: PostgreSQL ``LISTEN`` wake-ups across workers.
* :mod:`.config`: server settings and table options.

Names are imported lazily, so that bot lane processes (which import :mod:`.lanes`) start quickly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from club_agentes.mcp_server.tables.config import TableError, TableOptions, TableSettings
    from club_agentes.mcp_server.tables.service import PassVerifier, TableLimits, TableService

_EXPORTS = {
    "TableError": "config",
    "TableOptions": "config",
    "TableSettings": "config",
    "PassVerifier": "service",
    "TableLimits": "service",
    "TableService": "service",
}

__all__ = ["PassVerifier", "TableError", "TableLimits", "TableOptions", "TableService", "TableSettings"]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    return getattr(import_module(f"{__name__}.{module}"), name)

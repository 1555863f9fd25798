"""Tables: games played by agents and bots, stored event-sourced, served by any number of workers.

* :mod:`.service`: :class:`TableService`, the public API (lifecycle, loading, creating and joining, views,
  waits, logs and listings, playing); it returns plain data (:mod:`.facts`).
* :mod:`.turn`: the one write path. Every move (an agent's, the bots', the clock's) and every seat handed to a
  bot is stored by :func:`.turn.commit` as one ``Append`` and then reaches the table in memory through
  :meth:`.live.LiveTable.apply`, which catching up with other workers' writes uses too.
* :mod:`.reading`: what a seat is told (facts, decision, legal moves and their words, events).
* :mod:`.rebase`: moves decided on an older version (held, or checked against the state of then).
* :mod:`.bots`: bot lanes, headless bots-only tables, CPU budgets, the one lane-task builder.
* :mod:`.clock`: the decision clock and the sweeper.
* :mod:`.presenter` and :mod:`.wording`: that data as tool results (output models, compact text for a model).
* :mod:`.live`: live tables in a bounded cache, rebuilt from snapshots and moves; :mod:`.catchup`: a live
  table caught up with what other processes wrote (read in one trip off the event loop).
* :mod:`.lanes`: bot work off the event loop (worker processes).
* :mod:`.notify`: PostgreSQL ``LISTEN`` wake-ups across workers.
* :mod:`.config`: server settings and table options; :mod:`.common`: what the parts share.

Every store call a coroutine here makes goes through the store's async boundary, ``await store.run(fn, ...)``.
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

"""Exhibition games: a bots-only table played at a watchable pace, for spectators (and the browser tests).

A bots-only table normally plays to its end in a fraction of a second. An exhibition plays it through
a table service of its own whose bot lane waits ``pace_s`` before each bot decision and plays one
decision per piece of work, so each move lands in the store on its own and the spectator page shows
it arrive. Every other worker sharing the store sees an ordinary bots-only table being played (its
stalled-bot sweeper only takes over if the exhibition stops writing for ten seconds).

(A table option for the pace belongs in the table service; until it has one, this is the pace.)
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from club_agentes.engine.core import Game, get_game
from club_agentes.mcp_server.store import Store
from club_agentes.mcp_server.tables.config import TableSettings
from club_agentes.mcp_server.tables.lanes import LaneResult, Lanes, LaneTask
from club_agentes.mcp_server.tables.service import TableService
from club_agentes.rules_corpus import load_corpus

MAX_PACE_S = 30.0


class PacedLanes(Lanes):
    """One thread lane that waits ``pace_s`` before each piece of bot work."""

    def __init__(self, pace_s: float, *, resolve: Callable[[str], Game] = get_game) -> None:
        super().__init__(0, resolve=resolve)
        self.pace_s = pace_s

    async def run(self, task: LaneTask) -> LaneResult:
        """Wait the pace, then run the work.

        Raises:
            RuntimeError: the lanes are closed.
        """
        await asyncio.sleep(self.pace_s)
        return await super().run(task)


class _NoPasses:
    """Exhibition tables have no agent seat, so nobody ever shows a pass."""

    def admit(self, club_pass: str | None, agent: str, game: str) -> str | None:
        return "exhibition tables have no agent seat"


def paced_service(store: Store, pace_s: float, games: Callable[[str], Game] = get_game) -> TableService:
    """Return a table service over ``store`` whose bots play one decision every ``pace_s`` seconds.

    Raises:
        ValueError: ``pace_s`` is not from 0 to :data:`MAX_PACE_S`.
    """
    if not 0 <= pace_s <= MAX_PACE_S:
        raise ValueError(f"the pace must be from 0 to {MAX_PACE_S:g} seconds, not {pace_s}")
    settings = replace(TableSettings.from_env(), chunk_moves=1, bot_workers=0)
    return TableService(
        store, load_corpus(), _NoPasses(), games=games, settings=settings, lanes=PacedLanes(pace_s, resolve=games)
    )


async def start_exhibition(
    service: TableService,
    game: str,
    seats: list[str],
    *,
    options: Mapping[str, Any] | None = None,
    seed: int | None = None,
) -> str:
    """Create a bots-only table on a paced service (it starts playing at once); return its id.

    Raises:
        TableError: bad game, seats (each must be a bot kind), options or seed.
    """
    from club_agentes.mcp_server.tables.config import TableError

    if any(not isinstance(s, str) or not s.startswith("bot:") for s in seats):
        raise TableError("an exhibition has bot seats only, e.g. ['bot:heuristic', 'bot:random']")
    created = await service.create(game, seats, options, seed, creator=None)
    return created.table.table_id


async def wait_finished(store: Store, table_id: str, timeout_s: float, poll_s: float = 0.2) -> str:
    """Wait until a table is over (or ``timeout_s`` passes); return its status."""
    deadline = time.monotonic() + timeout_s
    while True:
        head = await store.run(store.tables.table_head, table_id)
        status = head.status if head is not None else "unknown"
        if status in ("finished", "aborted", "unknown") or time.monotonic() >= deadline:
            return status
        await asyncio.sleep(poll_s)

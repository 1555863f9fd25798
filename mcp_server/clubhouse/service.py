"""The clubhouse service: ratings kept current in the background, leaderboards, profiles, matchmaking, spectating.

One :class:`Clubhouse` per server process. Its background task (started on first use inside the
running event loop, like the table service's) rates newly finished games every
:data:`RATE_EVERY_S` seconds; reads that show ratings also rate what is pending first, so an
answer never lags a finished game.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from club_agentes.engine.core import Game, UnknownGame, get_game
from club_agentes.mcp_server.clubhouse.matchmaking import Matchmaker
from club_agentes.mcp_server.clubhouse.ratings import (
    MODEL,
    Ratings,
    anchor_rating,
    conservative,
)
from club_agentes.mcp_server.clubhouse.spectate import Spectator
from club_agentes.mcp_server.store import Store
from club_agentes.mcp_server.store.clubhouse import RatedGame, RatingRow

from club_agentes.errors import Refused
from club_agentes.manifest import game_ids

if TYPE_CHECKING:
    from club_agentes.mcp_server.tables.service import TableService

log = logging.getLogger("club_agentes.clubhouse")

RATE_EVERY_S = 2.0
MAX_LEADERBOARD = 100
MAX_RECENT = 50


class ClubhouseError(Refused):
    """A clubhouse request refused (unknown game or agent, bad limit): one sentence."""


@dataclass(frozen=True)
class Standing:
    """One line of a leaderboard."""

    rank: int
    row: RatingRow

    @property
    def rating(self) -> float:
        """The conservative rating, ``mu - 3 sigma``."""
        return conservative(self.row.mu, self.row.sigma)

    @property
    def win_rate(self) -> float | None:
        """Games won over games rated, or ``None`` before the first."""
        return self.row.wins / self.row.games if self.row.games else None


def iso(t: float) -> str:
    """Return a time as ISO 8601 UTC (seconds)."""
    return datetime.fromtimestamp(t, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


class Clubhouse:
    """Ratings, leaderboards, profiles, matchmaking and the spectator's reads over one store."""

    def __init__(
        self,
        store: Store,
        tables: TableService | None,
        *,
        games: Callable[[str], Game] = get_game,
        clock: Callable[[], float] = time.time,
        base_url: str | None = None,
    ) -> None:
        self.store = store
        self._tables = tables
        self.ratings = Ratings(store, clock=clock)
        self._matchmaker = (
            Matchmaker(store, tables, rating_of=self.rating_mu, games=games, clock=clock)
            if tables is not None
            else None
        )
        self.spectator = Spectator(store, games)
        self.base_url = base_url.rstrip("/") if base_url else None
        self._games = games
        self._task: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def tables(self) -> TableService:
        """The table service.

        Raises:
            RuntimeError: this clubhouse was built without one (a defect of the caller).
        """
        if self._tables is None:
            raise RuntimeError("this clubhouse has no table service")
        return self._tables

    @property
    def matchmaker(self) -> Matchmaker:
        """The matchmaker (a clubhouse built without a table service has none).

        Raises:
            RuntimeError: this clubhouse was built without a table service (a defect of the caller).
        """
        if self._matchmaker is None:
            raise RuntimeError("this clubhouse has no table service, so it cannot seat agents")
        return self._matchmaker

    # ------------------------------------------------------------------ lifecycle

    def ensure_started(self) -> None:
        """Start the background rating task in the running event loop (once per loop)."""
        loop = asyncio.get_running_loop()
        if self._loop is loop and self._task is not None and not self._task.done():
            return
        self._loop = loop
        self._task = loop.create_task(self._rate_forever(), name="clubhouse ratings")

    async def _rate_forever(self) -> None:
        while True:
            try:
                await asyncio.to_thread(self.ratings.rate_pending)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("rating finished games failed")
            await asyncio.sleep(RATE_EVERY_S)

    async def aclose(self) -> None:
        """Stop the background task."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
        self._loop = None

    async def fresh(self) -> None:
        """Rate pending finished games now (before showing ratings)."""
        self.ensure_started()
        while await asyncio.to_thread(self.ratings.rate_pending) > 0:
            pass

    # ------------------------------------------------------------------ reads

    def game(self, game_id: str) -> Game:
        """Return a game by id.

        Raises:
            ClubhouseError: no such game.
        """
        try:
            return self._games(game_id)
        except UnknownGame:
            ids = ", ".join(repr(g) for g in game_ids())
            raise ClubhouseError(f"unknown game {str(game_id)[:40]!r}; the games are {ids}") from None

    def rating_mu(self, agent: str, game: str) -> float:
        """Return an agent's rating mean at a game (the model's starting mean if unrated)."""
        for r in self.store.clubhouse.ratings_of(agent):
            if r.game == game:
                return r.mu
        return float(MODEL.mu)

    def standings(self, game_id: str, limit: int = MAX_LEADERBOARD) -> list[Standing]:
        """Return a game's leaderboard: rated players and every bot kind of the game (anchors), best first.

        Raises:
            ClubhouseError: unknown game or a bad limit.
        """
        game = self.game(game_id)
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LEADERBOARD:
            raise ClubhouseError(f"limit must be a whole number from 1 to {MAX_LEADERBOARD}")
        rows = {r.player: r for r in self.store.clubhouse.leaderboard_rows(game_id, 10_000)}
        for kind in game.bots:
            name = f"bot:{kind}"
            if name not in rows:
                mu, sigma = anchor_rating(name)
                rows[name] = RatingRow(game_id, name, mu, sigma, 0, 0, True, 0.0)
        ordered = sorted(rows.values(), key=lambda r: (-conservative(r.mu, r.sigma), r.player))
        return [Standing(i, r) for i, r in enumerate(ordered, 1)][:limit]

    def rank_of(self, game_id: str, player: str) -> int | None:
        """Return a player's place on a game's leaderboard, or ``None``."""
        for s in self.standings(game_id, MAX_LEADERBOARD):
            if s.row.player == player:
                return s.rank
        return None

    def profile(self, agent: str, recent: int = 10) -> tuple[list[Standing], list[RatedGame]]:
        """Return an agent's standing at each game it was rated at, and its latest rated games.

        Raises:
            ClubhouseError: a bad ``recent`` count.
        """
        if isinstance(recent, bool) or not isinstance(recent, int) or not 1 <= recent <= MAX_RECENT:
            raise ClubhouseError(f"recent must be a whole number from 1 to {MAX_RECENT}")
        mine = []
        for r in self.store.clubhouse.ratings_of(agent):
            rank = next((s.rank for s in self.standings(r.game, MAX_LEADERBOARD) if s.row.player == agent), 0)
            mine.append(Standing(rank, r))
        return mine, self.store.clubhouse.recent_rated(agent, recent)

    def replay_url(self, table_id: str) -> str | None:
        """Return the web replay of a table, when the server serves the web app."""
        return f"{self.base_url}/tables/{table_id}/replay" if self.base_url else None

    def leaderboard_url(self, game_id: str) -> str | None:
        """Return the web leaderboard of a game, when the server serves the web app."""
        return f"{self.base_url}/leaderboard/{game_id}" if self.base_url else None


def seats_of(outcome: dict[str, Any], player: str) -> list[dict[str, Any]]:
    """Return the seat records of ``player`` in a rated game's outcome."""
    return [s for s in outcome.get("seats", []) if s.get("player") == player]

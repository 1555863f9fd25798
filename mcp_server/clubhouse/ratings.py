"""Ratings: an openskill (Plackett-Luce) rating per player per game, from every finished game with an agent seat.

How a finished table is rated:

* **Players**: each seat is played by the agent that claimed it (even if a bot took the seat over after
  its clock ran out too often: the seat stays the agent's), or by its bot kind (``bot:heuristic``).
* **Places**: the game's result decides them. The winners (``Result.winners``; several on a shared win)
  share first place; every other seat is placed by its score (``Result.scores``), equal scores tying.
  So a seat with more money than the winner but no victory still places after the winner.
* **Bots are anchors**: each bot kind has a fixed rating (:data:`ANCHORS`) that takes part in every
  update and never moves, so the scale stays put (an agent that beats ``bot:heuristic`` rises above 25).
* **One agent at several seats** (a table with ``seats_per_agent`` above 1): each seat is a separate
  player in the update, starting from the agent's rating; the agent's new rating is the mean of its
  seats' (``mu`` and ``sigma`` each). It played one game, and won it if any of its seats won.
* **Order**: games are rated in the order they finished (the table's last write time, then its id),
  so the ratings are a pure function of the finished tables: :meth:`Ratings.rebuild` recomputes
  them from scratch and gets the same numbers. A game found out of order (a worker's clock, or a
  write that committed late) makes the next pass rebuild everything instead.

Every worker runs :meth:`Ratings.rate_pending` in the background and before answering a leaderboard;
the work is one transaction under a lock shared by all workers, so each game is rated once.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from club_agentes.mcp_server.store import Store
from club_agentes.mcp_server.store import clubhouse as sql
from club_agentes.mcp_server.store.clubhouse import FinishedTable, RatedGame, RatingRow
from club_agentes.mcp_server.store.db import Tx
from openskill.models import PlackettLuce

MODEL = PlackettLuce()
"""The rating model: openskill's Plackett-Luce with its defaults (``mu`` 25, ``sigma`` 25/3, ``beta`` 25/6)."""

ANCHORS: dict[str, tuple[float, float]] = {
    "bot:random": (15.0, 1.0),
    "bot:heuristic": (25.0, 1.0),
    "bot:mcts": (30.0, 1.0),
}
"""The fixed ``(mu, sigma)`` of each bot kind: reference points of the scale, never updated.

``bot:heuristic`` sits at the model's starting ``mu`` (a new agent starts level with it, though far
less certain); ``bot:random`` two model ``beta`` below it, ``bot:mcts`` a little above. A bot kind
not listed here anchors at the model's ``mu``."""

ANCHOR_SIGMA = 1.0
REORDER_WINDOW_S = 3600.0
"""How far back (seconds before the latest rated game) each pass looks for games that finished out of order."""
PASS_LIMIT = 500
"""The most games one incremental pass rates (the next pass goes on)."""


def is_anchor(player: str) -> bool:
    """Return whether ``player`` is a bot kind (an anchor), e.g. ``bot:heuristic``."""
    return player.startswith("bot:")


def anchor_rating(player: str) -> tuple[float, float]:
    """Return the fixed ``(mu, sigma)`` of a bot kind."""
    return ANCHORS.get(player, (float(MODEL.mu), ANCHOR_SIGMA))


def conservative(mu: float, sigma: float) -> float:
    """Return the rating shown for ranking: ``mu - 3 sigma`` (openskill's ordinal)."""
    return mu - 3.0 * sigma


def places(result: dict[str, Any], seats: int) -> list[int]:
    """Return each seat's place (1 = best; equal places tie) from a stored result.

    Winners share first place; the others follow by score, highest first.

    Raises:
        ValueError: the result has no score for some seat.
    """
    winners = {int(s) for s in result.get("winners", [])}
    scores = [float(x) for x in result.get("scores", [])]
    if len(scores) < seats:
        raise ValueError(f"the result has {len(scores)} scores for {seats} seats")
    keys = [(s in winners, scores[s]) for s in range(seats)]
    return [1 + sum(1 for other in keys if other > k) for k in keys]


@dataclass
class Book:
    """Ratings being updated: (game, player) -> row; rows not yet stored are created on first use."""

    rows: dict[tuple[str, str], RatingRow]
    loader: Callable[[str, Sequence[str]], dict[str, RatingRow]] | None = None
    changed: set[tuple[str, str]] | None = None

    def __post_init__(self) -> None:
        if self.changed is None:
            self.changed = set()

    def need(self, game: str, players: Iterable[str]) -> None:
        """Load the stored rows of ``players`` not yet in the book."""
        missing = [p for p in set(players) if (game, p) not in self.rows]
        if missing and self.loader is not None:
            for p, row in self.loader(game, missing).items():
                self.rows[(game, p)] = row

    def get(self, game: str, player: str) -> RatingRow:
        """Return the row of ``player`` at ``game`` (a new player starts at the model's rating)."""
        row = self.rows.get((game, player))
        if row is None:
            if is_anchor(player):
                mu, sigma = anchor_rating(player)
            else:
                mu, sigma = float(MODEL.mu), float(MODEL.sigma)
            row = RatingRow(game, player, mu, sigma, 0, 0, is_anchor(player), 0.0)
        return row

    def put(self, row: RatingRow) -> None:
        """Store ``row`` in the book, marked changed."""
        self.rows[(row.game, row.player)] = row
        assert self.changed is not None
        self.changed.add((row.game, row.player))

    def dirty(self) -> list[RatingRow]:
        """Return the changed rows."""
        assert self.changed is not None
        return [self.rows[k] for k in sorted(self.changed)]


def rate_game(book: Book, table: FinishedTable) -> dict[str, Any]:
    """Update ``book`` with one finished table; return what happened to each seat (the game's outcome record).

    Raises:
        ValueError: the stored result cannot be read.
    """
    n = len(table.players)
    ranks = places(table.result, n)
    book.need(table.game, table.players)
    before = {p: book.get(table.game, p) for p in set(table.players)}
    teams = []
    for player in table.players:
        row = before[player]
        mu, sigma = anchor_rating(player) if is_anchor(player) else (row.mu, row.sigma)
        teams.append([MODEL.rating(mu=mu, sigma=sigma)])
    rated = MODEL.rate(teams, ranks=[float(r) for r in ranks])
    winners = {int(s) for s in table.result.get("winners", [])}
    after: dict[str, RatingRow] = {}
    for player, row in before.items():
        seats = [s for s, p in enumerate(table.players) if p == player]
        won = any(s in winners for s in seats)
        if is_anchor(player):
            mu, sigma = anchor_rating(player)
        else:
            mu = sum(float(rated[s][0].mu) for s in seats) / len(seats)
            sigma = sum(float(rated[s][0].sigma) for s in seats) / len(seats)
        after[player] = replace(
            row,
            mu=mu,
            sigma=sigma,
            games=row.games + 1,
            wins=row.wins + int(won),
            anchor=is_anchor(player),
            last_at=max(row.last_at, table.finished_at),
        )
        book.put(after[player])
    scores = table.result.get("scores", [])
    return {
        "winners": sorted(winners),
        "reason": table.result.get("reason", ""),
        "seats": [
            {
                "seat": s,
                "player": p,
                "place": ranks[s],
                "won": s in winners,
                "score": float(scores[s]) if s < len(scores) else None,
                "mu_before": before[p].mu,
                "sigma_before": before[p].sigma,
                "mu_after": after[p].mu,
                "sigma_after": after[p].sigma,
            }
            for s, p in enumerate(table.players)
        ],
    }


class Ratings:
    """Rates finished games into the store and rebuilds the ratings from the finished tables."""

    def __init__(self, store: Store, *, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self._clock = clock

    def _fold(self, tx: Tx, tables: Sequence[FinishedTable], seq: int, book: Book) -> int:
        rated = 0
        for table in tables:
            try:
                outcome = rate_game(book, table)
            except ValueError:
                outcome = {"skipped": "the stored result cannot be read"}
            seq += 1
            sql.save_rated(tx, RatedGame(table.table_id, table.game, table.finished_at, seq, outcome), table.players)
            rated += 1
        return rated

    def rate_pending(self, limit: int = PASS_LIMIT) -> int:
        """Rate the finished games not yet rated (at most ``limit``); return how many were rated.

        Safe to call from every worker at once: one rates, the others then find nothing new.

        Raises:
            StoreError: the database failed.
        """
        with self.store.db.tx() as tx:
            sql.lock(tx, "ratings")
            last, seq = sql.last_rated(tx)
            since = last[0] - REORDER_WINDOW_S if last is not None else float("-inf")
            tables = sql.unrated_tables(tx, since=since, limit=limit)
            if not tables:
                return 0
            if last is not None and tables[0].key < last:
                return self._rebuild(tx)
            book = Book({}, loader=lambda game, players: sql.load_ratings(tx, game, players))
            rated = self._fold(tx, tables, seq, book)
            sql.save_ratings(tx, book.dirty())
        return rated

    def rebuild(self) -> int:
        """Delete every rating and rate every finished game again, in order; return how many were rated.

        Raises:
            StoreError: the database failed.
        """
        with self.store.db.tx() as tx:
            sql.lock(tx, "ratings")
            return self._rebuild(tx)

    def _rebuild(self, tx: Tx) -> int:
        sql.clear_ratings(tx)
        book = Book({})
        after: tuple[float, str] | None = None
        total = 0
        while True:
            page = sql.all_finished_tables(tx, after=after, limit=PASS_LIMIT)
            if not page:
                break
            total += self._fold(tx, page, total, book)
            after = page[-1].key
        sql.save_ratings(tx, book.dirty())
        return total

    def snapshot(self) -> list[tuple[str, str, float, float, int, int]]:
        """Return every rating as ``(game, player, mu, sigma, games, wins)`` (for comparing two computations)."""
        return [(r.game, r.player, r.mu, r.sigma, r.games, r.wins) for r in self.store.clubhouse.all_ratings()]

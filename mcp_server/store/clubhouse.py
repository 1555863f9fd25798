"""The clubhouse part of the store: ratings, the games they were computed from, and the matchmaking queue.

* ``club_ratings``: one row per (game, player): the openskill rating (``mu``, ``sigma``), games
  rated and games won. A player is an agent's normalised name or a bot kind (``bot:heuristic``);
  bots are anchors whose rating never moves (their games and wins are counted all the same).
* ``club_rated_games``: one row per finished table that was rated, in the order it was rated
  (``seq``), with what the rating did to each seat (``outcome``, JSON). A finished table with no
  agent seat is never rated. The rows are derived data: ``club-agentes ratings rebuild`` deletes
  them and rates every finished game again from the tables' records.
* ``club_seeks``: the matchmaking queue (one row per ``seek_game`` call while it waits, then the
  table and seat it was given), shared by every worker on the database.

Every write that must not interleave with another worker's takes :func:`lock` first (a PostgreSQL
transaction-scoped advisory lock; SQLite's ``BEGIN IMMEDIATE`` already serialises writers).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from club_agentes.mcp_server.store.db import Migration, StorePart, Tx

MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        "clubhouse",
        1,
        (
            """CREATE TABLE IF NOT EXISTS club_ratings (
                game TEXT NOT NULL,
                player TEXT NOT NULL,
                mu DOUBLE PRECISION NOT NULL,
                sigma DOUBLE PRECISION NOT NULL,
                games BIGINT NOT NULL DEFAULT 0,
                wins BIGINT NOT NULL DEFAULT 0,
                anchor INTEGER NOT NULL DEFAULT 0,
                last_at DOUBLE PRECISION NOT NULL DEFAULT 0,
                PRIMARY KEY (game, player)
            )""",
            "CREATE INDEX IF NOT EXISTS club_ratings_by_player ON club_ratings (player)",
            """CREATE TABLE IF NOT EXISTS club_rated_games (
                table_id TEXT PRIMARY KEY,
                game TEXT NOT NULL,
                finished_at DOUBLE PRECISION NOT NULL,
                seq BIGINT NOT NULL,
                outcome TEXT NOT NULL
            )""",
            "CREATE INDEX IF NOT EXISTS club_rated_games_by_key ON club_rated_games (finished_at, table_id)",
            """CREATE TABLE IF NOT EXISTS club_rated_players (
                table_id TEXT NOT NULL,
                player TEXT NOT NULL,
                game TEXT NOT NULL,
                finished_at DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (table_id, player)
            )""",
            "CREATE INDEX IF NOT EXISTS club_rated_players_by_player ON club_rated_players (player, finished_at)",
            """CREATE TABLE IF NOT EXISTS club_seeks (
                id TEXT PRIMARY KEY,
                queue TEXT NOT NULL,
                agent TEXT NOT NULL,
                game TEXT NOT NULL,
                seats INTEGER NOT NULL,
                options TEXT NOT NULL,
                bot_fill INTEGER NOT NULL,
                rating DOUBLE PRECISION NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                deadline_at DOUBLE PRECISION NOT NULL,
                seen_at DOUBLE PRECISION NOT NULL,
                status TEXT NOT NULL,
                match_id TEXT,
                seat INTEGER,
                table_id TEXT,
                note TEXT
            )""",
            "CREATE INDEX IF NOT EXISTS club_seeks_by_queue ON club_seeks (queue, status, created_at)",
            "CREATE INDEX IF NOT EXISTS club_seeks_by_match ON club_seeks (match_id)",
        ),
    ),
    Migration(
        "clubhouse",
        2,
        # The hash of the seat token the seeking call made for itself: the table and its seat claims are
        # stored in one transaction by whichever worker forms the match, and only the caller knows the token.
        ("ALTER TABLE club_seeks ADD COLUMN token_hash TEXT",),
    ),
)
"""The clubhouse's migrations (component ``clubhouse``)."""

SEEK_STATUSES = ("waiting", "matched", "seated", "expired", "cancelled", "failed")
"""A seek waits, is matched (its seat chosen; the table being created), then seated (the table made) or
ends expired (no opponent and no bot fill), cancelled (the caller left) or failed (the table could not be made)."""


def lock(tx: Tx, name: str) -> None:
    """Serialise this transaction with every other worker's holding the same ``name`` (until it ends)."""
    if tx.dialect == "postgresql":
        tx.execute("SELECT pg_advisory_xact_lock(hashtext(?))", (f"clubhouse:{name}",))


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


# --------------------------------------------------------------------------- ratings


@dataclass(frozen=True)
class RatingRow:
    """A player's rating at one game.

    Attributes:
        player: an agent's name or a bot kind (``bot:heuristic``).
        mu, sigma: the openskill rating and its uncertainty.
        games, wins: games rated and games won (a shared win counts as a win).
        anchor: a bot kind whose rating is fixed.
        last_at: when the player's latest rated game finished.
    """

    game: str
    player: str
    mu: float
    sigma: float
    games: int
    wins: int
    anchor: bool
    last_at: float


@dataclass(frozen=True)
class FinishedTable:
    """A finished table as the ratings read it: who sat where and how it ended.

    Attributes:
        players: one entry per seat: the agent's name, or the seat's bot kind (``bot:heuristic``).
        agent_seats: the seats agents held.
        result: the stored result (``winners``, ``scores``, ``reason``, ``breakdown``).
        finished_at: the time of the table's last write (the finishing moves).
    """

    table_id: str
    game: str
    players: tuple[str, ...]
    agent_seats: tuple[int, ...]
    result: dict[str, Any]
    finished_at: float

    @property
    def key(self) -> tuple[float, str]:
        """The order games are rated in: by finishing time, then table id."""
        return (self.finished_at, self.table_id)


@dataclass(frozen=True)
class RatedGame:
    """A rated game: its table, when it finished and what the rating did to each seat."""

    table_id: str
    game: str
    finished_at: float
    seq: int
    outcome: dict[str, Any]


def _rating(r: Sequence[Any]) -> RatingRow:
    return RatingRow(str(r[0]), str(r[1]), float(r[2]), float(r[3]), int(r[4]), int(r[5]), bool(r[6]), float(r[7]))


_RATING_COLS = "game, player, mu, sigma, games, wins, anchor, last_at"

_FINISHED_SQL = (
    "SELECT t.id, t.game, t.seats, t.result, t.updated_at FROM game_tables t WHERE t.status = 'finished'"
    " AND t.result IS NOT NULL AND EXISTS (SELECT 1 FROM seat_claims c WHERE c.table_id = t.id)"
)


def _finished(tx: Tx, rows: list[tuple[Any, ...]]) -> list[FinishedTable]:
    if not rows:
        return []
    ids = [str(r[0]) for r in rows]
    claims: dict[str, dict[int, str]] = {}
    for start in range(0, len(ids), 500):
        part = ids[start : start + 500]
        marks = ", ".join("?" for _ in part)
        for tid, seat, agent in tx.all(
            f"SELECT table_id, seat, agent FROM seat_claims WHERE table_id IN ({marks})", part
        ):
            claims.setdefault(str(tid), {})[int(seat)] = str(agent)
    out = []
    for tid, game, seats_json, result_json, updated_at in rows:
        seats = json.loads(seats_json)
        mine = claims.get(str(tid), {})
        players = tuple(mine.get(s, spec) for s, spec in enumerate(seats))
        out.append(
            FinishedTable(str(tid), str(game), players, tuple(sorted(mine)), json.loads(result_json), float(updated_at))
        )
    return out


def unrated_tables(tx: Tx, *, since: float, limit: int) -> list[FinishedTable]:
    """Return finished tables with an agent seat, not yet rated, finished at ``since`` or later, oldest first."""
    rows = tx.all(
        _FINISHED_SQL + " AND t.updated_at >= ?"
        " AND NOT EXISTS (SELECT 1 FROM club_rated_games r WHERE r.table_id = t.id)"
        " ORDER BY t.updated_at, t.id LIMIT ?",
        (since, limit),
    )
    return _finished(tx, rows)


def all_finished_tables(tx: Tx, *, after: tuple[float, str] | None, limit: int) -> list[FinishedTable]:
    """Return finished tables with an agent seat in rating order, starting after the key ``after``."""
    sql = _FINISHED_SQL
    args: list[Any] = []
    if after is not None:
        sql += " AND (t.updated_at > ? OR (t.updated_at = ? AND t.id > ?))"
        args += [after[0], after[0], after[1]]
    rows = tx.all(sql + " ORDER BY t.updated_at, t.id LIMIT ?", (*args, limit))
    return _finished(tx, rows)


def last_rated(tx: Tx) -> tuple[tuple[float, str] | None, int]:
    """Return the rating-order key of the latest rated game (``None``: none yet) and the highest ``seq``."""
    r = tx.one("SELECT finished_at, table_id FROM club_rated_games ORDER BY finished_at DESC, table_id DESC LIMIT 1")
    s = tx.one("SELECT MAX(seq) FROM club_rated_games")
    key = (float(r[0]), str(r[1])) if r else None
    return key, int(s[0]) if s and s[0] is not None else 0


def load_ratings(tx: Tx, game: str, players: Sequence[str]) -> dict[str, RatingRow]:
    """Return the stored ratings of ``players`` at ``game`` (players never rated are absent)."""
    out: dict[str, RatingRow] = {}
    names = sorted(set(players))
    for start in range(0, len(names), 500):
        part = names[start : start + 500]
        marks = ", ".join("?" for _ in part)
        for r in tx.all(
            f"SELECT {_RATING_COLS} FROM club_ratings WHERE game = ? AND player IN ({marks})", (game, *part)
        ):
            out[str(r[1])] = _rating(r)
    return out


def save_ratings(tx: Tx, rows: Sequence[RatingRow]) -> None:
    """Insert or replace ratings."""
    if rows:
        tx.many(
            f"INSERT INTO club_ratings ({_RATING_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (game, player) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
            " games = excluded.games, wins = excluded.wins, anchor = excluded.anchor, last_at = excluded.last_at",
            [(r.game, r.player, r.mu, r.sigma, r.games, r.wins, int(r.anchor), r.last_at) for r in rows],
        )


def save_rated(tx: Tx, game: RatedGame, players: Sequence[str]) -> None:
    """Record a rated game and the players who took part.

    Raises:
        IntegrityError: the table was rated already (another worker won the race; roll back).
    """
    tx.execute(
        "INSERT INTO club_rated_games (table_id, game, finished_at, seq, outcome) VALUES (?, ?, ?, ?, ?)",
        (game.table_id, game.game, game.finished_at, game.seq, _dumps(game.outcome)),
    )
    tx.many(
        "INSERT INTO club_rated_players (table_id, player, game, finished_at) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (table_id, player) DO NOTHING",
        [(game.table_id, p, game.game, game.finished_at) for p in sorted(set(players))],
    )


def clear_ratings(tx: Tx) -> None:
    """Delete every rating and rated game (before a rebuild)."""
    tx.execute("DELETE FROM club_rated_players")
    tx.execute("DELETE FROM club_rated_games")
    tx.execute("DELETE FROM club_ratings")


# --------------------------------------------------------------------------- the queue


@dataclass(frozen=True)
class SeekRow:
    """One ``seek_game`` call in the queue.

    Attributes:
        id: the seek's id.
        queue: the queue it waits in: game, seat count and options (agents only meet in the same queue).
        rating: the agent's rating at the game when it joined (``mu``), for pairing close ratings.
        deadline_at: when its ``max_wait_s`` runs out.
        seen_at: the last time its caller was known to be waiting (stale rows are dropped).
        status: one of :data:`SEEK_STATUSES`.
        match_id, seat, table_id: the match it was given, its seat and, once made, the table.
        note: why a seek failed, or which seats were filled with bots.
        token_hash: the hash of the seat token the waiting call holds (the token itself is never stored).
    """

    id: str
    queue: str
    agent: str
    game: str
    seats: int
    options: dict[str, Any]
    bot_fill: bool
    rating: float
    created_at: float
    deadline_at: float
    seen_at: float
    status: str
    match_id: str | None = None
    seat: int | None = None
    table_id: str | None = None
    note: str | None = None
    token_hash: str | None = None


_SEEK_COLS = (
    "id, queue, agent, game, seats, options, bot_fill, rating, created_at, deadline_at, seen_at, status,"
    " match_id, seat, table_id, note, token_hash"
)


def _seek(r: Sequence[Any]) -> SeekRow:
    return SeekRow(
        id=str(r[0]),
        queue=str(r[1]),
        agent=str(r[2]),
        game=str(r[3]),
        seats=int(r[4]),
        options=json.loads(r[5]),
        bot_fill=bool(r[6]),
        rating=float(r[7]),
        created_at=float(r[8]),
        deadline_at=float(r[9]),
        seen_at=float(r[10]),
        status=str(r[11]),
        match_id=r[12],
        seat=int(r[13]) if r[13] is not None else None,
        table_id=r[14],
        note=r[15],
        token_hash=r[16],
    )


def insert_seek(tx: Tx, s: SeekRow) -> None:
    """Add a seek to the queue."""
    tx.execute(
        f"INSERT INTO club_seeks ({_SEEK_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            s.id,
            s.queue,
            s.agent,
            s.game,
            s.seats,
            _dumps(s.options),
            int(s.bot_fill),
            s.rating,
            s.created_at,
            s.deadline_at,
            s.seen_at,
            s.status,
            s.match_id,
            s.seat,
            s.table_id,
            s.note,
            s.token_hash,
        ),
    )


def waiting_seeks(tx: Tx, queue: str) -> list[SeekRow]:
    """Return the seeks waiting in ``queue``, oldest first (locked on PostgreSQL)."""
    lock_rows = " FOR UPDATE" if tx.dialect == "postgresql" else ""
    rows = tx.all(
        f"SELECT {_SEEK_COLS} FROM club_seeks WHERE queue = ? AND status = 'waiting'"
        f" ORDER BY created_at, id{lock_rows}",
        (queue,),
    )
    return [_seek(r) for r in rows]


def get_seek(tx: Tx, seek_id: str) -> SeekRow | None:
    """Return a seek, or ``None``."""
    r = tx.one(f"SELECT {_SEEK_COLS} FROM club_seeks WHERE id = ?", (seek_id,))
    return _seek(r) if r else None


def match_members(tx: Tx, match_id: str) -> list[SeekRow]:
    """Return the seeks of one match, by seat."""
    rows = tx.all(f"SELECT {_SEEK_COLS} FROM club_seeks WHERE match_id = ? ORDER BY seat", (match_id,))
    return [_seek(r) for r in rows]


def match_seeks(tx: Tx, assignments: Sequence[tuple[str, int]], match_id: str, note: str | None) -> None:
    """Mark waiting seeks matched: ``(seek id, seat)`` each, under ``match_id``."""
    for seek_id, seat in assignments:
        tx.execute(
            "UPDATE club_seeks SET status = 'matched', match_id = ?, seat = ?, note = ?"
            " WHERE id = ? AND status = 'waiting'",
            (match_id, seat, note, seek_id),
        )


def settle_match(tx: Tx, match_id: str, *, table_id: str | None, note: str | None) -> None:
    """Give a match its table (status ``seated``), or fail it with ``note`` (``table_id`` ``None``)."""
    if table_id is not None:
        tx.execute(
            "UPDATE club_seeks SET status = 'seated', table_id = ? WHERE match_id = ? AND status = 'matched'",
            (table_id, match_id),
        )
    else:
        tx.execute(
            "UPDATE club_seeks SET status = 'failed', note = ? WHERE match_id = ? AND status = 'matched'",
            (note, match_id),
        )


def seat_match(tx: Tx, match_id: str, table_id: str, members: int) -> bool:
    """Give a match its table (status ``seated``) if all ``members`` of it are still matched; else change nothing
    and return ``False`` (a member gave up: the caller rolls the table back)."""
    row = tx.one("SELECT COUNT(*) FROM club_seeks WHERE match_id = ? AND status = 'matched'", (match_id,))
    if not row or int(row[0]) != members:
        return False
    tx.execute(
        "UPDATE club_seeks SET status = 'seated', table_id = ? WHERE match_id = ? AND status = 'matched'",
        (table_id, match_id),
    )
    return True


def end_seek(tx: Tx, seek_id: str, status: str, note: str | None = None) -> bool:
    """End a waiting seek (``expired`` or ``cancelled``); return ``False`` if it was matched meanwhile."""
    return (
        tx.execute(
            "UPDATE club_seeks SET status = ?, note = COALESCE(?, note) WHERE id = ? AND status = 'waiting'",
            (status, note, seek_id),
        )
        > 0
    )


def touch_seek(tx: Tx, seek_id: str, now: float) -> None:
    """Record that the seek's caller is still waiting."""
    tx.execute("UPDATE club_seeks SET seen_at = ? WHERE id = ? AND status = 'waiting'", (now, seek_id))


def drop_stale_seeks(tx: Tx, queue: str, before: float) -> int:
    """Cancel the waiting seeks of ``queue`` whose caller was last seen before ``before`` (its worker died)."""
    return tx.execute(
        "UPDATE club_seeks SET status = 'cancelled', note = 'the caller stopped waiting'"
        " WHERE queue = ? AND status = 'waiting' AND seen_at < ?",
        (queue, before),
    )


def purge_seeks(tx: Tx, before: float) -> int:
    """Delete ended seeks created before ``before`` (the queue keeps recent history only)."""
    return tx.execute(
        "DELETE FROM club_seeks WHERE status <> 'waiting' AND status <> 'matched' AND created_at < ?", (before,)
    )


class ClubhouseStoreSQL(StorePart):
    """Reads of the clubhouse tables for tools and pages (writes go through the module's functions in a tx)."""

    def leaderboard_rows(self, game: str, limit: int) -> list[RatingRow]:
        """Return a game's ratings, best conservative rating (``mu - 3 sigma``) first, at most ``limit``."""
        rows = self.db.all(
            f"SELECT {_RATING_COLS} FROM club_ratings WHERE game = ? ORDER BY mu - 3 * sigma DESC, player LIMIT ?",
            (game, limit),
        )
        return [_rating(r) for r in rows]

    def ratings_of(self, player: str) -> list[RatingRow]:
        """Return a player's ratings at every game it was rated at, by game id."""
        rows = self.db.all(f"SELECT {_RATING_COLS} FROM club_ratings WHERE player = ? ORDER BY game", (player,))
        return [_rating(r) for r in rows]

    def all_ratings(self) -> list[RatingRow]:
        """Return every rating, by game and player."""
        return [_rating(r) for r in self.db.all(f"SELECT {_RATING_COLS} FROM club_ratings ORDER BY game, player")]

    def recent_rated(self, player: str, limit: int) -> list[RatedGame]:
        """Return the latest rated games ``player`` took part in, newest first."""
        rows = self.db.all(
            "SELECT g.table_id, g.game, g.finished_at, g.seq, g.outcome FROM club_rated_players p"
            " JOIN club_rated_games g ON g.table_id = p.table_id WHERE p.player = ?"
            " ORDER BY p.finished_at DESC, p.table_id DESC LIMIT ?",
            (player, limit),
        )
        return [RatedGame(str(r[0]), str(r[1]), float(r[2]), int(r[3]), json.loads(r[4])) for r in rows]

    def rated_game(self, table_id: str) -> RatedGame | None:
        """Return the rating record of a table, or ``None`` if it was not rated."""
        r = self.db.one(
            "SELECT table_id, game, finished_at, seq, outcome FROM club_rated_games WHERE table_id = ?", (table_id,)
        )
        return RatedGame(str(r[0]), str(r[1]), float(r[2]), int(r[3]), json.loads(r[4])) if r else None

    def rated_count(self, game: str | None = None) -> int:
        """Return how many games were rated (of one game, or of all)."""
        if game is not None:
            r = self.db.one("SELECT COUNT(*) FROM club_rated_games WHERE game = ?", (game,))
        else:
            r = self.db.one("SELECT COUNT(*) FROM club_rated_games")
        return int(r[0]) if r else 0

    def queue_lengths(self) -> dict[str, int]:
        """Return the number of seeks waiting in each queue."""
        rows = self.db.all("SELECT queue, COUNT(*) FROM club_seeks WHERE status = 'waiting' GROUP BY queue")
        return {str(q): int(n) for q, n in rows}

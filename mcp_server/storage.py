"""The server's store: SQLite (one file, WAL) holding tables, moves, quiz attempts and passes.

Tables are event-sourced: a table row holds (game, config, seed, seats) and the
``moves`` rows hold every accepted move in order; a restart rebuilds any table by
replay. A move is appended with the version it creates as part of the primary key,
so two racing submissions (even from two processes sharing the file) can never
both apply: the second insert fails and the caller reports a stale version.

Durability: WAL with ``synchronous=NORMAL`` commits each transaction to the
write-ahead log before the call returns, so a killed process (SIGKILL) loses no
acknowledged move; only a power cut could lose the very last ones.

The object is thread-safe (one connection behind a lock); tools may call it from
the event loop or from worker threads.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from club_agentes.quizzes.store import Attempt, PassRecord

DB_ENV = "CLUB_AGENTES_DB"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS game_tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    config TEXT NOT NULL,
    seed INTEGER NOT NULL,
    seeded INTEGER NOT NULL,
    seats TEXT NOT NULL,
    require_club_pass INTEGER NOT NULL,
    created_at REAL NOT NULL,
    status TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 0,
    result TEXT
);
CREATE TABLE IF NOT EXISTS seat_claims (
    table_id TEXT NOT NULL REFERENCES game_tables(id),
    seat INTEGER NOT NULL,
    agent TEXT NOT NULL,
    token_hash TEXT NOT NULL,
    joined_at REAL NOT NULL,
    seen_events INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS moves (
    table_id TEXT NOT NULL REFERENCES game_tables(id),
    version INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    move TEXT NOT NULL,
    actor TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (table_id, version)
);
CREATE TABLE IF NOT EXISTS quiz_attempts (
    quiz_id TEXT PRIMARY KEY,
    agent TEXT NOT NULL,
    game TEXT NOT NULL,
    practice INTEGER NOT NULL,
    item_ids TEXT NOT NULL,
    created_at REAL NOT NULL,
    expires_at REAL NOT NULL,
    graded_at REAL,
    result TEXT
);
CREATE INDEX IF NOT EXISTS quiz_attempts_agent ON quiz_attempts (agent, practice, created_at);
CREATE TABLE IF NOT EXISTS club_passes (
    jti TEXT PRIMARY KEY,
    agent TEXT NOT NULL,
    games TEXT NOT NULL,
    issued_at REAL NOT NULL,
    expires_at REAL NOT NULL,
    revoked INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS club_passes_agent ON club_passes (agent, issued_at);
"""


class StaleVersion(Exception):
    """Another move was appended first; ``current`` is the table's version now."""

    def __init__(self, current: int) -> None:
        super().__init__(f"the table is at version {current}")
        self.current = current


@dataclass(frozen=True)
class TableRow:
    """A stored table's definition and status."""

    id: str
    game: str
    config: dict[str, Any]
    seed: int
    seeded: bool
    seats: list[str]
    require_club_pass: bool
    created_at: float
    status: str
    version: int
    result: dict[str, Any] | None


@dataclass(frozen=True)
class SeatClaim:
    """An agent seated at a table (the token itself is never stored, only its hash)."""

    table_id: str
    seat: int
    agent: str
    token_hash: str
    joined_at: float
    seen_events: int


@dataclass(frozen=True)
class MoveRow:
    """One accepted move."""

    version: int
    seat: int
    move: dict[str, Any]
    actor: str
    at: float


def default_db_path() -> Path:
    """Return the database path: ``$CLUB_AGENTES_DB`` or ``~/.local/share/club-agentes/club.sqlite3``."""
    env = os.environ.get(DB_ENV)
    if env:
        return Path(env)
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "club-agentes" / "club.sqlite3"


class Store:
    """SQLite store of tables, moves, quiz attempts, passes and the pass-signing key.

    Implements :class:`quizzes.store.QuizStore`.
    """

    def __init__(self, path: str | Path) -> None:
        """Open (creating if needed) the database at ``path`` (``":memory:"`` for a throwaway one).

        Raises:
            sqlite3.Error: the file cannot be opened or created.
        """
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=30)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        """Close the connection."""
        with self._lock:
            self._db.close()

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def _one(self, sql: str, args: tuple[Any, ...] = ()) -> Any:
        with self._lock:
            return self._db.execute(sql, args).fetchone()

    def _all(self, sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
        with self._lock:
            return self._db.execute(sql, args).fetchall()

    # ----- tables -----

    def create_table(self, row: TableRow) -> None:
        """Store a new table."""
        with self._tx() as db:
            db.execute(
                "INSERT INTO game_tables (id, game, config, seed, seeded, seats, require_club_pass, created_at,"
                " status, version, result) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, NULL)",
                (
                    row.id,
                    row.game,
                    json.dumps(row.config),
                    row.seed,
                    int(row.seeded),
                    json.dumps(row.seats),
                    int(row.require_club_pass),
                    row.created_at,
                    row.status,
                ),
            )

    @staticmethod
    def _table(r: Any) -> TableRow:
        return TableRow(
            id=r[0],
            game=r[1],
            config=json.loads(r[2]),
            seed=r[3],
            seeded=bool(r[4]),
            seats=json.loads(r[5]),
            require_club_pass=bool(r[6]),
            created_at=r[7],
            status=r[8],
            version=r[9],
            result=json.loads(r[10]) if r[10] else None,
        )

    _TABLE_COLS = "id, game, config, seed, seeded, seats, require_club_pass, created_at, status, version, result"

    def load_table(self, table_id: str) -> TableRow | None:
        """Return a table's row, or ``None``."""
        r = self._one(f"SELECT {self._TABLE_COLS} FROM game_tables WHERE id = ?", (table_id,))
        return self._table(r) if r else None

    def list_tables(self, game: str | None = None, status: str | None = None, limit: int = 200) -> list[TableRow]:
        """Return tables, newest first, optionally filtered by game and status."""
        sql = f"SELECT {self._TABLE_COLS} FROM game_tables WHERE 1=1"
        args: list[Any] = []
        if game:
            sql += " AND game = ?"
            args.append(game)
        if status:
            sql += " AND status = ?"
            args.append(status)
        sql += " ORDER BY created_at DESC, id LIMIT ?"
        args.append(limit)
        return [self._table(r) for r in self._all(sql, tuple(args))]

    def set_status(self, table_id: str, status: str, result: dict[str, Any] | None = None) -> None:
        """Update a table's status (and result once finished)."""
        with self._tx() as db:
            db.execute(
                "UPDATE game_tables SET status = ?, result = ? WHERE id = ?",
                (status, json.dumps(result) if result is not None else None, table_id),
            )

    def claim_seat(self, claim: SeatClaim) -> bool:
        """Seat an agent; ``False`` if the seat was taken meanwhile."""
        try:
            with self._tx() as db:
                db.execute(
                    "INSERT INTO seat_claims (table_id, seat, agent, token_hash, joined_at, seen_events)"
                    " VALUES (?, ?, ?, ?, ?, 0)",
                    (claim.table_id, claim.seat, claim.agent, claim.token_hash, claim.joined_at),
                )
        except sqlite3.IntegrityError:
            return False
        return True

    def seat_claims(self, table_id: str) -> list[SeatClaim]:
        """Return the agents seated at a table, by seat."""
        rows = self._all(
            "SELECT table_id, seat, agent, token_hash, joined_at, seen_events FROM seat_claims"
            " WHERE table_id = ? ORDER BY seat",
            (table_id,),
        )
        return [SeatClaim(*r) for r in rows]

    def set_seen(self, table_id: str, seat: int, seen_events: int) -> None:
        """Record how many events a seat has been shown."""
        with self._tx() as db:
            db.execute(
                "UPDATE seat_claims SET seen_events = ? WHERE table_id = ? AND seat = ?",
                (seen_events, table_id, seat),
            )

    def append_moves(
        self, table_id: str, base_version: int, moves: list[tuple[int, dict[str, Any], str, float]]
    ) -> int:
        """Append moves ``(seat, move_json, actor, at)`` after ``base_version`` in one transaction.

        Returns the new version.

        Raises:
            StaleVersion: the table's stored version is not ``base_version`` (another move won).
        """
        with self._tx() as db:
            current = db.execute("SELECT version FROM game_tables WHERE id = ?", (table_id,)).fetchone()[0]
            if current != base_version:
                raise StaleVersion(current)
            v = base_version
            for seat, move, actor, at in moves:
                v += 1
                db.execute(
                    "INSERT INTO moves (table_id, version, seat, move, actor, at) VALUES (?, ?, ?, ?, ?, ?)",
                    (table_id, v, seat, json.dumps(move), actor, at),
                )
            db.execute("UPDATE game_tables SET version = ? WHERE id = ?", (v, table_id))
        return v

    def load_moves(self, table_id: str, after: int = 0) -> list[MoveRow]:
        """Return a table's moves with version greater than ``after``, in order."""
        rows = self._all(
            "SELECT version, seat, move, actor, at FROM moves WHERE table_id = ? AND version > ? ORDER BY version",
            (table_id, after),
        )
        return [MoveRow(r[0], r[1], json.loads(r[2]), r[3], r[4]) for r in rows]

    def table_version(self, table_id: str) -> int:
        """Return the stored version of a table (0 if unknown)."""
        r = self._one("SELECT version FROM game_tables WHERE id = ?", (table_id,))
        return r[0] if r else 0

    # ----- QuizStore -----

    def save_attempt(self, attempt: Attempt) -> None:
        with self._tx() as db:
            db.execute(
                "INSERT INTO quiz_attempts (quiz_id, agent, game, practice, item_ids, created_at, expires_at,"
                " graded_at, result) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    attempt.quiz_id,
                    attempt.agent,
                    attempt.game,
                    int(attempt.practice),
                    json.dumps(list(attempt.item_ids)),
                    attempt.created_at,
                    attempt.expires_at,
                    attempt.graded_at,
                    json.dumps(attempt.result) if attempt.result is not None else None,
                ),
            )

    @staticmethod
    def _attempt(r: Any) -> Attempt:
        return Attempt(
            quiz_id=r[0],
            agent=r[1],
            game=r[2],
            practice=bool(r[3]),
            item_ids=tuple(json.loads(r[4])),
            created_at=r[5],
            expires_at=r[6],
            graded_at=r[7],
            result=json.loads(r[8]) if r[8] else None,
        )

    _ATTEMPT_COLS = "quiz_id, agent, game, practice, item_ids, created_at, expires_at, graded_at, result"

    def load_attempt(self, quiz_id: str) -> Attempt | None:
        r = self._one(f"SELECT {self._ATTEMPT_COLS} FROM quiz_attempts WHERE quiz_id = ?", (quiz_id,))
        return self._attempt(r) if r else None

    def finish_attempt(self, quiz_id: str, graded_at: float, result: dict[str, Any]) -> bool:
        with self._tx() as db:
            cur = db.execute(
                "UPDATE quiz_attempts SET graded_at = ?, result = ? WHERE quiz_id = ? AND graded_at IS NULL",
                (graded_at, json.dumps(result), quiz_id),
            )
            return cur.rowcount == 1

    def attempt_times(self, agent: str, since: float, *, practice: bool = False) -> list[float]:
        rows = self._all(
            "SELECT created_at FROM quiz_attempts WHERE agent = ? AND practice = ? AND created_at >= ?"
            " ORDER BY created_at",
            (agent, int(practice), since),
        )
        return [r[0] for r in rows]

    def graded_attempts(self, game: str | None = None) -> list[Attempt]:
        sql = f"SELECT {self._ATTEMPT_COLS} FROM quiz_attempts WHERE graded_at IS NOT NULL"
        args: tuple[Any, ...] = ()
        if game:
            sql += " AND game = ?"
            args = (game,)
        return [self._attempt(r) for r in self._all(sql + " ORDER BY created_at", args)]

    def save_pass(self, record: PassRecord) -> None:
        with self._tx() as db:
            db.execute(
                "INSERT INTO club_passes (jti, agent, games, issued_at, expires_at, revoked) VALUES (?, ?, ?, ?, ?, ?)",
                (
                    record.jti,
                    record.agent,
                    json.dumps(list(record.games)),
                    record.issued_at,
                    record.expires_at,
                    int(record.revoked),
                ),
            )

    def load_pass(self, jti: str) -> PassRecord | None:
        r = self._one("SELECT jti, agent, games, issued_at, expires_at, revoked FROM club_passes WHERE jti = ?", (jti,))
        if not r:
            return None
        return PassRecord(r[0], r[1], tuple(json.loads(r[2])), r[3], r[4], bool(r[5]))

    def revoke_pass(self, jti: str) -> bool:
        with self._tx() as db:
            return db.execute("UPDATE club_passes SET revoked = 1 WHERE jti = ?", (jti,)).rowcount == 1

    def passes_for(self, agent: str) -> list[PassRecord]:
        rows = self._all(
            "SELECT jti, agent, games, issued_at, expires_at, revoked FROM club_passes WHERE agent = ?"
            " ORDER BY issued_at",
            (agent,),
        )
        return [PassRecord(r[0], r[1], tuple(json.loads(r[2])), r[3], r[4], bool(r[5])) for r in rows]

    def secret(self, candidate: bytes) -> bytes:
        with self._tx() as db:
            db.execute("INSERT OR IGNORE INTO meta (key, value) VALUES ('club_pass_key', ?)", (candidate,))
            return bytes(db.execute("SELECT value FROM meta WHERE key = 'club_pass_key'").fetchone()[0])

"""The tables part of the store: table definitions, seat claims and the append-only move log.

Tables are event-sourced: a table row holds (game, config, seed, seats) and the ``moves`` rows
hold every accepted move in order; a restart rebuilds any table by replay. A move is appended
with the version it creates as part of the primary key, so two racing submissions (even from two
processes or machines sharing the database) can never both apply: the second insert fails and
the caller reports a stale version.

Durability: SQLite in WAL mode with ``synchronous=NORMAL`` commits each transaction to the
write-ahead log before the call returns, so a killed process loses no acknowledged move;
PostgreSQL commits durably.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from club_agentes.mcp_server.store.db import Database, IntegrityError, Migration

MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        "tables",
        1,
        (
            """CREATE TABLE IF NOT EXISTS game_tables (
                id TEXT PRIMARY KEY,
                game TEXT NOT NULL,
                config TEXT NOT NULL,
                seed BIGINT NOT NULL,
                seeded INTEGER NOT NULL,
                seats TEXT NOT NULL,
                require_club_pass INTEGER NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                status TEXT NOT NULL,
                version BIGINT NOT NULL DEFAULT 0,
                result TEXT
            )""",
            """CREATE TABLE IF NOT EXISTS seat_claims (
                table_id TEXT NOT NULL REFERENCES game_tables(id),
                seat INTEGER NOT NULL,
                agent TEXT NOT NULL,
                token_hash TEXT NOT NULL,
                joined_at DOUBLE PRECISION NOT NULL,
                seen_events BIGINT NOT NULL DEFAULT 0,
                PRIMARY KEY (table_id, seat)
            )""",
            """CREATE TABLE IF NOT EXISTS moves (
                table_id TEXT NOT NULL REFERENCES game_tables(id),
                version BIGINT NOT NULL,
                seat INTEGER NOT NULL,
                move TEXT NOT NULL,
                actor TEXT NOT NULL,
                at DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (table_id, version)
            )""",
        ),
    ),
)


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


_TABLE_COLS = "id, game, config, seed, seeded, seats, require_club_pass, created_at, status, version, result"


def _table(r: Any) -> TableRow:
    return TableRow(
        id=r[0],
        game=r[1],
        config=json.loads(r[2]),
        seed=int(r[3]),
        seeded=bool(r[4]),
        seats=json.loads(r[5]),
        require_club_pass=bool(r[6]),
        created_at=float(r[7]),
        status=r[8],
        version=int(r[9]),
        result=json.loads(r[10]) if r[10] else None,
    )


class TableStore:
    """Tables, seat claims and moves, over :attr:`db`."""

    db: Database

    def create_table(self, row: TableRow) -> None:
        """Store a new table."""
        with self.db.tx() as tx:
            tx.execute(
                f"INSERT INTO game_tables ({_TABLE_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, NULL)",
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

    def load_table(self, table_id: str) -> TableRow | None:
        """Return a table's row, or ``None``."""
        r = self.db.one(f"SELECT {_TABLE_COLS} FROM game_tables WHERE id = ?", (table_id,))
        return _table(r) if r else None

    def list_tables(self, game: str | None = None, status: str | None = None, limit: int = 200) -> list[TableRow]:
        """Return tables, newest first, optionally filtered by game and status."""
        sql = f"SELECT {_TABLE_COLS} FROM game_tables WHERE 1=1"
        args: list[Any] = []
        if game:
            sql += " AND game = ?"
            args.append(game)
        if status:
            sql += " AND status = ?"
            args.append(status)
        sql += " ORDER BY created_at DESC, id LIMIT ?"
        args.append(limit)
        return [_table(r) for r in self.db.all(sql, args)]

    def set_status(self, table_id: str, status: str, result: dict[str, Any] | None = None) -> None:
        """Update a table's status (and result once finished)."""
        with self.db.tx() as tx:
            tx.execute(
                "UPDATE game_tables SET status = ?, result = ? WHERE id = ?",
                (status, json.dumps(result) if result is not None else None, table_id),
            )

    def claim_seat(self, claim: SeatClaim) -> bool:
        """Seat an agent; ``False`` if the seat was taken meanwhile."""
        try:
            with self.db.tx() as tx:
                tx.execute(
                    "INSERT INTO seat_claims (table_id, seat, agent, token_hash, joined_at, seen_events)"
                    " VALUES (?, ?, ?, ?, ?, 0)",
                    (claim.table_id, claim.seat, claim.agent, claim.token_hash, claim.joined_at),
                )
        except IntegrityError:
            return False
        return True

    def seat_claims(self, table_id: str) -> list[SeatClaim]:
        """Return the agents seated at a table, by seat."""
        rows = self.db.all(
            "SELECT table_id, seat, agent, token_hash, joined_at, seen_events FROM seat_claims"
            " WHERE table_id = ? ORDER BY seat",
            (table_id,),
        )
        return [SeatClaim(r[0], int(r[1]), r[2], r[3], float(r[4]), int(r[5])) for r in rows]

    def set_seen(self, table_id: str, seat: int, seen_events: int) -> None:
        """Record how many events a seat has been shown."""
        with self.db.tx() as tx:
            tx.execute(
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
        try:
            with self.db.tx() as tx:
                row = tx.one("SELECT version FROM game_tables WHERE id = ?", (table_id,))
                current = int(row[0]) if row else 0
                if current != base_version:
                    raise StaleVersion(current)
                v = base_version
                rows = []
                for seat, move, actor, at in moves:
                    v += 1
                    rows.append((table_id, v, seat, json.dumps(move), actor, at))
                tx.many("INSERT INTO moves (table_id, version, seat, move, actor, at) VALUES (?, ?, ?, ?, ?, ?)", rows)
                tx.execute("UPDATE game_tables SET version = ? WHERE id = ?", (v, table_id))
        except IntegrityError:
            raise StaleVersion(self.table_version(table_id)) from None
        return v

    def load_moves(self, table_id: str, after: int = 0) -> list[MoveRow]:
        """Return a table's moves with version greater than ``after``, in order."""
        rows = self.db.all(
            "SELECT version, seat, move, actor, at FROM moves WHERE table_id = ? AND version > ? ORDER BY version",
            (table_id, after),
        )
        return [MoveRow(int(r[0]), int(r[1]), json.loads(r[2]), r[3], float(r[4])) for r in rows]

    def table_version(self, table_id: str) -> int:
        """Return the stored version of a table (0 if unknown)."""
        r = self.db.one("SELECT version FROM game_tables WHERE id = ?", (table_id,))
        return int(r[0]) if r else 0

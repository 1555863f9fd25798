"""The agents part of the store: every agent's normalised name and the hash of its secret key.

A key is never stored: only its public id (to find the row) and the SHA-256 of its secret part
(compared in constant time by :mod:`club_agentes.mcp_server.auth`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from club_agentes.mcp_server.store.db import IntegrityError, Migration, StorePart

MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        "agents",
        1,
        (
            """CREATE TABLE IF NOT EXISTS agents (
                name TEXT PRIMARY KEY,
                display TEXT NOT NULL,
                key_id TEXT NOT NULL UNIQUE,
                key_hash TEXT NOT NULL,
                origin TEXT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                revoked_at DOUBLE PRECISION
            )""",
        ),
    ),
)


@dataclass(frozen=True)
class AgentRecord:
    """One agent.

    Attributes:
        name: the normalised name (the identity every record of the club uses).
        display: the name as it was first given.
        key_id: the public part of its current key.
        key_hash: SHA-256 (hex) of the secret part of its current key.
        origin: how it was made: ``"cli"`` (an operator) or ``"register"`` (open registration).
        created_at: UNIX time.
        revoked_at: UNIX time of revocation, or ``None`` while the agent may connect.
    """

    name: str
    display: str
    key_id: str
    key_hash: str
    origin: str
    created_at: float
    revoked_at: float | None = None


_COLS = "name, display, key_id, key_hash, origin, created_at, revoked_at"


def _record(r: Any) -> AgentRecord:
    return AgentRecord(r[0], r[1], r[2], r[3], r[4], float(r[5]), float(r[6]) if r[6] is not None else None)


class AgentStoreSQL(StorePart):
    """Agents and their key hashes, over :attr:`db`."""

    def add_agent(self, record: AgentRecord) -> bool:
        """Store a new agent; ``False`` if the name (or key id) is taken."""
        try:
            with self.db.tx() as tx:
                tx.execute(
                    f"INSERT INTO agents ({_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (
                        record.name,
                        record.display,
                        record.key_id,
                        record.key_hash,
                        record.origin,
                        record.created_at,
                        record.revoked_at,
                    ),
                )
        except IntegrityError:
            return False
        return True

    def load_agent(self, name: str) -> AgentRecord | None:
        """Return the agent with this normalised name, or ``None``."""
        r = self.db.one(f"SELECT {_COLS} FROM agents WHERE name = ?", (name,))
        return _record(r) if r else None

    def agent_by_key_id(self, key_id: str) -> AgentRecord | None:
        """Return the agent whose current key has this public id, or ``None``."""
        r = self.db.one(f"SELECT {_COLS} FROM agents WHERE key_id = ?", (key_id,))
        return _record(r) if r else None

    def list_agents(self) -> list[AgentRecord]:
        """Return every agent, oldest first."""
        return [_record(r) for r in self.db.all(f"SELECT {_COLS} FROM agents ORDER BY created_at, name")]

    def revoke_agent(self, name: str, at: float) -> bool:
        """Revoke an agent (its key stops working); ``False`` if there is no such agent or it was revoked."""
        with self.db.tx() as tx:
            return tx.execute("UPDATE agents SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL", (at, name)) == 1

    def replace_agent_key(self, name: str, key_id: str, key_hash: str) -> bool:
        """Give an agent a new key (the old one stops working) and lift any revocation; ``False`` if unknown."""
        with self.db.tx() as tx:
            return (
                tx.execute(
                    "UPDATE agents SET key_id = ?, key_hash = ?, revoked_at = NULL WHERE name = ?",
                    (key_id, key_hash, name),
                )
                == 1
            )

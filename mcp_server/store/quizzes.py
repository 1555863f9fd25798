"""The club part of the store: quiz attempts and club passes.

Implements :class:`club_agentes.quizzes.store.QuizStore` over :attr:`db`, so that a restart
neither voids a pass nor reopens a used quiz. The pass-signing key is not kept in the database:
migration 2 leaves the ``meta`` row older versions wrote, and :meth:`QuizStoreSQL.take_legacy_secret`
removes it once the server has moved it into the key file.
"""

from __future__ import annotations

import json
from typing import Any

from club_agentes.mcp_server.store.db import Migration, StorePart
from club_agentes.quizzes.store import Attempt, PassRecord

MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        "club",
        1,
        (
            "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
            """CREATE TABLE IF NOT EXISTS quiz_attempts (
                quiz_id TEXT PRIMARY KEY,
                agent TEXT NOT NULL,
                game TEXT NOT NULL,
                practice INTEGER NOT NULL,
                item_ids TEXT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                expires_at DOUBLE PRECISION NOT NULL,
                graded_at DOUBLE PRECISION,
                result TEXT
            )""",
            "CREATE INDEX IF NOT EXISTS quiz_attempts_agent ON quiz_attempts (agent, practice, created_at)",
            """CREATE TABLE IF NOT EXISTS club_passes (
                jti TEXT PRIMARY KEY,
                agent TEXT NOT NULL,
                games TEXT NOT NULL,
                issued_at DOUBLE PRECISION NOT NULL,
                expires_at DOUBLE PRECISION NOT NULL,
                revoked INTEGER NOT NULL DEFAULT 0
            )""",
            "CREATE INDEX IF NOT EXISTS club_passes_agent ON club_passes (agent, issued_at)",
        ),
    ),
    Migration(
        "club",
        2,
        (
            # Per attempt: the order choice options were shown in, and prompt fingerprints (JSON).
            "ALTER TABLE quiz_attempts ADD COLUMN layout TEXT",
            "CREATE INDEX IF NOT EXISTS quiz_attempts_recent ON quiz_attempts (agent, game, practice, created_at)",
        ),
    ),
)

_ATTEMPT_COLS = "quiz_id, agent, game, practice, item_ids, created_at, expires_at, graded_at, result, layout"
_PASS_COLS = "jti, agent, games, issued_at, expires_at, revoked"


def _attempt(r: Any) -> Attempt:
    layout = json.loads(r[9]) if r[9] else {}
    return Attempt(
        quiz_id=r[0],
        agent=r[1],
        game=r[2],
        practice=bool(r[3]),
        item_ids=tuple(json.loads(r[4])),
        created_at=float(r[5]),
        expires_at=float(r[6]),
        graded_at=float(r[7]) if r[7] is not None else None,
        result=json.loads(r[8]) if r[8] else None,
        orders=tuple(tuple(int(i) for i in o) for o in layout.get("orders", ())),
        prompt_keys=tuple(str(k) for k in layout.get("prompts", ())),
    )


def _pass(r: Any) -> PassRecord:
    return PassRecord(r[0], r[1], tuple(json.loads(r[2])), float(r[3]), float(r[4]), bool(r[5]))


class QuizStoreSQL(StorePart):
    """Quiz attempts and club passes, over :attr:`db`."""

    def save_attempt(self, attempt: Attempt) -> None:
        """Store a new, ungraded attempt."""
        with self.db.tx() as tx:
            tx.execute(
                f"INSERT INTO quiz_attempts ({_ATTEMPT_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
                    json.dumps({"orders": [list(o) for o in attempt.orders], "prompts": list(attempt.prompt_keys)}),
                ),
            )

    def load_attempt(self, quiz_id: str) -> Attempt | None:
        """Return the attempt with this id, or ``None``."""
        r = self.db.one(f"SELECT {_ATTEMPT_COLS} FROM quiz_attempts WHERE quiz_id = ?", (quiz_id,))
        return _attempt(r) if r else None

    def finish_attempt(self, quiz_id: str, graded_at: float, result: dict[str, Any]) -> bool:
        """Mark an open attempt graded, atomically; ``False`` if it was already graded."""
        with self.db.tx() as tx:
            n = tx.execute(
                "UPDATE quiz_attempts SET graded_at = ?, result = ? WHERE quiz_id = ? AND graded_at IS NULL",
                (graded_at, json.dumps(result), quiz_id),
            )
            return n == 1

    def attempt_times(self, agent: str, since: float, *, practice: bool = False) -> list[float]:
        """Return the creation times of the agent's attempts since ``since``, oldest first."""
        rows = self.db.all(
            "SELECT created_at FROM quiz_attempts WHERE agent = ? AND practice = ? AND created_at >= ?"
            " ORDER BY created_at",
            (agent, int(practice), since),
        )
        return [float(r[0]) for r in rows]

    def recent_prompt_keys(self, agent: str, game: str, limit: int) -> list[tuple[str, ...]]:
        """Return the prompt fingerprints of the agent's last ``limit`` entry papers of ``game``, newest first."""
        rows = self.db.all(
            "SELECT layout FROM quiz_attempts WHERE agent = ? AND game = ? AND practice = 0"
            " ORDER BY created_at DESC LIMIT ?",
            (agent, game, int(limit)),
        )
        return [tuple(str(k) for k in json.loads(r[0]).get("prompts", ())) if r[0] else () for r in rows]

    def graded_attempts(self, game: str | None = None) -> list[Attempt]:
        """Return graded attempts (all games, or one), oldest first, for statistics."""
        sql = f"SELECT {_ATTEMPT_COLS} FROM quiz_attempts WHERE graded_at IS NOT NULL"
        args: tuple[Any, ...] = ()
        if game:
            sql += " AND game = ?"
            args = (game,)
        return [_attempt(r) for r in self.db.all(sql + " ORDER BY created_at", args)]

    def save_pass(self, record: PassRecord) -> None:
        """Store an issued pass."""
        with self.db.tx() as tx:
            tx.execute(
                f"INSERT INTO club_passes ({_PASS_COLS}) VALUES (?, ?, ?, ?, ?, ?)",
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
        """Return the pass record with this id, or ``None``."""
        r = self.db.one(f"SELECT {_PASS_COLS} FROM club_passes WHERE jti = ?", (jti,))
        return _pass(r) if r else None

    def revoke_pass(self, jti: str) -> bool:
        """Revoke a pass; ``False`` if no such pass."""
        with self.db.tx() as tx:
            return tx.execute("UPDATE club_passes SET revoked = 1 WHERE jti = ?", (jti,)) == 1

    def passes_for(self, agent: str) -> list[PassRecord]:
        """Return the passes issued to an agent, oldest first."""
        return self.list_passes(agent)

    def list_passes(self, agent: str | None = None) -> list[PassRecord]:
        """Return every pass (of one agent, or all), oldest first."""
        if agent is None:
            rows = self.db.all(f"SELECT {_PASS_COLS} FROM club_passes ORDER BY issued_at, jti")
        else:
            rows = self.db.all(
                f"SELECT {_PASS_COLS} FROM club_passes WHERE agent = ? ORDER BY issued_at, jti", (agent,)
            )
        return [_pass(r) for r in rows]

    def take_legacy_secret(self) -> bytes | None:
        """Remove and return the signing key an older version kept in the ``meta`` table, or ``None``."""
        with self.db.tx() as tx:
            row = tx.one("SELECT value FROM meta WHERE key = 'club_pass_key'")
            if row is None:
                return None
            tx.execute("DELETE FROM meta WHERE key = 'club_pass_key'")
        value = row[0]
        return bytes(value) if isinstance(value, bytes | memoryview) else bytes.fromhex(value)

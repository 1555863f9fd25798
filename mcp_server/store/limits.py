"""The limits part of the store: counters that every worker sharing the database sees.

Two tables:

* ``limit_events``: one row per counted request (kind, subject, time); a rate limit counts the
  rows of the last window. ``subject`` ``"*"`` rows are never written: the global ceiling counts
  all subjects' rows of the kind. Rows older than the window are pruned as counting goes.
* ``limit_holds``: one row per held lease (a concurrent long-poll), with an expiry, so a lease a
  crashed worker never released stops counting when it expires.

Counting and inserting happen in one transaction; on PostgreSQL an advisory lock per kind
serialises the writers, so two workers cannot both take the last unit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from club_agentes.mcp_server.store.db import Migration, StorePart, Tx

MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        "limits",
        1,
        (
            """CREATE TABLE IF NOT EXISTS limit_events (
                kind TEXT NOT NULL,
                subject TEXT NOT NULL,
                at DOUBLE PRECISION NOT NULL
            )""",
            "CREATE INDEX IF NOT EXISTS limit_events_subject ON limit_events (kind, subject, at)",
            "CREATE INDEX IF NOT EXISTS limit_events_kind ON limit_events (kind, at)",
            """CREATE TABLE IF NOT EXISTS limit_holds (
                id TEXT PRIMARY KEY,
                kind TEXT NOT NULL,
                subject TEXT NOT NULL,
                expires_at DOUBLE PRECISION NOT NULL
            )""",
            "CREATE INDEX IF NOT EXISTS limit_holds_kind ON limit_holds (kind, subject, expires_at)",
        ),
    ),
    Migration(
        "limits",
        2,
        # A counted event's receipt, so that a request that failed after it was counted (a refused
        # registration) can be taken back.
        (
            "ALTER TABLE limit_events ADD COLUMN id TEXT",
            "CREATE INDEX IF NOT EXISTS limit_events_id ON limit_events (id)",
        ),
    ),
)


@dataclass(frozen=True)
class Blocked:
    """Why a take was refused.

    Attributes:
        scope: ``"agent"`` (the subject's own limit), ``"share"`` (the subject's fair share of the global
            ceiling) or ``"global"`` (the ceiling of all subjects).
        limit: the limit that was reached.
        count: how many units are in use (in the window, or held).
        retry_after: seconds until a unit frees up (an estimate for holds).
    """

    scope: str
    limit: int
    count: int
    retry_after: float


def _lock(tx: Tx, kind: str) -> None:
    if tx.dialect == "postgresql":
        tx.execute("SELECT pg_advisory_xact_lock(hashtext(?))", (f"limits:{kind}",))


def _group(subject: str, group: str | None) -> tuple[str, tuple[Any, ...]]:
    """The condition (and its arguments) selecting the events of a share group."""
    if group is None:
        return "subject = ?", (subject,)
    prefix = group + "\x1f"
    return "(subject = ? OR substr(subject, 1, ?) = ?)", (group, len(prefix), prefix)


class LimitStoreSQL(StorePart):
    """Rate counters and leases over :attr:`db`."""

    def rate_take(
        self,
        kind: str,
        subject: str,
        *,
        now: float,
        window: float,
        limit: int | None,
        global_limit: int | None,
        share_limit: int | None = None,
        share_group: str | None = None,
        event: str | None = None,
    ) -> Blocked | None:
        """Count one ``kind`` event for ``subject`` at ``now`` unless a limit over the last ``window`` is reached
        (an event counts for ``window`` seconds: until exactly ``window`` after it).

        ``share_limit`` caps the events of ``share_group`` (default ``subject``; a group also counts the
        subjects ``group + "\x1f" + ...``, e.g. one agent's entry quizzes of every game): its fair share of
        the global ceiling. ``event`` is a receipt stored with the event, for :meth:`rate_give_back`.

        Returns ``None`` when counted, else what blocked it (nothing is counted then).
        """
        since = now - window
        with self.db.tx() as tx:
            _lock(tx, kind)
            tx.execute("DELETE FROM limit_events WHERE kind = ? AND at <= ?", (kind, since))
            for scope, cap, where, args in (
                ("agent", limit, "subject = ?", (subject,)),
                ("share", share_limit, *_group(subject, share_group)),
            ):
                if cap is None:
                    continue
                row = tx.one(
                    f"SELECT COUNT(*) FROM limit_events WHERE kind = ? AND {where} AND at > ?", (kind, *args, since)
                )
                count = int(row[0]) if row else 0
                if count >= cap:
                    oldest = tx.one(
                        f"SELECT at FROM limit_events WHERE kind = ? AND {where} AND at > ? ORDER BY at"
                        " LIMIT 1 OFFSET ?",
                        (kind, *args, since, count - cap),
                    )
                    at = float(oldest[0]) if oldest else now
                    return Blocked(scope, cap, count, at + window - now)
            if global_limit is not None:
                row = tx.one("SELECT COUNT(*) FROM limit_events WHERE kind = ? AND at > ?", (kind, since))
                count = int(row[0]) if row else 0
                if count >= global_limit:
                    oldest = tx.one(
                        "SELECT at FROM limit_events WHERE kind = ? AND at > ? ORDER BY at LIMIT 1 OFFSET ?",
                        (kind, since, count - global_limit),
                    )
                    at = float(oldest[0]) if oldest else now
                    return Blocked("global", global_limit, count, at + window - now)
            tx.execute(
                "INSERT INTO limit_events (kind, subject, at, id) VALUES (?, ?, ?, ?)", (kind, subject, now, event)
            )
        return None

    def rate_give_back(self, event: str) -> None:
        """Uncount the event stored with receipt ``event`` (no-op if it is gone)."""
        with self.db.tx() as tx:
            tx.execute("DELETE FROM limit_events WHERE id = ?", (event,))

    def rate_count(self, kind: str, subject: str | None, *, since: float) -> int:
        """Return how many ``kind`` events ``subject`` (``None``: everyone) has had after ``since``."""
        if subject is None:
            row = self.db.one("SELECT COUNT(*) FROM limit_events WHERE kind = ? AND at > ?", (kind, since))
        else:
            row = self.db.one(
                "SELECT COUNT(*) FROM limit_events WHERE kind = ? AND subject = ? AND at > ?", (kind, subject, since)
            )
        return int(row[0]) if row else 0

    def hold_take(
        self,
        lease: str,
        kind: str,
        subject: str,
        *,
        now: float,
        expires_at: float,
        limit: int | None,
        global_limit: int | None,
        share_limit: int | None = None,
    ) -> Blocked | None:
        """Hold lease ``lease`` of ``kind`` for ``subject`` until ``expires_at`` unless too many are held
        (``share_limit``: the subject's fair share of the global ceiling).

        Returns ``None`` when held, else what blocked it (the retry estimate is the soonest expiry).
        """
        with self.db.tx() as tx:
            _lock(tx, kind)
            tx.execute("DELETE FROM limit_holds WHERE kind = ? AND expires_at <= ?", (kind, now))
            for scope, cap in (("agent", limit), ("share", share_limit)):
                if cap is None:
                    continue
                row = tx.one(
                    "SELECT COUNT(*), MIN(expires_at) FROM limit_holds WHERE kind = ? AND subject = ?",
                    (kind, subject),
                )
                count = int(row[0]) if row else 0
                if count >= cap:
                    soonest = float(row[1]) if row and row[1] is not None else now
                    return Blocked(scope, cap, count, soonest - now)
            if global_limit is not None:
                row = tx.one("SELECT COUNT(*), MIN(expires_at) FROM limit_holds WHERE kind = ?", (kind,))
                count = int(row[0]) if row else 0
                if count >= global_limit:
                    soonest = float(row[1]) if row and row[1] is not None else now
                    return Blocked("global", global_limit, count, soonest - now)
            tx.execute(
                "INSERT INTO limit_holds (id, kind, subject, expires_at) VALUES (?, ?, ?, ?)",
                (lease, kind, subject, expires_at),
            )
        return None

    def hold_release(self, lease: str) -> None:
        """Release a held lease (no-op if it expired or was never held)."""
        with self.db.tx() as tx:
            tx.execute("DELETE FROM limit_holds WHERE id = ?", (lease,))

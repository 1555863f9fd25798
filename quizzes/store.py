"""What the quiz harness needs from persistent storage.

The harness (``quizzes.harness``) works against the :class:`QuizStore` protocol.
The server's SQLite store (``mcp_server.storage``) implements it in the same file
as the tables, so that a restart neither voids a pass nor reopens a used quiz;
:class:`MemoryQuizStore` implements it in memory for tests and one-off tools.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field, replace
from typing import Any, Protocol


@dataclass(frozen=True)
class Attempt:
    """One quiz attempt (an entry quiz or a practice question).

    Attributes:
        quiz_id: unguessable id from ``secrets`` (the only handle an agent gets).
        agent: the agent's name as it gave it to ``start_quiz``.
        game: the game id.
        practice: ``True`` for a practice question (never yields a pass).
        item_ids: the items asked, in order; parametric ids encode generator and
            seed, so the item (and its answer) is rebuilt from the id alone.
        created_at: UNIX time, seconds.
        expires_at: UNIX time after which the attempt can no longer be graded.
        graded_at: UNIX time of grading, or ``None`` while open.
        result: the grading result as JSON (per-item correctness, pass or fail).
    """

    quiz_id: str
    agent: str
    game: str
    practice: bool
    item_ids: tuple[str, ...]
    created_at: float
    expires_at: float
    graded_at: float | None = None
    result: dict[str, Any] | None = None


@dataclass(frozen=True)
class PassRecord:
    """An issued club pass (the JWT itself is not stored, only its claims)."""

    jti: str
    agent: str
    games: tuple[str, ...]
    issued_at: float
    expires_at: float
    revoked: bool = False


class QuizStore(Protocol):
    """Persistent storage of attempts, passes and the signing key."""

    def save_attempt(self, attempt: Attempt) -> None:
        """Store a new, ungraded attempt."""
        ...

    def load_attempt(self, quiz_id: str) -> Attempt | None:
        """Return the attempt with this id, or ``None``."""
        ...

    def finish_attempt(self, quiz_id: str, graded_at: float, result: dict[str, Any]) -> bool:
        """Mark an open attempt graded, atomically; ``False`` if it was already graded."""
        ...

    def attempt_times(self, agent: str, since: float, *, practice: bool = False) -> list[float]:
        """Return the creation times of the agent's attempts since ``since``, oldest first."""
        ...

    def graded_attempts(self, game: str | None = None) -> list[Attempt]:
        """Return graded attempts (all games, or one), oldest first, for statistics."""
        ...

    def save_pass(self, record: PassRecord) -> None:
        """Store an issued pass."""
        ...

    def load_pass(self, jti: str) -> PassRecord | None:
        """Return a pass by its unique id, or ``None``."""
        ...

    def revoke_pass(self, jti: str) -> bool:
        """Revoke a pass; ``False`` if no such pass exists."""
        ...

    def passes_for(self, agent: str) -> list[PassRecord]:
        """Return every pass issued to ``agent``, oldest first."""
        ...

    def secret(self, candidate: bytes) -> bytes:
        """Return the stored signing key, storing ``candidate`` first if none exists (atomically)."""
        ...


@dataclass
class MemoryQuizStore:
    """An in-memory :class:`QuizStore` (thread-safe); loses everything on exit."""

    attempts: dict[str, Attempt] = field(default_factory=dict)
    passes: dict[str, PassRecord] = field(default_factory=dict)
    key: bytes | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def save_attempt(self, attempt: Attempt) -> None:
        with self._lock:
            self.attempts[attempt.quiz_id] = attempt

    def load_attempt(self, quiz_id: str) -> Attempt | None:
        with self._lock:
            return self.attempts.get(quiz_id)

    def finish_attempt(self, quiz_id: str, graded_at: float, result: dict[str, Any]) -> bool:
        with self._lock:
            a = self.attempts.get(quiz_id)
            if a is None or a.graded_at is not None:
                return False
            self.attempts[quiz_id] = replace(a, graded_at=graded_at, result=result)
            return True

    def attempt_times(self, agent: str, since: float, *, practice: bool = False) -> list[float]:
        with self._lock:
            return sorted(
                a.created_at
                for a in self.attempts.values()
                if a.agent == agent and a.practice == practice and a.created_at >= since
            )

    def graded_attempts(self, game: str | None = None) -> list[Attempt]:
        with self._lock:
            done = [a for a in self.attempts.values() if a.graded_at is not None and game in (None, a.game)]
        return sorted(done, key=lambda a: a.created_at)

    def save_pass(self, record: PassRecord) -> None:
        with self._lock:
            self.passes[record.jti] = record

    def load_pass(self, jti: str) -> PassRecord | None:
        with self._lock:
            return self.passes.get(jti)

    def revoke_pass(self, jti: str) -> bool:
        with self._lock:
            p = self.passes.get(jti)
            if p is None:
                return False
            self.passes[jti] = replace(p, revoked=True)
            return True

    def passes_for(self, agent: str) -> list[PassRecord]:
        with self._lock:
            return sorted((p for p in self.passes.values() if p.agent == agent), key=lambda p: p.issued_at)

    def secret(self, candidate: bytes) -> bytes:
        with self._lock:
            if self.key is None:
                self.key = candidate
            return self.key

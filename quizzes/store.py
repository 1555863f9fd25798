"""What the quiz harness needs from persistent storage.

The harness (``quizzes.harness``) works against the :class:`QuizStore` protocol. The server's
store (``mcp_server.store``, SQLite or PostgreSQL) implements it beside the tables, so that a
restart neither voids a pass nor reopens a used quiz; :class:`MemoryQuizStore` implements it in
memory for tests and one-off tools.

The pass-signing key is not kept here: it lives in its own file or in the environment
(:mod:`club_agentes.quizzes.clubpass`). Databases made by older versions kept it in a ``meta``
table; :meth:`QuizStore.take_legacy_secret` hands it over once so it can move to the key file.
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
        agent: the agent's normalised name (the identity of the connection that started it).
        game: the game id.
        practice: ``True`` for a practice question (never yields a pass).
        item_ids: the items asked, in order; parametric ids encode generator and
            seed, so the item (and its answer) is rebuilt from the id alone.
        created_at: UNIX time, seconds.
        expires_at: UNIX time after which the attempt can no longer be graded.
        graded_at: UNIX time of grading, or ``None`` while open.
        result: the grading result as JSON (per-item correctness, pass or fail).
        orders: per item, the order its choice options were shown in (indices into the item's
            own options; empty for items without options), so grading reads letters as shown.
        prompt_keys: per item, a short fingerprint of its prompt (for "no prompt repeats within
            an agent's last papers").
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
    orders: tuple[tuple[int, ...], ...] = ()
    prompt_keys: tuple[str, ...] = ()


@dataclass(frozen=True)
class PassRecord:
    """An issued club pass (the JWT itself is not stored, only its claims).

    Attributes:
        jti: the pass's unique id.
        agent: the agent it names (normalised).
        games: the games it covers, sorted.
        issued_at: UNIX time of issue (the token's ``iat`` is its whole seconds).
        expires_at: UNIX time of expiry (the token's ``exp`` is its whole seconds).
        revoked: whether an operator revoked it.
    """

    jti: str
    agent: str
    games: tuple[str, ...]
    issued_at: float
    expires_at: float
    revoked: bool = False


class QuizStore(Protocol):
    """Persistent storage of attempts and passes."""

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

    def recent_prompt_keys(self, agent: str, game: str, limit: int) -> list[tuple[str, ...]]:
        """Return the prompt fingerprints of the agent's last ``limit`` entry papers of ``game``, newest first."""
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

    def list_passes(self, agent: str | None = None) -> list[PassRecord]:
        """Return every pass (of one agent, or all), oldest first."""
        ...

    def take_legacy_secret(self) -> bytes | None:
        """Remove and return the signing key an older version kept in the database (``None`` if none)."""
        ...


@dataclass
class MemoryQuizStore:
    """An in-memory :class:`QuizStore` (thread-safe); loses everything on exit."""

    attempts: dict[str, Attempt] = field(default_factory=dict)
    passes: dict[str, PassRecord] = field(default_factory=dict)
    legacy_key: bytes | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def save_attempt(self, attempt: Attempt) -> None:
        """Store a new, ungraded attempt."""
        with self._lock:
            self.attempts[attempt.quiz_id] = attempt

    def load_attempt(self, quiz_id: str) -> Attempt | None:
        """Return the attempt with this id, or ``None``."""
        with self._lock:
            return self.attempts.get(quiz_id)

    def finish_attempt(self, quiz_id: str, graded_at: float, result: dict[str, Any]) -> bool:
        """Mark an open attempt graded, atomically; ``False`` if it was already graded."""
        with self._lock:
            a = self.attempts.get(quiz_id)
            if a is None or a.graded_at is not None:
                return False
            self.attempts[quiz_id] = replace(a, graded_at=graded_at, result=result)
            return True

    def attempt_times(self, agent: str, since: float, *, practice: bool = False) -> list[float]:
        """Return the creation times of the agent's attempts since ``since``, oldest first."""
        with self._lock:
            return sorted(
                a.created_at
                for a in self.attempts.values()
                if a.agent == agent and a.practice == practice and a.created_at >= since
            )

    def recent_prompt_keys(self, agent: str, game: str, limit: int) -> list[tuple[str, ...]]:
        """Return the prompt fingerprints of the agent's last ``limit`` entry papers of ``game``, newest first."""
        with self._lock:
            mine = [a for a in self.attempts.values() if a.agent == agent and a.game == game and not a.practice]
        # newest first; attempts started at the same instant count in the order they were stored
        order = sorted(range(len(mine)), key=lambda i: (mine[i].created_at, i), reverse=True)
        return [mine[i].prompt_keys for i in order[:limit]]

    def graded_attempts(self, game: str | None = None) -> list[Attempt]:
        """Return graded attempts (all games, or one), oldest first, for statistics."""
        with self._lock:
            done = [a for a in self.attempts.values() if a.graded_at is not None and game in (None, a.game)]
        return sorted(done, key=lambda a: a.created_at)

    def save_pass(self, record: PassRecord) -> None:
        """Store an issued pass."""
        with self._lock:
            self.passes[record.jti] = record

    def load_pass(self, jti: str) -> PassRecord | None:
        """Return a pass by its unique id, or ``None``."""
        with self._lock:
            return self.passes.get(jti)

    def revoke_pass(self, jti: str) -> bool:
        """Revoke a pass; ``False`` if no such pass exists."""
        with self._lock:
            p = self.passes.get(jti)
            if p is None:
                return False
            self.passes[jti] = replace(p, revoked=True)
            return True

    def passes_for(self, agent: str) -> list[PassRecord]:
        """Return every pass issued to ``agent``, oldest first."""
        return self.list_passes(agent)

    def list_passes(self, agent: str | None = None) -> list[PassRecord]:
        """Return every pass (of one agent, or all), oldest first."""
        with self._lock:
            chosen = [p for p in self.passes.values() if agent is None or p.agent == agent]
        return sorted(chosen, key=lambda p: (p.issued_at, p.jti))

    def take_legacy_secret(self) -> bytes | None:
        """Remove and return the key an older version kept (``legacy_key``), or ``None``."""
        with self._lock:
            key, self.legacy_key = self.legacy_key, None
            return key

"""The club pass: a signed JWT (HS256, PyJWT) that admits an agent to the tables of the games it passed.

Claims: ``iss`` (``"club-agentes"``), ``aud`` (``"club-agentes-tables"``), ``sub`` (the
agent), ``games`` (every game the agent holds a valid pass for, the new one included),
``iat``, ``exp`` and ``jti`` (unique, from ``secrets``). The signing key comes from the
environment variable ``CLUB_SECRET`` when set (at least 32 bytes), else from the store,
which generates it once (:meth:`~quizzes.store.QuizStore.secret`), so passes survive a
restart. Every issued pass is recorded in the store by its ``jti``; revocation marks the
record, and :meth:`ClubPasses.verify` refuses a pass whose record is revoked or missing.
"""

from __future__ import annotations

import os
import secrets
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import jwt
from club_agentes.quizzes.store import PassRecord, QuizStore

ISSUER = "club-agentes"
AUDIENCE = "club-agentes-tables"
ALGORITHM = "HS256"
SECRET_ENV = "CLUB_SECRET"
MIN_SECRET_BYTES = 32
DEFAULT_PASS_TTL_SECONDS = 30 * 24 * 3600
MAX_TOKEN_CHARS = 8192
_REQUIRED_CLAIMS = ("iss", "aud", "sub", "games", "iat", "exp", "jti")


class SecretTooShort(ValueError):
    """The configured signing key is shorter than :data:`MIN_SECRET_BYTES`."""


def iso_utc(ts: float) -> str:
    """Format a UNIX time as ``2026-11-30T10:00:00Z``. Never raises for times within years 1..9999."""
    return datetime.fromtimestamp(int(ts), UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def signing_key(store: QuizStore, env: Mapping[str, str] | None = None) -> bytes:
    """Return the pass-signing key: ``CLUB_SECRET`` if set, else the store's key (generated once).

    Raises:
        SecretTooShort: ``CLUB_SECRET`` is set but shorter than 32 bytes (UTF-8).
    """
    environ = os.environ if env is None else env
    configured = environ.get(SECRET_ENV)
    if configured:
        key = configured.encode("utf-8")
        if len(key) < MIN_SECRET_BYTES:
            raise SecretTooShort(
                f"{SECRET_ENV} holds {len(key)} bytes; a pass-signing key needs at least {MIN_SECRET_BYTES}"
            )
        return key
    return store.secret(secrets.token_bytes(MIN_SECRET_BYTES))


@dataclass(frozen=True)
class PassCheck:
    """The outcome of checking a club pass.

    Attributes:
        valid: whether the pass admits its holder (to ``game``, when one was asked about).
        reason: one English sentence: why the pass is refused, or what it admits to.
        agent: the agent the pass was issued to (``None`` unless the signature is good).
        games: the games the pass covers (empty unless the signature is good).
        expires_at: the pass's expiry as UNIX time (``None`` unless the signature is good).
        jti: the pass's unique id (``None`` unless the signature is good).
    """

    valid: bool
    reason: str
    agent: str | None = None
    games: tuple[str, ...] = ()
    expires_at: float | None = None
    jti: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """Return the check as JSON-ready data (``expires_at`` also as ISO 8601 UTC)."""
        return {
            "valid": self.valid,
            "reason": self.reason,
            "agent": self.agent,
            "games": list(self.games),
            "expires_at": self.expires_at,
            "expires_at_iso": iso_utc(self.expires_at) if self.expires_at is not None else None,
        }


class ClubPasses:
    """Issues, verifies and revokes club passes against a :class:`~quizzes.store.QuizStore`."""

    def __init__(
        self,
        store: QuizStore,
        *,
        clock: Callable[[], float] = time.time,
        secret: bytes | None = None,
        ttl_seconds: float = DEFAULT_PASS_TTL_SECONDS,
    ) -> None:
        """Build the pass office; ``secret`` overrides the key (else :func:`signing_key`).

        Raises:
            SecretTooShort: the given or configured key is shorter than 32 bytes.
            ValueError: ``ttl_seconds`` is not positive.
        """
        if ttl_seconds <= 0:
            raise ValueError(f"a pass lifetime must be positive, got {ttl_seconds}")
        if secret is not None and len(secret) < MIN_SECRET_BYTES:
            raise SecretTooShort(f"the given key holds {len(secret)} bytes; at least {MIN_SECRET_BYTES} are needed")
        self.store = store
        self.clock = clock
        self.ttl_seconds = ttl_seconds
        self._key = secret if secret is not None else signing_key(store)

    def issue(self, agent: str, games: Iterable[str], *, jti: str | None = None) -> tuple[str, PassRecord]:
        """Sign a pass for ``agent`` covering ``games``, record it in the store, and return (token, record).

        ``jti`` may be given (the harness reserves it before grading commits); else one is drawn.

        Raises:
            ValueError: ``games`` is empty.
        """
        covered = tuple(sorted(set(games)))
        if not covered:
            raise ValueError("a club pass must cover at least one game")
        now = self.clock()
        record = PassRecord(
            jti=jti or secrets.token_urlsafe(18),
            agent=agent,
            games=covered,
            issued_at=now,
            expires_at=now + self.ttl_seconds,
        )
        claims = {
            "iss": ISSUER,
            "aud": AUDIENCE,
            "sub": agent,
            "games": list(covered),
            "iat": int(now),
            "exp": int(record.expires_at),
            "jti": record.jti,
        }
        token = jwt.encode(claims, self._key, algorithm=ALGORITHM)
        self.store.save_pass(record)
        return token, record

    def revoke(self, jti: str) -> bool:
        """Revoke a pass by its unique id; ``False`` if no such pass was issued."""
        return self.store.revoke_pass(jti)

    def verify(self, token: str, game: str | None = None) -> PassCheck:
        """Check a pass: format, algorithm, signature, claims, issuer, audience, expiry, revocation, coverage.

        Never raises: a refused pass comes back with ``valid=False`` and a one-sentence reason.
        """
        if not isinstance(token, str) or not token.strip():
            return PassCheck(False, "the pass is empty; give the token that submit_quiz returned")
        token = token.strip()
        if len(token) > MAX_TOKEN_CHARS:
            return PassCheck(False, f"the pass is longer than {MAX_TOKEN_CHARS} characters, so it is not a club pass")
        try:
            header = jwt.get_unverified_header(token)
        except jwt.PyJWTError:
            return PassCheck(False, "the pass is not a well-formed JWT (three base64url parts separated by dots)")
        alg = header.get("alg")
        if alg != ALGORITHM:
            return PassCheck(False, f"the pass is signed with {alg!r}; only {ALGORITHM} passes are accepted")
        try:
            claims = jwt.decode(
                token,
                self._key,
                algorithms=[ALGORITHM],
                options={
                    "verify_signature": True,
                    "verify_exp": False,
                    "verify_iat": False,
                    "verify_nbf": False,
                    "verify_aud": False,
                    "verify_iss": False,
                },
            )
        except jwt.InvalidSignatureError:
            return PassCheck(False, "the signature does not match; the pass was altered or signed by another key")
        except jwt.PyJWTError:
            return PassCheck(False, "the pass is not a well-formed JWT (its header or claims cannot be decoded)")
        missing = [c for c in _REQUIRED_CLAIMS if c not in claims]
        if missing:
            return PassCheck(False, f"the pass lacks the claims {', '.join(missing)}, so it is not a club pass")
        agent, games, exp, jti = claims["sub"], claims["games"], claims["exp"], claims["jti"]
        if (
            not isinstance(agent, str)
            or not isinstance(jti, str)
            or not isinstance(games, list)
            or not all(isinstance(g, str) for g in games)
            or not isinstance(exp, int | float)
        ):
            return PassCheck(False, "the pass has claims of the wrong type, so it is not a club pass")
        facts = {"agent": agent, "games": tuple(games), "expires_at": float(exp), "jti": jti}
        if claims["iss"] != ISSUER:
            return PassCheck(False, f"the pass was issued by {claims['iss']!r}, not {ISSUER}", **facts)
        aud = claims["aud"]
        audiences = aud if isinstance(aud, list) else [aud]
        if AUDIENCE not in audiences:
            return PassCheck(False, f"the pass is for audience {aud!r}, not {AUDIENCE}", **facts)
        if self.clock() >= exp:
            return PassCheck(False, f"the pass expired at {iso_utc(exp)}", **facts)
        record = self.store.load_pass(jti)
        if record is None:
            return PassCheck(False, "the pass is not in this club's register of issued passes", **facts)
        if record.revoked:
            return PassCheck(False, "the pass was revoked", **facts)
        if game is not None and game not in games:
            covered = ", ".join(games) or "no game"
            return PassCheck(False, f"the pass does not cover {game}; it covers {covered}", **facts)
        scope = f"{game}" if game is not None else ", ".join(games)
        return PassCheck(True, f"the pass admits {agent} to {scope} until {iso_utc(exp)}", **facts)


def verify_club_pass(
    token: str,
    game: str | None = None,
    *,
    store: QuizStore,
    secret: bytes | None = None,
    clock: Callable[[], float] = time.time,
) -> PassCheck:
    """Check a club pass against ``store`` (see :meth:`ClubPasses.verify`).

    Raises:
        SecretTooShort: the given or configured key is shorter than 32 bytes.
    """
    return ClubPasses(store, clock=clock, secret=secret).verify(token, game)

"""The club pass: a signed JWT (HS256, PyJWT) that admits an agent to the tables of the games it passed.

Claims: ``iss`` (``"club-agentes"``), ``aud`` (``"club-agentes-tables"``), ``sub`` (the agent's
normalised name), ``games`` (every game the agent holds a valid pass for, the new one included),
``iat``, ``exp`` and ``jti`` (unique, from ``secrets``). Every issued pass is recorded in the store
by its ``jti``; :meth:`ClubPasses.verify` reads that record on every check (so a revocation takes
effect at once, in every process sharing the store) and refuses a token whose subject, games,
issue or expiry time differ from it: whoever holds the key still cannot mint a pass the club did
not issue, nor stretch one it did.

The signing key (at least :data:`MIN_SECRET_BYTES` bytes) comes from, in order:

1. the environment variable ``CLUB_AGENTES_SECRET`` (its UTF-8 bytes; :func:`key_from_env`, or the
   server's settings); the old name ``CLUB_SECRET`` is still read, with a deprecation line in the log;
2. a key file (:func:`load_key_file`): the key as hex on one line, mode 0600 in a folder of mode
   0700, created on first start (:func:`signing_key`), by default beside the database
   (:func:`default_key_path`). A key that an older version kept in the database is moved into
   the new key file on first start, so its passes stay valid.

An empty or short key is refused with one sentence (:class:`SigningKeyError`), never a traceback.
"""

from __future__ import annotations

import contextlib
import logging
import os
import secrets
import stat
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import jwt
from club_agentes.quizzes.store import PassRecord, QuizStore

from club_agentes.errors import Refused

ISSUER = "club-agentes"
AUDIENCE = "club-agentes-tables"
ALGORITHM = "HS256"
SECRET_ENV = "CLUB_AGENTES_SECRET"
LEGACY_SECRET_ENV = "CLUB_SECRET"
MIN_SECRET_BYTES = 32
KEY_FILE_NAME = "club-pass.key"
DEFAULT_PASS_TTL_SECONDS = 30 * 24 * 3600
MAX_TOKEN_CHARS = 8192
_REQUIRED_CLAIMS = ("iss", "aud", "sub", "games", "iat", "exp", "jti")

log = logging.getLogger("club_agentes.passes")


class SigningKeyError(Refused):
    """The configured pass-signing key cannot be used; the message is one sentence saying why and what to do."""


class SecretTooShort(SigningKeyError):
    """The configured signing key is empty or shorter than :data:`MIN_SECRET_BYTES`."""


def iso_utc(ts: float) -> str:
    """Format a UNIX time as ``2026-11-30T10:00:00Z``. Never raises for times within years 1..9999."""
    return datetime.fromtimestamp(int(ts), UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


# --------------------------------------------------------------------------- the key


def check_secret(text: str, name: str = SECRET_ENV) -> bytes:
    """Return a configured key's bytes (UTF-8) after checking its length; ``name`` is where it was set.

    Raises:
        SecretTooShort: the key is empty (or blank) or shorter than 32 bytes.
    """
    key = text.encode("utf-8")
    if not key.strip():
        raise SecretTooShort(
            f"{name} is set but empty; set it to a key of at least {MIN_SECRET_BYTES} bytes or unset it "
            "to use the key file"
        )
    if len(key) < MIN_SECRET_BYTES:
        raise SecretTooShort(
            f"{name} holds {len(key)} bytes; a pass-signing key needs at least {MIN_SECRET_BYTES} "
            "(for example the output of: python3 -c 'import secrets; print(secrets.token_hex(32))')"
        )
    return key


def key_from_env(env: Mapping[str, str] | None = None) -> bytes | None:
    """Return the key set in the environment (``CLUB_AGENTES_SECRET``, else the deprecated ``CLUB_SECRET``).

    Returns ``None`` when neither is set. Logs a deprecation line when only ``CLUB_SECRET`` is.

    Raises:
        SecretTooShort: the variable is set but empty or shorter than 32 bytes (UTF-8).
    """
    environ = os.environ if env is None else env
    name = SECRET_ENV if SECRET_ENV in environ else LEGACY_SECRET_ENV if LEGACY_SECRET_ENV in environ else None
    if name is None:
        return None
    if name == LEGACY_SECRET_ENV:
        log.warning("%s is deprecated; set %s instead (it is read the same way)", LEGACY_SECRET_ENV, SECRET_ENV)
    return check_secret(environ[name], name)


def default_key_path(db_location: str) -> Path:
    """Return the default key file for a store location.

    For a SQLite file: ``<its folder>/keys/club-pass.key``. For PostgreSQL or an in-memory
    database: ``$XDG_DATA_HOME/club-agentes/keys/club-pass.key`` (or ``~/.local/share/...``).
    """
    if db_location and db_location != ":memory:" and not db_location.startswith(("postgresql://", "postgres://")):
        return Path(db_location).expanduser().resolve().parent / "keys" / KEY_FILE_NAME
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "club-agentes" / "keys" / KEY_FILE_NAME


def load_key_file(path: Path) -> bytes:
    """Read a key file: the key as hex on one line, readable by its owner only.

    Raises:
        SigningKeyError: the file cannot be read, is readable or writable by other users, is not
            hex, or holds fewer than 32 bytes.
    """
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
        text = path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError) as exc:
        raise SigningKeyError(f"cannot read the key file {path}: {exc}") from None
    if mode & 0o077:
        raise SigningKeyError(
            f"the key file {path} is open to other users (mode {mode:04o}); make it private with chmod 600"
        )
    try:
        key = bytes.fromhex(text)
    except ValueError:
        raise SigningKeyError(f"the key file {path} does not hold a hex key on one line") from None
    if len(key) < MIN_SECRET_BYTES:
        raise SecretTooShort(
            f"the key file {path} holds a {len(key)}-byte key; a pass-signing key needs at least {MIN_SECRET_BYTES}"
        )
    return key


def write_key_file(path: Path, key: bytes) -> bytes:
    """Create ``path`` (0600, in a folder made 0700) holding ``key`` as hex; return the key the file holds.

    If another process created the file first, its key is returned instead (creation is exclusive).

    Raises:
        SecretTooShort: ``key`` is shorter than 32 bytes.
        SigningKeyError: the folder or file cannot be created.
    """
    if len(key) < MIN_SECRET_BYTES:
        raise SecretTooShort(f"a pass-signing key needs at least {MIN_SECRET_BYTES} bytes, not {len(key)}")
    # Servers started at once on one folder (an evaluation's samples) race here: the folder is made with
    # exist_ok, and the key is written whole to a private temporary file that is then linked into place, so
    # a reader never sees the key file half written and exactly one key wins.
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    try:
        path.parent.mkdir(parents=True, mode=0o700, exist_ok=True)
        path.parent.chmod(0o700)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as fh:
            fh.write(key.hex() + "\n")
        try:
            os.link(tmp, path)
        except FileExistsError:
            return load_key_file(path)
    except OSError as exc:
        raise SigningKeyError(f"cannot create the key file {path}: {exc}") from None
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()
    return key


def signing_key(store: QuizStore | None, *, key_file: Path, secret: str | None = None) -> bytes:
    """Return the pass-signing key: ``secret`` (the configured ``CLUB_AGENTES_SECRET``) when given, else
    the key in ``key_file``, created if missing.

    When the key file is created and ``store`` still holds the key an older version kept in the
    database, that key moves into the file (and leaves the database), so earlier passes stay valid.

    Raises:
        SecretTooShort: ``secret`` is empty or shorter than 32 bytes.
        SigningKeyError: the key file cannot be read or created, or is open to other users.
    """
    if secret is not None:
        return check_secret(secret)
    if key_file.exists():
        return load_key_file(key_file)
    legacy = store.take_legacy_secret() if store is not None else None
    if legacy is not None:
        log.warning("moved the pass-signing key from the database into %s", key_file)
        return write_key_file(key_file, legacy)
    log.info("created the pass-signing key file %s", key_file)
    return write_key_file(key_file, secrets.token_bytes(MIN_SECRET_BYTES))


# --------------------------------------------------------------------------- checking passes


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
            "jti": self.jti,
        }


def _mismatch(claims: Mapping[str, Any], record: PassRecord) -> str | None:
    """Return which stored facts a token's claims contradict, or ``None`` when they all agree."""
    wrong = []
    if claims["sub"] != record.agent:
        wrong.append(f"it names {claims['sub']!r} but was issued to {record.agent!r}")
    if sorted(set(claims["games"])) != list(record.games) or len(claims["games"]) != len(record.games):
        wrong.append(f"it lists {', '.join(claims['games']) or 'no game'} but was issued for {', '.join(record.games)}")
    if int(claims["exp"]) != int(record.expires_at):
        wrong.append(f"it expires at {iso_utc(claims['exp'])} but was issued to expire at {iso_utc(record.expires_at)}")
    if int(claims["iat"]) != int(record.issued_at):
        wrong.append(f"it says it was issued at {iso_utc(claims['iat'])}, not {iso_utc(record.issued_at)}")
    return "; ".join(wrong) if wrong else None


class ClubPasses:
    """Issues, verifies and revokes club passes against a :class:`~quizzes.store.QuizStore`."""

    def __init__(
        self,
        store: QuizStore,
        *,
        secret: bytes,
        clock: Callable[[], float] = time.time,
        ttl_seconds: float = DEFAULT_PASS_TTL_SECONDS,
    ) -> None:
        """Build the pass office over ``store`` signing with ``secret`` (see :func:`signing_key`).

        Raises:
            SecretTooShort: ``secret`` is shorter than 32 bytes.
            ValueError: ``ttl_seconds`` is not positive.
        """
        if ttl_seconds <= 0:
            raise ValueError(f"a pass lifetime must be positive, got {ttl_seconds}")
        if len(secret) < MIN_SECRET_BYTES:
            raise SecretTooShort(f"the given key holds {len(secret)} bytes; at least {MIN_SECRET_BYTES} are needed")
        self.store = store
        self.clock = clock
        self.ttl_seconds = ttl_seconds
        self._key = secret

    def issue(self, agent: str, games: Iterable[str], *, jti: str | None = None) -> tuple[str, PassRecord]:
        """Sign a pass for ``agent`` covering ``games``, record it in the store, and return (token, record).

        ``jti`` may be given (the harness reserves it before grading commits); else one is drawn.
        Issue and expiry times are whole seconds, as in the token.

        Raises:
            ValueError: ``games`` is empty.
        """
        covered = tuple(sorted(set(games)))
        if not covered:
            raise ValueError("a club pass must cover at least one game")
        now = int(self.clock())
        record = PassRecord(
            jti=jti or secrets.token_urlsafe(18),
            agent=agent,
            games=covered,
            issued_at=float(now),
            expires_at=float(now + int(self.ttl_seconds)),
        )
        claims = {
            "iss": ISSUER,
            "aud": AUDIENCE,
            "sub": agent,
            "games": list(covered),
            "iat": now,
            "exp": int(record.expires_at),
            "jti": record.jti,
        }
        token = jwt.encode(claims, self._key, algorithm=ALGORITHM)
        self.store.save_pass(record)
        return token, record

    def revoke(self, jti: str) -> bool:
        """Revoke a pass by its unique id; ``False`` if no such pass was issued."""
        return self.store.revoke_pass(jti)

    def decode(self, token: str) -> tuple[dict[str, Any] | None, str]:
        """Check a token's form and signature; return (claims, "") or (None, why it is refused). Never raises."""
        if not isinstance(token, str) or not token.strip():
            return None, "the pass is empty; give the token that submit_quiz returned"
        token = token.strip()
        if len(token) > MAX_TOKEN_CHARS:
            return None, f"the pass is longer than {MAX_TOKEN_CHARS} characters, so it is not a club pass"
        try:
            header = jwt.get_unverified_header(token)
        except jwt.PyJWTError:
            return None, "the pass is not a well-formed JWT (three base64url parts separated by dots)"
        alg = header.get("alg")
        if alg != ALGORITHM:
            return None, f"the pass is signed with {str(alg)[:40]!r}; only {ALGORITHM} passes are accepted"
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
            return None, "the signature does not match; the pass was altered or signed by another key"
        except jwt.PyJWTError:
            return None, "the pass is not a well-formed JWT (its header or claims cannot be decoded)"
        missing = [c for c in _REQUIRED_CLAIMS if c not in claims]
        if missing:
            return None, f"the pass lacks the claims {', '.join(missing)}, so it is not a club pass"
        if (
            not isinstance(claims["sub"], str)
            or not isinstance(claims["jti"], str)
            or not isinstance(claims["games"], list)
            or not all(isinstance(g, str) for g in claims["games"])
            or isinstance(claims["exp"], bool)
            or not isinstance(claims["exp"], int | float)
            or isinstance(claims["iat"], bool)
            or not isinstance(claims["iat"], int | float)
        ):
            return None, "the pass has claims of the wrong type, so it is not a club pass"
        return claims, ""

    def verify(self, token: str, game: str | None = None) -> PassCheck:
        """Check a pass: form, algorithm, signature, claims, issuer, audience, its stored record (subject,
        games, issue and expiry times), revocation, expiry and coverage of ``game``.

        Never raises: a refused pass comes back with ``valid=False`` and a one-sentence reason.
        """
        claims, why = self.decode(token)
        if claims is None:
            return PassCheck(False, why)
        agent, games, exp, jti = claims["sub"], claims["games"], claims["exp"], claims["jti"]
        facts: dict[str, Any] = {"agent": agent, "games": tuple(games), "expires_at": float(exp), "jti": jti}
        if claims["iss"] != ISSUER:
            return PassCheck(False, f"the pass was issued by {str(claims['iss'])[:60]!r}, not {ISSUER}", **facts)
        aud = claims["aud"]
        audiences = aud if isinstance(aud, list) else [aud]
        if AUDIENCE not in audiences:
            return PassCheck(False, f"the pass is for audience {str(aud)[:60]!r}, not {AUDIENCE}", **facts)
        record = self.store.load_pass(jti)
        if record is None:
            return PassCheck(False, "the pass is not in this club's register of issued passes", **facts)
        mismatch = _mismatch(claims, record)
        if mismatch is not None:
            return PassCheck(
                False,
                f"the pass does not match the club's record of pass {jti}: {mismatch}; it was minted outside the club",
                **facts,
            )
        if record.revoked:
            return PassCheck(False, "the pass was revoked", **facts)
        if self.clock() >= record.expires_at:
            return PassCheck(False, f"the pass expired at {iso_utc(record.expires_at)}", **facts)
        if game is not None and game not in record.games:
            covered = ", ".join(record.games) or "no game"
            return PassCheck(False, f"the pass does not cover {game[:60]}; it covers {covered}", **facts)
        scope = game if game is not None else ", ".join(record.games)
        return PassCheck(True, f"the pass admits {agent} to {scope} until {iso_utc(record.expires_at)}", **facts)

    def admit(self, token: str | None, agent: str, game: str) -> str | None:
        """Return ``None`` when ``token`` admits ``agent`` (a normalised name) to a table of ``game``,
        else one sentence saying why not. Never raises.
        """
        if not token:
            return (
                f"this table requires a club pass for {game}: pass the entry quiz (start_quiz, submit_quiz) "
                "and give the pass as club_pass"
            )
        check = self.verify(token, game)
        if not check.valid:
            return f"the club pass is refused: {check.reason}"
        if check.agent != agent:
            return (
                f"the club pass was issued to {check.agent!r}, and you are connected as {agent!r}; "
                "a pass admits only the agent it names"
            )
        return None


def verify_club_pass(
    token: str,
    game: str | None = None,
    *,
    store: QuizStore,
    secret: bytes,
    clock: Callable[[], float] = time.time,
) -> PassCheck:
    """Check a club pass against ``store`` (see :meth:`ClubPasses.verify`).

    Raises:
        SecretTooShort: ``secret`` is shorter than 32 bytes.
    """
    return ClubPasses(store, clock=clock, secret=secret).verify(token, game)

"""The OAuth part of the store: registered clients, sign-ins in progress, authorization codes and tokens.

The server's own authorization server (:mod:`club_agentes.mcp_server.oauth`) keeps here what must
survive a restart and be shared by every worker on the database:

* ``oauth_clients``: each dynamically registered client (RFC 7591) as the JSON the SDK validates,
  with when it was registered and last used (an unused registration is pruned after a day);
* ``oauth_requests``: authorization requests waiting for a person on the login page (the request's
  parameters, the hash of the login form's CSRF token, and the agent once one was chosen);
* ``oauth_codes``: authorization codes, single use, each bound to one agent;
* ``oauth_tokens``: access and refresh tokens, each bound to one agent and one client; the tokens of
  one grant (one sign-in and its refreshes) share a ``grant_id`` and are revoked together.

Codes, tokens and request ids are never stored: only their SHA-256 (hex), found by equality (a
hash of a guess tells nothing about a stored one). Revoking an agent deletes its rows here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from club_agentes.mcp_server.store.db import IntegrityError, Migration, StorePart

MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        "oauth",
        1,
        (
            """CREATE TABLE IF NOT EXISTS oauth_clients (
                client_id TEXT PRIMARY KEY,
                info TEXT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                used_at DOUBLE PRECISION
            )""",
            "CREATE INDEX IF NOT EXISTS oauth_clients_unused ON oauth_clients (used_at, created_at)",
            """CREATE TABLE IF NOT EXISTS oauth_requests (
                id_hash TEXT PRIMARY KEY,
                client_id TEXT NOT NULL,
                params TEXT NOT NULL,
                csrf_hash TEXT,
                agent TEXT,
                expires_at DOUBLE PRECISION NOT NULL
            )""",
            "CREATE INDEX IF NOT EXISTS oauth_requests_expiry ON oauth_requests (expires_at)",
            """CREATE TABLE IF NOT EXISTS oauth_codes (
                code_hash TEXT PRIMARY KEY,
                client_id TEXT NOT NULL,
                agent TEXT NOT NULL,
                grant_id TEXT NOT NULL,
                params TEXT NOT NULL,
                expires_at DOUBLE PRECISION NOT NULL,
                used_at DOUBLE PRECISION
            )""",
            "CREATE INDEX IF NOT EXISTS oauth_codes_agent ON oauth_codes (agent)",
            "CREATE INDEX IF NOT EXISTS oauth_codes_expiry ON oauth_codes (expires_at)",
            """CREATE TABLE IF NOT EXISTS oauth_tokens (
                token_hash TEXT PRIMARY KEY,
                kind TEXT NOT NULL,
                client_id TEXT NOT NULL,
                agent TEXT NOT NULL,
                grant_id TEXT NOT NULL,
                scopes TEXT NOT NULL,
                resource TEXT,
                created_at DOUBLE PRECISION NOT NULL,
                expires_at DOUBLE PRECISION NOT NULL
            )""",
            "CREATE INDEX IF NOT EXISTS oauth_tokens_agent ON oauth_tokens (agent)",
            "CREATE INDEX IF NOT EXISTS oauth_tokens_grant ON oauth_tokens (grant_id)",
            "CREATE INDEX IF NOT EXISTS oauth_tokens_expiry ON oauth_tokens (expires_at)",
        ),
    ),
)

UNUSED_CLIENT_S = 86400.0
"""A registered client that never completed a sign-in is pruned after this many seconds."""


@dataclass(frozen=True)
class PendingSignIn:
    """An authorization request waiting on the login page.

    Attributes:
        client_id: the OAuth client that asked.
        params: the request's parameters as JSON (the SDK's ``AuthorizationParams``).
        csrf_hash: SHA-256 of the login form's current CSRF token (``None`` before the page was shown).
        agent: the agent chosen (set when the page created one and shows its key), or ``None``.
        expires_at: UNIX time after which the request is refused.
    """

    client_id: str
    params: str
    csrf_hash: str | None
    agent: str | None
    expires_at: float


@dataclass(frozen=True)
class CodeRow:
    """A stored authorization code.

    Attributes:
        client_id: the client it was issued to.
        agent: the agent who signed in.
        grant_id: the grant its tokens will belong to.
        params: scopes, PKCE challenge, redirect URI and resource as JSON.
        expires_at: UNIX time.
        used: whether it was exchanged already.
    """

    client_id: str
    agent: str
    grant_id: str
    params: str
    expires_at: float
    used: bool


@dataclass(frozen=True)
class TokenRow:
    """A stored access or refresh token (of an agent that is not revoked).

    Attributes:
        kind: ``"access"`` or ``"refresh"``.
        client_id: the client it was issued to.
        agent: the agent it acts as.
        grant_id: the sign-in it descends from.
        scopes: space-separated scopes.
        resource: the RFC 8707 resource it is for, or ``None``.
        expires_at: UNIX time.
    """

    kind: str
    client_id: str
    agent: str
    grant_id: str
    scopes: str
    resource: str | None
    expires_at: float


@dataclass(frozen=True)
class Grant:
    """What every token of one sign-in shares.

    Attributes:
        client_id: the client the tokens are issued to.
        agent: the agent they act as.
        grant_id: the sign-in they descend from (revoked together).
        scopes: space-separated scopes.
        resource: the RFC 8707 resource they are for, or ``None``.
    """

    client_id: str
    agent: str
    grant_id: str
    scopes: str
    resource: str | None


@dataclass(frozen=True)
class NewToken:
    """A token to store (see :class:`TokenRow`; ``token_hash`` is the SHA-256 of the token)."""

    token_hash: str
    kind: str
    expires_at: float


def _token(r: Any) -> TokenRow:
    return TokenRow(str(r[0]), str(r[1]), str(r[2]), str(r[3]), str(r[4]), r[5], float(r[6]))


class OAuthStoreSQL(StorePart):
    """OAuth clients, sign-ins in progress, codes and tokens, over :attr:`db`."""

    # ----- clients

    def add_oauth_client(self, client_id: str, info: str, now: float) -> None:
        """Store a registered client (its registration as JSON) and prune day-old registrations never used.

        Raises:
            IntegrityError: the client id is taken (ids are random UUIDs: a defect).
        """
        with self.db.tx() as tx:
            tx.execute(
                "DELETE FROM oauth_clients WHERE used_at IS NULL AND created_at < ?",
                (now - UNUSED_CLIENT_S,),
            )
            tx.execute(
                "INSERT INTO oauth_clients (client_id, info, created_at) VALUES (?, ?, ?)", (client_id, info, now)
            )

    def oauth_client(self, client_id: str) -> str | None:
        """Return a registered client's registration (JSON), or ``None``."""
        r = self.db.one("SELECT info FROM oauth_clients WHERE client_id = ?", (client_id,))
        return str(r[0]) if r else None

    # ----- sign-ins in progress

    def add_sign_in(self, id_hash: str, client_id: str, params: str, expires_at: float, now: float) -> None:
        """Store an authorization request waiting for the login page; prune expired ones.

        Raises:
            IntegrityError: the id is taken (ids are 256 random bits: a defect).
        """
        with self.db.tx() as tx:
            tx.execute("DELETE FROM oauth_requests WHERE expires_at < ?", (now,))
            tx.execute(
                "INSERT INTO oauth_requests (id_hash, client_id, params, expires_at) VALUES (?, ?, ?, ?)",
                (id_hash, client_id, params, expires_at),
            )

    def sign_in(self, id_hash: str, now: float) -> PendingSignIn | None:
        """Return the unexpired sign-in with this id hash, or ``None``."""
        r = self.db.one(
            "SELECT client_id, params, csrf_hash, agent, expires_at FROM oauth_requests "
            "WHERE id_hash = ? AND expires_at >= ?",
            (id_hash, now),
        )
        return PendingSignIn(str(r[0]), str(r[1]), r[2], r[3], float(r[4])) if r else None

    def set_sign_in_csrf(self, id_hash: str, csrf_hash: str) -> bool:
        """Give a sign-in a new CSRF token hash (the login page was shown again); ``False`` if unknown."""
        with self.db.tx() as tx:
            return tx.execute("UPDATE oauth_requests SET csrf_hash = ? WHERE id_hash = ?", (csrf_hash, id_hash)) == 1

    def set_sign_in_agent(self, id_hash: str, agent: str) -> bool:
        """Record the agent a sign-in created (its key is being shown); ``False`` if unknown."""
        with self.db.tx() as tx:
            return tx.execute("UPDATE oauth_requests SET agent = ? WHERE id_hash = ?", (agent, id_hash)) == 1

    def end_sign_in(self, id_hash: str) -> bool:
        """Delete a sign-in (completed or cancelled); ``False`` if it was gone already (another tab won)."""
        with self.db.tx() as tx:
            return tx.execute("DELETE FROM oauth_requests WHERE id_hash = ?", (id_hash,)) == 1

    # ----- codes

    def add_oauth_code(
        self, code_hash: str, client_id: str, agent: str, grant_id: str, params: str, expires_at: float, now: float
    ) -> None:
        """Store an authorization code; mark its client used; prune expired codes.

        Raises:
            IntegrityError: the code is taken (codes are 256 random bits: a defect).
        """
        with self.db.tx() as tx:
            tx.execute("DELETE FROM oauth_codes WHERE expires_at < ?", (now,))
            tx.execute(
                "INSERT INTO oauth_codes (code_hash, client_id, agent, grant_id, params, expires_at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (code_hash, client_id, agent, grant_id, params, expires_at),
            )
            tx.execute("UPDATE oauth_clients SET used_at = ? WHERE client_id = ?", (now, client_id))

    def oauth_code(self, code_hash: str, client_id: str) -> CodeRow | None:
        """Return the code with this hash issued to ``client_id``, or ``None``."""
        r = self.db.one(
            "SELECT client_id, agent, grant_id, params, expires_at, used_at FROM oauth_codes "
            "WHERE code_hash = ? AND client_id = ?",
            (code_hash, client_id),
        )
        return CodeRow(str(r[0]), str(r[1]), str(r[2]), str(r[3]), float(r[4]), r[5] is not None) if r else None

    def exchange_oauth_code(self, code_hash: str, grant: Grant, tokens: list[NewToken], now: float) -> bool:
        """Spend a code and store the tokens it buys, in one transaction.

        Returns ``False`` (storing nothing) when the code was spent already, or its agent is revoked;
        a second use of a code also revokes every token of its grant (RFC 6749 section 4.1.2).
        """
        with self.db.tx() as tx:
            spend = "UPDATE oauth_codes SET used_at = ? WHERE code_hash = ? AND used_at IS NULL"
            if tx.execute(spend, (now, code_hash)) != 1:
                tx.execute("DELETE FROM oauth_tokens WHERE grant_id = ?", (grant.grant_id,))
                return False
            if tx.one("SELECT 1 FROM agents WHERE name = ? AND revoked_at IS NULL", (grant.agent,)) is None:
                return False
            self._insert_tokens(tx, grant, tokens, now)
        return True

    # ----- tokens

    @staticmethod
    def _insert_tokens(tx: Any, grant: Grant, tokens: list[NewToken], now: float) -> None:
        tx.execute("DELETE FROM oauth_tokens WHERE expires_at < ?", (now,))
        shared = (grant.client_id, grant.agent, grant.grant_id, grant.scopes, grant.resource, now)
        tx.many(
            "INSERT INTO oauth_tokens (token_hash, kind, client_id, agent, grant_id, scopes, resource, created_at, "
            "expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(t.token_hash, t.kind, *shared, t.expires_at) for t in tokens],
        )

    def oauth_token(self, token_hash: str, kind: str, now: float) -> TokenRow | None:
        """Return the unexpired token of ``kind`` with this hash whose agent is not revoked, or ``None``."""
        r = self.db.one(
            "SELECT t.kind, t.client_id, t.agent, t.grant_id, t.scopes, t.resource, t.expires_at "
            "FROM oauth_tokens t JOIN agents a ON a.name = t.agent "
            "WHERE t.token_hash = ? AND t.kind = ? AND t.expires_at >= ? AND a.revoked_at IS NULL",
            (token_hash, kind, now),
        )
        return _token(r) if r else None

    def rotate_oauth_refresh(self, old_hash: str, grant: Grant, tokens: list[NewToken], now: float) -> bool:
        """Replace a refresh token (and its grant's access tokens) by ``tokens``, in one transaction.

        Returns ``False`` (storing nothing) when the refresh token was used or revoked meanwhile.
        """
        with self.db.tx() as tx:
            if tx.execute("DELETE FROM oauth_tokens WHERE token_hash = ? AND kind = 'refresh'", (old_hash,)) != 1:
                return False
            tx.execute("DELETE FROM oauth_tokens WHERE grant_id = ? AND kind = 'access'", (grant.grant_id,))
            self._insert_tokens(tx, grant, tokens, now)
        return True

    def revoke_oauth_grant(self, grant_id: str) -> int:
        """Delete every token of one grant; return how many."""
        with self.db.tx() as tx:
            return tx.execute("DELETE FROM oauth_tokens WHERE grant_id = ?", (grant_id,))

    def revoke_oauth_agent(self, agent: str) -> int:
        """Delete every token, code and sign-in of an agent; return how many tokens were deleted."""
        with self.db.tx() as tx:
            n = tx.execute("DELETE FROM oauth_tokens WHERE agent = ?", (agent,))
            tx.execute("DELETE FROM oauth_codes WHERE agent = ?", (agent,))
            tx.execute("DELETE FROM oauth_requests WHERE agent = ?", (agent,))
        return n

    def oauth_token_count(self, agent: str) -> int:
        """Return how many unexpired-or-not tokens an agent holds (for the operator and tests)."""
        r = self.db.one("SELECT COUNT(*) FROM oauth_tokens WHERE agent = ?", (agent,))
        return int(r[0]) if r else 0


__all__ = ["MIGRATIONS", "CodeRow", "Grant", "IntegrityError", "NewToken", "OAuthStoreSQL", "PendingSignIn", "TokenRow"]

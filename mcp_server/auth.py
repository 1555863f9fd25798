"""Agent keys: making, storing (hashed), verifying and revoking them, and the SDK token verifier.

A key looks like ``ca_<key id>_<secret>``: ``<key id>`` is 16 hex digits that find the agent's row,
``<secret>`` 32 bytes from :mod:`secrets` (43 URL-safe characters). The store keeps only the key
id and the SHA-256 of the secret, compared in constant time (:func:`hmac.compare_digest`); the
key itself is shown once, when it is made.

:class:`AgentKeyVerifier` is the ``token_verifier`` handed to the SDK's ``MCPServer``: over HTTP
the SDK's bearer middleware calls it for the ``Authorization: Bearer <key>`` of every request,
and answers 401 with ``WWW-Authenticate`` when it returns ``None``.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import time
from collections.abc import Callable

import anyio.to_thread
from club_agentes.mcp_server.store import Store
from club_agentes.mcp_server.store.agents import AgentRecord
from club_agentes.quizzes.harness import normalize_agent_name
from mcp.server.auth.provider import AccessToken

from club_agentes.errors import Refused

KEY_PREFIX = "ca_"
AGENT_SCOPE = "agent"
_KEY_RE = re.compile(r"ca_([0-9a-f]{16})_([A-Za-z0-9_-]{43})")
MAX_KEY_CHARS = 256


class AgentExists(Refused):
    """An agent with that (normalised) name exists already."""


class UnknownAgent(Refused):
    """No agent has that name."""


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode("ascii")).hexdigest()


def new_key() -> tuple[str, str, str]:
    """Return a fresh key and what the store keeps of it: ``(key, key_id, key_hash)``."""
    key_id = secrets.token_hex(8)
    secret = secrets.token_urlsafe(32)
    return f"{KEY_PREFIX}{key_id}_{secret}", key_id, _hash(secret)


class AgentRegistry:
    """The club's agents over the store: add, list, revoke, rotate keys, verify a key."""

    def __init__(self, store: Store, *, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock

    def add(self, name: str, *, origin: str = "cli") -> tuple[AgentRecord, str]:
        """Create an agent under the normalised form of ``name``; return its record and its key (shown once).

        Raises:
            InvalidAgent: the name is not accepted (see :func:`normalize_agent_name`).
            AgentExists: an agent with that normalised name exists (revoked or not).
        """
        normal = normalize_agent_name(name)
        key, key_id, key_hash = new_key()
        record = AgentRecord(normal, name.strip()[:64], key_id, key_hash, origin, self.clock())
        if not self.store.add_agent(record):
            existing = self.store.load_agent(normal)
            shown = f" (as {existing.display!r})" if existing and existing.display != name.strip() else ""
            raise AgentExists(
                f"an agent named {normal!r} exists already{shown}; names are compared without case, accents or "
                "punctuation, so choose another name (or rotate that agent's key with 'agents rotate')"
            )
        return record, key

    def get(self, name: str) -> AgentRecord:
        """Return an agent by (any form of) its name.

        Raises:
            InvalidAgent: the name is not accepted.
            UnknownAgent: no such agent.
        """
        normal = normalize_agent_name(name)
        record = self.store.load_agent(normal)
        if record is None:
            raise UnknownAgent(f"no agent is named {normal!r}; 'club-agentes agents list' lists them")
        return record

    def list(self) -> list[AgentRecord]:
        """Return every agent, oldest first."""
        return self.store.list_agents()

    def revoke(self, name: str) -> tuple[AgentRecord, int]:
        """Revoke an agent: its key stops working at once, and so do its club passes.

        Returns the agent and how many passes were revoked with it.

        Raises:
            InvalidAgent: the name is not accepted.
            UnknownAgent: no such agent, or it was revoked already.
        """
        record = self.get(name)
        if not self.store.revoke_agent(record.name, self.clock()):
            raise UnknownAgent(f"the agent {record.name!r} was revoked already")
        revoked = sum(1 for p in self.store.passes_for(record.name) if not p.revoked and self.store.revoke_pass(p.jti))
        return self.get(record.name), revoked

    def rotate(self, name: str) -> tuple[AgentRecord, str]:
        """Give an agent a new key (the old one stops working; a revoked agent is reinstated).

        Raises:
            InvalidAgent: the name is not accepted.
            UnknownAgent: no such agent.
        """
        record = self.get(name)
        key, key_id, key_hash = new_key()
        self.store.replace_agent_key(record.name, key_id, key_hash)
        return self.get(record.name), key

    def verify(self, key: str) -> AgentRecord | None:
        """Return the (unrevoked) agent this key belongs to, or ``None``. Never raises for any string."""
        if not isinstance(key, str) or len(key) > MAX_KEY_CHARS:
            return None
        m = _KEY_RE.fullmatch(key.strip())
        if m is None:
            return None
        record = self.store.agent_by_key_id(m.group(1))
        if record is None or record.revoked_at is not None:
            return None
        if not hmac.compare_digest(record.key_hash, _hash(m.group(2))):
            return None
        return record


class AgentKeyVerifier:
    """The SDK ``TokenVerifier``: a bearer token is an agent key; the access token names the agent."""

    def __init__(self, registry: AgentRegistry) -> None:
        self.registry = registry

    async def verify_token(self, token: str) -> AccessToken | None:
        """Return an access token whose ``client_id`` and ``subject`` are the agent's name, or ``None``."""
        if self.registry.store.db.local:
            record = self.registry.verify(token)  # one SQLite row: cheaper than a hop to a worker thread
        else:
            record = await anyio.to_thread.run_sync(self.registry.verify, token)
        if record is None:
            return None
        return AccessToken(token=token, client_id=record.name, subject=record.name, scopes=[AGENT_SCOPE])

"""The key-check cache: a verified key skips the store, and a revocation or rotation is seen at once.

On both databases: a cached key is served without a store read; a revocation or rotation in this process
takes effect on the very next request; a change committed by another connection (the ``agents`` command,
another worker) too (SQLite through ``PRAGMA data_version``, PostgreSQL through ``NOTIFY``); a wrong key
is never cached as valid.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from typing import Any

import pytest
from club_agentes.mcp_server import auth
from club_agentes.mcp_server.auth import AgentKeyVerifier, AgentRegistry, agents_channel

from tests.conftest import DbLocation

pytestmark = pytest.mark.anyio


class Counted:
    """Wraps a store's ``agent_by_key_id`` to count the store reads of key checks."""

    def __init__(self, store: Any) -> None:
        self.reads = 0
        self.read = store.agents.agent_by_key_id
        store.agents.agent_by_key_id = self

    def __call__(self, key_id: str) -> Any:
        self.reads += 1
        return self.read(key_id)


@pytest.fixture
def two(db_location: DbLocation) -> Iterator[tuple[AgentRegistry, AgentRegistry]]:
    """Two registries over the same database, each with its own connection (two processes' view)."""
    a, b = db_location.open(), db_location.open()
    yield AgentRegistry(a), AgentRegistry(b)
    for cache in list(auth._caches):  # the PostgreSQL LISTEN connections of this test's verifiers
        cache.stop()
    a.close()
    b.close()


async def ready(verifier: AgentKeyVerifier, key: str) -> None:
    """Verify ``key`` until it is served from the cache (PostgreSQL: once the LISTEN connection is up)."""
    counted = Counted(verifier.registry.store)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        before = counted.reads
        assert await verifier.verify_token(key) is not None
        if counted.reads == before:
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the key was never served from the cache")


async def test_a_verified_key_is_served_without_reading_the_store(two: tuple[AgentRegistry, AgentRegistry]) -> None:
    registry, _ = two
    _, key = registry.add("ana")
    verifier = AgentKeyVerifier(registry)
    await ready(verifier, key)
    counted = Counted(registry.store)
    for _ in range(3):
        token = await verifier.verify_token(key)
        assert token is not None and token.subject == token.client_id == "ana"
    assert counted.reads == 0
    # Without the cache every check reads the store.
    plain = AgentKeyVerifier(registry, cache=False)
    assert await plain.verify_token(key) is not None and counted.reads == 1


async def test_revocation_and_rotation_in_this_process_take_effect_at_once(
    two: tuple[AgentRegistry, AgentRegistry],
) -> None:
    registry, _ = two
    _, key = registry.add("ana")
    verifier = AgentKeyVerifier(registry)
    await ready(verifier, key)
    registry.revoke("ana")
    assert await verifier.verify_token(key) is None
    _, new_key = registry.rotate("ana")
    assert await verifier.verify_token(key) is None
    await ready(verifier, new_key)
    _, newer_key = registry.rotate("ana")  # a rotation of a cached key
    assert await verifier.verify_token(new_key) is None
    assert await verifier.verify_token(newer_key) is not None


async def test_a_revocation_committed_by_another_connection_takes_effect_at_once(
    two: tuple[AgentRegistry, AgentRegistry],
) -> None:
    """The other connection changes the row itself (as another process would): no in-process signal.

    SQLite sees the commit at the next check; PostgreSQL is told by the NOTIFY that every revocation
    sends (here sent the way :func:`~club_agentes.mcp_server.auth.agents_changed` sends it), and serves
    nothing from the cache while its LISTEN connection is down.
    """
    registry, other = two
    _, key = registry.add("ana")
    verifier = AgentKeyVerifier(registry)
    await ready(verifier, key)
    assert other.store.agents.revoke_agent("ana", time.time())
    channel = agents_channel(other.store)
    if channel is None:  # SQLite: the very next check
        assert await verifier.verify_token(key) is None
    else:
        other.store.db.notify(channel, "ana")
        deadline = time.monotonic() + 10
        while await verifier.verify_token(key) is not None:
            assert time.monotonic() < deadline, "the NOTIFY of the revocation never cleared the cache"
            await asyncio.sleep(0.01)
    # Rotated by the other connection: the old key stops, the new one works.
    _, new_key = other.rotate("ana")
    assert await verifier.verify_token(key) is None
    assert await verifier.verify_token(new_key) is not None


async def test_a_wrong_key_is_never_cached_as_valid(two: tuple[AgentRegistry, AgentRegistry]) -> None:
    registry, _ = two
    _, key = registry.add("ana")
    verifier = AgentKeyVerifier(registry)
    wrong = key[:-1] + ("A" if key[-1] != "A" else "B")  # the right key id, a wrong secret
    for _ in range(2):
        assert await verifier.verify_token(wrong) is None
    await ready(verifier, key)
    counted = Counted(registry.store)
    for bad in (wrong, key + " x", key.upper(), "ca_" + "0" * 16 + "_" + "a" * 43, ""):
        assert await verifier.verify_token(bad) is None
    assert counted.reads >= 1  # the wrong key with the cached key id went to the store, and failed there
    assert await verifier.verify_token(f"  {key} ") is not None  # the same key, padded: as before the cache


async def test_entries_expire(two: tuple[AgentRegistry, AgentRegistry]) -> None:
    registry, _ = two
    _, key = registry.add("ana")
    verifier = AgentKeyVerifier(registry)
    assert verifier.cache is not None
    verifier.cache.ttl_s = 0.0
    counted = Counted(registry.store)
    for n in range(1, 4):
        assert await verifier.verify_token(key) is not None
        assert counted.reads == n

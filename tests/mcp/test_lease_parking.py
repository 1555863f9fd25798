"""A long-poll's lease is parked for a moment when its hold ends (``Limits.ahold``): the subject's next hold on
the same worker takes it over without writing, and it is released in the store when nobody does (SQLite and
PostgreSQL)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from club_agentes.mcp_server import limits as limits_module
from club_agentes.mcp_server.limits import LimitReached, Limits, LimitSettings
from club_agentes.mcp_server.store import Store

from tests.conftest import DbLocation
from tests.quizzes.conftest import FakeClock

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def two_workers(db_location: DbLocation) -> Iterator[tuple[Store, Store]]:
    """Two stores on one database, as two server processes would have."""
    a, b = db_location.open(), db_location.open()
    yield a, b
    a.close()
    b.close()


def held(store: Store) -> int:
    """Return how many long-poll leases the store holds."""
    row = store.db.one("SELECT COUNT(*) FROM limit_holds WHERE kind = ?", ("long_poll",))
    return int(row[0]) if row else 0


async def hold(limits: Limits, subject: str, seconds: float = 5) -> None:
    """Hold one long-poll of ``subject`` through ``limits`` and let it go (its lease parks)."""
    async with limits.ahold("long_poll", subject, seconds):
        assert held(limits.store) >= 1, "a held long-poll is counted in the store"


class Writes:
    """Count the store's lease writes of one ``Limits``."""

    def __init__(self, store: Store) -> None:
        self.takes = self.releases = 0
        take, release = store.limits.hold_take, store.limits.hold_release

        def counted_take(*args: object, **kwargs: object) -> object:
            self.takes += 1
            return take(*args, **kwargs)  # type: ignore[arg-type]

        def counted_release(lease: str) -> None:
            self.releases += 1
            release(lease)

        store.limits.hold_take = counted_take  # type: ignore[method-assign]
        store.limits.hold_release = counted_release  # type: ignore[method-assign]


async def test_holds_one_after_another_write_one_lease_and_release_it_once_nobody_takes_it_over(
    two_workers: tuple[Store, Store], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limits_module, "PARK_S", 0.3)
    a, _ = two_workers
    writes = Writes(a)
    limits = Limits(LimitSettings.parse("long_polls=1"), a)
    for _ in range(5):
        async with limits.ahold("long_poll", "ana", 5):
            assert held(a) == 1
    assert (writes.takes, writes.releases) == (1, 0)
    assert held(a) == 1, "parked: it still counts"
    await asyncio.sleep(0.6)
    assert (writes.takes, writes.releases) == (1, 1)
    assert held(a) == 0
    async with limits.ahold("long_poll", "ana", 5):  # a new lease once the parked one is gone
        assert held(a) == 1
    assert writes.takes == 2
    await limits.release_parked()
    assert held(a) == 0 and writes.releases == 2


async def test_a_parked_lease_counts_on_other_workers_until_it_is_released(two_workers: tuple[Store, Store]) -> None:
    a, b = two_workers
    settings = LimitSettings.parse("long_polls=1")
    one, two = Limits(settings, a), Limits(settings, b)
    await hold(one, "ana")
    with pytest.raises(LimitReached, match="ana has 1 long-polls"):
        await hold(two, "ana")
    async with one.ahold("long_poll", "ana", 5):  # this worker takes it over at once
        with pytest.raises(LimitReached):
            await hold(one, "ana")  # a second one at once is still refused
    await hold(two, "bea")  # another agent is not counted
    await one.release_parked()
    async with two.ahold("long_poll", "ana", 5):
        assert held(a) == 2  # ana's on the second worker, and bea's parked there
    await two.release_parked()
    assert held(a) == 0


async def test_a_parked_lease_near_its_expiry_is_released_and_a_new_one_taken(
    two_workers: tuple[Store, Store],
) -> None:
    a, _ = two_workers
    clock = FakeClock()
    writes = Writes(a)
    limits = Limits(LimitSettings.parse("long_polls=1"), a, clock=clock)
    await hold(limits, "ana", 10)
    clock.advance(36)  # the lease (10 s + 30) has 4 s left: not enough for another 10 s hold
    async with limits.ahold("long_poll", "ana", 10):
        await asyncio.sleep(0.1)  # the old lease's release runs meanwhile
        assert held(a) == 1
    assert (writes.takes, writes.releases) == (2, 1)
    await limits.release_parked()
    assert held(a) == 0 and writes.releases == 2

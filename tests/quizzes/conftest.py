"""Shared fixtures of the quiz tests: a fake clock, a memory store, a service over the Market Fortune bank.

Also the samples several files check: the item a generator makes from a seed is made once per
test process (:func:`made`). The default run checks each generator on :data:`QUICK_SEEDS`, enough
to catch a malformed, leaking or wrong item; the full-size versions of the same checks, over
hundreds of seeds, are marked ``slow``.
"""

from __future__ import annotations

from functools import cache

import pytest
from club_agentes.quizzes.bank import Bank, load_bank
from club_agentes.quizzes.harness import QuizService
from club_agentes.quizzes.model import GENERATORS, Item
from club_agentes.quizzes.store import MemoryQuizStore

SECRET = b"k" * 32
START = 1_800_000_000.0  # 2027-01-15T08:00:00Z
QUICK_SEEDS = range(5)
"""The seeds each generator is checked on in the default run (the slow set checks hundreds)."""


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self, t: float = START) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


@cache
def market_fortune_bank() -> Bank:
    return load_bank(["market-fortune"])


@cache
def made(key: str, seed: int) -> Item:
    """Return the item the generator ``key`` (``"<game>/<name>"``) makes from ``seed``, made once per process.

    Raises:
        KeyError: no generator is registered under ``key``.
    """
    import club_agentes.quizzes.generators  # noqa: F401  (registers every game's generators)

    return GENERATORS[key].make(seed)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def store() -> MemoryQuizStore:
    return MemoryQuizStore()


@pytest.fixture
def service(store: MemoryQuizStore, clock: FakeClock) -> QuizService:
    return QuizService(market_fortune_bank(), store, clock=clock, secret=SECRET)

"""Shared fixtures of the quiz tests: a fake clock, a memory store, a service over the Market Fortune bank."""

from __future__ import annotations

from functools import cache

import pytest
from club_agentes.quizzes.bank import Bank, load_bank
from club_agentes.quizzes.harness import QuizService
from club_agentes.quizzes.store import MemoryQuizStore

SECRET = b"k" * 32
START = 1_800_000_000.0  # 2027-01-15T08:00:00Z


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


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def store() -> MemoryQuizStore:
    return MemoryQuizStore()


@pytest.fixture
def service(store: MemoryQuizStore, clock: FakeClock) -> QuizService:
    return QuizService(market_fortune_bank(), store, clock=clock, secret=SECRET)

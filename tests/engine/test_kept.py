"""The core step kit's caching (``engine/core/steps.py``): ``kept`` lasts one state version, ``kept_while`` as long
as a part of the state stands at its count, and neither is ever read for another part or a copy."""

from __future__ import annotations

from typing import Any

from club_agentes.engine.core.steps import kept, kept_while


class Part:
    """A part of a toy state that counts its own changes."""

    def __init__(self) -> None:
        self.count = 0
        self.value = 0


class Toy:
    """A toy state: a version, a memo slot, and one part."""

    def __init__(self) -> None:
        self.version = 0
        self.memo: Any = None
        self.part = Part()


def counting() -> tuple[list[int], Any]:
    """Return a call log and a work function that reads the part's value and logs each call."""
    calls: list[int] = []

    def work(state: Toy) -> int:
        calls.append(state.part.value)
        return state.part.value * 10

    return calls, work


def test_kept_while_lasts_over_versions_until_the_part_counts_a_change() -> None:
    state = Toy()
    calls, work = counting()
    state.part.value = 1
    assert kept_while(state, work, state.part, state.part.count) == 10
    state.version += 1  # a move that changes nothing the work reads (a pass)
    assert kept_while(state, work, state.part, state.part.count) == 10
    assert calls == [1]
    state.part.value = 2
    state.part.count += 1
    state.version += 1
    assert kept_while(state, work, state.part, state.part.count) == 20
    assert calls == [1, 2]


def test_kept_while_never_mistakes_a_new_part_at_the_same_count() -> None:
    state = Toy()
    calls, work = counting()
    state.part.value = 3
    assert kept_while(state, work, state.part, 0) == 30
    state.part = Part()  # a new negotiation: its count starts again at 0
    state.part.value = 4
    assert kept_while(state, work, state.part, 0) == 40
    assert calls == [3, 4]


def test_kept_while_keeps_each_work_apart() -> None:
    state = Toy()
    calls_a, work_a = counting()
    calls_b, work_b = counting()
    state.part.value = 5
    assert kept_while(state, work_a, state.part, 0) == 50
    assert kept_while(state, work_b, state.part, 0) == 50
    assert kept_while(state, work_a, state.part, 0) == 50
    assert (calls_a, calls_b) == ([5], [5])


def test_kept_lasts_one_version_only() -> None:
    state = Toy()
    calls, work = counting()
    state.part.value = 6
    assert kept(state, work) == 60
    assert kept(state, work) == 60
    state.version += 1
    assert kept(state, work) == 60
    assert calls == [6, 6]


def test_a_state_without_its_memo_works_everything_out_again() -> None:
    state = Toy()
    calls, work = counting()
    assert kept_while(state, work, state.part, 0) == 0
    state.memo = None  # what a copy, a restored snapshot or a sampled world starts with
    assert kept_while(state, work, state.part, 0) == 0
    assert calls == [0, 0]

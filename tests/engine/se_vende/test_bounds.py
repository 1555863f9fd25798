"""Bounded tables (issue 11.1): no seat makes more decisions in a round than the card set allows, and
the longest tables the options permit stay far below the stated bound."""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

import pytest
from club_agentes.engine.core import RandomBot, play, replay
from club_agentes.engine.se_vende.bounds import ROUND_BOUND, table_bound
from club_agentes.engine.se_vende.config import LONGEST_TABLE, MAX_TURN_LIMIT
from club_agentes.engine.se_vende.state import State

from tests.engine.se_vende.helpers import GAME
from tests.engine.se_vende.stall_bots import Grinder, Staller


def _play_counted(bots: list[Any], seed: int, turn_limit: int) -> tuple[int, Counter[tuple[int, int]]]:
    per_round: Counter[tuple[int, int]] = Counter()

    def count(state: State, seat: int, moves: list[Any]) -> None:
        per_round[state.round, seat] += 1

    config = GAME.make_config(len(bots), {"turn_limit": turn_limit})
    record = play(GAME, config, seed, bots, on_decision=count)
    assert record.finished
    assert record.decisions <= table_bound(len(bots), turn_limit)
    return record.decisions, per_round


def test_the_bound_is_stated_in_the_options() -> None:
    assert LONGEST_TABLE == table_bound(4, MAX_TURN_LIMIT) == 4 * (2 + 100 * ROUND_BOUND)
    assert f"{LONGEST_TABLE:,}" in GAME.config_schema()["properties"]["turn_limit"]["description"]


@pytest.mark.parametrize("action", ["explorar-5", "explorar-1-1", None])
def test_a_stalling_table_ends_at_the_turn_limit_within_the_bound(action: str | None) -> None:
    decisions, per_round = _play_counted([Staller(action) for _ in range(4)], 3, MAX_TURN_LIMIT)
    assert max(r for r, _ in per_round) == MAX_TURN_LIMIT
    assert max(per_round.values()) <= ROUND_BOUND
    assert decisions < LONGEST_TABLE // 10


def test_busy_tables_stay_within_the_round_bound() -> None:
    for seed, bots in ((1, [Grinder(10) for _ in range(3)]), (2, [RandomBot() for _ in range(4)])):
        _, per_round = _play_counted(bots, seed, 30)
        assert max(per_round.values()) <= ROUND_BOUND


@pytest.mark.slow
def test_longest_tables_measured() -> None:
    """The soak behind the figures of se-vende/rulings/limite-de-rondas (prints them)."""
    worst = (0, 0.0, "")
    for seed in range(1, 31):
        for name, bots in (
            ("grinder", [Grinder(seed % 3 + 9) for _ in range(4)]),
            ("staller", [Staller("explorar-1-1") for _ in range(4)]),
            ("random", [RandomBot() for _ in range(4)]),
        ):
            decisions, per_round = _play_counted(bots, seed, MAX_TURN_LIMIT)
            assert max(per_round.values()) <= ROUND_BOUND
            worst = max(worst, (decisions, 0.0, name))
    config = GAME.make_config(4, {"turn_limit": MAX_TURN_LIMIT})
    record = play(GAME, config, 1, [Grinder(10) for _ in range(4)])
    start = time.process_time()
    replay(GAME, config, 1, record.moves)
    engine = time.process_time() - start
    print(f"longest table: {worst[0]} decisions ({worst[2]} bots); replaying a grinder table: {engine:.3f} s")
    assert worst[0] < LONGEST_TABLE

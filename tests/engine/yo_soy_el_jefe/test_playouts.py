"""Whole games: random and bot games end, replay exactly, and are never cut while they still close deals."""

from __future__ import annotations

import json
import statistics
from typing import Any

import pytest
from club_agentes.engine.core import RandomBot, play, replay
from club_agentes.engine.yo_soy_el_jefe import rules as R
from club_agentes.engine.yo_soy_el_jefe.bots import HeuristicBot
from club_agentes.engine.yo_soy_el_jefe.config import DEFAULT_FAILURE_LIMIT, MAX_FAILURE_LIMIT

from .helpers import game


def runs_before_deals(seats: int, options: dict[str, Any], seed: int, bots: list[Any]) -> tuple[Any, list[int]]:
    """Play a game; return its record and, for each closed deal, how many negotiations failed just before it."""
    config = game.make_config(seats, options)
    runs: list[int] = []

    def watch(state: Any, seat: int, moves: list) -> None:
        pass

    record = play(game, config, seed, bots, on_decision=watch)
    state = game.new_game(config, seed)
    for seat, move in record.moves:
        before, failed = state.deals_done, state.failed_in_a_row
        game.apply(state, seat, move)
        if state.deals_done > before:
            runs.append(failed)
    return record, runs


def test_4_finalizacion_no_game_is_cut_while_it_still_makes_deals() -> None:
    """ "A partir del décimo acuerdo ... el juego termina inmediatamente ... Cuando se complete la decimoquinta
    transacción, el juego termina": games that close deals end as section 4 says, and the safety limit on failed
    negotiations in a row lies far above any run of failures after which a deal still closed."""
    longest = 0
    for seats in range(2, 7):
        for seed in range(1, 3):
            for lineup in ("heuristic", "mixed"):
                bots = [
                    HeuristicBot() if lineup == "heuristic" or (s + seed) % 2 == 0 else RandomBot()
                    for s in range(seats)
                ]
                record, runs = runs_before_deals(seats, {"failed_negotiations_limit": MAX_FAILURE_LIMIT}, seed, bots)
                assert record.finished
                result = game.result(record.state)
                assert result.rule_id == R.END_DIE, (seats, seed, lineup, result.reason)
                longest = max(longest, *runs)
    assert longest < DEFAULT_FAILURE_LIMIT // 2


def test_random_games_end_and_replay_exactly() -> None:
    for seats, options in game.sample_configs():
        config = game.make_config(seats, options)
        record = play(game, config, 7, [RandomBot() for _ in range(seats)], max_decisions=50_000)
        assert record.finished and game.pending(record.state).kind == "over"
        again = replay(game, config, 7, record.moves)
        assert json.dumps(game.snapshot(again), sort_keys=True) == json.dumps(
            game.snapshot(record.state), sort_keys=True
        )


def test_cards_are_conserved() -> None:
    config = game.make_config(5, {})

    def check(state: Any, seat: int, moves: list) -> None:
        cards = [c for h in state.hands for c in h] + state.deck + state.discard
        if state.neg is not None:
            cards += list(state.neg.placed.values()) + list(state.neg.travelled.values())
        if state.stop is not None:
            cards += state.stop.cards
        assert sorted(cards) == list(range(98))
        assert [sum(c) for c in state.counts] == [len(h) for h in state.hands]

    play(game, config, 12, [RandomBot() for _ in range(5)], on_decision=check)


@pytest.mark.slow
def test_soak_decisions_per_game_and_the_longest_table() -> None:
    """60 random games per sample configuration (at the highest failure limit) and 30 heuristic ones per seat count
    all end, the heuristic ones by the end die; prints median and p99 decisions per game and the longest bots-only
    table (the figures quoted in the rulings came from larger runs of the same loops)."""
    longest = (0, None)
    for seats, options in game.sample_configs():
        config = game.make_config(seats, {**options, "failed_negotiations_limit": MAX_FAILURE_LIMIT})
        lengths = []
        for seed in range(1, 61):
            record = play(game, config, seed, [RandomBot() for _ in range(seats)], max_decisions=200_000)
            assert record.finished, (seats, options, seed)
            lengths.append(record.decisions)
            longest = max(longest, (record.decisions, (seats, json.dumps(options), seed)))
        lengths.sort()
        print(seats, options, "median", statistics.median(lengths), "p99", lengths[int(0.99 * len(lengths)) - 1])
    for seats in range(2, 7):
        for seed in range(1, 31):
            record = play(game, game.make_config(seats, {}), seed, [HeuristicBot() for _ in range(seats)])
            assert record.finished and game.result(record.state).rule_id == R.END_DIE
    print("longest bots-only table:", longest)

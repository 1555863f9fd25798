"""Table options (issue 11.1): documented ranges, one-sentence refusals, and the longest legal table bounded."""

from __future__ import annotations

import time
from typing import Any

import jsonschema
import pytest
from club_agentes.engine.core import ConfigError, RandomBot, play
from club_agentes.engine.market_fortune import config as cfg

from tests.engine.market_fortune.helpers import GAME


def test_config_round_trips_and_defaults() -> None:
    config = GAME.make_config(4, {"mode": "campeonato", "game_limit": 5})
    assert (config.mode, config.turn_limit, config.game_limit) == ("campeonato", 400, 5)
    assert GAME.make_config(4, config.to_json()) == config
    default = GAME.make_config(3)
    assert (default.mode, default.to_json()) == ("fortuna", {})


@pytest.mark.parametrize(
    ("seats", "options", "words"),
    [
        (1, {}, "2 to 6 seats"),
        (7, {}, "2 to 6 seats"),
        (True, {}, "2 to 6 seats"),
        (4, {"colour": "red"}, "accepts: mode, turn_limit, game_limit"),
        (4, {"mode": "torneo"}, "familia, fortuna, campeonato"),
        (4, {"mode": ["fortuna"]}, "familia, fortuna, campeonato"),
        (4, {"turn_limit": 0}, "whole number from 1 to 1000"),
        (4, {"turn_limit": 100_000}, "whole number from 1 to 1000"),
        (4, {"turn_limit": "10"}, "whole number from 1 to 1000"),
        (4, {"turn_limit": True}, "whole number from 1 to 1000"),
        (4, {"mode": "campeonato", "game_limit": 1000}, "whole number from 1 to 20"),
        (4, {"mode": "campeonato", "game_limit": 0}, "whole number from 1 to 20"),
        (4, {"game_limit": 3}, "only to mode 'campeonato'"),
    ],
)
def test_bad_configs_are_refused_with_one_sentence_naming_what_is_accepted(
    seats: Any, options: dict[str, Any], words: str
) -> None:
    with pytest.raises(ConfigError) as err:
        GAME.make_config(seats, options)
    assert words in str(err.value) and "\n" not in str(err.value)


def test_the_abusive_table_of_issue_11_is_refused() -> None:
    with pytest.raises(ConfigError) as err:
        GAME.make_config(6, {"mode": "campeonato", "turn_limit": 100_000})
    assert str(err.value) == "option 'turn_limit' must be a whole number from 1 to 1000, not 100000"


def test_config_schema_bounds_and_describes_every_option() -> None:
    schema = GAME.config_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["additionalProperties"] is False
    for name, prop in schema["properties"].items():
        assert prop["description"] and "default" in prop, name
        if prop["type"] == "integer":
            assert "minimum" in prop and "maximum" in prop, name
            assert f"{prop['minimum']} to {prop['maximum']}" in prop["description"], name
            GAME.make_config(4, {name: prop["maximum"], **({"mode": "campeonato"} if name == "game_limit" else {})})
    for seats, options in GAME.sample_configs():
        jsonschema.Draft202012Validator(schema).validate(options)
        GAME.make_config(seats, options)
    assert {s for s, _ in GAME.sample_configs()} == set(range(2, 7))
    assert {o.get("mode", "fortuna") for _, o in GAME.sample_configs()} == {"familia", "fortuna", "campeonato"}


LARGEST = {"mode": "campeonato", "turn_limit": cfg.MAX_TURN_LIMIT, "game_limit": cfg.MAX_GAME_LIMIT}


def _longest(seeds: range, seat_counts: tuple[int, ...] = (2, 6)) -> tuple[int, float]:
    most, seconds = 0, 0.0
    for seats in seat_counts:
        for seed in seeds:
            # Random bots only on odd seeds (they rarely reach 100M: the longest matches), mixed on even ones.
            bots = [GAME.make_bot("heuristic") if seed % 2 == 0 and s == 0 else RandomBot() for s in range(seats)]
            start = time.process_time()
            rec = play(GAME, GAME.make_config(seats, LARGEST), seed, bots, max_decisions=cfg.LONGEST_TABLE_DECISIONS)
            spent = time.process_time() - start
            assert rec.finished, f"{seats} seats, seed {seed}: not over within {cfg.LONGEST_TABLE_DECISIONS} decisions"
            most, seconds = max(most, rec.decisions), max(seconds, spent)
    return most, seconds


def test_the_largest_table_ends_within_the_stated_bound() -> None:
    most, _ = _longest(range(1, 2), (3,))
    assert most <= cfg.LONGEST_TABLE_DECISIONS


@pytest.mark.slow
def test_the_largest_table_ends_within_the_stated_bound_soak() -> None:
    most, seconds = _longest(range(1, 21))
    print(f"longest bots-only table at the largest options: {most} decisions, {seconds:.2f} s of engine CPU")
    assert most <= cfg.LONGEST_TABLE_DECISIONS // 2

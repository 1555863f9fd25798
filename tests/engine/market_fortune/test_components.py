"""Components as checked data, the generated card compendium, move forms and table options."""

from __future__ import annotations

import copy
import json
import tomllib
from typing import Any

import jsonschema
import pytest
from club_agentes.engine.core import ConfigError, InvalidMove
from club_agentes.engine.market_fortune import publish
from club_agentes.engine.market_fortune.components import (
    CARD_ID,
    COMPONENTS,
    DATA_FILE,
    RULEBOOK_NAMES,
    STRATEGIES,
    ComponentError,
    parse_components,
)
from club_agentes.engine.market_fortune.moves import Build, Play, Risk
from club_agentes.rules_corpus import load_corpus

from tests.engine.market_fortune.helpers import GAME, snap, table

RAW = tomllib.loads(DATA_FILE.read_text(encoding="utf-8"))


def test_components_match_the_rulebook() -> None:
    assert len(COMPONENTS.industries) == 12
    assert len(CARD_ID) == 180 and len(set(CARD_ID)) == 180
    assert sum(1 for c in CARD_ID if c.startswith("MF-A-")) == 60
    assert sum(1 for c in CARD_ID if c.startswith("MF-R-")) == 60
    assert sum(s.copies for s in STRATEGIES) == 60
    assert [s.name for s in STRATEGIES] == [n for colour in RULEBOOK_NAMES.values() for n in colour]
    assert (COMPONENTS.plus_faces, COMPONENTS.minus_faces) == (4, 2)
    assert all("{" not in s.text for s in STRATEGIES)  # every placeholder filled in


def _broken(edit: Any) -> str:
    data = copy.deepcopy(RAW)
    edit(data)
    with pytest.raises(ComponentError) as err:
        parse_components(data)
    return str(err.value)


def test_loader_names_file_card_and_field() -> None:
    def unknown_effect(d: dict[str, Any]) -> None:
        d["strategy"][0]["effect"] = "summon_dragon"

    msg = _broken(unknown_effect)
    assert "engine/market_fortune/components.toml" in msg and "'Robo'" in msg and "field 'effect'" in msg
    assert "summon_dragon" in msg

    def missing_text(d: dict[str, Any]) -> None:
        del d["strategy"][1]["text"]

    assert "'Colapso de Mercado'" in _broken(missing_text) and "field 'text'" in _broken(missing_text)

    def wrong_colour(d: dict[str, Any]) -> None:
        d["strategy"][0]["colour"] = "azul"

    assert "field 'name'" in _broken(wrong_colour)

    def blue_effect_on_red(d: dict[str, Any]) -> None:
        d["strategy"][0]["effect"] = "cancel_any"

    assert "is a azul effect" in _broken(blue_effect_on_red)

    def bad_params(d: dict[str, Any]) -> None:
        d["strategy"][3]["params"] = {}

    assert "'Fortuna'" in _broken(bad_params) and "field 'params'" in _broken(bad_params)

    def unknown_placeholder(d: dict[str, Any]) -> None:
        d["strategy"][0]["text"] = "Toma {cartas} cartas."

    assert "placeholders ['cartas']" in _broken(unknown_placeholder)

    def wrong_total(d: dict[str, Any]) -> None:
        d["strategy"][0]["copies"] = 4

    assert "adds up to 61" in _broken(wrong_total)

    def eleven_industries(d: dict[str, Any]) -> None:
        d["industry"].pop()

    assert "12 industries" in _broken(eleven_industries)

    def lost_name(d: dict[str, Any]) -> None:
        d["strategy"] = [s for s in d["strategy"] if s["name"] != "Dividendos"]

    assert "Dividendos" in _broken(lost_name)


def test_committed_compendium_equals_the_generator_output() -> None:
    assert publish.CARDS_FILE.read_text(encoding="utf-8") == publish.render_cards_toml(), (
        "run: python -m club_agentes.engine.market_fortune.publish"
    )


def test_compendium_is_readable_from_the_corpus() -> None:
    corpus = load_corpus()
    area = corpus.get("market-fortune/cartas")
    assert area.kind == "component" and "no el reglamento impreso" in area.text
    for s in STRATEGIES:
        section = corpus.get(s.section)
        assert section.kind == "component" and s.text in section.text and s.name == section.title
    for part in ("industrias", "acciones", "rendimientos", "dado-fortune", "estrategias"):
        assert corpus.has(f"market-fortune/cartas/{part}")
    text = "\n".join(corpus.get(sid).text for sid in area.children)
    assert not any(cid in text for cid in CARD_ID), "the compendium must not name concrete card ids"


def test_every_ruling_the_engine_knows_is_in_the_corpus() -> None:
    from club_agentes.engine.market_fortune import rules as rid

    corpus = load_corpus()
    assert all(corpus.has(r) for r in rid.RULING_IDS | rid.ALL_RULE_IDS)


# ---------------------------------------------------------------- moves


SAMPLE_MOVES = [
    "build stock-deck",
    "take return-discard",
    "discard MF-A-ENE-1",
    "risk MF-A-ENE-3 MF-R-ENE-2",
    "dominate",
    "play MF-E-ROBO-1 target=2",
    "play MF-E-CORRECCION-1 target=1 investment=0",
    "play MF-E-INTERES-1 investment=1 swap=MF-R-ENE-4",
    "play MF-E-ASTUTO-1 swap=MF-A-TEC-2 source=stock-discard",
    "defend MF-E-CONTROL-1",
    "decline",
    "optimise 0 MF-A-ENE-5",
    "attach MF-E-INNOVACION-1 2",
    "declare",
    "reveal",
    "return 3",
    "skip",
    "pass",
]


@pytest.mark.parametrize("text", SAMPLE_MOVES)
def test_moves_round_trip_through_text_and_json(text: str) -> None:
    move = GAME.parse_move(text)
    assert move.text() == text
    assert GAME.parse_move(move.to_json()) == move
    assert GAME.parse_move(json.loads(json.dumps(move.to_json()))) == move
    jsonschema.Draft202012Validator(GAME.move_schema()).validate(move.to_json())


def test_move_schema_is_valid_and_documents_every_type() -> None:
    schema = GAME.move_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    described = schema["properties"]["type"]["description"]
    for tag in schema["properties"]["type"]["enum"]:
        assert f"'{tag}'" in described
    assert all("description" in p for p in schema["properties"].values())


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ("", "empty move"),
        ("fly away", "unknown move type"),
        ("risk MF-A-ENE-1", "written 'risk <stock> <return>'"),
        ("discard MF-X-1", "unknown card id"),
        ("build attic", "unknown source"),
        ("play MF-E-ROBO-1 to=2", "key=value"),
        ({"type": "build"}, "needs the field 'source'"),
        ({"type": "risk", "stock": 3, "return": "MF-R-ENE-1"}, "must be a string"),
        ({"type": "play", "card": "MF-E-ROBO-1", "target": -1}, "non-negative integer"),
        ({"type": "play", "card": "MF-E-ROBO-1", "extra": 1}, "no field 'extra'"),
        ({"type": "optimise", "investment": True, "card": "MF-A-ENE-1"}, "non-negative integer"),
        ({"kind": "build"}, "unknown move type"),
        (42, "JSON object"),
    ],
)
def test_malformed_moves_are_invalid_with_one_sentence(data: Any, words: str) -> None:
    with pytest.raises(InvalidMove) as err:
        GAME.parse_move(data)
    assert words in str(err.value) and "\n" not in str(err.value)


def test_apply_of_a_malformed_move_changes_nothing() -> None:
    st = table()
    before = snap(st)
    with pytest.raises(InvalidMove):
        GAME.apply(st, 0, {"type": "build", "source": "attic"})
    assert snap(st) == before


def test_moves_are_hashable_ordered_values() -> None:
    assert Build("stock-deck") == GAME.parse_move({"type": "build", "source": "stock-deck"})
    assert len({Risk("MF-A-ENE-1", "MF-R-ENE-1"), Risk("MF-A-ENE-1", "MF-R-ENE-1")}) == 1
    assert Play("MF-E-ROBO-1", 1).to_json() == {"type": "play", "card": "MF-E-ROBO-1", "target": 1}


# ---------------------------------------------------------------- table options


def test_config_round_trips_and_defaults() -> None:
    cfg = GAME.make_config(4, {"mode": "campeonato", "game_limit": 5})
    assert (cfg.mode, cfg.turn_limit, cfg.game_limit) == ("campeonato", 400, 5)
    assert GAME.make_config(4, cfg.to_json()) == cfg
    default = GAME.make_config(3)
    assert (default.mode, default.to_json()) == ("fortuna", {})


@pytest.mark.parametrize(
    ("seats", "options", "words"),
    [
        (1, {}, "2 to 6 seats"),
        (7, {}, "2 to 6 seats"),
        (4, {"colour": "red"}, "accepts: mode, turn_limit, game_limit"),
        (4, {"mode": "torneo"}, "familia, fortuna, campeonato"),
        (4, {"turn_limit": 0}, "integer from 1"),
        (4, {"turn_limit": "10"}, "integer from 1"),
        (4, {"turn_limit": True}, "integer from 1"),
        (4, {"game_limit": 3}, "only to mode 'campeonato'"),
    ],
)
def test_bad_configs_are_refused_with_what_is_accepted(seats: int, options: dict[str, Any], words: str) -> None:
    with pytest.raises(ConfigError) as err:
        GAME.make_config(seats, options)
    assert words in str(err.value)


def test_config_schema_describes_every_option() -> None:
    schema = GAME.config_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["additionalProperties"] is False
    for name, prop in schema["properties"].items():
        assert prop["description"] and "default" in prop, name
    for seats, options in GAME.sample_configs():
        jsonschema.Draft202012Validator(schema).validate(options)
        GAME.make_config(seats, options)
    assert {s for s, _ in GAME.sample_configs()} == set(range(2, 7))
    assert {o.get("mode", "fortuna") for _, o in GAME.sample_configs()} == {"familia", "fortuna", "campeonato"}

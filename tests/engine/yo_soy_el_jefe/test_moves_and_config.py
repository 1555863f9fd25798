"""Moves parse from JSON and text (English and the rulebook's Spanish words); options are checked."""

from __future__ import annotations

import jsonschema
import pytest
from club_agentes.engine.core import ConfigError, InvalidMove
from club_agentes.engine.yo_soy_el_jefe.moves import (
    BY_TYPE,
    Accept,
    Discard,
    Hire,
    Negotiate,
    PlaceFamily,
    PlayBoss,
    Price,
    Stop,
    Travel,
)

from .helpers import game

SAMPLES = [
    "marker 9",
    "negotiate",
    "roll",
    "draw",
    "discard hire",
    "discard family rojo",
    "discard travel gris",
    "family rojo",
    "offer azul",
    "bid 1 rojo",
    "price 8M",
    "price 2 dividends",
    "accept 1 rojo",
    "refuse 3 verde",
    "travel investor 0 azul",
    "travel family 3 azul grey",
    "hire amarillo",
    "boss keep",
    "boss restart",
    "stop",
    "pass",
    "close",
    "fail",
]


@pytest.mark.parametrize("text", SAMPLES)
def test_round_trips_and_schema(text: str) -> None:
    move = game.parse_move(text)
    assert move.text() == text
    assert game.parse_move(move.to_json()) == move
    jsonschema.Draft202012Validator(game.move_schema()).validate(move.to_json())


def test_every_move_type_has_a_sample() -> None:
    assert {game.parse_move(t).type for t in SAMPLES} == set(BY_TYPE)


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("¡Vamos a negociar!", Negotiate()),
        ("negociar", Negotiate()),
        ("parada", Stop()),
        ("bloqueo", Stop()),
        ("familia roja", PlaceFamily("rojo")),
        ("tribu amarilla", PlaceFamily("amarillo")),
        ("clan green", PlaceFamily("verde")),
        ("contratación amarillo", Hire("amarillo")),
        ("empleo rosa", Hire("rosa")),
        ("precio 2 dividendos", Price(2, "dividends")),
        ("precio 10 millones", Price(10, "M")),
        ("aceptar asiento 0 amarillo", Accept(0, "amarillo")),
        ("jefe reiniciar", PlayBoss(True)),
        ("viaje inversor 0 azul gris", Travel("investor", 0, "azul", True)),
        ("descartar empleo", Discard("hire")),
        ("Uno, dos", game.parse_move("close")),
    ],
)
def test_spanish_words_are_accepted(text: str, move: object) -> None:
    assert game.parse_move(text) == move


@pytest.mark.parametrize(
    "data",
    [
        "fly away",
        "",
        "price 8",
        "offer purple",
        "bid rojo",
        "marker 17",
        "discard hire rojo",
        "boss maybe",
        {"type": "price", "amount": "8", "unit": "M"},
        {"type": "price", "amount": 8, "unit": "euros"},
        {"type": "offer", "colour": "rojo", "extra": 1},
        {"type": "offer"},
        {"type": "teleport"},
        {"type": "travel", "target": "investor", "seat": 9, "colour": "azul"},
        {"type": "boss", "restart": "yes"},
        42,
    ],
)
def test_malformed_moves_are_invalid(data: object) -> None:
    with pytest.raises(InvalidMove) as err:
        game.parse_move(data)  # type: ignore[arg-type]
    assert str(err.value).endswith(".")


def test_apply_refuses_foreign_values() -> None:
    state = game.new_game(game.make_config(3, {}), 1)
    with pytest.raises(InvalidMove):
        game.apply(state, 0, "roll")
    with pytest.raises(InvalidMove):
        game.apply(state, 7, game.parse_move("roll"))


def test_config_options_and_errors() -> None:
    cfg = game.make_config(4, {"quick_game": True, "turn_limit": 50})
    assert cfg.quick_game and cfg.turn_limit == 50 and not cfg.two_player_rules
    assert game.make_config(4, cfg.to_json()) == cfg
    assert game.make_config(2, {}).two_player_rules
    for seats, options in [
        (1, {}),
        (7, {}),
        (4, {"speed": 3}),
        (4, {"turn_limit": 0}),
        (4, {"turn_limit": True}),
        (4, {"first_player": 4}),
        (4, {"marker_start": 17}),
        (4, {"quick_game": "yes"}),
        (2, {"two_player_rules": False}),
    ]:
        with pytest.raises(ConfigError) as err:
            game.make_config(seats, options)
        assert str(err.value).endswith(".")


def test_config_schema_describes_every_option() -> None:
    schema = game.config_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    from club_agentes.engine.yo_soy_el_jefe.state import OPTION_NAMES

    assert set(schema["properties"]) == set(OPTION_NAMES)
    for name, prop in schema["properties"].items():
        assert prop["description"] and "efault" in prop["description"], name
    jsonschema.validate({"turn_limit": 80, "two_player_rules": None, "quick_game": True}, schema)

"""Moves through the shared codec: every type round-trips (JSON, text, schema), older and Spanish forms parse,
malformed input is refused with one sentence."""

from __future__ import annotations

import jsonschema
import pytest
from club_agentes.engine.core import InvalidMove
from club_agentes.engine.yo_soy_el_jefe.moves import (
    BY_TYPE,
    MOVES,
    Accept,
    Bid,
    Discard,
    Hire,
    Negotiate,
    PlaceFamily,
    PlayBoss,
    Price,
    Refuse,
    Stop,
    Travel,
    Withdraw,
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
    "bid seat 1 rojo",
    "price 8M",
    "price 2 dividends",
    "accept seat 1 rojo",
    "accept seat 0 amarillo and close",
    "refuse seat 3 verde",
    "withdraw seat 2 rosa",
    "travel investor seat 0 azul",
    "travel family seat 3 azul grey",
    "hire amarillo",
    "boss keep",
    "boss restart",
    "stop",
    "pass",
    "close",
    "fail",
]
VALIDATOR = jsonschema.Draft202012Validator(game.move_schema())


@pytest.mark.parametrize("text", SAMPLES)
def test_round_trips_and_schema(text: str) -> None:
    move = game.parse_move(text)
    assert move.text() == text
    assert game.parse_move(move.to_json()) == move
    VALIDATOR.validate(move.to_json())


def test_every_move_type_has_a_sample_and_an_example() -> None:
    assert {game.parse_move(t).type for t in SAMPLES} == set(BY_TYPE)
    for tag, example in MOVES.examples().items():
        assert game.parse_move(example).type == tag


def test_seats_are_written_seat_n() -> None:
    for text in SAMPLES:
        words = text.split()
        for i, w in enumerate(words):
            if w.isdigit() and words[0] not in ("marker",) and words[0] != "price":
                assert words[i - 1] == "seat", text


@pytest.mark.parametrize(
    ("old", "move"),
    [
        ("accept 1 rojo", Accept(1, "rojo")),
        ("bid 1 rojo", Bid(1, "rojo")),
        ("refuse 3 verde", Refuse(3, "verde")),
        ("travel investor 0 azul", Travel("investor", 0, "azul")),
        ("travel family 3 azul grey", Travel("family", 3, "azul", True)),
        ("withdraw 2 rosa", Withdraw(2, "rosa")),
        ({"type": "accept", "seat": 1, "colour": "rojo"}, Accept(1, "rojo")),
        (
            {"type": "travel", "target": "investor", "seat": 0, "colour": "azul", "grey": False},
            Travel("investor", 0, "azul"),
        ),
        ({"type": "discard", "card": "boss", "colour": None}, Discard("boss")),
        ({"type": "price", "amount": 8, "unit": "M"}, Price(8, "M")),
        ({"type": "boss", "restart": True}, PlayBoss(True)),
    ],
)
def test_older_forms_keep_parsing(old: object, move: object) -> None:
    assert game.parse_move(old) == move


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
        ("price 10m", Price(10, "M")),
        ("aceptar asiento 0 amarillo", Accept(0, "amarillo")),
        ("aceptar asiento 0 amarillo y cerrar", Accept(0, "amarillo", True)),
        ("retirar asiento 1 rojo", Withdraw(1, "rojo")),
        ("jefe reiniciar", PlayBoss(True)),
        ("¡Soy el jefe! mantener", PlayBoss(False)),
        ("viaje inversor 0 azul gris", Travel("investor", 0, "azul", True)),
        ("descartar empleo", Discard("hire")),
        ("Uno, dos", game.parse_move("close")),
        ("Uno, dos, la transacción se ha completado", game.parse_move("close")),
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
        "discard family",
        "boss maybe",
        "accept seat 9 rojo",
        {"type": "price", "amount": "ocho", "unit": "M"},
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
    assert "\n" not in str(err.value) and len(str(err.value)) < 400


def test_apply_refuses_foreign_values_and_bad_seats() -> None:
    state = game.new_game(game.make_config(3, {}), 1)
    with pytest.raises(InvalidMove):
        game.apply(state, 0, "roll")  # type: ignore[arg-type]
    for seat in (7, -1, True, "1"):
        with pytest.raises(InvalidMove) as err:
            game.apply(state, seat, game.parse_move("roll"))  # type: ignore[arg-type]
        assert "seat must be a whole number from 0 to 2" in str(err.value)

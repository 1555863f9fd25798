"""Moves round-trip through JSON and text, match the schema, and malformed input is refused."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
from club_agentes.engine.core import InvalidMove
from club_agentes.engine.se_vende.moves import (
    ACTION_CODES,
    PLACE_NONE,
    ChooseAction,
    ConsumeGood,
    Discard,
    Done,
    Keep,
    Pay,
    Place,
    Produce,
    Sell,
    UsePower,
)

from tests.engine.se_vende.helpers import GAME

ALL = [
    *(ChooseAction(c) for c in ACTION_CODES),
    Keep("SV-C012"),
    Discard("SV-C001"),
    Place("SV-C101"),
    PLACE_NONE,
    Pay("SV-C050"),
    Sell("SV-C040"),
    UsePower("SV-C020", 1),
    ConsumeGood("SV-C040"),
    Produce("SV-C041"),
    Done(),
]


@pytest.mark.parametrize("move", ALL, ids=lambda m: m.text())
def test_round_trip(move: Any) -> None:
    jsonschema.Draft202012Validator(GAME.move_schema()).validate(move.to_json())
    assert GAME.parse_move(move.to_json()) == move
    assert GAME.parse_move(move.text()) == move
    assert hash(move) == hash(GAME.parse_move(move.text()))


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("action Explorar +5", ChooseAction("explorar-5")),
        ("action Explorar +1/+1", ChooseAction("explorar-1-1")),
        ("action Consumir: 2x PV", ChooseAction("2x-pv")),
        ("action consumir: comercio", ChooseAction("comercio")),
        ("ACTION Producir", ChooseAction("producir")),
        ("keep sv-c012", Keep("SV-C012")),
        ("place NONE", PLACE_NONE),
        ({"type": "place", "card": None}, PLACE_NONE),
    ],
)
def test_lenient_forms(text: Any, move: Any) -> None:
    assert GAME.parse_move(text) == move


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "fly away",
        "action dance",
        "keep",
        "keep SV-C999",
        "keep C012",
        "use SV-C012",
        "use SV-C012 x",
        "done now",
        {"type": "keep"},
        {"type": "keep", "card": 12},
        {"type": "keep", "card": "SV-C012", "extra": 1},
        {"type": "use", "card": "SV-C012", "power": -1},
        {"type": "use", "card": "SV-C012", "power": True},
        {"card": "SV-C012"},
        42,
    ],
)
def test_malformed(bad: Any) -> None:
    with pytest.raises(InvalidMove):
        GAME.parse_move(bad)


def test_apply_refuses_foreign_values() -> None:
    state = GAME.new_game(GAME.make_config(2), 1)
    with pytest.raises(InvalidMove):
        GAME.apply(state, 0, {"type": "done"})

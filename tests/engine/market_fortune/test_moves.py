"""Move forms through the shared codec: text and JSON round trips, old forms, schema, refusals of malformed input."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest
from club_agentes.engine.core import InvalidMove
from club_agentes.engine.market_fortune.moves import MOVES, Attach, Build, Optimise, Play, Return, Risk

from tests.engine.market_fortune.helpers import GAME, snap, table

# The text form of every move type as the engine writes it now (seats as "seat N").
SAMPLE_MOVES = [
    "build stock-deck",
    "take return-discard",
    "discard MF-A-ENE-1",
    "risk MF-A-ENE-3 MF-R-ENE-2",
    "dominate",
    "play MF-E-FORTUNA-1",
    "play MF-E-ROBO-1 against seat 2",
    "play MF-E-CORRECCION-1 against seat 1 investment 0",
    "play MF-E-INTERES-1 investment 1 swap MF-R-ENE-4",
    "play MF-E-ASTUTO-1 swap MF-A-TEC-2 from stock-discard",
    "defend MF-E-CONTROL-1",
    "decline",
    "optimise investment 0 with MF-A-ENE-5",
    "attach MF-E-INNOVACION-1 to investment 2",
    "declare",
    "reveal",
    "return investment 3",
    "skip",
    "pass",
]

# Shorter text forms (the optional words of the templates left out) and Spanish verbs, with the move they mean.
OTHER_FORMS = {
    "play MF-E-ROBO-1 against 2": Play("MF-E-ROBO-1", 2),
    "play MF-E-ROBO-1 against asiento 2": Play("MF-E-ROBO-1", 2),
    "optimise 0 MF-A-ENE-5": Optimise(0, "MF-A-ENE-5"),
    "attach MF-E-INNOVACION-1 2": Attach("MF-E-INNOVACION-1", 2),
    "return 3": Return(3),
    "construir mazo $": Build("stock-deck"),
    "Construir descarte +R": Build("return-discard"),
    "arriesgar MF-A-ENE-3 MF-R-ENE-2": Risk("MF-A-ENE-3", "MF-R-ENE-2"),
    "dominar": MOVES.parse("dominate"),
    "no defender": MOVES.parse("decline"),
    "declarar victoria": MOVES.parse("declare"),
}


@pytest.mark.parametrize("text", SAMPLE_MOVES)
def test_moves_round_trip_through_text_and_json(text: str) -> None:
    move = GAME.parse_move(text)
    assert move.text() == text
    assert GAME.parse_move(move.to_json()) == move
    assert GAME.parse_move(json.loads(json.dumps(move.to_json()))) == move


@pytest.mark.parametrize("text", sorted(OTHER_FORMS))
def test_shorter_and_spanish_text_forms_parse(text: str) -> None:
    assert GAME.parse_move(text) == OTHER_FORMS[text]


@pytest.mark.parametrize("text", ["play MF-E-ROBO-1 target=2", "play MF-E-INTERES-1 investment=1 swap=MF-R-ENE-4"])
def test_the_retired_key_value_form_is_refused_with_the_form_to_use(text: str) -> None:
    with pytest.raises(InvalidMove) as err:
        GAME.parse_move(text)
    assert "that verb is written 'play <card> [against <target>]" in str(err.value)


def test_every_move_type_is_sampled_and_valid_against_the_schema() -> None:
    """Each move type's JSON form is validated once (not every move of every game)."""
    validator = jsonschema.Draft202012Validator(GAME.move_schema())
    seen = set()
    for text in SAMPLE_MOVES:
        move = GAME.parse_move(text)
        validator.validate(move.to_json())
        seen.add(move.type)
    assert seen == set(MOVES.types)
    for tag, example in MOVES.examples().items():
        assert GAME.parse_move(example).type == tag
        validator.validate(GAME.parse_move(example).to_json())


def test_move_schema_is_valid_and_documents_every_type() -> None:
    schema = GAME.move_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    assert {b["title"] for b in schema["oneOf"]} == set(schema["properties"]["type"]["enum"])
    for branch in schema["oneOf"]:
        assert branch["description"] and "Text form" in branch["description"]
        assert all(p.get("description") for k, p in branch["properties"].items() if k != "type")


def test_seats_are_written_seat_n_in_every_text_form() -> None:
    for tag in MOVES.types:
        example = MOVES.example(tag)
        if "against" in example:
            assert "against seat " in example


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ("", "empty move"),
        ("fly away", "unknown move 'fly'"),
        ("risk MF-A-ENE-1", "written 'risk <stock> <return>'"),
        ("discard MF-X-1", "written 'discard <card>'"),
        ("build attic", "written 'build <source>'"),
        ("play MF-E-ROBO-1 to=2", "written 'play <card>"),
        ("play MF-E-ROBO-1 against seat 9", "written 'play <card>"),
        ({"type": "build"}, "needs the field 'source'"),
        ({"type": "build", "source": "attic"}, "must be one of stock-deck"),
        ({"type": "risk", "stock": 3, "return": "MF-R-ENE-1"}, "must be a card id"),
        ({"type": "discard", "card": "MF-A-ENE-9"}, "must be a card id"),
        ({"type": "play", "card": "MF-E-ROBO-1", "target": -1}, "from 0 to 5"),
        ({"type": "play", "card": "MF-E-ROBO-1", "extra": 1}, "no field 'extra'"),
        ({"type": "optimise", "investment": True, "card": "MF-A-ENE-1"}, "whole number"),
        ({"kind": "build"}, "unknown move type"),
        (42, "JSON object"),
        ("x" * 600, "at most 500 characters"),
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
    with pytest.raises(InvalidMove):
        GAME.apply(st, 7, "build stock-deck")  # not a seat of this table: check_seat
    assert snap(st) == before


def test_moves_are_hashable_interned_values() -> None:
    assert Build("stock-deck") == GAME.parse_move({"type": "build", "source": "stock-deck"})
    assert GAME.parse_move("build stock-deck") is GAME.parse_move({"type": "build", "source": "stock-deck"})
    assert len({Risk("MF-A-ENE-1", "MF-R-ENE-1"), Risk("MF-A-ENE-1", "MF-R-ENE-1")}) == 1
    assert Play("MF-E-ROBO-1", 1).to_json() == {"type": "play", "card": "MF-E-ROBO-1", "target": 1}
    assert Risk("MF-A-ENE-1", "MF-R-ENE-1").to_json() == {
        "type": "risk",
        "stock": "MF-A-ENE-1",
        "return": "MF-R-ENE-1",
    }


def test_a_moves_text_is_kept_per_move_and_right_past_the_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    # The text form is written once per distinct move and kept; past the cap, written again each time.
    import club_agentes.engine.core.moves as codec

    monkeypatch.setattr(codec, "_TEXTS_KEPT", 2)
    moves = [Optimise(k, f"MF-A-ENE-{c}") for k in range(3) for c in range(1, 4)]
    written = [m.text() for m in moves]
    assert written == [f"optimise investment {k} with MF-A-ENE-{c}" for k in range(3) for c in range(1, 4)]
    assert [m.text() for m in moves] == written  # again: the kept ones and those past the cap alike
    assert [GAME.parse_move(t).text() for t in written] == written  # an equal move reads the same text

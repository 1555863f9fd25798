"""The component data: loaded and checked from its file, and agreeing with every example of the rulebook."""

from __future__ import annotations

from pathlib import Path

import pytest
from club_agentes.engine.yo_soy_el_jefe.components import (
    DATA_FILE,
    ComponentDataError,
    board_space,
    board_spaces,
    components,
    deal_card,
    dividend_value,
    load_components,
    payout,
)


def test_the_box_holds_what_section_1_lists() -> None:
    c = components()
    assert len(c.cards) == 98
    kinds = [card.kind for card in c.cards]
    assert kinds.count("family") == 24 and kinds.count("travel") == 21 and kinds.count("boss") == 10
    assert kinds.count("hire") == 33 and kinds.count("stop") == 10
    assert len(c.families) == 6 and len(c.deal_cards) == 15 and len(board_spaces()) == 16
    assert c.money_cards == 110 and c.die_faces == 6
    for colour in c.colours:
        assert sum(1 for x in c.cards if x.kind == "family" and x.colour == colour) == 4
        assert sum(1 for x in c.cards if x.kind == "travel" and x.colour == colour) == 3
    assert sum(1 for x in c.cards if x.kind == "travel" and x.colour == "gris") == 3


def test_card_ids_are_distinct_and_never_inside_one_another() -> None:
    ids = [card.id for card in components().cards] + [f.investor_id for f in components().families]
    ids += [d.id for d in components().deal_cards]
    assert len(set(ids)) == len(ids)
    for a in ids:
        assert not any(a != b and a in b for b in ids), a


def test_the_examples_of_the_rulebook_hold() -> None:
    # "si el precio de una sola transacción es de $3M, y se completó una transacción para 4 jugadores en la
    #  sexta ronda, el banquero pagaría $12M"
    assert dividend_value(6) == 3
    assert any(s.dividends == 4 and s.investors_needed == 4 for s in board_spaces())
    assert payout(6, 4) == 12
    # Section 6: the 13th deal, 5M a dividend, 6 dividends, amarillo/azul/rojo + 2 of naranja/rosa/verde: 30M.
    assert dividend_value(13) == 5
    example = [s for s in board_spaces() if s.dividends == 6 and set(s.mandatory) == {"amarillo", "azul", "rojo"}]
    assert example and set(example[0].optional) == {"naranja", "rosa", "verde"} and example[0].optional_needed == 2
    assert payout(13, example[0].dividends) == 30
    # Section 4: no roll before the 10th deal; after the 11th, 1 or 2 ends; after the 13th a 5 does not;
    # the 15th ends without a roll.
    assert all(not deal_card(n).end_numbers and not deal_card(n).final for n in range(1, 10))
    assert deal_card(10).end_numbers
    assert deal_card(11).end_numbers == (1, 2)
    assert 5 not in deal_card(13).end_numbers
    assert deal_card(15).final and not deal_card(15).end_numbers
    # "El monto del dividendo aumenta": never decreases.
    values = [dividend_value(n) for n in range(1, 16)]
    assert values == sorted(values) and values[0] < values[-1]


def test_larger_deals_need_more_investors() -> None:
    spaces = board_spaces()
    for a in spaces:
        for b in spaces:
            if a.dividends > b.dividends:
                assert a.investors_needed >= b.investors_needed, (a.number, b.number)
    assert board_space(8).describe() == "rojo, azul, amarillo + 2 of naranja/rosa/verde"


def test_plain_functions_refuse_unknown_numbers() -> None:
    with pytest.raises(ValueError):
        deal_card(16)
    with pytest.raises(ValueError):
        board_space(0)
    with pytest.raises(ValueError):
        payout(3, -1)


@pytest.mark.parametrize(
    ("old", "new", "words"),
    [
        ("dividends = 6\n", "dividends = 6\ncolour = 1\n", ["space #8", "'colour'", "unknown"]),
        ("number = 13\ndividend = 5\n", "number = 13\n", ["deal card #13", "'dividend'", "missing"]),
        ('mandatory = ["rosa", "verde"]', 'mandatory = ["rosa", "morado"]', ["space #3", "'mandatory'"]),
        ("hire = 33", 'hire = "many"', ["[influence]", "'hire'"]),
        ("number = 9\ndividend = 4", "number = 9\ndividend = 1", ["[[deal_card]]", "'dividend'", "decrease"]),
    ],
)
def test_the_loader_names_file_item_and_field(tmp_path: Path, old: str, new: str, words: list[str]) -> None:
    text = DATA_FILE.read_text(encoding="utf-8")
    assert old in text
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(ComponentDataError) as err:
        load_components(bad)
    message = str(err.value)
    assert message.startswith(str(bad))
    for w in words:
        assert w in message

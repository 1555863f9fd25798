"""The card data: checked when loaded, as the issue describes it, and published to the corpus."""

from __future__ import annotations

import pytest
from club_agentes.engine.se_vende.cards import (
    GOOD_KINDS,
    CardDataError,
    PowerName,
    load_deck,
    load_designs,
    parse_cards,
)
from club_agentes.engine.se_vende.publish import corpus_path, render_corpus_cards
from club_agentes.rules_corpus import load_corpus

GOOD = """
[[card]]
key = "a"
name = "A"
type = "world"
start = true
world = "plain"
cost = 1
vp = 1
"""


def _starts(extra: str = "") -> str:
    worlds = [GOOD.replace('"a"', f'"s{i}"') for i in range(4)]
    alfa = GOOD.replace('"a"', '"alfa-centauro"').replace('world = "plain"', 'world = "windfall"\ngood = "genes"')
    return "\n".join([alfa, *worlds, extra])


def test_the_packaged_set_matches_the_issue() -> None:
    designs = load_designs()
    deck = load_deck()
    starts = [d for d in designs if d.start]
    assert len(starts) == 5 and any(d.name == "Alfa Centauro" for d in starts)
    devs = [d for d in designs if d.is_development]
    assert {d.cost for d in devs} == {1, 2, 3, 4, 5, 6}
    assert all(d.special for d in devs if d.cost == 6) and all(d.vp == 0 for d in devs if d.cost == 6)
    worlds = [d for d in designs if d.is_world]
    assert any(d.military for d in worlds)
    for kind in GOOD_KINDS:
        assert any(d.world == "windfall" and d.good == kind for d in worlds), kind
        assert any(d.world == "production" and d.good == kind for d in worlds), kind
    used = {p.name for d in designs for p in d.powers}
    assert used == set(PowerName)  # every power of the vocabulary is on some card
    assert len({d.name for d in designs}) == len(designs)
    assert len(deck.ids) == len(set(deck.ids)) == sum(d.copies for d in designs) >= 100
    for a in deck.ids:  # no id is part of another (leak scans look for ids as substrings)
        assert sum(1 for b in deck.ids if a in b) == 1


def test_the_corpus_card_list_is_generated_from_the_data() -> None:
    assert corpus_path().read_text(encoding="utf-8") == render_corpus_cards(), (
        "run python -m club_agentes.engine.se_vende.publish"
    )
    corpus = load_corpus()
    area = corpus.get("se-vende/cartas")
    intro = " ".join(area.text.split())
    assert area.kind == "component" and "cartas ORIGINAL" in intro and "No es texto del reglamento" in intro
    for d in load_designs():
        section = corpus.get(f"se-vende/cartas/{d.key}")
        assert section.title == d.name and f"Vale {d.vp} PV" in section.text


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        (
            '[[card]]\nkey = "x"\nname = "X"\ntype = "world"\nworld = "plain"\ncost = 1\nvp = 1\n'
            'powers = [{ power = "fly", n = 1 }]',
            "powers[0].power",
        ),
        ('[[card]]\nkey = "x"\nname = "X"\ntype = "development"\ncost = 7\nvp = 1', "cost"),
        ('[[card]]\nkey = "x"\nname = "X"\ntype = "development"\ncost = 6\nvp = 0', "special"),
        ('[[card]]\nkey = "x"\nname = "X"\ntype = "world"\nworld = "windfall"\ncost = 1\nvp = 1', "good"),
        ('[[card]]\nkey = "x"\nname = "X"\ntype = "world"\nworld = "plain"\ncost = 1\nvp = 1\ncolour = 2', "colour"),
        ('[[card]]\nkey = "x"\nname = "X"\ntype = "world"\nworld = "plain"\ndefence = 2\ncost = 1\nvp = 1', "cost"),
        (
            '[[card]]\nkey = "x"\nname = "X"\ntype = "development"\ncost = 2\nvp = 1\n'
            'powers = [{ power = "consume_goods", up_to = 2, vp = 1 }]',
            "cards",
        ),
        ('[[card]]\nkey = "s1"\nname = "X"\ntype = "development"\ncost = 2\nvp = 1', "key"),
    ],
)
def test_the_loader_names_file_card_and_field(extra: str, field: str) -> None:
    with pytest.raises(CardDataError) as err:
        parse_cards(_starts(extra), "cards.toml")
    message = str(err.value)
    assert message.startswith("cards.toml: card ") and f"field '{field}'" in message


def test_the_loader_checks_the_start_worlds() -> None:
    assert len(parse_cards(_starts())) == 5
    with pytest.raises(CardDataError, match="five start worlds"):
        parse_cards(GOOD)

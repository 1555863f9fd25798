"""Components as checked data and the generated card compendium."""

from __future__ import annotations

import copy
import tomllib
from typing import Any

import pytest
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
from club_agentes.rules_corpus import load_corpus

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

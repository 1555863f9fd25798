"""Search ranks sections by BM25 with folding and glossary synonyms."""

from __future__ import annotations

import pytest
from club_agentes.rules_corpus import search_index
from club_agentes.rules_corpus.search import singular, tokens


def test_folding_and_plurals() -> None:
    assert tokens("Las INVERSIONES del Jugador") == ["inversion", "jugador"]
    assert singular("fases") == "fase" and singular("colores") == "color" and singular("veces") == "vez"
    assert tokens("Contratación") == tokens("contratacion")


def test_clan_finds_family_cards_first() -> None:
    hits = search_index().search("clan", "yo-soy-el-jefe")
    top = hits[0].section
    assert "familia" in top.title.lower() or "familia" in top.text.lower()
    assert top.kind == "rulebook"
    assert "clan" not in top.text.lower(), "found through the synonym, not the literal word"


def test_dado_fortune_finds_the_die() -> None:
    hits = search_index().search("dado fortune")
    assert hits[0].section.id == "market-fortune/referencia-rapida/dado-fortune"
    assert "Dado Fortune" in hits[0].snippet


def test_accents_and_case_do_not_matter() -> None:
    a = [h.section.id for h in search_index().search("OPTIMIZACIÓN", "market-fortune")]
    b = [h.section.id for h in search_index().search("optimizacion", "market-fortune")]
    assert a == b and "market-fortune/cap-3/optimizacion-del-portafolio" in a[:2]


def test_plural_query_matches_singular_text() -> None:
    hits = search_index().search("mundos militares", "se-vende")
    assert hits[0].section.id == "se-vende/preguntas/mundos-militares"


def test_game_filter_and_limit() -> None:
    hits = search_index().search("cartas", "se-vende", limit=3)
    assert len(hits) == 3 and all(h.section.game == "se-vende" for h in hits)
    assert hits[0].score >= hits[1].score >= hits[2].score


@pytest.mark.parametrize("bad", ["", "   ", "de la y", "x" * 301])
def test_bad_queries_raise_one_sentence(bad: str) -> None:
    with pytest.raises(ValueError) as err:
        search_index().search(bad)
    assert "\n" not in str(err.value)

"""The corpus copy of the component data is generated from the engine's data file and kept in step."""

from __future__ import annotations

from club_agentes.engine.yo_soy_el_jefe.publish import AREA, corpus_path, main, render_corpus_toml
from club_agentes.rules_corpus import load_corpus


def test_committed_corpus_file_equals_the_generators_output() -> None:
    assert corpus_path().read_text(encoding="utf-8") == render_corpus_toml(), (
        "run: python -m club_agentes.engine.yo_soy_el_jefe.publish"
    )
    assert main(["--check"]) == 0


def test_the_corpus_serves_the_component_sections() -> None:
    corpus = load_corpus()
    area = corpus.get(AREA)
    assert area.kind == "component" and "not rulebook text" in area.text
    spaces = corpus.get(f"{AREA}/casillas-del-tablero")
    assert "space 8: 6 dividends; needs rojo, azul, amarillo + 2 of naranja/rosa/verde" in spaces.text
    cards = corpus.get(f"{AREA}/cartas-de-negociacion")
    assert "#13 (YSJ-NEG-13): 5M per dividend" in cards.text
    for sid in ("familias-e-inversores", "cartas-de-influencia", "dado-y-dinero"):
        assert corpus.get(f"{AREA}/{sid}").kind == "component"

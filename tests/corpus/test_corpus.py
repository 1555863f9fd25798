"""The corpus keeps every rulebook line exactly once, verbatim, in stable sections."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest
from club_agentes.rules_corpus import GAME_IDS, UnknownGameId, UnknownSection, load_corpus

SEEDS = Path(__file__).resolve().parents[3] / "shared" / "seeds"
ID_RE = re.compile(r"^[a-z0-9-]+(/[a-z0-9-]+)+$")


@pytest.fixture(scope="module")
def corpus():
    return load_corpus()


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_line_belongs_to_exactly_one_section(corpus, game: str) -> None:
    text = corpus.rulebooks[game]
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    owner: dict[int, str] = {}
    for s in corpus.toc(game):
        if s.lines is None:
            continue
        first, last = s.lines
        for n in range(first, last + 1):
            assert n not in owner, f"line {n} is in {owner[n]} and {s.id}"
            owner[n] = s.id
        assert s.text == "\n".join(lines[first - 1 : last]).strip("\n"), s.id
    assert sorted(owner) == list(range(1, len(lines) + 1)), "some lines belong to no section"


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_nonblank_line_appears_verbatim_once(corpus, game: str) -> None:
    texts = [s.text.split("\n") for s in corpus.toc(game) if s.kind == "rulebook"]
    for line in corpus.rulebooks[game].split("\n"):
        if line.strip():
            holders = [t for t in texts if line in t]
            assert len(holders) >= 1, f"lost: {line[:60]!r}"
    total = sum(len([x for x in t if x.strip()]) for t in texts)
    assert total == len([x for x in corpus.rulebooks[game].split("\n") if x.strip()])


@pytest.mark.parametrize("game", GAME_IDS)
def test_packaged_rulebook_is_the_received_text(corpus, game: str) -> None:
    facts = corpus.game(game)
    data = corpus.rulebooks[game].encode("utf-8")
    assert hashlib.sha256(data).hexdigest() == facts.source_sha256
    seed = SEEDS / facts.source_file
    if seed.exists():  # the shared seeds sit beside the checkout on development machines
        assert seed.read_bytes() == data


@pytest.mark.parametrize("game", GAME_IDS)
def test_structure_is_consistent(corpus, game: str) -> None:
    toc = corpus.toc(game)
    ids = [s.id for s in toc]
    assert len(ids) == len(set(ids))
    for k, s in enumerate(toc):
        assert ID_RE.match(s.id), s.id
        assert s.game == game and s.title.strip()
        assert s.prev == (ids[k - 1] if k else None)
        assert s.next == (ids[k + 1] if k + 1 < len(ids) else None)
        if s.parent:
            assert s.id in corpus.sections[s.parent].children
        for c in s.children:
            assert corpus.sections[c].parent == s.id
        assert s.text or s.children, f"{s.id} has neither text nor children"


def test_rule_of_eight_is_verbatim(corpus) -> None:
    s = corpus.resolve("market-fortune", "cap-2/regla-8-cartas")
    assert s.text == (
        "### Regla de las 8 cartas\n"
        "Mantén siempre 8 cartas de construcción entre tu mano y tus inversiones. "
        "Con 2 inversiones abajo (4 cartas), tienes 4 en mano. Las Estrategias no cuentan: no tienen límite."
    )
    assert s.verbatim and s.kind == "rulebook"


def test_worked_example_has_its_own_sections(corpus) -> None:
    example = corpus.get("yo-soy-el-jefe/6-ejemplos")
    assert "Se han completado 12 transacciones" in example.text
    assert len(example.children) >= 8
    pago = corpus.get("yo-soy-el-jefe/6-ejemplos/pago-y-cartas")
    assert pago.text.startswith("El banquero pagó 30 millones de dólares a Jaeyoung")


def test_faq_and_glossary_entries_are_sections(corpus) -> None:
    faq = corpus.get("market-fortune/faq")
    assert len([c for c in faq.children if c != "market-fortune/faq/glosario"]) == 6
    assert len(corpus.get("market-fortune/faq/glosario").children) == 4
    assert len(corpus.get("market-fortune/referencia-rapida").children) == 4
    assert len(corpus.get("yo-soy-el-jefe/5-variantes").children) == 8
    assert len(corpus.get("se-vende/preguntas").children) == 11


def test_game_facts_as_stated(corpus) -> None:
    mf = corpus.game("market-fortune")
    assert (mf.min_players, mf.max_players, mf.age_text, mf.duration_text) == (2, 6, "14+", "de 20 a 60 minutos")
    assert len(mf.modes) == 3
    assert "2 a 6 jugadores, 14+, de 20 a 60 minutos" in corpus.get(mf.facts_section).text
    ysej = corpus.game("yo-soy-el-jefe")
    assert "3-6 personas｜60 minutos" in corpus.get(ysej.facts_section).text


@pytest.mark.parametrize("game", GAME_IDS)
def test_rulings_area_and_glossary_exist(corpus, game: str) -> None:
    area = corpus.get(f"{game}/rulings")
    assert area.kind == "ruling" and area.children
    for child in area.children:
        ruling = corpus.get(child)
        assert ruling.text and all(corpus.has(r) for r in ruling.refs)
    assert corpus.get(f"{game}/glosario-del-club").kind == "glossary"
    assert corpus.glossary(game)


def test_known_errata_are_recorded(corpus) -> None:
    assert "Eagle-Gryphon" in corpus.get("se-vende/rulings/errata-creditos").text
    names = corpus.get("yo-soy-el-jefe/rulings/errata-nombres").text
    for word in ("tribu", "clan", "contratación", "bloqueo"):
        assert word in names
    assert "돈 관리" in corpus.get("yo-soy-el-jefe/rulings/errata-encabezado-coreano").text


def test_synonyms_group_familia_tribu_clan(corpus) -> None:
    forms = {f.lower() for t in corpus.glossary("yo-soy-el-jefe") for f in t.forms if "familia" in t.forms}
    assert {"familia", "tribu", "clan"} <= forms


def test_unknown_ids_are_explained(corpus) -> None:
    with pytest.raises(UnknownGameId, match="market-fortune"):
        corpus.toc("parchis")
    with pytest.raises(UnknownSection) as err:
        corpus.resolve("market-fortune", "cap-2/regla-de-8-cartas")
    assert "market-fortune/cap-2/regla-8-cartas" in err.value.suggestions


def test_section_ids_resolve_in_several_forms(corpus) -> None:
    full = "market-fortune/cap-2/regla-8-cartas"
    for form in (full, "cap-2/regla-8-cartas", "/cap-2/regla-8-cartas/", f"rules://{full}"):
        assert corpus.resolve("market-fortune", form).id == full

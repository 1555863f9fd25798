"""Every template writes grammatical Spanish: 500 rendered items per game are checked for the slips a
template makes once and repeats on every draw.

The rules, each a regular expression or a small check over one prompt or option:

* "ningún", "ninguna", "ninguno", "nada", "nadie" after a verb need "no", "sin", "ni" or "nunca" before
  them in the clause ("sus mundos tienen ningún bien" is wrong; "no tienen ningún bien" is right);
* the gender of the game's nouns: "el Rendimiento", never "la Rendimiento"; "la Acción", never "el Acción";
* number agreement between a numeral and its noun ("1 cartas", "tres carta");
* a list of one written as a list ("por este orden, Ana"), a dangling conjunction ("Ana y."), doubled
  spaces or words, a space before punctuation, an empty parenthesis;
* a capitalised article or possessive after a comma (", Su único mundo");
* "de el" and "a el" (they are "del" and "al"); an unopened "?" or an unclosed "¿".
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import club_agentes.quizzes.generators  # noqa: F401  (registers every game's templates)
import pytest
from club_agentes.quizzes.model import GENERATORS, TEMPLATES, Item
from club_agentes.quizzes.wording import join
from club_agentes.rules_corpus import GAME_IDS

ITEMS_PER_GAME = 500
NEGATIVES = re.compile(r"(?<!\w)(ningún|ninguna|ninguno|nada|nadie)(?!\w)", re.IGNORECASE)
LICENSORS = re.compile(r"(?<!\w)(no|sin|ni|nunca|tampoco|jamás)(?!\w)", re.IGNORECASE)
CLAUSE = re.compile(r"[.;:,¿?!()«»]")
VERB_WORDS = (
    "tiene tienen tienes tengo hay es son queda quedan recibe reciben recibes juega juegan juegas coloca "
    "colocan colocas vale valen paga pagan pagas toma tomas toman lleva llevan llevas gana ganas ganan "
    "puede puedes pueden hace haces hacen sirve sirven"
)
VERBS = frozenset(VERB_WORDS.split())
SKIPPED = frozenset({"todavía", "aún", "ya", "también"})
NUMERALS = r"(?:dos|tres|cuatro|cinco|seis|siete|ocho|nueve|diez|[2-9]|\d{2,})"
NOUNS = r"(?:carta|inversión|Estrategia|bien|mundo|punto|negociación|casilla|jugador|inversor|dividendo|fase)"
SLIPS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("gender of Rendimiento", re.compile(r"(?<!\w)(la|una) Rendimiento", re.IGNORECASE)),
    ("gender of Acción", re.compile(r"(?<!\w)(el|un) Acción", re.IGNORECASE)),
    (
        "a singular numeral with a plural noun",
        re.compile(r"(?<![\w.,])(1|un|una) (cartas|inversiones|Estrategias|bienes|mundos|puntos)(?!\w)"),
    ),
    ("a plural numeral with a singular noun", re.compile(rf"(?<![\w.,]){NUMERALS} {NOUNS}(?!\w)")),
    ("a list of one written as a list", re.compile(r"(?:por|en) (?:este|ese) orden, [A-ZÁÉÍÓÚ]\w+[.?]")),
    ("a dangling conjunction", re.compile(r"(?<!\w)(y|e|o|u|ni)\s*[.;:?]")),
    ("a doubled space", re.compile(r"\S  +\S")),
    ("a doubled word", re.compile(r"(?<!\w)(\w{3,}) \1(?!\w)", re.IGNORECASE)),
    ("a space before punctuation", re.compile(r"\w [.,;:?!)]")),
    ("an empty parenthesis", re.compile(r"\(\s*\)")),
    ("a capital article after a comma", re.compile(r", (Su|Sus|Tu|Tus|El|La|Los|Las|Un|Una) ")),
    ("de el / a el", re.compile(r"(?<!\w)(de|a) el(?!\w)")),
)


def rendered(game: str) -> Iterator[Item]:
    """``ITEMS_PER_GAME`` items of the game, cycling over its templates (entry and practice) and seeds."""
    keys = sorted(k for k, t in TEMPLATES.items() if t.game == game)
    for n in range(ITEMS_PER_GAME):
        key = keys[n % len(keys)]
        yield GENERATORS[key].make(n // len(keys))


def negation_slips(text: str) -> list[str]:
    """Negative words right after a verb with nothing before them in their clause that licenses them."""
    out = []
    for clause in CLAUSE.split(text):
        for m in NEGATIVES.finditer(clause):
            before = clause[: m.start()].split()
            verb = next((w for w in reversed(before) if w.lower() not in SKIPPED), "")
            if verb.lower() in VERBS and not LICENSORS.search(" ".join(before)):
                out.append(f"{m.group(0)!r} unlicensed in {clause.strip()!r}")
    return out


def slips(text: str) -> list[str]:
    found = [f"{name}: {m.group(0)!r}" for name, rx in SLIPS for m in [rx.search(text)] if m]
    found += negation_slips(text)
    if text.count("?") != text.count("¿"):
        found.append("an unpaired ¿ or ?")
    return found


@pytest.mark.slow
@pytest.mark.parametrize("game", GAME_IDS)
def test_500_rendered_items_per_game_are_grammatical(game: str) -> None:
    bad: dict[str, list[str]] = {}
    for item in rendered(game):
        for text in (item.prompt, *item.options):
            found = slips(text)
            if found:
                bad.setdefault(item.id, []).extend(found)
    assert bad == {}


@pytest.mark.parametrize("game", GAME_IDS)
def test_one_item_of_every_template_is_grammatical(game: str) -> None:
    for key in sorted(k for k, t in TEMPLATES.items() if t.game == game):
        item = GENERATORS[key].make(1)
        for text in (item.prompt, *item.options):
            assert slips(text) == [], (key, text)


@pytest.mark.parametrize(
    "text",
    [
        "Sus mundos tienen ningún bien.",
        "¿Cuántos millones suma la Rendimiento Energía +2M?",
        "Es el turno de Ana, Su único mundo es Alfa Centauro.",
        "Se juega por este orden, Beto.",
        "Tienes 1 cartas en la mano.",
        "Tienes tres carta en la mano.",
        "Ana y.",
        "Vende el bien de el mundo.",
        "Tienes  dos cartas.",
        "¿Cuántas cartas tienes",
    ],
)
def test_the_rules_find_the_slips_of_the_issue(text: str) -> None:
    assert slips(text)


@pytest.mark.parametrize(
    "text",
    [
        "Tus mundos no tienen ningún bien.",
        "Ninguno de esos mundos tiene bienes.",
        "Tienes ocho cartas de construcción en la mano, sin ninguna Estrategia.",
        "¿Cuántos millones vale el Rendimiento Energía +2M?",
        "Juegan Ana, Beto y Carla.",
        "Todavía no se ha completado ninguna negociación.",
    ],
)
def test_the_rules_accept_correct_spanish(text: str) -> None:
    assert slips(text) == []


def test_lists_of_one_two_and_three() -> None:
    assert join(["Ana"]) == "Ana"
    assert join(["Ana", "Inés"]) == "Ana e Inés"
    assert join(["Beto", "Hugo", "Olga"], "o") == "Beto, Hugo u Olga"
    assert join(["Ana", "Beto", "Carla"]) == "Ana, Beto y Carla"

"""Se Vende's acertijos: a phase, a concept, a military world, a cost-6 development, a good or a number.

The subjects and hand-written clues are in ``quizzes/data/se-vende/acertijos.toml``; this module adds
what the engine's card data says (:mod:`club_agentes.engine.se_vende.cards`): a military world's
defence, points, halo, good, copies and powers; a cost-6 development's end-of-game formula and its
powers; a good's colour. Military worlds and cost-6 developments are this implementation's own
cards, so no reader of another game's rules knows them.
"""

from __future__ import annotations

from dataclasses import replace

from club_agentes.engine.se_vende.cards import GOOD_COLOURS, GOOD_NAMES, CardDef, PowerName
from club_agentes.quizzes.acertijos import Clue, load_riddle_sets, riddle_template
from club_agentes.quizzes.generators.se_vende.common import GAME, MILITARES, PUNTUACION, designs, section
from club_agentes.quizzes.wording import count, number

POWER_CLUES = {
    PowerName.SETTLE_MILITARY: "Una vez colocado, te doy fuerza para conquistar otros mundos.",
    PowerName.TRADE_BONUS: "Cuando vendes un bien, te hago robar más.",
    PowerName.EXPLORE_DRAW: "Cuando se explora, te hago robar más.",
    PowerName.EXPLORE_KEEP: "Cuando se explora, te dejo quedarte con más.",
    PowerName.DEVELOP_DISCOUNT: "Abarato los desarrollos que colocas después de mí.",
    PowerName.CONSUME_GOODS: "En la fase de Consumir, cambio bienes por puntos.",
}
PER_WORDS = {
    "world": ("mundo", "mundos"),
    "military_world": ("mundo militar", "mundos militares"),
    "production_world": ("mundo de producción", "mundos de producción"),
    "windfall_world": ("mundo de caída", "mundos de caída"),
    "development": ("desarrollo (yo incluido)", "desarrollos"),
    "cost6_development": ("desarrollo de coste 6 (yo incluido)", "desarrollos de coste 6"),
    "good": ("bien en tus mundos", "bienes"),
}


def _military(d: CardDef) -> list[str]:
    texts = [
        f"Mi defensa es exactamente {d.defence}: para colocarme hace falta un Militar de {d.defence} o más.",
        f"Valgo {count(d.vp, 'punto', 'puntos')} de victoria." if d.vp else "No valgo ningún punto de victoria.",
        f"En el juego hay {number(d.copies, feminine=True)} cartas como yo."
        if d.copies > 1
        else "Soy una carta única.",
    ]
    if d.world == "windfall" and d.good:
        # Not which good: genes, alien technology, rare elements name Colmena Salvaje, Necrópolis Ajena, Fortaleza
        # Ámbar to a guess (closed-book baseline, round 3: Colmena Salvaje 3/3 from "un bien de genes").
        texts.append("Tengo halo: al colocarme por primera vez recibo un bien.")
    else:
        texts.append("No tengo halo ni círculo de color: nunca guardo bienes.")
    powers = [p.name for p in d.powers]
    texts += [POWER_CLUES[p] for p in powers if p in POWER_CLUES] or ["No tengo ningún poder."]
    return texts


def _six(d: CardDef) -> list[str]:
    texts = []
    for term in d.special:
        one, _many = PER_WORDS[term.per]
        kind = f" de {GOOD_NAMES[term.good]}" if term.good != "any" else ""
        texts.append(f"Al final doy {count(term.vp, 'punto', 'puntos')} por cada {one}{kind}.")
    for p in d.powers:
        if p.name in POWER_CLUES:
            texts.append(POWER_CLUES[p.name])
    return texts


def computed_clues() -> list[Clue]:
    """The clues the card data states about each military world, cost-6 development and good."""
    out: dict[str, set[str]] = {}
    where: dict[str, tuple[str, ...]] = {}
    for key, d in designs().items():
        if d.defence:
            for text in _military(d):
                out.setdefault(text, set()).add(d.name)
                where[text] = (MILITARES, section(key))
        elif d.type == "development" and d.cost == 6:
            for text in _six(d):
                out.setdefault(text, set()).add(d.name)
                where[text] = (PUNTUACION, section(key))
    clues = [Clue(text, frozenset(holds), where[text]) for text, holds in out.items()]
    for good, colour in GOOD_COLOURS.items():
        clues.append(
            Clue(
                f"Mi color, en halos y círculos, es el {colour}.",
                frozenset({GOOD_NAMES[good].capitalize()}),
                (f"{GAME}/cartas/poderes", f"{GAME}/cartas/mundos"),
            )
        )
    return clues


SETS = load_riddle_sets(GAME)
_CLUES = computed_clues()
_MILITARY_NAMES = {d.name for d in designs().values() if d.defence}
_SIX_NAMES = {d.name for d in designs().values() if d.type == "development" and d.cost == 6}
MILITARY = SETS["militar"].with_clues([c for c in _CLUES if c.holds <= _MILITARY_NAMES], sorted(_MILITARY_NAMES))
SIX = SETS["coste-6"].with_clues([c for c in _CLUES if c.holds <= _SIX_NAMES], sorted(_SIX_NAMES))
GOODS = SETS["bien"].with_clues([c for c in _CLUES if c.text.startswith("Mi color")])
MILITARY = replace(MILITARY, home={n: MILITARES for n in MILITARY.subjects})
SIX = replace(SIX, home={n: PUNTUACION for n in SIX.subjects})
_POWERS = frozenset(POWER_CLUES.values()) | {"No tengo ningún poder."}
# Entry riddles keep the printed numbers only (defence, points, copies, halo, end-of-game scoring): a power,
# described, is guessed from a card's name (closed-book baseline, round 1).
MILITARY = MILITARY.only_clues(lambda c: c.text not in _POWERS)
SIX = SIX.only_clues(lambda c: c.text not in _POWERS)

# Practice only: Race for the Galaxy's phases, goods' colours and the card names in the term list give these away
# without this rulebook (closed-book baseline, round 1).
riddle_template(
    GAME, "acertijo-fase", SETS["fase"], explain="Es {answer}: el reglamento le da esas propiedades.", entry=False
)
riddle_template(
    GAME, "acertijo-concepto", SETS["concepto"], explain="Es {answer}: el reglamento lo describe así.", entry=False
)
riddle_template(GAME, "acertijo-mundo-militar", MILITARY, explain="Es {answer}: su carta reúne todas las pistas.")
riddle_template(
    GAME,
    "acertijo-coste-6",
    SIX,
    explain="Es {answer}: su carta reúne todas las pistas.",
    entry=False,  # practice: a cost-6 development's name says what it scores
)
riddle_template(GAME, "acertijo-bien", GOODS, explain="Es {answer}: lo dicen el reglamento y las cartas.", entry=False)
riddle_template(
    GAME,
    "acertijo-numero",
    SETS["numero"],
    explain="Es {answer}: el número que el reglamento da a esas cosas.",
    entry=False,
)

"""Market Fortune's acertijos: a strategy, a concept or a number describes itself without being named.

The subjects and their hand-written clues are in ``quizzes/data/market-fortune/acertijos.toml``;
this module adds the clues the engine's card data says (:mod:`club_agentes.engine.market_fortune.components`):
a strategy's colour, its copies in the deck, whom a red reaches and which blues can stop it, what a
blue covers. Control del Riesgo and Plan de Contingencia are left out as subjects: their printed
rules are the same, so no clue tells them apart. Every strategy card stays in the sets' universe, so a
riddle's clues always rule out every other card of the deck, answer or not (baseline round 3 found
"azul, dos copias" fitting Moneda Estable, Experiencia and Analista Errado).
"""

from __future__ import annotations

from club_agentes.engine.market_fortune.components import STRATEGIES, Effect
from club_agentes.quizzes.acertijos import Clue, RiddleSet, load_riddle_sets, riddle_template
from club_agentes.quizzes.generators.market_fortune.common import COLORES, GAME, ROJA
from club_agentes.quizzes.wording import number

TWINS = ("Control del Riesgo", "Plan de Contingencia")
COLOUR_CLUES = {
    "roja": "Visto del color de la sangre.",
    "azul": "Visto del color del cielo despejado.",
    "verde": "Visto del color de la hierba.",
    "amarilla": "Visto del color del sol.",
}
TARGET_CLUES = {
    "self": "No ataco a nadie: solo me ocupo de quien me juega.",
    "one": "Cuando me juegas, apunto a un único rival.",
    "group": "Alcanzo de una vez a todos los rivales que puedo alcanzar.",
}
COVERS = {
    "cards": "Solo te salvo cuando lo atacado son las cartas de tu mano.",
    "investments": "Solo te salvo cuando lo atacado son tus inversiones.",
}


def _section(name: str) -> str:
    return next(s.section for s in STRATEGIES if s.name == name)


def _sections(names: frozenset[str], most: int = 3) -> tuple[str, ...]:
    """The printed cards of (at most ``most`` of) ``names``, in name order."""
    return tuple(_section(n) for n in sorted(names))[:most]


def _colour_and_copy_clues() -> list[Clue]:
    out: list[Clue] = []
    for colour, text in COLOUR_CLUES.items():
        holds = frozenset(s.name for s in STRATEGIES if s.colour == colour)
        out.append(Clue(text, holds, (f"{COLORES}/{colour}",)))
    for copies in sorted({s.copies for s in STRATEGIES}):
        holds = frozenset(s.name for s in STRATEGIES if s.copies == copies)
        sections = (f"{GAME}/cartas/estrategias", *_sections(holds, 2))
        out.append(Clue(f"En el mazo hay {number(copies, feminine=True)} cartas con mi nombre.", holds, sections))
    return out


def _red_clues() -> list[Clue]:
    """Whom a red reaches, and which blues can (or cannot) cancel it."""
    reds = [s for s in STRATEGIES if s.colour == "roja"]
    out: list[Clue] = []
    for target, text in TARGET_CLUES.items():
        holds = frozenset(s.name for s in reds if s.spec.target == target)
        out.append(Clue(text, holds, (ROJA, *_sections(holds, 2))))
    for blue in (s for s in STRATEGIES if s.colour == "azul" and s.name not in TWINS):
        stopped = frozenset(r.name for r in reds if r.spec.attacks and r.spec.attacks in blue.spec.defends)
        unstopped = frozenset(r.name for r in reds if r.spec.attacks and r.name not in stopped)
        if unstopped:
            out.append(Clue(f"{blue.name} puede cancelarme.", stopped, (blue.section,)))
            text = f"{blue.name} no puede cancelarme, aunque me juegues contra quien la tiene."
            out.append(Clue(text, unstopped, (blue.section,)))
    return out


def _blue_clues() -> list[Clue]:
    """What a blue covers, and what else it does."""
    blues = [s for s in STRATEGIES if s.colour == "azul"]
    out: list[Clue] = []
    for attacks, text in COVERS.items():
        holds = frozenset(b.name for b in blues if b.spec.defends == (attacks,))
        out.append(Clue(text, holds, _sections(holds)))
    whatever = frozenset(b.name for b in blues if len(b.spec.defends) > 1)
    text = "Me da igual qué te ataquen: cancelo cualquier roja que vaya contra ti."
    out.append(Clue(text, whatever, _sections(whatever)))
    extra = {Effect.CANCEL_AND_DRAW, Effect.CANCEL_FOR_ALL}
    plain = frozenset(b.name for b in blues if b.effect not in extra)
    out.append(Clue("Cancelo el ataque contra ti y no hago nada más.", plain, _sections(plain)))
    return out


def computed_clues() -> list[Clue]:
    """The clues the engine's card data states about every strategy (colour, copies, reach, defences)."""
    return _colour_and_copy_clues() + _red_clues() + _blue_clues()


SETS = load_riddle_sets(GAME)
COMPUTED = frozenset(c.text for c in computed_clues()) - set(COVERS.values())  # "your hand": Manos de Diamante
STRATEGY_RIDDLES: RiddleSet = (
    SETS["estrategia"]
    .with_clues(computed_clues())
    .with_universe(s.name for s in STRATEGIES)
    .without(TWINS)
    .only_clues(lambda c: c.text in COMPUTED)
)
"""Entry riddles: only the printed cards' data (colour, copies, whom a red reaches, which blue stops it). The
hand-written clues described a strategy's effect, which its name gives away (closed-book baseline, round 1);
they stay in the practice set :data:`STRATEGY_PRACTICE`, which never uses the entry riddles' clues (a riddle
harvested from practice is never an entry riddle)."""
STRATEGY_PRACTICE: RiddleSet = (
    SETS["estrategia"]
    .with_universe(s.name for s in STRATEGIES)
    .without(TWINS)
    .only_clues(lambda c: c.text not in COMPUTED)
)
STRATEGY = riddle_template(
    GAME,
    "acertijo-estrategia",
    STRATEGY_RIDDLES,
    explain="Es {answer}: su carta (y la tabla de colores del reglamento) reúne todas las pistas, y ninguna otra.",
)
STRATEGY_DESCRIBED = riddle_template(
    GAME,
    "acertijo-estrategia-descrita",
    STRATEGY_PRACTICE,
    explain="Es {answer}: su carta (y la tabla de colores del reglamento) reúne todas las pistas, y ninguna otra.",
    entry=False,  # its effect, described, is guessed from the strategies' names
)
CONCEPT = riddle_template(
    GAME,
    "acertijo-concepto",
    SETS["concepto"],
    explain="Es {answer}: el reglamento lo describe con esas propiedades.",
    entry=False,  # guessed from the clues and the term list without the rulebook (baseline round 1: 3/4)
)
GUESSED_NUMBERS = frozenset({1, 2, 4, 6, 8, 10})
"""Numbers a guess finds without the rulebook (one action, four colours, two bad faces, six players at most;
eight cards and 5M + 5M, which other items show): closed-book baseline, round 1, 4/5. Entry riddles ask the
others (25, 60, 100, 180, 12), and never the die's six faces."""
NUMBERS: RiddleSet = SETS["numero"].only_clues(
    lambda c: not c.holds <= GUESSED_NUMBERS and "caras del dado" not in c.text
)
NUMBER = riddle_template(
    GAME,
    "acertijo-numero",
    NUMBERS,
    explain="Es {answer}: es el número que el reglamento da a cada una de esas cosas.",
    # practice: paired clues derive the number (60 per deck gives 180 in the box; the Leyenda and Campeonato
    # goals give 100): closed-book baseline, round 2, 5/7
    entry=False,
)
GUESSED_NUMBER = riddle_template(
    GAME,
    "acertijo-numero-facil",
    SETS["numero"].only_clues(lambda c: c.holds <= GUESSED_NUMBERS),
    explain="Es {answer}: es el número que el reglamento da a cada una de esas cosas.",
    entry=False,
)

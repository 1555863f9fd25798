"""Yo soy el jefe's acertijos: an influence card, a role, a concept, a number, a deal card or a board space.

The subjects and hand-written clues are in ``quizzes/data/yo-soy-el-jefe/acertijos.toml``. Two sets are
computed here from the engine's component data (:func:`club_agentes.engine.yo_soy_el_jefe.components.components`):
the deal cards, by the dividend value on their front and the numbers on their back, and the board's
spaces, by their dividends and the families they ask for. Both are this implementation's own data, so
no reader of another edition of the game knows them.
"""

from __future__ import annotations

from club_agentes.quizzes.acertijos import Clue, RiddleSet, load_riddle_sets, riddle_template
from club_agentes.quizzes.generators.yo_soy_el_jefe.common import (
    CASILLAS_DATOS,
    DEAL_CARDS,
    FIN,
    GAME,
    NEGOCIACION_DATOS,
    SPACES,
    TABLERO,
)
from club_agentes.quizzes.wording import count, join

OPENINGS = ("Adivina, adivinanza.", "Acertijo del Club de Agentes.", "A ver si me reconoces.", "Escucha bien.")


def deal_card_riddles() -> RiddleSet:
    """Riddles whose answer is the number of a deal card (1 to 15), from its front and back."""
    clues: list[Clue] = []
    values = sorted({c.dividend for c in DEAL_CARDS})
    for v in values:
        holds = frozenset(c.number for c in DEAL_CARDS if c.dividend == v)
        clues.append(Clue(f"Mientras estoy arriba del mazo, cada dividendo vale {v}M.", holds, (NEGOCIACION_DATOS,)))
    for c in DEAL_CARDS:
        if c.end_numbers:
            faces = join([str(x) for x in c.end_numbers], "y")
            noun = "el número" if len(c.end_numbers) == 1 else "los números"
            clues.append(
                Clue(
                    f"En mi reverso está{'n' if len(c.end_numbers) > 1 else ''} {noun} {faces}.",
                    frozenset({c.number}),
                    (NEGOCIACION_DATOS, FIN),
                )
            )
    plain = frozenset(c.number for c in DEAL_CARDS if not c.end_numbers)
    clues.append(Clue("Mi reverso no tiene ningún número.", plain, (NEGOCIACION_DATOS, FIN)))
    # No clue says where a card starts in the deck, or that it ends the game: "the top card" is 1 and "the last"
    # the highest number to any guess (closed-book baseline, round 1); the dividends and backs need the data.
    rs = RiddleSet(
        tuple(c.number for c in DEAL_CARDS),
        tuple(clues),
        OPENINGS,
        ("¿Qué carta de negociación soy? (Di su número.)", "¿Cuál es mi número?"),
        {c.number: NEGOCIACION_DATOS for c in DEAL_CARDS},
        "integer",
    )
    return rs.without(rs.unsolved())


def space_riddles() -> RiddleSet:
    """Riddles whose answer is the number of a board space (1 to 16), from its dividends and families."""
    out: dict[str, set[int]] = {}
    for s in SPACES:
        texts = [
            f"Quien cierra un trato sobre mí cobra {count(s.dividends, 'dividendo', 'dividendos')}.",
            f"Hacen falta {count(len(s.mandatory) + s.optional_needed, 'inversor', 'inversores')} para cerrarme.",
            f"Exijo, sí o sí, los inversores de color {join(list(s.mandatory))}.",
        ]
        if s.optional_needed:
            texts.append(
                f"Además pido {count(s.optional_needed, 'inversor', 'inversores')} entre {join(list(s.optional))}."
            )
        else:
            texts.append("No pido ningún inversor aparte de los obligatorios.")
        for text in texts:
            out.setdefault(text, set()).add(s.number)
    clues = tuple(Clue(t, frozenset(h), (CASILLAS_DATOS, TABLERO)) for t, h in out.items())
    rs = RiddleSet(
        tuple(s.number for s in SPACES),
        clues,
        OPENINGS,
        ("¿Qué casilla del tablero soy? (Di su número.)", "¿Cuál es mi número en el tablero?"),
        {s.number: CASILLAS_DATOS for s in SPACES},
        "integer",
    )
    return rs.without(rs.unsolved())


SETS = load_riddle_sets(GAME)
# Practice only: the influence cards, concepts and spaces are guessed from their clues without the rulebook
# (closed-book baseline, round 1: 2/2, 3/3, 2/2); the numbers' riddle keeps only the box's counts.
riddle_template(
    GAME,
    "acertijo-carta",
    SETS["carta"],
    explain="Es la carta de {answer}: el reglamento le da esas propiedades.",
    entry=False,
)
riddle_template(
    GAME,
    "acertijo-papel",
    SETS["papel"],
    explain="Es el papel de {answer}, tal como lo describe el reglamento.",
    entry=False,  # practice: four roles, and the game's name says who says «¡Vamos a negociar!»
)
riddle_template(
    GAME, "acertijo-concepto", SETS["concepto"], explain="Es {answer}: el reglamento lo describe así.", entry=False
)
GUESSED_NUMBERS = frozenset({2, 3, 4, 5, 10, 15, 16})
"""Numbers a guess finds (small counts; the 16 spaces and 15 deal cards other items show; the tenth deal of the
well-known game): closed-book baseline, round 1, 2/3. Entry riddles ask the box's counts (98, 24, 33, 110, 12)."""
riddle_template(
    GAME,
    "acertijo-numero",
    SETS["numero"].only_clues(lambda c: not c.holds <= GUESSED_NUMBERS),
    explain="Es {answer}: el número que el reglamento da a esas cosas.",
)
riddle_template(
    GAME,
    "acertijo-numero-facil",
    SETS["numero"].only_clues(lambda c: c.holds <= GUESSED_NUMBERS),
    explain="Es {answer}: el número que el reglamento da a esas cosas.",
    entry=False,
)
riddle_template(
    GAME,
    "acertijo-carta-de-negociacion",
    deal_card_riddles(),
    explain="Es la carta de negociación {answer}: su anverso y su reverso reúnen las pistas.",
)
riddle_template(
    GAME,
    "acertijo-casilla",
    space_riddles(),
    explain="Es la casilla {answer}: así la describen los datos del tablero.",
    entry=False,
)

"""The corpus ids that Se Vende's engine cites, named once.

Rulebook sections are ``se-vende/...``; this implementation's rulings are
``se-vende/rulings/...`` (in ``rules_corpus/data/se-vende/authored/rulings.toml``).
"""

from __future__ import annotations

# Rulebook sections.
SECRET_CHOICE = "se-vende/resumen/eleccion-secreta"
SETUP_DISCARD = "se-vende/preparacion/paso-5-descarte"
MILITARY = "se-vende/preguntas/mundos-militares"
TRADE = "se-vende/preguntas/comercio"
UP_TO_N = "se-vende/preguntas/poderes-hasta-n-bienes"
HAND_LIMIT = "se-vende/preguntas/limite-de-mano"
PRODUCE = "se-vende/preguntas/producir"
NOTHING_PLACED = "se-vende/preguntas/no-colocar-nada"
GAME_END = "se-vende/fin-de-la-partida"
SCORING = "se-vende/puntuacion"

# Rulings of this implementation.
DECISIONS = "se-vende/rulings/decisiones"
EXPLORE = "se-vende/rulings/explorar"
DEVELOP = "se-vende/rulings/desarrollar"
SETTLE = "se-vende/rulings/asentar"
PAYING = "se-vende/rulings/pagar-costos"
CONSUME = "se-vende/rulings/consumir"
CONSUME_HAND = "se-vende/rulings/poderes-de-mano"
PRODUCE_CHOICE = "se-vende/rulings/producir"
CHIPS = "se-vende/rulings/fichas"
TURN_LIMIT = "se-vende/rulings/limite-de-rondas"
TIES = "se-vende/rulings/empates"

CITED: frozenset[str] = frozenset(
    {
        SECRET_CHOICE,
        SETUP_DISCARD,
        MILITARY,
        TRADE,
        UP_TO_N,
        HAND_LIMIT,
        PRODUCE,
        NOTHING_PLACED,
        GAME_END,
        SCORING,
        DECISIONS,
        EXPLORE,
        DEVELOP,
        SETTLE,
        PAYING,
        CONSUME,
        CONSUME_HAND,
        PRODUCE_CHOICE,
        CHIPS,
        TURN_LIMIT,
        TIES,
    }
)
"""Every id the engine cites in an ``IllegalMove``, a default move or a ``Result`` (besides the card sections).

A result's breakdown also cites the corpus section of each cost-6 development whose special
points it counts (``se-vende/cartas/<key>``, see :func:`card_section`).
"""


def card_section(key: str) -> str:
    """Return the corpus id of a card design's section, e.g. ``se-vende/cartas/imperio-de-las-mareas``."""
    return f"se-vende/cartas/{key}"

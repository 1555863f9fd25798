"""Se Vende's seven action cards and the phases they select (se-vende/rulings/cartas-de-accion).

Data only: the codes moves use, the printed names, the phase each card selects and each
card's effect in English. Every seat holds the same seven cards.
"""

from __future__ import annotations

from functools import lru_cache

# Phases, in rulebook order (I to V).
EXPLORE, DEVELOP, SETTLE, CONSUME, PRODUCE = 1, 2, 3, 4, 5
PHASE_NAMES: dict[int, str] = {
    EXPLORE: "Explorar",
    DEVELOP: "Desarrollar",
    SETTLE: "Asentar",
    CONSUME: "Consumir",
    PRODUCE: "Producir",
}
PHASE_NUMERALS: dict[int, str] = {EXPLORE: "I", DEVELOP: "II", SETTLE: "III", CONSUME: "IV", PRODUCE: "V"}

ACTIONS: tuple[tuple[str, str, str], ...] = (
    ("explorar-5", "Explorar +5", "E5"),
    ("explorar-1-1", "Explorar +1/+1", "E11"),
    ("desarrollar", "Desarrollar", "DEV"),
    ("asentar", "Asentar", "SET"),
    ("comercio", "Consumir: Comercio", "TRD"),
    ("2x-pv", "Consumir: 2x PV", "X2"),
    ("producir", "Producir", "PRO"),
)
"""The seven action cards: (code used in moves, printed name, short tag used in ids)."""

ACTION_CODES: tuple[str, ...] = tuple(a[0] for a in ACTIONS)
ACTION_NAMES: dict[str, str] = {a[0]: a[1] for a in ACTIONS}
ACTION_TAGS: dict[str, str] = {a[0]: a[2] for a in ACTIONS}

PHASE_OF_ACTION: dict[str, int] = {
    "explorar-5": EXPLORE,
    "explorar-1-1": EXPLORE,
    "desarrollar": DEVELOP,
    "asentar": SETTLE,
    "comercio": CONSUME,
    "2x-pv": CONSUME,
    "producir": PRODUCE,
}

ACTION_EFFECTS: dict[str, tuple[str, str]] = {
    "explorar-5": ("I Explorar", "every seat draws 2 cards and keeps 1; you draw 5 more"),
    "explorar-1-1": ("I Explorar", "every seat draws 2 cards and keeps 1; you draw 1 more and keep 1 more"),
    "desarrollar": (
        "II Desarrollar",
        "every seat may place one development, discarding cards for its cost; you pay 1 card less",
    ),
    "asentar": (
        "III Asentar",
        "every seat may place one world, discarding cards for its cost (a military world is free with "
        "Militar >= its defence); you draw 1 card after placing",
    ),
    "comercio": (
        "IV Consumir",
        "every seat may use its consume powers; you must first sell one good for cards (novedad 2, "
        "elementos raros 3, genes 4, tecnología alienígena 5)",
    ),
    "2x-pv": (
        "IV Consumir",
        "every seat may use its consume powers; your points from consuming goods with powers are doubled",
    ),
    "producir": (
        "V Producir",
        "every empty production world gets a good; you may also produce on one of your empty windfall worlds",
    ),
}
"""Each action card's phase and effect, in English (se-vende/rulings/cartas-de-accion, se-vende/rulings/explorar)."""


@lru_cache(maxsize=4096)
def action_token(round_no: int, seat: int, code: str) -> str:
    """Return the id of ``seat``'s action card ``code`` as played in ``round_no`` (e.g. ``SV-R007-S2-E5``).

    The id is per round, so a card revealed last round never matches a sealed choice of this round.

    Raises:
        KeyError: ``code`` is not an action code.
    """
    return f"SV-R{round_no:03d}-S{seat}-{ACTION_TAGS[code]}"

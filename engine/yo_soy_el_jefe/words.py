"""Names in the events, prompts and views: cards, colours, money and board spaces, in English with the
rulebook's Spanish terms."""

from __future__ import annotations

from collections.abc import Sequence

from club_agentes.engine.core.windows import clockwise_from
from club_agentes.engine.yo_soy_el_jefe.components import KIND_LABELS
from club_agentes.engine.yo_soy_el_jefe.state import CARDS, SPACES

CLOCKWISE: dict[int, tuple[tuple[int, ...], ...]] = {
    n: tuple(clockwise_from(first, n) for first in range(n)) for n in range(2, 7)
}
"""``CLOCKWISE[n][first]``: the ``n`` seats clockwise (ascending, wrapping) from ``first``."""

CARD_LABEL: tuple[str, ...] = tuple(f"{c.kind} {c.colour}" if c.colour else c.kind for c in CARDS)
"""A card's kind and colour without its id, e.g. ``"travel azul"`` (what a seat may know of a card it saw)."""


def card_name(card: int) -> str:
    """Return a card's name with its id, e.g. ``"travel card (viaje) azul YSJ-VIA-AZU-1"``."""
    c = CARDS[card]
    return f"{KIND_LABELS[c.kind]} {c.colour} {c.id}" if c.colour else f"{KIND_LABELS[c.kind]} {c.id}"


def millions(amount: int) -> str:
    """Return an amount of money with its unit, e.g. ``"8M"``."""
    return f"{amount}M"


SPACE_WORDS: tuple[str, ...] = tuple(f"{s.dividends} dividends, needs {s.describe()}" for s in SPACES)


def space_words(space: int) -> str:
    """Return a board space (0-based) in words, e.g. ``"6 dividends, needs rojo, azul + 1 of rosa/verde"``."""
    return SPACE_WORDS[space]


def seat_list(seats: Sequence[int], names: Sequence[str] | None = None) -> str:
    """Return ``"seat 1, seat 2 and seat 3"`` (or the given labels)."""
    words = [names[s] if names is not None else f"seat {s}" for s in seats]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]

"""Spanish wording of Se Vende situations: players, counts, cards and their powers.

Card texts come from the engine's card data (:meth:`CardDef.kind_text`, :meth:`Power.text`),
which the corpus publishes in the same words (``se-vende/cartas/...``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from club_agentes.engine.se_vende.cards import GOOD_NAMES, CardDef, PowerName
from club_agentes.quizzes.generators.se_vende.rules import ACTION_NAMES, PHASE_OF_CARD

NAMES: tuple[str, ...] = ("Ana", "Bruno", "Carla", "David")
"""Seat 0 is Ana, seat 1 Bruno, and so on."""


def count(n: int, singular: str, plural: str, *, feminine: bool = True) -> str:
    """Return a Spanish count: "ninguna carta", "1 carta", "3 cartas" (masculine: "ningún bien")."""
    if n == 0:
        return f"{'ninguna' if feminine else 'ningún'} {singular}"
    return f"1 {singular}" if n == 1 else f"{n} {plural}"


def cards(n: int) -> str:
    """Return "1 carta" or "n cartas" ("ninguna carta" for 0)."""
    return count(n, "carta", "cartas")


def goods(n: int) -> str:
    """Return "1 bien" or "n bienes" ("ningún bien" for 0)."""
    return count(n, "bien", "bienes", feminine=False)


def holding(owner: str, n: int) -> str:
    """Return "los mundos de Ana no tienen ningún bien" or "los mundos de Ana tienen 2 bienes"."""
    if n == 0:
        return f"los mundos de {owner} no tienen ningún bien"
    return f"los mundos de {owner} tienen {goods(n)}"


def join(words: Sequence[str]) -> str:
    """Return "a", "a y b", "a, b y c"."""
    if not words:
        return ""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " y " + words[-1]


def action(code: str) -> str:
    """Return the printed name of an action card ("Consumir: Comercio")."""
    return ACTION_NAMES[code]


def revealed(actions: dict[int, str]) -> str:
    """Return the revealed action cards of a round: "Ana, Asentar; Bruno, Consumir: Comercio"."""
    return "; ".join(f"{NAMES[s]}, {action(a)}" for s, a in sorted(actions.items()))


def name(card: CardDef) -> str:
    """Return a card's name in quotes: «Puerto Marea»."""
    return f"«{card.name}»"


def powers(card: CardDef, phase: str | None = None) -> list[str]:
    """Return the card's powers as printed (only those of ``phase`` when given)."""
    return [p.text() for p in card.powers if phase is None or p.text().startswith(phase + ":")]


def card(card: CardDef, phase: str | None = None, *, kind: bool = True) -> str:
    """Return «Name» (what it is; its powers), with only the powers of ``phase`` when given."""
    bits = [card.kind_text()] if kind else []
    bits += powers(card, phase)
    return f"{name(card)} ({'; '.join(b.rstrip('.') for b in bits)})" if bits else name(card)


def power_cards(owner: str, cards_: Iterable[CardDef], what: str, only: Iterable[PowerName]) -> str:
    """Return a sentence listing ``owner``'s cards with the ``only`` powers, called ``what`` in the sentence.

    "Las cartas del tableau de Ana con poderes de Explorar son «A» (Explorar: roba 1 carta más) y «B» (...)."
    or "Ninguna carta del tableau de Ana tiene poderes de Explorar." (``what`` = "poderes de Explorar").
    """
    wanted = set(only)
    found = []
    for c in cards_:
        texts = [p.text().rstrip(".") for p in c.powers if p.name in wanted]
        if texts:
            found.append(f"{name(c)} ({'; '.join(texts)})")
    if not found:
        return f"Ninguna carta del tableau de {owner} tiene {what}."
    if len(found) == 1:
        return f"La única carta del tableau de {owner} con {what} es {found[0]}."
    return f"Las cartas del tableau de {owner} con {what} son {join(found)}."


def table_power_cards(owners: Sequence[tuple[str, Sequence[CardDef]]], what: str, only: Iterable[PowerName]) -> str:
    """Return a sentence listing every player's cards with the ``only`` powers ("«A» de Ana (...)")."""
    wanted = set(only)
    found = []
    for owner, cards_ in owners:
        for c in cards_:
            texts = [p.text().rstrip(".") for p in c.powers if p.name in wanted]
            if texts:
                found.append(f"{name(c)} de {owner} ({'; '.join(texts)})")
    if not found:
        return f"Ninguna carta de los tableaus tiene {what}."
    if len(found) == 1:
        return f"La única carta de los tableaus con {what} es {found[0]}."
    return f"Las cartas de los tableaus con {what} son {join(found)}."


def good(kind: str) -> str:
    """Return a kind of good in Spanish ("elementos raros")."""
    return GOOD_NAMES[kind]


def phase_of(code: str) -> str:
    """Return the phase an action card selects."""
    return PHASE_OF_CARD[code]

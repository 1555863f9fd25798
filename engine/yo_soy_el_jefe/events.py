"""The events of Yo soy el jefe that say the same every time they happen (a roll, a bid, a pass, a price
named...), each built once.

An :class:`~club_agentes.engine.core.Event` is immutable, so one object stands for every occurrence: each
function below words one formulaic event from small immutable arguments (seats, colours, amounts, spaces) and
:func:`functools.lru_cache` keeps what it returned. No rule is decided here: the steps decide, then ask for
their event by what it says. None of these functions raises.
"""

from __future__ import annotations

from functools import lru_cache

from club_agentes.engine.core import Event
from club_agentes.engine.yo_soy_el_jefe.moves import MILLIONS
from club_agentes.engine.yo_soy_el_jefe.state import CARDS, SPACES
from club_agentes.engine.yo_soy_el_jefe.words import space_words

# Amounts make the widest of these sets; the bound keeps a long-lived server's memory flat.
_KEEP = 16384


def _who(seat: int, boss: bool) -> str:
    return f"seat {seat} (the boss)" if boss else f"seat {seat}"


@lru_cache(maxsize=_KEEP)
def rolled(seat: int, roll: int, pos: int) -> Event:
    """Return the event of ``seat`` rolling ``roll`` and moving the marker to space index ``pos``."""
    text = f"seat {seat} rolled {roll} and moved the marker to space {pos + 1} ({space_words(pos)})."
    return Event(text, data={"roll": roll, "space": pos + 1})


@lru_cache(maxsize=_KEEP)
def negotiating(seat: int, space: int, number: int, dividends: int, value: int, payout: int) -> Event:
    """Return the event of ``seat`` saying "¡Vamos a negociar!" on space index ``space`` with deal card ``number``
    (its ``dividends`` of ``value`` millions pay ``payout``)."""
    text = (
        f"seat {seat} said '¡Vamos a negociar!' on space {space + 1}: {dividends} dividends of "
        f"{value}M (deal card #{number}) pay {payout}M and need {SPACES[space].describe()}; "
        f"seat {seat} is the boss."
    )
    return Event(text, data={"space": space + 1, "payout": payout, "boss": seat})


@lru_cache(maxsize=_KEEP)
def placed_family(seat: int, boss: bool, colour: str, card: int) -> Event:
    """Return the event of ``seat`` (the boss or not) placing its family card ``card`` of ``colour`` in the deal."""
    card_id = CARDS[card].id
    text = f"{_who(seat, boss)} placed family card (familia) {colour} {card_id} in the deal."
    return Event(text, data={"seat": seat, "colour": colour, "card": card_id})


@lru_cache(maxsize=_KEEP)
def refused(seat: int, boss: bool, millions: int, target: int, colour: str) -> Event:
    """Return the event of ``seat`` refusing the price of ``millions`` for seat ``target``'s ``colour``."""
    return Event(f"{_who(seat, boss)} refused {millions}M for seat {target}'s {colour}.")


@lru_cache(maxsize=_KEEP)
def withdrew(seat: int, boss: bool, millions: int, target: int, colour: str) -> Event:
    """Return the event of ``seat`` withdrawing its price of ``millions`` for seat ``target``'s ``colour``."""
    whose = "its" if seat == target else f"seat {target}'s"
    return Event(f"{_who(seat, boss)} withdrew its price of {millions}M for {whose} {colour}.")


@lru_cache(maxsize=_KEEP)
def passed(seat: int, boss: bool) -> Event:
    """Return the event of ``seat`` passing (the boss waits)."""
    return Event(f"seat {seat} (the boss) waits." if boss else f"seat {seat} passed.")


@lru_cache(maxsize=_KEEP)
def offered(seat: int, colour: str, how: str) -> Event:
    """Return the event of ``seat`` offering its ``colour`` (``how``: by investor or family card) to the boss."""
    return Event(f"seat {seat} offers its {colour} ({how}) to the boss and names its price.")


@lru_cache(maxsize=_KEEP)
def bid(seat: int, target: int, colour: str) -> Event:
    """Return the event of the boss ``seat`` proposing a price to seat ``target`` for its ``colour``."""
    return Event(f"seat {seat} (the boss) proposes a price to seat {target} for its {colour}.")


@lru_cache(maxsize=_KEEP)
def priced(by_boss: bool, actor: int, target: int, colour: str, named: int, unit: str, amount: int) -> Event:
    """Return the event of ``actor`` naming a price of ``named`` ``unit`` (``amount`` millions) for seat
    ``target``'s ``colour`` (proposed by the boss when ``by_boss``, else asked of it)."""
    words = f"{named}M" if unit == MILLIONS else f"{named} dividend(s) ({amount}M)"
    if by_boss:
        text = f"seat {actor} (the boss) proposes {words} to seat {target} for its {colour}."
    else:
        text = f"seat {actor} asks {words} of the boss for its {colour}."
    return Event(text, data={"seat": target, "colour": colour, "millions": amount, "by": actor})


@lru_cache(maxsize=_KEEP)
def deal_failed(seat: int, space: int) -> Event:
    """Return the event of the boss ``seat`` declaring the deal on space index ``space`` failed."""
    return Event(f"seat {seat} (the boss) declared that the deal on space {space + 1} has failed.")

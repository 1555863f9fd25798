"""The events of Market Fortune that say the same every time they happen, each built once.

An :class:`~club_agentes.engine.core.Event` is immutable, so one object stands for every occurrence: each
function below words one formulaic event from small immutable arguments (seats, card indexes, short words)
and :func:`functools.lru_cache` keeps what it returned. No rule is decided here: the steps decide, then ask
for their event by what it says. None of these functions raises.
"""

from __future__ import annotations

from functools import lru_cache

from club_agentes.engine.core import Event
from club_agentes.engine.market_fortune.components import CARD_ID, CARD_NAME
from club_agentes.engine.market_fortune.moves import SOURCE_WORDS

# Every argument ranges over a small finite set (seats, cards, sources, investments #0-3, the wording of a die
# roll); the turn number is bounded by the game's length, so the bound below only guards a long-lived server.
_KEEP = 4096


def _cn(card: int) -> str:
    return f"{CARD_NAME[card]} ({CARD_ID[card]})"


@lru_cache(maxsize=_KEEP)
def on_turn(number: int, seat: int, banned: bool) -> Event:
    """Return ``"turn <n>: seat <s> is on turn"`` (with Bloqueo Regulatorio's ban when ``banned``)."""
    extra = " (Bloqueo Regulatorio: no Arriesgar this turn)" if banned else ""
    return Event(f"turn {number}: seat {seat} is on turn{extra}")


@lru_cache(maxsize=_KEEP)
def took_from(seat: int, verb: str, source: str) -> Event:
    """Return the public event of ``seat`` taking a card it does not show from a deck ``source``."""
    return Event(f"seat {seat} {verb} a card from {SOURCE_WORDS[source]}")


@lru_cache(maxsize=_KEEP)
def you_took_from(seat: int, card: int, source: str) -> Event:
    """Return ``seat``'s own event of the card it took from a deck ``source``."""
    return Event(f"you took {_cn(card)} from {SOURCE_WORDS[source]}", (seat,), {"card": CARD_ID[card]})


@lru_cache(maxsize=_KEEP)
def took_shown(seat: int, verb: str, card: int, source: str) -> Event:
    """Return the public event of ``seat`` taking ``card`` (seen by all) from a discard pile ``source``."""
    return Event(f"seat {seat} {verb} {_cn(card)} from {SOURCE_WORDS[source]}", None, {"card": CARD_ID[card]})


@lru_cache(maxsize=_KEEP)
def holds_no_more(seat: int, count: int) -> Event:
    """Return the event of Construir ending with ``count`` building cards (8 at most): nothing is discarded."""
    return Event(f"seat {seat} holds {count} building cards, not more than 8, and discards nothing")


@lru_cache(maxsize=_KEEP)
def discarded(seat: int, card: int) -> Event:
    """Return the public event of ``seat`` discarding ``card`` at the end of Construir."""
    return Event(f"seat {seat} discarded {_cn(card)}", None, {"card": CARD_ID[card]})


@lru_cache(maxsize=_KEEP)
def dominated(seat: int) -> Event:
    """Return the public event of ``seat`` choosing Dominar."""
    return Event(f"seat {seat} chose Dominar and took 1 strategy")


@lru_cache(maxsize=_KEEP)
def you_took(seat: int, card: int) -> Event:
    """Return ``seat``'s own event of the strategy ``card`` it took with Dominar."""
    return Event(f"you took {_cn(card)}", (seat,), {"card": CARD_ID[card]})


@lru_cache(maxsize=_KEEP)
def keeps_strategy(seat: int) -> Event:
    """Return the public event of ``seat`` keeping the strategy it took with Dominar."""
    return Event(f"seat {seat} keeps the strategy it took")


@lru_cache(maxsize=_KEEP)
def optimises(seat: int, investment: int, stock: bool) -> Event:
    """Return the public event of ``seat`` swapping the $ (``stock``) or +R card of one of its investments."""
    return Event(
        f"seat {seat} optimises investment #{investment}: swaps its {'$' if stock else '+R'} card with one "
        "from its hand and now discards 1 building card as the cost"
    )


@lru_cache(maxsize=_KEEP)
def paid_optimisation(seat: int, card: int) -> Event:
    """Return the public event of ``seat`` discarding ``card`` to pay an optimisation."""
    return Event(f"seat {seat} paid the optimisation by discarding {_cn(card)}", None, {"card": CARD_ID[card]})


@lru_cache(maxsize=_KEEP)
def risk_failed(seat: int, how: str) -> Event:
    """Return the public event of ``seat``'s Arriesgar failing (``how``: what decided it)."""
    return Event(f"seat {seat} chose Arriesgar: {how}, the investment fails and both cards return to its hand")


@lru_cache(maxsize=_KEEP)
def risk_formed(seat: int, how: str, k: int) -> Event:
    """Return the public event of ``seat``'s Arriesgar forming investment ``#k`` (``how``: what decided it)."""
    n = k + 1
    return Event(
        f"seat {seat} chose Arriesgar: {how} and investment #{k} is formed face down "
        f"({n} investment{'s' if n != 1 else ''})"
    )


@lru_cache(maxsize=_KEEP)
def momentum(seat: int) -> Event:
    """Return the public event of ``seat`` taking a strategy for Momentum."""
    return Event(f"seat {seat} takes 1 strategy (Momentum)")


@lru_cache(maxsize=_KEEP)
def you_took_momentum(seat: int, card: int) -> Event:
    """Return ``seat``'s own event of the strategy ``card`` it took for Momentum."""
    return Event(f"Momentum: you took {_cn(card)}; you cannot use it this turn", (seat,), {"card": CARD_ID[card]})

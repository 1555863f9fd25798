"""The events of Se Vende that say the same every time they happen (a sealed choice, a round beginning, a seat
that places nothing or has finished consuming...), each built once.

An :class:`~club_agentes.engine.core.Event` is immutable, so one object stands for every occurrence: each
function below words one formulaic event from small immutable arguments (seats, counts, names) and
:func:`functools.lru_cache` keeps what it returned, as the other games' ``events.py`` do. No rule is decided
here: the steps decide, then ask for their event by what it says. None of these functions raises.
"""

from __future__ import annotations

from functools import lru_cache

from club_agentes.engine.core import Event
from club_agentes.engine.se_vende.table import plural

# Seats, rounds, card tokens and counts make these sets; the bound keeps a long-lived server's memory flat.
_KEEP = 4096


@lru_cache(maxsize=_KEEP)
def chose_action(seat: int) -> Event:
    """Return the public event of ``seat`` sealing its action card."""
    return Event(f"seat {seat} has chosen an action card")


@lru_cache(maxsize=_KEEP)
def chose_action_sealed(seat: int, action: str, token: str) -> Event:
    """Return ``seat``'s own event of the action card it sealed (``action`` its name, ``token`` the card's id)."""
    return Event(f"you chose {action} ({token}); it stays sealed until every seat has chosen", (seat,))


@lru_cache(maxsize=_KEEP)
def round_begins(round_number: int) -> Event:
    """Return the event of round ``round_number`` beginning."""
    return Event(f"round {round_number} begins: every seat chooses an action card in secret")


@lru_cache(maxsize=_KEEP)
def placing_begins(phase: str, what: str) -> Event:
    """Return the event of Desarrollar or Asentar (``phase``) beginning: every seat chooses ``what`` to place."""
    return Event(f"{phase}: every seat chooses in secret {what} to place, or none")


@lru_cache(maxsize=_KEEP)
def chose_placement(seat: int) -> Event:
    """Return the public event of ``seat`` sealing what it places."""
    return Event(f"seat {seat} has chosen what to place")


@lru_cache(maxsize=_KEEP)
def will_place_nothing(seat: int) -> Event:
    """Return ``seat``'s own event of sealing no placement."""
    return Event("you will place nothing this phase (sealed until every seat has chosen)", (seat,))


@lru_cache(maxsize=_KEEP)
def places_nothing(seat: int, phase: str) -> Event:
    """Return the event of ``seat`` placing nothing in ``phase`` (revealed)."""
    return Event(f"seat {seat} places nothing in {phase}")


@lru_cache(maxsize=_KEEP)
def explores(seat: int, drawn: int, keep: int) -> Event:
    """Return the event of ``seat`` exploring: it draws ``drawn`` cards and keeps ``keep``."""
    return Event(f"seat {seat} explores: draws {plural(drawn, 'card')} and keeps {keep}")


@lru_cache(maxsize=_KEEP)
def kept_and_discarded(seat: int, discarded: int) -> Event:
    """Return the event of ``seat`` keeping its explored cards and discarding ``discarded`` face down."""
    return Event(f"seat {seat} has kept its cards and discards {discarded} face down")


@lru_cache(maxsize=_KEEP)
def finishes_consuming(seat: int) -> Event:
    """Return the event of ``seat`` finishing its consuming."""
    return Event(f"seat {seat} finishes consuming")


@lru_cache(maxsize=_KEEP)
def nothing_to_consume(seat: int) -> Event:
    """Return the event of ``seat`` having nothing more to consume."""
    return Event(f"seat {seat} has nothing more to consume")

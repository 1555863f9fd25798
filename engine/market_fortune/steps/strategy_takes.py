"""The cards a red strategy lets you take: Comprar Más (:data:`TAKE_STEP`) and Rescate (:data:`RESCUE_STEP`).

Comprar Más: "Toma 1 carta de construcción extra: la superior del mazo $ o del mazo +R, o la
superior de un descarte ($ o +R)"; Rescate: "Toma cartas de los mazos $ o +R, una a una y a tu
elección, hasta tener 8" (market-fortune/cartas/comprar-mas, market-fortune/cartas/rescate).
"""

from __future__ import annotations

from typing import Any

from club_agentes.engine.market_fortune import rules as rid
from club_agentes.engine.market_fortune.flow import after_red
from club_agentes.engine.market_fortune.moves import BUILDING_SOURCES, DECK_SOURCES, Take, intern
from club_agentes.engine.market_fortune.state import BUILDING_TARGET, RESCUE, TAKE, State
from club_agentes.engine.market_fortune.steps.base import declare, out_of
from club_agentes.engine.market_fortune.table import (
    Events,
    Refusal,
    building_count,
    by_open_sources,
    open_sources,
    source_check,
    take_from,
)

TAKE_MOVES = {src: intern(Take, src) for src in BUILDING_SOURCES}
_TAKES = by_open_sources(TAKE_MOVES, BUILDING_SOURCES)
RESCUE_RULE = "market-fortune/cartas/rescate"


def take_check(state: State, seat: int, source: str) -> Refusal | None:
    """Comprar Más: return why the card may not come from ``source``, or ``None``."""
    return source_check(state, source)


def take_moves(state: State, seat: int) -> list[Any]:
    """Legal moves of Comprar Más: each building source that :func:`open_sources` (the verdict of
    :func:`source_check` for every source at once) leaves open."""
    return list(_TAKES[open_sources(state)])


def check_take(state: State, seat: int, move: Take) -> Refusal | None:
    """The check of Comprar Más's take (:func:`take_check`)."""
    return take_check(state, seat, move.source)


def apply_take(state: State, seat: int, move: Take) -> Events:
    """Comprar Más: take 1 building card from the source (checked); the turn goes on."""
    ev: Events = []
    take_from(state, seat, move.source, ev, "took (Comprar Más)")
    after_red(state, ev)
    return ev


TAKE_STEP = declare(
    TAKE,
    take_moves,
    {Take: (check_take, apply_take)},
    out_of(rid.YOUR_TURN, "Comprar Más is in progress: choose where to take 1 building card from"),
)


def rescue_check(state: State, seat: int, source: str) -> Refusal | None:
    """Rescate: return why the next card may not come from ``source`` (the $ or +R deck only), or ``None``."""
    return source_check(state, source, True, RESCUE_RULE)


def rescue_moves(state: State, seat: int) -> list[Any]:
    """Legal moves of Rescate: the $ or +R deck, while it can give a card."""
    return [TAKE_MOVES[src] for src in DECK_SOURCES if rescue_check(state, seat, src) is None]


def check_rescue(state: State, seat: int, move: Take) -> Refusal | None:
    """The check of Rescate's take (:func:`rescue_check`)."""
    return rescue_check(state, seat, move.source)


def apply_rescue(state: State, seat: int, move: Take) -> Events:
    """Rescate: take 1 card from the $ or +R deck (checked); again until 8 building cards (or no deck can give one)."""
    ev: Events = []
    take_from(state, seat, move.source, ev, "took (Rescate)")
    if building_count(state, seat) >= BUILDING_TARGET or not rescue_moves(state, seat):
        after_red(state, ev)
    return ev


RESCUE_STEP = declare(
    RESCUE,
    rescue_moves,
    {Take: (check_rescue, apply_rescue)},
    out_of(rid.YOUR_TURN, "Rescate is in progress: take a card from the $ or +R deck"),
)

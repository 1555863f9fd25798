"""Construir (market-fortune/cap-2/tu-turno): take 1 building card, then discard 1 while above 8.

"Toma 1 carta del mazo $ o +R, o la superior del descarte. Descarta 1 $ o +R" (ruling
construir-y-descartar: the discard is due only while you hold more than 8 building cards).
:func:`build_check` is the rule of the take (the piles' own rules are in
:func:`~club_agentes.engine.market_fortune.table.source_check`); :data:`DISCARD_STEP` is the
discard, before which an optimisation may come (ruling optimizacion-en-tu-turno).
"""

from __future__ import annotations

from typing import Any

from club_agentes.engine.market_fortune import events as said
from club_agentes.engine.market_fortune import rules as rid
from club_agentes.engine.market_fortune.flow import end_turn
from club_agentes.engine.market_fortune.moves import BUILDING_SOURCES, Build, Discard, Optimise, intern
from club_agentes.engine.market_fortune.state import BUILD_DISCARD, BUILDING_TARGET, State
from club_agentes.engine.market_fortune.steps.base import declare, out_of
from club_agentes.engine.market_fortune.steps.optimisation import add_optimise_moves, check_optimise, do_optimise
from club_agentes.engine.market_fortune.table import (
    Events,
    Refusal,
    building_count,
    by_open_sources,
    discard_building,
    discard_check,
    hand_discards,
    open_sources,
    source_check,
    take_discard,
    take_from,
)

BUILD_MOVES = {src: intern(Build, src) for src in BUILDING_SOURCES}
_BUILDS = by_open_sources(BUILD_MOVES, BUILDING_SOURCES)
"""The Construir moves each value of :func:`open_sources` leaves open (what :func:`build_moves` lists)."""


def build_check(state: State, seat: int, source: str) -> Refusal | None:
    """Return why Construir from ``source`` is refused now, or ``None`` (the piles' rule: :func:`source_check`)."""
    return source_check(state, source)


def build_moves(state: State, seat: int) -> list[Any]:
    """Return the legal Construir moves: one per source that :func:`open_sources` (the verdict of
    :func:`source_check` for every source at once) leaves open."""
    return list(_BUILDS[open_sources(state)])


def check_build(state: State, seat: int, move: Build) -> Refusal | None:
    """The check of Construir (:func:`build_check`, which is the piles' rule)."""
    return source_check(state, move.source)


def do_build(state: State, seat: int, move: Build) -> Events:
    """Apply Construir's take (checked); the discard step follows if more than 8 building cards are held."""
    ev: Events = []
    state.acted = True
    take_from(state, seat, move.source, ev, "chose Construir and took")
    count = building_count(state, seat)
    if count > BUILDING_TARGET:
        state.step = BUILD_DISCARD
    else:
        ev.append(said.holds_no_more(seat, count))
        end_turn(state, ev)
    return ev


# ---------------------------------------------------------------------------- the discard


def discard_moves(state: State, seat: int) -> list[Any]:
    """Legal moves of Construir's second half: discard 1 card, or optimise first."""
    out = hand_discards(state, seat)  # every discard hand_discard_check accepts
    if state.invs[seat]:
        add_optimise_moves(state, seat, out)
    return out


def apply_discard(state: State, seat: int, move: Discard) -> Events:
    """Construir's second half: discard 1 building card (checked); the turn ends."""
    card = take_discard(state, seat, move)
    discard_building(state, card)
    ev: Events = [said.discarded(seat, card)]
    end_turn(state, ev)
    return ev


DISCARD_STEP = declare(
    BUILD_DISCARD,
    discard_moves,
    {
        Discard: (discard_check(rid.RULING_BUILD_DISCARD), apply_discard),
        Optimise: (check_optimise, do_optimise),
    },
    out_of(rid.YOUR_TURN, "Construir is not finished: discard 1 $ or +R card from your hand"),
)

"""Construir (market-fortune/cap-2/tu-turno): take 1 building card, then discard 1 while above 8.

"Toma 1 carta del mazo $ o +R, o la superior del descarte. Descarta 1 $ o +R" (ruling
construir-y-descartar: the discard is due only while you hold more than 8 building cards).
:func:`build_check` is the rule of the take (the piles' own rules are in
:func:`~club_agentes.engine.market_fortune.table.source_check`); :data:`DISCARD_STEP` is the
discard, before which an optimisation may come (ruling optimizacion-en-tu-turno).
"""

from __future__ import annotations

from typing import Any

from club_agentes.engine.core import Event
from club_agentes.engine.market_fortune import rules as rid
from club_agentes.engine.market_fortune.components import CARD_ID, CARD_INDEX
from club_agentes.engine.market_fortune.flow import end_turn
from club_agentes.engine.market_fortune.moves import BUILDING_SOURCES, Build, Discard, Optimise, intern
from club_agentes.engine.market_fortune.state import BUILD_DISCARD, BUILDING_TARGET, State
from club_agentes.engine.market_fortune.steps.optimisation import DISCARD_MOVES, do_optimise, optimise_moves
from club_agentes.engine.market_fortune.table import (
    Check,
    Events,
    Step,
    building_count,
    cn,
    discard_building,
    hand_discard_check,
    out_of_step,
    refuse,
    shared_event,
    source_check,
    take_from,
)

BUILD_MOVES = {src: intern(Build, src) for src in BUILDING_SOURCES}
_SOURCES = tuple(BUILD_MOVES.items())


def build_check(st: State, seat: int, source: str, say: bool = True) -> Check:
    """Return why Construir from ``source`` is refused now, or ``None`` (the piles' rule: :func:`source_check`)."""
    return source_check(st, source, say)


def build_moves(st: State, seat: int) -> list[Any]:
    """Return the legal Construir moves (one per source that may give a card)."""
    return [m for src, m in _SOURCES if source_check(st, src, False) is None]


def do_build(st: State, seat: int, move: Build) -> Events:
    """Check and apply Construir's take; the discard step follows if more than 8 building cards are held.

    Raises:
        IllegalMove: the source may not give a card now.
    """
    refuse(source_check(st, move.source))  # = build_check
    ev: Events = []
    st.acted = True
    take_from(st, seat, move.source, ev, "chose Construir and took")
    count = building_count(st, seat)
    if count > BUILDING_TARGET:
        st.step = BUILD_DISCARD
    else:
        ev.append(
            shared_event(
                (5, seat, count),
                lambda: Event(f"seat {seat} holds {count} building cards, not more than 8, and discards nothing"),
            )
        )
        end_turn(st, ev)
    return ev


# ---------------------------------------------------------------------------- the discard


def discard_moves(st: State, seat: int) -> list[Any]:
    """Legal moves of Construir's second half: discard 1 card, or optimise first."""
    out: list[Any] = [
        DISCARD_MOVES[c]
        for c in st.hands[seat]
        if hand_discard_check(st, seat, c, rid.RULING_BUILD_DISCARD, False) is None
    ]
    out.extend(optimise_moves(st, seat))
    return out


def apply_discard(st: State, seat: int, move: Any) -> Events:
    """Construir's second half: discard 1 building card (an optimisation may come first).

    Raises:
        IllegalMove: not a discard of a building card held (or a refused optimisation).
    """
    t = type(move)
    if t is Optimise:
        return do_optimise(st, seat, move)
    if t is not Discard:
        raise out_of_step(
            st, move, rid.YOUR_TURN, "Construir is not finished: discard 1 $ or +R card from your hand"
        ).error()
    card = CARD_INDEX[move.card]
    refuse(hand_discard_check(st, seat, card, rid.RULING_BUILD_DISCARD))
    st.hands[seat].remove(card)
    discard_building(st, card)
    ev: Events = [
        shared_event((7, seat, card), lambda: Event(f"seat {seat} discarded {cn(card)}", None, {"card": CARD_ID[card]}))
    ]
    end_turn(st, ev)
    return ev


DISCARD_STEP = Step(BUILD_DISCARD, discard_moves, apply_discard)

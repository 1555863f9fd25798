"""Dominar (market-fortune/cap-2/tu-turno): take 1 strategy; a red may be used at once.

"Toma 1 Estrategia del mazo. No descartes nada. Una roja puedes usarla o guardarla; azul,
verde o amarilla se guardan." :func:`dominate_check` is the rule (ruling mazos-agotados when
no strategy is left); :data:`DOMINATED_STEP` asks whether to use the card just taken, whatever
its colour, so that being asked reveals nothing (ruling informacion-oculta).
"""

from __future__ import annotations

from typing import Any

from club_agentes.engine.market_fortune import events as said
from club_agentes.engine.market_fortune import rules as rid
from club_agentes.engine.market_fortune.flow import end_turn
from club_agentes.engine.market_fortune.moves import SKIP, Dominate, Play, Skip
from club_agentes.engine.market_fortune.state import DOMINATED, State
from club_agentes.engine.market_fortune.steps.base import declare, out_of
from club_agentes.engine.market_fortune.steps.reds import do_play, play_check, playable
from club_agentes.engine.market_fortune.table import (
    Events,
    Refusal,
    take_strategy,
)

_EMPTY = Refusal(rid.RULING_DECKS, "the strategy deck and its discard pile are both empty")


def dominate_check(state: State, seat: int) -> Refusal | None:
    """Return why Dominar is refused now, or ``None``."""
    return None if state.decks[2] or state.discards[2] else _EMPTY


def check_dominate(state: State, seat: int, move: Dominate) -> Refusal | None:
    """The check of Dominar (:func:`dominate_check`)."""
    return dominate_check(state, seat)


def do_dominate(state: State, seat: int, move: Dominate) -> Events:
    """Apply Dominar (checked): take the top strategy; ask about using it unless a red was used this turn."""
    ev: Events = []
    state.acted = True
    c = take_strategy(state, seat, ev)
    ev.append(said.dominated(seat))
    ev.append(said.you_took(seat, c))
    # Whether the seat may still use a red is public (red_used); the drawn card's colour is not,
    # so every Dominar that could be followed by a red asks the same question (ruling informacion-oculta).
    if not state.red_used:
        state.drawn = c
        state.step = DOMINATED
    else:
        end_turn(state, ev)
    return ev


def dominated_moves(state: State, seat: int) -> list[Any]:
    """Legal moves after Dominar: use the strategy just taken if it is a red that may be played now, or keep it."""
    out: list[Any] = playable(state, seat, state.drawn)
    out.append(SKIP)
    return out


def check_drawn_play(state: State, seat: int, move: Play) -> Refusal | None:
    """After Dominar, only the strategy just taken may be played (:func:`.reds.play_check`)."""
    return play_check(state, seat, move, state.drawn)


def keep_drawn(state: State, seat: int, move: Skip) -> Events:
    """Keep the strategy just taken; the turn ends."""
    ev: Events = [said.keeps_strategy(seat)]
    end_turn(state, ev)
    return ev


DOMINATED_STEP = declare(
    DOMINATED,
    dominated_moves,
    {Play: (check_drawn_play, do_play), Skip: (None, keep_drawn)},
    out_of(
        rid.YOUR_TURN,
        "your action is done: play the strategy you just took if it is a red you can use, or skip to keep it",
    ),
)

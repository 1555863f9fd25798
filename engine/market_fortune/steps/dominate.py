"""Dominar (market-fortune/cap-2/tu-turno): take 1 strategy; a red may be used at once.

"Toma 1 Estrategia del mazo. No descartes nada. Una roja puedes usarla o guardarla; azul,
verde o amarilla se guardan." :func:`dominate_check` is the rule (ruling mazos-agotados when
no strategy is left); :data:`DOMINATED_STEP` asks whether to use the card just taken, whatever
its colour, so that being asked reveals nothing (ruling informacion-oculta).
"""

from __future__ import annotations

from typing import Any

from club_agentes.engine.core import Event
from club_agentes.engine.market_fortune import rules as rid
from club_agentes.engine.market_fortune.components import CARD_ID
from club_agentes.engine.market_fortune.flow import end_turn
from club_agentes.engine.market_fortune.moves import SKIP, Dominate, Play, Skip
from club_agentes.engine.market_fortune.state import DOMINATED, State
from club_agentes.engine.market_fortune.steps.reds import play_check, play_red, playable
from club_agentes.engine.market_fortune.table import (
    SHARED,
    Check,
    Events,
    Refusal,
    Step,
    cn,
    out_of_step,
    remember,
    take_strategy,
)

_EMPTY = Refusal(rid.RULING_DECKS, "the strategy deck and its discard pile are both empty")


def dominate_check(state: State, seat: int) -> Check:
    """Return why Dominar is refused now, or ``None``."""
    return None if state.decks[2] or state.discards[2] else _EMPTY


def do_dominate(state: State, seat: int, move: Dominate) -> Events:
    """Check and apply Dominar: take the top strategy; ask about using it unless a red was used this turn.

    Raises:
        IllegalMove: no strategy is left.
    """
    problem = dominate_check(state, seat)
    if problem is not None:
        raise problem.illegal()
    ev: Events = []
    state.acted = True
    c = take_strategy(state, seat, ev)
    key: tuple[Any, ...] = (6, seat)
    ev.append(SHARED.get(key) or remember(key, Event(f"seat {seat} chose Dominar and took 1 strategy")))
    key = (9, seat, c)
    ev.append(SHARED.get(key) or remember(key, Event(f"you took {cn(c)}", (seat,), {"card": CARD_ID[c]})))
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


def apply_dominated(state: State, seat: int, move: Any) -> Events:
    """After Dominar: use the red just taken now, or keep it (the turn ends).

    Raises:
        IllegalMove: a refused play, or a move that is neither that play nor a skip.
    """
    t = type(move)
    ev: Events = []
    if t is Play:
        problem = play_check(state, seat, move, state.drawn)
        if problem is not None:
            raise problem.illegal()
        play_red(state, seat, move, ev)
        return ev
    if t is Skip:
        key = (8, seat)
        ev.append(SHARED.get(key) or remember(key, Event(f"seat {seat} keeps the strategy it took")))
        end_turn(state, ev)
        return ev
    raise out_of_step(
        state,
        move,
        rid.YOUR_TURN,
        "your action is done: play the strategy you just took if it is a red you can use, or skip to keep it",
    ).illegal()


DOMINATED_STEP = Step(DOMINATED, dominated_moves, apply_dominated)

"""The round: which step comes after which (se-vende/resumen, se-vende/fin-de-la-partida).

A round: the secret choice of action cards; the chosen phases, in order I to V ("Solo se
ejecutan las fases elegidas por al menos un jugador, en orden numérico I a V"); the hand limit;
then the game ends "al final de la ronda en la que un jugador tiene 12 o más cartas en su tableau
o se reparte la última ficha de victoria" (or at the turn limit, se-vende/rulings/limite-de-rondas),
or the next round begins. This module calls the steps' ``begin`` functions; the steps never call it.
"""

from __future__ import annotations

from collections.abc import Callable

from club_agentes.engine.core import Event
from club_agentes.engine.se_vende import rules as R
from club_agentes.engine.se_vende.actions import CONSUME, DEVELOP, EXPLORE, PRODUCE, SETTLE
from club_agentes.engine.se_vende.scoring import finish
from club_agentes.engine.se_vende.state import HAND_LIMIT, SETUP, TABLEAU_END, State
from club_agentes.engine.se_vende.steps import choose, consume, explore, hand_limit, place, produce
from club_agentes.engine.se_vende.table import seats_text

BEGIN: dict[int, Callable[[State, list[Event]], bool]] = {
    EXPLORE: explore.begin,
    DEVELOP: place.begin_develop,
    SETTLE: place.begin_settle,
    CONSUME: consume.begin,
    PRODUCE: produce.begin,
}
"""Each phase's start: returns whether some seat must decide (else the phase is already over)."""


def step_complete(state: State, ev: list[Event]) -> None:
    """Move the game on after the current step's last decision (the whole table is shown up to date)."""
    state.board = None
    if state.step == SETUP:
        choose.begin(state, ev)
    elif state.step == HAND_LIMIT:
        end_round(state, ev)
    else:
        run_phases(state, ev)


def run_phases(state: State, ev: list[Event]) -> None:
    """Run the chosen phases still to come until one needs decisions; then the end of the round."""
    while state.phases:
        p = state.phases.pop(0)
        state.phase = p
        if BEGIN[p](state, ev):
            return
    if not hand_limit.begin(state, ev):
        end_round(state, ev)


def end_round(state: State, ev: list[Event]) -> None:
    """End the round: the game ends (12 cards, last chip, turn limit) or the next round begins."""
    state.previous = state.chosen
    big = [i for i, t in enumerate(state.tableau) if len(t) >= TABLEAU_END]
    if big:
        finish(state, ev, f"{seats_text(big)} reached {TABLEAU_END} or more tableau cards", R.GAME_END)
    elif state.chips_out:
        finish(state, ev, "the last victory chip was handed out", R.GAME_END)
    elif state.round >= state.turn_limit:
        finish(state, ev, f"the turn limit of {state.turn_limit} rounds was reached", R.TURN_LIMIT)
    else:
        choose.begin(state, ev)

"""STAGE A ONLY: the polled rounds of the old negotiation protocol (replaced by the open table)."""

from __future__ import annotations

from club_agentes.engine.core.windows import clockwise_from
from club_agentes.engine.yo_soy_el_jefe.state import Negotiation, State


def new_round(state: State, neg: Negotiation) -> None:
    """Start a round: the seats other than the boss are polled one at a time from the boss's left."""
    neg.floor = "poll"
    neg.naming = None
    neg.active = False
    neg.window.reopen(clockwise_from((neg.boss + 1) % state.n, state.n)[: state.n - 1])


def after_act(state: State, neg: Negotiation, actor: int) -> None:
    """An act is complete: after the boss's, a new round; after another seat's, the round goes on."""
    if actor == neg.boss:
        new_round(state, neg)
        return
    neg.active = True
    neg.floor = "poll"
    neg.naming = None
    neg.window.pass_turn(actor)
    if not neg.window.is_open:
        neg.floor = "boss"

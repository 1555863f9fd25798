"""Over the hand limit after drawing (section 3, "Tomar 3 cartas"): play hire sets first if wanted, then
discard one card at a time down to the limit (phase ``discard``; ruling ``empleo-en-el-limite``)."""

from __future__ import annotations

from typing import Any

from club_agentes.engine.core import Event, Pending
from club_agentes.engine.core.steps import Refusal, Step
from club_agentes.engine.yo_soy_el_jefe import rules as R
from club_agentes.engine.yo_soy_el_jefe.flow import end_turn
from club_agentes.engine.yo_soy_el_jefe.moves import DISCARDS, HIRES, Discard, Hire
from club_agentes.engine.yo_soy_el_jefe.state import CARDS, SLOT_HIRE, SLOT_KIND, SLOT_OF_KIND, State
from club_agentes.engine.yo_soy_el_jefe.steps.influence import check_hire, do_hire, hire_targets
from club_agentes.engine.yo_soy_el_jefe.words import card_name


def pending(state: State) -> Pending:
    """The seat over the limit decides."""
    seat = state.hand_limit_seat
    return Pending(
        "turn",
        (seat,),
        f"Seat {seat} holds {len(state.hands[seat])} influence cards and the limit is {state.hand_limit()}: "
        "discard one card, or first play a hire set (3 hire cards) to take an investor.",
    )


def candidates(state: State, seat: int) -> list[Any]:
    """Hire sets on the investors they may take, then one discard per kind of card held."""
    counts = state.counts[seat]
    moves: list[Any] = [HIRES[c] for c in hire_targets(state, seat)] if counts[SLOT_HIRE] >= 3 else []
    moves += [DISCARDS[SLOT_KIND[i]] for i in range(len(counts)) if counts[i]]
    return moves


def check_discard(state: State, seat: int, move: Discard) -> Refusal | None:
    """Only a card held can be discarded."""
    if not state.counts[seat][SLOT_OF_KIND[(move.kind, move.colour)]]:
        colour = f" {move.colour}" if move.colour else ""
        return Refusal(R.DRAW, lambda colour=colour, move=move: f"you hold no {move.kind} card{colour} to discard.")
    return None


def do_discard(state: State, seat: int, move: Discard) -> list[Event]:
    """Discard face up; at the limit, the turn ends."""
    card = state.take(seat, SLOT_OF_KIND[(move.kind, move.colour)])
    state.discard.append(card)
    events = [Event(f"seat {seat} discarded {card_name(card)} over the hand limit.", data={"card": CARDS[card].id})]
    if len(state.hands[seat]) <= state.hand_limit():
        state.hand_limit_seat = -1
        events += end_turn(state, (seat + 1) % state.n)
    return events


def _foreign(state: State, seat: int, move: Any) -> Refusal:
    return Refusal(
        R.DRAW,
        f"you hold {len(state.hands[seat])} influence cards and the limit is {state.hand_limit()}: discard a card "
        "(or play a hire set).",
    )


def _waiting(state: State, seat: int, p: Pending) -> Refusal:
    return Refusal(R.DRAW, f"seat {seat} does not decide now: seat {state.hand_limit_seat} is discarding.")


STEP = Step(
    "discard",
    lambda state: (state.hand_limit_seat,),
    pending,
    candidates,
    {Discard: check_discard, Hire: check_hire},
    {Discard: do_discard, Hire: do_hire},
    _foreign,
    _waiting,
)

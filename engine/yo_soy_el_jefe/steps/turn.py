"""Section 3, a turn: negotiate on the marker's space, or roll the die and then negotiate where the marker
arrived or take influence cards (phases ``turn`` and ``after_roll``)."""

from __future__ import annotations

from typing import Any

from club_agentes.engine.core import Event, Pending
from club_agentes.engine.core.steps import Refusal, Step
from club_agentes.engine.yo_soy_el_jefe import events as said
from club_agentes.engine.yo_soy_el_jefe import rules as R
from club_agentes.engine.yo_soy_el_jefe.components import (
    DRAW_BY_INVESTORS,
    DRAW_COUNT,
    MINIMUM_TO_NEGOTIATE,
    components,
)
from club_agentes.engine.yo_soy_el_jefe.flow import end_turn
from club_agentes.engine.yo_soy_el_jefe.moves import DRAW, NEGOTIATE, ROLL, Draw, Hire, Negotiate, Roll
from club_agentes.engine.yo_soy_el_jefe.state import CARDS, SPACES, State
from club_agentes.engine.yo_soy_el_jefe.steps.negotiation import open_negotiation
from club_agentes.engine.yo_soy_el_jefe.words import card_name, space_words

DIE_FACES = components().die_faces


_PENDINGS: dict[tuple[str, int, int, int | None, bool], Pending] = {}
"""The turn's :class:`Pending` by what its prompt says (immutable: built once for each)."""


def pending(state: State) -> Pending:
    """The seat on turn decides."""
    key = (state.phase, state.turn, state.marker, state.last_roll, state.must_negotiate)
    found = _PENDINGS.get(key)
    if found is None:
        found = _PENDINGS[key] = _pending(state)
    return found


def _pending(state: State) -> Pending:
    if state.phase == "after_roll":
        prompt = (
            f"You rolled {state.last_roll} and the marker is on space {state.marker + 1} "
            f"({space_words(state.marker)}): negotiate there or draw influence cards."
        )
        if state.must_negotiate:
            prompt = prompt.replace("negotiate there or draw influence cards", "you must negotiate there")
        return Pending("turn", (state.turn,), prompt)
    text = (
        f"Your turn, seat {state.turn}: negotiate on space {state.marker + 1} ({space_words(state.marker)}) or roll "
        "the die"
    )
    if state.must_negotiate:
        text += " (you hold 10 or more cards, so you must negotiate here or after rolling)."
    else:
        text += "."
    return Pending("turn", (state.turn,), text)


def candidates(state: State, seat: int) -> tuple[Any, ...]:
    """Negotiate, roll, draw."""
    return (NEGOTIATE, ROLL, DRAW)


def check_negotiate(state: State, seat: int, move: Negotiate) -> Refusal | None:
    """Anyone on turn may negotiate, unless the variant "3 cards or fewer" forbids it."""
    hand = len(state.hands[seat])
    if state.cfg.no_negotiation_with_3_cards_or_fewer and hand < MINIMUM_TO_NEGOTIATE:
        return Refusal(
            R.V_MINIMUM,
            lambda hand=hand: f"you hold {hand} influence cards; with 3 or fewer you cannot start a negotiation.",
        )
    return None


def check_roll(state: State, seat: int, move: Roll) -> Refusal | None:
    """A turn rolls at most once."""
    if state.phase == "after_roll":
        return _ROLLED
    return None


_ROLLED = Refusal(
    R.TURN_ACTIONS, lambda: "you have already rolled this turn: negotiate on this space or draw influence cards."
)
_NOT_ROLLED = Refusal(
    R.TURN_ACTIONS, lambda: "you take influence cards only after rolling the die: negotiate here or roll first."
)
_MUST_NEGOTIATE = Refusal(
    R.V_MANDATORY,
    lambda: "you held 10 or more influence cards when your turn began, so you must negotiate instead of drawing.",
)
# (refusals that read nothing of the moment are built once: a Refusal is immutable)


def check_draw(state: State, seat: int, move: Draw) -> Refusal | None:
    """Cards are taken only after rolling, and not when the variant obliges a negotiation."""
    if state.phase == "turn":
        return _NOT_ROLLED
    if state.must_negotiate:
        return _MUST_NEGOTIATE
    return None


def do_negotiate(state: State, seat: int, move: Negotiate) -> list[Event]:
    """Say "¡Vamos a negociar!": open the negotiation on the marker's space."""
    return open_negotiation(state, seat)


def do_roll(state: State, seat: int, move: Roll) -> list[Event]:
    """Roll and move the marker clockwise, not counting the covered spaces."""
    roll = state.rng.below(DIE_FACES) + 1
    state.last_roll = roll
    pos = state.marker
    steps = roll
    while steps:
        pos = (pos + 1) % len(SPACES)
        if not state.covered[pos]:
            steps -= 1
    state.marker = pos
    state.phase = "after_roll"
    return [said.rolled(seat, roll, pos)]


def do_draw(state: State, seat: int, move: Draw) -> list[Event]:
    """Take 3 influence cards (by the variant, by investors held); over the limit, discard next."""
    count = DRAW_COUNT
    if state.cfg.draw_by_investors:
        count = DRAW_BY_INVESTORS[min(len(state.investors_of(seat)), len(DRAW_BY_INVESTORS) - 1)]
    drawn: list[int] = []
    for _ in range(count):
        card = state.draw_card()
        if card is None:
            break
        state.give(seat, card)
        drawn.append(card)
    events = [
        Event(
            f"seat {seat} took {len(drawn)} influence card(s) and now holds {len(state.hands[seat])}.",
            data={"seat": seat, "count": len(drawn)},
        ),
        Event(
            f"you drew {', '.join(card_name(c) for c in drawn) or 'nothing (both decks are empty)'}.",
            audience=(seat,),
            data={"cards": [CARDS[c].id for c in drawn]},
        ),
    ]
    if len(state.hands[seat]) > state.hand_limit():
        state.phase = "discard"
        state.hand_limit_seat = seat
    else:
        events += end_turn(state, (seat + 1) % state.n)
    return events


def _foreign(state: State, seat: int, move: Any) -> Refusal:
    prompt = pending(state).prompt
    if isinstance(move, Hire):
        return Refusal(
            R.R_HIRE_AT_LIMIT, "outside a negotiation a hire set is played only over the hand limit, before discarding."
        )
    if move.type == "place_marker":
        return Refusal(R.TURN_ACTIONS, f"the marker is placed once, before the first turn: {prompt}")
    if move.type == "discard":
        return Refusal(R.DRAW, f"cards are discarded only over the hand limit, after drawing: {prompt}")
    return Refusal(
        R.NEGOTIATE, f"no influence card or offer is possible before someone says '¡Vamos a negociar!': {prompt}"
    )


def _waiting(state: State, seat: int, p: Pending) -> Refusal:
    return Refusal(R.TURN_ACTIONS, f"seat {seat} does not decide now: it is seat {state.turn}'s turn.")


STEP = Step(
    "turn",
    lambda state: (state.turn,),
    pending,
    candidates,
    {Negotiate: check_negotiate, Roll: check_roll, Draw: check_draw},
    {Negotiate: do_negotiate, Roll: do_roll, Draw: do_draw},
    _foreign,
    _waiting,
)

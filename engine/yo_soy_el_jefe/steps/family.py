"""Family cards placed in an open negotiation (3-2-1 and ruling colocar-familia).

A seat places a family card it holds for a colour the deal asks for, one per colour and seat; the boss with
its own, the others to take part.
"""

from __future__ import annotations

from club_agentes.engine.core import Event
from club_agentes.engine.core.steps import Refusal
from club_agentes.engine.yo_soy_el_jefe import events as said
from club_agentes.engine.yo_soy_el_jefe import rules as R
from club_agentes.engine.yo_soy_el_jefe.moves import (
    PlaceFamily,
)
from club_agentes.engine.yo_soy_el_jefe.state import (
    COLOUR_INDEX,
    SLOT_FAMILY,
    SPACES,
    State,
)
from club_agentes.engine.yo_soy_el_jefe.steps.deal import (
    SPACE_COLSET,
)
from club_agentes.engine.yo_soy_el_jefe.steps.prices import (
    NAME_FIRST,
)


def check_place_family(state: State, seat: int, move: PlaceFamily) -> Refusal | None:
    """A family card the seat holds, of a colour the deal asks for, one per colour and seat (ruling colocar-familia).

    A seat may place it for a colour it already agreed on with its investor: a backup against a travel card.
    """
    neg = state.neg
    assert neg is not None
    if neg.naming is not None:
        return NAME_FIRST
    colour = COLOUR_INDEX[move.colour]
    if not state.counts[seat][SLOT_FAMILY + colour]:
        rule = R.BOSS_FAMILY if seat == neg.boss else R.PARTICIPATION
        return Refusal(rule, lambda move=move: f"you hold no {move.colour} family card (familia).")
    if colour not in SPACE_COLSET[neg.space]:
        return Refusal(
            R.R_PLACE_FAMILY,
            lambda move=move, neg=neg: (
                f"this deal needs {SPACES[neg.space].describe()}; a {move.colour} family card cannot help it."
            ),
        )
    if (seat, colour) in neg.placed:
        return Refusal(
            R.R_PLACE_FAMILY, lambda move=move: f"you have already placed a {move.colour} family card in this deal."
        )
    return None


def do_place_family(state: State, seat: int, move: PlaceFamily) -> list[Event]:
    """Place the family card face up (it stays until the deal ends)."""
    neg = state.neg
    assert neg is not None
    colour = COLOUR_INDEX[move.colour]
    card = state.take(seat, SLOT_FAMILY + colour)
    neg.placed[(seat, colour)] = card
    neg.used.add(seat)
    who = neg.who(seat)
    event = said.placed_family(seat, seat == neg.boss, move.colour, card)
    neg.history.append(event.text)
    neg.change(seat, f"{who} placed a {move.colour} family card")
    return [event]

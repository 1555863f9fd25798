"""Section 2, setting up: the deal, the first player, and the dollar marker placed by the seat to its right."""

from __future__ import annotations

from typing import Any

from club_agentes.engine.core import Event, Pending
from club_agentes.engine.core.steps import Refusal, Step
from club_agentes.engine.yo_soy_el_jefe import rules as R
from club_agentes.engine.yo_soy_el_jefe.components import HAND_SIZE, components
from club_agentes.engine.yo_soy_el_jefe.flow import start_turn
from club_agentes.engine.yo_soy_el_jefe.moves import MARKERS, PlaceMarker
from club_agentes.engine.yo_soy_el_jefe.state import CARDS, COLOURS, SPACES, State
from club_agentes.engine.yo_soy_el_jefe.words import card_name, space_words

FAMILIES = components().families


def setup_events(state: State) -> list[Event]:
    """Return the events of the deal (what the table sees, and each seat's own hand privately)."""
    n = state.n
    how = "named by the table's options" if state.cfg.first_player is not None else "drawn by the seed"
    events = [
        Event(
            f"seat {state.first_player} plays first ({how}); play goes clockwise (seat numbers ascending).",
            data={"first_player": state.first_player},
        )
    ]
    held = {s: [COLOURS[c] for c in state.investors_of(s)] for s in range(n)}
    beside = [COLOURS[c] for c in range(len(COLOURS)) if state.owner[c] < 0]
    text = "investor cards dealt: " + "; ".join(f"seat {s} {', '.join(held[s])}" for s in range(n))
    if beside:
        text += f"; beside the board: {', '.join(beside)}"
    events.append(Event(text + ".", data={"investors": {str(s): held[s] for s in range(n)}, "beside": beside}))
    events.append(
        Event(
            f"the influence cards were shuffled and {HAND_SIZE} dealt to each seat; {len(state.deck)} remain in the "
            f"deck. Deal card #{state.deal_deck[0].number} lies on top of the {len(state.deal_deck)} deal cards.",
            data={"hand_size": HAND_SIZE, "deck": len(state.deck), "deal_cards": len(state.deal_deck)},
        )
    )
    for s in range(n):
        events.append(
            Event(
                f"you were dealt {', '.join(card_name(c) for c in state.hands[s])}.",
                audience=(s,),
                data={"cards": [CARDS[c].id for c in state.hands[s]]},
            )
        )
    if state.phase == "marker":
        events.append(Event(f"seat {placer(state)}, to the first player's right, places the dollar marker."))
    else:
        events.append(
            Event(
                f"the dollar marker starts on space {state.marker + 1} ({space_words(state.marker)}), as the table's "
                "options say.",
                data={"space": state.marker + 1},
            )
        )
    return events


def placer(state: State) -> int:
    """Return the seat to the first player's right, which places the marker."""
    return (state.first_player - 1) % state.n


def pending(state: State) -> Pending:
    """The seat to the first player's right places the marker."""
    return Pending(
        "turn",
        (placer(state),),
        f"Seat {state.first_player} plays first: as the seat to its right, place the dollar marker on a board "
        f"space (1 to {len(SPACES)}).",
    )


def candidates(state: State, seat: int) -> tuple[PlaceMarker, ...]:
    """Every board space."""
    return MARKERS


def check_marker(state: State, seat: int, move: PlaceMarker) -> Refusal | None:
    """Any space may take the marker ("coloca el marcador de dólares en la casilla deseada")."""
    if not 1 <= move.space <= len(SPACES):
        return Refusal(R.SETUP_FIRST_PLAYER, lambda: f"the board spaces are numbered 1 to {len(SPACES)}.")
    return None


def do_marker(state: State, seat: int, move: PlaceMarker) -> list[Event]:
    """Place the marker; the first player's turn begins."""
    state.marker = move.space - 1
    events = [
        Event(
            f"seat {seat} placed the dollar marker on space {move.space} ({space_words(state.marker)}).",
            data={"space": move.space},
        )
    ]
    start_turn(state, state.first_player)
    events.append(Event(f"seat {state.first_player} plays first."))
    return events


def _foreign(state: State, seat: int, move: Any) -> Refusal:
    return Refusal(
        R.SETUP_FIRST_PLAYER, f"before the first turn the only move is placing the marker: {pending(state).prompt}"
    )


def _waiting(state: State, seat: int, p: Pending) -> Refusal:
    return Refusal(R.SETUP_FIRST_PLAYER, f"seat {seat} does not decide now: seat {p.seats[0]} places the marker.")


STEP = Step(
    "marker",
    lambda state: (placer(state),),
    pending,
    candidates,
    {PlaceMarker: check_marker},
    {PlaceMarker: do_marker},
    _foreign,
    _waiting,
)

"""Setup (se-vende/preparacion): the deal of steps 1-8, and step 5's discards.

"5. Cada jugador mira sus seis cartas y descarta dos boca abajo al montón de descartes."
Every seat discards two cards, one at a time, face down; only that seat learns which.
"""

from __future__ import annotations

from club_agentes.engine.core import Event
from club_agentes.engine.core.steps import Refusal
from club_agentes.engine.se_vende import rules as R
from club_agentes.engine.se_vende.config import SeVendeConfig
from club_agentes.engine.se_vende.moves import Discard, card_moves
from club_agentes.engine.se_vende.state import (
    CHIPS_PER_SEAT,
    SETUP,
    SETUP_DEAL,
    SETUP_DISCARDS,
    STEP_NAMES,
    TENS,
    State,
)
from club_agentes.engine.se_vende.steps.base import declare, idle_refusal
from club_agentes.engine.se_vende.table import (
    DECK,
    IDS,
    discard_owed,
    name,
    not_in_hand,
    open_step,
)


def deal(config: SeVendeConfig, seed: int, *, log: bool = True) -> tuple[State, list[Event]]:
    """Return the game after setup steps 1-8 (waiting for the step-5 discards) and the setup events.

    The deal's private parts (each seat's six cards) are events whose audience is that seat. With
    ``log=False`` no event is written (the same state, faster, for playouts).
    """
    state = State(config, seed)
    rng = state.rng
    starts = list(DECK.start_cards)
    rng.shuffle(starts)
    for seat in range(state.n):
        c = starts.pop()
        state.tableau[seat].append(c)
        state.stamps[c] = 0
    supply = [c for c in range(len(DECK.defs)) if not DECK.defs[c].start] + starts
    rng.shuffle(supply)
    state.supply = supply
    for seat in range(state.n):
        for _ in range(SETUP_DEAL):
            state.hands[seat].append(supply.pop())
    alfa = any(DECK.alfa in t for t in state.tableau)
    if alfa:
        state.goods[DECK.alfa] = supply.pop()
    state.todo = [SETUP_DISCARDS] * state.n
    open_step(state, SETUP, tuple(range(state.n)))
    return state, (_setup_events(state, len(starts), alfa) if log else [])


def _setup_events(state: State, left: int, alfa: bool) -> list[Event]:
    """Return the setup as events: what everyone sees, and each seat's own six cards for it alone."""
    starts = {str(seat): IDS[state.tableau[seat][0]] for seat in range(state.n)}
    listing = ", ".join(f"seat {seat} {name(state.tableau[seat][0])}" for seat in range(state.n))
    ev = [
        Event(
            f"setup step 1: {CHIPS_PER_SEAT} victory points of chips per seat ({state.pool} VP) form the chip supply; "
            f"the four 10-point chips ({TENS} VP) are set aside for the last round",
            data={"chip_pool": state.pool, "tens_set_aside": TENS},
        ),
        Event("setup step 2: every seat takes its seven action cards"),
        Event(f"setup step 3: the start worlds are shuffled and dealt face up: {listing}", data={"start": starts}),
        Event(
            f"setup step 4: the remaining start worlds ({left}) are shuffled into the game cards; "
            f"every seat is dealt {SETUP_DEAL} cards face down"
        ),
    ]
    for seat in range(state.n):
        cards = state.hands[seat]
        ev.append(
            Event(
                f"you were dealt {', '.join(name(c) for c in cards)}",
                (seat,),
                data={"hand": [IDS[c] for c in cards]},
            )
        )
    if alfa:
        ev.append(Event(f"setup step 7: {name(DECK.alfa)} gets its starting good, face down from the supply"))
    ev.append(
        Event(
            f"setup step 5: every seat looks at its {SETUP_DEAL} cards and discards {SETUP_DISCARDS} face down; "
            f"the supply holds {len(state.supply)} cards"
        )
    )
    return ev


def _deciding(state: State, seat: int) -> bool:
    return state.todo[seat] > 0


def _idle(state: State, seat: int) -> Refusal:
    return idle_refusal(state, STEP, seat, "has already discarded its two cards for setup step 5", R.DECISIONS)


def _candidates(state: State, seat: int) -> list[Discard]:
    return card_moves(Discard, state.hands[seat])


def check_discard(state: State, seat: int, move: Discard) -> Refusal | None:
    """A seat discards only cards of its own hand (se-vende/preparacion/paso-5-descarte)."""
    return not_in_hand(state, seat, move.card, R.SETUP_DISCARD, "discard it")


def discard(state: State, seat: int, move: Discard, ev: list[Event]) -> bool:
    """Discard the card face down; the step is complete when every seat has discarded two."""
    if discard_owed(state, seat, move.card, "you discarded {card} face down", ev):
        ev.append(Event(f"seat {seat} has discarded two cards face down and keeps four"))
    if any(state.todo):
        return False
    ev.append(Event("setup is complete: every seat has a start world and four cards in hand"))
    return True


STEP = declare(
    STEP_NAMES[SETUP],
    rule=R.SETUP_DISCARD,
    what="setup step 5 (discard two of your six cards)",
    prompt="Setup step 5: discard two of your six cards face down, one at a time.",
    deciding=_deciding,
    idle=_idle,
    candidates=_candidates,
    moves={Discard: (discard, check_discard, None)},
)

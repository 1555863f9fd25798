"""Setup (se-vende/preparacion): the deal of steps 1-8, and step 5's discards.

"5. Cada jugador mira sus seis cartas y descarta dos boca abajo al montón de descartes."
Every seat discards two cards, one at a time, face down; only that seat learns which.
"""

from __future__ import annotations

from club_agentes.engine.core import Event, IllegalMove
from club_agentes.engine.se_vende import rules as R
from club_agentes.engine.se_vende.common import DECK, IDS, name, not_in_hand, to_discard
from club_agentes.engine.se_vende.moves import Discard
from club_agentes.engine.se_vende.state import (
    CHIPS_PER_SEAT,
    SETUP,
    SETUP_DEAL,
    SETUP_DISCARDS,
    TENS,
    SeVendeConfig,
    SeVendeState,
)
from club_agentes.engine.se_vende.steps.base import MoveRule, Step, idle_refusal


def deal(config: SeVendeConfig, seed: int) -> tuple[SeVendeState, list[Event]]:
    """Return the game after setup steps 1-8 (waiting for the step-5 discards) and the setup events.

    The deal's private parts (each seat's six cards) are events whose audience is that seat.
    """
    s = SeVendeState(config, seed)
    ev: list[Event] = []
    rng = s.rng
    ev.append(
        Event(
            f"setup step 1: {CHIPS_PER_SEAT} victory points of chips per seat ({s.pool} VP) form the chip supply; "
            f"the four 10-point chips ({TENS} VP) are set aside for the last round",
            data={"chip_pool": s.pool, "tens_set_aside": TENS},
        )
    )
    ev.append(Event("setup step 2: every seat takes its seven action cards"))
    starts = list(DECK.start_cards)
    rng.shuffle(starts)
    dealt: dict[str, str] = {}
    for seat in range(s.n):
        c = starts.pop()
        s.tableau[seat].append(c)
        s.stamps[c] = 0
        dealt[str(seat)] = IDS[c]
    listing = ", ".join(f"seat {seat} {name(s.tableau[seat][0])}" for seat in range(s.n))
    ev.append(Event(f"setup step 3: the start worlds are shuffled and dealt face up: {listing}", data={"start": dealt}))
    supply = [c for c in range(len(DECK.defs)) if not DECK.defs[c].start] + starts
    rng.shuffle(supply)
    s.supply = supply
    left = len(starts)
    ev.append(
        Event(
            f"setup step 4: the remaining start worlds ({left}) are shuffled into the game cards; "
            f"every seat is dealt {SETUP_DEAL} cards face down"
        )
    )
    for seat in range(s.n):
        for _ in range(SETUP_DEAL):
            s.hands[seat].append(supply.pop())
        cards = s.hands[seat]
        ev.append(
            Event(
                f"you were dealt {', '.join(name(c) for c in cards)}",
                (seat,),
                data={"hand": [IDS[c] for c in cards]},
            )
        )
    if any(DECK.alfa in t for t in s.tableau):
        s.goods[DECK.alfa] = supply.pop()
        ev.append(Event(f"setup step 7: {name(DECK.alfa)} gets its starting good, face down from the supply"))
    s.todo = [SETUP_DISCARDS] * s.n
    s.part = tuple(range(s.n))
    ev.append(
        Event(
            f"setup step 5: every seat looks at its {SETUP_DEAL} cards and discards {SETUP_DISCARDS} face down; "
            f"the supply holds {len(supply)} cards"
        )
    )
    return s, ev


def _deciding(s: SeVendeState, seat: int) -> bool:
    return s.todo[seat] > 0


def _idle(s: SeVendeState, seat: int) -> IllegalMove:
    return idle_refusal(s, STEP, seat, "has already discarded its two cards for setup step 5", R.DECISIONS)


def _candidates(s: SeVendeState, seat: int) -> list[Discard]:
    return [Discard(IDS[c]) for c in s.hands[seat]]


def check_discard(s: SeVendeState, seat: int, move: Discard) -> IllegalMove | None:
    """A seat discards only cards of its own hand (se-vende/preparacion/paso-5-descarte)."""
    return not_in_hand(s, seat, move.card, R.SETUP_DISCARD, "discard it")


def discard(s: SeVendeState, seat: int, move: Discard, ev: list[Event]) -> bool:
    """Discard the card face down; the step is complete when every seat has discarded two."""
    c = DECK.index[move.card]
    s.hands[seat].remove(c)
    to_discard(s, c, seat)
    s.todo[seat] -= 1
    ev.append(Event(f"you discarded {name(c)} face down", (seat,)))
    if s.todo[seat] == 0:
        ev.append(Event(f"seat {seat} has discarded two cards face down and keeps four"))
    if any(s.todo):
        return False
    ev.append(Event("setup is complete: every seat has a start world and four cards in hand"))
    return True


STEP = Step(
    code=SETUP,
    rule=R.SETUP_DISCARD,
    what="setup step 5 (discard two of your six cards)",
    prompt="Setup step 5: discard two of your six cards face down, one at a time.",
    deciding=_deciding,
    idle=_idle,
    candidates=_candidates,
    moves={Discard: MoveRule(check_discard, discard)},
)

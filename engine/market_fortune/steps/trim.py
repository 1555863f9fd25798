"""The rule of 8 at the end of the turn (market-fortune/cap-2/regla-8-cartas): discard down to 8.

"Mano: límite de 8 al final del turno" (ruling regla-de-8-como-limite). A turn ends above 8
only after Liquidez or Comprar Más, whose texts order these discards ("al final de tu turno,
descarta hasta quedar con 8"). In Campeonato they are discards by a strategy, so the last
card put on each pile lies face down and blocks it ("Las cartas de construcción descartadas
por una Estrategia se bloquean (la última, boca abajo sobre el descarte)": ruling
campeonato-cartas-bloqueadas).
"""

from __future__ import annotations

from typing import Any

from club_agentes.engine.core import Event
from club_agentes.engine.market_fortune import rules as rid
from club_agentes.engine.market_fortune.components import CARD_ID, CARD_TYPE
from club_agentes.engine.market_fortune.flow import end_turn
from club_agentes.engine.market_fortune.moves import Discard
from club_agentes.engine.market_fortune.state import TRIM, State
from club_agentes.engine.market_fortune.steps.base import declare, out_of
from club_agentes.engine.market_fortune.table import (
    PILE_WORD,
    Events,
    cn,
    discard_building,
    discard_check,
    hand_discards,
    make_public,
    obscure_hand,
    over_eight,
    private_to,
    take_discard,
)


def trim_moves(state: State, seat: int) -> list[Any]:
    """Legal moves at the end of a turn above 8: discard any building card of the hand.

    The rule of a discard is :func:`.table.hand_discard_check` (citing the rule of 8 here).
    """
    return hand_discards(state, seat)  # every discard hand_discard_check accepts


def apply_trim(state: State, seat: int, move: Discard) -> Events:
    """Discard 1 building card (checked); the turn ends once 8 remain."""
    card = take_discard(state, seat, move)
    if state.trim_by >= 0 and state.config.mode == "campeonato":
        ev = _blocked_discard(state, seat, card)
    else:
        discard_building(state, card)
        why = "down to 8, as the strategy played this turn orders" if state.trim_by >= 0 else "rule of 8"
        ev = [Event(f"seat {seat} discarded {cn(card)} ({why})", None, {"card": CARD_ID[card]})]
    if not over_eight(state, seat):
        end_turn(state, ev)
    return ev


def _blocked_discard(state: State, seat: int, card: int) -> Events:
    """Campeonato: a discard ordered by a strategy; the last one on each pile lies face down and blocks it.

    Each card goes face down on its pile; the one this strategy put face down there before it,
    now covered, turns face up (only the last of them stays face down: ruling
    campeonato-cartas-bloqueadas).
    """
    pile = CARD_TYPE[card]
    disc = state.discards[pile]
    ev: Events = []
    if disc and disc[-1] in state.trim_down:
        prev = disc[-1]
        state.trim_down.remove(prev)
        state.facedown[prev] = False
        make_public(state, prev)
        ev.append(
            Event(
                f"the card seat {seat} discarded before on the {PILE_WORD[pile]} pile, {cn(prev)}, is covered and "
                "turns face up",
                None,
                {"card": CARD_ID[prev]},
            )
        )
    disc.append(card)
    state.facedown[card] = True
    state.trim_down.append(card)
    private_to(state, card, seat)
    obscure_hand(state, seat)  # nobody else knows which card left the hand
    ev.append(
        Event(
            f"seat {seat} discarded 1 {PILE_WORD[pile]} card face down on the {PILE_WORD[pile]} discard pile (a "
            "strategy orders it): blocked (Campeonato)"
        )
    )
    ev.append(Event(f"you discarded {cn(card)} face down", (seat,), {"card": CARD_ID[card]}))
    return ev


TRIM_STEP = declare(
    TRIM,
    trim_moves,
    {Discard: (discard_check(rid.RULE_OF_EIGHT), apply_trim)},
    out_of(rid.RULE_OF_EIGHT, "your turn ends with more than 8 building cards: discard down to 8"),
)

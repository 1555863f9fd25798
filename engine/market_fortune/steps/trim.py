"""The rule of 8 at the end of the turn (market-fortune/cap-2/regla-8-cartas): discard down to 8.

"Mano: límite de 8 al final del turno" (ruling regla-de-8-como-limite). A turn ends above 8
only after Liquidez or Comprar Más, whose texts order these discards ("al final de tu turno,
descarta hasta quedar con 8").
"""

from __future__ import annotations

from typing import Any

from club_agentes.engine.core import Event
from club_agentes.engine.market_fortune import rules as rid
from club_agentes.engine.market_fortune.components import CARD_ID, CARD_INDEX
from club_agentes.engine.market_fortune.flow import end_turn
from club_agentes.engine.market_fortune.moves import Discard
from club_agentes.engine.market_fortune.state import TRIM, State
from club_agentes.engine.market_fortune.steps.optimisation import DISCARD_MOVES
from club_agentes.engine.market_fortune.table import (
    Check,
    Events,
    Step,
    cn,
    discard_building,
    hand_discard_check,
    out_of_step,
    over_eight,
    refuse,
)


def trim_check(st: State, seat: int, card: int, say: bool = True) -> Check:
    """Return why ``card`` may not be discarded for the rule of 8, or ``None``."""
    return hand_discard_check(st, seat, card, rid.RULE_OF_EIGHT, say)


def trim_moves(st: State, seat: int) -> list[Any]:
    """Legal moves at the end of a turn above 8: discard any building card of the hand."""
    return [DISCARD_MOVES[c] for c in st.hands[seat] if trim_check(st, seat, c, False) is None]


def apply_trim(st: State, seat: int, move: Any) -> Events:
    """Discard 1 building card; the turn ends once 8 remain.

    Raises:
        IllegalMove: not a discard of a building card held in the hand.
    """
    if type(move) is not Discard:
        raise out_of_step(
            st, move, rid.RULE_OF_EIGHT, "your turn ends with more than 8 building cards: discard down to 8"
        ).error()
    card = CARD_INDEX[move.card]
    refuse(trim_check(st, seat, card))
    st.hands[seat].remove(card)
    discard_building(st, card)
    ev: Events = [Event(f"seat {seat} discarded {cn(card)} (rule of 8)", None, {"card": CARD_ID[card]})]
    if not over_eight(st, seat):
        end_turn(st, ev)
    return ev


TRIM_STEP = Step(TRIM, trim_moves, apply_trim)

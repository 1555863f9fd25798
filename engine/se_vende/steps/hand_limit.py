"""The end of a round: the hand limit (se-vende/preguntas/limite-de-mano).

"Al final de cada ronda, después de completar todas las fases elegidas, debes reducir tu mano a
un máximo de diez cartas. Descarta el exceso boca abajo al montón de descartes antes de recuperar
tu carta de acción de la ronda." Seats over ten cards discard, one card at a time, face down.
"""

from __future__ import annotations

from club_agentes.engine.core import Event
from club_agentes.engine.core.steps import Refusal
from club_agentes.engine.se_vende import rules as R
from club_agentes.engine.se_vende.moves import Discard, card_moves
from club_agentes.engine.se_vende.state import HAND_LIMIT, HAND_MAX, STEP_NAMES, State
from club_agentes.engine.se_vende.steps.base import declare
from club_agentes.engine.se_vende.table import (
    discard_owed,
    not_in_hand,
    open_step,
    seats_text,
)


def begin(state: State, ev: list[Event]) -> bool:
    """Return whether some seat holds more than ten cards (then they must discard)."""
    state.phase = 0
    state.todo = [max(0, len(h) - HAND_MAX) for h in state.hands]
    over = tuple(i for i, t in enumerate(state.todo) if t)
    if not over:
        return False
    open_step(state, HAND_LIMIT, over)
    ev.append(Event(f"end of round {state.round}: {seats_text(over)} must discard down to {HAND_MAX} cards"))
    return True


def _deciding(state: State, seat: int) -> bool:
    return state.todo[seat] > 0


def _idle(state: State, seat: int) -> Refusal:
    return Refusal(
        R.HAND_LIMIT,
        f"seat {seat} holds {len(state.hands[seat])} cards; only seats with more than {HAND_MAX} discard at the end "
        f"of the round ({seats_text(STEP.deciding(state))} now)",
    )


def _candidates(state: State, seat: int) -> list[Discard]:
    return card_moves(Discard, state.hands[seat])


def check_discard(state: State, seat: int, move: Discard) -> Refusal | None:
    """The excess is discarded from the seat's own hand."""
    return not_in_hand(state, seat, move.card, R.HAND_LIMIT, "discard it")


def discard(state: State, seat: int, move: Discard, ev: list[Event]) -> bool:
    """Discard the card face down; complete when every seat is down to ten."""
    if not discard_owed(state, seat, move.card, "you discarded {card} face down (hand limit)", ev):
        return False
    ev.append(Event(f"seat {seat} has discarded down to {HAND_MAX} cards"))
    return not any(state.todo)


STEP = declare(
    STEP_NAMES[HAND_LIMIT],
    rule=R.HAND_LIMIT,
    what="the end of the round (discard down to ten cards)",
    prompt="End of round: discard down to ten cards in hand, one at a time.",
    deciding=_deciding,
    idle=_idle,
    candidates=_candidates,
    moves={Discard: (discard, check_discard, None)},
)

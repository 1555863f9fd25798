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


def begin(s: State, ev: list[Event]) -> bool:
    """Return whether some seat holds more than ten cards (then they must discard)."""
    s.phase = 0
    s.todo = [max(0, len(h) - HAND_MAX) for h in s.hands]
    over = tuple(i for i, t in enumerate(s.todo) if t)
    if not over:
        return False
    open_step(s, HAND_LIMIT, over)
    ev.append(Event(f"end of round {s.round}: {seats_text(over)} must discard down to {HAND_MAX} cards"))
    return True


def _deciding(s: State, seat: int) -> bool:
    return s.todo[seat] > 0


def _idle(s: State, seat: int) -> Refusal:
    return Refusal(
        R.HAND_LIMIT,
        f"seat {seat} holds {len(s.hands[seat])} cards; only seats with more than {HAND_MAX} discard at the end "
        f"of the round ({seats_text(STEP.deciding(s))} now)",
    )


def _candidates(s: State, seat: int) -> list[Discard]:
    return card_moves(Discard, s.hands[seat])


def check_discard(s: State, seat: int, move: Discard) -> Refusal | None:
    """The excess is discarded from the seat's own hand."""
    return not_in_hand(s, seat, move.card, R.HAND_LIMIT, "discard it")


def discard(s: State, seat: int, move: Discard, ev: list[Event]) -> bool:
    """Discard the card face down; complete when every seat is down to ten."""
    if not discard_owed(s, seat, move.card, "you discarded {card} face down (hand limit)", ev):
        return False
    ev.append(Event(f"seat {seat} has discarded down to {HAND_MAX} cards"))
    return not any(s.todo)


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

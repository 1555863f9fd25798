"""The secret choice of action cards (se-vende/resumen/eleccion-secreta) and their reveal.

"Cada ronda, los jugadores eligen en secreto una fase ... y luego la revelan simultáneamente."
Every seat chooses one of its seven action cards, sealed; when the last seat has chosen, all are
revealed at once and the chosen phases are set to run in order I to V.
"""

from __future__ import annotations

from club_agentes.engine.core import Event
from club_agentes.engine.core.steps import Refusal
from club_agentes.engine.se_vende import events as said
from club_agentes.engine.se_vende import rules as R
from club_agentes.engine.se_vende.actions import (
    ACTION_CODES,
    ACTION_NAMES,
    PHASE_NAMES,
    PHASE_OF_ACTION,
    action_token,
)
from club_agentes.engine.se_vende.moves import MOVES, ChooseAction
from club_agentes.engine.se_vende.state import SELECT, STEP_NAMES, State
from club_agentes.engine.se_vende.steps.base import declare
from club_agentes.engine.se_vende.table import open_step, seats_text

_ACTION_MOVES: tuple[ChooseAction, ...] = tuple(MOVES.intern(ChooseAction, c) for c in ACTION_CODES)


def begin(state: State, ev: list[Event]) -> None:
    """Start a round: every seat chooses an action card in secret."""
    state.round += 1
    state.phase = 0
    state.chosen = None
    state.actions = type(state.actions)(range(state.n))
    open_step(state, SELECT, tuple(range(state.n)), sealed=True)
    ev.append(said.round_begins(state.round))


def _deciding(state: State, seat: int) -> bool:
    return not state.actions.has_chosen(seat)


def _idle(state: State, seat: int) -> Refusal:
    return Refusal(
        R.SECRET_CHOICE,
        f"seat {seat} has already chosen its action card this round; {seats_text(state.actions.waiting)} still "
        "choosing, then all are revealed at once",
    )


def _candidates(state: State, seat: int) -> list[ChooseAction]:
    return list(_ACTION_MOVES)


def check_choose(state: State, seat: int, move: ChooseAction) -> Refusal | None:
    """Any of the seven action cards may be chosen (every seat holds all seven every round)."""
    if move.action not in ACTION_NAMES:
        return Refusal(R.SECRET_CHOICE, lambda: f"{move.action!r} is not one of the seven action cards")
    return None


def choose(state: State, seat: int, move: ChooseAction, ev: list[Event]) -> bool:
    """Seal the choice; reveal every choice when the last seat has chosen (then the phases run)."""
    state.actions.submit(seat, move.action)
    ev.append(said.chose_action(seat))
    ev.append(said.chose_action_sealed(seat, ACTION_NAMES[move.action], action_token(state.round, seat, move.action)))
    if not state.actions.complete:
        return False
    chosen = state.actions.reveal()
    state.chosen = chosen
    state.phases = sorted({PHASE_OF_ACTION[a] for a in chosen.values()})
    listing = ", ".join(f"seat {i} {ACTION_NAMES[a]}" for i, a in chosen.items())
    names = ", ".join(PHASE_NAMES[p] for p in state.phases)
    ev.append(
        Event(
            f"action cards revealed: {listing}; phases this round: {names}",
            data={
                "actions": {
                    str(i): {"code": a, "name": ACTION_NAMES[a], "id": action_token(state.round, i, a)}
                    for i, a in chosen.items()
                },
                "phases": [PHASE_NAMES[p] for p in state.phases],
            },
        )
    )
    return True


STEP = declare(
    STEP_NAMES[SELECT],
    rule=R.SECRET_CHOICE,
    what="the secret choice of action cards",
    prompt="Choose your action card in secret.",
    deciding=_deciding,
    idle=_idle,
    candidates=_candidates,
    moves={ChooseAction: (choose, check_choose, None)},
)

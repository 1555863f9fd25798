"""Phase I, Explorar (se-vende/rulings/explorar).

Every seat draws 2 cards and keeps 1; Explorar +5 draws 5 more, Explorar +1/+1 draws 1 more
and keeps 1 more, explore powers add draws or keeps. A seat that drew no more than it may keep
keeps them all; otherwise it keeps cards one at a time and the rest go face down to the discard
pile.
"""

from __future__ import annotations

from club_agentes.engine.core import Event
from club_agentes.engine.core.steps import Refusal
from club_agentes.engine.se_vende import events as said
from club_agentes.engine.se_vende import rules as R
from club_agentes.engine.se_vende.actions import EXPLORE
from club_agentes.engine.se_vende.cards import PowerName
from club_agentes.engine.se_vende.moves import Keep, card_moves
from club_agentes.engine.se_vende.state import EXPLORE_KEEP, NO_CARD, STEP_NAMES, State
from club_agentes.engine.se_vende.steps.base import declare, idle_refusal
from club_agentes.engine.se_vende.table import (
    DEFS,
    IDS,
    INDEX,
    active_cards,
    draw,
    name,
    open_step,
    to_discard,
)

BASE_DRAW = 2
BASE_KEEP = 1


def terms(state: State, seat: int) -> tuple[int, int]:
    """Return how many cards ``seat`` draws and keeps when exploring now (bonus and powers included)."""
    a = (state.chosen or {}).get(seat)
    draws = BASE_DRAW + (5 if a == "explorar-5" else 1 if a == "explorar-1-1" else 0)
    keep = BASE_KEEP + (1 if a == "explorar-1-1" else 0)
    for c in active_cards(state, seat, EXPLORE):
        for p in DEFS[c].powers:
            if p.name is PowerName.EXPLORE_DRAW:
                draws += p.n
            elif p.name is PowerName.EXPLORE_KEEP:
                keep += p.n
    return draws, keep


def begin(state: State, ev: list[Event]) -> bool:
    """Every seat draws; return whether some seat must choose what to keep."""
    part: list[int] = []
    for seat in range(state.n):
        draws, keep = terms(state, seat)
        cards = draw(state, draws, ev)
        keep = min(keep, len(cards))
        ev.append(said.explores(seat, len(cards), keep))
        if cards:
            ev.append(Event(f"you drew while exploring: {', '.join(name(c) for c in cards)}", (seat,)))
        if keep >= len(cards):
            state.hands[seat].extend(cards)
            state.todo[seat] = 0
        else:
            state.drawn[seat] = cards
            state.todo[seat] = keep
            part.append(seat)
    if not part:
        return False
    open_step(state, EXPLORE_KEEP, tuple(part))
    return True


def _deciding(state: State, seat: int) -> bool:
    return state.todo[seat] > 0


def _idle(state: State, seat: int) -> Refusal:
    return idle_refusal(
        state, STEP, seat, "has already kept every card it may keep in this Explorar phase", R.DECISIONS
    )


def _candidates(state: State, seat: int) -> list[Keep]:
    return card_moves(Keep, state.drawn[seat])


def check_keep(state: State, seat: int, move: Keep) -> Refusal | None:
    """Only a card drawn while exploring this phase may be kept (se-vende/rulings/explorar)."""
    drawn = state.drawn[seat]
    if INDEX.get(move.card, NO_CARD) not in drawn:
        return Refusal(
            R.EXPLORE,
            lambda: (
                f"{move.card} is not among the {len(drawn)} cards seat {seat} drew while exploring "
                f"({', '.join(IDS[x] for x in drawn)})"
            ),
        )
    return None


def keep(state: State, seat: int, move: Keep, ev: list[Event]) -> bool:
    """Keep the card; after the last keep, discard the rest face down. Complete when every seat has kept."""
    c = INDEX[move.card]
    drawn = state.drawn[seat]
    drawn.remove(c)
    state.hands[seat].append(c)
    state.todo[seat] -= 1
    ev.append(Event(f"you keep {name(c)}", (seat,)))
    if state.todo[seat] > 0:
        return False
    for x in drawn:
        to_discard(state, x, seat)
    ev.append(said.kept_and_discarded(seat, len(drawn)))
    drawn.clear()
    return not any(state.todo)


STEP = declare(
    STEP_NAMES[EXPLORE_KEEP],
    rule=R.EXPLORE,
    what="the Explorar phase (keep cards you drew)",
    prompt="Explorar: keep cards from those you drew, one at a time; the rest are discarded face down.",
    deciding=_deciding,
    idle=_idle,
    candidates=_candidates,
    moves={Keep: (keep, check_keep, None)},
)

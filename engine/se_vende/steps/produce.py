"""Phase V, Producir (se-vende/preguntas/producir, se-vende/rulings/producir).

"colocas un bien boca abajo en cada mundo de producción ... que no tenga ya un bien": automatic,
for every seat. "Si elegiste Producir, además puedes producir un bien en uno de tus mundos de
caída sin bien": the chooser picks the windfall world or declines; windfall-production powers
work the same way, one decision each, after the bonus. Produce-draw powers draw at the end of the
phase.
"""

from __future__ import annotations

from typing import Any

from club_agentes.engine.core import Event
from club_agentes.engine.core.steps import Refusal
from club_agentes.engine.se_vende import rules as R
from club_agentes.engine.se_vende.actions import PRODUCE
from club_agentes.engine.se_vende.cards import GOOD_NAMES, PowerName
from club_agentes.engine.se_vende.moves import Done, Produce, card_moves
from club_agentes.engine.se_vende.state import NO_CARD, PRODUCING, STEP_NAMES, State, WindfallRight
from club_agentes.engine.se_vende.steps.base import declare
from club_agentes.engine.se_vende.table import (
    DEFS,
    INDEX,
    active_cards,
    draw_to_hand,
    drawable,
    name,
    open_step,
    seats_text,
    take_good,
)

_DONE = Done()


def targets(state: State, seat: int, kind: str) -> list[int]:
    """Return ``seat``'s empty windfall worlds of ``kind`` (``"any"``: every kind), if a good can be drawn."""
    if not drawable(state):
        return []
    goods = state.goods
    return [
        w
        for w in state.tableau[seat]
        if DEFS[w].world == "windfall" and w not in goods and (kind == "any" or DEFS[w].good == kind)
    ]


def _prune(state: State, seat: int) -> None:
    queue = state.produce[seat]
    while queue and not targets(state, seat, queue[0].kind):
        queue.pop(0)


def begin(state: State, ev: list[Event]) -> bool:
    """Production worlds get their goods; return whether some seat has a windfall production to decide."""
    chosen = state.chosen or {}
    part: list[int] = []
    for seat in range(state.n):
        made: list[str] = []
        where: list[str] = []
        for w in state.tableau[seat]:
            d = DEFS[w]
            if d.world == "production" and w not in state.goods:
                g = take_good(state, ev)
                if g == NO_CARD:
                    break
                state.goods[w] = g
                made.append(d.good or "")
                where.append(f"{GOOD_NAMES[d.good or '']} on {name(w)}")
        state.produced[seat] = made
        if where:
            ev.append(Event(f"seat {seat} produces {'; '.join(where)}"))
        queue = [WindfallRight(NO_CARD, "any")] if chosen.get(seat) == "producir" else []
        for c in active_cards(state, seat, PRODUCE):
            for p in DEFS[c].powers:
                if p.name is PowerName.PRODUCE_WINDFALL:
                    queue.append(WindfallRight(c, p.good))
        state.produce[seat] = queue
        _prune(state, seat)
        if queue:
            part.append(seat)
    if part:
        open_step(state, PRODUCING, tuple(part))
        return True
    after_produce(state, ev)
    return False


def _by(right: WindfallRight) -> str:
    return "the Producir bonus" if right.source == NO_CARD else name(right.source)


def _deciding(state: State, seat: int) -> bool:
    return bool(state.produce[seat])


def _idle(state: State, seat: int) -> Refusal:
    return Refusal(
        R.PRODUCE,
        f"seat {seat} has no windfall production to decide (only the Producir chooser and windfall-production "
        f"powers produce on windfall worlds); {seats_text(STEP.deciding(state))} still deciding",
    )


def _candidates(state: State, seat: int) -> list[Any]:
    moves = card_moves(Produce, state.tableau[seat])
    moves.append(_DONE)
    return moves


def owns_produce(state: State, seat: int, move: Produce) -> Refusal | None:
    """The world must be one of the seat's own."""
    if INDEX.get(move.world, NO_CARD) not in state.tableau[seat]:
        return Refusal(R.PRODUCE, lambda: f"{move.world} is not a world of seat {seat}'s tableau")
    return None


def check_produce(state: State, seat: int, move: Produce) -> Refusal | None:
    """The world must be an empty windfall world of the kind the right allows (se-vende/preguntas/producir)."""
    right = state.produce[seat][0]
    if INDEX.get(move.world, NO_CARD) not in targets(state, seat, right.kind):
        what = "windfall world" if right.kind == "any" else f"{GOOD_NAMES[right.kind]} windfall world"
        return Refusal(
            R.PRODUCE,
            lambda: f"{move.world} is not an empty {what} of seat {seat}'s tableau, so {_by(right)} cannot use it",
        )
    return None


def produce(state: State, seat: int, move: Produce, ev: list[Event]) -> bool:
    """Put a good, face down from the supply, on the windfall world."""
    right = state.produce[seat][0]
    w = INDEX[move.world]
    state.goods[w] = take_good(state, ev)
    state.produced[seat].append(DEFS[w].good or "")
    ev.append(Event(f"seat {seat} produces {GOOD_NAMES[DEFS[w].good or '']} on {name(w)} with {_by(right)}"))
    return _next(state, seat, ev)


def decline(state: State, seat: int, move: Done, ev: list[Event]) -> bool:
    """Decline the windfall production."""
    ev.append(Event(f"seat {seat} declines the windfall production of {_by(state.produce[seat][0])}"))
    return _next(state, seat, ev)


def _next(state: State, seat: int, ev: list[Event]) -> bool:
    state.produce[seat].pop(0)
    _prune(state, seat)
    if any(state.produce):
        return False
    after_produce(state, ev)
    return True


def after_produce(state: State, ev: list[Event]) -> None:
    """Produce-draw powers draw, counting the goods produced in this phase."""
    for seat in range(state.n):
        n = 0
        made = state.produced[seat]
        for c in active_cards(state, seat, PRODUCE):
            for p in DEFS[c].powers:
                if p.name is PowerName.PRODUCE_DRAW:
                    n += p.n
                elif p.name is PowerName.PRODUCE_DRAW_PER_KIND:
                    n += p.n * made.count(p.good)
        draw_to_hand(state, seat, n, "produce-draw powers", ev)
        state.produced[seat] = []


def _default(state: State, seat: int) -> tuple[Done, str]:
    return _DONE, R.PRODUCE_CHOICE


STEP = declare(
    STEP_NAMES[PRODUCING],
    rule=R.PRODUCE,
    what="the Producir phase (produce on a windfall world or done)",
    prompt="Producir: choose an empty windfall world to produce a good on, or done to decline.",
    deciding=_deciding,
    idle=_idle,
    candidates=_candidates,
    moves={Produce: (produce, owns_produce, check_produce), Done: (decline, None, None)},
    default=_default,
)

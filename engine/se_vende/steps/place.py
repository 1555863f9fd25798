"""Phases II and III, Desarrollar and Asentar: place one card (sealed), then pay for it.

Desarrollar (se-vende/rulings/desarrollar): every seat may place one development from its hand;
choosers pay one card less. Asentar (se-vende/rulings/asentar): every seat may place one world;
a military world needs Militar at least its defence and costs nothing
(se-vende/preguntas/mundos-militares). Placing nothing is allowed
(se-vende/preguntas/no-colocar-nada). Placements are sealed and revealed together
(se-vende/rulings/decisiones), then each seat pays by discarding cards from its hand, one at a time
(se-vende/rulings/pagar-costos); after paying come the windfall good, the Asentar bonus card and
the draw powers.
"""

from __future__ import annotations

from club_agentes.engine.core import Event
from club_agentes.engine.core.steps import Refusal, Step
from club_agentes.engine.se_vende import events as said
from club_agentes.engine.se_vende import rules as R
from club_agentes.engine.se_vende.actions import DEVELOP, PHASE_NAMES, SETTLE
from club_agentes.engine.se_vende.cards import GOOD_NAMES, PowerName
from club_agentes.engine.se_vende.moves import PLACE_NONE, Pay, Place, card_moves
from club_agentes.engine.se_vende.state import (
    DEVELOP_PAY,
    DEVELOP_PLACE,
    NO_CARD,
    SETTLE_PAY,
    SETTLE_PLACE,
    STEP_NAMES,
    State,
    stamp,
)
from club_agentes.engine.se_vende.steps.base import MoveKind, declare, idle_refusal
from club_agentes.engine.se_vende.table import (
    DECK,
    DEFS,
    INDEX,
    develop_discount,
    discard_owed,
    draw_to_hand,
    military,
    name,
    not_in_hand,
    open_step,
    owed,
    plural,
    power_total,
    seats_text,
    settle_discount,
    take_good,
)

# ---------------------------------------------------------------------- begin


def begin_develop(state: State, ev: list[Event]) -> bool:
    """Desarrollar begins: every seat chooses in secret a development to place, or none."""
    return _begin(state, DEVELOP_PLACE, ev)


def begin_settle(state: State, ev: list[Event]) -> bool:
    """Asentar begins: every seat chooses in secret a world to place, or none."""
    return _begin(state, SETTLE_PLACE, ev)


def _begin(state: State, step: int, ev: list[Event]) -> bool:
    state.placing = type(state.placing)(range(state.n))
    state.placed = [NO_CARD] * state.n
    open_step(state, step, tuple(range(state.n)), sealed=True)
    what = "a development" if step == DEVELOP_PLACE else "a world"
    ev.append(said.placing_begins(PHASE_NAMES[state.phase], what))
    return True


# ---------------------------------------------------------------------- placing (sealed)


def cost_now(state: State, seat: int, c: int) -> int:
    """Return the cards ``seat`` would pay to place card ``c`` in the current phase (discounts applied)."""
    d = DEFS[c]
    if d.military:
        return 0
    discount = develop_discount(state, seat) if state.phase == DEVELOP else settle_discount(state, seat)
    return owed(d, discount)


def _placing_deciding(state: State, seat: int) -> bool:
    return not state.placing.has_chosen(seat)


def _placing_idle(state: State, seat: int) -> Refusal:
    return Refusal(
        R.DECISIONS,
        f"seat {seat} has already chosen what to place this phase; {seats_text(state.placing.waiting)} still "
        "choosing, then all placements are revealed at once",
    )


def _placing_candidates(state: State, seat: int) -> list[Place]:
    moves = card_moves(Place, state.hands[seat])
    moves.append(PLACE_NONE)
    return moves


def owns_place(state: State, seat: int, move: Place) -> Refusal | None:
    """A card is placed from the seat's own hand (placing nothing needs nothing)."""
    if move.card is None:
        return None
    rule = R.DEVELOP if state.step == DEVELOP_PLACE else R.SETTLE
    return not_in_hand(state, seat, move.card, rule, "place it")


def place_rules(state: State, seat: int, move: Place) -> Refusal | None:
    """Whether ``seat`` may place ``move.card`` from its hand now (always, for nothing).

    Desarrollar takes only developments (se-vende/rulings/desarrollar), Asentar only worlds
    (se-vende/rulings/asentar); a military world needs Militar at least its defence
    (se-vende/preguntas/mundos-militares); any other card needs enough other cards in hand to pay
    (se-vende/rulings/pagar-costos).
    """
    if move.card is None:
        return None
    c = INDEX[move.card]
    d = DEFS[c]
    if state.step == DEVELOP_PLACE:
        if not d.is_development:
            return Refusal(R.DEVELOP, lambda: f"{name(c)} is a world; in Desarrollar you may place only a development")
    else:
        if not d.is_world:
            return Refusal(R.SETTLE, lambda: f"{name(c)} is a development; in Asentar you may place only a world")
        if d.military:
            mil = military(state, seat)
            if mil < d.defence:
                return Refusal(
                    R.MILITARY,
                    lambda: (
                        f"{name(c)} has defence {d.defence} and seat {seat}'s Militar is {mil}; a military world "
                        "needs Militar equal to or above its defence and cannot be paid for with cards"
                    ),
                )
            return None
    others = len(state.hands[seat]) - 1
    if d.cost <= others:  # affordable before any discount
        return None
    owe = cost_now(state, seat, c)
    if owe > others:
        return Refusal(
            R.PAYING,
            lambda: (
                f"{name(c)} costs {d.cost} and seat {seat} pays {owe} after discounts, but would hold only "
                f"{others} other cards to discard"
            ),
        )
    return None


def check_place(state: State, seat: int, move: Place) -> Refusal | None:
    """The whole check of a placement: from the seat's hand, and allowed by the phase's rules."""
    return owns_place(state, seat, move) or place_rules(state, seat, move)


def place(state: State, seat: int, move: Place, ev: list[Event]) -> bool:
    """Seal the placement; when every seat has chosen, reveal them all and place the cards."""
    c = NO_CARD if move.card is None else INDEX[move.card]
    state.placing.submit(seat, c)
    ev.append(said.chose_placement(seat))
    if c == NO_CARD:
        ev.append(said.will_place_nothing(seat))
    else:
        ev.append(Event(f"you will place {name(c)} (sealed until every seat has chosen)", (seat,)))
    if not state.placing.complete:
        return False
    return _reveal(state, ev)


def _reveal(state: State, ev: list[Event]) -> bool:
    dev = state.step == DEVELOP_PLACE
    now = stamp(state.round, state.phase)
    choices = state.placing.reveal()
    owes = [0] * state.n
    for seat, c in choices.items():
        if c == NO_CARD:
            ev.append(said.places_nothing(seat, PHASE_NAMES[state.phase]))
            continue
        d = DEFS[c]
        owe = cost_now(state, seat, c)
        state.hands[seat].remove(c)
        state.tableau[seat].append(c)
        state.stamps[c] = now
        state.placed[seat] = c
        owes[seat] = owe
        if d.military:
            how = f"with Militar {military(state, seat)} against defence {d.defence}, free"
        else:
            how = f"cost {d.cost}, paying {plural(owe, 'card')}"
        kind = "development" if dev else "world"
        ev.append(
            Event(f"seat {seat} places the {kind} {name(c)} ({how})", data={"seat": seat, "card": dict(DECK.views[c])})
        )
    state.todo = owes
    if any(owes):
        open_step(state, DEVELOP_PAY if dev else SETTLE_PAY, tuple(i for i, o in enumerate(owes) if o))
        return False
    return after_placing(state, ev)


def _placing_default(state: State, seat: int) -> tuple[Place, str]:
    return PLACE_NONE, R.NOTHING_PLACED


# ---------------------------------------------------------------------- paying


def _paying_deciding(state: State, seat: int) -> bool:
    return state.todo[seat] > 0


def _paying_idle(state: State, seat: int) -> Refusal:
    why = f"owes no card for a placement in this {PHASE_NAMES[state.phase]} phase"
    return idle_refusal(state, STEPS[state.step], seat, why, R.DECISIONS)


def _paying_candidates(state: State, seat: int) -> list[Pay]:
    return card_moves(Pay, state.hands[seat])


def check_pay(state: State, seat: int, move: Pay) -> Refusal | None:
    """A cost is paid with cards from the payer's hand (se-vende/rulings/pagar-costos)."""
    return not_in_hand(state, seat, move.card, R.PAYING, "pay with it")


def pay(state: State, seat: int, move: Pay, ev: list[Event]) -> bool:
    """Discard the card face down towards the cost; when every seat has paid, the placements take effect."""
    if discard_owed(state, seat, move.card, "you paid with {card}", ev):
        ev.append(Event(f"seat {seat} has paid for {name(state.placed[seat])}"))
        if not any(state.todo):
            return after_placing(state, ev)
    return False


def after_placing(state: State, ev: list[Event]) -> bool:
    """The placements take effect in seat order: windfall goods, the Asentar bonus, draw powers."""
    dev = state.phase == DEVELOP
    chosen = state.chosen or {}
    for seat in range(state.n):
        c = state.placed[seat]
        if c == NO_CARD:
            continue
        if dev:
            n = power_total(state, seat, DEVELOP, PowerName.DEVELOP_DRAW)
            draw_to_hand(state, seat, n, "develop-draw powers", ev)
            continue
        if DEFS[c].world == "windfall":
            g = take_good(state, ev)
            if g != NO_CARD:
                state.goods[c] = g
                ev.append(Event(f"seat {seat}'s {name(c)} gets its windfall good of {GOOD_NAMES[DEFS[c].good or '']}"))
        if chosen.get(seat) == "asentar":
            draw_to_hand(state, seat, 1, "Asentar bonus", ev)
        n = power_total(state, seat, SETTLE, PowerName.SETTLE_DRAW)
        draw_to_hand(state, seat, n, "settle-draw powers", ev)
    state.placed = [NO_CARD] * state.n
    return True


# ---------------------------------------------------------------------- the four steps

_PLACING: dict[type, MoveKind] = {Place: (place, owns_place, place_rules)}
_PAYING: dict[type, MoveKind] = {Pay: (pay, check_pay, None)}


def _placing_step(code: int, rule: str, phase: str, kind: str) -> Step[State]:
    """Return the sealed step in which each seat chooses a card of ``kind`` to place in ``phase``, or none."""
    return declare(
        STEP_NAMES[code],
        rule=rule,
        what=f"{phase} (place a {kind} or none)",
        prompt=f"{phase}: choose in secret a {kind} from your hand to place, or place none.",
        deciding=_placing_deciding,
        idle=_placing_idle,
        candidates=_placing_candidates,
        moves=_PLACING,
        default=_placing_default,
    )


def _paying_step(code: int, phase: str, kind: str) -> Step[State]:
    """Return the step in which the seats that placed a card of ``kind`` in ``phase`` pay for it."""
    return declare(
        STEP_NAMES[code],
        rule=R.PAYING,
        what=f"paying for the card placed in {phase}",
        prompt=f"{phase}: pay for your {kind} by discarding cards from your hand, one at a time.",
        deciding=_paying_deciding,
        idle=_paying_idle,
        candidates=_paying_candidates,
        moves=_PAYING,
    )


STEPS: dict[int, Step[State]] = {
    DEVELOP_PLACE: _placing_step(DEVELOP_PLACE, R.DEVELOP, "Desarrollar", "development"),
    SETTLE_PLACE: _placing_step(SETTLE_PLACE, R.SETTLE, "Asentar", "world"),
    DEVELOP_PAY: _paying_step(DEVELOP_PAY, "Desarrollar", "development"),
    SETTLE_PAY: _paying_step(SETTLE_PAY, "Asentar", "world"),
}

"""Phase IV, Consumir (se-vende/rulings/consumir).

Every seat consumes with its own consume powers that count in this phase. A seat that chose
Consumir: Comercio and holds a good first sells exactly one (se-vende/preguntas/comercio). Then
each consume power may be used once, in any order, or not at all ("done"). A power that discards
"hasta N bienes" takes, once invoked, as many eligible goods as it can up to N
(se-vende/preguntas/poderes-hasta-n-bienes); a power that discards cards from hand may stop early
(se-vende/rulings/poderes-de-mano). The 2x PV chooser doubles the points from goods only
(se-vende/preguntas/bonus-2x-pv).
"""

from __future__ import annotations

from typing import Any

from club_agentes.engine.core import Event
from club_agentes.engine.core.steps import Refusal
from club_agentes.engine.se_vende import events as said
from club_agentes.engine.se_vende import rules as R
from club_agentes.engine.se_vende.actions import ACTION_NAMES, CONSUME
from club_agentes.engine.se_vende.cards import GOOD_NAMES, TRADE_PRICE, Power, PowerName
from club_agentes.engine.se_vende.moves import BY_CARD, ConsumeGood, Discard, Done, Sell, UsePower
from club_agentes.engine.se_vende.state import CONSUMING, NO_CARD, STEP_NAMES, ConsumeSeat, PowerRef, State
from club_agentes.engine.se_vende.steps.base import declare
from club_agentes.engine.se_vende.table import (
    DEFS,
    IDS,
    INDEX,
    active_cards,
    award,
    draw_to_hand,
    name,
    not_in_hand,
    open_step,
    plural,
    seats_text,
    to_discard,
)

CONSUME_POWERS = (PowerName.CONSUME_GOODS, PowerName.CONSUME_HAND)
_DONE = Done()


def begin(state: State, ev: list[Event]) -> bool:
    """Every seat gets its consume powers; return whether some seat has something to decide."""
    chosen = state.chosen or {}
    part: list[int] = []
    for seat in range(state.n):
        powers = [
            PowerRef(c, i, p)
            for c in active_cards(state, seat, CONSUME)
            for i, p in enumerate(DEFS[c].powers)
            if p.name in CONSUME_POWERS
        ]
        has_goods = any(w in state.goods for w in state.tableau[seat])
        cs = ConsumeSeat(chosen.get(seat) == "comercio" and has_goods, chosen.get(seat) == "2x-pv", powers)
        state.consume[seat] = cs
        if is_open(state, seat, cs):
            part.append(seat)
        else:
            cs.finished = True
    if part:
        open_step(state, CONSUMING, tuple(part))
        return True
    state.consume = [None] * state.n
    ev.append(Event("Consumir: no seat has a good to sell or a consume power it can use"))
    return False


# ---------------------------------------------------------------------- what a seat may use


def eligible_goods(state: State, seat: int, p: Power) -> list[int]:
    """Return ``seat``'s worlds holding a good that power ``p`` accepts, in tableau order."""
    goods = state.goods
    return [w for w in state.tableau[seat] if w in goods and p.matches(DEFS[w].good or "")]


def usable(state: State, seat: int, p: Power) -> bool:
    """Return whether power ``p`` has something to consume now (a card in hand, or an eligible good)."""
    if p.name is PowerName.CONSUME_HAND:
        return bool(state.hands[seat])
    return bool(eligible_goods(state, seat, p))


def is_open(state: State, seat: int, cs: ConsumeSeat) -> bool:
    """Return whether ``seat`` still has something to do this phase (a sale, a power in use or usable)."""
    if cs.must_sell or cs.active is not None:
        return True
    used = cs.used
    for ref in cs.powers:  # a loop, not a generator (any()): this runs after every move of the phase
        if ref in used:
            continue
        if usable(state, seat, ref.power):
            return True
    return False


def trade_bonus(state: State, seat: int, kind: str) -> int:
    """Return the extra cards ``seat``'s trade powers give for selling a good of ``kind``."""
    bonus = 0
    for c in active_cards(state, seat, CONSUME):
        for p in DEFS[c].powers:
            if p.name is PowerName.TRADE_BONUS and p.matches(kind):
                bonus += p.n
    return bonus


def _seat(state: State, seat: int) -> ConsumeSeat:
    cs = state.consume[seat]
    assert cs is not None, "a consuming seat has its progress"
    return cs


# ---------------------------------------------------------------------- who decides


def _deciding(state: State, seat: int) -> bool:
    cs = state.consume[seat]
    return cs is not None and not cs.finished


def _idle(state: State, seat: int) -> Refusal:
    return Refusal(
        R.CONSUME,
        f"seat {seat} has finished consuming or has nothing it can consume; {seats_text(STEP.deciding(state))} "
        "still consuming",
    )


def _candidates(state: State, seat: int) -> list[Any]:
    cs = _seat(state, seat)
    goods = state.goods
    if cs.must_sell:
        table = BY_CARD[Sell]
        return [table[w] for w in state.tableau[seat] if w in goods]
    if cs.active is not None:
        if cs.active.power.name is PowerName.CONSUME_GOODS:
            table = BY_CARD[ConsumeGood]
            return [table[w] for w in state.tableau[seat] if w in goods]
        table = BY_CARD[Discard]
        moves: list[Any] = [table[c] for c in state.hands[seat]]
        moves.append(_DONE)
        return moves
    moves = [UsePower(IDS[ref.card], ref.index) for ref in cs.powers]
    moves.append(_DONE)
    return moves


def _default(state: State, seat: int) -> tuple[Done, str] | None:
    cs = _seat(state, seat)
    if cs.must_sell:
        return None
    if cs.active is None:
        return _DONE, R.CONSUME
    if cs.active.power.name is PowerName.CONSUME_HAND:
        return _DONE, R.CONSUME_HAND
    return None


# ---------------------------------------------------------------------- selling


def owns_good(state: State, seat: int, world: str, rule: str, what: str) -> Refusal | None:
    """Return a refusal citing ``rule`` unless ``world`` is a world of ``seat``'s tableau holding a good."""
    w = INDEX.get(world, NO_CARD)
    if w not in state.goods or w not in state.tableau[seat]:
        return Refusal(rule, lambda: f"{world} is not a world of seat {seat}'s tableau holding a good {what}")
    return None


def owns_sell(state: State, seat: int, move: Sell) -> Refusal | None:
    """A good is sold from one of the seller's own worlds (se-vende/preguntas/comercio)."""
    return owns_good(state, seat, move.world, R.TRADE, "to sell")


def check_sell(state: State, seat: int, move: Sell) -> Refusal | None:
    """Only a Comercio chooser sells, and exactly one good (se-vende/preguntas/comercio)."""
    cs = _seat(state, seat)
    if not cs.must_sell:
        chosen = (state.chosen or {}).get(seat, "")
        if chosen != "comercio":
            return Refusal(
                R.TRADE,
                lambda: (
                    f"only seats that chose Consumir: Comercio may sell; seat {seat} chose "
                    f"{ACTION_NAMES.get(chosen, 'another action')}"
                ),
            )
        return Refusal(R.TRADE, lambda: f"seat {seat} has already sold its one good this phase")
    return None


def sell(state: State, seat: int, move: Sell, ev: list[Event]) -> bool:
    """Sell the good: it goes face down to the discard pile and the seat draws its price (plus trade powers)."""
    cs = _seat(state, seat)
    w = INDEX[move.world]
    kind = DEFS[w].good or ""
    bonus = trade_bonus(state, seat, kind)
    to_discard(state, state.goods.pop(w), None)
    cs.must_sell = False
    price = TRADE_PRICE[kind]
    extra = f" + {bonus} from trade powers" if bonus else ""
    ev.append(Event(f"seat {seat} sells the {GOOD_NAMES[kind]} good from {name(w)} for {price}{extra} cards"))
    draw_to_hand(state, seat, price + bonus, "Comercio", ev)
    return _after(state, seat, cs, ev)


# ---------------------------------------------------------------------- invoking a power


def find_power(cs: ConsumeSeat, card_id: str, index: int) -> PowerRef | None:
    """Return the consume power ``index`` of card ``card_id`` that counts for this seat now, if any."""
    return cs.by_key.get((card_id, index))


def owns_use(state: State, seat: int, move: UsePower) -> Refusal | None:
    """The power must be a consume power of a card of the seat's tableau that counts this phase."""
    if find_power(_seat(state, seat), move.card, move.power) is None:
        return Refusal(
            R.CONSUME,
            lambda: (
                f"{move.card} has no consume power number {move.power} that counts in seat {seat}'s tableau this phase"
            ),
        )
    return None


def check_use(state: State, seat: int, move: UsePower) -> Refusal | None:
    """A counting consume power with something to consume, unused this phase, after any sale, one at a time.

    See se-vende/rulings/consumir, se-vende/preguntas/comercio and se-vende/preguntas/poderes-hasta-n-bienes.
    """
    cs = _seat(state, seat)
    if cs.must_sell:
        return Refusal(
            R.TRADE,
            lambda: (
                f"seat {seat} chose Consumir: Comercio and must sell exactly one good before using any consume power"
            ),
        )
    active = cs.active
    if active is not None:
        goods = active.power.name is PowerName.CONSUME_GOODS
        return Refusal(
            R.UP_TO_N if goods else R.CONSUME_HAND,
            lambda: f"finish the power in use ({name(active.card)}, power {active.index}) before invoking another",
        )
    ref = find_power(cs, move.card, move.power)
    assert ref is not None, "owns_use accepted it"
    if ref in cs.used:
        return Refusal(
            R.CONSUME, lambda: f"power {move.power} of {name(ref.card)} has already been used in this Consumir phase"
        )
    if not usable(state, seat, ref.power):
        need = "a card in hand" if ref.power.name is PowerName.CONSUME_HAND else "an eligible good"
        return Refusal(
            R.CONSUME, lambda: f"power {move.power} of {name(ref.card)} needs {need} and seat {seat} has none"
        )
    return None


def use(state: State, seat: int, move: UsePower, ev: list[Event]) -> bool:
    """Invoke the power; a goods power with no more eligible goods than it takes takes them all at once."""
    cs = _seat(state, seat)
    ref = find_power(cs, move.card, move.power)
    assert ref is not None
    cs.used.add(ref)
    cs.active = ref
    cs.remaining = ref.power.up_to
    cs.taken = []
    cs.gained_vp = 0
    ev.append(Event(f"seat {seat} uses {name(ref.card)}: {ref.power.text()}"))
    if ref.power.name is PowerName.CONSUME_GOODS:
        eligible = eligible_goods(state, seat, ref.power)
        if len(eligible) <= ref.power.up_to:
            for w in eligible:
                _take(state, cs, w)
            _end_power(state, seat, cs, ev)
    return _after(state, seat, cs, ev)


# ---------------------------------------------------------------------- giving goods or cards to the power in use


def owns_consume(state: State, seat: int, move: ConsumeGood) -> Refusal | None:
    """A good is consumed from one of the seat's own worlds (se-vende/preguntas/poderes-hasta-n-bienes)."""
    return owns_good(state, seat, move.world, R.UP_TO_N, "to consume")


def check_consume(state: State, seat: int, move: ConsumeGood) -> Refusal | None:
    """The power in use takes goods it accepts from the seat's worlds (se-vende/preguntas/poderes-hasta-n-bienes)."""
    cs = _seat(state, seat)
    if cs.active is None or cs.active.power.name is not PowerName.CONSUME_GOODS:
        return Refusal(R.CONSUME, lambda: "no goods-consuming power is in use; invoke one with 'use <card> <power>'")
    if not cs.active.power.matches(DEFS[INDEX[move.world]].good or ""):
        return Refusal(R.UP_TO_N, lambda: f"the good on {move.world} is not of a kind the power in use accepts")
    return None


def consume(state: State, seat: int, move: ConsumeGood, ev: list[Event]) -> bool:
    """Give the good to the power in use; the power ends when it has taken all it may."""
    cs = _seat(state, seat)
    _take(state, cs, INDEX[move.world])
    if cs.remaining == 0:
        _end_power(state, seat, cs, ev)
    return _after(state, seat, cs, ev)


def owns_discard(state: State, seat: int, move: Discard) -> Refusal | None:
    """The card comes from the seat's hand (se-vende/rulings/poderes-de-mano)."""
    return not_in_hand(state, seat, move.card, R.CONSUME_HAND, "discard it for a victory point")


def check_discard(state: State, seat: int, move: Discard) -> Refusal | None:
    """A power that discards from hand must be in use (se-vende/rulings/poderes-de-mano)."""
    cs = _seat(state, seat)
    if cs.active is None or cs.active.power.name is not PowerName.CONSUME_HAND:
        return Refusal(
            R.CONSUME_HAND,
            lambda: "no power that consumes cards from hand is in use; invoke one with 'use <card> <power>'",
        )
    return None


def discard(state: State, seat: int, move: Discard, ev: list[Event]) -> bool:
    """Discard the card for 1 VP (paid when the power ends); the power ends at its limit or an empty hand."""
    cs = _seat(state, seat)
    c = INDEX[move.card]
    state.hands[seat].remove(c)
    to_discard(state, c, seat)
    cs.remaining -= 1
    cs.gained_vp += 1
    ev.append(Event(f"you discarded {name(c)} for 1 VP", (seat,)))
    if cs.remaining == 0 or not state.hands[seat]:
        _end_power(state, seat, cs, ev)
    return _after(state, seat, cs, ev)


# ---------------------------------------------------------------------- finishing


def check_done(state: State, seat: int, move: Done) -> Refusal | None:
    """Stop a power that discards from hand, or finish consuming: not before a sale, nor mid goods power."""
    cs = _seat(state, seat)
    if cs.must_sell:
        return Refusal(
            R.TRADE,
            lambda: f"seat {seat} chose Consumir: Comercio and holds a good: it must sell exactly one before finishing",
        )
    active = cs.active
    if active is not None and active.power.name is PowerName.CONSUME_GOODS:
        left = len(eligible_goods(state, seat, active.power))
        return Refusal(
            R.UP_TO_N,
            lambda: (
                f"the power in use ({name(active.card)}, power {active.index}) must take all the goods it can: "
                f"choose {cs.remaining} more of your {left} eligible goods"
            ),
        )
    return None


def done(state: State, seat: int, move: Done, ev: list[Event]) -> bool:
    """End the power that discards from hand, or finish consuming."""
    cs = _seat(state, seat)
    if cs.active is not None:
        _end_power(state, seat, cs, ev)
    else:
        cs.finished = True
        ev.append(said.finishes_consuming(seat))
    return _after(state, seat, cs, ev)


def _take(state: State, cs: ConsumeSeat, w: int) -> None:
    to_discard(state, state.goods.pop(w), None)
    cs.taken.append(w)
    cs.remaining -= 1


def _end_power(state: State, seat: int, cs: ConsumeSeat, ev: list[Event]) -> None:
    ref = cs.active
    assert ref is not None
    cs.active = None
    p = ref.power
    if p.name is PowerName.CONSUME_HAND:
        n = cs.gained_vp
        ev.append(
            Event(
                f"seat {seat} discards {plural(n, 'card')} from hand with {name(ref.card)} for {n} VP "
                "(never doubled by 2x PV)"
            )
        )
        award(state, seat, n, ev)
        return
    goods = len(cs.taken)
    vp = goods * p.vp * (2 if cs.double else 1)
    cards = goods * p.cards
    doubled = " (doubled by 2x PV)" if cs.double and p.vp else ""
    worlds = ", ".join(name(w) for w in cs.taken)
    ev.append(
        Event(
            f"seat {seat} consumes {plural(goods, 'good')} with {name(ref.card)} (from {worlds}) for {vp} VP"
            f"{doubled} and {plural(cards, 'card')}"
        )
    )
    award(state, seat, vp, ev)
    draw_to_hand(state, seat, cards, "consume power", ev)


def _after(state: State, seat: int, cs: ConsumeSeat, ev: list[Event]) -> bool:
    """Finish the seat when nothing is left for it; return whether every seat has finished."""
    if not cs.finished and not is_open(state, seat, cs):
        cs.finished = True
        ev.append(said.nothing_to_consume(seat))
    for c in state.consume:  # a loop, not a generator: this runs after every move of the phase
        if c is not None and not c.finished:
            break
    else:
        state.consume = [None] * state.n
        return True
    return False


STEP = declare(
    STEP_NAMES[CONSUMING],
    rule=R.CONSUME,
    what="the Consumir phase",
    prompt="Consumir: sell one good if you chose Comercio, then use your consume powers or finish with done.",
    deciding=_deciding,
    idle=_idle,
    candidates=_candidates,
    moves={
        Sell: (sell, owns_sell, check_sell),
        UsePower: (use, owns_use, check_use),
        ConsumeGood: (consume, owns_consume, check_consume),
        Discard: (discard, owns_discard, check_discard),
        Done: (done, None, check_done),
    },
    default=_default,
)

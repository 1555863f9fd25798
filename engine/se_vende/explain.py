"""Se Vende's legal moves in plain words: one full sentence each, and a note where a move cannot help.

Sentences name the seat by number and name (``seat 1 (claude-7)``), cards by printed name and id,
and amounts with their unit (cards paid or drawn, VP). A note flags a move that is legal but can
never help, when the engine can tell (e.g. consuming goods for cards when no card is left to draw).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from club_agentes.engine.core.model import MoveNote
from club_agentes.engine.se_vende.actions import ACTION_EFFECTS, ACTION_NAMES, EXPLORE, PHASE_OF_ACTION
from club_agentes.engine.se_vende.cards import GOOD_NAMES, TRADE_PRICE, PowerName
from club_agentes.engine.se_vende.moves import (
    ChooseAction,
    ConsumeGood,
    Discard,
    Done,
    Keep,
    Pay,
    Place,
    Produce,
    Sell,
    UsePower,
)
from club_agentes.engine.se_vende.state import (
    CONSUMING,
    DEVELOP_PLACE,
    HAND_LIMIT,
    HAND_MAX,
    NO_CARD,
    PRODUCING,
    SETUP,
    State,
)
from club_agentes.engine.se_vende.state_text import kind_words
from club_agentes.engine.se_vende.steps import consume as consume_step
from club_agentes.engine.se_vende.steps.place import cost_now
from club_agentes.engine.se_vende.table import DECK, DEFS, INDEX, drawable, military, name, plural

_NOTHING_TO_DRAW = "the supply and the discard pile are both empty, so no card can be drawn"


def explain(state: State, seat: int, moves: Sequence[Any], names: Sequence[str]) -> list[MoveNote]:
    """Return each of ``seat``'s ``moves`` in plain words (``names[seat]`` labels the seat)."""
    who = names[seat] if 0 <= seat < len(names) else f"seat {seat}"
    return [_explain(state, seat, who, m) for m in moves]


def _explain(state: State, seat: int, who: str, m: Any) -> MoveNote:
    if isinstance(m, ChooseAction):
        phase, effect = ACTION_EFFECTS[m.action]
        note = None
        if PHASE_OF_ACTION[m.action] == EXPLORE and drawable(state) == 0:
            note = f"Explorar would do nothing: {_NOTHING_TO_DRAW} (Explorar is the first phase, so none comes back)"
        # The bonus first, then what every seat does in the phase, each in its first clause (the place and
        # sell moves give costs and prices): two cards of one phase end alike, and the move list writes that
        # ending once.
        everyone, bonus = effect.rsplit("; ", 1)
        everyone, bonus = everyone.split(", ", 1)[0], bonus.split(" (", 1)[0]
        numeral = phase.split(" ", 1)[0]
        return MoveNote(f"{who} chooses {ACTION_NAMES[m.action]} ({bonus}) for phase {numeral}: {everyone}.", note)
    if isinstance(m, Keep):
        left = state.todo[seat]
        rest = len(state.drawn[seat]) - left
        if left > 1:
            tail = f" ({left - 1} more to keep)"
        elif rest == 1:
            tail = "; the other card goes face down to the discard pile"
        else:
            tail = f"; the other {rest} cards go face down to the discard pile"
        return MoveNote(f"{who} keeps {_described(m.card)}{tail}.")
    if isinstance(m, Discard):
        return _discard(state, seat, who, m)
    if isinstance(m, Place):
        return _place(state, seat, who, m)
    if isinstance(m, Pay):
        owed = state.todo[seat]
        placed = name(state.placed[seat]) if state.placed[seat] != NO_CARD else "the card placed"
        return MoveNote(
            f"{who} discards {_card(m.card)} face down to pay for {placed} ({plural(owed, 'card')} owed, this one "
            "included)."
        )
    if isinstance(m, Sell):
        return _sell(state, seat, who, m)
    if isinstance(m, UsePower):
        return _use(state, seat, who, m)
    if isinstance(m, ConsumeGood):
        return _consume(state, seat, who, m)
    if isinstance(m, Produce):
        w = INDEX[m.world]
        kind = GOOD_NAMES[DEFS[w].good or ""]
        return MoveNote(f"{who} puts a good of {kind} face down on {name(w)}, from the supply.")
    if isinstance(m, Done):
        return _done(state, seat, who)
    return MoveNote(f"{who} plays {m.text()}.")


def _card(card_id: str) -> str:
    """The card's name and id (a card of the hand: its kind and VP are in the seat's state lines)."""
    return name(INDEX[card_id])


def _described(card_id: str) -> str:
    """The card's name and id, then its kind and VP as the state lines write them (a card drawn while
    exploring, which no state line describes): ``Anillo de Hielo (SV-C043) (mundo 2, 2 VP)``."""
    c = INDEX[card_id]
    return f"{name(c)} ({kind_words(DECK.views[c])})"


def _discard(state: State, seat: int, who: str, m: Discard) -> MoveNote:
    if state.step == SETUP:
        return MoveNote(
            f"{who} discards {_card(m.card)} face down for setup step 5 "
            f"({plural(state.todo[seat], 'card')} to discard, this one included)."
        )
    if state.step == HAND_LIMIT:
        return MoveNote(
            f"{who} discards {_card(m.card)} face down to get down to {HAND_MAX} cards "
            f"({plural(state.todo[seat], 'card')} to discard, this one included)."
        )
    cs = state.consume[seat] if state.step == CONSUMING else None
    by = name(cs.active.card) if cs is not None and cs.active is not None else "the power in use"
    return MoveNote(f"{who} discards {_card(m.card)} from hand with {by} for 1 VP (never doubled by 2x PV).")


def _place(state: State, seat: int, who: str, m: Place) -> MoveNote:
    dev = state.step == DEVELOP_PLACE
    if m.card is None:
        return MoveNote(f"{who} places nothing this phase (sealed until every seat has chosen).")
    c = INDEX[m.card]
    d = DEFS[c]
    kind = "development" if dev else "world"
    if d.military:
        how = f"free with Militar {military(state, seat)} against defence {d.defence}"
    else:
        owe = cost_now(state, seat, c)
        how = f"paying {plural(owe, 'card')} from hand after the reveal (cost {d.cost})"
    return MoveNote(f"{who} places the {kind} {_card(m.card)} in secret, {how}.")


def _sell(state: State, seat: int, who: str, m: Sell) -> MoveNote:
    w = INDEX[m.world]
    kind = DEFS[w].good or ""
    price = TRADE_PRICE[kind]
    bonus = consume_step.trade_bonus(state, seat, kind)
    how = f" (price {price} + {bonus} from trade powers)" if bonus else ""
    note = _NOTHING_TO_DRAW if drawable(state) == 0 else None
    return MoveNote(
        f"{who} sells the {GOOD_NAMES[kind]} good on {name(w)} for {plural(price + bonus, 'card')}{how}.", note
    )


def _use(state: State, seat: int, who: str, m: UsePower) -> MoveNote:
    cs = state.consume[seat]
    c = INDEX[m.card]
    p = DEFS[c].powers[m.power]
    if p.name is PowerName.CONSUME_HAND:
        return MoveNote(
            f"{who} uses power {m.power} of {name(c)}: discard up to {plural(p.up_to, 'card')} from hand "
            "for 1 VP each (never doubled by 2x PV), stopping when you like."
        )
    eligible = consume_step.eligible_goods(state, seat, p)
    n = min(len(eligible), p.up_to)
    double = cs is not None and cs.double
    vp = n * p.vp * (2 if double else 1)
    cards = n * p.cards
    gains = []
    if p.vp:
        gains.append(f"{vp} VP" + (" (doubled by 2x PV)" if double else ""))
    if p.cards:
        gains.append(plural(cards, "card"))
    chooses = f" (chosen among {len(eligible)} eligible goods)" if len(eligible) > p.up_to else ""
    note = None
    if not p.vp and drawable(state) == 0:
        note = f"this power gives only cards and {_NOTHING_TO_DRAW}: it would only use up your goods"
    return MoveNote(
        f"{who} uses power {m.power} of {name(c)} on {plural(n, 'good')}{chooses}: {' and '.join(gains)}.", note
    )


def _consume(state: State, seat: int, who: str, m: ConsumeGood) -> MoveNote:
    cs = state.consume[seat]
    w = INDEX[m.world]
    kind = GOOD_NAMES[DEFS[w].good or ""]
    if cs is None or cs.active is None:
        return MoveNote(f"{who} gives the {kind} good on {name(w)} to the power in use.")
    p = cs.active.power
    gains = []
    if p.vp:
        gains.append(f"{p.vp * (2 if cs.double else 1)} VP")
    if p.cards:
        gains.append(plural(p.cards, "card"))
    note = None
    if not p.vp and drawable(state) == 0:
        note = f"this power gives only cards and {_NOTHING_TO_DRAW}"
    return MoveNote(
        f"{who} gives the {kind} good on {name(w)} to {name(cs.active.card)} for {' and '.join(gains)} "
        f"({cs.remaining} more to take).",
        note,
    )


def _done(state: State, seat: int, who: str) -> MoveNote:
    if state.step == PRODUCING:
        right = state.produce[seat][0]
        by = "the Producir bonus" if right.source == NO_CARD else name(right.source)
        return MoveNote(f"{who} declines the windfall production of {by}.")
    cs = state.consume[seat]
    if cs is not None and cs.active is not None:
        return MoveNote(
            f"{who} stops discarding with {name(cs.active.card)} after {plural(cs.gained_vp, 'card')} "
            f"({cs.gained_vp} VP)."
        )
    unused = []
    if cs is not None:
        unused = [
            f"{name(ref.card)} power {ref.index}"
            for ref in cs.powers
            if ref not in cs.used and consume_step.usable(state, seat, ref.power)
        ]
    tail = f", leaving unused: {'; '.join(unused)}" if unused else ""
    return MoveNote(f"{who} finishes consuming this phase{tail}.")

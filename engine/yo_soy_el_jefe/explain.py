"""Legal moves in plain words (:func:`explain`): one sentence per move naming seats by number and name and money
with its unit, and a note on a move that is legal but can never help (the engine can tell)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from club_agentes.engine.core.model import MoveNote
from club_agentes.engine.yo_soy_el_jefe.components import DRAW_BY_INVESTORS, DRAW_COUNT
from club_agentes.engine.yo_soy_el_jefe.moves import (
    DIVIDENDS,
    INVESTOR,
    Accept,
    Bid,
    Close,
    Discard,
    Draw,
    Fail,
    Hire,
    Negotiate,
    Offer,
    Pass,
    PlaceFamily,
    PlaceMarker,
    PlayBoss,
    Price,
    Refuse,
    Roll,
    Stop,
    Travel,
    Withdraw,
)
from club_agentes.engine.yo_soy_el_jefe.state import AGREED, ASKED, COLOUR_INDEX, COLOURS, SPACES, Negotiation, State
from club_agentes.engine.yo_soy_el_jefe.steps.deal import current_group
from club_agentes.engine.yo_soy_el_jefe.steps.influence import stop_words
from club_agentes.engine.yo_soy_el_jefe.steps.negotiation import OTHERS
from club_agentes.engine.yo_soy_el_jefe.words import space_words

_SEAT = re.compile(r"\bseat (\d)\b")
_KIND_WORDS = {
    "family": "family card (familia)",
    "travel": "travel card (viaje)",
    "boss": "boss card (jefe)",
    "hire": "hire card (empleo)",
    "stop": "stop card (parada)",
}


def explain(state: State, seat: int, moves: Sequence[Any], names: Sequence[str]) -> list[MoveNote]:
    """Return each of ``moves`` (legal moves of ``seat``) in plain words, with a note when it can never help."""
    label = [names[s] if s < len(names) else f"seat {s}" for s in range(state.n)]
    return [_note(state, seat, m, label) for m in moves]


def _note(state: State, seat: int, move: Any, name: list[str]) -> MoveNote:
    """Return ``move`` in plain words: the note of its move type, outside a deal or inside one."""
    plain = _TURN_NOTES.get(type(move))
    if plain is not None:
        return plain(state, seat, move, name)
    neg = state.neg
    assert neg is not None
    in_deal = _DEAL_NOTES.get(type(move))
    if in_deal is not None:
        return in_deal(state, neg, seat, move, name)
    return MoveNote(f"{move.text()}.")


def _note_marker(state: State, seat: int, move: PlaceMarker, name: list[str]) -> MoveNote:
    return MoveNote(f"Place the dollar marker on space {move.space} ({space_words(move.space - 1)}).")


def _note_negotiate(state: State, seat: int, move: Negotiate, name: list[str]) -> MoveNote:
    card = state.deal_deck[0]
    space = SPACES[state.marker]
    return MoveNote(
        f"Say '¡Vamos a negociar!' and open a deal on space {state.marker + 1} as its boss: {space.dividends} "
        f"dividends of {card.dividend}M = {space.dividends * card.dividend}M, needing {space.describe()}."
    )


def _note_roll(state: State, seat: int, move: Roll, name: list[str]) -> MoveNote:
    return MoveNote("Roll the die and move the dollar marker clockwise over the free spaces.")


def _note_draw(state: State, seat: int, move: Draw, name: list[str]) -> MoveNote:
    count = DRAW_COUNT
    if state.cfg.draw_by_investors:
        count = DRAW_BY_INVESTORS[min(len(state.investors_of(seat)), len(DRAW_BY_INVESTORS) - 1)]
    return MoveNote(
        f"Take {count} influence cards from the deck (you hold {len(state.hands[seat])}; the limit is "
        f"{state.hand_limit()}), and end your turn."
    )


def _note_discard(state: State, seat: int, move: Discard, name: list[str]) -> MoveNote:
    colour = f" {move.colour}" if move.colour else ""
    return MoveNote(f"Discard one {_KIND_WORDS[move.kind]}{colour} face up.")


def _note_stop(state: State, seat: int, move: Stop, name: list[str]) -> MoveNote:
    assert state.stop is not None
    return MoveNote(
        f"Play a stop card (parada) to cancel {_named(stop_words(state, state.stop), name)}; both cards are discarded."
    )


def _note_hire(state: State, seat: int, move: Hire, name: list[str]) -> MoveNote:
    owner = state.owner[COLOURS.index(move.colour)]
    whose = "from beside the board" if owner < 0 else f"from {name[owner]}"
    return MoveNote(f"Play three hire cards (empleo) to take the {move.colour} investor card {whose}.")


def _note_offer(state: State, neg: Negotiation, seat: int, move: Offer, name: list[str]) -> MoveNote:
    index = COLOURS.index(move.colour)
    quote = neg.quotes.get((seat, index))
    how = "investor" if state.owner[index] == seat and index not in neg.travelled else "family card"
    if quote is not None and quote.status == ASKED:
        return MoveNote(
            f"Change your demand for your {move.colour} ({how}), now {quote.named_as()}: you name the new price "
            f"next, for the boss, {name[neg.boss]}, to accept or refuse."
        )
    return MoveNote(
        f"Offer your {move.colour} ({how}) to the boss, {name[neg.boss]}: you name your price next (up to "
        f"{neg.payout}M)."
    )


def _note_bid(state: State, neg: Negotiation, seat: int, move: Bid, name: list[str]) -> MoveNote:
    return MoveNote(f"Propose a price to {name[move.seat]} for its {move.colour}: you name the amount next.")


def _note_price(state: State, neg: Negotiation, seat: int, move: Price, name: list[str]) -> MoveNote:
    assert neg.naming is not None
    amount = move.amount if move.unit != DIVIDENDS else move.amount * neg.value
    named = f"{amount}M" if move.unit != DIVIDENDS else f"{move.amount} dividend(s) of {neg.value}M ({amount}M)"
    target = neg.naming.seat
    what = COLOURS[neg.naming.colour]
    if seat == neg.boss:
        return MoveNote(f"Propose {named} to {name[target]} for its {what}, paid from the {neg.payout}M payout.")
    return MoveNote(f"Ask {named} of the boss, {name[neg.boss]}, for your {what} (the deal pays {neg.payout}M).")


def _note_accept(state: State, neg: Negotiation, seat: int, move: Accept, name: list[str]) -> MoveNote:
    quote = neg.quotes[(move.seat, COLOURS.index(move.colour))]
    if seat != neg.boss:
        return MoveNote(
            f"Accept the boss's ({name[neg.boss]}) offer of {quote.millions}M for your {move.colour}: it binds, and "
            "is paid if the deal closes."
        )
    says = f"Accept that {name[move.seat]} is paid {quote.millions}M for {move.colour}"
    if move.close:
        promised = neg.agreed_total() + quote.millions
        says += (
            f", and close the deal at once ('Uno, dos...'): the bank pays you {neg.payout}M and you pay "
            f"{promised}M as promised"
        )
    return MoveNote(says + ".")


def _note_refuse(state: State, neg: Negotiation, seat: int, move: Refuse, name: list[str]) -> MoveNote:
    quote = neg.quotes[(move.seat, COLOURS.index(move.colour))]
    if seat == neg.boss:
        return MoveNote(f"Refuse the {quote.millions}M that {name[move.seat]} asks for its {move.colour}.")
    return MoveNote(f"Refuse the boss's ({name[neg.boss]}) offer of {quote.millions}M for your {move.colour}.")


def _note_withdraw(state: State, neg: Negotiation, seat: int, move: Withdraw, name: list[str]) -> MoveNote:
    quote = neg.quotes[(move.seat, COLOURS.index(move.colour))]
    if seat == neg.boss:
        return MoveNote(f"Withdraw your proposal of {quote.millions}M to {name[move.seat]} for its {move.colour}.")
    return MoveNote(f"Withdraw your demand of {quote.millions}M for your {move.colour}.")


def _note_boss(state: State, neg: Negotiation, seat: int, move: PlayBoss, name: list[str]) -> MoveNote:
    plan = (
        "restart the negotiation (every price and agreement vanishes)"
        if move.restart
        else "keep the negotiation as it stands (the prices and agreements stay, owed by you; your own vanish)"
    )
    return MoveNote(
        f"Play a boss card (jefe): '¡Soy el jefe!', take the deal over from {name[neg.boss]} and {plan}; it takes "
        "effect unless a stop card answers it."
    )


def _note_close(state: State, neg: Negotiation, seat: int, move: Close, name: list[str]) -> MoveNote:
    promised = sum(p.price for p in current_group(state)[0] if p.seat != neg.boss)
    return MoveNote(
        f"Close the deal ('Uno, dos, la transacción se ha completado'): the bank pays you {neg.payout}M and you "
        f"pay {promised}M as promised."
    )


def _note_fail(state: State, neg: Negotiation, seat: int, move: Fail, name: list[str]) -> MoveNote:
    nxt = (neg.turn_seat if state.cfg.boss_card_keeps_turn else neg.boss) + 1
    note = None
    if current_group(state)[1]:
        note = f"the deal could close now and pay you {neg.payout}M; failing it gives that up."
    return MoveNote(
        "Declare the deal failed: placed family cards go back to their hands, the other cards used are "
        f"discarded, and {name[nxt % state.n]} plays next.",
        note,
    )


def _named(text: str, name: list[str]) -> str:
    """Replace each ``seat N`` of an engine phrase by the seat's label, e.g. ``seat 1 (claude-7)``."""
    return _SEAT.sub(lambda m: name[int(m.group(1))] if int(m.group(1)) < len(name) else m.group(0), text)


def _pass(state: State, seat: int, name: list[str]) -> MoveNote:
    if state.stop is not None:
        return MoveNote(f"Let {_named(stop_words(state, state.stop), name)} go: play no stop card.")
    neg = state.neg
    assert neg is not None
    last = _named(neg.last_act, name)
    if seat == neg.boss:
        return MoveNote(f"Wait: let the other seats answer the last change ({last}) before you act.")
    return MoveNote(f"Pass: let the last change ({last}) stand without acting; you may act again after the next one.")


def _family(state: State, seat: int, move: PlaceFamily, name: list[str]) -> MoveNote:
    neg = state.neg
    assert neg is not None
    colour = COLOURS.index(move.colour)
    own_investor = state.owner[colour] == seat and colour not in neg.travelled
    agreed = (q := neg.quotes.get((seat, colour))) is not None and q.status == AGREED
    if seat == neg.boss:
        says = (
            f"Place your family card (familia) {move.colour} in the deal: it stands in for the {move.colour} investor."
        )
        note = None
        if own_investor:
            note = (
                f"your own {move.colour} investor already takes part for free; if it travels you can still place "
                "this card then."
            )
        return MoveNote(says, note)
    if agreed:
        return MoveNote(
            f"Place your family card (familia) {move.colour} face up as a backup: your agreed {move.colour} still "
            "takes part if your investor is sent travelling."
        )
    says = (
        f"Place your family card (familia) {move.colour} face up to take part with {move.colour}; then offer it to "
        f"the boss, {name[neg.boss]}, with a price."
    )
    note = None
    if own_investor:
        note = (
            f"you hold the {move.colour} investor, not travelled: it can already take part, and this card adds "
            "nothing until you have an agreement to protect."
        )
    return MoveNote(says, note)


def _travel(state: State, seat: int, move: Travel, name: list[str]) -> MoveNote:
    neg = state.neg
    assert neg is not None
    card = "a grey travel card (viaje gris)" if move.grey else f"a travel card (viaje) {move.colour}"
    target = "investor card" if move.target == INVESTOR else "family card"
    says = (
        f"Play {card} on {name[move.seat]}'s {move.colour} {target}: it cannot take part in this deal (unless a stop "
        "card answers it)."
    )
    note = None
    if move.seat == seat:
        if seat == neg.boss:
            note = (
                f"as boss your own {move.colour} {target} counts for your deal for free; sending it travelling can "
                "only take it away."
            )
        elif move.target != INVESTOR or not state.cfg.two_player_rules:
            note = (
                f"your own {move.colour} {target} takes part only on terms you accept; sending it travelling can only "
                "cost you."
            )
    return MoveNote(says, note)


_TURN_NOTES: dict[type, Callable[[State, int, Any, list[str]], MoveNote]] = {
    PlaceMarker: _note_marker,
    Negotiate: _note_negotiate,
    Roll: _note_roll,
    Draw: _note_draw,
    Discard: _note_discard,
    Stop: _note_stop,
    Hire: _note_hire,
    Pass: lambda state, seat, move, name: _pass(state, seat, name),
}
"""The words of the moves that may come outside a deal, by move type."""

_DEAL_NOTES: dict[type, Callable[[State, Negotiation, int, Any, list[str]], MoveNote]] = {
    PlaceFamily: lambda state, neg, seat, move, name: _family(state, seat, move, name),
    Offer: _note_offer,
    Bid: _note_bid,
    Price: _note_price,
    Accept: _note_accept,
    Refuse: _note_refuse,
    Withdraw: _note_withdraw,
    Travel: lambda state, neg, seat, move, name: _travel(state, seat, move, name),
    PlayBoss: _note_boss,
    Close: _note_close,
    Fail: _note_fail,
}
"""The words of the moves of a deal, by move type."""
# --------------------------------------------------------------------------- what a move answers


def _deal(state: State) -> tuple[Any, ...] | None:
    """The deal being negotiated, if any: its space, deal card and boss (a move made to another boss, or in
    another deal, does not mean the same)."""
    neg = state.neg
    if neg is None:
        return None
    return (neg.space, neg.card.number, neg.boss)


def _last_change(state: State) -> tuple[Any, ...]:
    """The negotiation's last change (what a pass answers, and what a close or a kept boss card takes as it is)."""
    neg = state.neg
    assert neg is not None
    return (neg.revision, neg.last_actor, neg.last_act)


def _group(state: State) -> tuple[Any, ...]:
    """The group that would take part if the boss closed now (its parts and prices), and whether it is complete."""
    parts, complete = current_group(state)
    return (tuple(parts), complete)


def _concerns(state: State, seat: int) -> tuple[Any, ...]:
    """What in a negotiation concerns a seat other than the boss: the prices for its colours, the family cards it
    placed, the investor cards it holds and the travel cards lying on them."""
    neg = state.neg
    assert neg is not None
    quotes = neg.quotes
    owner = state.owner
    travelled = neg.travelled
    mine = []
    for c in range(len(COLOURS)):
        if owner[c] == seat:
            mine.append((c, travelled.get(c)))
    return (
        tuple(quotes.get((seat, c)) for c in range(len(COLOURS))),
        tuple(sorted(c for s, c in neg.placed if s == seat)),
        tuple(mine),
    )


def basis(state: State, seat: int, move: Any) -> tuple[Any, ...]:
    """Return what ``move`` answers or refers to in ``state`` (``Game.move_basis``).

    A move decided on an older state is played if it is legal now and this is the same in both states. Every
    move in a negotiation depends on the deal and its boss. Beyond that: an accept, refuse or withdraw answers
    the price standing for that colour; a pass by a seat other than the boss answers what concerns it (the
    prices for its colours, its family cards placed, its investor cards and the travel cards on them: after its
    pass the boss may close without it), while the boss's pass (it waits) answers nothing in particular (the
    boss closes, so it is asked again before anything closes without it); a close and an accept-and-close take
    the group that would close as it stands (its parts and prices), a boss card that keeps the negotiation the
    last change; a stop card or a pass in a stop
    window answers the card just played; a travel card lands on one investor or family card; a hire set takes
    the investor card from its holder. An offer or a bid states a new price whatever stood before, and a family
    card placed, a restarting boss card and failure answer nothing in particular.
    """
    stop = state.stop
    if stop is not None:
        return ("stop", _deal(state), stop.player, stop.kind, stop.payload, tuple(stop.cards))
    neg = state.neg
    if neg is None:
        return (state.phase, state.turn)
    deal = _deal(state)
    if isinstance(move, Pass):
        return (deal,) if seat == neg.boss else (deal, _concerns(state, seat))
    if isinstance(move, Close):
        return (deal, _group(state))
    if isinstance(move, PlayBoss) and not move.restart:
        return (deal, _last_change(state))
    if isinstance(move, Accept | Refuse | Withdraw):
        quote = neg.quotes.get((move.seat, COLOUR_INDEX[move.colour]))
        if isinstance(move, Accept) and move.close:
            return (deal, quote, _group(state))
        return (deal, quote)
    if isinstance(move, Price):
        return (deal, neg.naming)
    if isinstance(move, Travel):
        colour = COLOUR_INDEX[move.colour]
        if move.target == INVESTOR:
            return (deal, state.owner[colour], neg.travelled.get(colour))
        return (deal, neg.placed.get((move.seat, colour)))
    if isinstance(move, Hire):
        return (deal, state.owner[COLOUR_INDEX[move.colour]])
    return (deal,)


def overtaken(then: State, now: State, seat: int, move: Any) -> str | None:
    """Return why a move decided on ``then`` has already done its work in ``now`` (``Game.overtaken``), else ``None``.

    Ruling ``pases-adelantados``: a pass (or the boss's wait) acts on nothing, it lets the change it was decided on
    stand; when other seats' acts came first and it can no longer be applied as it was meant, that change has been
    answered or replaced, so the pass is spent, not refused. So is a move whose whole effect another seat's act
    already had: a refusal or withdrawal of a price that the other side has already taken off the table, a stop
    card for a card another seat's stop already cancelled, a travel card for an investor another seat's travel card
    has already sent travelling in this deal (the card stays in the hand). Returns an English clause
    for the seat, e.g. ``"your wait is over: every other seat has answered the last change"``.
    """
    if isinstance(move, Stop):
        if then.stop is not None and (now.stop is None or not _same_window(then, now)):
            return "another seat's stop card already cancelled that card (your stop card stays in your hand)"
        return None
    if isinstance(move, Travel):
        return _travel_overtaken(then, now, move)
    if isinstance(move, Refuse | Withdraw):
        neg_then, neg_now = then.neg, now.neg
        key = (move.seat, COLOUR_INDEX[move.colour])
        if (
            neg_then is not None
            and key in neg_then.quotes
            and (neg_now is None or _deal(now) != _deal(then) or key not in neg_now.quotes)
        ):
            return f"the price for seat {move.seat}'s {move.colour} is already off the table"
        return None
    if not isinstance(move, Pass):
        return None
    return _pass_overtaken(then, now, seat)


def _travel_overtaken(then: State, now: State, move: Travel) -> str | None:
    """The travel card case of :func:`overtaken`: the investor it aimed at has travelled since, in the same deal,
    held by the same seat (another seat's travel card already kept it out of the deal)."""
    colour = COLOUR_INDEX[move.colour]
    neg_then, neg_now = then.neg, now.neg
    if (
        move.target != INVESTOR
        or neg_then is None
        or neg_now is None
        or _deal(now) != _deal(then)
        or colour in neg_then.travelled
        or colour not in neg_now.travelled
        or now.owner[colour] != then.owner[colour]
    ):
        return None
    return (
        f"seat {move.seat}'s {move.colour} investor has already travelled and cannot take part in this deal "
        "(your travel card stays in your hand)"
    )


def _same_window(then: State, now: State) -> bool:
    a, b = then.stop, now.stop
    return a is not None and b is not None and a.player == b.player and a.kind == b.kind and a.cards == b.cards


def _pass_overtaken(then: State, now: State, seat: int) -> str | None:
    """The pass case of :func:`overtaken`."""
    if then.stop is not None:
        return None if _same_window(then, now) else "the stop window your pass answered has closed"
    neg_then, neg_now = then.neg, now.neg
    if neg_then is None or neg_then.naming is not None:
        return None
    if neg_now is None or _deal(now) != _deal(then):
        return "the negotiation your pass answered is over"
    if neg_now.revision != neg_then.revision:
        return "your pass answered the change before that one, which is now yours to answer like any other"
    if now.stop is not None:
        if now.stop.player == seat:
            return None
        return "your pass answered the negotiation before that card, which you now answer: stop it or let it go"
    if neg_now.naming is not None:
        return None  # a price being named: the table holds the pass until it is named
    if seat == neg_now.boss:
        if neg_now.passed.issuperset(OTHERS[now.n][seat]):
            return "your wait is over: every other seat has answered the last change"
    elif _concerns(then, seat) != _concerns(now, seat):
        return "what your pass let stand for your seat has changed since, which is now yours to answer"
    return None


def interlude(state: State) -> bool:
    """Return whether a negotiation is interrupted for a moment (``Game.interlude``): a seat is naming the price of
    its offer or bid, or a stop window is open; afterwards the seats that were deciding decide again. A table holds
    an act decided before the interruption meanwhile, or, when the stop window asks the act's own seat first,
    queues it until the window is over (ruling ``actos-en-espera``)."""
    neg = state.neg
    return neg is not None and (state.stop is not None or neg.naming is not None)

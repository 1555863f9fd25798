"""Sections 3-1 and 3-2: the negotiation, an open table with a quiet window (ruling ``protocolo-de-negociacion``).

After "¡Vamos a negociar!" any seat may act at any moment, the boss included: place a family card, state
or change its demand (an offer and its price), propose a price (the boss), accept, refuse or withdraw a
price, or play an influence card. Every act is a *change*, and every other seat may answer it. A seat
that passes has answered the last change and is asked again after the next one. The seats are asked in
the rulebook's clockwise order from the boss. The boss may close ("Uno, dos...") once the deal's needs
are met and every other seat has answered the last change (its author excepted), and may accept a
standing price and close in one move when everyone has already answered it.

This module holds who decides, the candidate moves, the checks that refuse a move with its rule, and
the effects of family cards, prices and answers. Influence cards are checked in :mod:`.influence`,
closing and failing in :mod:`.closing`.
"""

from __future__ import annotations

from typing import Any

from club_agentes.engine.core import Event, Pending
from club_agentes.engine.core.steps import Check, Refusal, Step, accept, kept_while
from club_agentes.engine.yo_soy_el_jefe import events as said
from club_agentes.engine.yo_soy_el_jefe import rules as R
from club_agentes.engine.yo_soy_el_jefe.moves import (
    ACCEPTS,
    ACCEPTS_CLOSE,
    BIDS,
    CLOSE,
    FAIL,
    OFFERS,
    PASS,
    PLACE_FAMILY,
    REFUSES,
    WITHDRAWS,
    Accept,
    Bid,
    Close,
    Fail,
    Hire,
    Offer,
    Pass,
    PlaceFamily,
    PlayBoss,
    Price,
    Refuse,
    Travel,
    Withdraw,
)
from club_agentes.engine.yo_soy_el_jefe.state import (
    AGREED,
    ASKED,
    COLOUR_INDEX,
    COLOURS,
    PROPOSED,
    SLOT_FAMILY,
    Negotiation,
    Quote,
    State,
)
from club_agentes.engine.yo_soy_el_jefe.steps.closing import check_close, do_close, do_fail, fail_by_boss, must_complete
from club_agentes.engine.yo_soy_el_jefe.steps.deal import (
    SPACE_COLS,
    current_group,
    current_missing,
    group,
    missing,
    represents,
)
from club_agentes.engine.yo_soy_el_jefe.steps.family import (
    check_place_family,
    do_place_family,
)
from club_agentes.engine.yo_soy_el_jefe.steps.influence import (
    boss_moves,
    check_boss,
    check_hire,
    check_travel,
    do_boss,
    do_hire,
    do_travel,
    hire_moves,
    travel_moves,
)
from club_agentes.engine.yo_soy_el_jefe.steps.prices import (
    NAME_FIRST,
    bid_target,
    check_bound,
    check_price,
    do_bid,
    do_offer,
    do_price,
    listing_key,
    offer_target,
    price_change,
    price_menu,
)
from club_agentes.engine.yo_soy_el_jefe.words import CLOCKWISE, millions, seat_list


def open_negotiation(state: State, seat: int) -> list[Event]:
    """Say "¡Vamos a negociar!" on the marker's space: ``seat`` becomes the boss and every seat may act."""
    card = state.deal_deck[0]
    neg = Negotiation(state.marker, card, seat)
    state.neg = neg
    state.phase = "negotiation"
    event = said.negotiating(seat, state.marker, card.number, neg.dividends, neg.value, neg.payout)
    neg.history.append(event.text)
    neg.change(seat, f"seat {seat}'s '¡Vamos a negociar!'")
    return [event]


# --------------------------------------------------------------------------- who decides


OTHERS: dict[int, tuple[tuple[int, ...], ...]] = {
    n: tuple(order[1:] for order in orders) for n, orders in CLOCKWISE.items()
}
"""``OTHERS[n][boss]``: the seats other than ``boss``, clockwise from the boss (the order they are asked in)."""


def to_answer(neg: Negotiation, n: int) -> list[int]:
    """Return the seats still to answer the last change before the boss may close: every seat but the boss and
    the change's author that has not passed since, clockwise from the boss."""
    last, passed = neg.last_actor, neg.passed
    left = []
    for s in OTHERS[n][neg.boss]:  # a loop, not a comprehension: no closure cells on Python 3.11
        if s != last and s not in passed:
            left.append(s)
    return left


_OTHER_SETS: dict[int, tuple[frozenset[int], ...]] = {
    n: tuple(frozenset(o) for o in others) for n, others in OTHERS.items()
}
"""``_OTHER_SETS[n][boss]``: :data:`OTHERS` as sets (what :meth:`set.issuperset` compares without a copy)."""


_TO_ANSWER: dict[int, tuple[tuple[frozenset[int], ...], ...]] = {
    n: tuple(tuple(frozenset(OTHERS[n][boss]) - {last} for last in range(n)) for boss in range(n)) for n in OTHERS
}
"""``_TO_ANSWER[n][boss][last]``: the seats that answer a change by ``last`` before the boss may close."""


def quiet(neg: Negotiation, n: int) -> bool:
    """Return whether every seat but the boss has answered the last change (its author excepted)."""
    return neg.passed.issuperset(_TO_ANSWER[n][neg.boss][neg.last_actor])


def deciding(neg: Negotiation, n: int) -> tuple[int, ...]:
    """Return the seats that may act now, clockwise from the boss: every seat that has not passed since the last
    change; the boss, once it has passed (waited), again when no other seat is left to answer (then it must
    close, fail or act)."""
    passed = neg.passed
    boss = neg.boss
    if not passed:
        return CLOCKWISE[n][boss]
    others = []
    for s in OTHERS[n][boss]:
        if s not in passed:
            others.append(s)
    if boss not in passed or not others:
        return (boss, *others)
    return tuple(others)


def negotiation_deciding(state: State) -> tuple[int, ...]:
    """Return the seats that may act now (the price's author alone while a price is being named)."""
    neg = state.neg
    assert neg is not None
    if neg.naming is not None:
        return (neg.naming.actor,)
    return deciding(neg, state.n)


def pending(state: State) -> Pending:
    """Return who decides in the negotiation now."""
    neg = state.neg
    assert neg is not None
    if neg.naming is not None:
        return _price_pending(neg)
    seats = deciding(neg, state.n)
    head, complete = _prompt_head(state)
    if seats == (neg.boss,):
        return Pending("turn", seats, head + (_BOSS_MAY_CLOSE if complete else _BOSS_MAY_FAIL))
    return Pending("reaction", seats, head + _answer_tail(seats, neg.boss))


_BOSS_MAY_CLOSE = " Every other seat has answered it: the boss may close ('Uno, dos...'), declare failure or act."
_BOSS_MAY_FAIL = " Every other seat has answered it: the boss may declare failure or act."
_ANSWER_TAILS: dict[tuple[tuple[int, ...], int], str] = {}
_PRICE_PENDINGS: dict[tuple[int, bool, int, int, int, int, int], Pending] = {}


def _prompt_head(state: State) -> tuple[str, bool]:
    """Return the prompt's first sentences (the deal, its needs, the last change) and whether the deal is complete
    (what they say changes only with a change of the negotiation: kept by the core kit until the next one)."""
    neg = state.neg
    assert neg is not None
    return kept_while(state, _head_of, neg, neg.revision)


def _head_of(state: State) -> tuple[str, bool]:
    """The prompt's first sentences and whether the deal is complete (:func:`_prompt_head`): the deal, which
    changes only with its terms (:func:`_deal_of`), then the last change."""
    neg = state.neg
    assert neg is not None
    deal, complete = kept_while(state, _deal_of, neg, neg.terms)
    return f"{deal} Last change: {neg.last_act}.", complete


def _deal_of(state: State) -> tuple[str, bool]:
    """The prompt's first sentence (the deal and what it still needs) and whether the deal is complete."""
    neg = state.neg
    assert neg is not None
    complete = current_group(state)[1]
    status = "its needs are met" if complete else f"it still needs {current_missing(state)}"
    return f"Negotiation on space {neg.space + 1} ({millions(neg.payout)}), boss seat {neg.boss}; {status}.", complete


def _answer_tail(seats: tuple[int, ...], boss: int) -> str:
    """Return the prompt's last sentence when seats other than the boss may answer (the same for the same seats)."""
    key = (seats, boss)
    tail = _ANSWER_TAILS.get(key)
    if tail is None:
        others = [s for s in seats if s != boss]
        tail = _ANSWER_TAILS[key] = (
            f" {seat_list(others).capitalize()} may answer: act (family card, offer and price, accept, refuse, "
            "withdraw, influence card) or pass; the boss may act at any time, and closes once every other seat has "
            "answered."
        )
    return tail


def _price_pending(neg: Negotiation) -> Pending:
    """Return who decides while a price is being named: its author alone (the same :class:`Pending` for the same
    author, side, target and deal: it is immutable, so it is built once)."""
    assert neg.naming is not None
    actor, seat, colour = neg.naming
    key = (actor, actor == neg.boss, seat, colour, neg.payout, neg.dividends, neg.value)
    pending = _PRICE_PENDINGS.get(key)
    if pending is None:
        what = f"seat {seat}'s {COLOURS[colour]}" if actor == neg.boss else f"your {COLOURS[colour]}"
        prompt = (
            f"Name the price for {what}: whole millions from 1M to {neg.payout}M (the payout), or 1 to "
            f"{neg.dividends} dividends of {neg.value}M each."
        )
        pending = _PRICE_PENDINGS[key] = Pending("turn" if actor == neg.boss else "reaction", (actor,), prompt)
    return pending


# --------------------------------------------------------------------------- candidates


def candidates(state: State, seat: int) -> list[Any]:
    """Return the moves to try for a deciding seat, in listing order (the checks filter them): the prices to name
    while a price is being named (3-2-1), else the boss's moves or another seat's."""
    neg = state.neg
    assert neg is not None
    if neg.naming is not None:
        return price_menu(neg.payout, neg.dividends)
    if seat == neg.boss:
        return _boss_candidates(state, neg, seat)
    return _seat_candidates(state, neg, seat)


def _boss_candidates(state: State, neg: Negotiation, seat: int) -> list[Any]:
    """The boss's moves to try: close a complete deal once every other seat has answered (3-3), answer the prices
    asked and withdraw its own (3-2-1), place family cards (3-1), bid (3-2-1), influence cards (3-2-2), wait, or
    declare failure (3-3)."""
    calm = quiet(neg, state.n)
    moves: list[Any] = []
    if calm and current_group(state)[1]:
        moves.append(CLOSE)
    if neg.quotes:
        _boss_answers(neg, calm, moves)
    _family_moves(state, neg, seat, moves)
    moves += _boss_bids(state, neg)
    moves += travel_moves(state, seat)
    moves += hire_moves(state, seat)
    moves.append(PASS)
    moves.append(FAIL)
    return moves


def _boss_answers(neg: Negotiation, calm: bool, moves: list[Any]) -> None:
    """Append the boss's answers to the prices on the table, in seat and colour order (3-2-1): accept (and close at
    once when every other seat has answered, 3-3) or refuse a price asked, withdraw a price it proposed."""
    quotes = neg.quotes
    for key in sorted(quotes) if len(quotes) > 1 else quotes:  # the keys: cheaper to sort than the items
        q = quotes[key]
        s, c = key
        if q.status == ASKED:
            if calm:
                moves.append(ACCEPTS_CLOSE[s][c])
            moves.append(ACCEPTS[s][c])
            moves.append(REFUSES[s][c])
        elif q.status == PROPOSED:
            moves.append(WITHDRAWS[s][c])


def _family_moves(state: State, neg: Negotiation, seat: int, moves: list[Any]) -> None:
    """Append the family cards ``seat`` may place: a colour of the space it holds a family card of and has not
    placed (3-1)."""
    counts = state.counts[seat]
    placed = neg.placed
    for c in SPACE_COLS[neg.space]:
        if counts[SLOT_FAMILY + c] and (seat, c) not in placed:
            moves.append(PLACE_FAMILY[c])


def _seat_candidates(state: State, neg: Negotiation, seat: int) -> list[Any]:
    """The moves to try for a seat other than the boss: answer the boss's prices for its colours and withdraw its
    own (3-2-1), offer a colour it can give (3-2-1), place family cards (3-1), influence cards (3-2-2), or pass."""
    quotes = neg.quotes
    moves: list[Any] = []
    if quotes:
        _seat_answers(neg, seat, moves)
    for c in SPACE_COLS[neg.space]:
        standing = quotes.get((seat, c))
        if (standing is None or standing.status != AGREED) and represents(state, neg, seat, c):
            moves.append(OFFERS[c])
    _family_moves(state, neg, seat, moves)
    moves += travel_moves(state, seat)
    moves += hire_moves(state, seat)
    moves += boss_moves(state, seat)
    moves.append(PASS)
    return moves


def _seat_answers(neg: Negotiation, seat: int, moves: list[Any]) -> None:
    """Append ``seat``'s answers to the prices for its colours, in colour order (3-2-1): accept or refuse a price
    the boss proposed, withdraw a price it asked."""
    quotes = neg.quotes
    for key in sorted(quotes) if len(quotes) > 1 else quotes:
        s, c = key
        if s == seat:
            q = quotes[key]
            if q.status == PROPOSED:
                moves.append(ACCEPTS[s][c])
                moves.append(REFUSES[s][c])
            elif q.status == ASKED:
                moves.append(WITHDRAWS[s][c])


def _boss_bids(state: State, neg: Negotiation) -> list[Bid]:
    """Return the bids to try for the boss (3-2-1): for each other seat's colour it gives (investor or placed family
    card) and has not agreed on, in seat and colour order.

    They read only the deal's terms (investor cards, travelled and placed cards, agreed prices, the boss), so the
    core kit keeps them while those stand (:func:`~club_agentes.engine.core.steps.kept_while`).
    """
    return kept_while(state, _bids_of, neg, neg.terms)


def _bids_of(state: State) -> list[Bid]:
    """The boss's bids to try (:func:`_boss_bids`)."""
    neg = state.neg
    assert neg is not None
    boss = neg.boss
    owner = state.owner
    travelled = neg.travelled
    quotes = neg.quotes
    # Loops, not comprehensions: a comprehension would turn these locals into closure cells (Python 3.11).
    targets = []
    for c in SPACE_COLS[neg.space]:
        o = owner[c]
        if o >= 0 and o != boss and c not in travelled:
            targets.append((o, c))
    for k in neg.placed:
        if k[0] != boss and k not in targets:
            targets.append(k)
    targets.sort()
    bids = []
    for s, c in targets:
        standing = quotes.get((s, c))
        if standing is None or standing.status != AGREED:
            bids.append(BIDS[s][c])
    return bids


# --------------------------------------------------------------------------- checks


def _standing(
    state: State, seat: int, move: Accept | Refuse | Withdraw, wanted: int
) -> tuple[Refusal | None, Quote | None]:
    """The price standing for ``move.seat``'s colour, if it is the kind ``wanted`` and ``seat`` may answer it."""
    neg = state.neg
    assert neg is not None
    if neg.naming is not None:
        return NAME_FIRST, None
    target = move.seat
    if target >= state.n:
        return Refusal(R.CONSIDERATION, lambda move=move: f"seat {move.seat} is not at this table."), None
    is_boss = seat == neg.boss
    if not is_boss and target != seat:
        return Refusal(R.CONSIDERATION, lambda: "a seat deals with the boss only over its own colours."), None
    if is_boss and target == seat:
        return Refusal(
            R.CONSIDERATION, lambda: "the boss names no price for its own colours: they take part freely."
        ), None
    quote = neg.quotes.get((target, COLOUR_INDEX[move.colour]))
    if quote is not None and quote.status == AGREED and wanted != AGREED:
        return Refusal(
            R.R_PROMISES,
            lambda move=move, quote=quote: (
                f"seat {move.seat}'s {move.colour} is already agreed for {quote.millions}M; an agreement binds."
            ),
        ), None
    if quote is None or quote.status != wanted:
        if wanted == ASKED:
            what = f"no price asked by seat {move.seat} for its {move.colour}"
        elif is_boss:
            what = f"no price you proposed to seat {move.seat} for its {move.colour}"
        else:
            what = f"no price the boss proposed for your {move.colour}"
        return Refusal(R.CONSIDERATION, lambda what=what: f"there is {what} on the table."), None
    return None, quote


def _answerable(state: State, seat: int) -> int:
    neg = state.neg
    assert neg is not None
    return ASKED if seat == neg.boss else PROPOSED


def check_accept(state: State, seat: int, move: Accept) -> Refusal | None:
    """Accept the other side's price if the promises still fit in the payout; the boss may close at once (3-3)."""
    refusal, quote = _standing(state, seat, move, _answerable(state, seat))
    if refusal is not None or quote is None:
        return refusal
    neg = state.neg
    assert neg is not None
    promised = neg.agreed_total()
    if promised + quote.millions > neg.payout:
        return Refusal(
            R.CONSIDERATION,
            lambda quote=quote, promised=promised, neg=neg: (
                f"{quote.millions}M would bring the promises to {promised + quote.millions}M, more than the "
                f"{neg.payout}M this deal pays; promises come only from its dividends "
                f"({neg.payout - promised}M remain)."
            ),
        )
    if move.close:
        if seat != neg.boss:
            return Refusal(R.CLOSE, lambda neg=neg: f"only the boss (seat {neg.boss}) closes the deal.")
        colour = COLOUR_INDEX[move.colour]
        neg.quotes[(move.seat, colour)] = quote.agreed()
        try:
            parts, complete = group(state, neg)
        finally:
            neg.quotes[(move.seat, colour)] = quote
        if not complete:
            return Refusal(
                R.CLOSE,
                lambda neg=neg, parts=parts, complete=complete: (
                    f"with this agreement the deal still misses {missing(neg, parts, complete)}, so it cannot close."
                ),
            )
        return _quiet_refusal(state)
    return None


def check_refuse(state: State, seat: int, move: Refuse) -> Refusal | None:
    """Refuse the other side's price."""
    return _standing(state, seat, move, _answerable(state, seat))[0]


def check_withdraw(state: State, seat: int, move: Withdraw) -> Refusal | None:
    """Withdraw a price you named, until the other side accepts it."""
    neg = state.neg
    assert neg is not None
    own = PROPOSED if seat == neg.boss else ASKED
    return _standing(state, seat, move, own)[0]


def check_pass(state: State, seat: int, move: Pass) -> Refusal | None:
    """Any seat may pass on the last change; the boss only while another seat is still to answer."""
    neg = state.neg
    assert neg is not None
    if neg.naming is not None:
        return NAME_FIRST
    if seat == neg.boss and neg.passed.issuperset(_OTHER_SETS[state.n][seat]):
        return Refusal(
            R.R_PROTOCOL,
            lambda: (
                "every other seat has answered the last change, so the boss cannot wait any longer: close, declare "
                "failure or act."
            ),
        )
    return None


def _quiet_refusal(state: State) -> Refusal | None:
    neg = state.neg
    assert neg is not None
    left = to_answer(neg, state.n)
    if left:
        return Refusal(
            R.R_PROTOCOL,
            lambda neg=neg, left=left: (
                f"the boss closes once every other seat has answered the last change ({neg.last_act}); "
                f"{seat_list(left)} {'have' if len(left) > 1 else 'has'} not yet."
            ),
        )
    return None


def check_negotiation_close(state: State, seat: int, move: Close) -> Refusal | None:
    """The boss closes a complete deal once every other seat has answered the last change (3-3)."""
    neg = state.neg
    assert neg is not None
    if neg.naming is not None:
        return NAME_FIRST
    return check_close(state, seat, move) or _quiet_refusal(state)


def failing_boss(state: State, seat: int, move: Fail) -> Refusal | None:
    """The boss may declare failure at any moment (3-3, "Fracaso de la transacción"), when no price is being named:
    the part of the check the candidates hold by construction; under the two-player rules
    :func:`~.closing.must_complete` follows."""
    neg = state.neg
    assert neg is not None
    if neg.naming is not None:
        return NAME_FIRST
    return fail_by_boss(state, seat, move)


def _card(check: Check) -> Check:
    """An influence card's check, after the price being named (nothing comes in between)."""

    def checked(state: State, seat: int, move: Any) -> Refusal | None:
        neg = state.neg
        assert neg is not None
        if neg.naming is not None:
            return NAME_FIRST
        return check(state, seat, move)

    checked.__doc__ = check.__doc__
    return checked


# --------------------------------------------------------------------------- effects


def do_accept(state: State, seat: int, move: Accept) -> list[Event]:
    """The price becomes an agreement (and the boss may close at once)."""
    neg = state.neg
    assert neg is not None
    colour = COLOUR_INDEX[move.colour]
    quote = neg.quotes[(move.seat, colour)]
    neg.quotes[(move.seat, colour)] = quote.agreed()
    who = neg.who(seat)
    text = (
        f"{who} accepted: seat {move.seat}'s {move.colour} takes part for {quote.millions}M "
        f"(promised so far: {neg.agreed_total()}M of {neg.payout}M)."
    )
    neg.history.append(text)
    neg.change(seat, f"{who} accepted {quote.millions}M for seat {move.seat}'s {move.colour}")
    events = [Event(text, data={"seat": move.seat, "colour": move.colour, "millions": quote.millions})]
    if move.close:
        events += do_close(state, seat, move)
    return events


def do_refuse(state: State, seat: int, move: Refuse) -> list[Event]:
    """The price is taken off the table."""
    neg = state.neg
    assert neg is not None
    quote = neg.quotes.pop((move.seat, COLOUR_INDEX[move.colour]))
    event = said.refused(seat, seat == neg.boss, quote.millions, move.seat, move.colour)
    price_change(state, seat, event.text)
    return [event]


def do_withdraw(state: State, seat: int, move: Withdraw) -> list[Event]:
    """The seat's own price is taken off the table."""
    neg = state.neg
    assert neg is not None
    quote = neg.quotes.pop((move.seat, COLOUR_INDEX[move.colour]))
    event = said.withdrew(seat, seat == neg.boss, quote.millions, move.seat, move.colour)
    price_change(state, seat, event.text)
    return [event]


def do_pass(state: State, seat: int, move: Pass) -> list[Event]:
    """The seat has answered the last change; it is asked again after the next one."""
    neg = state.neg
    assert neg is not None
    neg.passed.add(seat)
    return [said.passed(seat, seat == neg.boss)]


def do_negotiation_close(state: State, seat: int, move: Close) -> list[Event]:
    """Close the deal (section 3-3)."""
    return do_close(state, seat, move)


# --------------------------------------------------------------------------- the decision clock


def default_move(state: State, seat: int) -> tuple[Any, str] | None:
    """Return the rules' default move for ``seat`` now, with its rule id, or ``None`` (see ``Game.default_move``)."""
    if state.phase == "over":
        return None
    if state.stop is not None:
        return (PASS, R.R_STOP_TIMING) if seat in state.stop.waiting() else None
    neg = state.neg
    if neg is None or neg.naming is not None or seat not in deciding(neg, state.n):
        return None
    if seat != neg.boss or check_pass(state, seat, PASS) is None:
        return PASS, R.R_PROTOCOL
    complete = current_group(state)[1]
    if not complete:
        return FAIL, R.FAIL
    if state.cfg.two_player_rules:
        return CLOSE, R.TWO_PLAYERS
    return None


# --------------------------------------------------------------------------- refusals outside the checks


def _foreign(state: State, seat: int, move: Any) -> Refusal:
    if move.type == "stop":
        return Refusal(
            R.R_STOP_TIMING, "a stop card answers a travel card, boss card or hire set just played, and none is."
        )
    return Refusal(R.R_PROTOCOL, f"a negotiation is under way: {pending(state).prompt}")


def _waiting(state: State, seat: int, p: Pending) -> Refusal:
    neg = state.neg
    assert neg is not None
    if neg.naming is not None:
        return Refusal(
            R.R_PROTOCOL,
            f"seat {seat} does not decide now: seat {neg.naming.actor} is naming a price, and nobody acts in between.",
        )
    return Refusal(
        R.R_PROTOCOL,
        f"seat {seat} has already answered the last change ({neg.last_act}) by passing; it may act again after the "
        "next change.",
    )


STEP = Step(
    "negotiation",
    negotiation_deciding,
    pending,
    candidates,
    {
        PlaceFamily: accept,
        Offer: check_bound,
        Bid: check_bound,
        Price: check_price,
        Accept: check_accept,
        Refuse: accept,
        Withdraw: accept,
        Pass: check_pass,
        Travel: _card(check_travel),
        Hire: _card(check_hire),
        PlayBoss: _card(check_boss),
        Close: accept,
        Fail: must_complete,
    },
    {
        PlaceFamily: do_place_family,
        Offer: do_offer,
        Bid: do_bid,
        Price: do_price,
        Accept: do_accept,
        Refuse: do_refuse,
        Withdraw: do_withdraw,
        Pass: do_pass,
        Travel: do_travel,
        Hire: do_hire,
        PlayBoss: do_boss,
        Close: do_negotiation_close,
        Fail: do_fail,
    },
    _foreign,
    _waiting,
    # the checks (or the parts of them) that the candidates hold by construction: listing skips them
    owns={
        PlaceFamily: check_place_family,
        Offer: offer_target,
        Bid: bid_target,
        Refuse: check_refuse,
        Withdraw: check_withdraw,
        Close: check_negotiation_close,
        Fail: failing_boss,
    },
    listing_key=listing_key,
)

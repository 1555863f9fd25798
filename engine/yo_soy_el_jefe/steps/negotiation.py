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

from club_agentes.engine.core import Event, IllegalMove, Pending
from club_agentes.engine.yo_soy_el_jefe import rules as R
from club_agentes.engine.yo_soy_el_jefe.moves import (
    ACCEPTS,
    ACCEPTS_CLOSE,
    BIDS,
    CLOSE,
    FAIL,
    MAX_SEATS,
    MILLIONS,
    OFFERS,
    PASS,
    PLACE_FAMILY,
    PRICES_D,
    PRICES_M,
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
    CARDS,
    COLOUR_INDEX,
    COLOURS,
    NCOL,
    PROPOSED,
    SAME_PRICE_TIMES,
    SLOT_FAMILY,
    SPACES,
    Naming,
    Negotiation,
    Quote,
    State,
)
from club_agentes.engine.yo_soy_el_jefe.steps.base import SAID, Check, Phase, Refusal, said
from club_agentes.engine.yo_soy_el_jefe.steps.closing import check_close, check_fail, do_close, do_fail
from club_agentes.engine.yo_soy_el_jefe.steps.deal import (
    SPACE_COLS,
    SPACE_COLSET,
    GroupCache,
    current_group,
    current_missing,
    group,
    keep_group,
    missing,
    represents,
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
from club_agentes.engine.yo_soy_el_jefe.words import CLOCKWISE, millions, seat_list

_PRICE_MENUS: dict[tuple[int, int], list[Price]] = {}


def price_menu(payout: int, dividends: int) -> list[Price]:
    """Return every price that may be named in a deal paying ``payout`` millions in ``dividends`` dividends.

    Whole millions from 1M to the payout, then whole dividends from 1 to the deal's dividends (ruling
    ``menu-de-precios``); a price already named twice for the same colour is refused by its check.
    """
    key = (payout, dividends)
    menu = _PRICE_MENUS.get(key)
    if menu is None:
        menu = [p for p in PRICES_M[1 : payout + 1] if p is not None]
        menu += [p for p in PRICES_D[1 : dividends + 1] if p is not None]
        _PRICE_MENUS[key] = menu
    return menu


def open_negotiation(state: State, seat: int) -> list[Event]:
    """Say "¡Vamos a negociar!" on the marker's space: ``seat`` becomes the boss and every seat may act."""
    card = state.deal_deck[0]
    neg = Negotiation(state.marker, card, seat)
    state.neg = neg
    state.phase = "negotiation"
    key = ("negotiate", seat, state.marker, card.number)
    event = SAID.get(key)
    if event is None:
        text = (
            f"seat {seat} said '¡Vamos a negociar!' on space {state.marker + 1}: {neg.dividends} dividends of "
            f"{neg.value}M (deal card #{card.number}) pay {neg.payout}M and need {SPACES[neg.space].describe()}; "
            f"seat {seat} is the boss."
        )
        event = said(key, Event(text, data={"space": state.marker + 1, "payout": neg.payout, "boss": seat}))
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
    """Return the prompt's first sentences (the deal, its needs, the last change) and whether the deal is complete,
    worked out once per change of the negotiation (what they say changes only with a change)."""
    neg = state.neg
    assert neg is not None
    cache = state.group_cache
    if cache is not None and cache.neg is neg and cache.revision == neg.revision and cache.prompt_head is not None:
        return cache.prompt_head, cache.complete  # already worked out for this change
    complete = current_group(state)[1]
    cache = state.group_cache
    assert cache is not None
    head = cache.prompt_head
    if head is None:
        status = "its needs are met" if complete else f"it still needs {current_missing(state)}"
        head = cache.prompt_head = (
            f"Negotiation on space {neg.space + 1} ({millions(neg.payout)}), boss seat {neg.boss}; {status}. "
            f"Last change: {neg.last_act}."
        )
    return head, complete


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
    """Return the moves to try for a deciding seat, in listing order (the checks filter them)."""
    neg = state.neg
    assert neg is not None
    if neg.naming is not None:
        return price_menu(neg.payout, neg.dividends)
    cols = SPACE_COLS[neg.space]
    counts = state.counts[seat]
    quotes = neg.quotes
    placed = neg.placed
    moves: list[Any] = []
    if seat == neg.boss:
        calm = quiet(neg, state.n)
        if calm and current_group(state)[1]:
            moves.append(CLOSE)
        if quotes:
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
        for c in cols:
            if counts[SLOT_FAMILY + c] and (seat, c) not in placed:
                moves.append(PLACE_FAMILY[c])
        moves += _boss_bids(state, neg)
        moves += travel_moves(state, seat)
        moves += hire_moves(state, seat)
        moves.append(PASS)
        moves.append(FAIL)
        return moves
    if quotes:
        for key in sorted(quotes) if len(quotes) > 1 else quotes:
            s, c = key
            if s == seat:
                q = quotes[key]
                if q.status == PROPOSED:
                    moves.append(ACCEPTS[s][c])
                    moves.append(REFUSES[s][c])
                elif q.status == ASKED:
                    moves.append(WITHDRAWS[s][c])
    for c in cols:
        standing = quotes.get((seat, c))
        if (standing is None or standing.status != AGREED) and represents(state, neg, seat, c):
            moves.append(OFFERS[c])
    for c in cols:
        if counts[SLOT_FAMILY + c] and (seat, c) not in placed:
            moves.append(PLACE_FAMILY[c])
    moves += travel_moves(state, seat)
    moves += hire_moves(state, seat)
    moves += boss_moves(state, seat)
    moves.append(PASS)
    return moves


def _boss_bids(state: State, neg: Negotiation) -> list[Bid]:
    """Return the bids to try for the boss: for each other seat's colour it gives (investor or placed family card)
    and has not agreed on, in seat and colour order.

    They read only what the group at a close reads (investor cards, travelled and placed cards, agreed prices, the
    boss), so they are worked out once per :class:`~.deal.GroupCache`, which lasts as long as all of that.
    """
    current_group(state)  # the negotiation's GroupCache is now this revision's
    cache: GroupCache = state.group_cache
    bids = cache.bids
    if bids is None:
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
        bids = cache.bids = []
        for s, c in targets:
            standing = quotes.get((s, c))
            if standing is None or standing.status != AGREED:
                bids.append(BIDS[s][c])
    return bids


# --------------------------------------------------------------------------- checks


_NAME_FIRST = Refusal(  # built once (a Refusal is immutable, and this one reads nothing of the moment)
    R.R_PROTOCOL, lambda: "name the price of your offer or bid first (price N M, or price N dividends)."
)


def check_place_family(state: State, seat: int, move: PlaceFamily) -> Refusal | None:
    """A family card the seat holds, of a colour the deal asks for, one per colour and seat (ruling colocar-familia).

    A seat may place it for a colour it already agreed on with its investor: a backup against a travel card.
    """
    neg = state.neg
    assert neg is not None
    if neg.naming is not None:
        return _NAME_FIRST
    colour = COLOUR_INDEX[move.colour]
    if not state.counts[seat][SLOT_FAMILY + colour]:
        rule = R.BOSS_FAMILY if seat == neg.boss else R.PARTICIPATION
        return Refusal(rule, lambda move=move: f"you hold no {move.colour} family card (familia).")
    if colour not in SPACE_COLSET[neg.space]:
        return Refusal(
            R.R_PLACE_FAMILY,
            lambda move=move, neg=neg: (
                f"this deal needs {SPACES[neg.space].describe()}; a {move.colour} family card cannot help it."
            ),
        )
    if (seat, colour) in neg.placed:
        return Refusal(
            R.R_PLACE_FAMILY, lambda move=move: f"you have already placed a {move.colour} family card in this deal."
        )
    return None


def _demand_target(state: State, neg: Negotiation, seat: int, colour: int, namer: int) -> Refusal | None:
    """Whether ``namer`` may name a price for ``seat``'s ``colour`` now (an offer or a bid)."""
    if colour not in SPACE_COLSET[neg.space]:
        return Refusal(
            R.PARTICIPATION,
            lambda colour=colour, neg=neg: (
                f"this deal needs {SPACES[neg.space].describe()}; {COLOURS[colour]} is not among them."
            ),
        )
    if not represents(state, neg, seat, colour):
        who = "you have" if namer == seat else f"seat {seat} has"
        name = COLOURS[colour]
        return Refusal(
            R.PARTICIPATION,
            lambda who=who, name=name: f"{who} no {name} investor able to take part and no {name} family card placed.",
        )
    quote = neg.quotes.get((seat, colour))
    if quote is not None and quote.status == AGREED:
        whose = "your" if namer == seat else f"seat {seat}'s"
        return Refusal(
            R.R_PROMISES,
            lambda whose=whose, colour=colour, quote=quote: (
                f"{whose} {COLOURS[colour]} is already agreed for {quote.millions}M; an agreement binds."
            ),
        )
    named = neg.named
    counts = named.get((namer, seat, colour)) if named else None
    if counts is not None and len(counts) >= neg.payout and min(counts.values()) >= SAME_PRICE_TIMES:
        # ruling limite-de-ofertas: every amount up to the payout already named twice by this namer
        return Refusal(
            R.R_BOUND,
            lambda neg=neg, colour=colour: (
                f"every price up to {neg.payout}M has been named {SAME_PRICE_TIMES} times for this {COLOURS[colour]} "
                "under this boss; answer or wait for the other side."
            ),
        )
    return None


def check_offer(state: State, seat: int, move: Offer) -> Refusal | None:
    """A seat other than the boss states (or changes) its demand for a colour it can give (3-2-1)."""
    neg = state.neg
    assert neg is not None
    if neg.naming is not None:
        return _NAME_FIRST
    if seat == neg.boss:
        return Refusal(
            R.PARTICIPATION, lambda: "the boss does not offer to itself: its own investors and family cards take part."
        )
    return _demand_target(state, neg, seat, COLOUR_INDEX[move.colour], seat)


def check_bid(state: State, seat: int, move: Bid) -> Refusal | None:
    """The boss proposes (or changes) a price to another seat for a colour that seat can give (3-2-1)."""
    neg = state.neg
    assert neg is not None
    if neg.naming is not None:
        return _NAME_FIRST
    if seat != neg.boss:
        return Refusal(
            R.PARTICIPATION,
            lambda neg=neg: f"only the boss (seat {neg.boss}) proposes prices; offer your colour instead.",
        )
    target = move.seat
    if target >= state.n or target == seat:
        return Refusal(R.PARTICIPATION, lambda move=move: f"seat {move.seat} is not another seat at this table.")
    return _demand_target(state, neg, target, COLOUR_INDEX[move.colour], seat)


def listing_key(state: State, seat: int) -> tuple[int, int, int, tuple[tuple[int, int], ...] | None] | None:
    """While a price is being named, everything its candidates (:func:`price_menu`) and :func:`check_price` read:
    the deal's payout, dividends and dividend value, and how often each amount was named for the colour; else
    ``None`` (the negotiation's other lists are worked out every time)."""
    neg = state.neg
    assert neg is not None
    naming = neg.naming
    if naming is None:
        return None
    counts = neg.named.get(naming)
    return (neg.payout, neg.dividends, neg.value, None if counts is None else tuple(counts.items()))


def check_price(state: State, seat: int, move: Price) -> Refusal | None:
    """Any whole amount up to what the deal pays, in millions or whole dividends (3-2-1, "contraprestación").

    Reads nothing but what :func:`listing_key` holds (the legal prices are kept under that key).
    """
    neg = state.neg
    assert neg is not None
    naming = neg.naming
    if naming is None:
        return Refusal(R.R_PROTOCOL, lambda: "no price is being named now; make an offer (or, as boss, a bid) first.")
    amount = move.amount
    if move.unit == MILLIONS:
        if amount < 1 or amount > neg.payout:
            return Refusal(
                R.CONSIDERATION,
                lambda amount=amount, neg=neg: (
                    f"a price is paid only from this deal's dividends: whole millions from 1M to {neg.payout}M "
                    f"({neg.dividends} dividends of {neg.value}M), not {amount}M."
                ),
            )
    else:
        if amount < 1 or amount > neg.dividends:
            return Refusal(
                R.R_PRICES,
                lambda amount=amount, neg=neg: (
                    f"this deal pays {neg.dividends} dividends of {neg.value}M: name 1 to {neg.dividends} dividends, "
                    f"not {amount}."
                ),
            )
        amount *= neg.value
    counts = neg.named.get(naming)  # a Naming is the (actor, seat, colour) tuple the counts are kept under
    if counts is not None and counts.get(amount, 0) >= SAME_PRICE_TIMES:
        key = (amount, naming.colour)
        refusal = _NAMED_TWICE.get(key)
        if refusal is None:  # built once for each amount and colour (a Refusal is immutable)
            refusal = _NAMED_TWICE[key] = Refusal(
                R.R_BOUND,
                lambda amount=amount, colour=naming.colour: (
                    f"{amount}M has already been named {SAME_PRICE_TIMES} times for this {COLOURS[colour]} "
                    "under this boss; name another amount."
                ),
            )
        return refusal
    return None


_NAMED_TWICE: dict[tuple[int, int], Refusal] = {}


def _standing(
    state: State, seat: int, move: Accept | Refuse | Withdraw, wanted: int
) -> tuple[Refusal | None, Quote | None]:
    """The price standing for ``move.seat``'s colour, if it is the kind ``wanted`` and ``seat`` may answer it."""
    neg = state.neg
    assert neg is not None
    if neg.naming is not None:
        return _NAME_FIRST, None
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
        return _NAME_FIRST
    if seat == neg.boss and neg.passed.issuperset(OTHERS[state.n][seat]):
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
        return _NAME_FIRST
    return check_close(state, seat, move) or _quiet_refusal(state)


def check_negotiation_fail(state: State, seat: int, move: Fail) -> Refusal | None:
    """The boss may declare failure at any moment (3-3, "Fracaso de la transacción")."""
    neg = state.neg
    assert neg is not None
    if neg.naming is not None:
        return _NAME_FIRST
    return check_fail(state, seat, move)


def _card(check: Check) -> Check:
    """An influence card's check, after the price being named (nothing comes in between)."""

    def checked(state: State, seat: int, move: Any) -> Refusal | None:
        neg = state.neg
        assert neg is not None
        if neg.naming is not None:
            return _NAME_FIRST
        return check(state, seat, move)

    checked.__doc__ = check.__doc__
    return checked


# --------------------------------------------------------------------------- effects


def do_place_family(state: State, seat: int, move: PlaceFamily) -> list[Event]:
    """Place the family card face up (it stays until the deal ends)."""
    neg = state.neg
    assert neg is not None
    colour = COLOUR_INDEX[move.colour]
    card = state.take(seat, SLOT_FAMILY + colour)
    neg.placed[(seat, colour)] = card
    neg.used.add(seat)
    who = neg.who(seat)
    key = ("family", seat, seat == neg.boss, move.colour, card)
    event = SAID.get(key)
    if event is None:
        text = f"{who} placed family card (familia) {move.colour} {CARDS[card].id} in the deal."
        event = said(key, Event(text, data={"seat": seat, "colour": move.colour, "card": CARDS[card].id}))
    neg.history.append(event.text)
    neg.change(seat, f"{who} placed a {move.colour} family card")
    return [event]


def do_offer(state: State, seat: int, move: Offer) -> list[Event]:
    """The seat names the price of its demand next."""
    neg = state.neg
    assert neg is not None
    colour = COLOUR_INDEX[move.colour]
    neg.naming = NAMINGS[seat][seat][colour]
    how = "investor" if state.owner[colour] == seat and colour not in neg.travelled else "family card"
    key = ("offer", seat, move.colour, how)
    event = SAID.get(key)
    if event is None:
        event = said(key, Event(f"seat {seat} offers its {move.colour} ({how}) to the boss and names its price."))
    return [event]


def do_bid(state: State, seat: int, move: Bid) -> list[Event]:
    """The boss names the price it proposes next."""
    neg = state.neg
    assert neg is not None
    neg.naming = NAMINGS[seat][move.seat][COLOUR_INDEX[move.colour]]
    key = ("bid", seat, move.seat, move.colour)
    event = SAID.get(key)
    if event is None:
        text = f"seat {seat} (the boss) proposes a price to seat {move.seat} for its {move.colour}."
        event = said(key, Event(text))
    return [event]


_QUOTES: dict[tuple[int, int, str, int], Quote] = {}
NAMINGS = tuple(tuple(tuple(Naming(a, s, c) for c in range(NCOL)) for s in range(MAX_SEATS)) for a in range(MAX_SEATS))
"""``NAMINGS[actor][seat][colour]``: the :class:`Naming` of that price (immutable: each is built once)."""


def do_price(state: State, seat: int, move: Price) -> list[Event]:
    """The price stands (replacing any other price for that colour) until answered or withdrawn."""
    neg = state.neg
    assert neg is not None and neg.naming is not None
    actor, target, colour = neg.naming
    amount = move.amount if move.unit == MILLIONS else move.amount * neg.value
    by_boss = actor == neg.boss
    status = PROPOSED if by_boss else ASKED
    quote_key = (status, amount, move.unit, move.amount)
    quote = _QUOTES.get(quote_key)
    if quote is None:  # built once for each price (a Quote is an immutable named tuple)
        quote = _QUOTES[quote_key] = Quote(*quote_key)
    neg.quotes[(target, colour)] = quote
    counts = neg.named.setdefault((actor, target, colour), {})
    counts[amount] = counts.get(amount, 0) + 1
    neg.naming = None
    key = ("price", by_boss, actor, target, colour, move.amount, move.unit, amount)
    event = SAID.get(key)
    if event is None:
        named = f"{move.amount}M" if move.unit == MILLIONS else f"{move.amount} dividend(s) ({amount}M)"
        name = COLOURS[colour]
        if by_boss:
            text = f"seat {actor} (the boss) proposes {named} to seat {target} for its {name}."
        else:
            text = f"seat {actor} asks {named} of the boss for its {name}."
        event = said(key, Event(text, data={"seat": target, "colour": name, "millions": amount, "by": actor}))
    _price_change(state, actor, event.text)
    return [event]


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


def _price_change(state: State, actor: int, text: str) -> None:
    """Log a price named, refused or withdrawn by ``actor`` as a change every seat may answer.

    Such a change leaves the group that would take part in a close as it was (``keep_group``).
    """
    neg = state.neg
    assert neg is not None
    neg.history.append(text)
    neg.change(actor, text.removesuffix("."))
    keep_group(state, neg.revision - 1)


def do_refuse(state: State, seat: int, move: Refuse) -> list[Event]:
    """The price is taken off the table."""
    neg = state.neg
    assert neg is not None
    quote = neg.quotes.pop((move.seat, COLOUR_INDEX[move.colour]))
    key = ("refuse", seat, seat == neg.boss, quote.millions, move.seat, move.colour)
    event = SAID.get(key)
    if event is None:
        event = said(key, Event(f"{neg.who(seat)} refused {quote.millions}M for seat {move.seat}'s {move.colour}."))
    _price_change(state, seat, event.text)
    return [event]


def do_withdraw(state: State, seat: int, move: Withdraw) -> list[Event]:
    """The seat's own price is taken off the table."""
    neg = state.neg
    assert neg is not None
    quote = neg.quotes.pop((move.seat, COLOUR_INDEX[move.colour]))
    key = ("withdraw", seat, seat == neg.boss, quote.millions, move.seat, move.colour)
    event = SAID.get(key)
    if event is None:
        whose = "its" if seat == move.seat else f"seat {move.seat}'s"
        text = f"{neg.who(seat)} withdrew its price of {quote.millions}M for {whose} {move.colour}."
        event = said(key, Event(text))
    _price_change(state, seat, event.text)
    return [event]


def do_pass(state: State, seat: int, move: Pass) -> list[Event]:
    """The seat has answered the last change; it is asked again after the next one."""
    neg = state.neg
    assert neg is not None
    neg.passed.add(seat)
    key = ("pass", seat, seat == neg.boss)
    event = SAID.get(key)
    if event is None:
        who = f"seat {seat} (the boss) waits" if seat == neg.boss else f"seat {seat} passed"
        event = said(key, Event(f"{who}."))
    return [event]


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


def _foreign(state: State, seat: int, move: Any) -> IllegalMove:
    if move.type == "stop":
        return IllegalMove(
            R.R_STOP_TIMING, "a stop card answers a travel card, boss card or hire set just played, and none is."
        )
    return IllegalMove(R.R_PROTOCOL, f"a negotiation is under way: {pending(state).prompt}")


def _waiting(state: State, seat: int, p: Pending) -> IllegalMove:
    neg = state.neg
    assert neg is not None
    if neg.naming is not None:
        return IllegalMove(
            R.R_PROTOCOL,
            f"seat {seat} does not decide now: seat {neg.naming.actor} is naming a price, and nobody acts in between.",
        )
    return IllegalMove(
        R.R_PROTOCOL,
        f"seat {seat} has already answered the last change ({neg.last_act}) by passing; it may act again after the "
        "next change.",
    )


PHASE = Phase(
    "negotiation",
    negotiation_deciding,
    pending,
    candidates,
    {
        PlaceFamily: check_place_family,
        Offer: check_offer,
        Bid: check_bid,
        Price: check_price,
        Accept: check_accept,
        Refuse: check_refuse,
        Withdraw: check_withdraw,
        Pass: check_pass,
        Travel: _card(check_travel),
        Hire: _card(check_hire),
        PlayBoss: _card(check_boss),
        Close: check_negotiation_close,
        Fail: check_negotiation_fail,
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
    listing_key,
)

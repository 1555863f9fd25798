"""Sections 3-1 and 3-2: the negotiation (STAGE A: the polled rounds, ported unchanged).

Who decides, what each seat may do, the checks that refuse a move with its rule, and the effects of
placing family cards, offering, bidding, naming prices, accepting, refusing and passing. Influence
cards are checked in :mod:`.influence`, closing and failing in :mod:`.closing`.
"""

from __future__ import annotations

from typing import Any

from club_agentes.engine.core import Event, IllegalMove, Pending
from club_agentes.engine.yo_soy_el_jefe import rules as R
from club_agentes.engine.yo_soy_el_jefe.base import Phase
from club_agentes.engine.yo_soy_el_jefe.closing import check_close, check_fail, do_close, do_fail
from club_agentes.engine.yo_soy_el_jefe.deal import SPACE_COLS, SPACE_COLSET, group, missing, represents
from club_agentes.engine.yo_soy_el_jefe.influence import (
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
from club_agentes.engine.yo_soy_el_jefe.moves import (
    ACCEPTS,
    BIDS,
    CLOSE,
    FAIL,
    MILLIONS,
    OFFERS,
    PASS,
    PLACE_FAMILY,
    PRICES_D,
    PRICES_M,
    REFUSES,
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
)
from club_agentes.engine.yo_soy_el_jefe.rounds import after_act, new_round
from club_agentes.engine.yo_soy_el_jefe.state import (
    AGREED,
    ASKED,
    BIDS_PER_SEAT,
    CARDS,
    COLOURS,
    OFFERS_PER_SEAT,
    PROPOSED,
    SLOT_FAMILY,
    SPACES,
    Naming,
    Negotiation,
    Quote,
    State,
)
from club_agentes.engine.yo_soy_el_jefe.words import millions

_PRICE_MENUS: dict[tuple[int, int], list[Price]] = {}


def price_menu(payout: int, dividends: int) -> list[Price]:
    """Return the prices a seat may name in a deal paying ``payout`` millions in ``dividends`` dividends."""
    key = (payout, dividends)
    menu = _PRICE_MENUS.get(key)
    if menu is None:
        menu = [p for p in (PRICES_M[m] for m in range(1, max(1, payout // 2) + 1)) if p is not None]
        menu += [p for p in (PRICES_D[k] for k in range(1, max(1, dividends // 2) + 1)) if p is not None]
        _PRICE_MENUS[key] = menu
    return menu


def open_negotiation(state: State, seat: int) -> list[Event]:
    """Say "¡Vamos a negociar!" on the marker's space: ``seat`` becomes the boss."""
    card = state.deal_deck[0]
    neg = Negotiation(state.marker, card, seat, state.n)
    state.neg = neg
    state.phase = "negotiation"
    new_round(state, neg)
    text = (
        f"seat {seat} said '¡Vamos a negociar!' on space {state.marker + 1}: {neg.dividends} dividends of "
        f"{neg.value}M (deal card #{card.number}) pay {neg.payout}M and need {SPACES[neg.space].describe()}; "
        f"seat {seat} is the boss."
    )
    neg.history.append(text)
    return [Event(text, data={"space": state.marker + 1, "payout": neg.payout, "boss": seat})]


# --------------------------------------------------------------------------- who decides


def pending(state: State) -> Pending:
    """Return who decides in the negotiation now."""
    neg = state.neg
    assert neg is not None
    if neg.floor == "poll":
        seat = neg.window.current
        assert seat is not None
        return Pending("reaction", (seat,), _poll_prompt(state, seat))
    if neg.floor == "boss":
        return Pending("turn", (neg.boss,), _boss_prompt(state))
    assert neg.naming is not None
    actor = neg.naming.actor
    return Pending("turn" if actor == neg.boss else "reaction", (actor,), _price_prompt(state))


def _poll_prompt(state: State, seat: int) -> str:
    neg = state.neg
    assert neg is not None
    asks = [
        f"{millions(q.millions)} for your {COLOURS[c]}"
        for (s, c), q in sorted(neg.quotes.items())
        if s == seat and q.status == PROPOSED
    ]
    head = (
        f"Your chance this round: seat {neg.boss} is the boss of the deal on space {neg.space + 1} "
        f"({millions(neg.payout)})"
    )
    can_name = neg.offers_left[seat] > 0
    if asks:
        counter = " or counter with an offer" if can_name else ""
        head += f" and proposes {', '.join(asks)}: accept, refuse{counter}; or"
    else:
        head += ": you may"
    offer = "offer a colour you represent, place a family card, " if can_name else ""
    return head + f" {offer}play a travel card, a hire set or a boss card, or pass."


def _boss_prompt(state: State) -> str:
    neg = state.neg
    assert neg is not None
    parts, complete = group(state, neg)
    miss = missing(neg, parts, complete)
    acts = "place a family card, bid for a colour, accept or refuse an asked price, play a travel card or a hire set"
    if neg.active:
        status = "the investors are gathered" if not miss else f"still missing: {miss}"
        return (
            f"The other seats acted this round; you are the boss ({status}): act ({acts}), pass to give them "
            "another round, or declare failure; you may close only after a round in which they all passed."
        )
    status = "the investors are gathered, so you may close the deal" if not miss else f"still missing: {miss}"
    return (
        f"Every other seat passed this round; you are the boss ({status}): close ('Uno, dos...'), "
        f"declare failure, or act ({acts})."
    )


def _price_prompt(state: State) -> str:
    neg = state.neg
    assert neg is not None and neg.naming is not None
    actor, seat, colour = neg.naming.actor, neg.naming.seat, neg.naming.colour
    top_m = max(1, neg.payout // 2)
    top_d = max(1, neg.dividends // 2)
    what = f"seat {seat}'s {COLOURS[colour]}" if actor == neg.boss else f"your {COLOURS[colour]}"
    return (
        f"Name the price for {what}: whole millions from 1M to {top_m}M, or 1 to {top_d} dividends "
        f"of {neg.value}M each."
    )


# --------------------------------------------------------------------------- candidates


def candidates(state: State, seat: int) -> list[Any]:
    """Return the moves to try for a deciding seat, in listing order (the checks filter them)."""
    neg = state.neg
    assert neg is not None
    if neg.naming is not None:
        return price_menu(neg.payout, neg.dividends)
    cols = SPACE_COLS[neg.space]
    moves: list[Any] = []
    if seat == neg.boss:
        moves.append(CLOSE)
        moves += [PLACE_FAMILY[c] for c in cols]
        for (s, c), q in sorted(neg.quotes.items()):
            if q.status == ASKED:
                moves += [ACCEPTS[s][c], REFUSES[s][c]]
        moves += [BIDS[s][c] for s in range(state.n) if s != seat for c in cols]
        moves += travel_moves(state, seat)
        moves += hire_moves(state, seat)
        moves += [PASS, FAIL]
        return moves
    for (s, c), q in sorted(neg.quotes.items()):
        if s == seat and q.status == PROPOSED:
            moves += [ACCEPTS[s][c], REFUSES[s][c]]
    moves += [OFFERS[c] for c in cols]
    moves += [PLACE_FAMILY[c] for c in cols]
    moves += travel_moves(state, seat)
    moves += hire_moves(state, seat)
    moves += boss_moves(state, seat)
    moves.append(PASS)
    return moves


# --------------------------------------------------------------------------- checks


def _naming(neg: Negotiation) -> IllegalMove | None:
    if neg.naming is not None:
        return IllegalMove(R.R_PROTOCOL, f"name the price first: {'whole millions or dividends'}.")
    return None


def _offer_limits(neg: Negotiation, seat: int, colour: int) -> IllegalMove | None:
    quote = neg.quotes.get((seat, colour))
    if quote is not None and quote.status == AGREED:
        return IllegalMove(
            R.R_PROMISES, f"your {COLOURS[colour]} is already agreed for {quote.millions}M; an agreement binds."
        )
    if neg.offers_left[seat] <= 0:
        return IllegalMove(
            R.R_BOUND,
            f"you have named {OFFERS_PER_SEAT} prices under this boss, the most a seat may until the boss changes.",
        )
    return None


def check_place_family(state: State, seat: int, move: PlaceFamily) -> IllegalMove | None:
    """A family card the seat holds, of a colour the deal asks for, once per colour."""
    neg = state.neg
    assert neg is not None
    refusal = _naming(neg)
    if refusal:
        return refusal
    colour = COLOURS.index(move.colour)
    is_boss = seat == neg.boss
    if not state.counts[seat][SLOT_FAMILY + colour]:
        rule = R.BOSS_FAMILY if is_boss else R.PARTICIPATION
        return IllegalMove(rule, f"you hold no {move.colour} family card (familia).")
    space = SPACES[neg.space]
    if colour not in SPACE_COLSET[neg.space]:
        return IllegalMove(
            R.R_PLACE_FAMILY, f"this deal needs {space.describe()}; a {move.colour} family card cannot help it."
        )
    if (seat, colour) in neg.placed:
        return IllegalMove(R.R_PLACE_FAMILY, f"you have already placed a {move.colour} family card in this deal.")
    if not is_boss:
        return _offer_limits(neg, seat, colour)
    return None


def check_offer(state: State, seat: int, move: Offer) -> IllegalMove | None:
    """A seat other than the boss offers a colour it can give."""
    neg = state.neg
    assert neg is not None
    refusal = _naming(neg)
    if refusal:
        return refusal
    if seat == neg.boss:
        return IllegalMove(
            R.PARTICIPATION, "the boss does not offer to itself: its own investors and family cards take part."
        )
    colour = COLOURS.index(move.colour)
    space = SPACES[neg.space]
    if colour not in SPACE_COLSET[neg.space]:
        return IllegalMove(R.PARTICIPATION, f"this deal needs {space.describe()}; {move.colour} is not among them.")
    if not represents(state, neg, seat, colour):
        return IllegalMove(
            R.PARTICIPATION,
            f"you have no {move.colour} investor able to take part and no {move.colour} family card placed.",
        )
    return _offer_limits(neg, seat, colour)


def check_bid(state: State, seat: int, move: Bid) -> IllegalMove | None:
    """The boss proposes a price to another seat for a colour that seat can give."""
    neg = state.neg
    assert neg is not None
    refusal = _naming(neg)
    if refusal:
        return refusal
    if seat != neg.boss:
        return IllegalMove(
            R.PARTICIPATION, f"only the boss (seat {neg.boss}) proposes prices; offer your colour instead."
        )
    if move.seat >= state.n or move.seat == seat:
        return IllegalMove(R.PARTICIPATION, f"seat {move.seat} is not another seat at this table.")
    colour = COLOURS.index(move.colour)
    space = SPACES[neg.space]
    if colour not in SPACE_COLSET[neg.space]:
        return IllegalMove(R.PARTICIPATION, f"this deal needs {space.describe()}; {move.colour} is not among them.")
    if not represents(state, neg, move.seat, colour):
        return IllegalMove(
            R.PARTICIPATION,
            f"seat {move.seat} has no {move.colour} investor able to take part and no {move.colour} family card "
            "placed.",
        )
    quote = neg.quotes.get((move.seat, colour))
    if quote is not None and quote.status == AGREED:
        return IllegalMove(
            R.R_PROMISES, f"seat {move.seat}'s {move.colour} is already agreed for {quote.millions}M; it binds."
        )
    if neg.bids_left[move.seat] <= 0:
        return IllegalMove(
            R.R_BOUND,
            f"you have proposed {BIDS_PER_SEAT} prices to seat {move.seat}, the most allowed until the boss changes.",
        )
    return None


def check_price(state: State, seat: int, move: Price) -> IllegalMove | None:
    """The amount of the offer or bid just made, from the menu."""
    neg = state.neg
    assert neg is not None
    if neg.naming is None:
        return IllegalMove(R.R_PROTOCOL, "no price is being named now; offer or bid first.")
    top_m, top_d = max(1, neg.payout // 2), max(1, neg.dividends // 2)
    top = top_m if move.unit == MILLIONS else top_d
    if not 1 <= move.amount <= top:
        unit = "M" if move.unit == MILLIONS else " dividends"
        return IllegalMove(
            R.R_PRICES,
            f"{move.amount}{unit} is off the menu: name whole millions from 1M to {top_m}M or 1 to {top_d} dividends.",
        )
    return None


def _answer(state: State, seat: int, move: Accept | Refuse) -> tuple[IllegalMove | None, Quote | None]:
    neg = state.neg
    assert neg is not None
    refusal = _naming(neg)
    if refusal:
        return refusal, None
    if move.seat >= state.n:
        return IllegalMove(R.CONSIDERATION, f"seat {move.seat} is not at this table."), None
    colour = COLOURS.index(move.colour)
    is_boss = seat == neg.boss
    quote = neg.quotes.get((move.seat, colour))
    if not is_boss and move.seat != seat:
        return IllegalMove(R.CONSIDERATION, "a seat answers only the boss's price for its own colour."), None
    wanted = ASKED if is_boss else PROPOSED
    if quote is None or quote.status != wanted:
        side = f"seat {move.seat} has asked" if is_boss else "the boss has proposed"
        return IllegalMove(R.CONSIDERATION, f"there is no price on the table that {side} for {move.colour}."), None
    return None, quote


def check_accept(state: State, seat: int, move: Accept) -> IllegalMove | None:
    """Accept a price named by the other side, if the promises still fit in the payout."""
    refusal, quote = _answer(state, seat, move)
    if refusal or quote is None:
        return refusal
    neg = state.neg
    assert neg is not None
    promised = neg.agreed_total()
    if promised + quote.millions > neg.payout:
        room = neg.payout - promised
        return IllegalMove(
            R.CONSIDERATION,
            f"{quote.millions}M would bring the promises to {promised + quote.millions}M, more than the "
            f"{neg.payout}M this deal pays; promises come only from its dividends ({room}M remain).",
        )
    if move.close:
        return IllegalMove(R.R_PROTOCOL, "under the polled rounds the boss closes only after a quiet round.")
    return None


def check_refuse(state: State, seat: int, move: Refuse) -> IllegalMove | None:
    """Refuse a price named by the other side."""
    return _answer(state, seat, move)[0]


def check_pass(state: State, seat: int, move: Pass) -> IllegalMove | None:
    """A polled seat may pass; the boss may pass only to give the others another round."""
    neg = state.neg
    assert neg is not None
    refusal = _naming(neg)
    if refusal:
        return refusal
    if seat == neg.boss and neg.floor == "boss" and not neg.active:
        return IllegalMove(
            R.R_PROTOCOL, "every other seat passed this round: the boss must close, declare failure or act, not wait."
        )
    return None


def check_negotiation_close(state: State, seat: int, move: Close) -> IllegalMove | None:
    """The boss closes a complete deal after a round in which every other seat passed."""
    neg = state.neg
    assert neg is not None
    refusal = _naming(neg) or check_close(state, seat, move)
    if refusal:
        return refusal
    if neg.active:
        return IllegalMove(
            R.R_PROTOCOL,
            "the boss closes only after a round in which every other seat passed; this round some acted, "
            "so pass to give them another round.",
        )
    return None


def check_negotiation_fail(state: State, seat: int, move: Fail) -> IllegalMove | None:
    """The boss may declare failure at any of its decisions."""
    neg = state.neg
    assert neg is not None
    return _naming(neg) or check_fail(state, seat, move)


def _card(check: Any) -> Any:
    def checked(state: State, seat: int, move: Any) -> IllegalMove | None:
        neg = state.neg
        assert neg is not None
        return _naming(neg) or check(state, seat, move)

    return checked


# --------------------------------------------------------------------------- effects


def do_place_family(state: State, seat: int, move: PlaceFamily) -> list[Event]:
    """Place the family card face up; a seat that is not the boss names its price next."""
    neg = state.neg
    assert neg is not None
    colour = COLOURS.index(move.colour)
    card = state.take(seat, SLOT_FAMILY + colour)
    neg.placed[(seat, colour)] = card
    neg.used.add(seat)
    if seat == neg.boss:
        text = f"seat {seat} (the boss) placed family card (familia) {move.colour} {CARDS[card].id} in the deal."
        after_act(state, neg, seat)
    else:
        text = (
            f"seat {seat} placed family card (familia) {move.colour} {CARDS[card].id} to take part "
            "and will name its price."
        )
        neg.offers_left[seat] -= 1
        neg.floor = "price"
        neg.naming = Naming(seat, seat, colour)
    neg.history.append(text)
    return [Event(text, data={"seat": seat, "colour": move.colour, "card": CARDS[card].id})]


def do_offer(state: State, seat: int, move: Offer) -> list[Event]:
    """Offer the colour; the seat names its price next."""
    neg = state.neg
    assert neg is not None
    colour = COLOURS.index(move.colour)
    neg.offers_left[seat] -= 1
    neg.floor = "price"
    neg.naming = Naming(seat, seat, colour)
    how = "investor" if state.owner[colour] == seat and colour not in neg.travelled else "family card"
    text = f"seat {seat} offers its {move.colour} ({how}) to the boss and will name its price."
    neg.history.append(text)
    return [Event(text)]


def do_bid(state: State, seat: int, move: Bid) -> list[Event]:
    """The boss will name a price for the seat's colour."""
    neg = state.neg
    assert neg is not None
    neg.bids_left[move.seat] -= 1
    neg.floor = "price"
    neg.naming = Naming(seat, move.seat, COLOURS.index(move.colour))
    text = f"seat {seat} (the boss) will propose a price to seat {move.seat} for its {move.colour}."
    neg.history.append(text)
    return [Event(text)]


def do_price(state: State, seat: int, move: Price) -> list[Event]:
    """The price stands: the seat's demand, or the boss's proposal."""
    neg = state.neg
    assert neg is not None and neg.naming is not None
    actor, target, colour = neg.naming.actor, neg.naming.seat, neg.naming.colour
    amount = move.amount if move.unit == MILLIONS else move.amount * neg.value
    named = f"{move.amount}M" if move.unit == MILLIONS else f"{move.amount} dividend(s) ({amount}M)"
    if actor == neg.boss:
        neg.quotes[(target, colour)] = Quote(PROPOSED, amount, move.unit, move.amount)
        text = f"seat {actor} (the boss) proposes {named} to seat {target} for its {COLOURS[colour]}."
    else:
        neg.quotes[(target, colour)] = Quote(ASKED, amount, move.unit, move.amount)
        text = f"seat {actor} asks {named} of the boss for its {COLOURS[colour]}."
    neg.history.append(text)
    neg.naming = None
    after_act(state, neg, actor)
    return [Event(text, data={"seat": target, "colour": COLOURS[colour], "millions": amount})]


def do_accept(state: State, seat: int, move: Accept) -> list[Event]:
    """The price becomes an agreement."""
    neg = state.neg
    assert neg is not None
    colour = COLOURS.index(move.colour)
    quote = neg.quotes[(move.seat, colour)]
    neg.quotes[(move.seat, colour)] = quote.agreed()
    who = f"seat {seat} (the boss)" if seat == neg.boss else f"seat {seat}"
    text = (
        f"{who} accepted: seat {move.seat}'s {move.colour} takes part for {quote.millions}M "
        f"(promised so far: {neg.agreed_total()}M of {neg.payout}M)."
    )
    neg.history.append(text)
    after_act(state, neg, seat)
    return [Event(text, data={"seat": move.seat, "colour": move.colour, "millions": quote.millions})]


def do_refuse(state: State, seat: int, move: Refuse) -> list[Event]:
    """The price is taken off the table."""
    neg = state.neg
    assert neg is not None
    colour = COLOURS.index(move.colour)
    quote = neg.quotes.pop((move.seat, colour))
    who = f"seat {seat} (the boss)" if seat == neg.boss else f"seat {seat}"
    text = f"{who} refused {quote.millions}M for seat {move.seat}'s {move.colour}."
    neg.history.append(text)
    after_act(state, neg, seat)
    return [Event(text)]


def do_pass(state: State, seat: int, move: Pass) -> list[Event]:
    """A polled seat passes; the boss waits for another round."""
    neg = state.neg
    assert neg is not None
    if seat == neg.boss and neg.floor == "boss":
        new_round(state, neg)
        return [Event(f"seat {seat} (the boss) waits: the other seats get another round.")]
    neg.window.pass_turn(seat)
    if not neg.window.is_open:
        neg.floor = "boss"
    return [Event(f"seat {seat} passed.")]


# --------------------------------------------------------------------------- refusals outside the checks


def _foreign(state: State, seat: int, move: Any) -> IllegalMove:
    neg = state.neg
    assert neg is not None
    if move.type == "stop":
        return IllegalMove(
            R.R_STOP_TIMING, "a stop card answers a travel card, boss card or hire set just played, and none is."
        )
    return IllegalMove(R.R_PROTOCOL, f"a negotiation is under way: {pending(state).prompt}")


def _waiting(state: State, seat: int, p: Pending) -> IllegalMove:
    neg = state.neg
    assert neg is not None
    boss = neg.boss
    if neg.naming is not None:
        actor = neg.naming.actor
        return IllegalMove(
            R.R_PROTOCOL,
            f"seat {seat} does not decide now: seat {actor} is naming a price, and nobody acts in between.",
        )
    if neg.floor == "boss":
        return IllegalMove(
            R.R_PROTOCOL,
            f"seat {seat} does not decide now: the round is over and the boss (seat {boss}) decides; "
            f"seat {seat} gets its chance in the next round.",
        )
    window = neg.window
    head = (
        f"seat {seat} does not decide now: in a round the seats other than the boss are asked one at a time "
        f"from the boss's left, and seat {window.current} is being asked"
    )
    if seat == boss:
        return IllegalMove(R.R_PROTOCOL, f"{head}; the boss (seat {boss}) decides when the round is over.")
    if seat in window.order[window.index :]:
        return IllegalMove(R.R_PROTOCOL, f"{head}; seat {seat}'s chance comes later in this round.")
    return IllegalMove(
        R.R_PROTOCOL, f"{head}; seat {seat} has had its chance this round and gets another in the next one."
    )


def do_negotiation_close(state: State, seat: int, move: Close) -> list[Event]:
    """Close the deal (section 3-3)."""
    return do_close(state, seat, move)


PHASE = Phase(
    "negotiation",
    pending,
    candidates,
    {
        PlaceFamily: check_place_family,
        Offer: check_offer,
        Bid: check_bid,
        Price: check_price,
        Accept: check_accept,
        Refuse: check_refuse,
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
        Pass: do_pass,
        Travel: do_travel,
        Hire: do_hire,
        PlayBoss: do_boss,
        Close: do_negotiation_close,
        Fail: do_fail,
    },
    _foreign,
    _waiting,
)

"""Demands and prices in an open negotiation (3-2-1, "contraprestación"): offers, bids, the price named.

A seat other than the boss offers its colour at a price, the boss bids for another seat's colour, and the
seat that spoke names the price (whole millions or whole dividends, up to what the deal pays).
"""

from __future__ import annotations

from functools import lru_cache

from club_agentes.engine.core import Event
from club_agentes.engine.core.steps import Refusal
from club_agentes.engine.yo_soy_el_jefe import events as said
from club_agentes.engine.yo_soy_el_jefe import rules as R
from club_agentes.engine.yo_soy_el_jefe.moves import (
    MAX_SEATS,
    MILLIONS,
    PRICES_D,
    PRICES_M,
    Bid,
    Offer,
    Price,
)
from club_agentes.engine.yo_soy_el_jefe.state import (
    AGREED,
    ASKED,
    COLOUR_INDEX,
    COLOURS,
    NCOL,
    PROPOSED,
    SAME_PRICE_TIMES,
    SPACES,
    Naming,
    Negotiation,
    Quote,
    State,
)
from club_agentes.engine.yo_soy_el_jefe.steps.deal import SPACE_COLSET, represents


@lru_cache(maxsize=1024)
def price_menu(payout: int, dividends: int) -> list[Price]:
    """Return every price that may be named in a deal paying ``payout`` millions in ``dividends`` dividends.

    Whole millions from 1M to the payout, then whole dividends from 1 to the deal's dividends (ruling
    ``menu-de-precios``); a price already named twice for the same colour is refused by its check.
    """
    menu = [p for p in PRICES_M[1 : payout + 1] if p is not None]
    menu += [p for p in PRICES_D[1 : dividends + 1] if p is not None]
    return menu


@lru_cache(maxsize=4096)
def _quote(status: int, millions: int, unit: str, amount: int) -> Quote:
    """The :class:`Quote` of a price named (immutable: one per price)."""
    return Quote(status, millions, unit, amount)


NAME_FIRST = Refusal(  # built once (a Refusal is immutable, and this one reads nothing of the moment)
    R.R_PROTOCOL, lambda: "name the price of your offer or bid first (price N M, or price N dividends)."
)


def _demand_target(state: State, neg: Negotiation, seat: int, colour: int, namer: int) -> Refusal | None:
    """Whether ``namer`` may name a price for ``seat``'s ``colour`` now (an offer or a bid): a colour the deal asks
    for (3-1), which ``seat`` can give (ruling ``promesas``) and has not agreed on (an agreement binds)."""
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
    return None


def offer_target(state: State, seat: int, move: Offer) -> Refusal | None:
    """A seat other than the boss states (or changes) its demand for a colour it can give (3-2-1): the part of the
    offer's check that the negotiation's candidates hold by construction (the kit's ``owns``: they offer only such
    colours, and only while no price is being named); :func:`check_bound` is the rest."""
    neg = state.neg
    assert neg is not None
    if neg.naming is not None:
        return NAME_FIRST
    if seat == neg.boss:
        return Refusal(
            R.PARTICIPATION, lambda: "the boss does not offer to itself: its own investors and family cards take part."
        )
    return _demand_target(state, neg, seat, COLOUR_INDEX[move.colour], seat)


def bid_target(state: State, seat: int, move: Bid) -> Refusal | None:
    """The boss proposes (or changes) a price to another seat for a colour that seat can give (3-2-1): the part of
    the bid's check that the negotiation's candidates hold by construction (the kit's ``owns``: only the boss is
    offered bids, and only for such colours, while no price is being named); :func:`check_bound` is the rest."""
    neg = state.neg
    assert neg is not None
    if neg.naming is not None:
        return NAME_FIRST
    if seat != neg.boss:
        return Refusal(
            R.PARTICIPATION,
            lambda neg=neg: f"only the boss (seat {neg.boss}) proposes prices; offer your colour instead.",
        )
    target = move.seat
    if target >= state.n or target == seat:
        return Refusal(R.PARTICIPATION, lambda move=move: f"seat {move.seat} is not another seat at this table.")
    return _demand_target(state, neg, target, COLOUR_INDEX[move.colour], seat)


def check_bound(state: State, seat: int, move: Offer | Bid) -> Refusal | None:
    """An offer or a bid the seat may make (:func:`offer_target`, :func:`bid_target`) is refused once the seat has
    named every amount up to the payout :data:`SAME_PRICE_TIMES` times for that colour under this boss (ruling
    ``limite-de-ofertas``)."""
    neg = state.neg
    assert neg is not None
    named = neg.named
    if not named:  # nothing named yet under this boss
        return None
    colour = COLOUR_INDEX[move.colour]
    counts = named.get((seat, move.seat if type(move) is Bid else seat, colour))
    if counts is not None and len(counts) >= neg.payout and min(counts.values()) >= SAME_PRICE_TIMES:
        return Refusal(
            R.R_BOUND,
            lambda neg=neg, colour=colour: (
                f"every price up to {neg.payout}M has been named {SAME_PRICE_TIMES} times for this {COLOURS[colour]} "
                "under this boss; answer or wait for the other side."
            ),
        )
    return None


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
        return _named_twice(amount, naming.colour)
    return None


@lru_cache(maxsize=1024)
def _named_twice(amount: int, colour: int) -> Refusal:
    """The refusal of ``amount`` millions named :data:`SAME_PRICE_TIMES` times for ``colour`` (ruling
    limite-de-ofertas); one immutable :class:`Refusal` per amount and colour."""
    return Refusal(
        R.R_BOUND,
        lambda: (
            f"{amount}M has already been named {SAME_PRICE_TIMES} times for this {COLOURS[colour]} "
            "under this boss; name another amount."
        ),
    )


def do_offer(state: State, seat: int, move: Offer) -> list[Event]:
    """The seat names the price of its demand next."""
    neg = state.neg
    assert neg is not None
    colour = COLOUR_INDEX[move.colour]
    neg.naming = NAMINGS[seat][seat][colour]
    how = "investor" if state.owner[colour] == seat and colour not in neg.travelled else "family card"
    return [said.offered(seat, move.colour, how)]


def do_bid(state: State, seat: int, move: Bid) -> list[Event]:
    """The boss names the price it proposes next."""
    neg = state.neg
    assert neg is not None
    neg.naming = NAMINGS[seat][move.seat][COLOUR_INDEX[move.colour]]
    return [said.bid(seat, move.seat, move.colour)]


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
    quote = _quote(status, amount, move.unit, move.amount)
    neg.quotes[(target, colour)] = quote
    counts = neg.named.setdefault((actor, target, colour), {})
    counts[amount] = counts.get(amount, 0) + 1
    neg.naming = None
    event = said.priced(by_boss, actor, target, COLOURS[colour], move.amount, move.unit, amount)
    price_change(state, actor, event.text)
    return [event]


def price_change(state: State, actor: int, text: str) -> None:
    """Log a price named, refused or withdrawn by ``actor`` as a change every seat may answer.

    Such a change leaves the deal's terms as they were: nothing is agreed until a price is accepted, and an
    agreement binds (it is never refused nor withdrawn).
    """
    neg = state.neg
    assert neg is not None
    neg.history.append(text)
    neg.change(actor, text.removesuffix("."), terms=False)

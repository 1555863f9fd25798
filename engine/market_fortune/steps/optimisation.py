"""Optimising the portfolio (market-fortune/cap-3/optimizacion-del-portafolio) and paying for it.

"Intercambia 1 carta de una inversión formada por 1 de tu mano, del mismo tipo ($ por $, +R
por +R)... Costo: descarta 1 carta de construcción. Límite: las inversiones volteadas ya no
se modifican." :func:`optimise_check` is the rule (with ruling optimizacion-misma-industria);
:func:`add_optimise_moves` lists the swaps through it. The swap is offered at the start of the turn
and between Construir's take and its discard (ruling optimizacion-en-tu-turno); the cost is the
step :data:`COST_STEP`.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from club_agentes.engine.core import Event
from club_agentes.engine.market_fortune import events as said
from club_agentes.engine.market_fortune import rules as rid
from club_agentes.engine.market_fortune.components import (
    CARD_ID,
    CARD_IND,
    CARD_INDEX,
    CARD_NAME,
    CARD_TYPE,
    INDUSTRIES,
    N_BUILDING,
    N_CARDS,
    STOCK,
    STRATEGY,
)
from club_agentes.engine.market_fortune.flow import end_turn
from club_agentes.engine.market_fortune.moves import Discard, Optimise, intern
from club_agentes.engine.market_fortune.state import BUILD_DISCARD, MAIN, MAX_INVESTMENTS, OPTIMISE_COST, State
from club_agentes.engine.market_fortune.steps.base import declare, out_of
from club_agentes.engine.market_fortune.table import (
    Events,
    Refusal,
    add_hand,
    cn,
    discard_building,
    discard_check,
    hand_discards,
    no_such_investment,
    obscure_hand,
    over_eight,
    private_to,
    shared_rows,
    take_discard,
)

OPTIMISE_MOVES = [[intern(Optimise, k, CARD_ID[c]) for c in range(N_BUILDING)] for k in range(MAX_INVESTMENTS)]


def investment_check(state: State, seat: int, k: int) -> Refusal | None:
    """Return why investment ``k`` of ``seat`` may not be optimised at all, or ``None``."""
    invs = state.invs[seat]
    if not 0 <= k < len(invs):
        return Refusal(rid.OPTIMISATION, lambda: no_such_investment("you have", len(invs), k))
    if invs[k].face_up:
        return _face_up(k)
    return None


@cache
def _face_up(k: int) -> Refusal:
    """The refusal of optimising face-up investment ``k`` (one per index: listing meets it often)."""
    return Refusal(rid.OPTIMISATION, f"investment #{k} is face up; flipped investments can no longer be modified")


def swap_cards_check(card: int, current: int) -> Refusal | None:
    """Return why ``card`` can never replace ``current`` (a card of an investment) in an optimisation, or ``None``.

    The swapped card keeps the investment's industry (ruling optimizacion-misma-industria); its
    kind decides the slot ($ for $, +R for +R).
    """
    if CARD_TYPE[card] == STRATEGY:
        return Refusal(
            rid.OPTIMISATION, lambda: f"{cn(card)} is a strategy; an optimisation swaps a $ for a $ or a +R for a +R"
        )
    if CARD_IND[card] != CARD_IND[current]:
        return Refusal(
            rid.RULING_SAME_INDUSTRY,
            lambda: (
                f"the investment is of {INDUSTRIES[CARD_IND[current]].name} and {CARD_NAME[card]} is of "
                f"{INDUSTRIES[CARD_IND[card]].name}; the swapped card must keep the investment's industry"
            ),
        )
    return None


def swap_hand_check(state: State, seat: int, card: int) -> Refusal | None:
    """Return why ``seat`` cannot put ``card`` into an investment now (it comes from its hand), or ``None``."""
    if card not in state.hands[seat]:
        return Refusal(
            rid.OPTIMISATION,
            lambda: f"the card put into an investment comes from your hand, and you do not hold {cn(card)}",
        )
    return None


def optimise_check(state: State, seat: int, k: int, card: int) -> Refusal | None:
    """Return why putting ``card`` from the hand into investment ``k`` is refused, or ``None``."""
    return (
        investment_check(state, seat, k)
        or swap_cards_check(card, state.invs[seat][k].stock)
        or swap_hand_check(state, seat, card)
    )


# swap_cards_check is the card part of the check: its verdict for every (card, current) pair, computed
# once, then as the move each investment slot ``k`` takes (``None`` where the check refuses).
_SWAPPABLE = [[swap_cards_check(c, cur) is None for c in range(N_CARDS)] for cur in range(N_BUILDING)]
_SWAP_ROWS: list[list[list[Any]]] = [
    shared_rows([[OPTIMISE_MOVES[k][c] if ok[c] else None for c in range(N_CARDS)] for ok in _SWAPPABLE])
    for k in range(MAX_INVESTMENTS)
]


def add_optimise_moves(state: State, seat: int, out: list[Any]) -> None:
    """Append to ``out`` every legal optimisation swap of ``seat``: the moves :func:`optimise_check` accepts.

    Its parts: :func:`investment_check` per investment (the indexes enumerated are those of the
    portfolio), :func:`swap_cards_check` from its table (:data:`_SWAP_ROWS`), and
    :func:`swap_hand_check`, whose zone (the hand) is what is enumerated.
    """
    hand = state.hands[seat]
    for k, inv in enumerate(state.invs[seat]):
        if investment_check(state, seat, k) is None:
            row = _SWAP_ROWS[k][inv.stock]
            for c in hand:
                m = row[c]
                if m is not None:
                    out.append(m)


def check_optimise(state: State, seat: int, move: Optimise) -> Refusal | None:
    """The check of an optimisation swap (:func:`optimise_check`)."""
    return optimise_check(state, seat, move.investment, CARD_INDEX[move.card])


def do_optimise(state: State, seat: int, move: Optimise) -> Events:
    """Apply an optimisation swap (checked by :func:`check_optimise`); the cost step follows."""
    card = CARD_INDEX[move.card]
    inv = state.invs[seat][move.investment]
    stock = CARD_TYPE[card] == STOCK
    old = inv.stock if stock else inv.ret
    state.hands[seat].remove(card)
    if stock:
        inv.stock = card
    else:
        inv.ret = card
    add_hand(state, seat, old)
    # The swap is hidden: nobody else knows which card went in or which came back.
    private_to(state, card, seat)
    obscure_hand(state, seat)
    state.opt_back = state.step
    state.step = OPTIMISE_COST
    return [
        said.optimises(seat, move.investment, stock),
        Event(f"you put {cn(card)} into investment #{move.investment} and took {cn(old)} back", (seat,)),
    ]


# ---------------------------------------------------------------------------- the cost


def cost_moves(state: State, seat: int) -> list[Any]:
    """Legal moves while an optimisation is unpaid: discard any building card of the hand."""
    return hand_discards(state, seat)  # every discard hand_discard_check accepts


def apply_cost(state: State, seat: int, move: Discard) -> Events:
    """Pay an optimisation by discarding 1 building card (checked); the turn goes on."""
    card = take_discard(state, seat, move)
    discard_building(state, card)
    ev = [said.paid_optimisation(seat, card)]
    back = state.opt_back
    state.opt_back = MAIN
    if back == MAIN:
        state.step = MAIN
    elif over_eight(state, seat):
        state.step = BUILD_DISCARD
    else:
        ev.append(Event(f"seat {seat} holds 8 building cards again, so Construir needs no further discard"))
        end_turn(state, ev)
    return ev


COST_STEP = declare(
    OPTIMISE_COST,
    cost_moves,
    {Discard: (discard_check(rid.OPTIMISATION), apply_cost)},
    out_of(rid.OPTIMISATION, "the optimisation is not paid yet: discard 1 building card from your hand"),
)

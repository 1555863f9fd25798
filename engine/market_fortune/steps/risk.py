"""Arriesgar (market-fortune/cap-2/tu-turno, cap-3): form an investment, roll the die, take Momentum.

"Junta 1 $ + 1 +R del mismo logo, ocúltalas y lanza el dado. Con + quedan boca abajo y tomas
1 Estrategia. Con − la inversión falla y las cartas regresan a tu mano." :func:`risk_check`
is the rule (with Bloqueo Regulatorio's ban and ruling maximo-cuatro-inversiones); the Momentum
strategy cannot be used that turn (market-fortune/cap-2/regla-de-momentum). After a success,
:data:`FORMED_STEP` offers a green for the new investment and, with 4, the declaration.
"""

from __future__ import annotations

from bisect import bisect_left
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
    CARD_VAL,
    INDUSTRIES,
    N_BUILDING,
    N_CARDS,
    RETURN,
    STOCK,
)
from club_agentes.engine.market_fortune.flow import end_turn, finish_game
from club_agentes.engine.market_fortune.moves import DECLARE, SKIP, Attach, Declare, Play, Risk, Skip, intern
from club_agentes.engine.market_fortune.state import FORMED, MAX_INVESTMENTS, Investment, State
from club_agentes.engine.market_fortune.steps.base import declare
from club_agentes.engine.market_fortune.steps.declaration import (
    attach_check,
    attach_moves,
    check_declare,
    declare_check,
    do_attach,
    do_declare,
)
from club_agentes.engine.market_fortune.table import (
    Events,
    Refusal,
    add_hand,
    cn,
    die_plus,
    obscure_hand,
    out_of_step,
    private_to,
    sign,
    take_strategy,
)

_FIRST_RETURN = N_BUILDING // 2
RISK_MOVES = [
    {r: intern(Risk, CARD_ID[a], CARD_ID[r]) for r in range(_FIRST_RETURN, N_BUILDING)} for a in range(_FIRST_RETURN)
]


def risk_cards_check(stock: int, ret: int) -> Refusal | None:
    """Return why these two cards can never make an investment (whatever the table), or ``None``."""
    if CARD_TYPE[stock] != STOCK or CARD_TYPE[ret] != RETURN:
        return Refusal(
            rid.INVESTMENT,
            lambda: f"an investment is 1 Acción ($) and 1 Rendimiento (+R); you named {cn(stock)} and {cn(ret)}",
        )
    if CARD_IND[stock] != CARD_IND[ret]:
        return Refusal(
            rid.INVESTMENT,
            lambda: (
                f"{CARD_NAME[stock]} is {INDUSTRIES[CARD_IND[stock]].name} and {CARD_NAME[ret]} is "
                f"{INDUSTRIES[CARD_IND[ret]].name}; an investment needs a $ and a +R of the same industry"
            ),
        )
    return None


def risk_hand_check(state: State, seat: int, stock: int, ret: int) -> Refusal | None:
    """Return why ``seat`` cannot put these two cards down now (both come from its hand), or ``None``."""
    hand = state.hands[seat]
    if stock not in hand or ret not in hand:
        missing = stock if stock not in hand else ret
        return Refusal(rid.INVESTMENT, lambda: f"both cards come from your hand, and you do not hold {cn(missing)}")
    return None


_BANNED = Refusal(
    "market-fortune/cartas/bloqueo-regulatorio", "Bloqueo Regulatorio forbids you to Arriesgar on this turn"
)
_FULL = Refusal(rid.RULING_FOUR_MAX, "you already have 4 investments, the most a portfolio holds")


def risk_allowed_check(state: State, seat: int) -> Refusal | None:
    """Return why ``seat`` may not Arriesgar at all this turn (whatever the cards), or ``None``."""
    if state.banned:
        return _BANNED
    if len(state.invs[seat]) >= MAX_INVESTMENTS:
        return _FULL
    return None


def risk_check(state: State, seat: int, stock: int, ret: int) -> Refusal | None:
    """Return why Arriesgar with these two cards is refused, or ``None``."""
    return risk_cards_check(stock, ret) or risk_hand_check(state, seat, stock, ret) or risk_allowed_check(state, seat)


# risk_cards_check is the card part of the check: its verdict for every ($, +R) pair, computed once, as
# the move of each pair it accepts (``None`` where it refuses).
_PAIRS: list[list[Any]] = [
    [None if risk_cards_check(a, r) else RISK_MOVES[a][r] for r in range(N_CARDS)] for a in range(_FIRST_RETURN)
]


def add_risk_moves(state: State, seat: int, out: list[Any]) -> None:
    """Append to ``out`` every legal Arriesgar: the pairs :func:`risk_check` accepts.

    Its parts: :func:`risk_allowed_check` once (it reads no card), :func:`risk_cards_check`
    from its table (:data:`_PAIRS`), and :func:`risk_hand_check`, whose zone (a $ and a +R of
    the hand) is what is enumerated.
    """
    if risk_allowed_check(state, seat) is not None:
        return
    hand = state.hands[seat]
    split = bisect_left(hand, _FIRST_RETURN)  # the hand is sorted: $ cards first
    returns = hand[split:]
    for a in hand[:split]:
        row = _PAIRS[a]
        for r in returns:
            m = row[r]
            if m is not None:
                out.append(m)


def risk_moves(state: State, seat: int) -> list[Any]:
    """Return every legal Arriesgar (:func:`add_risk_moves`)."""
    out: list[Any] = []
    add_risk_moves(state, seat, out)
    return out


def check_risk(state: State, seat: int, move: Risk) -> Refusal | None:
    """The check of Arriesgar (:func:`risk_check`)."""
    return risk_check(state, seat, CARD_INDEX[move.stock], CARD_INDEX[move.ret])


def do_risk(state: State, seat: int, move: Risk) -> Events:
    """Apply Arriesgar (checked): roll (or Inversor Suertudo), form the investment, take Momentum."""
    stock, ret = CARD_INDEX[move.stock], CARD_INDEX[move.ret]
    ev: Events = []
    state.acted = True
    hand = state.hands[seat]
    hand.remove(stock)
    hand.remove(ret)
    if state.lucky:
        state.lucky = False
        plus = True
        how = "Inversor Suertudo makes it succeed without the die"
    else:
        plus = die_plus(state)
        how = f"the die shows {sign(plus)}"
    if not plus:
        # The same two cards come back: what others knew of the hand still holds.
        add_hand(state, seat, stock)
        add_hand(state, seat, ret)
        ev.append(said.risk_failed(seat, how))
        ev.append(Event(f"your {cn(stock)} and {cn(ret)} returned to your hand", (seat,)))
        end_turn(state, ev)
        return ev
    private_to(state, stock, seat)
    private_to(state, ret, seat)
    obscure_hand(state, seat)
    invs = state.invs[seat]
    invs.append(Investment(stock, ret))
    k = len(invs) - 1
    ev.append(said.risk_formed(seat, how, k))
    ev.append(Event(f"your investment #{k}: {cn(stock)} + {cn(ret)} = {CARD_VAL[stock] + CARD_VAL[ret]}M", (seat,)))
    if state.config.mode == "familia" and len(invs) == MAX_INVESTMENTS:
        counts = [len(state.invs[s]) for s in range(state.n)]
        reason = f"seat {seat} formed its 4th investment and wins (Familia)"
        finish_game(state, [seat], counts, reason, rid.FAMILIA, [False] * state.n, ev)
        return ev
    c = take_strategy(state, seat, ev)
    if c >= 0:
        state.momentum = c
        ev.append(said.momentum(seat))
        ev.append(said.you_took_momentum(seat, c))
    else:
        ev.append(Event("no strategy is left to take for Momentum"))
    state.formed = k
    # Asked whenever the seat holds a strategy it could attach (any but the Momentum card: a public
    # count), not only when it holds a green, so that being asked reveals nothing (ruling informacion-oculta).
    if state.config.mode != "familia" and (len(state.strats[seat]) > (c >= 0) or len(invs) == MAX_INVESTMENTS):
        state.step = FORMED
    else:
        end_turn(state, ev)
    return ev


# ---------------------------------------------------------------------------- after forming


def formed_moves(state: State, seat: int) -> list[Any]:
    """Legal moves after a successful Arriesgar: attach a green to it, declare with 4, or skip."""
    out = attach_moves(state, seat, state.formed)
    if declare_check(state, seat) is None:
        out.append(DECLARE)
    out.append(SKIP)
    return out


def check_formed_attach(state: State, seat: int, move: Attach) -> Refusal | None:
    """After forming, a green goes on the new investment only (:func:`attach_check`)."""
    return attach_check(state, seat, CARD_INDEX[move.card], move.investment, state.formed)


def formed_attach(state: State, seat: int, move: Attach) -> Events:
    """Attach a green to the new investment (checked); the turn ends unless it is the 4th (declaring may follow)."""
    ev = do_attach(state, seat, move)
    if len(state.invs[seat]) != MAX_INVESTMENTS:
        end_turn(state, ev)
    return ev


def skip(state: State, seat: int, move: Skip) -> Events:
    """Neither attach nor declare: the turn ends."""
    ev: Events = []
    end_turn(state, ev)
    return ev


def _not_after_forming(state: State, seat: int, move: Any) -> Refusal:
    """The refusal of a move the step after forming does not take (the Momentum card named first)."""
    if type(move) is Play and CARD_INDEX[move.card] == state.momentum:
        return Refusal(
            rid.MOMENTUM, lambda card=state.momentum: f"you took {cn(card)} by Momentum this turn and cannot use it now"
        )
    return out_of_step(
        state, move, rid.YOUR_TURN, "your action is done: attach a green to the new investment, declare victory or skip"
    )


FORMED_STEP = declare(
    FORMED,
    formed_moves,
    {
        Attach: (check_formed_attach, formed_attach),
        Declare: (check_declare, do_declare),
        Skip: (None, skip),
    },
    _not_after_forming,
)

"""Declaring victory (market-fortune/cap-5/declarar-victoria), attaching greens, the count, a failed declaration.

"Cuando formas tu 4.ª inversión y crees haber llegado a 25M o más, declara victoria. Voltea
todas tus inversiones boca arriba... con 25M o más, ganas." and "Si no llegas, regresa una
inversión a tu mano (tú eliges) y la partida sigue." The checks: :func:`declare_check` (4
investments, not in Familia), :func:`attach_check` (a green on a face-down investment without
one: market-fortune/cap-4/verde, faq/varias-verdes), :func:`return_check` (an investment you
have). Steps: :data:`CLOSING_STEP` (attach greens, then reveal) and :data:`RETURN_STEP`.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from club_agentes.engine.core import Event
from club_agentes.engine.market_fortune import rules as rid
from club_agentes.engine.market_fortune.components import CARD_ID, CARD_INDEX, CARD_TYPE, IS_GREEN, N_BUILDING, N_CARDS
from club_agentes.engine.market_fortune.flow import describe_portfolio, end_turn, finish_game, reveal_all
from club_agentes.engine.market_fortune.moves import REVEAL, Attach, Declare, Return, Reveal, intern
from club_agentes.engine.market_fortune.scoring import portfolio_value
from club_agentes.engine.market_fortune.state import (
    CLOSING,
    MAX_INVESTMENTS,
    RETURN_STEP,
    WIN_VALUE,
    State,
)
from club_agentes.engine.market_fortune.steps.base import declare, out_of
from club_agentes.engine.market_fortune.table import (
    Events,
    Refusal,
    cn,
    inv_text,
    n_investments,
    no_such_investment,
    obscure_strategies,
    private_to,
    return_investment,
)

ATTACH_MOVES = {
    (c, k): intern(Attach, CARD_ID[c], k) for c in range(N_BUILDING, N_CARDS) if IS_GREEN[c] for k in range(4)
}
RETURN_MOVES = [intern(Return, k) for k in range(MAX_INVESTMENTS)]


_FAMILIA = Refusal(
    rid.RULING_FAMILIA, "in Familia the first to form 4 investments wins at once; there is no declaration"
)


def declare_check(state: State, seat: int) -> Refusal | None:
    """Return why ``seat`` may not declare victory now, or ``None``."""
    if state.config.mode == "familia":
        return _FAMILIA
    n = len(state.invs[seat])
    if n != MAX_INVESTMENTS:
        return _too_few(n)
    return None


@cache
def _too_few(n: int) -> Refusal:
    """The refusal of declaring with ``n`` investments (one per count: listing meets it at most turns)."""
    return Refusal(rid.DECLARE, f"you have {n_investments(n)}; you may declare victory only with 4")


def may_hold_attachable(state: State, seat: int) -> bool:
    """Whether, by public information, the seat might still attach a green: it holds a strategy other
    than its Momentum card and a face-down investment carries no green (ruling informacion-oculta)."""
    held = len(state.strats[seat]) - (state.momentum in state.strats[seat])
    return held > 0 and any(inv.green < 0 and not inv.face_up for inv in state.invs[seat])


def check_declare(state: State, seat: int, move: Declare) -> Refusal | None:
    """The check of a declaration of victory (:func:`declare_check`)."""
    return declare_check(state, seat)


def do_declare(state: State, seat: int, move: Declare) -> Events:
    """Start a declaration of victory (checked; from the main step or after forming the 4th investment)."""
    ev: Events = []
    start_declaration(state, seat, ev)
    return ev


def start_declaration(state: State, seat: int, ev: Events) -> None:
    """Declare victory (already checked): greens may still be attached, then the portfolio is counted."""
    ev.append(Event(f"seat {seat} declares victory with 4 investments"))
    # Asked whenever the seat holds any strategy and an investment lacks a green (both public), not
    # only when it holds a green it can attach (ruling informacion-oculta).
    if may_hold_attachable(state, seat):
        state.step = CLOSING
    else:
        count_declaration(state, seat, ev)


def count_declaration(state: State, seat: int, ev: Events) -> None:
    """Flip the portfolio, reveal the yellows and count: 25M or more wins; less fails."""
    reveal_all(state, seat, True)
    value = portfolio_value(state, seat)
    ev.append(Event(f"seat {seat} flips its portfolio: {describe_portfolio(state, seat, True)}; total {value}M"))
    if value >= WIN_VALUE:
        values = [portfolio_value(state, s, yellows=False) if s != seat else value for s in range(state.n)]
        reason = f"seat {seat} declared victory with {value}M (4 investments and 25M or more) and wins"
        finish_game(state, [seat], values, reason, rid.FINAL_COUNT, [s == seat for s in range(state.n)], ev)
        return
    ev.append(Event(f"seat {seat}'s declaration fails with {value}M, under 25M: it returns one investment to its hand"))
    state.step = RETURN_STEP


# ---------------------------------------------------------------------------- greens


def attach_card_check(card: int) -> Refusal | None:
    """Return why ``card`` is never attached to an investment (not a green strategy), or ``None``."""
    if CARD_TYPE[card] != 2:
        return Refusal(
            rid.GREEN, lambda: f"{cn(card)} is a building card; only a green strategy is attached to an investment"
        )
    return None


def attach_check(state: State, seat: int, card: int, k: int, only: int) -> Refusal | None:
    """Return why attaching green ``card`` to investment ``k`` is refused, or ``None``.

    ``only``: right after forming, the new investment's index (the green goes there); else -1.
    """
    problem = attach_card_check(card)
    if problem is not None:
        return problem
    if card not in state.strats[seat]:
        return Refusal(rid.GREEN, lambda: f"you do not hold {cn(card)}")
    if not IS_GREEN[card]:
        return Refusal(
            rid.GREEN, lambda: f"{cn(card)} is not a green strategy; only greens are attached to investments"
        )
    if card == state.momentum:
        return Refusal(
            rid.RULING_MOMENTUM,
            lambda: f"you took {cn(card)} by Momentum this turn; a green taken by Momentum is attached on a later turn",
        )
    invs = state.invs[seat]
    if not 0 <= k < len(invs):
        return Refusal(rid.GREEN, lambda: no_such_investment("you have", len(invs), k))
    if only >= 0 and k != only:
        return Refusal(
            rid.GREEN, lambda: f"when you form an investment its green goes on that investment, #{only}, not on #{k}"
        )
    if invs[k].face_up:
        return Refusal(
            rid.RULING_FACE_UP,
            lambda: f"investment #{k} is face up, and a face-up investment is final: no green is attached to it",
        )
    if invs[k].green >= 0:
        return Refusal(
            rid.ONE_GREEN, lambda: f"investment #{k} already carries a green strategy; one green per investment"
        )
    return None


def attach_moves(state: State, seat: int, only: int) -> list[Any]:
    """Return the legal attachments of ``seat``'s greens (``only``: the new investment, or -1 for any).

    The candidates are each green of the seat's strategies (the check's zone and its colour test)
    with each investment (``only``'s alone after forming, the check accepting no other); each goes
    through :func:`attach_check`.
    """
    out: list[Any] = []
    ks = range(len(state.invs[seat])) if only < 0 else (only,)
    for c in state.strats[seat]:
        if IS_GREEN[c]:
            for k in ks:
                if attach_check(state, seat, c, k, only) is None:
                    out.append(ATTACH_MOVES[(c, k)])
    return out


def do_attach(state: State, seat: int, move: Attach) -> Events:
    """Attach a green to an investment (checked by :func:`attach_check`)."""
    card = CARD_INDEX[move.card]
    k = move.investment
    state.strats[seat].remove(card)
    inv = state.invs[seat][k]
    inv.green = card
    # Face down (a face-up investment takes no green): nobody else sees which strategy left the hand.
    private_to(state, card, seat)
    obscure_strategies(state, seat)
    return [
        Event(f"seat {seat} attached a green strategy face down to its investment #{k}"),
        Event(f"you attached {cn(card)} to investment #{k}", (seat,)),
    ]


# ---------------------------------------------------------------------------- closing


def closing_moves(state: State, seat: int) -> list[Any]:
    """Legal moves during a declaration: attach greens, then reveal."""
    out = attach_moves(state, seat, -1)
    out.append(REVEAL)
    return out


def check_closing_attach(state: State, seat: int, move: Attach) -> Refusal | None:
    """During a declaration a green goes on any investment (:func:`attach_check`)."""
    return attach_check(state, seat, CARD_INDEX[move.card], move.investment, -1)


def closing_attach(state: State, seat: int, move: Attach) -> Events:
    """Attach a green during a declaration (checked); once no more can be, the portfolio is counted."""
    ev = do_attach(state, seat, move)
    if not may_hold_attachable(state, seat):
        count_declaration(state, seat, ev)
    return ev


def reveal(state: State, seat: int, move: Reveal) -> Events:
    """Reveal the portfolio and count it."""
    ev: Events = []
    count_declaration(state, seat, ev)
    return ev


CLOSING_STEP = declare(
    CLOSING,
    closing_moves,
    {Attach: (check_closing_attach, closing_attach), Reveal: (None, reveal)},
    out_of(rid.DECLARE, "you are declaring victory: attach green strategies or reveal your portfolio"),
)


# ---------------------------------------------------------------------------- a failed declaration


def return_check(state: State, seat: int, k: int) -> Refusal | None:
    """Return why investment ``k`` may not return to the hand after a failed declaration, or ``None``."""
    n = len(state.invs[seat])
    if not 0 <= k < n:
        return Refusal(rid.FAILED_DECLARATION, lambda: no_such_investment("you have", n, k))
    return None


def return_moves(state: State, seat: int) -> list[Any]:
    """Legal moves after a failed declaration: which investment returns to the hand."""
    return [RETURN_MOVES[k] for k in range(len(state.invs[seat])) if return_check(state, seat, k) is None]


def check_return(state: State, seat: int, move: Return) -> Refusal | None:
    """The check of the return after a failed declaration (:func:`return_check`)."""
    return return_check(state, seat, move.investment)


def apply_return(state: State, seat: int, move: Return) -> Events:
    """After a failed declaration: the chosen investment (checked) returns to the hand and the turn ends."""
    k = move.investment
    inv = return_investment(state, seat, k)
    ev: Events = [Event(f"seat {seat} returns investment #{k} ({inv_text(inv)}) to its hand; play goes on")]
    end_turn(state, ev)
    return ev


FAILED_STEP = declare(
    RETURN_STEP,
    return_moves,
    {Return: (check_return, apply_return)},
    out_of(rid.FAILED_DECLARATION, "your declaration failed: choose the investment that returns to your hand"),
)

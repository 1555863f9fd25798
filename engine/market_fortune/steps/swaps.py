"""The two reds that swap a card (market-fortune/cap-4/roja): Interés Compuesto and Movimiento Astuto.

Interés Compuesto puts a +R of the hand into a face-down investment of the same industry; Movimiento Astuto
gives a building card of the hand for the top card of the $ or +R discard pile. Their checks, and how their
plays are listed from the same checks (:mod:`.reds` holds the rest of the red strategies).
"""

from __future__ import annotations

from functools import cache

from club_agentes.engine.market_fortune import rules as rid
from club_agentes.engine.market_fortune.components import (
    CARD_IND,
    CARD_NAME,
    CARD_TYPE,
    INDUSTRIES,
    RETURN,
    StrategyDef,
)
from club_agentes.engine.market_fortune.moves import SOURCE_WORDS, Play
from club_agentes.engine.market_fortune.state import (
    State,
)
from club_agentes.engine.market_fortune.table import (
    Refusal,
    cn,
    no_such_investment,
    source_check,
)

DISCARD_SOURCES = ("stock-discard", "return-discard")


def return_swap_cards_check(s: StrategyDef, card: int, current: int) -> Refusal | None:
    """Interés Compuesto: return why ``card`` can never replace the +R of an investment whose $ is ``current``."""
    if CARD_TYPE[card] != RETURN:
        return Refusal(s.section, lambda: f"{s.name} puts a +R into the investment, and {cn(card)} is not a +R card")
    if CARD_IND[card] != CARD_IND[current]:
        return Refusal(
            rid.RULING_SAME_INDUSTRY,
            lambda: f"the investment is of {INDUSTRIES[CARD_IND[current]].name}; {CARD_NAME[card]} is another industry",
        )
    return None


def return_swap_investment(state: State, seat: int, s: StrategyDef, k: int | None) -> Refusal | None:
    invs = state.invs[seat]
    if k is None or not 0 <= k < len(invs):
        return Refusal(s.section, lambda: no_such_investment("you have", len(invs), k))
    if invs[k].face_up:
        return _flipped(s.section, k)
    return None


@cache
def _flipped(section: str, k: int) -> Refusal:
    """The refusal of swapping into face-up investment ``k`` (cached: listing meets it often)."""
    return Refusal(section, f"investment #{k} is face up; flipped investments can no longer be modified")


def _return_swap_hand(state: State, seat: int, s: StrategyDef, c: int) -> Refusal | None:
    if c not in state.hands[seat]:
        return Refusal(s.section, lambda: f"the +R comes from your hand, and you do not hold {cn(c)}")
    return None


def return_swap(state: State, seat: int, s: StrategyDef, k: int | None, c: int) -> Refusal | None:
    """Interés Compuesto: a +R of the hand into a face-down investment of the same industry."""
    p = return_swap_investment(state, seat, s, k)
    if p is not None:
        return p
    assert k is not None
    return return_swap_cards_check(s, c, state.invs[seat][k].stock) or _return_swap_hand(state, seat, s, c)


def discard_swap_source(state: State, s: StrategyDef, src: str) -> Refusal | None:
    """Movimiento Astuto's source: the top card of the $ or +R discard pile, if it may be taken."""
    if src not in DISCARD_SOURCES:
        return Refusal(
            s.section, lambda: f"{s.name} takes the top card of the $ or +R discard pile, not of {SOURCE_WORDS[src]}"
        )
    return source_check(state, src)


def discard_swap(state: State, seat: int, s: StrategyDef, src: str | None, c: int) -> Refusal | None:
    """Movimiento Astuto: the top card of a $ or +R discard pile for a card of the hand."""
    assert src is not None
    p = discard_swap_source(state, s, src)
    if p is not None:
        return p
    if c not in state.hands[seat]:
        return Refusal(s.section, lambda: f"you give a building card from your hand, and you do not hold {cn(c)}")
    return None


def list_return_swap(
    state: State, seat: int, s: StrategyDef, _: None, plays: list[list[list[Play | None]]], out: list[Play]
) -> None:
    hand = state.hands[seat]
    for k, inv in enumerate(state.invs[seat]):
        if return_swap_investment(state, seat, s, k) is None:
            row = plays[k][inv.stock]  # return_swap_cards_check's table for this investment
            for c in hand:
                m = row[c]
                if m is not None:
                    out.append(m)


def list_discard_swap(
    state: State, seat: int, s: StrategyDef, _: None, plays: list[tuple[str, list[Play]]], out: list[Play]
) -> None:
    hand = state.hands[seat]
    for src, row in plays:
        if discard_swap_source(state, s, src) is None:
            for g in hand:
                out.append(row[g])

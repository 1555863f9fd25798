"""Market Fortune's values: investments, green and yellow bonuses, portfolios, the market terms.

Pure functions of the state (no change to it), used by the rules, the views, the result
breakdown and the bots' notes. The rule numbers come from the component data and
:mod:`.state`.
"""

from __future__ import annotations

from club_agentes.engine.core.model import ScoreLine
from club_agentes.engine.market_fortune import rules as rid
from club_agentes.engine.market_fortune.components import (
    CARD_IND,
    CARD_NAME,
    CARD_STRAT,
    CARD_VAL,
    INDUSTRIES,
    IS_YELLOW,
    Effect,
    StrategyDef,
)
from club_agentes.engine.market_fortune.state import Investment, State


def strategy(card: int) -> StrategyDef:
    """Return the strategy definition of a strategy card."""
    s = CARD_STRAT[card]
    assert s is not None
    return s


def inv_value(inv: Investment) -> int:
    """Return an investment's face value: Acción + Rendimiento."""
    return CARD_VAL[inv.stock] + CARD_VAL[inv.ret]


def green_bonus_for(green: int, stock_value: int, return_value: int) -> int:
    """Return the bonus a green card gives to an investment of these values (0 if its criteria are unmet)."""
    s = strategy(green)
    p = s.params
    if s.effect is Effect.BONUS_LOW_STOCK:
        return p["bonus"] if stock_value <= p["max_stock"] else 0
    if s.effect is Effect.BONUS_HIGH_RETURN:
        return p["bonus"] if return_value >= p["min_return"] else 0
    if s.effect is Effect.BONUS_LOW_TOTAL:
        return p["bonus"] if stock_value + return_value <= p["max_total"] else 0
    raise AssertionError(f"{s.name} is not a green effect")


def green_bonus(inv: Investment) -> int:
    """Return the bonus the green attached to an investment gives now (0 if none or criteria unmet)."""
    if inv.green < 0:
        return 0
    return green_bonus_for(inv.green, CARD_VAL[inv.stock], CARD_VAL[inv.ret])


def yellow_bonus(card: int, invs: list[Investment]) -> int:
    """Return the bonus a yellow card gives for a portfolio (0 if its criteria are unmet)."""
    s = strategy(card)
    p = s.params
    industries = [CARD_IND[i.stock] for i in invs]
    if s.effect is Effect.BONUS_SAME_INDUSTRY:
        return p["bonus"] if len(set(industries)) < len(industries) else 0
    if s.effect is Effect.BONUS_DIVERSIFIED:
        return p["bonus"] if len(set(industries)) >= p["industries"] else 0
    if s.effect is Effect.BONUS_DIVIDENDS:
        return p["per"] * sum(1 for i in invs if CARD_VAL[i.ret] >= p["min_return"])
    raise AssertionError(f"{s.name} is not a yellow effect")


def counted_yellows(state: State, seat: int) -> list[int]:
    """Return the yellows a declaration by ``seat`` now reveals and counts.

    A yellow taken by Momentum this turn is not one of them: "No puedes usarla ese mismo
    turno" and "no se usa al ganar" (ruling momentum-todo-el-turno); it counts at a later one.
    """
    momentum = state.momentum if state.turn == seat else -1
    return [c for c in state.strats[seat] if IS_YELLOW[c] and c != momentum]


def portfolio_value(state: State, seat: int, *, yellows: bool = True) -> int:
    """Return a seat's portfolio value: face values, green bonuses and (optionally) its counted yellows' bonuses."""
    invs = state.invs[seat]
    total = sum(inv_value(i) + green_bonus(i) for i in invs)
    if yellows:
        total += sum(yellow_bonus(c, invs) for c in counted_yellows(state, seat))
    return total


def portfolio_lines(state: State, seat: int, *, yellows: bool) -> list[ScoreLine]:
    """Return a portfolio's score lines: each investment's value, each green and (optionally) yellow bonus."""
    lines: list[ScoreLine] = []
    invs = state.invs[seat]
    for k, inv in enumerate(invs):
        ind = INDUSTRIES[CARD_IND[inv.stock]].name
        label = f"investment #{k}: {ind} {CARD_VAL[inv.stock]}M + {CARD_VAL[inv.ret]}M"
        lines.append(ScoreLine(label, float(inv_value(inv)), rid.FINAL_COUNT))
        if inv.green >= 0:
            b = green_bonus(inv)
            met = "" if b else " (criteria not met)"
            lines.append(
                ScoreLine(
                    f"green {CARD_NAME[inv.green]} on investment #{k}{met}", float(b), strategy(inv.green).section
                )
            )
    if yellows:
        for c in counted_yellows(state, seat):
            b = yellow_bonus(c, invs)
            met = "" if b else " (criteria not met)"
            lines.append(ScoreLine(f"yellow {CARD_NAME[c]}{met}", float(b), strategy(c).section))
    return lines


def is_leader(state: State, seat: int) -> bool:
    """Líder: nobody has more investments, and the seat has at least 1 (ruling terminos-del-mercado)."""
    n = len(state.invs[seat])
    return n > 0 and all(len(i) <= n for i in state.invs)


def goes_last(state: State, seat: int) -> bool:
    """Ir de último: nobody has fewer investments, and not everyone has the same number."""
    counts = [len(i) for i in state.invs]
    return counts[seat] == min(counts) and max(counts) > counts[seat]


def as_advanced(state: State, seat: int, other: int) -> bool:
    """Igual o más avanzado: ``other`` has as many investments as ``seat`` or more."""
    return len(state.invs[other]) >= len(state.invs[seat])


def face_down(invs: list[Investment]) -> list[int]:
    """Return the indexes of the face-down investments (the only ones a card may still change)."""
    return [k for k, inv in enumerate(invs) if not inv.face_up]

"""Yo soy el jefe's result breakdown: each seat's final money, deal by deal, each line citing its rule."""

from __future__ import annotations

from club_agentes.engine.core.model import ScoreLine, SeatScore
from club_agentes.engine.yo_soy_el_jefe import rules as R
from club_agentes.engine.yo_soy_el_jefe.state import State
from club_agentes.engine.yo_soy_el_jefe.steps.deal import FORCED_PART


def breakdown(state: State) -> tuple[SeatScore, ...]:
    """Return each seat's final money deal by deal: the payouts it received as boss, the promises it paid and
    the promises it was paid (rulings ``promesas`` and ``dos-jugadores``)."""
    lines: list[list[ScoreLine]] = [[] for _ in range(state.n)]
    for x in state.ledger:
        where = f"deal {x.deal} (space {x.space})"
        if x.kind == "payout":
            lines[x.seat].append(ScoreLine(f"{where}: payout from the bank as boss", x.amount, R.PAYMENT))
        else:
            forced = any(
                p[0] == (x.other if x.kind == "paid" else x.seat) and p[1] == x.colour and p[2] == FORCED_PART
                for d in state.deals
                if d.deal == x.deal
                for p in d.paid
            )
            rule = R.R_TWO_PLAYERS if forced else R.R_PROMISES
            if x.kind == "paid":
                label = f"{where}: paid seat {x.other} for its {x.colour}"
            else:
                label = f"{where}: paid by seat {x.other} (the boss) for {x.colour}"
            lines[x.seat].append(ScoreLine(label, x.amount, rule))
    return tuple(SeatScore(s, float(state.money[s]), "M", tuple(lines[s])) for s in range(state.n))

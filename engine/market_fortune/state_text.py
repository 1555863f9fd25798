"""The seat's state in a few compact lines, for the text of every decision (built from the view only).

One format, read top to bottom (an example: seat 2 in a Fortuna game; each line is one line of text,
wrapped here)::

    Market Fortune fortuna, turn 55/400: seat 2
    You: hand ($ 3M, +R +3M) Telecomunicaciones 2M 3M +5M; Inmobiliaria 4M; Transporte 5M; Energía +3M +4M;
      Finanzas +3M; Minería +5M; strategies red Colapso de Mercado, Rescate; blue Moneda Estable; yellow Rey
      Diversificación; no investments; portfolio 0M of 25M
    Seat 0: hand 2$ 4+R, 2 strategies, investments #0 down | Seat 1: hand 3$ 5+R, 3 strategies, no investments,
      known to all: +R Energía +2M, +R Entretenimiento +4M
    Piles: $ 45 (top $ Finanzas 1M); +R 36 (top +R Salud +2M); strategy 33

The first line: mode, turn (of the turn limit) and the seat on turn. The hand is grouped by industry,
the industry the Arriesgar and optimisation rules pair on: an Acción ($) card is its value (``3M``),
a Rendimiento (+R) card its value with a plus (``+5M``), as the cards are printed. Strategies are
grouped by colour. Investments: ``#0 Energía 2M+3M=5M down`` (index, industry, $ + +R = value, face
down or up, a green's bonus), or ``#0 down`` where the cards are hidden. The portfolio value counts
face values and bonuses (``of 25M``: the value a declaration needs in Fortuna and Campeonato). Of the
others only what the rules make public: hand sizes by kind, strategy counts, investments, cards seen
by all or by you. Piles: each deck's size and the top of its discard pile. Strategy effects and the
Campeonato games are in ``get_view(full=true)`` and the structured content.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from club_agentes.engine.core.text import counted

COLOURS = ("red", "blue", "green", "yellow")
"""The strategy colours in the order the rulebook's table lists them."""


def card_words(c: dict[str, Any]) -> str:
    """``$ Energía 3M``, ``+R Tecnología +5M`` or ``Fortuna, red`` for a strategy."""
    kind = c.get("kind")
    if kind == "estrategia":
        return f"{c['name']}, {c['colour']}"
    if kind == "rendimiento":
        return f"+R {c['industry']} +{c['value']}M"
    return f"$ {c['industry']} {c['value']}M"


def hand_words(hand: list[dict[str, Any]]) -> str:
    """``Energía 2M +3M; Salud +5M`` (building cards by industry: $ values, then +R values with a plus)."""
    by_industry: dict[str, list[str]] = defaultdict(list)
    for c in sorted(hand, key=lambda c: (c.get("kind") != "accion", c.get("value", 0))):
        value = f"+{c['value']}M" if c.get("kind") == "rendimiento" else f"{c['value']}M"
        by_industry[str(c.get("industry"))].append(value)
    return "; ".join(f"{ind} {' '.join(vals)}" for ind, vals in by_industry.items())


def strategy_words(strategies: list[dict[str, Any]]) -> str:
    """``red Fortuna, Robo; blue Moneda Estable x2`` (by colour, repeated names counted)."""
    by_colour: dict[str, dict[str, int]] = {}
    for c in strategies:  # one pass: each colour's names in the order of the list
        colour = c.get("colour")
        if colour in COLOURS:
            names = by_colour.setdefault(colour, {})
            names[c["name"]] = names.get(c["name"], 0) + 1
    out = []
    for colour in COLOURS:
        names = by_colour.get(colour, {})
        if names:
            out.append(f"{colour} " + ", ".join(n if k == 1 else f"{n} x{k}" for n, k in names.items()))
    return "; ".join(out) or "none"


def investment_words(inv: dict[str, Any]) -> str:
    """``#0 Energía 2M+3M=5M down +Rendimiento Máximo 2M``, or ``#1 down, green`` when its cards are hidden."""
    side = "up" if inv["face_up"] else "down"
    if "value" not in inv:
        return f"#{inv['index']} {side}{', green' if inv['has_green'] else ''}"
    text = f"#{inv['index']} {inv['stock']['industry']} {inv['stock']['value']}M+{inv['return']['value']}M"
    text += f"={inv['value']}M {side}"
    if "green" in inv:
        text += f" +{inv['green']['name']} {inv['green_bonus']}M"
    return text


def _investments(p: dict[str, Any]) -> str:
    invs = ", ".join(investment_words(i) for i in p["investments"])
    return f"investments {invs}" if invs else "no investments"


def _known(p: dict[str, Any]) -> str:
    out = []
    for key, who in (("known_to_all", "known to all"), ("known_to_you", "known to you")):
        if key in p:
            cards = [*p[key]["hand"], *p[key]["strategies"]]
            out.append(f", {who}: " + ", ".join(card_words(c) for c in cards))
    return "".join(out)


def _name(v: dict[str, Any], card_id: str) -> str:
    for c in v.get("strategies", ()):
        if c["id"] == card_id:
            return str(c["name"])
    return card_id


def state_text(v: dict[str, Any]) -> str:
    """Return the seat's state as the lines the module docstring shows (a spectator gets no "You" line)."""
    you = v.get("you")
    t = v["turn"]
    head = f"Market Fortune {v['mode']}, turn {t['number']}/{t['limit']}: seat {t['seat']}"
    if v["win_value"] is None:
        head += "; the first to form 4 investments wins"
    lines = [head]
    if "match" in v:
        m = v["match"]
        totals = ", ".join(f"seat {s} {x}M" for s, x in enumerate(m["totals"]))
        lines.append(f"Campeonato game {m['game']}/{m['game_limit']}, match to {m['target']}M: {totals}")
    others = []
    for p in v["players"]:
        extra = f", match {p['match_total']}M" if "match_total" in p else ""
        extra += ", may not risk next turn" if p.get("no_risk_next_turn") else ""
        if p["seat"] == you:
            goal = f" of {v['win_value']}M" if v["win_value"] is not None else ""
            mine = (
                f"You: hand ($ 3M, +R +3M) {hand_words(v['hand']) or 'empty'}; strategies "
                f"{strategy_words(v['strategies'])}; {_investments(p)}; portfolio {v['portfolio_value']}M{goal}"
            )
            if "momentum_card" in v:
                mine += f"; Momentum card {_name(v, v['momentum_card'])} (not usable this turn)"
            if "drawn_card" in v:
                mine += f"; just taken with Dominar: {_name(v, v['drawn_card'])}"
            lines.append(mine + extra.replace(", ", "; "))
        else:
            others.append(
                f"Seat {p['seat']}: hand {p['hand_stock']}$ {p['hand_return']}+R, "
                f"{counted(p['strategies'], 'strategy', 'strategies')}, {_investments(p)}{_known(p)}{extra}"
            )
    lines.append(" | ".join(others))
    piles = []
    for key, label in (("stock", "$"), ("return", "+R")):
        p = v["piles"][key]
        top = p["discard_top"]
        pile = f"top {card_words(top)}" if top is not None else "blocked" if p.get("blocked") else "no discard"
        piles.append(f"{label} {p['deck']} ({pile})")
    piles.append(f"strategy {v['piles']['strategy']['deck']}")
    lines.append("Piles: " + "; ".join(piles))
    return "\n".join(lines)

"""What one seat may know (``view``), the decision prompt, and a compact text of a view (``render``).

The view is the only door out of the engine: a seat sees its own hand, strategies and
investments (with values), and of the others only what is public: counts, face-down
investments without values, face-up investments, the discard tops, deck sizes and the
events it was allowed to see.
"""

from __future__ import annotations

from typing import Any

from club_agentes.engine.core import Pending
from club_agentes.engine.market_fortune.components import CARD_ID, CARD_NAME, CARD_STRAT, card_json
from club_agentes.engine.market_fortune.rules_engine import building_count, green_bonus, inv_value, portfolio_value
from club_agentes.engine.market_fortune.state import (
    BUILD_DISCARD,
    CLOSING,
    DOMINATED,
    FORMED,
    MAIN,
    MATCH_TARGET,
    OPTIMISE_COST,
    REACTION,
    RESCUE,
    RETURN_STEP,
    TAKE,
    TRIM,
    WIN_VALUE,
    State,
)

_ATTACK_WORDS = {"cards": "the cards in hand", "investments": "investments", "turn": "the next turn"}


def prompt(st: State) -> str:
    """Return the sentence that tells the deciding seat what to decide now."""
    step = st.step
    seat = st.turn
    if step == MAIN:
        # The prompt is public: it depends only on what the table can see.
        invs = st.invs[seat]
        actions = ["Construir (build)", "Dominar (dominate)"]
        if not st.banned and len(invs) < 4:
            actions.insert(1, "Arriesgar (risk)")
        free = [] if st.red_used else ["play 1 red strategy if you hold one"]
        if any(not inv[3] for inv in invs):
            free.append("optimise a face-down investment")
        if len(invs) == 4 and st.cfg.mode != "familia":
            free.append("declare victory")
        text = f"Choose your action: {_either(actions)}"
        if free:
            text += f"; before it you may {_either(free)}"
        return text + "."
    if step == BUILD_DISCARD:
        return f"Construir: you hold {building_count(st, seat)} building cards; discard 1 $ or +R card."
    if step == OPTIMISE_COST:
        return "Pay for the optimisation: discard 1 building card from your hand."
    if step == TRIM:
        return f"Rule of 8: you hold {building_count(st, seat)} building cards at the end of your turn; discard 1."
    if step == FORMED:
        four = len(st.invs[seat]) == 4
        return (
            f"Your investment #{st.formed} is formed: attach a green strategy to it if you hold one (not the one "
            f"taken by Momentum){', declare victory' if four else ''} or skip{'' if four else ' to end your turn'}."
        )
    if step == CLOSING:
        return (
            "You declared victory: attach green strategies you hold to investments without one, or reveal your "
            "portfolio to be counted."
        )
    if step == RETURN_STEP:
        return "Your declaration failed: choose the investment that returns to your hand."
    if step == DOMINATED:
        return (
            "Dominar: if the strategy you just took is a red you can use, play it now; "
            "otherwise (or to keep it) skip, and your turn ends."
        )
    if step == TAKE:
        return "Comprar Más: choose where to take 1 building card from."
    if step == RESCUE:
        return f"Rescate: take a card from the $ or +R deck (you hold {building_count(st, seat)} of 8)."
    atk = st.attack
    assert atk is not None
    return f"Seat {atk.attacker} attacks you with {CARD_NAME[atk.card]}: defend with a blue strategy or decline."


def _either(parts: list[str]) -> str:
    """Join alternatives: ``"a"``, ``"a or b"``, ``"a, b or c"``."""
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " or " + parts[-1]


_OVER = Pending("over", (), "The game is over.")
_PENDING: dict[tuple[Any, ...], Pending] = {}


def pending(st: State) -> Pending:
    """Return who decides now and what about (Pending values are shared: they are immutable)."""
    if st.over:
        return _OVER
    step = st.step
    seat = st.turn
    # The key holds everything the prompt depends on.
    if step == MAIN:
        invs = st.invs[seat]
        key: tuple[Any, ...] = (
            step,
            seat,
            st.red_used,
            st.banned,
            len(invs),
            any(not inv[3] for inv in invs),
            st.cfg.mode == "familia",
        )
    elif step == REACTION:
        atk = st.attack
        assert atk is not None
        key = (step, atk.window.order[atk.window.index], atk.attacker, atk.card)
    elif step in (BUILD_DISCARD, TRIM, RESCUE):
        key = (step, seat, building_count(st, seat))
    elif step == FORMED:
        key = (step, seat, st.formed, len(st.invs[seat]))
    else:
        key = (step, seat)
    p = _PENDING.get(key)
    if p is None:
        if len(_PENDING) > 10_000:
            _PENDING.clear()
        polled = key[1]
        p = _PENDING[key] = Pending("reaction" if step == REACTION else "turn", (polled,), prompt(st))
    return p


def _investment(st: State, inv: list[Any], k: int, own: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"index": k, "face_up": inv[3], "has_green": inv[2] >= 0}
    if own or inv[3]:
        out["stock"] = card_json(inv[0])
        out["return"] = card_json(inv[1])
        out["value"] = inv_value(inv)
        if inv[2] >= 0:
            out["green"] = card_json(inv[2])
            out["green_bonus"] = green_bonus(inv)
    return out


def _pile(st: State, pile: int) -> dict[str, Any]:
    disc = st.discards[pile]
    blocked = bool(disc) and st.facedown[disc[-1]]
    out: dict[str, Any] = {
        "deck": len(st.decks[pile]),
        "discard_size": len(disc),
        "discard_top": card_json(disc[-1]) if disc and not blocked else None,
    }
    if pile < 2:
        out["blocked"] = blocked
    return out


def view(st: State, seat: int | None) -> dict[str, Any]:
    """Return what ``seat`` may know (``None``: the public view of a spectator)."""
    p = pending(st)
    players = []
    for s in range(st.n):
        entry: dict[str, Any] = {
            "seat": s,
            "hand": len(st.hands[s]),
            "building_cards": building_count(st, s),
            "strategies": len(st.strats[s]),
            "investments": [_investment(st, inv, k, s == seat) for k, inv in enumerate(st.invs[s])],
        }
        if st.risk_ban[s]:
            entry["no_risk_next_turn"] = True
        if st.cfg.mode == "campeonato":
            entry["match_total"] = st.totals[s]
        players.append(entry)
    out: dict[str, Any] = {
        "game": "market-fortune",
        "mode": st.cfg.mode,
        "seats": st.n,
        "you": seat,
        "turn": {
            "seat": st.turn,
            "number": st.turn_no + 1,
            "limit": st.cfg.turn_limit,
            "step": st.step,
            "action_taken": st.acted,
            "red_used": st.red_used,
            "no_risk_this_turn": st.banned,
            "lucky_investor": st.lucky,
        },
        "decision": {"kind": p.kind, "seats": list(p.seats), "prompt": p.prompt},
        "win_value": None if st.cfg.mode == "familia" else WIN_VALUE,
        "piles": {"stock": _pile(st, 0), "return": _pile(st, 1), "strategy": _pile(st, 2)},
        "players": players,
    }
    if seat is not None:
        out["hand"] = [card_json(c) for c in st.hands[seat]]
        out["strategies"] = [card_json(c) for c in st.strats[seat]]
        out["portfolio_value"] = portfolio_value(st, seat)
        if st.turn == seat and st.momentum >= 0:
            out["momentum_card"] = CARD_ID[st.momentum]
        if st.turn == seat and st.step == DOMINATED:
            out["drawn_card"] = CARD_ID[st.drawn]
        if st.turn == seat and st.formed >= 0:
            out["formed_investment"] = st.formed
    atk = st.attack
    if atk is not None:
        w = atk.window
        red = CARD_STRAT[atk.card]
        assert red is not None
        out["attack"] = {
            "attacker": atk.attacker,
            "card": card_json(atk.card),
            "attacks": _ATTACK_WORDS[red.spec.attacks],
            "targets": list(atk.targets),
            "investment": atk.investment,
            "resolved": list(w.order[: w.index]),
            "polled": w.order[w.index] if w.index < len(w.order) else None,
        }
    if st.cfg.mode == "campeonato":
        out["match"] = {
            "game": st.game_no,
            "totals": list(st.totals),
            "target": MATCH_TARGET,
            "game_limit": st.cfg.game_limit,
            "games": [dict(g) for g in st.games],
        }
    out["recent_events"] = [e.text for e in st.log if e.visible_to(seat)]
    if st.result is not None:
        r = st.result
        out["result"] = {"winners": list(r.winners), "scores": list(r.scores), "reason": r.reason, "rule": r.rule_id}
    return out


def _card_text(c: dict[str, Any]) -> str:
    if c.get("kind") == "estrategia":
        return f"{c['name']} [{c['id']}, {c['colour']}]"
    return f"{c['name']} [{c['id']}]"


def _inv_text(inv: dict[str, Any]) -> str:
    if "value" not in inv:
        return f"#{inv['index']} face down{' +green' if inv['has_green'] else ''}"
    text = f"#{inv['index']} {inv['stock']['industry']} {inv['stock']['value']}M+{inv['return']['value']}M"
    text += f"={inv['value']}M"
    if "green" in inv:
        text += f" +{inv['green']['name']}({inv['green_bonus']}M)"
    return text + (" (face up)" if inv["face_up"] else "")


def _count(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def render(v: dict[str, Any]) -> str:
    """Return a compact English text of a view, for a language model's context."""
    lines = []
    you = v.get("you")
    t = v["turn"]
    head = f"Market Fortune, mode {v['mode']}, {v['seats']} seats, turn {t['number']} of at most {t['limit']}"
    if you is not None:
        head += f"; you are seat {you}"
    lines.append(head + ".")
    if "match" in v:
        m = v["match"]
        totals = ", ".join(f"seat {s}: {x}M" for s, x in enumerate(m["totals"]))
        lines.append(
            f"Campeonato game {m['game']} (match ends at {m['target']}M or after {m['game_limit']} games); "
            f"totals {totals}."
        )
    d = v["decision"]
    lines.append(f"Decision ({d['kind']}) for seat {', '.join(str(s) for s in d['seats']) or '-'}: {d['prompt']}")
    piles = []
    for key, label in (("stock", "$"), ("return", "+R"), ("strategy", "Strategy")):
        p = v["piles"][key]
        top = _card_text(p["discard_top"]) if p["discard_top"] else ("blocked" if p.get("blocked") else "empty")
        piles.append(f"{label} deck {p['deck']}, discard {p['discard_size']} (top: {top})")
    lines.append("Piles: " + "; ".join(piles) + ".")
    for p in v["players"]:
        invs = ", ".join(_inv_text(i) for i in p["investments"]) or "none"
        me = " (you)" if p["seat"] == you else ""
        extra = f", match total {p['match_total']}M" if "match_total" in p else ""
        extra += ", may not risk next turn" if p.get("no_risk_next_turn") else ""
        lines.append(
            f"Seat {p['seat']}{me}: {_count(p['hand'], 'building card')} in hand ({p['building_cards']} with "
            f"investments), {_count(p['strategies'], 'strategy', 'strategies')}, investments: {invs}{extra}."
        )
    if you is not None:
        lines.append("Your hand: " + (", ".join(_card_text(c) for c in v["hand"]) or "empty") + ".")
        if v["strategies"]:
            lines.append("Your strategies:")
            lines.extend(f"- {_card_text(c)}: {c['effect']}" for c in v["strategies"])
        else:
            lines.append("Your strategies: none.")
        if v["win_value"] is None:
            goal = "in Familia the first to form 4 investments wins, values do not count"
        else:
            goal = f"victory needs 4 investments and {v['win_value']}M, declared"
        lines.append(f"Your portfolio value now (face values and bonuses): {v['portfolio_value']}M; {goal}.")
        names = {c["id"]: _card_text(c) for c in v["strategies"]}
        if "momentum_card" in v:
            card = names.get(v["momentum_card"], v["momentum_card"])
            lines.append(f"Momentum card (not usable this turn): {card}.")
        if "drawn_card" in v:
            card = names.get(v["drawn_card"], v["drawn_card"])
            lines.append(f"Strategy you just took with Dominar: {card}.")
    if "attack" in v:
        a = v["attack"]
        lines.append(
            f"Attack: seat {a['attacker']} plays {_card_text(a['card'])} against seats "
            f"{', '.join(str(s) for s in a['targets'])} (it hits {a['attacks']}); resolved: "
            f"{', '.join(str(s) for s in a['resolved']) or 'none'}; polled now: seat {a['polled']}."
        )
    if v["recent_events"]:
        lines.append("Recent events:")
        lines.extend(f"- {e}" for e in v["recent_events"])
    if "result" in v:
        lines.append(f"Result: {v['result']['reason']}.")
    return "\n".join(lines)

"""What one seat may know (``view``), the decision prompt, and a compact text of a view (``render``).

The view is the only door out of the engine. Every card in it comes through the visibility
rule (:func:`.knowledge.visibility`): a seat sees its own hand, strategies and investments, and
of the others everything the rules make public: hand sizes (by kind: the backs of $ and +R
cards differ), strategy counts, face-down investments without values, face-up investments with
their cards and greens, revealed yellows and any card everyone saw go into a hand, each
discard pile's visible top (or that it is blocked), the deck sizes, the attack in progress,
Campeonato games and totals, and the cards it alone was shown (Robo, Negociación).
"""

from __future__ import annotations

from typing import Any

from club_agentes.engine.core import Pending, Result
from club_agentes.engine.core.visibility import Visibility
from club_agentes.engine.market_fortune.components import (
    CARD_ID,
    CARD_INDEX,
    CARD_NAME,
    CARD_STRAT,
    CARD_TYPE,
    STOCK,
    card_json,
)
from club_agentes.engine.market_fortune.knowledge import visibility, zone_names
from club_agentes.engine.market_fortune.scoring import green_bonus, inv_value, portfolio_value
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
    Attack,
    Investment,
    State,
)
from club_agentes.engine.market_fortune.table import building_count

_ATTACK_WORDS = {"cards": "the cards in hand", "investments": "investments", "turn": "the next turn"}


def prompt(state: State) -> str:
    """Return the sentence that tells the deciding seat what to decide now (public: no hidden card in it)."""
    step = state.step
    seat = state.turn
    if step == MAIN:
        invs = state.invs[seat]
        actions = ["Construir (build)", "Dominar (dominate)"]
        if not state.banned and len(invs) < 4:
            actions.insert(1, "Arriesgar (risk)")
        free = [] if state.red_used else ["play 1 red strategy if you hold one"]
        if any(not inv.face_up for inv in invs):
            free.append("optimise a face-down investment")
        if len(invs) == 4 and state.config.mode != "familia":
            free.append("declare victory")
        text = f"Choose your action: {_either(actions)}"
        if free:
            text += f"; before it you may {_either(free)}"
        return text + "."
    if step == BUILD_DISCARD:
        return f"Construir: you hold {building_count(state, seat)} building cards; discard 1 $ or +R card."
    if step == OPTIMISE_COST:
        return "Pay for the optimisation: discard 1 building card from your hand."
    if step == TRIM:
        text = f"Rule of 8: you hold {building_count(state, seat)} building cards at the end of your turn; discard 1"
        if state.trim_by >= 0 and state.config.mode == "campeonato":
            text += " (a strategy orders these discards: the last one on each pile lies face down and blocks it)"
        return text + "."
    if step == FORMED:
        four = len(state.invs[seat]) == 4
        return (
            f"Your investment #{state.formed} is formed: attach a green strategy to it if you hold one (not the one "
            f"taken by Momentum){', declare victory' if four else ''} or skip{'' if four else ' to end your turn'}."
        )
    if step == CLOSING:
        return (
            "You declared victory: attach green strategies you hold to face-down investments without one, or reveal "
            "your portfolio to be counted."
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
        return f"Rescate: take a card from the $ or +R deck (you hold {building_count(state, seat)} of 8)."
    atk = state.attack
    assert atk is not None
    return f"Seat {atk.attacker} attacks you with {CARD_NAME[atk.card]}: defend with a blue strategy or decline."


def _either(parts: list[str]) -> str:
    """Join alternatives: ``"a"``, ``"a or b"``, ``"a, b or c"``."""
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " or " + parts[-1]


_OVER = Pending("over", (), "The game is over.")
_PENDING: dict[tuple[Any, ...], Pending] = {}


def decider(state: State) -> int:
    """Return the seat that decides now: the polled seat in a reaction window, else the seat on turn."""
    atk = state.attack
    if state.step == REACTION and atk is not None:
        w = atk.window
        return w.order[w.index]
    return state.turn


def pending(state: State) -> Pending:
    """Return who decides now and what about (Pending values are shared: they are immutable)."""
    if state.over:
        return _OVER
    step = state.step
    seat = state.turn
    # The key holds everything the prompt depends on.
    if step == MAIN:
        invs = state.invs[seat]
        down = False
        for inv in invs:
            if not inv.face_up:
                down = True
                break
        key: tuple[Any, ...] = (
            step,
            seat,
            state.red_used,
            state.banned,
            len(invs),
            down,
            state.config.mode == "familia",
        )
    elif step in (BUILD_DISCARD, RESCUE):
        key = (step, seat, building_count(state, seat))
    elif step == REACTION:
        atk = state.attack
        assert atk is not None
        key = (step, decider(state), atk.attacker, atk.card)
    elif step == TRIM:
        key = (step, seat, building_count(state, seat), state.trim_by >= 0 and state.config.mode == "campeonato")
    elif step == FORMED:
        key = (step, seat, state.formed, len(state.invs[seat]))
    else:
        key = (step, seat)
    p = _PENDING.get(key)
    if p is None:
        if len(_PENDING) > 10_000:
            _PENDING.clear()
        p = _PENDING[key] = Pending("reaction" if step == REACTION else "turn", (key[1],), prompt(state))
    return p


def _shown(vis: Visibility, seat: int | None, zone: str) -> list[str]:
    """Return the cards of a zone ``seat`` knows: all of a zone it sees (a public zone, or its own), else those
    it knows individually (:meth:`Visibility.known_in`, which gives all of a zone seen too)."""
    return vis.known_in(seat, zone)


def _cards(ids: list[str]) -> list[dict[str, Any]]:
    return [card_json(CARD_INDEX[c]) for c in ids]


def _investment(vis: Visibility, seat: int | None, owner: int, k: int, inv: Investment) -> dict[str, Any]:
    out: dict[str, Any] = {"index": k, "face_up": inv.face_up, "has_green": inv.green >= 0}
    if vis.zones[f"investment/{owner}/{k}"].seen(seat):
        out["stock"] = card_json(inv.stock)
        out["return"] = card_json(inv.ret)
        out["value"] = inv_value(inv)
        if inv.green >= 0:
            out["green"] = card_json(inv.green)
            out["green_bonus"] = green_bonus(inv)
    return out


def _pile(state: State, vis: Visibility, seat: int | None, pile: int, name: str) -> dict[str, Any]:
    disc = state.discards[pile]
    top = None
    if disc and not state.facedown[disc[-1]]:  # a face-up top card: the last card of the pile's face-up zone
        shown = vis.show(seat, f"discard/{name}")
        top = shown[-1] if isinstance(shown, list) else None
    out: dict[str, Any] = {
        "deck": len(state.decks[pile]),
        "discard_size": len(disc),
        "discard_top": card_json(CARD_INDEX[top]) if top is not None else None,
    }
    if pile < 2:
        out["blocked"] = bool(disc) and state.facedown[disc[-1]]
        down = vis.zones[f"discard/{name}/face-down"]
        out["face_down"] = len(down.cards)
        mine = vis.known_in(seat, f"discard/{name}/face-down")
        if mine:
            out["face_down_you_know"] = _cards(mine)
    return out


def view(state: State, seat: int | None) -> dict[str, Any]:
    """Return what ``seat`` may know (``None``: the public view of a spectator)."""
    vis = visibility(state)
    p = pending(state)
    players = [_player(state, vis, seat, s) for s in range(state.n)]
    out: dict[str, Any] = {
        "game": "market-fortune",
        "mode": state.config.mode,
        "seats": state.n,
        "you": seat,
        "turn": {
            "seat": state.turn,
            "number": state.turn_no + 1,
            "limit": state.config.turn_limit,
            "step": state.step,
            "action_taken": state.acted,
            "red_used": state.red_used,
            "no_risk_this_turn": state.banned,
            "lucky_investor": state.lucky,
            "momentum_taken": state.momentum >= 0,
            "discards_ordered_by_strategy": state.trim_by >= 0,
        },
        "decision": {"kind": p.kind, "seats": list(p.seats), "prompt": p.prompt},
        "win_value": None if state.config.mode == "familia" else WIN_VALUE,
        "piles": {
            "stock": _pile(state, vis, seat, 0, "stock"),
            "return": _pile(state, vis, seat, 1, "return"),
            "strategy": _pile(state, vis, seat, 2, "strategy"),
        },
        "players": players,
    }
    if seat is not None:
        _own(state, vis, seat, out)
    if state.attack is not None:
        out["attack"] = _attack(state, vis, seat, state.attack)
    if state.config.mode == "campeonato":
        out["match"] = {
            "game": state.game_no,
            "totals": list(state.totals),
            "target": MATCH_TARGET,
            "game_limit": state.config.game_limit,
            "games": [dict(g) for g in state.games],
        }
    if state.result is not None:
        out["result"] = _result(state.result)
    return out


_IS_STOCK = [t == STOCK for t in CARD_TYPE]


def _player(state: State, vis: Visibility, seat: int | None, s: int) -> dict[str, Any]:
    """Return what ``seat`` may know of seat ``s``: counts, investments, and the cards of it known to all or to it."""
    hand = state.hands[s]
    stocks = sum(map(_IS_STOCK.__getitem__, hand))
    entry: dict[str, Any] = {
        "seat": s,
        "hand": len(hand),
        "hand_stock": stocks,
        "hand_return": len(hand) - stocks,
        "building_cards": building_count(state, s),
        "strategies": len(state.strats[s]),
        "investments": [_investment(vis, seat, s, k, inv) for k, inv in enumerate(state.invs[s])],
    }
    hand_zone, public_hand_zone, strats_zone, public_strats_zone = zone_names(s)
    public_hand = _shown(vis, seat, public_hand_zone)
    public_strats = _shown(vis, seat, public_strats_zone)
    if public_hand or public_strats:
        entry["known_to_all"] = {"hand": _cards(public_hand), "strategies": _cards(public_strats)}
    if s != seat and seat is not None:
        mine_hand = vis.known_in(seat, hand_zone)
        mine_strats = vis.known_in(seat, strats_zone)
        if mine_hand or mine_strats:
            entry["known_to_you"] = {"hand": _cards(mine_hand), "strategies": _cards(mine_strats)}
    if state.risk_ban[s]:
        entry["no_risk_next_turn"] = True
    if state.config.mode == "campeonato":
        entry["match_total"] = state.totals[s]
        entry["games_won"] = sum(1 for g in state.games if s in g["winners"])
    return entry


def _own(state: State, vis: Visibility, seat: int, out: dict[str, Any]) -> None:
    """Add to ``out`` what only ``seat`` is shown: its hand, strategies, count, and its turn's cards."""
    hand_zone, public_hand_zone, strats_zone, public_strats_zone = zone_names(seat)
    index = CARD_INDEX.__getitem__
    own_hand = sorted(map(index, [*vis.known_in(seat, hand_zone), *vis.known_in(seat, public_hand_zone)]))
    own_strats = sorted(map(index, [*vis.known_in(seat, strats_zone), *vis.known_in(seat, public_strats_zone)]))
    out["hand"] = [card_json(c) for c in own_hand]
    out["strategies"] = [card_json(c) for c in own_strats]
    out["portfolio_value"] = portfolio_value(state, seat)
    if state.turn == seat and state.momentum >= 0:
        out["momentum_card"] = CARD_ID[state.momentum]
    if state.turn == seat and state.step == DOMINATED:
        out["drawn_card"] = CARD_ID[state.drawn]
    if state.turn == seat and state.formed >= 0:
        out["formed_investment"] = state.formed


def _attack(state: State, vis: Visibility, seat: int | None, atk: Attack) -> dict[str, Any]:
    """Return the attack being answered, as ``seat`` sees its card."""
    w = atk.window
    red = CARD_STRAT[atk.card]
    assert red is not None
    shown = vis.card(seat, CARD_ID[atk.card])
    assert shown is not None
    return {
        "attacker": atk.attacker,
        "card": card_json(CARD_INDEX[shown]),
        "attacks": _ATTACK_WORDS[red.spec.attacks],
        "targets": list(atk.targets),
        "investment": atk.investment,
        "resolved": list(w.order[: w.index]),
        "polled": w.order[w.index] if w.index < len(w.order) else None,
    }


def _result(r: Result) -> dict[str, Any]:
    """Return the result of a finished table, with each seat's breakdown."""
    return {
        "winners": list(r.winners),
        "scores": list(r.scores),
        "reason": r.reason,
        "rule": r.rule_id,
        "breakdown": [
            {
                "seat": b.seat,
                "total": b.total,
                "unit": b.unit,
                "lines": [{"label": ln.label, "amount": ln.amount, "rule": ln.rule_id} for ln in b.lines],
            }
            for b in r.breakdown
        ],
    }


# ---------------------------------------------------------------------------- text


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


def _amount(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


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
    lines.append(_piles_text(v["piles"]))
    for p in v["players"]:
        lines.extend(_player_text(p, you))
    if you is not None:
        lines.extend(_own_text(v))
    if "attack" in v:
        a = v["attack"]
        lines.append(
            f"Attack: seat {a['attacker']} plays {_card_text(a['card'])} against seats "
            f"{', '.join(str(s) for s in a['targets'])} (it hits {a['attacks']}); resolved: "
            f"{', '.join(str(s) for s in a['resolved']) or 'none'}; polled now: seat {a['polled']}."
        )
    if "result" in v:
        r = v["result"]
        lines.append(f"Result: {r['reason']} [{r['rule']}].")
        for b in r["breakdown"]:
            parts = ", ".join(f"{ln['label']} {_amount(ln['amount'])}" for ln in b["lines"]) or "nothing"
            lines.append(f"- seat {b['seat']}: {_amount(b['total'])} {b['unit']} = {parts}.")
    return "\n".join(lines)


def _piles_text(piles: dict[str, Any]) -> str:
    """The line of the three piles: deck sizes, discard sizes and tops."""
    out = []
    for key, label in (("stock", "$"), ("return", "+R"), ("strategy", "Strategy")):
        p = piles[key]
        top = _card_text(p["discard_top"]) if p["discard_top"] else ("blocked" if p.get("blocked") else "empty")
        down = f", {p['face_down']} face down" if p.get("face_down") else ""
        out.append(f"{label} deck {p['deck']}, discard {p['discard_size']} (top: {top}{down})")
    return "Piles: " + "; ".join(out) + "."


def _player_text(p: dict[str, Any], you: int | None) -> list[str]:
    """The lines of one seat: its counts and investments, then the cards of it known to all or to you."""
    invs = ", ".join(_inv_text(i) for i in p["investments"]) or "none"
    me = " (you)" if p["seat"] == you else ""
    extra = f", match total {p['match_total']}M ({_count(p['games_won'], 'game')} won)" if "match_total" in p else ""
    extra += ", may not risk next turn" if p.get("no_risk_next_turn") else ""
    lines = [
        f"Seat {p['seat']}{me}: {_count(p['hand'], 'building card')} in hand ({p['hand_stock']} $, "
        f"{p['hand_return']} +R; {p['building_cards']} with investments), "
        f"{_count(p['strategies'], 'strategy', 'strategies')}, investments: {invs}{extra}."
    ]
    for key, who in (("known_to_all", "known to all"), ("known_to_you", "known to you")):
        if key in p:
            known = [*p[key]["hand"], *p[key]["strategies"]]
            lines.append(f"  {who}: " + ", ".join(_card_text(c) for c in known) + ".")
    return lines


def _own_text(v: dict[str, Any]) -> list[str]:
    """The lines only the seat is shown: its hand, strategies, portfolio value and goal, and its turn's cards."""
    lines = ["Your hand: " + (", ".join(_card_text(c) for c in v["hand"]) or "empty") + "."]
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
    return lines

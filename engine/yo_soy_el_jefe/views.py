"""What one seat may know (:func:`build_view`) and its text form (:func:`render`); every card list of a view
goes through the knowledge of every card (:func:`.knowledge.visibility`, which the leak tests read too).

A view shows the seat's own hand and exact money, and everything the rules make public: every seat's
investor cards, hand size, the cards it has shown or used, the family cards it took back face up, and
the size of its money pile (ruling ``dinero-a-la-vista``); the board, the closed deals with their payouts
and what was paid, the bank's payouts; the open negotiation (boss, space, prices standing, agreements,
placed and travelled cards, the last change and who has answered it); a card waiting for stop cards.
It never shows another hand's hidden cards, the deck order, or another seat's money exactly.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from club_agentes.engine.core import Game, Result
from club_agentes.engine.core.visibility import Visibility
from club_agentes.engine.yo_soy_el_jefe.components import KIND_LABELS, components
from club_agentes.engine.yo_soy_el_jefe.knowledge import CARD_IDS, visibility
from club_agentes.engine.yo_soy_el_jefe.state import (
    ASKED,
    CARD_INDEX,
    CARDS,
    COLOURS,
    NSLOTS,
    PROPOSED,
    SLOT_KIND,
    SPACES,
    STATUS_NAMES,
)
from club_agentes.engine.yo_soy_el_jefe.state import State as _State
from club_agentes.engine.yo_soy_el_jefe.steps.deal import current_group, current_missing
from club_agentes.engine.yo_soy_el_jefe.steps.influence import stop_words
from club_agentes.engine.yo_soy_el_jefe.steps.negotiation import deciding, quiet, to_answer
from club_agentes.engine.yo_soy_el_jefe.words import CARD_LABEL

FAMILIES = components().families
MONEY_PILES: tuple[tuple[int, str], ...] = (
    (0, "no money"),
    (1, "a small pile (1M to 19M)"),
    (20, "a medium pile (20M to 49M)"),
    (50, "a large pile (50M to 99M)"),
    (100, "a huge pile (100M or more)"),
)
HISTORY_SHOWN = 8
NEEDS: tuple[str, ...] = tuple(sp.describe() for sp in SPACES)
CARD_KIND: tuple[str, ...] = tuple(c.kind for c in CARDS)
_CARD_JSON: tuple[dict[str, Any], ...] = tuple(c.to_json() for c in CARDS)
SLOT_LABEL: tuple[str, ...] = tuple(f"{k} {c}" if c else k for k, c in SLOT_KIND)
BANK = "the bank never runs short (ruling banquero): it pays every payout"


def money_pile(amount: int) -> str:
    """Return what the other seats see of a money pile of ``amount`` millions (ruling ``dinero-a-la-vista``)."""
    label = MONEY_PILES[0][1]
    for low, text in MONEY_PILES:
        if amount >= low:
            label = text
    return label


def card_names() -> dict[str, str]:
    """Return every card id -> its printed name (influence, investor and deal cards)."""
    names = {c.id: c.name for c in CARDS}
    names.update({f.investor_id: f"Inversor {f.id}" for f in FAMILIES})
    names.update({c.id: f"Carta de negociación #{c.number}" for c in components().deal_cards})
    return names


def _card(card_id: str) -> dict[str, Any]:
    return dict(_CARD_JSON[CARD_INDEX[card_id]])


def _holder(owner: int) -> int | str:
    return owner if owner >= 0 else "beside the board"


def _used(counts: list[int]) -> dict[str, int]:
    return {SLOT_LABEL[i]: counts[i] for i in range(NSLOTS) if counts[i]}


def build_view(game: Game[Any, Any, Any], state: _State, seat: int | None) -> dict[str, Any]:
    """Return the JSON view of ``state`` for ``seat`` (``None``: a spectator), every card list through
    :func:`.knowledge.visibility`."""
    pending = game.pending(state)
    vis = visibility(state)
    mine = seat is not None and seat in pending.seats
    n = state.n
    players = [_player(state, vis, seat, s) for s in range(n)]
    own = vis.show(seat, f"hand/{seat}") if seat is not None else []
    discard = vis.show(seat, "discard")
    assert isinstance(discard, list)
    view: dict[str, Any] = {
        "game": game.id,
        "you": seat,
        "seats": n,
        "options": state.cfg.to_json(),
        "phase": state.phase,
        "decision": {"kind": pending.kind, "seats": list(pending.seats), "prompt": pending.prompt},
        "your_decision": pending.prompt if mine else None,
        "acting_out_of_turn": bool(mine and pending.kind == "reaction" and seat != _on_turn(state)),
        "first_player": state.first_player,
        "turn": state.turn if state.phase != "marker" else None,
        "turns_played": state.turns_played,
        "failed_in_a_row": state.failed_in_a_row,
        "failed_negotiations_limit": state.cfg.failed_negotiations_limit,
        "deals_done": state.deals_done,
        "deal_cards_left": len(state.deal_deck),
        "next_deal_card": state.deal_deck[0].to_json() if state.deal_deck else None,
        "marker": state.marker + 1 if state.marker >= 0 else None,
        "last_roll": state.last_roll,
        "hand_limit": state.hand_limit(),
        "marker_space": SPACES[state.marker].to_json() if state.marker >= 0 else None,
        "board": [
            {"space": sp.number, "dividends": sp.dividends, "needs": NEEDS[i], "covered_by": state.covered[i] or None}
            for i, sp in enumerate(SPACES)
        ],
        "investors": [
            {"colour": c, "id": FAMILIES[i].investor_id, "holder": _holder(state.owner[i])}
            for i, c in enumerate(COLOURS)
        ],
        "players": players,
        "hand": [_card(c) for c in own] if isinstance(own, list) else [],
        "deck_count": len(state.deck),
        "discard_count": len(discard),
        "discard_top": _card(discard[-1]) if discard else None,
        "discard_by_kind": dict(sorted(Counter(CARD_KIND[c] for c in state.discard).items())),
        "discard_by_card": dict(sorted(Counter(CARD_LABEL[c] for c in state.discard).items())),
        "bank": {"paid_out": sum(d.payout for d in state.deals), "remaining": BANK},
        "deals": [d.to_json() for d in state.deals],
        "negotiation": _negotiation(state) if state.neg is not None else None,
        "card_waiting_for_stops": _stop(state),
        "last_deal": _copy(state.last_deal),
    }
    if state.phase == "over":
        result = game.result(state)
        assert result is not None
        view["result"] = _result(state, result)
    return view


def _player(state: _State, vis: Visibility, seat: int | None, s: int) -> dict[str, Any]:
    """Return what ``seat`` may know of seat ``s``: investors, hand size, the cards of it it knows, money."""
    zone = f"hand/{s}"
    shown = vis.show(seat, zone)
    entry: dict[str, Any] = {
        "seat": s,
        "investors": [COLOURS[c] for c in state.investors_of(s)],
        "hand_count": len(shown) if isinstance(shown, list) else shown.count,
        "known_cards": [] if s == seat else [_card(c) for c in vis.known_in(seat, zone)],
        "used": _used(state.used_by[s]),
        "money_pile": money_pile(state.money[s]),
    }
    if s == seat:
        entry["money"] = state.money[s]
    return entry


def _result(state: _State, result: Result) -> dict[str, Any]:
    """Return the result of a finished game, with every seat's money and breakdown."""
    return {
        "winners": list(result.winners),
        "money": list(state.money),
        "reason": result.reason,
        "rule_id": result.rule_id,
        "breakdown": [
            {
                "seat": b.seat,
                "total": b.total,
                "unit": b.unit,
                "lines": [{"label": x.label, "amount": x.amount, "rule_id": x.rule_id} for x in b.lines],
            }
            for b in result.breakdown
        ],
    }


def _on_turn(state: _State) -> int | None:
    if state.neg is not None:
        return state.neg.boss
    if state.phase in ("turn", "after_roll"):
        return state.turn
    return None


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def _stop(state: _State) -> dict[str, Any] | None:
    stop = state.stop
    if stop is None:
        return None
    detail: dict[str, Any]
    if stop.kind == "travel":
        target, seat, colour = stop.payload
        detail = {"target": target, "seat": seat, "colour": COLOURS[colour]}
    elif stop.kind == "hire":
        detail = {"colour": COLOURS[stop.payload[0]], "holder": _holder(state.owner[stop.payload[0]])}
    else:
        detail = {"restart": stop.payload[0]}
    return {
        "played_by": stop.player,
        "kind": stop.kind,
        **detail,
        "what": stop_words(state, stop),
        "cards": [_card(CARD_IDS[c]) for c in stop.cards],
        "passed": sorted(stop.passed),
        "still_to_answer": list(stop.waiting()),
    }


def _repeated(counts: dict[int, int]) -> list[int]:
    return [m for m, k in sorted(counts.items()) for _ in range(k)]


def _negotiation(state: _State) -> dict[str, Any]:
    neg = state.neg
    assert neg is not None
    space = SPACES[neg.space]
    parts, complete = current_group(state)
    promised = neg.agreed_total()
    naming = neg.naming
    calm = quiet(neg, state.n)
    return {
        "space": space.to_json(),
        "deal_card": neg.card.number,
        "dividend_value": neg.value,
        "dividends": neg.dividends,
        "payout": neg.payout,
        "boss": neg.boss,
        "turn_of": neg.turn_seat,
        "travelled_investors": [
            {"colour": COLOURS[c], "holder": _holder(state.owner[c]), "travel_card": CARD_IDS[t]}
            for c, t in sorted(neg.travelled.items())
        ],
        "placed_family_cards": [
            {"seat": s, "colour": COLOURS[c], "card": CARD_IDS[k]} for (s, c), k in sorted(neg.placed.items())
        ],
        "prices": [
            {
                "seat": s,
                "colour": COLOURS[c],
                "status": STATUS_NAMES[q.status],
                "named_by": s if q.status == ASKED else neg.boss if q.status == PROPOSED else None,
                "millions": q.millions,
                "named_as": q.named_as(),
            }
            for (s, c), q in sorted(neg.quotes.items())
        ],
        "prices_named_under_this_boss": [
            {
                "by": a,
                "seat": s,
                "colour": COLOURS[c],
                "millions": [m for m, k in sorted(counts.items()) for _ in range(k)],
            }
            for (a, s, c), counts in sorted(neg.named.items())
        ],
        "promised": promised,
        "room_left": neg.payout - promised,
        "group_if_closed_now": [
            {"seat": p.seat, "colour": COLOURS[p.colour], "as": p.how, "price": p.price} for p in parts
        ],
        "complete": complete,
        "missing": current_missing(state) or None,
        "last_change": {"by": neg.last_actor, "what": neg.last_act},
        "passed": sorted(neg.passed),
        "may_act": list(deciding(neg, state.n)) if naming is None else [naming.actor],
        "to_answer_before_close": to_answer(neg, state.n),
        "boss_may_close": bool(naming is None and calm and complete),
        "price_being_named": (
            {"by": naming.actor, "for_seat": naming.seat, "colour": COLOURS[naming.colour]} if naming else None
        ),
        "price_range": {"millions": [1, neg.payout], "dividends": [1, neg.dividends]},
        "used_influence": sorted(neg.used),
        "history": neg.history[-HISTORY_SHOWN:],
    }


# --------------------------------------------------------------------------- text


def _hand_words(hand: list[dict[str, Any]]) -> str:
    groups = Counter((c["kind"], c["colour"]) for c in hand)
    words = []
    for (kind, colour), k in sorted(groups.items(), key=lambda kv: (kv[0][0], kv[0][1] or "")):
        label = KIND_LABELS[kind].split(" (")[0].replace(" card", "")
        words.append(f"{label}{' ' + colour if colour else ''}" + (f" x{k}" if k > 1 else ""))
    return ", ".join(words) or "no cards"


def _counts(counts: dict[str, int]) -> str:
    return ", ".join(f"{label} x{k}" if k > 1 else label for label, k in counts.items())


def render(view: dict[str, Any]) -> str:
    """Return a compact English text of a view (built only from the view), for a language model."""
    you = view["you"]
    lines = []
    who = f"you are seat {you}" if you is not None else "spectator"
    deal = _deal_card_words(view["next_deal_card"])
    lines.append(
        f"Yo soy el jefe, {view['seats']} seats, {who}. Deals done {view['deals_done']} ({deal}); failed in a row "
        f"{view['failed_in_a_row']}/{view['failed_negotiations_limit']}."
    )
    if view["marker"] is not None:
        sp = view["board"][view["marker"] - 1]
        lines.append(f"Marker on space {view['marker']}: {sp['dividends']} dividends, needs {sp['needs']}.")
    free = [f"{b['space']} ({b['dividends']}d: {b['needs']})" for b in view["board"] if not b["covered_by"]]
    lines.append(f"Free spaces: {'; '.join(free)}.")
    lines.append("Players: " + " | ".join(_player_words(p, you) for p in view["players"]) + ".")
    beside = [i["colour"] for i in view["investors"] if i["holder"] == "beside the board"]
    if beside:
        lines.append(f"Investors beside the board: {', '.join(beside)}.")
    if you is not None:
        lines.append(f"Your hand ({len(view['hand'])}/{view['hand_limit']}): {_hand_words(view['hand'])}.")
    discards = _counts(view["discard_by_card"])
    lines.append(
        f"Deck {view['deck_count']} cards, discard {view['discard_count']}" + (f" ({discards})." if discards else ".")
    )
    neg = view["negotiation"]
    if neg is not None:
        lines += _render_negotiation(neg)
    stop = view["card_waiting_for_stops"]
    if stop is not None:
        left = ", ".join(f"seat {s}" for s in stop["still_to_answer"])
        lines.append(f"Waiting for stop cards: {stop['what']} (still to answer: {left}).")
    last = view["last_deal"]
    if last is not None and neg is None:
        lines.append(_last_deal_words(last))
    lines += _ending_words(view)
    return "\n".join(lines)


def _deal_card_words(nxt: dict[str, Any] | None) -> str:
    """Words for the next deal card: its dividend, the rolls that end the game on it, whether it is the last."""
    if not nxt:
        return "no deal card left"
    return (
        f"next deal card #{nxt['number']}: {nxt['dividend']}M per dividend"
        + (f", ends on a roll of {'/'.join(str(x) for x in nxt['end_numbers'])}" if nxt["end_numbers"] else "")
        + (", the last card" if nxt["final"] else "")
    )


def _player_words(p: dict[str, Any], you: int | None) -> str:
    """Words for one seat: investors, hand size and the cards of it known, money, cards used."""
    money = f"{p['money']}M" if "money" in p else p["money_pile"]
    tag = " (you)" if p["seat"] == you else ""
    known = f"; known in hand: {_hand_words(p['known_cards'])}" if p["known_cards"] else ""
    used = f"; used: {_counts(p['used'])}" if p["used"] else ""
    return (
        f"seat {p['seat']}{tag}: investors {', '.join(p['investors']) or 'none'}; "
        f"{p['hand_count']} card{'' if p['hand_count'] == 1 else 's'}{known}; {money}{used}"
    )


def _last_deal_words(last: dict[str, Any]) -> str:
    """Words for the last deal: failed, or who got and paid what."""
    if last["failed"]:
        return f"Last deal on space {last['space']} failed (boss seat {last['boss']})."
    paid = ", ".join(f"{a}M to seat {s}" for s, _c, _h, a in last["paid"]) or "nothing to others"
    return f"Last deal: space {last['space']}, boss seat {last['boss']} got {last['payout']}M and paid {paid}."


def _ending_words(view: dict[str, Any]) -> list[str]:
    """The closing lines: the result once over, else the seat's own decision, else whom the table waits for."""
    if "result" in view:
        result = view["result"]
        money = ", ".join(f"seat {s} {m}M" for s, m in enumerate(result["money"]))
        lines = [f"Game over: {result['reason']} Final money: {money}."]
        for b in result["breakdown"]:
            detail = "; ".join(f"{x['label']} {x['amount']:+g}M" for x in b["lines"]) or "no money"
            lines.append(f"  seat {b['seat']}: {b['total']:g}M = {detail}.")
        return lines
    if view["your_decision"]:
        tag = " (out of turn)" if view["acting_out_of_turn"] else ""
        return [f"Your decision{tag}: {view['your_decision']}"]
    decision = view["decision"]
    who = " and ".join(f"seat {s}" for s in decision["seats"])
    how = " (out of turn)" if decision["kind"] == "reaction" else ""
    return [
        f'Waiting for {who}{how}, which {"are" if len(decision["seats"]) > 1 else "is"} told: "{decision["prompt"]}"'
    ]


def _render_negotiation(neg: dict[str, Any]) -> list[str]:
    sp = neg["space"]
    lines = [
        f"Negotiation on space {sp['space']}: {neg['dividends']} x {neg['dividend_value']}M = {neg['payout']}M; "
        f"boss seat {neg['boss']}; promised {neg['promised']}M; "
        + ("complete now." if neg["complete"] else f"missing {neg['missing']}.")
    ]
    if neg["travelled_investors"]:
        lines.append(
            "Travelled: " + ", ".join(f"{t['colour']} of seat {t['holder']}" for t in neg["travelled_investors"]) + "."
        )
    if neg["placed_family_cards"]:
        lines.append(
            "Family cards placed: "
            + ", ".join(f"{f['colour']} by seat {f['seat']}" for f in neg["placed_family_cards"])
            + "."
        )
    if neg["prices"]:
        lines.append(
            "Prices: "
            + "; ".join(f"seat {p['seat']} {p['colour']} {p['named_as']} ({p['status']})" for p in neg["prices"])
            + "."
        )
    passed = ", ".join(f"seat {s}" for s in neg["passed"]) or "nobody"
    lines.append(
        f"Last change: {neg['last_change']['what']} (by seat {neg['last_change']['by']}); passed since: {passed}; "
        + ("the boss may close." if neg["boss_may_close"] else "the boss may not close yet.")
    )
    if neg["history"]:
        lines.append("Recent: " + " / ".join(neg["history"][-5:]))
    return lines

"""The seat's state in a few compact lines, for the text of every decision (built from the view only).

One format, read top to bottom (an example: seat 0, the boss of a negotiation; each line is one line of
text, wrapped here)::

    Yo soy el jefe, 3 seats; deals done 0, next deal card #1 (1M per dividend); failed in a row 6/120
    You: 0M; investors rojo, amarillo; hand 6/12: Familia amarillo, Familia naranja x2, Viaje amarillo, Empleo x2
    Seat 1: investors rosa; 2 cards (known: Familia rosa); no money | Seat 2: investors azul, naranja, verde;
      3 cards; no money
    Marker on space 4 (4 dividends, needs rojo, naranja + 1 of azul/rosa); deck 74, discard 13
    Deal on space 4: 4 x 1M = 4M, boss seat 0, promised 0M; if closed now: seat 0 rojo (missing naranja, 1 of
      azul/rosa); prices: seat 2 naranja 3M proposed by seat 0

Influence cards are named as printed (``Familia rojo``, ``Viaje gris``, ``Empleo``, ``Parada``,
``Jefe``), repeats counted (``Empleo x2``); the hand shows its limit. Money: the seat's own in
millions, the others' as the piles they show (ruling ``dinero-a-la-vista``). In a deal: every
standing price (who asked or proposed it, for which colour), the group that would take part if the
boss closed now with what each is promised, the family cards placed and the investors travelled;
then a card waiting for stop cards. The free spaces of the board, the cards each seat has played and
the discard pile are in ``get_view(full=true)`` and the structured content.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from club_agentes.engine.core.text import counted


def cards_words(cards: list[dict[str, Any]]) -> str:
    """``Familia naranja x2, Viaje azul, Empleo x2, Parada`` (printed names, repeats counted)."""
    names = Counter(str(c.get("name") or c.get("kind")) for c in cards)
    return ", ".join(n if k == 1 else f"{n} x{k}" for n, k in names.items()) or "no cards"


def _group(neg: dict[str, Any]) -> str:
    """``seat 2 azul, naranja; seat 0 Familia naranja 1M``: who takes part if the boss closes now, at what price."""
    parts: dict[int, list[str]] = {}
    for p in neg["group_if_closed_now"]:
        what = f"Familia {p['colour']}" if p["as"] == "family" else p["colour"]
        if p["as"] == "forced":
            what += " (forced)"
        parts.setdefault(p["seat"], []).append(what + (f" {p['price']}M" if p["price"] else ""))
    return "; ".join(f"seat {s} {', '.join(w)}" for s, w in parts.items()) or "nobody"


def negotiation_words(neg: dict[str, Any]) -> str:
    """The deal in progress in one line: payout, boss, promised money, prices, the group, cards played on it."""
    sp = neg["space"]
    text = (
        f"Deal on space {sp['space']}: {neg['dividends']} x {neg['dividend_value']}M = {neg['payout']}M, "
        f"boss seat {neg['boss']}, promised {neg['promised']}M; if closed now: {_group(neg)}"
        + ("" if neg["complete"] else f" (missing {neg['missing']})")
    )
    if neg["prices"]:
        text += "; prices: " + ", ".join(
            f"seat {p['seat']} {p['colour']} {p['named_as']} {p['status']}"
            + (f" by seat {p['named_by']}" if p["status"] != "agreed" and p["named_by"] is not None else "")
            for p in neg["prices"]
        )
    if neg["placed_family_cards"]:
        text += "; placed: " + ", ".join(
            f"Familia {f['colour']} by seat {f['seat']}" for f in neg["placed_family_cards"]
        )
    if neg["travelled_investors"]:
        text += "; travelled: " + ", ".join(
            f"{t['colour']} of {'seat ' + str(t['holder']) if isinstance(t['holder'], int) else t['holder']}"
            for t in neg["travelled_investors"]
        )
    return text


def state_text(v: dict[str, Any]) -> str:
    """Return the seat's state as the lines the module docstring shows (a spectator gets no "You" line)."""
    you = v.get("you")
    nxt = v["next_deal_card"]
    deal = f"next deal card #{nxt['number']} ({nxt['dividend']}M per dividend)" if nxt else "no deal card left"
    if nxt and nxt["end_numbers"]:
        deal = deal[:-1] + f", ends the game on a roll of {'/'.join(str(x) for x in nxt['end_numbers'])})"
    lines = [
        f"Yo soy el jefe, {v['seats']} seats; deals done {v['deals_done']}, {deal}; "
        f"failed in a row {v['failed_in_a_row']}/{v['failed_negotiations_limit']}"
    ]
    others = []
    for p in v["players"]:
        investors = f"investors {', '.join(p['investors']) or 'none'}"
        if p["seat"] == you:
            hand = f"hand {len(v['hand'])}/{v['hand_limit']}: {cards_words(v['hand'])}"
            lines.append(f"You: {p['money']}M; {investors}; {hand}")
        else:
            known = f" (known: {cards_words(p['known_cards'])})" if p["known_cards"] else ""
            cards = counted(p["hand_count"], "card")
            others.append(f"Seat {p['seat']}: {investors}; {cards}{known}; {p['money_pile']}")
    lines.append(" | ".join(others))
    board = []
    if v["marker"] is not None:
        sp = v["board"][v["marker"] - 1]
        board.append(f"Marker on space {v['marker']} ({sp['dividends']} dividends, needs {sp['needs']})")
    board.append(f"deck {v['deck_count']}, discard {v['discard_count']}")
    beside = [i["colour"] for i in v["investors"] if i["holder"] == "beside the board"]
    if beside:
        board.append(f"investors beside the board: {', '.join(beside)}")
    lines.append("; ".join(board))
    if v["negotiation"] is not None:
        lines.append(negotiation_words(v["negotiation"]))
    stop = v["card_waiting_for_stops"]
    if stop is not None:
        left = ", ".join(f"seat {s}" for s in stop["still_to_answer"])
        lines.append(f"Waiting for stop cards: {stop['what']} (still to answer: {left})")
    return "\n".join(lines)

"""The seat's state in a few compact lines, for the text of every decision (built from the view only).

One format, read top to bottom (an example: seat 2 in round 7, phase Asentar; each line is one line of
text, wrapped here)::

    Se Vende, round 7/40, Asentar; supply 49, chip pool 34 VP
    You: 3 VP; hand 4 (cost/VP): mundos Estación Brasa 1/1, Fábrica de Juguetes Flotantes 1/1 producción
      novedad, Vivero de Esporas 3/2 producción genes; desarrollos Oficina de Patentes 1/1; tableau 2: Archivo
      Kepler, Anillo de Hielo [novedad]; sealed: place Estación Brasa
    Seat 0: 1 VP, hand 8, tableau 2 | Seat 1: 7 VP, hand 3, tableau 3, goods 2, Militar 1
    Actions: seat 0 Producir, seat 1 Explorar +5, seat 2 Asentar; phases left: Producir

The hand is grouped by kind, each card its name and ``cost/VP`` (a military world: ``defence/VP``),
and for a windfall (caída) or production world the kind of good it takes; a tableau world that holds
a good shows it in brackets. Then the seat's own step: its sealed choice, how many cards it drew
exploring (each is a keep move, named and described there), what it still owes or must discard, the
consume power in use. Of the others: VP (chips included), hand and tableau sizes, goods and Militar
(when not 0). Powers, and the other seats' tableaux card by card, are in ``get_view(full=true)`` and
the structured content.
"""

from __future__ import annotations

from typing import Any

from club_agentes.engine.se_vende.cards import GOOD_NAMES

_WORLD_WORDS = {"windfall": "caída", "production": "producción"}


def kind_words(c: dict[str, Any]) -> str:
    """``mundo 2, 2 VP``, ``mundo 5 caída tecnología alienígena, 3 VP``, ``mundo militar 1, 1 VP``,
    ``desarrollo 3, 2 VP``: a card's kind and VP in short."""
    if c.get("type") == "development":
        kind = f"desarrollo {c['cost']}"
    else:
        kind = f"mundo militar {c['defence']}" if c.get("military") else f"mundo {c['cost']}"
        world = _WORLD_WORDS.get(str(c.get("world")))
        if world and c.get("good_kind"):
            kind += f" {world} {GOOD_NAMES[c['good_kind']]}"
    return f"{kind}, {c['vp']} VP"


def hand_words(cards: list[dict[str, Any]]) -> str:
    """``mundos Anillo de Hielo 2/2, Jungla 3/2 caída genes; militares Puesto Fronterizo 1/1; desarrollos ...``.

    Cards by kind, each with its cost (a military world: its defence) and VP, ``cost/VP``, and for a
    windfall (caída) or production world the kind of good it takes.
    """
    groups: dict[str, list[str]] = {"mundos": [], "mundos militares (defence/VP)": [], "desarrollos": []}
    for c in cards:
        if c.get("type") == "development":
            groups["desarrollos"].append(f"{c['name']} {c['cost']}/{c['vp']}")
            continue
        military = bool(c.get("military"))
        text = f"{c['name']} {c['defence'] if military else c['cost']}/{c['vp']}"
        world = _WORLD_WORDS.get(str(c.get("world")))
        if world and c.get("good_kind"):
            text += f" {world} {GOOD_NAMES[c['good_kind']]}"
        groups["mundos militares (defence/VP)" if military else "mundos"].append(text)
    return "; ".join(f"{kind} {', '.join(names)}" for kind, names in groups.items() if names)


def _tableau_words(c: dict[str, Any]) -> str:
    good = f" [{GOOD_NAMES[c['good']]}]" if c.get("good") else ""
    new = " (new: powers from the next phase)" if c.get("powers_start_next_phase") else ""
    return f"{c['name']}{good}{new}"


def _mine(v: dict[str, Any]) -> list[str]:
    """The seat's own step details: sealed choices, cards drawn, cards still owed, powers in use."""
    out = []
    a = v.get("actions", {})
    if v["step"] == "choose_action" and a.get("mine"):
        out.append(f"sealed: {a['mine']['name']}")
    mine = v.get("mine") or {}
    if "drawn" in mine:  # each drawn card is a keep move, named and described there
        out.append(f"drawn {len(mine['drawn'])}, to keep {mine['keep_left']} (the keep moves)")
    if mine.get("discard_left"):
        out.append(f"to discard: {mine['discard_left']}")
    if mine.get("placement_sealed"):
        placed = mine.get("placement")
        out.append(f"sealed: place {placed['name'] if placed else 'nothing'}")
    if mine.get("development_discount"):
        out.append(f"developments cost {mine['development_discount']} less")
    if mine.get("world_discount"):
        out.append(f"worlds cost {mine['world_discount']} less")
    if mine.get("pay_left"):
        card = mine.get("paying_for") or {}
        out.append(f"paying for {card.get('name')}: {mine['pay_left']} more")
    c = mine.get("consume")
    if c:
        if c["must_sell_first"]:
            out.append("Comercio: sell one good first")
        if c["double_vp"]:
            out.append("2x PV: consume points doubled")
        if c["in_use"]:
            u = c["in_use"]
            out.append(f"power in use {u['card']} #{u['power']}: {u['text']} ({u['left']} left)")
    if "windfall_production" in mine:
        w = mine["windfall_production"]
        kind = "any" if w["kind"] == "any" else GOOD_NAMES[w["kind"]]
        out.append(f"windfall production ({kind}) by {w['by']}")
    return out


def state_text(v: dict[str, Any]) -> str:
    """Return the seat's state as the lines the module docstring shows (a spectator gets no "You" line)."""
    me = v.get("you")
    phase = f", {v['phase']}" if v.get("phase") else ""
    head = f"Se Vende, round {v['round']}/{v['turn_limit']}{phase}"
    tens = ", the 10s joined" if v["tens_added"] else ""
    head += f"; supply {v['supply_size']}, chip pool {v['chip_pool']} VP{tens}"
    lines = [head]
    others = []
    for p in v["players"]:
        if p["seat"] == me:
            hand = v.get("hand", [])
            mine = [
                f"You: {p['score']} VP"
                + (f" ({p['chips']} in chips)" if p["chips"] else "")
                + (f", Militar {p['military']}" if p["military"] else ""),
                f"hand {len(hand)} (cost/VP): {hand_words(hand)}" if hand else "hand empty",
                f"tableau {p['tableau_size']}: " + ", ".join(_tableau_words(c) for c in p["tableau"]),
                *_mine(v),
            ]
            lines.append("; ".join(mine))
        else:
            goods = f", goods {p['goods']}" if p["goods"] else ""
            force = f", Militar {p['military']}" if p["military"] else ""
            others.append(
                f"Seat {p['seat']}: {p['score']} VP, hand {p['hand_size']}, tableau {p['tableau_size']}{goods}{force}"
            )
    lines.append(" | ".join(others))
    a = v.get("actions", {})
    if "revealed" in a:
        chosen = ", ".join(f"seat {s} {x['name']}" for s, x in a["revealed"].items())
        left = ", ".join(a["phases_left"])
        lines.append(f"Actions: {chosen}; phases left: {left or 'none'}")
    ends = v.get("game_ends_after_this_round") or []
    if ends:
        lines.append("The game ends after this round: " + "; ".join(ends))
    return "\n".join(lines)

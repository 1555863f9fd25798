"""What one seat may know of a Se Vende game, and its compact English rendering.

The view is the only door out of the engine. It holds the seat's own hand (and
its cards drawn while exploring, its sealed choices), every tableau (goods face
down: only their kind, which is the world's colour, shows), hand sizes, chips,
which seats have chosen an action card this round but never what, and the
revealed choices after the reveal. No other seat's hidden card, no deck order,
no card used as a good.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from club_agentes.engine.se_vende.cards import GOOD_NAMES, TRADE_PRICE, load_deck
from club_agentes.engine.se_vende.moves import ACTION_CODES, ACTION_NAMES
from club_agentes.engine.se_vende.state import (
    CHIPS_PER_SEAT,
    CONSUMING,
    DEVELOP_PAY,
    DEVELOP_PLACE,
    EXPLORE_KEEP,
    HAND_LIMIT,
    HAND_MAX,
    NO_CARD,
    OVER,
    PHASE_NAMES,
    PRODUCING,
    SELECT,
    SETTLE_PAY,
    SETTLE_PLACE,
    SETUP,
    STEP_NAMES,
    SeVendeState,
    stamp,
)

if TYPE_CHECKING:
    from club_agentes.engine.se_vende.game import SeVende


ACTION_EFFECTS: dict[str, tuple[str, str]] = {
    "explorar-5": ("I Explorar", "every seat draws 2 cards and keeps 1; you draw 5 more"),
    "explorar-1-1": ("I Explorar", "every seat draws 2 cards and keeps 1; you draw 1 more and keep 1 more"),
    "desarrollar": (
        "II Desarrollar",
        "every seat may place one development, discarding cards for its cost; you pay 1 card less",
    ),
    "asentar": (
        "III Asentar",
        "every seat may place one world, discarding cards for its cost (a military world is free with "
        "Militar >= its defence); you draw 1 card after placing",
    ),
    "comercio": (
        "IV Consumir",
        "every seat may use its consume powers; you must first sell one good for cards (novedad 2, "
        "elementos raros 3, genes 4, tecnología alienígena 5)",
    ),
    "2x-pv": (
        "IV Consumir",
        "every seat may use its consume powers; your points from consuming goods with powers are doubled",
    ),
    "producir": (
        "V Producir",
        "every empty production world gets a good; you may also produce on one of your empty windfall worlds",
    ),
}
"""Each action card's phase and effect, in English (se-vende/rulings/cartas-de-accion, se-vende/rulings/explorar)."""


def _card(c: int) -> dict[str, Any]:
    return dict(load_deck().views[c])


def _action(round_no: int, seat: int, code: str) -> dict[str, Any]:
    from club_agentes.engine.se_vende.game import action_token

    return {"id": action_token(round_no, seat, code), "code": code, "name": ACTION_NAMES[code]}


def build_view(game: SeVende, s: SeVendeState, seat: int | None) -> dict[str, Any]:
    """Return what ``seat`` may know of ``s`` (``None`` or an unknown seat: the public view)."""
    from club_agentes.engine.se_vende.game import military, score

    deck = load_deck()
    ids = deck.ids
    me = seat if seat is not None and 0 <= seat < s.n else None
    pending = game.pending(s)
    view: dict[str, Any] = {
        "game": "se-vende",
        "you": me,
        "seats": s.n,
        "round": s.round,
        "turn_limit": s.turn_limit,
        "step": STEP_NAMES[s.step],
        "phase": PHASE_NAMES.get(s.phase),
        "decision": {
            "prompt": pending.prompt,
            "waiting": list(pending.seats),
            "done": list(pending.done),
            "yours": me is not None and me in pending.seats,
        },
    }
    actions: dict[str, Any] = {}
    if s.step == SELECT:
        actions["chosen_so_far"] = list(s.actions.done)
        if me is not None:
            own = s.actions.own(me)
            actions["mine"] = None if own is None else {**_action(s.round, me, own), "sealed": True}
    elif s.chosen is not None:
        actions["revealed"] = {str(i): _action(s.round, i, a) for i, a in sorted(s.chosen.items())}
        actions["phases_this_round"] = sorted({PHASE_NAMES[p] for p in _phases(s.chosen)}, key=_phase_order)
        actions["phases_left"] = [PHASE_NAMES[p] for p in s.phases]
        if me is not None:
            actions["mine"] = _action(s.round, me, s.chosen[me])
    if s.step == SELECT and s.previous is not None:
        actions["previous_round"] = {
            str(i): {"code": a, "name": ACTION_NAMES[a]} for i, a in sorted(s.previous.items())
        }
    if me is not None:
        actions["my_action_cards"] = [ACTION_NAMES[c] for c in ACTION_CODES]
        if s.step == SELECT:
            actions["effects"] = [
                {"code": c, "name": ACTION_NAMES[c], "phase": ACTION_EFFECTS[c][0], "effect": ACTION_EFFECTS[c][1]}
                for c in ACTION_CODES
            ]
    view["actions"] = actions

    now = stamp(s.round, s.phase) if s.phase else -1
    players = []
    for i in range(s.n):
        tableau = []
        for c in s.tableau[i]:
            entry = _card(c)
            d = deck.defs[c]
            if d.world in ("windfall", "production"):
                entry["good"] = d.good if c in s.goods else None
            entry["placed_round"] = s.stamps[c] // 8
            if s.stamps[c] == now:
                entry["powers_start_next_phase"] = True
            tableau.append(entry)
        players.append(
            {
                "seat": i,
                "score": score(s, i),
                "chips": s.chips[i],
                "hand_size": len(s.hands[i]),
                "tableau_size": len(s.tableau[i]),
                "goods": sum(1 for c in s.tableau[i] if c in s.goods),
                "military": military(s, i),
                "tableau": tableau,
            }
        )
    view["players"] = players
    view["supply_size"] = len(s.supply)
    view["discard_size"] = len(s.discard)
    view["chip_pool"] = s.pool
    view["chip_pool_at_start"] = CHIPS_PER_SEAT * s.n
    view["tens_added"] = s.tens_added
    view["trade_prices"] = dict(TRADE_PRICE)
    ending = []
    if s.chips_out:
        ending.append("the last victory chip has been handed out")
    big = [i for i in range(s.n) if len(s.tableau[i]) >= 12]
    if big:
        ending.append("seat(s) " + ", ".join(map(str, big)) + " have 12 or more tableau cards")
    if s.round >= s.turn_limit and s.step != OVER:
        ending.append(f"this is the last round allowed by the turn limit ({s.turn_limit})")
    view["game_ends_after_this_round"] = ending

    if me is not None:
        view["hand"] = [_card(c) for c in s.hands[me]]
        _private(game, s, me, view, ids)
    if s.result is not None:
        r = s.result
        view["result"] = {
            "winners": list(r.winners),
            "scores": [int(x) for x in r.scores],
            "reason": r.reason,
            "rule_id": r.rule_id,
        }
    return view


def _phases(chosen: dict[int, str]) -> set[int]:
    from club_agentes.engine.se_vende.state import PHASE_OF_ACTION

    return {PHASE_OF_ACTION[a] for a in chosen.values()}


def _phase_order(name: str) -> int:
    return list(PHASE_NAMES.values()).index(name)


def _private(game: SeVende, s: SeVendeState, me: int, view: dict[str, Any], ids: tuple[str, ...]) -> None:
    """Add ``me``'s own decision details to its view."""
    from club_agentes.engine.se_vende.game import develop_discount, settle_discount

    step = s.step
    mine: dict[str, Any] = {}
    if step in (SETUP, HAND_LIMIT):
        mine["discard_left"] = s.todo[me]
        if step == HAND_LIMIT:
            mine["hand_limit"] = HAND_MAX
    elif step == EXPLORE_KEEP:
        mine["drawn"] = [_card(c) for c in s.drawn[me]]
        mine["keep_left"] = s.todo[me]
    elif step in (DEVELOP_PLACE, SETTLE_PLACE):
        if s.placing.has_chosen(me):
            c = s.placing.own(me)
            mine["placement"] = None if c is None or c == NO_CARD else _card(c)
            mine["placement_sealed"] = True
        if step == DEVELOP_PLACE:
            mine["development_discount"] = develop_discount(s, me)
        else:
            mine["world_discount"] = settle_discount(s, me)
    elif step in (DEVELOP_PAY, SETTLE_PAY):
        mine["pay_left"] = s.todo[me]
        if s.placed[me] != NO_CARD:
            mine["paying_for"] = _card(s.placed[me])
    elif step == CONSUMING:
        cs = s.consume[me]
        if cs is not None:
            powers = []
            for c, i, p in cs.powers:
                powers.append({"card": ids[c], "power": i, "text": p.text(), "used": (c, i) in cs.used})
            active = None
            if cs.active is not None:
                c, i, p = cs.active
                active = {"card": ids[c], "power": i, "text": p.text(), "left": cs.remaining}
            mine["consume"] = {
                "must_sell_first": cs.must_sell,
                "double_vp": cs.double,
                "finished": cs.finished,
                "powers": powers,
                "in_use": active,
            }
    elif step == PRODUCING:
        queue = s.produce[me]
        if queue:
            source, kind = queue[0]
            mine["windfall_production"] = {
                "by": "Producir bonus" if source == NO_CARD else ids[source],
                "kind": kind,
                "more_after_this": len(queue) - 1,
            }
    if mine:
        view["mine"] = mine


def _card_line(card: dict[str, Any]) -> str:
    bits = [card["description"], f"{card['vp']} PV"]
    bits.extend(card.get("powers", []))
    bits.extend(f"especial: {t}" for t in card.get("special", []))
    good = ""
    if "good" in card:
        good = f" [good: {GOOD_NAMES[card['good']]}]" if card["good"] else " [no good]"
    new = " [placed this phase: its powers count from the next phase]" if card.get("powers_start_next_phase") else ""
    return f"{card['id']} {card['name']}{good}{new} ({'; '.join(bits)})"


def render_view(view: dict[str, Any]) -> str:
    """Return a compact English text of a view built by :func:`build_view`."""
    lines: list[str] = []
    me = view.get("you")
    who = f"You are seat {me}." if me is not None else "Spectator view."
    phase = f", phase {view['phase']}" if view.get("phase") else ""
    lines.append(f"Se Vende, round {view['round']} of at most {view['turn_limit']}{phase} ({view['step']}). {who}")
    d = view["decision"]
    if view["step"] == "over":
        res = view.get("result") or {}
        lines.append(f"Game over: {res.get('reason', '')}")
    else:
        waiting = ", ".join(map(str, d["waiting"])) or "none"
        lines.append(f"Decision: {d['prompt']} Waiting for seats {waiting}.")
    a = view.get("actions", {})
    if "revealed" in a:
        chosen = ", ".join(f"seat {s} {x['name']}" for s, x in a["revealed"].items())
        lines.append(f"Actions revealed: {chosen}. Phases left: {', '.join(a['phases_left']) or 'none'}.")
    elif "chosen_so_far" in a:
        lines.append(f"Seats that have chosen (sealed): {', '.join(map(str, a['chosen_so_far'])) or 'none'}.")
        if a.get("mine"):
            lines.append(f"Your sealed choice: {a['mine']['name']}.")
        elif a.get("effects"):
            lines.append(
                "Action cards (every seat performs each chosen phase, in order I to V; only the seats that "
                "chose a card get its bonus):"
            )
            for e in a["effects"]:
                lines.append(f"  {e['code']} ({e['name']}, phase {e['phase']}): {e['effect']}.")
        if "previous_round" in a:
            prev = ", ".join(f"seat {s} {x['name']}" for s, x in a["previous_round"].items())
            lines.append(f"Last round: {prev}.")
    ends = view.get("game_ends_after_this_round") or []
    if ends:
        lines.append("The game ends after this round: " + "; ".join(ends) + ".")
    lines.append(
        f"Supply {view['supply_size']} cards, discard pile {view['discard_size']}, chip pool {view['chip_pool']} VP"
        + (" (the 10s have joined)." if view["tens_added"] else ".")
    )
    for p in view["players"]:
        tag = " (you)" if p["seat"] == me else ""
        lines.append(
            f"Seat {p['seat']}{tag}: {p['score']} VP ({p['chips']} in chips), hand {p['hand_size']}, "
            f"Militar {p['military']}, tableau {p['tableau_size']}:"
        )
        for card in p["tableau"]:
            lines.append("  " + _card_line(card))
    if "hand" in view:
        lines.append(f"Your hand ({len(view['hand'])}):")
        for card in view["hand"]:
            lines.append("  " + _card_line(card))
    mine = view.get("mine") or {}
    if "drawn" in mine:
        lines.append(f"Drawn while exploring (keep {mine['keep_left']} more):")
        for card in mine["drawn"]:
            lines.append("  " + _card_line(card))
    if mine.get("discard_left"):
        lines.append(f"You must discard {mine['discard_left']} more card(s).")
    if mine.get("placement_sealed"):
        placed = mine.get("placement")
        lines.append(f"Your sealed placement: {placed['id'] + ' ' + placed['name'] if placed else 'nothing'}.")
    if "development_discount" in mine:
        lines.append(f"Your developments cost {mine['development_discount']} less this phase.")
    if "world_discount" in mine:
        lines.append(f"Your non-military worlds cost {mine['world_discount']} less this phase.")
    if mine.get("pay_left"):
        card = mine.get("paying_for") or {}
        lines.append(f"Pay {mine['pay_left']} more card(s) for {card.get('id')} {card.get('name')}.")
    if "consume" in mine:
        c = mine["consume"]
        if c["must_sell_first"]:
            lines.append(
                "You chose Comercio: sell one good first (novedad 2, elementos raros 3, genes 4, tecnología "
                "alienígena 5 cards)."
            )
        if c["double_vp"]:
            lines.append("You chose 2x PV: points from consuming goods with powers are doubled.")
        if c["in_use"]:
            u = c["in_use"]
            lines.append(f"Power in use: {u['card']} #{u['power']} ({u['text']}), {u['left']} left.")
        for p in c["powers"]:
            in_use = c["in_use"] is not None and (c["in_use"]["card"], c["in_use"]["power"]) == (p["card"], p["power"])
            mark = " (in use)" if in_use else " (used)" if p["used"] else ""
            lines.append(f"  power {p['card']} {p['power']}: {p['text']}{mark}")
    if "windfall_production" in mine:
        w = mine["windfall_production"]
        kind = "any" if w["kind"] == "any" else GOOD_NAMES[w["kind"]]
        lines.append(f"Windfall production by {w['by']} (kind: {kind}).")
    return "\n".join(lines)

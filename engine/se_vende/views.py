"""What one seat may know of a Se Vende game, and its compact English rendering.

The view is the only door out of the engine. Every card list in it is read through the game's
knowledge (:func:`club_agentes.engine.se_vende.knowledge.visibility`): the seat's own hand (and
its cards drawn while exploring, its sealed choices), every tableau with each card's powers, which
worlds hold a good and of what kind (the card lying there as a good stays hidden), hand sizes,
chips, the chip supply, the supply and discard sizes, and the action cards once revealed
(se-vende/rulings/informacion-publica).

Whether other seats have made their sealed choice is not part of a view (it is in ``Pending.done``):
another seat's sealed choice never changes this seat's view. While several seats act at once in an
open step, a seat's view shows the others and the shared piles as they stood when the step began
(``state.board``); the spectator's view is always live.
"""

from __future__ import annotations

from typing import Any

from club_agentes.engine.core import Result
from club_agentes.engine.core.visibility import Hidden, Visibility
from club_agentes.engine.se_vende.actions import (
    ACTION_CODES,
    ACTION_EFFECTS,
    ACTION_NAMES,
    PHASE_NAMES,
    PHASE_OF_ACTION,
)
from club_agentes.engine.se_vende.cards import GOOD_COLOURS, GOOD_KINDS, GOOD_NAMES, TRADE_PRICE
from club_agentes.engine.se_vende.knowledge import good_zone, visibility
from club_agentes.engine.se_vende.scoring import score, score_of, summary
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
    PRODUCING,
    SELECT,
    SETTLE_PAY,
    SETTLE_PLACE,
    SETUP,
    STEP_NAMES,
    TABLEAU_END,
    Board,
    State,
    stamp,
)
from club_agentes.engine.se_vende.table import DECK, IDS, INDEX, develop_discount, military, settle_discount


def _card(card_id: str) -> dict[str, Any]:
    return dict(DECK.views[INDEX[card_id]])


def _cards(vis: Visibility, seat: int | None, zone: str) -> list[dict[str, Any]]:
    """Return the cards of ``zone`` that ``seat`` sees, as card entries (nothing of a hidden zone)."""
    if zone not in vis.zones:  # an empty zone that is not listed (cards drawn exploring, outside Explorar)
        return []
    shown = vis.show(seat, zone)
    return [] if isinstance(shown, Hidden) else [_card(c) for c in shown]


def _token(vis: Visibility, seat: int | None, owner: int) -> str | None:
    """Return ``owner``'s chosen action card id this round if ``seat`` may see it, else ``None``."""
    shown = vis.show(seat, f"action/{owner}/chosen")
    return shown[0] if not isinstance(shown, Hidden) and shown else None


def _action(token: str, code: str) -> dict[str, Any]:
    return {"id": token, "code": code, "name": ACTION_NAMES[code]}


def build_view(state: State, seat: int | None, prompt: str, yours: bool) -> dict[str, Any]:
    """Return what ``seat`` may know of ``state`` (``None``: the public view).

    ``prompt`` is the current decision in one sentence and ``yours`` whether ``seat`` must decide now.
    """
    me = seat if seat is not None and 0 <= seat < state.n else None
    vis = visibility(state, piles=False)  # the face-down piles show only their sizes
    view: dict[str, Any] = {
        "game": "se-vende",
        "you": me,
        "seats": state.n,
        "round": state.round,
        "turn_limit": state.turn_limit,
        "step": STEP_NAMES[state.step],
        "phase": PHASE_NAMES.get(state.phase),
        "decision": {"prompt": prompt, "yours": yours},
    }
    view["actions"] = _actions(state, vis, me)
    now = stamp(state.round, state.phase) if state.phase else -1
    # While several seats act at once, a seat is shown the others as they stood when the step began (so
    # nothing it sees changes while it decides); a spectator, who decides nothing, sees the table live.
    board = state.board if me is not None else None
    players = [_player(state, vis, me, board, now, i) for i in range(state.n)]
    view["players"] = players
    if board is None:
        view["supply_size"], view["discard_size"] = len(state.supply), len(state.discard)
        view["chip_pool"], view["tens_added"], chips_out = state.pool, state.tens_added, state.chips_out
    else:
        view["supply_size"], view["discard_size"] = board.supply, board.discard
        view["chip_pool"], view["tens_added"], chips_out = board.pool, board.tens_added, board.chips_out
        view["shown_as_at_step_start"] = (
            "several seats act at once in this step: the other seats, the piles and the chip supply are shown "
            "as they stood when it began, and are brought up to date when every seat has finished"
        )
    view["chip_pool_at_start"] = CHIPS_PER_SEAT * state.n
    view["trade_prices"] = dict(TRADE_PRICE)
    # once over: the result
    view["game_ends_after_this_round"] = _ending(state, chips_out) if state.step != OVER else []

    if me is not None:
        view["hand"] = _cards(vis, me, f"hand/{me}")
        _private(state, vis, me, view)
    if state.result is not None:
        view["result"] = _result(state.result)
    return view


def _player(state: State, vis: Visibility, me: int | None, board: Board | None, now: int, i: int) -> dict[str, Any]:
    """Return what ``me`` may know of seat ``i``: as it stood when the step began (``board``) when it is another
    seat and several act at once, else as it stands."""
    then = board is not None and i != me
    tableau = []
    by_kind = dict.fromkeys(GOOD_KINDS, 0)
    for entry in _cards(vis, me, f"tableau/{i}"):
        c = INDEX[entry["id"]]
        d = DECK.defs[c]
        if d.world in ("windfall", "production"):
            # a face-down good: that the world holds one is public, never which card it is
            held = c in board.goods if then and board is not None else good_zone(c) in vis.zones
            entry["good"] = d.good if held else None
            if held and d.good is not None:
                by_kind[d.good] += 1
                entry["good_colour"] = GOOD_COLOURS[d.good]
        entry["placed_round"] = state.stamps[c] // 8
        if state.stamps[c] == now:
            entry["powers_start_next_phase"] = True
        tableau.append(entry)
    hand = vis.show(me, f"hand/{i}")
    hand_size = hand.count if isinstance(hand, Hidden) else len(hand)
    chips = state.chips[i]
    points = score(state, i)
    if then and board is not None:
        hand_size, chips = board.hand_sizes[i], board.chips[i]
        points = score_of(state.tableau[i], chips, board.goods)
    return {
        "seat": i,
        "score": points,
        "chips": chips,
        "hand_size": hand_size,
        "tableau_size": len(tableau),
        "goods": sum(by_kind.values()),
        "goods_by_kind": {k: v for k, v in by_kind.items() if v},
        "military": military(state, i),
        "tableau": tableau,
    }


def _ending(state: State, chips_out: bool) -> list[str]:
    """Return why the game ends after this round, if it does (empty: it goes on)."""
    ending = []
    if chips_out:
        ending.append("the last victory chip has been handed out")
    big = [i for i in range(state.n) if len(state.tableau[i]) >= TABLEAU_END]
    if big:
        ending.append("seat(s) " + ", ".join(map(str, big)) + f" have {TABLEAU_END} or more tableau cards")
    if state.round >= state.turn_limit:
        ending.append(f"this is the last round allowed by the turn limit ({state.turn_limit})")
    return ending


def _result(r: Result) -> dict[str, Any]:
    """Return the result of a finished game, each breakdown without its empty tableau lines."""
    return {
        "winners": list(r.winners),
        "scores": [int(x) for x in r.scores],
        "reason": r.reason,
        "rule_id": r.rule_id,
        "breakdown": [
            {
                **summary(b),
                "lines": [
                    {"label": x.label, "vp": int(x.amount), "rule_id": x.rule_id}
                    for x in b.lines
                    if x.amount or not x.label.startswith("tableau:")
                ],
            }
            for b in r.breakdown
        ],
    }


def _actions(state: State, vis: Visibility, me: int | None) -> dict[str, Any]:
    actions: dict[str, Any] = {}
    if state.step == SELECT:
        if me is not None:
            token = _token(vis, me, me)
            own = state.actions.own(me)
            actions["mine"] = None if token is None or own is None else {**_action(token, own), "sealed": True}
        if state.previous is not None:
            actions["previous_round"] = {
                str(i): {"code": a, "name": ACTION_NAMES[a]} for i, a in sorted(state.previous.items())
            }
    elif state.chosen is not None:
        revealed = {}
        for i, code in sorted(state.chosen.items()):
            token = _token(vis, me, i)
            if token is not None:
                revealed[str(i)] = _action(token, code)
        actions["revealed"] = revealed
        phases = sorted({PHASE_OF_ACTION[a] for a in state.chosen.values()})
        actions["phases_this_round"] = [PHASE_NAMES[p] for p in phases]
        actions["phases_left"] = [PHASE_NAMES[p] for p in state.phases]
        if me is not None and str(me) in revealed:
            actions["mine"] = revealed[str(me)]
    if me is not None:
        actions["my_action_cards"] = [ACTION_NAMES[c] for c in ACTION_CODES]
        if state.step == SELECT:
            actions["effects"] = [
                {"code": c, "name": ACTION_NAMES[c], "phase": ACTION_EFFECTS[c][0], "effect": ACTION_EFFECTS[c][1]}
                for c in ACTION_CODES
            ]
    return actions


def _private(state: State, vis: Visibility, me: int, view: dict[str, Any]) -> None:
    """Add ``me``'s own decision details to its view."""
    step = state.step
    mine: dict[str, Any] = {}
    if step in (SETUP, HAND_LIMIT):
        mine["discard_left"] = state.todo[me]
        if step == HAND_LIMIT:
            mine["hand_limit"] = HAND_MAX
    elif step == EXPLORE_KEEP:
        mine["drawn"] = _cards(vis, me, f"drawn/{me}")
        mine["keep_left"] = state.todo[me]
    elif step in (DEVELOP_PLACE, SETTLE_PLACE):
        if state.placing.has_chosen(me):
            c = state.placing.own(me)
            card = None if c is None or c == NO_CARD else vis.card(me, IDS[c])
            mine["placement"] = None if card is None else _card(card)
            mine["placement_sealed"] = True
        if step == DEVELOP_PLACE:
            mine["development_discount"] = develop_discount(state, me)
        else:
            mine["world_discount"] = settle_discount(state, me)
    elif step in (DEVELOP_PAY, SETTLE_PAY):
        mine["pay_left"] = state.todo[me]
        if state.placed[me] != NO_CARD:
            mine["paying_for"] = _card(IDS[state.placed[me]])
    elif step == CONSUMING:
        cs = state.consume[me]
        if cs is not None:
            powers = []
            for ref in cs.powers:
                in_use = cs.active == ref
                powers.append(
                    {
                        "card": IDS[ref.card],
                        "power": ref.index,
                        "text": ref.power.text(),
                        "used": ref in cs.used and not in_use,
                        "in_use": in_use,
                    }
                )
            active = None
            if cs.active is not None:
                active = {
                    "card": IDS[cs.active.card],
                    "power": cs.active.index,
                    "text": cs.active.power.text(),
                    "left": cs.remaining,
                }
            mine["consume"] = {
                "must_sell_first": cs.must_sell,
                "double_vp": cs.double,
                "finished": cs.finished,
                "powers": powers,
                "in_use": active,
            }
    elif step == PRODUCING:
        queue = state.produce[me]
        if queue:
            mine["windfall_production"] = {
                "by": "Producir bonus" if queue[0].source == NO_CARD else IDS[queue[0].source],
                "kind": queue[0].kind,
                "more_after_this": len(queue) - 1,
            }
    if mine:
        view["mine"] = mine


# ---------------------------------------------------------------------- text


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
        lines.extend(_result_lines(view.get("result") or {}))
    elif me is None:
        lines.append(f"Decision: {d['prompt']}")
    elif d["yours"]:
        lines.append(f"Decision (yours): {d['prompt']}")
    else:
        lines.append(f"Decision (not yours now): {d['prompt']}")
    lines.extend(_action_lines(view["step"], view.get("actions", {})))
    ends = view.get("game_ends_after_this_round") or []
    if ends:
        lines.append("The game ends after this round: " + "; ".join(ends) + ".")
    lines.append(
        f"Supply {view['supply_size']} cards, discard pile {view['discard_size']}, chip pool {view['chip_pool']} VP"
        + (" (the 10s have joined)." if view["tens_added"] else ".")
    )
    for p in view["players"]:
        tag = " (you)" if p["seat"] == me else ""
        goods = ", ".join(f"{n} {GOOD_NAMES[k]}" for k, n in p["goods_by_kind"].items()) or "none"
        lines.append(
            f"Seat {p['seat']}{tag}: {p['score']} VP ({p['chips']} in chips), hand {p['hand_size']}, "
            f"Militar {p['military']}, goods {goods}, tableau {p['tableau_size']}:"
        )
        for card in p["tableau"]:
            lines.append("  " + _card_line(card))
    if "hand" in view:
        lines.append(f"Your hand ({len(view['hand'])}):")
        for card in view["hand"]:
            lines.append("  " + _card_line(card))
    lines.extend(_private_lines(view.get("mine") or {}))
    return "\n".join(lines)


def _action_lines(step: str, a: dict[str, Any]) -> list[str]:
    """The lines of the action cards: revealed ones, or while choosing, one's sealed choice or the cards' effects."""
    lines = []
    if "revealed" in a:
        chosen = ", ".join(f"seat {s} {x['name']}" for s, x in a["revealed"].items())
        lines.append(f"Actions revealed: {chosen}. Phases left: {', '.join(a['phases_left']) or 'none'}.")
    elif step == "choose_action":
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
    return lines


def _result_lines(res: dict[str, Any]) -> list[str]:
    lines = [f"Game over: {res.get('reason', '')}"]
    for b in res.get("breakdown", []):
        specials = [x for x in b["lines"] if x["label"].startswith("special:")]
        named = "; ".join(f"{x['label'][len('special: ') :].split(':')[0]} {x['vp']}" for x in specials)
        lines.append(
            f"  Seat {b['seat']}: {b['total']} VP = tableau {b['tableau']} + special {b['special']}"
            + (f" ({named})" if named else "")
            + f" + chips {b['chips']}."
        )
    return lines


def _private_lines(mine: dict[str, Any]) -> list[str]:
    lines: list[str] = []
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
            mark = " (in use)" if p["in_use"] else " (used)" if p["used"] else ""
            lines.append(f"  power {p['card']} {p['power']}: {p['text']}{mark}")
    if "windfall_production" in mine:
        w = mine["windfall_production"]
        kind = "any" if w["kind"] == "any" else GOOD_NAMES[w["kind"]]
        lines.append(f"Windfall production by {w['by']} (kind: {kind}).")
    return lines

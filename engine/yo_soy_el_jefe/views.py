"""What one seat may know (:func:`build_view`), its text form (:func:`render`), the knowledge of every card
(:func:`visibility`) and the options' schema.

A view shows the seat's own hand and exact money, the public table (investor cards, board, placed and
travelled cards, every price named in the open negotiation), counts for the others' hands, and only
the size of the others' money piles (ruling ``dinero-a-la-vista``). It never shows another hand, the
deck order, or another seat's money exactly. Every card list comes from :func:`visibility`.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from club_agentes.engine.core.visibility import NOBODY, PUBLIC, Visibility, Zone, seats
from club_agentes.engine.yo_soy_el_jefe.components import KIND_LABELS, components
from club_agentes.engine.yo_soy_el_jefe.deal import group, missing
from club_agentes.engine.yo_soy_el_jefe.influence import stop_words
from club_agentes.engine.yo_soy_el_jefe.state import (
    CARDS,
    COLOURS,
    DEFAULT_TURN_LIMIT,
    SPACES,
    State,
)
from club_agentes.engine.yo_soy_el_jefe.words import CARD_LABEL

if TYPE_CHECKING:
    from club_agentes.engine.yo_soy_el_jefe.game import YoSoyElJefe

FAMILIES = components().families
_STATUS = {0: "asked by the seat", 1: "proposed by the boss", 2: "agreed"}
MONEY_PILES: tuple[tuple[int, str], ...] = (
    (0, "no money"),
    (1, "a small pile (1M to 19M)"),
    (20, "a medium pile (20M to 49M)"),
    (50, "a large pile (50M to 99M)"),
    (100, "a huge pile (100M or more)"),
)
HISTORY_SHOWN = 10
NEEDS: tuple[str, ...] = tuple(sp.describe() for sp in SPACES)
INVESTOR_IDS: tuple[str, ...] = tuple(f.investor_id for f in FAMILIES)
DEAL_IDS: dict[int, str] = {c.number: c.id for c in components().deal_cards}
_CARD_JSON: tuple[dict[str, Any], ...] = tuple(c.to_json() for c in CARDS)


def money_pile(amount: int) -> str:
    """Return what the other seats see of a money pile of ``amount`` millions (ruling ``dinero-a-la-vista``)."""
    label = MONEY_PILES[0][1]
    for low, text in MONEY_PILES:
        if amount >= low:
            label = text
    return label


def visibility(state: State) -> Visibility:
    """Return who knows each card now: hands (their owner; every seat for a card taken back face up), the
    deck (nobody), and the public zones (discards, placed family cards, travel cards, cards waiting for
    stops, investor cards, deal cards)."""
    zones = [Zone(f"hand/{s}", state.hands[s], seats(s)) for s in range(state.n)]
    zones.append(Zone("deck", state.deck, NOBODY))
    zones.append(Zone("discard", state.discard, PUBLIC))
    neg = state.neg
    if neg is not None:
        zones.append(Zone("placed", [k for _, k in sorted(neg.placed.items())], PUBLIC))
        zones.append(Zone("travel", [t for _, t in sorted(neg.travelled.items())], PUBLIC))
    if state.stop is not None:
        zones.append(Zone("waiting", state.stop.cards, PUBLIC))
    zones.append(Zone("investors", INVESTOR_IDS, PUBLIC))
    zones.append(Zone("deal_cards", [DEAL_IDS[c.number] for c in state.deal_deck], PUBLIC))
    zones.append(Zone("board", [DEAL_IDS[c] for c in state.covered if c], PUBLIC))
    everyone = range(state.n)
    return Visibility.of((_ids(z) for z in zones), {CARDS[c].id: everyone for c in state.known})


def _ids(zone: Zone) -> Zone:
    cards = [c if isinstance(c, str) else CARDS[c].id for c in zone.cards]
    return Zone(zone.name, cards, zone.seen_by, zone.count_public)


def card_names() -> dict[str, str]:
    """Return every card id -> its printed name (influence, investor and deal cards)."""
    names = {c.id: c.name for c in CARDS}
    names.update({f.investor_id: f"Inversor {f.id}" for f in FAMILIES})
    names.update({c.id: f"Carta de negociación #{c.number}" for c in components().deal_cards})
    return names


def _card(card_id: str) -> dict[str, Any]:
    from club_agentes.engine.yo_soy_el_jefe.state import CARD_INDEX

    return dict(_CARD_JSON[CARD_INDEX[card_id]])


def build_view(game: YoSoyElJefe, state: State, seat: int | None) -> dict[str, Any]:
    """Return the JSON view of ``state`` for ``seat`` (``None``: a spectator)."""
    pending = game.pending(state)
    vis = visibility(state)
    mine = seat is not None and seat in pending.seats
    n = state.n
    players = []
    for s in range(n):
        shown = vis.show(seat, f"hand/{s}")
        entry: dict[str, Any] = {
            "seat": s,
            "investors": [COLOURS[c] for c in state.investors_of(s)],
            "hand_count": len(shown) if isinstance(shown, list) else shown.count,
            "money_pile": money_pile(state.money[s]),
        }
        if s == seat:
            entry["money"] = state.money[s]
        players.append(entry)
    own = vis.show(seat, f"hand/{seat}") if seat is not None else []
    view: dict[str, Any] = {
        "game": game.id,
        "you": seat,
        "seats": n,
        "options": state.cfg.to_json(),
        "phase": state.phase,
        "decision": {"kind": pending.kind, "seats": list(pending.seats), "prompt": pending.prompt},
        "your_decision": pending.prompt if mine else None,
        "acting_out_of_turn": bool(mine and pending.kind == "reaction"),
        "first_player": state.first_player,
        "turn": state.turn if state.phase != "marker" else None,
        "turns_played": state.turns_played,
        "turn_limit": state.cfg.turn_limit,
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
        "discard_count": len(state.discard),
        "discard_top": _card(CARDS[state.discard[-1]].id) if state.discard else None,
        "discard_by_kind": dict(sorted(Counter(CARDS[c].kind for c in state.discard).items())),
        "discard_by_card": dict(sorted(Counter(CARD_LABEL[c] for c in state.discard).items())),
        "negotiation": _negotiation(state) if state.neg is not None else None,
        "card_waiting_for_stops": _stop(state),
        "last_deal": _copy(state.last_deal),
    }
    if state.phase == "over":
        result = game.result(state)
        assert result is not None
        view["result"] = {
            "winners": list(result.winners),
            "money": list(state.money),
            "reason": result.reason,
            "rule_id": result.rule_id,
        }
    return view


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def _holder(owner: int) -> int | str:
    return owner if owner >= 0 else "beside the board"


def _stop(state: State) -> dict[str, Any] | None:
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
    waiting = stop.waiting()
    return {
        "played_by": stop.player,
        "kind": stop.kind,
        **detail,
        "what": stop_words(state, stop),
        "cards": [_card(CARDS[c].id) for c in stop.cards],
        "polled": waiting[0] if waiting else None,
        "still_to_poll": list(waiting),
    }


def _negotiation(state: State) -> dict[str, Any]:
    neg = state.neg
    assert neg is not None
    space = SPACES[neg.space]
    parts, complete = group(state, neg)
    promised = neg.agreed_total()
    miss = missing(neg, parts, complete)
    naming = neg.naming
    return {
        "space": space.to_json(),
        "deal_card": neg.card.number,
        "dividend_value": neg.value,
        "dividends": neg.dividends,
        "payout": neg.payout,
        "boss": neg.boss,
        "turn_of": neg.turn_seat,
        "travelled_investors": [
            {"colour": COLOURS[c], "holder": _holder(state.owner[c]), "travel_card": CARDS[t].id}
            for c, t in sorted(neg.travelled.items())
        ],
        "placed_family_cards": [
            {"seat": s, "colour": COLOURS[c], "card": CARDS[k].id} for (s, c), k in sorted(neg.placed.items())
        ],
        "prices": [
            {
                "seat": s,
                "colour": COLOURS[c],
                "status": _STATUS[q.status],
                "millions": q.millions,
                "named_as": f"{q.amount}M" if q.unit == "M" else f"{q.amount} dividend(s)",
            }
            for (s, c), q in sorted(neg.quotes.items())
        ],
        "promised": promised,
        "room_left": neg.payout - promised,
        "group_if_closed_now": [
            {"seat": p.seat, "colour": COLOURS[p.colour], "as": p.how, "price": p.price} for p in parts
        ],
        "complete": complete,
        "missing": miss or None,
        "floor": neg.floor,
        "polled": neg.window.current if neg.floor == "poll" else None,
        "price_being_named": (
            {"by": naming.actor, "for_seat": naming.seat, "colour": COLOURS[naming.colour]} if naming else None
        ),
        "price_menu": {"millions": [1, max(1, neg.payout // 2)], "dividends": [1, max(1, neg.dividends // 2)]},
        "price_statements_left": list(neg.offers_left),
        "boss_bids_left": list(neg.bids_left),
        "used_influence": sorted(neg.used),
        "history": neg.history[-HISTORY_SHOWN:],
    }


def _hand_words(hand: list[dict[str, Any]]) -> str:
    groups = Counter((c["kind"], c["colour"]) for c in hand)
    words = []
    for (kind, colour), k in sorted(groups.items(), key=lambda kv: (kv[0][0], kv[0][1] or "")):
        label = KIND_LABELS[kind].split(" (")[0].replace(" card", "")
        words.append(f"{label}{' ' + colour if colour else ''}" + (f" x{k}" if k > 1 else ""))
    return ", ".join(words) or "no cards"


def render(view: dict[str, Any]) -> str:
    """Return a compact English text of a view (built only from the view), for a language model."""
    you = view["you"]
    lines = []
    who = f"you are seat {you}" if you is not None else "spectator"
    nxt = view["next_deal_card"]
    deal = (
        f"next deal card #{nxt['number']}: {nxt['dividend']}M per dividend"
        + (f", ends on a roll of {'/'.join(str(x) for x in nxt['end_numbers'])}" if nxt["end_numbers"] else "")
        + (", the last card" if nxt["final"] else "")
        if nxt
        else "no deal card left"
    )
    lines.append(
        f"Yo soy el jefe, {view['seats']} seats, {who}. Turns played {view['turns_played']}/{view['turn_limit']}; "
        f"deals done {view['deals_done']} ({deal})."
    )
    if view["marker"] is not None:
        sp = view["board"][view["marker"] - 1]
        lines.append(f"Marker on space {view['marker']}: {sp['dividends']} dividends, needs {sp['needs']}.")
    free = [f"{b['space']} ({b['dividends']}d: {b['needs']})" for b in view["board"] if not b["covered_by"]]
    lines.append(f"Free spaces: {'; '.join(free)}.")
    people = []
    for p in view["players"]:
        money = f"{p['money']}M" if "money" in p else p["money_pile"]
        tag = " (you)" if p["seat"] == you else ""
        people.append(
            f"seat {p['seat']}{tag}: investors {', '.join(p['investors']) or 'none'}; "
            f"{p['hand_count']} card{'' if p['hand_count'] == 1 else 's'}; {money}"
        )
    lines.append("Players: " + " | ".join(people) + ".")
    beside = [i["colour"] for i in view["investors"] if i["holder"] == "beside the board"]
    if beside:
        lines.append(f"Investors beside the board: {', '.join(beside)}.")
    if you is not None:
        lines.append(f"Your hand ({len(view['hand'])}/{view['hand_limit']}): {_hand_words(view['hand'])}.")
    discards = ", ".join(f"{label} x{k}" if k > 1 else label for label, k in view["discard_by_card"].items())
    lines.append(
        f"Deck {view['deck_count']} cards, discard {view['discard_count']}" + (f" ({discards})." if discards else ".")
    )
    neg = view["negotiation"]
    if neg is not None:
        sp = neg["space"]
        lines.append(
            f"Negotiation on space {sp['space']}: {neg['dividends']} x {neg['dividend_value']}M = {neg['payout']}M; "
            f"boss seat {neg['boss']}; promised {neg['promised']}M; "
            + ("complete now." if neg["complete"] else f"missing {neg['missing']}.")
        )
        if neg["travelled_investors"]:
            lines.append(
                "Travelled: "
                + ", ".join(f"{t['colour']} of seat {t['holder']}" for t in neg["travelled_investors"])
                + "."
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
                + "; ".join(f"seat {p['seat']} {p['colour']} {p['millions']}M ({p['status']})" for p in neg["prices"])
                + "."
            )
        if you is not None and you == neg["boss"]:
            bids = [f"seat {s}: {k}" for s, k in enumerate(neg["boss_bids_left"]) if s != you]
            lines.append(f"Prices you may still propose under this boss: {', '.join(bids)}.")
        elif you is not None:
            left = neg["price_statements_left"][you]
            lines.append(f"Prices you may still name under this boss (offers and family cards placed): {left}.")
        if neg["history"]:
            lines.append("Recent: " + " / ".join(neg["history"][-6:]))
    stop = view["card_waiting_for_stops"]
    if stop is not None:
        lines.append(f"Waiting for stop cards: {stop['what']}.")
    last = view["last_deal"]
    if last is not None and neg is None:
        if last["failed"]:
            lines.append(f"Last deal on space {last['space']} failed (boss seat {last['boss']}).")
        else:
            paid = ", ".join(f"{a}M to seat {s}" for s, _c, _h, a in last["paid"]) or "nothing to others"
            lines.append(
                f"Last deal: space {last['space']}, boss seat {last['boss']} got {last['payout']}M and paid {paid}."
            )
    if "result" in view:
        result = view["result"]
        money = ", ".join(f"seat {s} {m}M" for s, m in enumerate(result["money"]))
        lines.append(f"Game over: {result['reason']} Final money: {money}.")
    elif view["your_decision"]:
        tag = " (out of turn)" if view["acting_out_of_turn"] else ""
        lines.append(f"Your decision{tag}: {view['your_decision']}")
    else:
        decision = view["decision"]
        who = " and ".join(f"seat {s}" for s in decision["seats"])
        how = " (out of turn)" if decision["kind"] == "reaction" else ""
        lines.append(f'Waiting for {who}{how}, which is told: "{decision["prompt"]}"')
    return "\n".join(lines)


def config_schema() -> dict[str, Any]:
    """Return the JSON schema of the table options, with a description on every property."""

    def flag(text: str, rule: str) -> dict[str, Any]:
        return {"type": "boolean", "default": False, "description": f"{text} Default false. Rule: {rule}."}

    v = "yo-soy-el-jefe/5-variantes"
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Yo soy el jefe table options",
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "turn_limit": {
                "type": "integer",
                "minimum": 1,
                "maximum": 10000,
                "default": DEFAULT_TURN_LIMIT,
                "description": "Turns after which the game ends and money is counted, so automated play always "
                f"ends (a turn ends with a draw, a closed deal or a failed one). Default {DEFAULT_TURN_LIMIT}; "
                "example 120. Ruling: yo-soy-el-jefe/rulings/limite-de-turnos.",
            },
            "first_player": {
                "type": ["integer", "null"],
                "minimum": 0,
                "maximum": 5,
                "default": None,
                "description": "Seat (0-based) that plays first. Default null: chosen by the seed. Example 0.",
            },
            "marker_start": {
                "type": ["integer", "null"],
                "minimum": 1,
                "maximum": len(SPACES),
                "default": None,
                "description": "Board space (1-16) where the dollar marker starts. Default null: the seat to the "
                "first player's right chooses it as the game's first decision. Example 8.",
            },
            "two_player_rules": {
                "type": ["boolean", "null"],
                "default": None,
                "description": "Play the two-player rules (the boss may use opponents' investors without consent, "
                "paying the payout divided by the investors needed for each; the boss must complete a deal that "
                "the table allows). Always on with 2 seats (false is refused); optional with more. Default null "
                f"(on only with 2 seats). Rule: {v}/dos-jugadores.",
            },
            "boss_card_keeps_turn": flag(
                "Variant: after a deal in which a boss card changed the boss, play goes on to the left of the seat "
                "whose turn it was, not of the last boss.",
                f"{v}/jefe-sin-cambio-de-turno",
            ),
            "mandatory_negotiation_with_10_cards": flag(
                "Variant: a seat that starts its turn with 10 or more influence cards must negotiate, here or "
                "after rolling.",
                f"{v}/negociacion-obligatoria",
            ),
            "dividends_only_for_participants": flag(
                "Variant: only the boss and seats that used at least one influence card in the deal receive "
                "money from it; an unpaid promise stays with the boss.",
                f"{v}/dividendos-solo-participantes",
            ),
            "draw_by_investors": flag(
                "Variant: a draw takes 4 cards with no investor, 3 with one, 2 with two, 1 with three or more.",
                f"{v}/robo-segun-inversores",
            ),
            "no_negotiation_with_3_cards_or_fewer": flag(
                "Variant: a seat holding 3 or fewer influence cards cannot start a negotiation.",
                f"{v}/minimo-para-negociar",
            ),
            "hand_limit_10_from_tenth_deal": flag(
                "Variant: once nine deals are done, the hand limit after drawing is 10 instead of 12.",
                f"{v}/limite-10-y-partida-rapida",
            ),
            "quick_game": flag(
                "Variant: deal cards 3, 6 and 9 are left out, so the game has at most 12 deals.",
                f"{v}/limite-10-y-partida-rapida",
            ),
        },
    }

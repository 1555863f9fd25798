"""Snapshots of a Yo soy el jefe table: the complete state as JSON (:func:`snapshot`), and back (:func:`restore`).

A snapshot holds everything, hidden parts included (never send one to a seat): hands, the deck in
order, the discards, who knows which card, each card's deck epoch, the random stream's state, the
open negotiation and a card waiting for stop cards. :func:`restore` rebuilds a state that behaves
exactly as the one snapshotted. The format is versioned by ``YoSoyElJefe.snapshot_version``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from club_agentes.engine.core import Rng
from club_agentes.engine.yo_soy_el_jefe.config import JefeConfig
from club_agentes.engine.yo_soy_el_jefe.state import (
    CARD_INDEX,
    CARD_SLOT,
    CARDS,
    COLOURS,
    DEAL_BY_NUMBER,
    NCARDS,
    NSLOTS,
    ClosedDeal,
    Ledger,
    Naming,
    Negotiation,
    Quote,
    State,
    StopWindow,
    copy_json,
)


def snapshot(state: State) -> dict[str, Any]:
    """Return the complete state as JSON, hidden parts included (:func:`restore` reads it back)."""
    return {
        "options": state.cfg.to_json(),
        "seats": state.n,
        "rng": state.rng.state,
        "phase": state.phase,
        "first_player": state.first_player,
        "turn": state.turn,
        "turns_played": state.turns_played,
        "failed_in_a_row": state.failed_in_a_row,
        "must_negotiate": state.must_negotiate,
        "hand_limit_seat": state.hand_limit_seat,
        "marker": state.marker + 1,
        "covered": list(state.covered),
        "deal_deck": [c.number for c in state.deal_deck],
        "deals_done": state.deals_done,
        "deals": [d.to_json() for d in state.deals],
        "owner": {COLOURS[c]: s for c, s in enumerate(state.owner)},
        "hands": [[CARDS[c].id for c in h] for h in state.hands],
        "deck": [CARDS[c].id for c in state.deck],
        "discard": [CARDS[c].id for c in state.discard],
        "epoch": state.epoch,
        "card_epoch": {CARDS[c].id: e for c, e in enumerate(state.card_epoch) if e},
        "known": sorted(CARDS[c].id for c in state.known),
        "used_by": [list(u) for u in state.used_by],
        "money": list(state.money),
        "ledger": [[x.seat, x.deal, x.space, x.kind, x.other, x.colour, x.amount] for x in state.ledger],
        "negotiation": _negotiation_json(state.neg) if state.neg else None,
        "stop": _stop_json(state.stop) if state.stop else None,
        "last_roll": state.last_roll,
        "last_deal": copy_json(state.last_deal),
        "end_reason": state.end_reason,
        "end_rule": state.end_rule,
    }


def restore(cfg: JefeConfig, data: Mapping[str, Any]) -> State:
    """Return the state a :func:`snapshot` describes.

    Raises:
        ValueError: the snapshot is malformed (a missing field, an unknown card, a wrong seat count).
    """
    try:
        if int(data["seats"]) != cfg.seats:
            raise ValueError(f"the snapshot has {data['seats']} seats, the configuration {cfg.seats}")
        state = State.__new__(State)
        state.cfg = cfg
        state.n = cfg.seats
        state.rng = Rng(0)
        state.rng.state = int(data["rng"])
        state.phase = str(data["phase"])
        state.first_player = int(data["first_player"])
        state.turn = int(data["turn"])
        state.turns_played = int(data["turns_played"])
        state.failed_in_a_row = int(data["failed_in_a_row"])
        state.must_negotiate = bool(data["must_negotiate"])
        state.hand_limit_seat = int(data["hand_limit_seat"])
        state.marker = int(data["marker"]) - 1
        state.covered = [int(x) for x in data["covered"]]
        state.deal_deck = [DEAL_BY_NUMBER[int(x)] for x in data["deal_deck"]]
        state.deals_done = int(data["deals_done"])
        state.deals = [ClosedDeal.from_json(d) for d in data["deals"]]
        state.owner = [int(data["owner"][c]) for c in COLOURS]
        _restore_cards(state, data)
        state.used_by = [[int(x) for x in u] for u in data["used_by"]]
        state.money = [int(m) for m in data["money"]]
        state.ledger = [
            Ledger(int(a), int(b), int(c), str(d), None if e is None else int(e), f, int(g))
            for a, b, c, d, e, f, g in data["ledger"]
        ]
        state.neg = _negotiation_from(data["negotiation"]) if data["negotiation"] else None
        state.stop = _stop_from(data["stop"]) if data["stop"] else None
        state.last_roll = None if data["last_roll"] is None else int(data["last_roll"])
        state.last_deal = copy_json(data["last_deal"])
        state.end_reason = str(data["end_reason"])
        state.end_rule = data["end_rule"]
        state.version = 0
        state.memo = None
    except (KeyError, TypeError, IndexError) as exc:
        raise ValueError(f"malformed Yo soy el jefe snapshot: {type(exc).__name__} {str(exc)[:80]}") from None
    _check(state)
    return state


def _restore_cards(state: State, data: Mapping[str, Any]) -> None:
    """Restore the influence cards: hands (and their counts per slot), deck, discard, and who has seen which."""
    state.hands = [sorted(CARD_INDEX[c] for c in h) for h in data["hands"]]
    state.counts = [[0] * NSLOTS for _ in range(state.n)]
    for seat, hand in enumerate(state.hands):
        for card in hand:
            state.counts[seat][CARD_SLOT[card]] += 1
    state.deck = [CARD_INDEX[c] for c in data["deck"]]
    state.discard = [CARD_INDEX[c] for c in data["discard"]]
    state.epoch = int(data["epoch"])
    state.card_epoch = [0] * NCARDS
    for cid, e in data["card_epoch"].items():
        state.card_epoch[CARD_INDEX[cid]] = int(e)
    state.known = {CARD_INDEX[c] for c in data["known"]}


def _check(state: State) -> None:
    """Check that a restored state holds each influence card once and that its negotiation's seats are seats.

    Raises:
        ValueError: it does not.
    """
    cards = sorted(c for h in state.hands for c in h) + sorted(state.deck) + sorted(state.discard)
    if state.neg is not None:
        cards += list(state.neg.placed.values()) + list(state.neg.travelled.values())
    if state.stop is not None:
        cards += list(state.stop.cards)
    if sorted(cards) != list(range(NCARDS)):
        raise ValueError("malformed Yo soy el jefe snapshot: the influence cards are not each in one place")
    if state.neg is not None and not (0 <= state.neg.boss < state.n and 0 <= state.neg.last_actor < state.n):
        raise ValueError("malformed Yo soy el jefe snapshot: the negotiation's boss or last actor is not a seat")


def _stop_json(w: StopWindow) -> dict[str, Any]:
    """Return a stop window as JSON."""
    return {
        "player": w.player,
        "kind": w.kind,
        "payload": list(w.payload),
        "cards": [CARDS[c].id for c in w.cards],
        "order": list(w.order),
        "passed": sorted(w.passed),
    }


def _stop_from(data: Mapping[str, Any]) -> StopWindow:
    """Rebuild a stop window from :func:`_stop_json`."""
    w = StopWindow(
        int(data["player"]),
        str(data["kind"]),
        tuple(data["payload"]),
        [CARD_INDEX[c] for c in data["cards"]],
        tuple(int(s) for s in data["order"]),
    )
    w.passed = {int(s) for s in data["passed"]}
    return w


def _negotiation_json(n: Negotiation) -> dict[str, Any]:
    """Return an open negotiation as JSON."""
    return {
        "space": n.space + 1,
        "card": n.card.number,
        "boss": n.boss,
        "turn_seat": n.turn_seat,
        "travelled": {COLOURS[c]: CARDS[t].id for c, t in sorted(n.travelled.items())},
        "placed": [[s, COLOURS[c], CARDS[k].id] for (s, c), k in sorted(n.placed.items())],
        "quotes": [[s, COLOURS[c], q.status, q.millions, q.unit, q.amount] for (s, c), q in sorted(n.quotes.items())],
        "named": [
            [a, s, COLOURS[c], [[m, k] for m, k in sorted(counts.items())]]
            for (a, s, c), counts in sorted(n.named.items())
        ],
        "used": sorted(n.used),
        "naming": [n.naming.actor, n.naming.seat, COLOURS[n.naming.colour]] if n.naming else None,
        "passed": sorted(n.passed),
        "last_actor": n.last_actor,
        "last_act": n.last_act,
        "history": list(n.history),
    }


def _negotiation_from(data: Mapping[str, Any]) -> Negotiation:
    """Rebuild a negotiation from :func:`_negotiation_json`."""
    n = Negotiation(int(data["space"]) - 1, DEAL_BY_NUMBER[int(data["card"])], int(data["boss"]))
    n.turn_seat = int(data["turn_seat"])
    n.travelled = {COLOURS.index(c): CARD_INDEX[t] for c, t in data["travelled"].items()}
    n.placed = {(int(s), COLOURS.index(c)): CARD_INDEX[k] for s, c, k in data["placed"]}
    n.quotes = {
        (int(s), COLOURS.index(c)): Quote(int(st), int(m), str(u), int(a)) for s, c, st, m, u, a in data["quotes"]
    }
    n.named = {
        (int(a), int(s), COLOURS.index(c)): {int(m): int(k) for m, k in counts} for a, s, c, counts in data["named"]
    }
    n.used = {int(s) for s in data["used"]}
    naming = data["naming"]
    n.naming = Naming(int(naming[0]), int(naming[1]), COLOURS.index(naming[2])) if naming else None
    n.passed = {int(s) for s in data["passed"]}
    n.last_actor = int(data["last_actor"])
    n.last_act = str(data["last_act"])
    n.history = [str(h) for h in data["history"]]
    return n

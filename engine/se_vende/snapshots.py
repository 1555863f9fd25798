"""Snapshots of a Se Vende table: the complete state as JSON, and back.

A snapshot holds everything, hidden parts included (never send one to a seat): the piles in order,
hands, tableaux, goods, who remembers which discard, the random stream's state, the sealed choices,
each seat's progress through Consumir and Producir, the board a step began with, and the result.
:func:`restore` rebuilds a state that behaves exactly as the one snapshotted. The format is versioned
by :data:`SNAPSHOT_VERSION` (``SeVende.snapshot_version``).
"""

from __future__ import annotations

from typing import Any

from club_agentes.engine.core import Result, SealedChoices
from club_agentes.engine.se_vende.actions import ACTION_CODES, PHASE_NAMES
from club_agentes.engine.se_vende.config import SeVendeConfig
from club_agentes.engine.se_vende.state import (
    NO_CARD,
    STEP_NAMES,
    Board,
    ConsumeSeat,
    PowerRef,
    State,
    WindfallRight,
)
from club_agentes.engine.se_vende.table import DEFS, IDS, INDEX

SNAPSHOT_VERSION = 2


def _card_or_none(card: int | None) -> str | None:
    return None if card is None or card < 0 else IDS[card]


def _consume_json(cs: ConsumeSeat) -> dict[str, Any]:
    """Return a seat's progress through a Consumir phase as JSON."""

    def ref(p: PowerRef) -> list[Any]:
        return [IDS[p.card], p.index]

    return {
        "must_sell": cs.must_sell,
        "double": cs.double,
        "powers": [ref(p) for p in cs.powers],
        "used": sorted(ref(p) for p in cs.used),
        "active": None if cs.active is None else ref(cs.active),
        "remaining": cs.remaining,
        "taken": [IDS[w] for w in cs.taken],
        "gained_vp": cs.gained_vp,
        "finished": cs.finished,
    }


def _consume_from_json(data: dict[str, Any]) -> ConsumeSeat:
    """Return the progress :func:`_consume_json` describes.

    Raises:
        KeyError, ValueError, IndexError: malformed data.
    """

    def ref(raw: list[Any]) -> PowerRef:
        c = INDEX[raw[0]]
        return PowerRef(c, int(raw[1]), DEFS[c].powers[int(raw[1])])

    cs = ConsumeSeat(bool(data["must_sell"]), bool(data["double"]), [ref(r) for r in data["powers"]])
    cs.used = {ref(r) for r in data["used"]}
    cs.active = None if data["active"] is None else ref(data["active"])
    cs.remaining = int(data["remaining"])
    cs.taken = [INDEX[w] for w in data["taken"]]
    cs.gained_vp = int(data["gained_vp"])
    cs.finished = bool(data["finished"])
    return cs


def _board_json(b: Board) -> dict[str, Any]:
    """Return the board a step began with as JSON."""
    return {
        "hand_sizes": list(b.hand_sizes),
        "chips": list(b.chips),
        "goods": sorted(IDS[w] for w in b.goods),
        "supply": b.supply,
        "discard": b.discard,
        "pool": b.pool,
        "tens_added": b.tens_added,
        "chips_out": b.chips_out,
    }


def _board_from_json(data: dict[str, Any]) -> Board:
    """Return the board :func:`_board_json` describes.

    Raises:
        KeyError, ValueError, TypeError: malformed data.
    """
    return Board(
        tuple(int(x) for x in data["hand_sizes"]),
        tuple(int(x) for x in data["chips"]),
        frozenset(INDEX[w] for w in data["goods"]),
        int(data["supply"]),
        int(data["discard"]),
        int(data["pool"]),
        bool(data["tens_added"]),
        bool(data["chips_out"]),
    )


def snapshot(st: State) -> dict[str, Any]:
    """Return the complete state as JSON (hidden parts included)."""
    ids = IDS

    def cards(cs: list[int]) -> list[str]:
        return [ids[c] for c in cs]

    return {
        "seats": st.n,
        "turn_limit": st.turn_limit,
        "rng": st.rng.state,
        "round": st.round,
        "step": STEP_NAMES[st.step],
        "phase": st.phase,
        "phases": list(st.phases),
        "supply": cards(st.supply),
        "discard": cards(st.discard),
        "hands": [cards(h) for h in st.hands],
        "tableau": [cards(t) for t in st.tableau],
        "stamps": {ids[c]: s for c, s in sorted(st.stamps.items())},
        "goods": {ids[w]: ids[g] for w, g in sorted(st.goods.items())},
        "known": {ids[c]: s for c, s in sorted(st.known.items())},
        "chips": list(st.chips),
        "pool": st.pool,
        "tens_added": st.tens_added,
        "chips_out": st.chips_out,
        "actions": st.actions.to_json(),
        "chosen": None if st.chosen is None else {str(k): v for k, v in sorted(st.chosen.items())},
        "previous": None if st.previous is None else {str(k): v for k, v in sorted(st.previous.items())},
        "part": list(st.part),
        "board": None if st.board is None else _board_json(st.board),
        "todo": list(st.todo),
        "drawn": [cards(d) for d in st.drawn],
        "placing": {
            "seats": list(st.placing.seats),
            "choices": {str(s): _card_or_none(st.placing.own(s)) for s in st.placing.done},
        },
        "placed": [_card_or_none(c) for c in st.placed],
        "consume": [None if c is None else _consume_json(c) for c in st.consume],
        "produce": [[[_card_or_none(w.source), w.kind] for w in q] for q in st.produce],
        "produced": [list(p) for p in st.produced],
        "result": None if st.result is None else st.result.to_json(),
    }


def restore(config: SeVendeConfig, data: dict[str, Any]) -> State:
    """Return the state a :func:`snapshot` describes.

    Raises:
        ValueError: the snapshot is malformed or does not match ``config``.
    """
    try:
        return _restore(config, data)
    except (KeyError, IndexError, TypeError, AttributeError) as exc:
        raise ValueError(f"malformed Se Vende snapshot: {exc!r:.200}") from None


def _restore(config: SeVendeConfig, data: dict[str, Any]) -> State:
    if data["seats"] != config.seats or data["turn_limit"] != config.turn_limit:
        raise ValueError("the snapshot's seats or turn_limit differ from the table's configuration")
    idx = INDEX

    def cards(raw: list[str]) -> list[int]:
        return [idx[c] for c in raw]

    s = State(config, 0)
    s.rng.state = int(data["rng"])
    s.round = int(data["round"])
    s.step = STEP_NAMES.index(data["step"])
    s.phase = int(data["phase"])
    s.phases = [int(p) for p in data["phases"]]
    if any(p not in PHASE_NAMES for p in s.phases):
        raise ValueError("the snapshot names an unknown phase")
    s.supply = cards(data["supply"])
    s.discard = cards(data["discard"])
    s.hands = [cards(h) for h in data["hands"]]
    s.tableau = [cards(t) for t in data["tableau"]]
    s.stamps = {idx[c]: int(v) for c, v in data["stamps"].items()}
    s.goods = {idx[w]: idx[g] for w, g in data["goods"].items()}
    s.known = {idx[c]: int(v) for c, v in data["known"].items()}
    s.chips = [int(x) for x in data["chips"]]
    s.pool = int(data["pool"])
    s.tens_added = bool(data["tens_added"])
    s.chips_out = bool(data["chips_out"])
    _restore_steps(s, data)
    s.result = None if data["result"] is None else Result.from_json(data["result"])
    total = len(s.supply) + len(s.discard) + sum(map(len, s.hands)) + sum(map(len, s.tableau))
    total += len(s.goods) + sum(map(len, s.drawn))
    if total != len(IDS):
        raise ValueError(f"the snapshot holds {total} cards, not the {len(IDS)} of the game")
    return s


def _ids(raw: list[str]) -> list[int]:
    return [INDEX[c] for c in raw]


def _restore_steps(s: State, data: dict[str, Any]) -> None:
    """Restore what the round's steps hold: sealed and revealed action cards, the sealed placings, the cards
    drawn and the goods to consume or produce.

    Raises:
        ValueError: an unknown action card (and the errors of a malformed snapshot).
    """
    s.actions = SealedChoices(data["actions"]["seats"])
    for seat, code in data["actions"]["choices"].items():
        if code not in ACTION_CODES:
            raise ValueError(f"the snapshot names an unknown action card {code!r:.40}")
        s.actions.submit(int(seat), code)
    s.chosen = None if data["chosen"] is None else {int(k): v for k, v in data["chosen"].items()}
    s.previous = None if data["previous"] is None else {int(k): v for k, v in data["previous"].items()}
    s.part = tuple(int(x) for x in data["part"])
    s.board = None if data["board"] is None else _board_from_json(data["board"])
    s.todo = [int(x) for x in data["todo"]]
    s.drawn = [_ids(d) for d in data["drawn"]]
    s.placing = SealedChoices(data["placing"]["seats"])
    for seat, c in data["placing"]["choices"].items():
        s.placing.submit(int(seat), NO_CARD if c is None else INDEX[c])
    s.placed = [NO_CARD if c is None else INDEX[c] for c in data["placed"]]
    s.consume = [None if c is None else _consume_from_json(c) for c in data["consume"]]
    s.produce = [[WindfallRight(NO_CARD if c is None else INDEX[c], str(k)) for c, k in q] for q in data["produce"]]
    s.produced = [[str(g) for g in p] for p in data["produced"]]

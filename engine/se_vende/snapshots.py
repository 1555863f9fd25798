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


def snapshot(state: State) -> dict[str, Any]:
    """Return the complete state as JSON (hidden parts included)."""
    ids = IDS

    def cards(cs: list[int]) -> list[str]:
        return [ids[c] for c in cs]

    return {
        "seats": state.n,
        "turn_limit": state.turn_limit,
        "rng": state.rng.state,
        "round": state.round,
        "step": STEP_NAMES[state.step],
        "phase": state.phase,
        "phases": list(state.phases),
        "supply": cards(state.supply),
        "discard": cards(state.discard),
        "hands": [cards(h) for h in state.hands],
        "tableau": [cards(t) for t in state.tableau],
        "stamps": {ids[c]: s for c, s in sorted(state.stamps.items())},
        "goods": {ids[w]: ids[g] for w, g in sorted(state.goods.items())},
        "known": {ids[c]: s for c, s in sorted(state.known.items())},
        "chips": list(state.chips),
        "pool": state.pool,
        "tens_added": state.tens_added,
        "chips_out": state.chips_out,
        "actions": state.actions.to_json(),
        "chosen": None if state.chosen is None else {str(k): v for k, v in sorted(state.chosen.items())},
        "previous": None if state.previous is None else {str(k): v for k, v in sorted(state.previous.items())},
        "part": list(state.part),
        "board": None if state.board is None else _board_json(state.board),
        "todo": list(state.todo),
        "drawn": [cards(d) for d in state.drawn],
        "placing": {
            "seats": list(state.placing.seats),
            "choices": {str(s): _card_or_none(state.placing.own(s)) for s in state.placing.done},
        },
        "placed": [_card_or_none(c) for c in state.placed],
        "consume": [None if c is None else _consume_json(c) for c in state.consume],
        "produce": [[[_card_or_none(w.source), w.kind] for w in q] for q in state.produce],
        "produced": [list(p) for p in state.produced],
        "result": None if state.result is None else state.result.to_json(),
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

    state = State(config, 0)
    state.rng.state = int(data["rng"])
    state.round = int(data["round"])
    state.step = STEP_NAMES.index(data["step"])
    state.phase = int(data["phase"])
    state.phases = [int(p) for p in data["phases"]]
    if any(p not in PHASE_NAMES for p in state.phases):
        raise ValueError("the snapshot names an unknown phase")
    state.supply = cards(data["supply"])
    state.discard = cards(data["discard"])
    state.hands = [cards(h) for h in data["hands"]]
    state.tableau = [cards(t) for t in data["tableau"]]
    state.stamps = {idx[c]: int(v) for c, v in data["stamps"].items()}
    state.goods = {idx[w]: idx[g] for w, g in data["goods"].items()}
    state.known = {idx[c]: int(v) for c, v in data["known"].items()}
    state.chips = [int(x) for x in data["chips"]]
    state.pool = int(data["pool"])
    state.tens_added = bool(data["tens_added"])
    state.chips_out = bool(data["chips_out"])
    _restore_steps(state, data)
    state.result = None if data["result"] is None else Result.from_json(data["result"])
    total = len(state.supply) + len(state.discard) + sum(map(len, state.hands)) + sum(map(len, state.tableau))
    total += len(state.goods) + sum(map(len, state.drawn))
    if total != len(IDS):
        raise ValueError(f"the snapshot holds {total} cards, not the {len(IDS)} of the game")
    return state


def _ids(raw: list[str]) -> list[int]:
    return [INDEX[c] for c in raw]


def _restore_steps(state: State, data: dict[str, Any]) -> None:
    """Restore what the round's steps hold: sealed and revealed action cards, the sealed placings, the cards
    drawn and the goods to consume or produce.

    Raises:
        ValueError: an unknown action card (and the errors of a malformed snapshot).
    """
    state.actions = SealedChoices(data["actions"]["seats"])
    for seat, code in data["actions"]["choices"].items():
        if code not in ACTION_CODES:
            raise ValueError(f"the snapshot names an unknown action card {code!r:.40}")
        state.actions.submit(int(seat), code)
    state.chosen = None if data["chosen"] is None else {int(k): v for k, v in data["chosen"].items()}
    state.previous = None if data["previous"] is None else {int(k): v for k, v in data["previous"].items()}
    state.part = tuple(int(x) for x in data["part"])
    state.board = None if data["board"] is None else _board_from_json(data["board"])
    state.todo = [int(x) for x in data["todo"]]
    state.drawn = [_ids(d) for d in data["drawn"]]
    state.placing = SealedChoices(data["placing"]["seats"])
    for seat, c in data["placing"]["choices"].items():
        state.placing.submit(int(seat), NO_CARD if c is None else INDEX[c])
    state.placed = [NO_CARD if c is None else INDEX[c] for c in data["placed"]]
    state.consume = [None if c is None else _consume_from_json(c) for c in data["consume"]]
    state.produce = [[WindfallRight(NO_CARD if c is None else INDEX[c], str(k)) for c, k in q] for q in data["produce"]]
    state.produced = [[str(g) for g in p] for p in data["produced"]]

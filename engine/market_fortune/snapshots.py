"""Snapshots of a Market Fortune table: the complete state as JSON, and back.

A snapshot holds everything, hidden parts included (never send one to a seat): piles in
order, hands, strategies, investments, who knows which card, the random stream's state, the
turn's flags, the attack in progress, the Campeonato record and the result. :func:`restore`
rebuilds a state that behaves exactly as the one snapshotted (the same moves give the same
events and result). The format is versioned by :data:`SNAPSHOT_VERSION`.
"""

from __future__ import annotations

from typing import Any

from club_agentes.engine.core import Result
from club_agentes.engine.core.windows import ReactionWindow
from club_agentes.engine.market_fortune.components import CARD_ID, CARD_INDEX, N_CARDS
from club_agentes.engine.market_fortune.config import MFConfig
from club_agentes.engine.market_fortune.state import STEPS, Attack, Investment, State

SNAPSHOT_VERSION = 1


def _ids(cards: list[int]) -> list[str]:
    return [CARD_ID[c] for c in cards]


def _card(cid: Any) -> int:
    if not isinstance(cid, str) or cid not in CARD_INDEX:
        raise ValueError(f"snapshot names an unknown card {cid!r}")
    return CARD_INDEX[cid]


def _cards(ids: Any) -> list[int]:
    if not isinstance(ids, list):
        raise ValueError(f"snapshot holds {type(ids).__name__} where a list of card ids belongs")
    return [_card(c) for c in ids]


def _opt_card(cid: Any) -> int:
    return -1 if cid is None else _card(cid)


def snapshot(state: State) -> dict[str, Any]:
    """Return the complete state as JSON (hidden parts included)."""
    atk = state.attack
    result = state.result
    return {
        "version": SNAPSHOT_VERSION,
        "config": {
            "seats": state.n,
            "mode": state.config.mode,
            "turn_limit": state.config.turn_limit,
            "game_limit": state.config.game_limit,
        },
        "rng": state.rng.state,
        "decks": [_ids(d) for d in state.decks],
        "discards": [_ids(d) for d in state.discards],
        "facedown": [CARD_ID[c] for c in range(N_CARDS) if state.facedown[c]],
        "hands": [_ids(h) for h in state.hands],
        "strategies": [_ids(s) for s in state.strats],
        "investments": [
            [[CARD_ID[i.stock], CARD_ID[i.ret], CARD_ID[i.green] if i.green >= 0 else None, i.face_up] for i in invs]
            for invs in state.invs
        ],
        "know": {CARD_ID[c]: state.know[c] for c in range(N_CARDS) if state.know[c]},
        "seen": {CARD_ID[c]: state.seen[c] for c in range(N_CARDS) if state.seen[c]},
        "turn": state.turn,
        "turn_no": state.turn_no,
        "step": state.step,
        "acted": state.acted,
        "red_used": state.red_used,
        "lucky": state.lucky,
        "banned": state.banned,
        "risk_ban": list(state.risk_ban),
        "momentum": CARD_ID[state.momentum] if state.momentum >= 0 else None,
        "drawn": CARD_ID[state.drawn] if state.drawn >= 0 else None,
        "formed": state.formed,
        "opt_back": state.opt_back,
        "trim_by": CARD_ID[state.trim_by] if state.trim_by >= 0 else None,
        "trim_down": _ids(state.trim_down),
        "attack": None
        if atk is None
        else {
            "attacker": atk.attacker,
            "card": CARD_ID[atk.card],
            "targets": list(atk.targets),
            "investment": atk.investment,
            "window": atk.window.to_json(),
        },
        "game_no": state.game_no,
        "opener": state.opener,
        "totals": list(state.totals),
        "games": [dict(g) for g in state.games],
        "over": state.over,
        "result": None if result is None else result.to_json(),
    }


def restore(config: MFConfig, data: dict[str, Any]) -> State:
    """Return the state a :func:`snapshot` describes, for a table of configuration ``config``.

    Raises:
        ValueError: the snapshot is malformed, of another format version, or of another configuration.
    """
    try:
        return _restore(config, data)
    except (KeyError, TypeError, IndexError) as exc:
        raise ValueError(f"malformed Market Fortune snapshot: {type(exc).__name__}: {exc}") from None


def _restore(config: MFConfig, data: dict[str, Any]) -> State:
    if not isinstance(data, dict) or data.get("version") != SNAPSHOT_VERSION:
        raise ValueError(f"not a Market Fortune snapshot of format version {SNAPSHOT_VERSION}")
    c = data["config"]
    mine = {
        "seats": config.seats,
        "mode": config.mode,
        "turn_limit": config.turn_limit,
        "game_limit": config.game_limit,
    }
    if c != mine:
        raise ValueError(f"the snapshot is of a table configured {c}, not {mine}")
    state = State(config, 0)
    state.rng.state = int(data["rng"])
    everywhere = _restore_cards(state, data)
    _restore_turn(state, data)
    a = data["attack"]
    if a is not None:
        atk = Attack(int(a["attacker"]), _card(a["card"]), tuple(int(t) for t in a["targets"]), a["investment"])
        atk.window = ReactionWindow(int(s) for s in a["window"]["order"])
        atk.window.index = int(a["window"]["index"])
        state.attack = atk
        everywhere.append(atk.card)
    if sorted(everywhere) != list(range(N_CARDS)):
        raise ValueError("the snapshot does not hold each of the 180 cards exactly once")
    state.game_no = int(data["game_no"])
    state.opener = int(data["opener"])
    state.totals = [int(t) for t in data["totals"]]
    state.games = [dict(g) for g in data["games"]]
    state.over = bool(data["over"])
    r = data["result"]
    if r is not None:
        state.result = Result.from_json(r)
    return state


def _restore_cards(state: State, data: dict[str, Any]) -> list[int]:
    """Restore the piles, hands, strategies, investments and who knows each card; return every card placed.

    Raises:
        ValueError: the piles or seats do not match the table (and the errors of a malformed snapshot).
    """
    state.decks = [_cards(d) for d in data["decks"]]
    state.discards = [_cards(d) for d in data["discards"]]
    state.facedown = [False] * N_CARDS
    for cid in data["facedown"]:
        state.facedown[_card(cid)] = True
    state.hands = [_cards(h) for h in data["hands"]]
    state.strats = [_cards(s) for s in data["strategies"]]
    state.invs = [
        [Investment(_card(i[0]), _card(i[1]), _opt_card(i[2]), bool(i[3])) for i in invs]
        for invs in data["investments"]
    ]
    n = state.n
    if not (
        len(state.decks) == len(state.discards) == 3 and len(state.hands) == len(state.strats) == len(state.invs) == n
    ):
        raise ValueError("the snapshot's piles or seats do not match the table")
    state.know = [0] * N_CARDS
    for cid, mask in data["know"].items():
        state.know[_card(cid)] = int(mask)
    state.seen = [0] * N_CARDS
    for cid, mask in data["seen"].items():
        state.seen[_card(cid)] = int(mask)
    everywhere = [*(x for d in state.decks for x in d), *(x for d in state.discards for x in d)]
    everywhere += [x for h in state.hands for x in h] + [x for s in state.strats for x in s]
    everywhere += [x for invs in state.invs for i in invs for x in i.cards()]
    return everywhere


def _restore_turn(state: State, data: dict[str, Any]) -> None:
    """Restore the turn: whose, which step, and what was done in it.

    Raises:
        ValueError: an unknown step (and the errors of a malformed snapshot).
    """
    state.turn = int(data["turn"])
    state.turn_no = int(data["turn_no"])
    state.step = data["step"]
    if state.step not in STEPS:
        raise ValueError(f"the snapshot names an unknown step {state.step!r}")
    state.acted = bool(data["acted"])
    state.red_used = bool(data["red_used"])
    state.lucky = bool(data["lucky"])
    state.banned = bool(data["banned"])
    state.risk_ban = [bool(b) for b in data["risk_ban"]]
    state.momentum = _opt_card(data["momentum"])
    state.drawn = _opt_card(data["drawn"])
    state.formed = int(data["formed"])
    state.opt_back = data["opt_back"]
    state.trim_by = _opt_card(data["trim_by"])
    state.trim_down = _cards(data["trim_down"])

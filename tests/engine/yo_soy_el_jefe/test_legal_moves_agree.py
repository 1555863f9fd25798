"""legal_moves and apply agree: on sampled positions, every move of a wide universe is accepted exactly when it is
listed, a refused one names a rule id and leaves the state untouched, and the check says the same."""

from __future__ import annotations

import json
from typing import Any

import pytest
from club_agentes.engine.core import IllegalMove, RandomBot, play
from club_agentes.engine.yo_soy_el_jefe.moves import (
    ACCEPTS,
    ACCEPTS_CLOSE,
    BIDS,
    BOSS_KEEP,
    BOSS_RESTART,
    CLOSE,
    DISCARDS,
    DRAW,
    FAIL,
    HIRES,
    MARKERS,
    NEGOTIATE,
    OFFERS,
    PASS,
    PLACE_FAMILY,
    PRICES_D,
    PRICES_M,
    REFUSES,
    ROLL,
    STOP_MOVE,
    TRAVELS,
    WITHDRAWS,
)

from .helpers import game

UNIVERSE: list[Any] = [
    *MARKERS[:4],
    NEGOTIATE,
    ROLL,
    DRAW,
    *DISCARDS.values(),
    *PLACE_FAMILY,
    *OFFERS,
    *[m for row in BIDS[:4] for m in row],
    *[p for p in PRICES_M[1:33:3] if p is not None],
    *[p for p in PRICES_D[1:9] if p is not None],
    *[m for row in ACCEPTS[:4] for m in row],
    *[m for row in ACCEPTS_CLOSE[:4] for m in row],
    *[m for row in REFUSES[:4] for m in row],
    *[m for row in WITHDRAWS[:4] for m in row],
    *[m for k, m in TRAVELS.items() if k[1] < 4],
    *HIRES,
    BOSS_KEEP,
    BOSS_RESTART,
    STOP_MOVE,
    PASS,
    CLOSE,
    FAIL,
]


@pytest.mark.parametrize(("seats", "options", "seed"), [(4, {}, 3), (3, {"two_player_rules": True}, 4), (2, {}, 5)])
def test_apply_accepts_exactly_the_listed_moves(seats: int, options: dict, seed: int) -> None:
    cfg = game.make_config(seats, options)
    samples: list[Any] = []

    def keep(state: Any, seat: int, moves: list) -> None:
        if len(samples) < 6 and (len(samples) * 7919 + len(moves)) % 5 == 0:
            samples.append(game.clone(state))

    play(game, cfg, seed, [RandomBot() for _ in range(seats)], on_decision=keep, max_decisions=4_000)
    assert samples
    for state in samples:
        for seat in range(seats):
            legal = game.legal_moves(state, seat)
            for move in UNIVERSE:
                if move.type in ("bid", "accept", "refuse", "withdraw", "travel") and move.seat >= seats:
                    continue
                refusal = game.check(state, seat, move)
                assert (refusal is None) == (move in legal), (move.text(), refusal)
                if move in legal:
                    game.apply(game.clone(state), seat, move)
                else:
                    before = json.dumps(game.snapshot(state), sort_keys=True)
                    with pytest.raises(IllegalMove) as err:
                        game.apply(state, seat, move)
                    assert err.value.rule_id in game.rule_ids() and err.value.rule_id == refusal.rule_id
                    assert json.dumps(game.snapshot(state), sort_keys=True) == before

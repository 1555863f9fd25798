"""legal_moves and apply agree: on sampled positions, every move of a wide universe is accepted
exactly when it is listed, and a refused one names a rule id and leaves the state untouched."""

from __future__ import annotations

import copy
import json

import pytest
from club_agentes.engine.core import IllegalMove, RandomBot, play
from club_agentes.engine.yo_soy_el_jefe.moves import (
    ACCEPTS,
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
)

from .helpers import game

UNIVERSE = [
    *MARKERS[:4],
    NEGOTIATE,
    ROLL,
    DRAW,
    *DISCARDS.values(),
    *PLACE_FAMILY,
    *OFFERS,
    *[m for row in BIDS[:4] for m in row],
    *PRICES_M[1:20],
    *PRICES_D[1:5],
    *[m for row in ACCEPTS[:4] for m in row],
    *[m for row in REFUSES[:4] for m in row],
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
    samples = []

    def keep(state, seat, moves) -> None:
        if len(samples) < 25 and (len(samples) * 7919 + len(moves)) % 5 == 0:
            samples.append(copy.deepcopy(state))

    play(game, cfg, seed, [RandomBot() for _ in range(seats)], on_decision=keep, max_decisions=4_000)
    assert samples
    for state in samples:
        for seat in range(seats):
            legal = game.legal_moves(state, seat)
            for move in UNIVERSE:
                if move.type in ("bid", "accept", "refuse", "travel") and move.seat >= seats:
                    continue
                if move in legal:
                    trial = copy.deepcopy(state)
                    game.apply(trial, seat, move)
                else:
                    before = json.dumps(game.snapshot(state), sort_keys=True)
                    with pytest.raises(IllegalMove) as err:
                        game.apply(state, seat, move)
                    assert err.value.rule_id in game.rule_ids()
                    assert json.dumps(game.snapshot(state), sort_keys=True) == before

"""legal_moves and apply agree: a move is accepted exactly when it is listed (pokerkit's "one check").

At sampled decisions of random games, every candidate move built from the cards in
play is applied to a copy of the state: listed moves must apply, the others must be
refused with a cited rule id and leave the copy untouched.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from club_agentes.engine.core import IllegalMove, RandomBot, play
from club_agentes.engine.se_vende.moves import (
    ACTION_CODES,
    PLACE_NONE,
    ChooseAction,
    ConsumeGood,
    Discard,
    Done,
    Keep,
    Pay,
    Place,
    Produce,
    Sell,
    UsePower,
)
from club_agentes.engine.se_vende.state import State

from tests.engine.se_vende.helpers import DECK, GAME

IDS = DECK.ids


def _candidates(state: State, seat: int) -> list[Any]:
    cards = set(state.hands[seat]) | set(state.drawn[seat]) | set(state.tableau[seat])
    for other in range(state.n):
        cards.update(state.hands[other][:2])
        cards.update(state.tableau[other][:2])
    cards.update(state.supply[-2:])
    moves: list[Any] = [ChooseAction(c) for c in ACTION_CODES] + [PLACE_NONE, Done()]
    for c in sorted(cards):
        cid = IDS[c]
        moves += [Keep(cid), Discard(cid), Place(cid), Pay(cid), Sell(cid), ConsumeGood(cid), Produce(cid)]
        moves += [UsePower(cid, i) for i in range(3)]
    return moves


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_legal_moves_and_apply_agree(seats: int) -> None:
    probe = random.Random(seats)
    rule_ids = GAME.rule_ids()
    checked = 0

    def check(state: State, seat: int, moves: list[Any]) -> None:
        nonlocal checked
        if probe.random() > 0.08:
            return
        checked += 1
        legal = set(moves)
        for other in range(state.n):
            if other != seat:
                legal_other = set(GAME.legal_moves(state, other))
                assert bool(legal_other) == (other in GAME.pending(state).seats)
        before = json.dumps(GAME.snapshot(state), sort_keys=True)
        for move in _candidates(state, seat):
            if move in legal:
                GAME.apply(GAME.clone(state), seat, move)  # must not raise
                continue
            try:
                GAME.apply(state, seat, move)
            except IllegalMove as err:
                assert err.rule_id in rule_ids
            else:
                raise AssertionError(f"unlisted move {move.text()} was accepted at step {state.step}")
        assert json.dumps(GAME.snapshot(state), sort_keys=True) == before, "a refused move changed the state"

    for seed in (11, 12):
        record = play(GAME, GAME.make_config(seats), seed, [RandomBot() for _ in range(seats)], on_decision=check)
        assert record.finished
    assert checked > 20

"""Snapshots and copies (issue 15.3): a restored or cloned state behaves exactly like the original."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from club_agentes.engine.core import RandomBot, play

from tests.engine.se_vende.helpers import GAME


def _dump(data: Any) -> str:
    return json.dumps(data, sort_keys=True)


@pytest.mark.parametrize(("seats", "seed"), [(2, 21), (3, 22), (4, 23)])
def test_snapshot_restore_continues_identically(seats: int, seed: int) -> None:
    config = GAME.make_config(seats)
    record = play(GAME, config, seed, [RandomBot() for _ in range(seats)])
    assert record.finished
    moves = record.moves
    probe = random.Random(seed)
    cuts = sorted(probe.sample(range(len(moves)), 6))
    state = GAME.new_game(config, seed)
    done = 0
    for cut in cuts:
        while done < cut:
            GAME.apply(state, *moves[done])
            done += 1
        data = json.loads(json.dumps(GAME.snapshot(state)))  # through real JSON
        restored = GAME.restore(config, data)
        assert _dump(GAME.snapshot(restored)) == _dump(data)
        twin = GAME.clone(state)
        for seat in (*range(seats), None):
            assert GAME.view(restored, seat) == GAME.view(state, seat)
        copy_state = GAME.clone(state)
        rest = moves[done:]
        ev_a = [GAME.apply(restored, s, m) for s, m in rest]
        ev_b = [GAME.apply(twin, s, m) for s, m in rest]
        ev_c = [GAME.apply(copy_state, s, m) for s, m in rest]
        assert ev_a == ev_b == ev_c
        assert GAME.result(restored) == GAME.result(twin) == GAME.result(record.state)
        assert _dump(GAME.snapshot(restored)) == _dump(GAME.snapshot(record.state))
    # the original, cloned from, is untouched by its clones' moves
    assert GAME.result(state) is None


def test_clone_shares_nothing_mutable() -> None:
    config = GAME.make_config(3)
    record = play(GAME, config, 5, [RandomBot() for _ in range(3)], max_decisions=150)
    state = record.state
    before = _dump(GAME.snapshot(state))
    twin = GAME.clone(state)
    seat = GAME.pending(twin).seats[0]
    for _ in range(40):
        pending = GAME.pending(twin)
        if pending.kind == "over":
            break
        seat = pending.seats[0]
        GAME.apply(twin, seat, GAME.legal_moves(twin, seat)[-1])
    assert _dump(GAME.snapshot(state)) == before


def test_restore_refuses_malformed_snapshots() -> None:
    config = GAME.make_config(2)
    data = GAME.snapshot(GAME.new_game(config, 1))
    with pytest.raises(ValueError, match="configuration"):
        GAME.restore(GAME.make_config(3), data)
    broken = dict(data, supply=data["supply"][:-1])
    with pytest.raises(ValueError, match="cards"):
        GAME.restore(config, broken)
    with pytest.raises(ValueError, match="malformed"):
        GAME.restore(config, {k: v for k, v in data.items() if k != "hands"})
    assert GAME.snapshot_version == 2

"""Snapshots (issue 15.3): snapshot at random points, restore, continue with the same moves: same events and result."""

from __future__ import annotations

import json
import random

import pytest
from club_agentes.engine.core import RandomBot, play

from tests.engine.market_fortune.helpers import GAME


def _texts(events: list) -> list[tuple[str, tuple[int, ...] | None]]:
    return [(e.text, e.audience) for e in events]


@pytest.mark.parametrize(
    ("seats", "options"), [(3, {}), (5, {"mode": "campeonato", "turn_limit": 80, "game_limit": 3})]
)
def test_restored_snapshot_behaves_like_the_original(seats: int, options: dict) -> None:
    config = GAME.make_config(seats, options)
    rec = play(GAME, config, 31, [RandomBot() for _ in range(seats)])
    assert rec.finished
    moves = rec.moves
    picks = sorted(random.Random(seats).sample(range(len(moves)), 4))
    for cut in picks:
        st = GAME.new_game(config, 31)
        for seat, move in moves[:cut]:
            GAME.apply(st, seat, move)
        data = json.loads(json.dumps(GAME.snapshot(st)))  # through JSON, as a store keeps it
        twin = GAME.restore(config, data)
        assert GAME.snapshot(twin) == GAME.snapshot(st)
        for s in [*range(seats), None]:
            assert GAME.view(twin, s) == GAME.view(st, s)
        for seat, move in moves[cut:]:
            assert GAME.legal_moves(twin, seat) == GAME.legal_moves(st, seat)
            assert _texts(GAME.apply(twin, seat, move)) == _texts(GAME.apply(st, seat, move))
        assert GAME.result(twin) == GAME.result(st) == GAME.result(rec.state)


def test_clone_is_independent_and_equal() -> None:
    config = GAME.make_config(4, {})
    rec = play(GAME, config, 8, [RandomBot()] * 4, max_decisions=200)
    st = rec.state
    twin = GAME.clone(st)
    assert GAME.snapshot(twin) == GAME.snapshot(st)
    seat = GAME.pending(twin).seats[0]
    GAME.apply(twin, seat, GAME.legal_moves(twin, seat)[0])
    assert GAME.snapshot(twin) != GAME.snapshot(st)
    assert GAME.snapshot(GAME.clone(st)) == GAME.snapshot(st)


@pytest.mark.parametrize(
    "edit",
    [
        lambda d: d.update(version=99),
        lambda d: d["config"].update(seats=3),
        lambda d: d["hands"][0].append("MF-A-ENE-1"),
        lambda d: d["hands"][0].append("MF-X-1"),
        lambda d: d.update(step="lunch"),
        lambda d: d.pop("decks"),
    ],
)
def test_restore_refuses_a_malformed_snapshot(edit) -> None:
    config = GAME.make_config(4, {})
    data = json.loads(json.dumps(GAME.snapshot(GAME.new_game(config, 2))))
    edit(data)
    with pytest.raises(ValueError):
        GAME.restore(config, data)


def test_snapshot_version_is_declared() -> None:
    assert GAME.snapshot_version == GAME.snapshot(GAME.new_game(GAME.make_config(2, {}), 1))["version"] == 1

"""Snapshots and copies: a restored state behaves like the original (same events, same result); clones are
independent."""

from __future__ import annotations

import json
from typing import Any

import pytest
from club_agentes.engine.core import RandomBot, play

from .helpers import game


@pytest.mark.parametrize(("seats", "options", "seed"), [(4, {}, 1), (3, {"quick_game": True}, 2), (2, {}, 3)])
def test_restore_continues_exactly(seats: int, options: dict, seed: int) -> None:
    config = game.make_config(seats, options)
    record = play(game, config, seed, [RandomBot() for _ in range(seats)])
    moves = record.moves
    for cut in (0, len(moves) // 3, len(moves) // 2, len(moves) - 1):
        state = game.new_game(config, seed)
        for seat, move in moves[:cut]:
            game.apply(state, seat, move)
        data = json.loads(json.dumps(game.snapshot(state)))
        restored = game.restore(config, data)
        assert game.snapshot(restored) == game.snapshot(state)
        for seat, move in moves[cut:]:
            a = game.apply(state, seat, move)
            b = game.apply(restored, seat, move)
            assert [(e.text, e.audience) for e in a] == [(e.text, e.audience) for e in b]
        assert game.result(restored) == game.result(state) == game.result(record.state)


def test_a_clone_is_independent_and_equal_in_behaviour() -> None:
    config = game.make_config(4, {})
    state = game.new_game(config, 8)
    record = play(game, config, 8, [RandomBot() for _ in range(4)], max_decisions=120)
    for seat, move in record.moves:
        game.apply(state, seat, move)
    copy = game.clone(state)
    assert game.snapshot(copy) == game.snapshot(state)
    seat = game.pending(copy).seats[0]
    move = game.legal_moves(copy, seat)[0]
    before = game.snapshot(state)
    game.apply(copy, seat, move)
    assert game.snapshot(state) == before


def test_a_malformed_snapshot_is_refused() -> None:
    config = game.make_config(3, {})
    data: dict[str, Any] = game.snapshot(game.new_game(config, 1))
    with pytest.raises(ValueError):
        game.restore(config, {**data, "hands": [*data["hands"][:-1], []]})
    with pytest.raises(ValueError):
        game.restore(config, {k: v for k, v in data.items() if k != "deck"})
    with pytest.raises(ValueError):
        game.restore(game.make_config(4, {}), data)


def test_a_snapshot_whose_negotiation_names_no_seat_is_refused() -> None:
    config = game.make_config(3, {})
    state = game.new_game(config, 1)
    while state.neg is None:
        seat = game.pending(state).seats[0]
        moves = game.legal_moves(state, seat)
        game.apply(state, seat, next((m for m in moves if m.type == "negotiate"), moves[0]))
    data: dict[str, Any] = game.snapshot(state)
    assert game.snapshot(game.restore(config, data)) == data
    for field in ("boss", "last_actor"):
        with pytest.raises(ValueError, match="not a seat"):
            game.restore(config, {**data, "negotiation": {**data["negotiation"], field: 3}})

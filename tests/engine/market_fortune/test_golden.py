"""Golden logs (see :mod:`golden`): saved games replay move for move with the same result."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.engine.market_fortune.golden import FOLDER, GAME, cases, load

LOGS = sorted(FOLDER.glob("*.json"))


def test_every_golden_case_has_a_log() -> None:
    assert {p.stem for p in LOGS} == {name for name, *_ in cases()}


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.stem)
def test_golden_log_replays_with_the_same_result(path: Path) -> None:
    log = load(path)
    state = GAME.new_game(GAME.make_config(log["seats"], log["options"]), log["seed"])
    for i, (seat, data, text) in enumerate(log["moves"]):
        move = GAME.parse_move(data)
        assert GAME.parse_move(text) == move, f"move {i}: the text {text!r} reads as another move"
        assert GAME.pending(state).seats == (seat,), f"move {i}: seat {seat} is not the one deciding"
        assert move in GAME.legal_moves(state, seat), f"move {i}: {text} is no longer legal"
        GAME.apply(state, seat, move)
    assert GAME.pending(state).kind == "over"
    result = GAME.result(state)
    assert result is not None
    expected = log["result"]
    assert list(result.winners) == expected["winners"]
    assert list(result.scores) == expected["scores"]
    assert result.rule_id == expected["rule_id"]

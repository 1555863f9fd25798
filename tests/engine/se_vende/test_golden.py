"""Golden logs replay exactly: every recorded move is still legal and the result is the same.

The logs (``golden/*.json``, see ``golden_logs.py``) were recorded before the rework of issues
11-18; their moves are read back from both their JSON and their old text form.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.engine.se_vende.golden_logs import load_all, record
from tests.engine.se_vende.helpers import GAME

LOGS = load_all()


def test_there_are_about_thirty_logs_over_every_sample_configuration() -> None:
    assert len(LOGS) >= 30
    configs = {(log["seats"], tuple(sorted(log["options"].items()))) for log in LOGS}
    assert configs == {(s, tuple(sorted(o.items()))) for s, o in GAME.sample_configs()}
    assert any("heuristic" in log["bots"] for log in LOGS) and any(set(log["bots"]) == {"random"} for log in LOGS)


@pytest.mark.parametrize("log", LOGS, ids=lambda log: log["name"])
def test_golden_log_replays(log: dict[str, Any]) -> None:
    config = GAME.make_config(log["seats"], log["options"])
    state = GAME.new_game(config, log["seed"])
    for i, (seat, data, text) in enumerate(log["moves"]):
        move = GAME.parse_move(data)
        assert GAME.parse_move(text) == move, f"move {i}: old text {text!r} reads differently"
        assert seat in GAME.pending(state).seats, f"move {i}: seat {seat} is not deciding"
        assert move in GAME.legal_moves(state, seat), f"move {i}: {text} is no longer listed"
        GAME.apply(state, seat, move)
    result = GAME.result(state)
    assert result is not None, "the game did not end"
    assert list(result.winners) == log["result"]["winners"]
    assert list(result.scores) == log["result"]["scores"]
    assert result.rule_id == log["result"]["rule_id"]


@pytest.mark.parametrize("log", LOGS, ids=lambda log: log["name"])
def test_the_same_bots_make_the_same_moves(log: dict[str, Any]) -> None:
    """Legal moves are listed in the same order and the bots decide as before, so seeded play is unchanged.

    If a rule change (from an issue) changes a log, regenerate that log with ``golden_logs.py`` and say why.
    """
    again = record({k: log[k] for k in ("name", "seats", "options", "seed", "bots")})
    assert [m[:2] for m in again["moves"]] == [m[:2] for m in log["moves"]]
    assert again["result"] == log["result"]

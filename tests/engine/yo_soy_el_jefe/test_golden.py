"""Golden games: seeded bot games recorded before a change replay move by move with the same result.

Each file under ``golden/`` holds a configuration, a seed, every move's JSON and the result
(see ``golden/regenerate.py``). Replaying parses each move with ``parse_move``, checks it is
among the seat's legal moves, applies it, and compares the final result.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from club_agentes.engine.core import get_game

from .golden.regenerate import HERE, load

GAME = get_game("yo-soy-el-jefe")
FILES = sorted(HERE.glob("*.json.gz"))


def test_there_are_golden_games() -> None:
    assert len(FILES) >= 30


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name.removesuffix(".json.gz"))
def test_golden_game_replays(path: Path) -> None:
    data = load(path)
    config = GAME.make_config(data["seats"], data["options"])
    state = GAME.new_game(config, data["seed"])
    for i, (seat, raw) in enumerate(data["moves"]):
        move = GAME.parse_move(raw)
        pending = GAME.pending(state)
        assert seat in pending.seats, f"move {i}: seat {seat} is not deciding ({pending})"
        assert move in GAME.legal_moves(state, seat), f"move {i}: {move.text()!r} is not legal for seat {seat}"
        GAME.apply(state, seat, move)
    assert GAME.pending(state).kind == "over"
    result = GAME.result(state)
    assert result is not None
    expected = data["result"]
    assert list(result.winners) == expected["winners"]
    assert list(result.scores) == expected["scores"]
    assert result.rule_id == expected["rule_id"]

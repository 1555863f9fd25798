"""Each game's state lines (``Game.state_text``) over random playouts of every sample configuration.

The lines are built from the seat's view alone: they never raise, a seat's lines hold its own "You:"
line and a spectator's none, they name every card of the seat's hand, and they are the same for the
same view. The lines a decision text shows are checked over MCP in tests/mcp/test_decision_text.py.
"""

from __future__ import annotations

from typing import Any

import pytest
from club_agentes.engine.core import all_games, get_game
from club_agentes.engine.core.rng import Rng

CASES = [
    pytest.param(g.id, seats, opts, marks=() if i == 0 else pytest.mark.slow, id=f"{g.id}-{seats}-{opts}")
    for g in all_games()
    for i, (seats, opts) in enumerate(g.sample_configs())
]
"""Every sample configuration of every game; the first of each game in the default run, the rest in the slow set."""
STEPS = 400


def hand_names(game: str, view: dict[str, Any]) -> list[str]:
    """What the "You:" line must name for each card of the hand (Market Fortune: the industry)."""
    return [c["industry"] if game == "market-fortune" else c["name"] for c in view.get("hand", [])]


@pytest.mark.parametrize(("game_id", "seats", "options"), CASES)
def test_state_lines_over_playouts(game_id: str, seats: int, options: dict[str, Any]) -> None:
    game = get_game(game_id)
    state, _ = game.start(game.make_config(seats, options), 7)
    rng = Rng(7)
    for _ in range(STEPS):
        for seat in [None, *range(seats)]:
            view = game.view(state, seat)
            text = game.state_text(view)
            assert text and text == game.state_text(view)
            you = [x for x in text.split("\n") if x.startswith("You: ")]
            if seat is None:
                assert not you, text
                continue
            assert len(you) == 1, text
            for name in hand_names(game_id, view):
                assert name in you[0], f"{name} of seat {seat}'s hand is not in: {you[0]}"
        pending = game.pending(state)
        if pending.kind == "over":
            break
        seat = next(s for s in pending.seats if s not in pending.done)
        moves = game.legal_moves(state, seat)
        game.apply(state, seat, rng.choice(moves))

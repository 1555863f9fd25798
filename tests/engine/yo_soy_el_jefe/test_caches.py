"""What the engine keeps between decisions (the group at a close, the negotiation prompt, kept per change of the
negotiation and carried over changes that leave the group as it was) always equals a fresh computation."""

from __future__ import annotations

from typing import Any

import pytest
from club_agentes.engine.core import RandomBot, play
from club_agentes.engine.yo_soy_el_jefe.steps.deal import current_group, current_missing, group, missing

from .helpers import game


@pytest.mark.parametrize(("seats", "options"), game.sample_configs())
def test_kept_group_prompt_and_moves_equal_fresh_ones(seats: int, options: dict[str, Any]) -> None:
    checked = 0

    def compare(state: Any, seat: int, moves: list) -> None:
        nonlocal checked
        fresh = game.clone(state)  # a copy keeps nothing worked out for the original
        assert game.pending(fresh) == game.pending(state)
        assert game.legal_moves(fresh, seat) == moves
        if state.neg is not None:
            parts, complete = group(state, state.neg)
            assert current_group(state) == (parts, complete)
            assert current_missing(state) == missing(state.neg, parts, complete)
            checked += 1

    play(game, game.make_config(seats, options), 11, [RandomBot() for _ in range(seats)], on_decision=compare)
    assert checked > 50

"""The heuristic bot decides from the seat's view only (an Observation), and plays better than chance.

The win rate over 200 seeded games is measured by a script (see the report);
this test plays a small fixed sample so that a broken bot is noticed.
"""

from __future__ import annotations

from typing import Any

from club_agentes.engine.core import RandomBot, Rng, play
from club_agentes.engine.core.model import Observation
from club_agentes.engine.se_vende.bots import HeuristicBot
from club_agentes.engine.se_vende.state import SeVendeState

from tests.engine.se_vende.helpers import GAME


def test_heuristic_bot_decides_from_the_view_only() -> None:
    """A state whose hidden parts are scrambled consistently with the seat's view gives the same decisions."""
    bot = HeuristicBot()
    cfg = GAME.make_config(3, {"turn_limit": 10})
    compared = 0
    scramble = Rng(99)

    def check(state: SeVendeState, seat: int, moves: list[Any]) -> None:
        nonlocal compared
        world = GAME.determinize(state, seat, scramble)
        assert GAME.view(world, seat) == GAME.view(state, seat)
        assert GAME.legal_moves(world, seat) == moves
        real = bot.choose(Observation(GAME, state, seat, moves), Rng(7))
        blind = bot.choose(Observation(GAME, world, seat, moves), Rng(7))
        assert real == blind and real in moves
        compared += 1

    play(GAME, cfg, 3, [HeuristicBot(), RandomBot(), HeuristicBot()], on_decision=check)
    assert compared > 50


def test_heuristic_bot_beats_random_bots() -> None:
    cfg = GAME.make_config(3)
    wins = 0
    for seed in range(24):
        seat = seed % 3
        bots = [HeuristicBot() if i == seat else RandomBot() for i in range(3)]
        record = play(GAME, cfg, seed, bots)
        result = GAME.result(record.state)
        assert record.finished and result is not None
        wins += seat in result.winners
    assert wins >= 16, f"the heuristic bot won only {wins} of 24 games"


def test_bots_are_registered() -> None:
    assert set(GAME.bots) == {"random", "heuristic", "mcts"}
    assert isinstance(GAME.make_bot("heuristic"), HeuristicBot)
    for cls in GAME.bots.values():
        assert isinstance(cls.strength, str) and cls.strength and cls.from_view is True

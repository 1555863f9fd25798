"""The heuristic bot decides from the seat's view only (an Observation), and plays better than chance.

The win rate over 200 seeded games is measured by a script (see the report);
this test plays a small fixed sample so that a broken bot is noticed.
"""

from __future__ import annotations

import inspect
from typing import Any

from club_agentes.engine.core import RandomBot, Rng, play
from club_agentes.engine.core.model import Observation
from club_agentes.engine.se_vende.bots import HeuristicBot
from club_agentes.engine.se_vende.moves import ChooseAction
from club_agentes.engine.se_vende.state import State

from tests.engine.se_vende.helpers import GAME


def test_heuristic_bot_decides_from_the_view_only() -> None:
    """A state whose hidden parts are scrambled consistently with the seat's view gives the same decisions."""
    bot = HeuristicBot()
    cfg = GAME.make_config(3, {"turn_limit": 10})
    compared = 0
    scramble = Rng(99)

    def check(state: State, seat: int, moves: list[Any]) -> None:
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
        assert isinstance(cls.strength, str) and cls.strength
        assert list(inspect.signature(cls.choose).parameters) == ["self", "obs", "rng"]


def test_mcts_bot_plays_legal_moves_and_decides_the_same_in_a_scrambled_world() -> None:
    """bot:mcts (a small seeded budget) searches from the view only: a world whose hidden parts are drawn anew
    (sealed choices of other seats included) gives the same search and move; it plays a game to the end."""
    checked = 0

    def check(state: State, seat: int, moves: list[Any]) -> None:
        nonlocal checked
        if checked >= 8 or len(moves) < 2:
            return
        world = GAME.determinize(state, seat, Rng(100 + checked))
        real, blind = (GAME.make_bot("mcts", iterations=24, budget_ms=None) for _ in range(2))
        a = real.choose(Observation(GAME, state, seat, moves), Rng(5))
        b = blind.choose(Observation(GAME, world, seat, GAME.legal_moves(world, seat)), Rng(5))
        assert a == b and a in moves
        assert real.stats.root_visits == blind.stats.root_visits
        checked += 1

    bots = [HeuristicBot(), GAME.make_bot("mcts", iterations=24, budget_ms=None)]
    record = play(GAME, GAME.make_config(2, {"turn_limit": 12}), 3, bots, on_decision=check)
    assert record.finished and GAME.result(record.state) is not None
    assert checked == 8


def test_mcts_searches_the_sealed_choices_of_the_others_itself() -> None:
    """Before a search, the sampled world's random action card of a seat that chose first is withdrawn."""
    from club_agentes.engine.se_vende.mcts import reopen, sealed_step

    state = GAME.new_game(GAME.make_config(2, {}), 4)
    while GAME.pending(state).seats != (0, 1) or not isinstance(GAME.legal_moves(state, 0)[0], ChooseAction):
        seat = GAME.pending(state).seats[0]
        moves = GAME.legal_moves(state, seat)
        GAME.apply(state, seat, HeuristicBot().choose(Observation(GAME, state, seat, moves), Rng(1)))
    GAME.apply(state, 0, GAME.legal_moves(state, 0)[0])
    world = GAME.determinize(state, 1, Rng(2))
    assert GAME.pending(world).seats == (1,)
    reopen(world, 1)
    assert GAME.pending(world).seats == (0, 1)
    assert sealed_step(world) == sealed_step(state) is not None


def test_the_heuristic_decides_the_same_from_the_rollout_view() -> None:
    """bot:mcts's rollouts feed the heuristic a view built straight from the sampled world: same decisions."""
    from club_agentes.engine.core.mcts import WorldView
    from club_agentes.engine.se_vende.mcts import rollout_view

    compared = 0

    def check(state: State, seat: int, moves: list[Any]) -> None:
        nonlocal compared
        if len(moves) < 2:
            return
        full = HeuristicBot().choose(Observation(GAME, state, seat, moves), Rng(compared))
        quick = HeuristicBot().choose(WorldView(GAME, seat, moves, rollout_view(state, seat)), Rng(compared))
        assert quick == full, f"{full.text()} from the view, {quick.text()} from the rollout view"
        compared += 1

    for seats, seed in ((2, 5), (3, 6), (4, 7)):
        bots = [HeuristicBot() if s % 2 == 0 else RandomBot() for s in range(seats)]
        play(GAME, GAME.make_config(seats, {}), seed, bots, on_decision=check)
    assert compared > 300

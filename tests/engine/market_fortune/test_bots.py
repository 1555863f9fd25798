"""Bots decide from their seat's view only (issue 18.1)."""

from __future__ import annotations

import inspect

from club_agentes.engine.core import RandomBot, Rng, play
from club_agentes.engine.core.model import Observation
from club_agentes.engine.market_fortune.bots import HeuristicBot
from club_agentes.engine.market_fortune.state import State

from tests.engine.market_fortune.helpers import GAME


def test_bots_declare_their_strength_and_decide_from_views() -> None:
    for kind, cls in GAME.bots.items():
        assert isinstance(cls.strength, str) and cls.strength, kind
        assert list(inspect.signature(cls.choose).parameters) == ["self", "obs", "rng"], kind
    assert GAME.bots["heuristic"] is HeuristicBot


def test_heuristic_bot_decides_the_same_when_the_hidden_cards_are_scrambled() -> None:
    """A world whose hidden parts are redealt consistently with the seat's view gives the same decisions."""
    bot = GAME.make_bot("heuristic")
    checked = [0]
    count = [0]
    scramble = Rng(41)

    def check(st: State, seat: int, moves: list) -> None:
        count[0] += 1
        if count[0] % 3 or len(moves) < 2:
            return
        world = GAME.determinize(st, seat, scramble)
        assert GAME.view(world, seat) == GAME.view(st, seat)
        world_moves = GAME.legal_moves(world, seat)
        assert world_moves == moves
        first = bot.choose(Observation(GAME, st, seat, moves), Rng(count[0]))
        again = bot.choose(Observation(GAME, world, seat, world_moves), Rng(count[0]))
        assert again == first, f"decision {count[0]}: {first.text()} in the true state, {again.text()} in the world"
        checked[0] += 1

    for seats, options, seed in ((4, {}, 2), (3, {"mode": "campeonato", "turn_limit": 100, "game_limit": 2}, 6)):
        bots = [GAME.make_bot("heuristic") if s % 2 == 0 else RandomBot() for s in range(seats)]
        play(GAME, GAME.make_config(seats, options), seed, bots, on_decision=check)
    assert checked[0] > 50


def test_mcts_bot_plays_legal_moves_and_decides_the_same_in_a_scrambled_world() -> None:
    """bot:mcts (a small seeded budget) searches from the view only: a world redealt consistently with the
    seat's view gives the same search and move; it plays a 2-seat game to the end."""
    checked = 0

    def check(st: State, seat: int, moves: list) -> None:
        nonlocal checked
        if checked >= 6 or len(moves) < 2:
            return
        world = GAME.determinize(st, seat, Rng(100 + checked))
        real, blind = (GAME.make_bot("mcts", iterations=24, budget_ms=None) for _ in range(2))
        a = real.choose(Observation(GAME, st, seat, moves), Rng(5))
        b = blind.choose(Observation(GAME, world, seat, GAME.legal_moves(world, seat)), Rng(5))
        assert a == b and a in moves
        assert real.stats.root_visits == blind.stats.root_visits and real.stats.iterations >= 24
        checked += 1

    bots = [GAME.make_bot("mcts", iterations=24, budget_ms=None), HeuristicBot()]
    record = play(GAME, GAME.make_config(2, {}), 3, bots, on_decision=check)
    assert record.finished and GAME.result(record.state) is not None
    assert checked == 6
    assert "figures" in GAME.make_bot("mcts").strength


def test_the_heuristic_decides_the_same_from_the_rollout_view() -> None:
    """bot:mcts's rollouts feed the heuristic a view built straight from the sampled world: same decisions."""
    from club_agentes.engine.core.mcts import WorldView
    from club_agentes.engine.market_fortune.mcts import rollout_view

    compared = 0

    def check(st: State, seat: int, moves: list) -> None:
        nonlocal compared
        if len(moves) < 2:
            return
        full = HeuristicBot().choose(Observation(GAME, st, seat, moves), Rng(compared))
        quick = HeuristicBot().choose(WorldView(GAME, seat, moves, rollout_view(st, seat)), Rng(compared))
        assert quick == full, f"{full.text()} from the view, {quick.text()} from the rollout view ({st.step})"
        compared += 1

    for seats, options, seed in (
        (2, {}, 4),
        (4, {}, 8),
        (3, {"mode": "campeonato", "turn_limit": 60, "game_limit": 2}, 6),
    ):
        bots = [HeuristicBot() if s % 2 == 0 else RandomBot() for s in range(seats)]
        play(GAME, GAME.make_config(seats, options), seed, bots, on_decision=check)
    assert compared > 250

"""The bots: legal moves to the end, decisions from the seat's view only, stronger than random play."""

from __future__ import annotations

import inspect
import json
from typing import Any

from club_agentes.engine.core import RandomBot, Rng, play
from club_agentes.engine.core.model import Observation
from club_agentes.engine.yo_soy_el_jefe.bots import HeuristicBot
from club_agentes.engine.yo_soy_el_jefe.moves import MOVES

from .helpers import game


def test_every_bot_kind_states_its_strength_and_decides_from_views() -> None:
    for kind, cls in game.bots.items():
        assert isinstance(cls.strength, str) and cls.strength, kind
        assert list(inspect.signature(cls.choose).parameters) == ["self", "obs", "rng"], kind


def test_the_heuristic_bot_plays_legal_moves_to_the_end() -> None:
    for seats in (2, 4, 6):
        bots = [HeuristicBot() if s % 2 == 0 else RandomBot() for s in range(seats)]
        record = play(game, game.make_config(seats, {}), 11, bots, max_decisions=50_000)
        assert record.finished and game.result(record.state) is not None


def test_the_heuristic_bot_decides_from_the_view_only() -> None:
    """A state whose hidden parts are dealt anew, consistently with the seat's view, gives the same decisions."""
    seen = 0

    def check(state: Any, seat: int, moves: list) -> None:
        nonlocal seen
        if seen >= 60 or len(moves) < 2:
            return
        seen += 1
        other = game.determinize(state, seat, Rng(seen))  # other hands and the deck scrambled
        assert game.view(other, seat) == game.view(state, seat)
        assert other.hands != state.hands or other.deck != state.deck
        a = HeuristicBot().choose(Observation(game, state, seat, moves), Rng(1))
        b = HeuristicBot().choose(Observation(game, other, seat, moves), Rng(1))
        assert a == b

    play(game, game.make_config(4, {}), 5, [HeuristicBot() for _ in range(4)], on_decision=check, max_decisions=5_000)
    assert seen == 60


def test_the_heuristic_bot_beats_random_bots() -> None:
    """A small seeded sample (benchmarks/engine.py measures 200 games): the heuristic seat rotates."""
    wins = 0
    for seed in range(1, 7):
        hero = seed % 4
        bots = [HeuristicBot() if s == hero else RandomBot() for s in range(4)]
        record = play(game, game.make_config(4, {}), seed, bots)
        wins += hero in game.result(record.state).winners
    assert wins >= 5


def test_the_mcts_bot_plays_legal_moves_and_decides_the_same_in_a_scrambled_world() -> None:
    """bot:mcts (a small seeded budget) searches from the view only, negotiation acts included: a world whose
    hidden cards are dealt anew gives the same search and move; it plays a 2-seat game to the end."""
    checked = 0
    kinds: set[str] = set()

    def check(state: Any, seat: int, moves: list) -> None:
        nonlocal checked
        if checked >= 8 or len(moves) < 2:
            return
        other = game.determinize(state, seat, Rng(100 + checked))
        real, blind = (game.make_bot("mcts", iterations=24, budget_ms=None) for _ in range(2))
        a = real.choose(Observation(game, state, seat, moves), Rng(5))
        b = blind.choose(Observation(game, other, seat, game.legal_moves(other, seat)), Rng(5))
        assert a == b and a in moves
        assert real.stats.root_visits == blind.stats.root_visits
        kinds.update(text.split()[0] for text in real.stats.root_visits)
        checked += 1

    bots = [game.make_bot("mcts", iterations=24, budget_ms=None), HeuristicBot()]
    record = play(game, game.make_config(2, {}), 5, bots, on_decision=check, max_decisions=20_000)
    assert record.finished and game.result(record.state) is not None
    assert checked == 8
    assert kinds & {"offer", "bid", "accept", "close", "family", "travel", "hire", "boss"}, kinds


def test_the_mcts_bot_searches_a_few_prices_only() -> None:
    from club_agentes.engine.yo_soy_el_jefe.mcts import PRICE_SHARES, candidates
    from club_agentes.engine.yo_soy_el_jefe.moves import Price

    seen = 0

    def check(state: Any, seat: int, moves: list) -> None:
        nonlocal seen
        if not isinstance(moves[0], Price):
            return
        kept = candidates(game, state, seat, moves)
        assert kept and all(m in moves for m in kept)
        assert len(kept) <= max(len(moves), 2 * len(PRICE_SHARES))
        seen += 1

    for seed in range(1, 4):
        play(game, game.make_config(3, {}), seed, [HeuristicBot(), RandomBot(), HeuristicBot()], on_decision=check)
    assert seen > 0


def test_the_heuristic_bot_decides_the_same_from_the_view_and_moves_read_back_from_json() -> None:
    """What an agent receives over MCP (the view and the legal moves' JSON forms) is enough to decide as the
    heuristic does: benchmarks/negotiation_races.py --policy heuristic relies on it."""
    seen = 0

    def check(state: Any, seat: int, moves: list) -> None:
        nonlocal seen
        if seen >= 200 or len(moves) < 2:
            return
        seen += 1
        view = json.loads(json.dumps(game.view(state, seat)))
        read_back = [MOVES.parse_json(json.loads(json.dumps(m.to_json()))) for m in moves]
        assert read_back == moves
        expected = HeuristicBot().choose(Observation(game, state, seat, moves), Rng(1))
        assert HeuristicBot().decide(view, seat, read_back) == expected

    for seats in (2, 4):
        play(game, game.make_config(seats, {}), 3, [HeuristicBot() for _ in range(seats)], on_decision=check)
    assert seen >= 100

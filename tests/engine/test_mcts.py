"""The generic ISMCTS bot finds winning moves and only ever samples worlds (tested on a small Nim and a sealed toy)."""

from __future__ import annotations

import copy
import math
import pickle
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

import pytest
from club_agentes.engine.core import Event, Game, Pending, RandomBot, Result, Rng, SealedChoices, play
from club_agentes.engine.core.mcts import (
    TUNED,
    BotRollout,
    MctsBot,
    Policies,
    SearchOptions,
    Tuning,
    softmax,
    weighted_scores,
)
from club_agentes.engine.core.model import Observation, decide
from club_agentes.engine.core.moves import Int, MoveCodec, spec

from tests.engine.toys import SealedToy

MOVES = MoveCodec("Nim move")


@MOVES.move("take {n}", "Take 1 to 3 counters from the pile.")
@dataclass(frozen=True, slots=True)
class Take:
    type: ClassVar[str] = "take"
    n: int = spec(Int("counters", 1, 3))


@dataclass
class NimConfig:
    seats: int = 2

    def to_json(self) -> dict[str, Any]:
        return {}


@dataclass
class NimState:
    config: NimConfig
    pile: int
    turn: int = 0
    winner: int | None = None
    samples: int = 0


class Nim(Game[NimState, Take, NimConfig]):
    """Two players take 1-3 counters in turn; whoever takes the last counter wins."""

    id = "nim"
    name = "Nim"
    min_seats = 2
    max_seats = 2
    moves = MOVES

    def make_config(self, seats: int, options: Mapping[str, Any] | None = None) -> NimConfig:
        return NimConfig(seats)

    def config_schema(self) -> dict[str, Any]:
        return {"type": "object"}

    def new_game(self, config: NimConfig, seed: int) -> NimState:
        return NimState(config, pile=seed)

    def pending(self, state: NimState) -> Pending:
        if state.winner is not None:
            return Pending("over", ())
        return Pending("turn", (state.turn,), "take 1 to 3")

    def legal_moves(self, state: NimState, seat: int) -> list[Take]:
        if state.winner is not None or seat != state.turn:
            return []
        return [Take(n) for n in (1, 2, 3) if n <= state.pile]

    def apply(self, state: NimState, seat: int, move: Take) -> list[Event]:
        state.pile -= move.n
        if state.pile == 0:
            state.winner = seat
        state.turn = 1 - seat
        return [Event(f"seat {seat} took {move.n}")]

    def view(self, state: NimState, seat: int | None) -> dict[str, Any]:
        return {"pile": state.pile, "turn": state.turn}

    def result(self, state: NimState) -> Result | None:
        if state.winner is None:
            return None
        return Result((state.winner,), tuple(1.0 if s == state.winner else 0.0 for s in (0, 1)), "took the last")

    def render(self, view: dict[str, Any]) -> str:
        return f"pile {view['pile']}"

    def rule_ids(self) -> frozenset[str]:
        return frozenset()

    def snapshot(self, state: NimState) -> dict[str, Any]:
        return {"pile": state.pile, "turn": state.turn, "winner": state.winner}

    def determinize(self, state: NimState, seat: int, rng: Rng) -> NimState:
        state.samples += 1  # counts the worlds the bot asked for
        return NimState(state.config, state.pile, state.turn, state.winner)


def test_mcts_takes_the_winning_move() -> None:
    game = Nim()
    for pile, best in ((5, 1), (6, 2), (7, 3), (9, 1), (10, 2)):
        state = game.new_game(game.make_config(2), pile)
        bot = MctsBot(iterations=600, budget_ms=None)
        move = decide(bot, game, state, 0, game.legal_moves(state, 0), Rng(pile))
        assert move == Take(best), f"pile {pile}: took {move.n}, the winning move takes {best}"
        assert state.samples == bot.stats.iterations == 600


def test_mcts_plays_from_an_observation_only() -> None:
    game = Nim()
    state = game.new_game(game.make_config(2), 13)
    obs = Observation(game, state, 0, game.legal_moves(state, 0))
    public = {n for n in dir(obs) if not n.startswith("_")}
    assert public == {"game", "moves", "seat", "view", "sample_world"}, "an Observation exposes no state"
    move = MctsBot(iterations=200, budget_ms=None).choose(obs, Rng(1))
    assert move in game.legal_moves(state, 0)
    assert state.pile == 13, "searching never changes the true state"


def test_a_forced_move_needs_no_search() -> None:
    game = Nim()
    state = game.new_game(game.make_config(2), 1)
    bot = MctsBot(iterations=100, budget_ms=None)
    assert decide(bot, game, state, 0, game.legal_moves(state, 0), Rng(1)) == Take(1)
    assert state.samples == 0


class TakeThree:
    """A guide that always takes as many counters as it may (a poor Nim player)."""

    def choose(self, obs: Observation, rng: Rng) -> Take:
        return max(obs.moves, key=lambda m: m.n)


def test_a_sweep_compares_every_move_in_the_same_worlds() -> None:
    game = Nim()
    for pile, best in ((5, 1), (6, 2), (7, 3)):
        state = game.new_game(game.make_config(2), pile)
        bot = MctsBot(iterations=900, budget_ms=None, sweep=True)
        move = decide(bot, game, state, 0, game.legal_moves(state, 0), Rng(pile))
        assert move == Take(best), f"pile {pile}: took {move.n}, the winning move takes {best}"
        assert set(bot.stats.root_visits.values()) == {300}, "every root move is played in every sampled world"
        assert state.samples == 300, "one sampled world per sweep"


def test_without_a_tree_a_sweep_plays_the_rollout_right_after_each_root_move() -> None:
    game = Nim()
    state = game.new_game(game.make_config(2), 9)
    moves = game.legal_moves(state, 0)
    deep = MctsBot(iterations=300, budget_ms=None, sweep=True)
    decide(deep, game, state, 0, moves, Rng(4))
    assert deep.stats.max_depth > 1, "by default the tree grows below the root moves"
    flat = MctsBot(iterations=300, budget_ms=None, sweep=True, tree=False)
    decide(flat, game, state, 0, moves, Rng(4))
    assert flat.stats.max_depth == 1, "no node below the root moves: each iteration goes straight to the rollout"
    assert set(flat.stats.root_visits.values()) == {100}
    assert Tuning(TakeThree, "x", options=SearchOptions(tree=False)).make_bot().options.tree is False
    assert Tuning(TakeThree, "x").make_bot(tree=False).options.tree is False


def test_a_sweep_leaves_the_guides_move_only_for_a_clearly_better_one() -> None:
    game = Nim()
    state = game.new_game(game.make_config(2), 5)
    moves = game.legal_moves(state, 0)
    bot = MctsBot(Policies(guide=TakeThree), iterations=600, budget_ms=None, sweep=True)
    assert decide(bot, game, state, 0, moves, Rng(3)) == Take(1)
    assert bot.stats.guide_move == "take 3" and bot.stats.chosen == "take 1"
    # The rule itself, on rewards world by world: a gain of 0.1 with a standard error of 0.05.
    samples = {"guide": [0.5, 0.5, 0.5, 0.5], "other": [0.5, 0.7, 0.6, 0.6], "worse": [0.4, 0.4, 0.4, 0.4]}
    assert MctsBot(sweep=True, switch_z=1.0)._sweep_choice(samples, "guide") == "other"
    assert MctsBot(sweep=True, switch_z=3.0)._sweep_choice(samples, "guide") == "guide"
    assert MctsBot(sweep=True)._sweep_choice(samples, None) == "other"


def test_the_guides_move_counts_extra_visits() -> None:
    game = Nim()
    state = game.new_game(game.make_config(2), 5)
    moves = game.legal_moves(state, 0)
    plain = MctsBot(Policies(guide=TakeThree), iterations=60, budget_ms=None, guide_visits=0)
    assert decide(plain, game, state, 0, moves, Rng(3)) == Take(1)
    guided = MctsBot(Policies(guide=TakeThree), SearchOptions(iterations=60, budget_ms=None, guide_visits=60))
    assert decide(guided, game, state, 0, moves, Rng(3)) == Take(3)


def test_candidates_narrow_the_root_and_prepare_sees_every_world() -> None:
    game = Nim()
    state = game.new_game(game.make_config(2), 9)
    prepared: list[int] = []

    def only_two(game: Any, world: NimState, seat: int, moves: list[Take]) -> list[Take]:
        return [m for m in moves if m.n == 2]

    policies = Policies(candidates=only_two, prepare=lambda world, seat: prepared.append(world.pile))
    bot = MctsBot(policies, iterations=50, budget_ms=None)
    assert decide(bot, game, state, 0, game.legal_moves(state, 0), Rng(2)) == Take(2)
    assert set(bot.stats.root_visits) == {"take 2"}
    assert prepared == [9] * 50


class SampledSealed(SealedToy):
    """The sealed toy with rounds counted and worlds sampled: other seats' sealed picks drawn anew."""

    id = "toy-sealed-sampled"

    def seat_count(self, state: Any) -> int:
        return int(state.seats)

    def apply(self, state: Any, seat: int, move: Any) -> list[Event]:  # type: ignore[override]
        events = super().apply(state, seat, move)
        if len(events) > 1:  # the round was revealed
            state.rounds = getattr(state, "rounds", 0) + 1
        return events

    def determinize(self, state: Any, seat: int, rng: Rng) -> Any:  # type: ignore[override]
        world = copy.deepcopy(state)
        world.round = SealedChoices(range(state.seats))
        for s in state.round.done:
            world.round.submit(s, state.round.own(s) if s == seat else rng.below(3))
        return world


def test_sealed_steps_are_searched_per_seat() -> None:
    """Every seat picks at once; the decoupled tree plays legally to the end and beats random picks."""
    game = SampledSealed()
    config = game.make_config(2)
    sealed: list[int] = []

    def round_of(st: Any) -> int:
        sealed.append(len(st.round.done))
        return getattr(st, "rounds", 0)

    wins = 0.0
    for seed in range(6):
        bot = MctsBot(Policies(sealed_step=round_of), iterations=120, budget_ms=None, sweep=seed % 2 == 1)
        bots = [bot, RandomBot()] if seed < 3 else [RandomBot(), bot]
        rec = play(game, config, seed, bots)
        result = game.result(rec.state)
        assert rec.finished and result is not None
        me = 0 if seed < 3 else 1
        wins += (me in result.winners) / len(result.winners)
    assert sealed and max(sealed) == 1, "the tree walked into the other seat's pick of the same round"
    assert wins >= 4, f"the search won only {wins} of 6 games against random picks"


def test_a_time_budget_alone_ends_the_search() -> None:
    game = Nim()
    state = game.new_game(game.make_config(2), 30)
    bot = MctsBot(iterations=None, budget_ms=5)
    assert decide(bot, game, state, 0, game.legal_moves(state, 0), Rng(1)) in game.legal_moves(state, 0)
    assert bot.stats.iterations >= 1 and bot.stats.cpu_seconds > 0


@pytest.mark.parametrize(
    ("options", "needle"),
    [
        ({"iterations": None, "budget_ms": None}, "needs a budget"),
        ({"iterations": 0}, "iterations must be a whole number"),
        ({"budget_ms": 0.5}, "budget_ms must be"),
        ({"exploration": -1}, "exploration must be"),
        ({"rollout_depth": -1}, "rollout_depth must be"),
        ({"guide_visits": 1.5}, "guide_visits must be"),
        ({"switch_z": 11}, "switch_z must be"),
    ],
)
def test_options_out_of_range_are_refused_in_one_sentence(options: dict[str, Any], needle: str) -> None:
    with pytest.raises(ValueError, match=needle) as err:
        MctsBot(**options)
    assert "\n" not in str(err.value)
    with pytest.raises(ValueError, match=needle):
        SearchOptions(**options)


def test_bot_rollout_plays_the_bot_and_pickles() -> None:
    game = Nim()
    state = game.new_game(game.make_config(2), 7)
    policy = BotRollout(TakeThree, epsilon=0.0)
    assert policy(game, state, 0, game.legal_moves(state, 0), Rng(1)) == Take(3)
    again = pickle.loads(pickle.dumps(policy))
    assert again(game, state, 0, game.legal_moves(state, 0), Rng(1)) == Take(3)
    with pytest.raises(ValueError, match="epsilon"):
        BotRollout(TakeThree, epsilon=2.0)


def test_a_tuning_builds_the_games_bot_with_its_defaults_and_the_tables_options() -> None:
    """A game's ``mcts`` module declares a Tuning: options not given take its defaults, given ones replace them."""

    def nim_estimate(state: NimState) -> list[float]:
        return [0.5, 0.5]

    options = replace(TUNED, rollout_depth=7, switch_z=2.0)
    tuning = Tuning(TakeThree, "tuned for Nim", Policies(estimate=nim_estimate), epsilon=0.2, options=options)
    bot = tuning.make_bot()
    o, p = bot.options, bot.policies
    assert (o.budget_ms, o.iterations, o.rollout_depth, o.switch_z) == (500.0, None, 7, 2.0)
    assert (p.guide, o.guide_visits, o.sweep, p.estimate) == (TakeThree, 10, True, nim_estimate)
    assert isinstance(p.rollout, BotRollout) and p.rollout.epsilon == 0.2 and p.rollout.bot_class is TakeThree
    assert bot.strength == "tuned for Nim"
    bot = tuning.make_bot(budget_ms=None, iterations=30, rollout_depth=3, epsilon=0.0, sweep=False)
    o, rollout = bot.options, bot.policies.rollout
    assert isinstance(rollout, BotRollout)
    assert (o.budget_ms, o.iterations, o.rollout_depth, o.sweep, rollout.epsilon) == (None, 30, 3, False, 0)
    game = Nim()
    state = game.new_game(game.make_config(2), 6)
    assert decide(bot, game, state, 0, game.legal_moves(state, 0), Rng(1)) == Take(2)  # leaves 4: a lost pile
    with pytest.raises(ValueError, match="rollout_depth must be"):
        tuning.make_bot(rollout_depth=-1)
    with pytest.raises(TypeError):
        tuning.make_bot(depth=3)  # type: ignore[call-arg]


def test_softmax_of_weighted_scores_is_the_logistic_model_for_two_seats() -> None:
    def features(world: Any, seat: int) -> tuple[float, float]:
        return (world[seat], 1.0)

    scores = weighted_scores((0.5, 2.0), features, (3.0, 1.0, 1.0), 3)
    assert scores == [3.5, 2.5, 2.5]
    shares = softmax(scores)
    assert sum(shares) == pytest.approx(1.0) and shares[1] == shares[2] < shares[0]
    assert softmax([1.0, 0.0])[0] == pytest.approx(1 / (1 + math.exp(-1.0)))
    with pytest.raises(ValueError):
        weighted_scores((0.5,), features, (3.0, 1.0), 2)

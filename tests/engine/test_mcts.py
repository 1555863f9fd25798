"""The generic ISMCTS bot finds winning moves and only ever samples worlds (tested on a small Nim)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from club_agentes.engine.core import Event, Game, Pending, Result, Rng
from club_agentes.engine.core.mcts import MctsBot
from club_agentes.engine.core.model import Observation, decide
from club_agentes.engine.core.moves import Int, MoveCodec, spec

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

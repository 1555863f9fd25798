"""Information-set Monte Carlo tree search: one bot for every game that can sample worlds.

Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012): the tree is the deciding seat's view
of the game. Each iteration samples a world consistent with that view (``Observation.sample_world``:
the game's determinization), walks down the tree choosing among the moves legal *in that world* by
UCB1 with availability counts, adds one new node, finishes the game with a rollout policy, and
backs the result up. Every node keeps one reward sum per seat, so each seat along the path chooses
for itself (the multiplayer "max^n" backup).

The rollout policy is random by default; a game may pass a cheap policy of its own
(``rollout=``). Rollouts are cut after ``rollout_depth`` decisions, and the game's
``estimate`` (when it has one) or a draw scores the cut. Simultaneous (sealed) decisions are
searched one seat at a time in seat order, as the engines present them.

Nothing here reads the true state: the bot only calls ``obs.sample_world``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from club_agentes.engine.core.model import Game, Observation
from club_agentes.engine.core.rng import Rng

RolloutPolicy = Callable[[Game[Any, Any, Any], Any, int, Sequence[Any], Rng], Any]
"""``(game, world, seat, legal moves, rng) -> move`` used to finish a sampled world quickly."""


def random_rollout(game: Game[Any, Any, Any], world: Any, seat: int, moves: Sequence[Any], rng: Rng) -> Any:
    """Pick a uniformly random legal move (the default rollout policy)."""
    return rng.choice(moves)


@dataclass(eq=False)
class _Node:
    """One tree node: reached by ``move`` played by ``seat`` from its parent."""

    move: Any = None
    seat: int = -1
    parent: _Node | None = None
    children: dict[Any, _Node] = field(default_factory=dict)
    visits: int = 0
    available: int = 0
    rewards: list[float] = field(default_factory=list)

    def ucb(self, c: float) -> float:
        mean = self.rewards[self.seat] / self.visits if self.visits else 0.0
        return mean + c * math.sqrt(math.log(max(1, self.available)) / self.visits) if self.visits else math.inf


def rewards_of(game: Game[Any, Any, Any], world: Any, seats: int) -> list[float]:
    """Return each seat's reward in ``world``: 1 shared among the winners once over, else the game's estimate."""
    result = game.result(world)
    if result is not None:
        out = [0.0] * seats
        for w in result.winners:
            out[w] = 1.0 / len(result.winners)
        return out
    estimate = getattr(game, "estimate", None)
    if callable(estimate):
        values = estimate(world)
        if values is not None:
            return [float(v) for v in values]
    return [1.0 / seats] * seats


@dataclass
class SearchStats:
    """What the last search did (for benchmarks and tests)."""

    iterations: int = 0
    seconds: float = 0.0
    root_visits: dict[str, int] = field(default_factory=dict)


class MctsBot:
    """``bot:mcts``: single-observer ISMCTS within a budget of iterations and/or milliseconds.

    Attributes:
        iterations: the most iterations per decision (``None``: no limit but time).
        budget_ms: the most milliseconds per decision (``None``: no limit but iterations).
        exploration: the UCB1 constant.
        rollout: the rollout policy.
        rollout_depth: the most decisions a rollout plays before the result is estimated.
    """

    name = "mcts"
    strength = "information-set Monte Carlo tree search over sampled worlds; the strongest reference bot"
    from_view = True

    def __init__(
        self,
        *,
        iterations: int | None = 400,
        budget_ms: float | None = 900.0,
        exploration: float = 0.7,
        rollout: RolloutPolicy = random_rollout,
        rollout_depth: int = 400,
    ) -> None:
        if iterations is None and budget_ms is None:
            raise ValueError("an MCTS bot needs a budget: iterations, milliseconds or both")
        self.iterations = iterations
        self.budget_ms = budget_ms
        self.exploration = exploration
        self.rollout = rollout
        self.rollout_depth = rollout_depth
        self.stats = SearchStats()

    def choose(self, obs: Observation, rng: Rng) -> Any:
        """Search and return the most visited legal move.

        Raises:
            IndexError: there is no legal move.
        """
        moves = list(obs.moves)
        if len(moves) == 1:
            return moves[0]
        if not moves:
            raise IndexError("no legal move to choose from")
        game = obs.game
        root = _Node()
        start = time.perf_counter()
        deadline = start + self.budget_ms / 1000 if self.budget_ms is not None else math.inf
        done = 0
        seats = 0
        while (self.iterations is None or done < self.iterations) and time.perf_counter() < deadline:
            world = obs.sample_world(rng)
            seats = game.seat_count(world)
            self._iterate(game, root, world, obs.seat, moves, seats, rng)
            done += 1
        self.stats = SearchStats(
            done,
            time.perf_counter() - start,
            {c.move.text(): c.visits for c in root.children.values() if hasattr(c.move, "text")},
        )
        if not root.children:
            return rng.choice(moves)
        legal = set(moves)
        best = max(
            (c for c in root.children.values() if c.move in legal),
            key=lambda c: (c.visits, c.rewards[obs.seat] if c.rewards else 0.0),
            default=None,
        )
        return best.move if best is not None else rng.choice(moves)

    def _iterate(
        self, game: Game[Any, Any, Any], root: _Node, world: Any, me: int, root_moves: list[Any], seats: int, rng: Rng
    ) -> None:
        node = root
        path = [root]
        # Selection and expansion, in the sampled world.
        while True:
            pending = game.pending(world)
            if pending.kind == "over":
                break
            seat = pending.seats[0]
            legal = root_moves if node is root else game.legal_moves(world, seat)
            if not legal:
                break
            for m in legal:
                child = node.children.get(m)
                if child is not None:
                    child.available += 1
            untried = [m for m in legal if m not in node.children]
            if untried:
                move = rng.choice(untried)
                child = _Node(move=move, seat=seat, parent=node, available=1, rewards=[0.0] * seats)
                node.children[move] = child
                game.apply(world, seat, move)
                path.append(child)
                break
            choices = [node.children[m] for m in legal]
            node = max(choices, key=lambda c: c.ucb(self.exploration))
            game.apply(world, seat, node.move)
            path.append(node)
        # Rollout.
        for _ in range(self.rollout_depth):
            pending = game.pending(world)
            if pending.kind == "over":
                break
            seat = pending.seats[0]
            legal = game.legal_moves(world, seat)
            if not legal:
                break
            game.apply(world, seat, self.rollout(game, world, seat, legal, rng))
        # Backpropagation.
        reward = rewards_of(game, world, seats)
        for n in path:
            n.visits += 1
            if n.rewards:
                for s in range(seats):
                    n.rewards[s] += reward[s]

"""Information-set Monte Carlo tree search: one bot for every game that can sample worlds.

Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012): the tree is the deciding seat's view
of the game. Each iteration samples a world consistent with that view (``Observation.sample_world``:
the game's determinization), walks down the tree choosing among the moves legal *in that world* by
UCB1 with availability counts, adds one new node, finishes the game with a rollout policy, and
backs the result up. Every node keeps one reward sum per seat, so each seat along the path chooses
for itself (the multiplayer "max^n" backup).

What a game may tune (the game package's ``mcts`` module declares a :class:`Tuning`, which passes these
to :class:`MctsBot`; :func:`weighted_scores` and :func:`softmax` make a fitted ``estimate``):

* ``rollout``: the policy that finishes a sampled world, random by default; :class:`BotRollout`
  plays a bot (e.g. the game's heuristic, deciding from the sampled world's views) with some
  random moves mixed in.
* ``rollout_depth`` and ``estimate``: a rollout is cut after that many decisions and the game's
  ``estimate(world) -> one value in [0, 1] per seat`` scores the cut world (a draw without one).
* ``reward``: the per-seat reward of a finished world (default: 1 shared among the winners).
* ``candidates``: narrows the moves the tree branches on (e.g. a few price amounts out of many);
  the root keeps at least one legal move, and rollouts still play any legal move.
* ``sealed_step``: names the step of the sampled world in which several seats choose without seeing
  each other's choices (a sealed or simultaneous step). Within one such step the tree keeps each
  seat's choices apart ("decoupled" statistics, as in simultaneous-move MCTS): a seat that chooses
  after another in the engine's order gets no benefit from a choice it could not have seen.
* ``prepare``: adjusts each sampled world before the search walks it, e.g. withdraws the sealed
  choices other seats made earlier in the current step (which the sample drew at random), so that
  the tree chooses them for those seats instead.
* ``guide`` and ``guide_visits``: a bot (e.g. the heuristic) whose move at the root counts that many
  extra visits when the most visited move is chosen, so the search leaves the guide's move only when
  the sampled worlds show a better one.
* ``sweep`` and ``switch_z``: instead of UCB1 at the root, every sampled world is played once from
  every root move (in copies of the world, with the same random stream: common random numbers), and
  a move replaces the guide's only when its gain over the guide's move, compared world by world,
  exceeds ``switch_z`` standard errors. The comparison then sees through the luck of the sampled
  world (who is ahead in it, which dice it rolls) that dominates single results in these games.
* ``tree``: ``False`` grows no tree below the root moves: after its root move each iteration goes
  straight to the rollout, so a sweep values every move under the rollout policy's play (a rollout
  search), without the noise of untried replies chosen at random below it.

A budget bounds each decision: ``iterations`` and/or ``budget_ms`` milliseconds of CPU time of the
deciding thread (so a loaded machine slows a decision down but does not change it while the
iteration count binds). Nothing here reads the true state: the bot only calls ``obs.sample_world``.
The bot keeps only plain options (module-level functions and small objects), so it pickles for a
worker process; :attr:`MctsBot.stats` describes the last search.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from club_agentes.engine.core.model import Game, Observation
from club_agentes.engine.core.rng import Rng

T = TypeVar("T")

RolloutPolicy = Callable[[Game[Any, Any, Any], Any, int, Sequence[Any], Rng], Any]
"""``(game, world, seat, legal moves, rng) -> move`` used to finish a sampled world quickly."""

Estimate = Callable[[Any], Sequence[float] | None]
"""``world -> one value in [0, 1] per seat`` (a seat's chance to win), or ``None`` when it cannot tell."""

Reward = Callable[[Game[Any, Any, Any], Any], Sequence[float]]
"""``(game, finished world) -> one reward in [0, 1] per seat``."""

Candidates = Callable[[Game[Any, Any, Any], Any, int, list[Any]], list[Any]]
"""``(game, world, seat, legal moves) -> the moves the tree branches on`` (a non-empty subset)."""

SealedStep = Callable[[Any], Hashable | None]
"""``world -> an id of the sealed step being played now``, or ``None`` outside sealed steps."""

Prepare = Callable[[Any, int], None]
"""``(sampled world, deciding seat) -> None``: changes the world in place before an iteration walks it."""


def random_rollout(game: Game[Any, Any, Any], world: Any, seat: int, moves: Sequence[Any], rng: Rng) -> Any:
    """Pick a uniformly random legal move (the default rollout policy)."""
    return rng.choice(moves)


class BotRollout:
    """A rollout policy that lets a bot play the sampled world, with some uniformly random moves mixed in.

    The bot decides as it would at a table, from its seat's view *of the sampled world*, so a heuristic
    bot makes a cheap, sensible rollout policy. Building a full view is often most of a rollout's cost: a
    game may pass ``view``, a function that builds just the parts of the view its bot reads (a test of
    the game checks the bot decides the same from it). Forced moves skip the bot. The policy keeps only
    the bot's class and module-level functions, so it pickles.

    Attributes:
        bot_class: the bot class (built once per process, with no arguments).
        epsilon: the share of decisions played uniformly at random instead (0 to 1).
        view: ``(world, seat) -> view`` for the bot, or ``None`` for the game's own view.
    """

    def __init__(
        self, bot_class: type, epsilon: float = 0.0, view: Callable[[Any, int], dict[str, Any]] | None = None
    ) -> None:
        if not 0.0 <= epsilon <= 1.0:
            raise ValueError(f"epsilon must be a number from 0 to 1, not {epsilon!r}")
        self.bot_class = bot_class
        self.epsilon = epsilon
        self.view = view
        self._bot: Any = None

    def __getstate__(self) -> dict[str, Any]:
        return {"bot_class": self.bot_class, "epsilon": self.epsilon, "view": self.view}

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.bot_class = data["bot_class"]
        self.epsilon = data["epsilon"]
        self.view = data.get("view")
        self._bot = None

    def __call__(self, game: Game[Any, Any, Any], world: Any, seat: int, moves: Sequence[Any], rng: Rng) -> Any:
        """Return the bot's move in ``world`` (or, with probability ``epsilon``, a random legal move)."""
        if len(moves) == 1:
            return moves[0]
        if self.epsilon and rng.below(1 << 20) < self.epsilon * (1 << 20):
            return rng.choice(moves)
        bot = self._bot
        if bot is None:
            bot = self._bot = self.bot_class()
        if self.view is not None:
            return bot.choose(WorldView(game, seat, moves, self.view(world, seat)), rng)
        return bot.choose(Observation(game, world, seat, moves), rng)

    def __repr__(self) -> str:
        return f"BotRollout({self.bot_class.__name__}, epsilon={self.epsilon})"


class WorldView:
    """What a rollout's bot decides from when a game builds a quick view: the same names as an Observation.

    Attributes:
        game, seat, moves: as in :class:`Observation`.
        view: the view the game's ``view`` function built from the sampled world.
    """

    __slots__ = ("game", "moves", "seat", "view")

    def __init__(self, game: Game[Any, Any, Any], seat: int, moves: Sequence[Any], view: dict[str, Any]) -> None:
        self.game = game
        self.seat = seat
        self.moves = moves
        self.view = view

    def sample_world(self, rng: Rng) -> Any:
        """Refuse: a rollout's bot does not search.

        Raises:
            NotImplementedError: always.
        """
        raise NotImplementedError("a rollout's bot cannot sample worlds")


_ANY: Any = object()
"""No move given: the tree chooses one."""


class _Default:
    """The type of :data:`_DEFAULT`: an option left to the game's tuning."""

    def __repr__(self) -> str:
        return "<the game's default>"


_DEFAULT = _Default()


def _pick(value: T | _Default, default: T) -> T:
    """Return ``value``, or ``default`` when the option was left to the game's tuning."""
    return default if isinstance(value, _Default) else value


class _Node:
    """One tree node: reached by ``move`` played by ``seat`` (``-1``: a container reached by no move).

    ``sealed`` holds, at the node where a sealed step began, one container per seat whose subtree is
    that seat's own moves within the step; ``joint`` holds the nodes after the step, keyed by every
    seat's moves in it.
    """

    __slots__ = ("available", "children", "joint", "move", "rewards", "sealed", "seat", "visits")

    def __init__(self, move: Any, seat: int, seats: int) -> None:
        self.move = move
        self.seat = seat
        self.children: dict[Any, _Node] = {}
        self.visits = 0
        self.available = 0
        self.rewards = [0.0] * seats
        self.sealed: dict[int, _Node] | None = None
        self.joint: dict[Any, _Node] | None = None


def win_shares(game: Game[Any, Any, Any], world: Any) -> list[float]:
    """Return each seat's reward in a finished ``world``: 1 shared among the winners, 0 for the others.

    Raises:
        ValueError: ``world`` is not finished.
    """
    result = game.result(world)
    if result is None:
        raise ValueError("win_shares needs a finished game; this one has no result yet")
    out = [0.0] * game.seat_count(world)
    for w in result.winners:
        out[w] = 1.0 / len(result.winners)
    return out


@dataclass
class SearchStats:
    """What the last search did (for benchmarks and tests).

    Attributes:
        iterations: the iterations run.
        cpu_seconds: CPU time of the deciding thread.
        wall_seconds: elapsed time.
        root_visits: each root move's text -> its visits.
        max_depth: the deepest tree node reached.
        guide_move: the text of the guide's move (``None``: no guide).
        chosen: the text of the move chosen.
    """

    iterations: int = 0
    cpu_seconds: float = 0.0
    wall_seconds: float = 0.0
    root_visits: dict[str, int] = field(default_factory=dict)
    max_depth: int = 0
    guide_move: str | None = None
    chosen: str | None = None


class MctsBot:
    """``bot:mcts``: single-observer ISMCTS within a budget of iterations and/or CPU milliseconds.

    Attributes:
        iterations: the most iterations per decision (``None``: no limit but time).
        budget_ms: the most CPU milliseconds per decision (``None``: no limit but iterations).
        exploration: the UCB1 constant (rewards lie in [0, 1]).
        rollout: the rollout policy.
        rollout_depth: the most decisions a rollout plays before the world is estimated.
        estimate, reward, candidates, sealed_step, prepare, guide: see the module docstring (``None``: not used).
        guide_visits: the extra visits the guide's move counts when the move is chosen (0: no guide).
        sweep, switch_z, tree: see the module docstring.
        strength: one line on how strong this bot is (a game's tuned bot states its measured figures).
        stats: what the last search did.
    """

    name = "mcts"
    strength = "information-set Monte Carlo tree search over sampled worlds, random rollouts: the generic searcher"
    from_view = True

    def __init__(
        self,
        *,
        iterations: int | None = 400,
        budget_ms: float | None = 900.0,
        exploration: float = 0.7,
        rollout: RolloutPolicy = random_rollout,
        rollout_depth: int = 400,
        estimate: Estimate | None = None,
        reward: Reward | None = None,
        candidates: Candidates | None = None,
        sealed_step: SealedStep | None = None,
        prepare: Prepare | None = None,
        guide: type | None = None,
        guide_visits: int = 0,
        sweep: bool = False,
        switch_z: float = 1.0,
        tree: bool = True,
    ) -> None:
        """Build a bot.

        Raises:
            ValueError: no budget at all, or a budget, constant or depth out of range (one sentence each).
        """
        if iterations is None and budget_ms is None:
            raise ValueError("an MCTS bot needs a budget: iterations, milliseconds or both")
        if iterations is not None and (isinstance(iterations, bool) or not isinstance(iterations, int)):
            raise ValueError(f"iterations must be a whole number from 1 to 1000000, not {iterations!r}")
        if iterations is not None and not 1 <= iterations <= 1_000_000:
            raise ValueError(f"iterations must be a whole number from 1 to 1000000, not {iterations!r}")
        if budget_ms is not None and (
            isinstance(budget_ms, bool) or not isinstance(budget_ms, (int, float)) or not 1 <= budget_ms <= 600_000
        ):
            raise ValueError(f"budget_ms must be a number of milliseconds from 1 to 600000, not {budget_ms!r}")
        if isinstance(exploration, bool) or not isinstance(exploration, (int, float)) or not 0 <= exploration <= 10:
            raise ValueError(f"exploration must be a number from 0 to 10, not {exploration!r}")
        if isinstance(rollout_depth, bool) or not isinstance(rollout_depth, int) or not 0 <= rollout_depth <= 100_000:
            raise ValueError(f"rollout_depth must be a whole number from 0 to 100000, not {rollout_depth!r}")
        if isinstance(guide_visits, bool) or not isinstance(guide_visits, int) or not 0 <= guide_visits <= 1_000_000:
            raise ValueError(f"guide_visits must be a whole number from 0 to 1000000, not {guide_visits!r}")
        if isinstance(switch_z, bool) or not isinstance(switch_z, (int, float)) or not 0 <= switch_z <= 10:
            raise ValueError(f"switch_z must be a number from 0 to 10, not {switch_z!r}")
        self.iterations = iterations
        self.budget_ms = float(budget_ms) if budget_ms is not None else None
        self.exploration = float(exploration)
        self.rollout = rollout
        self.rollout_depth = rollout_depth
        self.estimate = estimate
        self.reward = reward
        self.candidates = candidates
        self.sealed_step = sealed_step
        self.prepare = prepare
        self.guide = guide
        self.guide_visits = guide_visits
        self.sweep = bool(sweep)
        self.switch_z = float(switch_z)
        self.tree = bool(tree)
        self.strength = type(self).strength
        self.stats = SearchStats()
        self._guide_bot: Any = None

    def __repr__(self) -> str:
        return (
            f"MctsBot(iterations={self.iterations}, budget_ms={self.budget_ms}, exploration={self.exploration}, "
            f"rollout={self.rollout!r}, rollout_depth={self.rollout_depth})"
        )

    # ------------------------------------------------------------------ deciding

    def choose(self, obs: Observation, rng: Rng) -> Any:
        """Search and return a legal move.

        Without a sweep: the most visited root move (the guide's move counting ``guide_visits`` extra
        visits; ties: the higher mean reward, then the first listed). With a sweep (``sweep=True``), each
        sampled world is played once from every root move, with the same random stream, and the guide's
        move is kept unless another does better world by world (see :meth:`_sweep_choice`).

        Raises:
            IndexError: there is no legal move.
        """
        moves = list(obs.moves)
        if not moves:
            raise IndexError("no legal move to choose from")
        if len(moves) == 1:
            self.stats = SearchStats()
            return moves[0]
        game = obs.game
        me = obs.seat
        cpu0 = time.thread_time()
        wall0 = time.perf_counter()
        cpu_end = cpu0 + self.budget_ms / 1000 if self.budget_ms is not None else math.inf
        limit = self.iterations if self.iterations is not None else math.inf
        hint = None
        if self.guide is not None and (self.guide_visits or self.sweep):
            guide = self._guide_bot
            if guide is None or type(guide) is not self.guide:
                guide = self._guide_bot = self.guide()
            hint = guide.choose(obs, rng.fork(0x6D))
        root: _Node | None = None
        root_moves = moves
        prepare = self.prepare
        sweep = self.sweep
        samples: dict[Any, list[float]] = {}
        done = 0
        depth = 0
        while done < limit and (done == 0 or time.thread_time() < cpu_end):
            world = obs.sample_world(rng)
            if prepare is not None:
                prepare(world, me)
            if root is None:
                root = _Node(None, -1, game.seat_count(world))
                if self.candidates is not None:
                    root_moves = [m for m in self.candidates(game, world, me, moves) if m in moves] or moves
                if hint is not None and hint not in root_moves:
                    root_moves = [*root_moves, hint]
                samples = {m: [] for m in root_moves}
            if not sweep:
                d, _ = self._iterate(game, root, world, me, root_moves, rng)
                depth = max(depth, d)
                done += 1
                continue
            # A sweep: every root move in a copy of the same world, with the same random stream.
            seed = rng.next64()
            last = len(root_moves) - 1
            for i, m in enumerate(root_moves):
                if done >= len(root_moves) and time.thread_time() >= cpu_end:
                    break  # out of time mid-sweep: comparisons pair samples world by world, unpaired ones go unused
                w = world if i == last else game.clone(world)
                d, reward = self._iterate(game, root, w, me, root_moves, Rng(seed), m)
                samples[m].append(reward[me])
                depth = max(depth, d)
                done += 1
        assert root is not None
        top = root.sealed.get(me, root) if root.sealed is not None else root
        self.stats = SearchStats(
            done,
            time.thread_time() - cpu0,
            time.perf_counter() - wall0,
            {_text(c.move): c.visits for c in top.children.values()},
            depth,
            _text(hint) if hint is not None else None,
        )
        best = self._sweep_choice(samples, hint) if sweep else self._most_visited(top, moves, me, hint)
        self.stats.chosen = _text(best) if best is not None else None
        return best if best is not None else rng.choice(moves)

    def _most_visited(self, top: _Node, moves: list[Any], me: int, hint: Any) -> Any:
        """Return the most visited root move (the guide's counting its extra visits), ``None`` if none was."""
        best = None
        best_key: tuple[int, float, int] | None = None
        for i, m in enumerate(moves):
            c = top.children.get(m)
            if c is None or not c.visits:
                continue
            key = (c.visits + (self.guide_visits if m == hint else 0), c.rewards[me] / c.visits, -i)
            if best_key is None or key > best_key:
                best, best_key = m, key
        return best

    def _sweep_choice(self, samples: dict[Any, list[float]], hint: Any) -> Any:
        """Return the root move of a sweep with the best mean reward, or keep the guide's move.

        Every root move was played in the same worlds, so each is compared with the guide's move world by
        world: another move is chosen only if its mean gain over the guide's exceeds ``switch_z`` standard
        errors of that gain.
        """
        moves = [m for m, r in samples.items() if r]
        if not moves:
            return None
        if hint is None or hint not in samples or not samples[hint]:
            return max(moves, key=lambda m: sum(samples[m]) / len(samples[m]))
        base = samples[hint]
        best, best_gain = hint, 0.0
        for m in moves:
            if m == hint:
                continue
            diffs = [a - b for a, b in zip(samples[m], base, strict=False)]
            n = len(diffs)
            if n < 2:
                continue
            mean = sum(diffs) / n
            var = sum((x - mean) ** 2 for x in diffs) / (n - 1)
            if mean > best_gain and mean > self.switch_z * math.sqrt(var / n):
                best, best_gain = m, mean
        return best

    # ------------------------------------------------------------------ one iteration

    def _select(
        self, node: _Node, seat: int, legal: Sequence[Any], seats: int, rng: Rng, first: Any = _ANY
    ) -> tuple[_Node, bool]:
        """Return the child of ``node`` to follow among ``legal`` (a new one while some are untried), and if new.

        ``first``, when given, is the move to follow (counted as available like the others).
        """
        children = node.children
        if first is not _ANY:
            for m in legal:
                child = children.get(m)
                if child is not None:
                    child.available += 1
            child = children.get(first)
            if child is None:
                child = children[first] = _Node(first, seat, seats)
                child.available = 1
                return child, True
            return child, False
        untried = []
        for m in legal:
            child = children.get(m)
            if child is None:
                untried.append(m)
            else:
                child.available += 1
        if untried:
            move = untried[rng.below(len(untried))] if len(untried) > 1 else untried[0]
            child = children[move] = _Node(move, seat, seats)
            child.available = 1
            return child, True
        c = self.exploration
        best = None
        best_score = -math.inf
        for m in legal:
            child = children[m]
            score = child.rewards[seat] / child.visits + c * math.sqrt(math.log(child.available) / child.visits)
            if score > best_score:
                best, best_score = child, score
        assert best is not None
        return best, False

    def _iterate(
        self,
        game: Game[Any, Any, Any],
        root: _Node,
        world: Any,
        me: int,
        root_moves: list[Any],
        rng: Rng,
        first: Any = _ANY,
    ) -> tuple[int, Sequence[float]]:
        """Run one iteration in ``world`` (changed in place); return the depth of the tree walk and the rewards.

        ``first``, when given, is the root move to play (a sweep); otherwise UCB1 chooses it.
        """
        seats = len(root.rewards)
        node = root
        path: list[_Node] = []
        candidates = self.candidates
        sealed_step = self.sealed_step
        # Within a sealed step: where it began, its id, each seat's cursor and moves so far.
        anchor: _Node | None = None
        anchor_id: Hashable | None = None
        cursors: dict[int, _Node] = {}
        chosen: dict[int, list[Any]] = {}
        depth = 0
        at_root = True
        # Selection and expansion, in the sampled world.
        while True:
            pending = game.pending(world)
            if pending.kind == "over":
                break
            step = sealed_step(world) if sealed_step is not None else None
            if anchor is not None and step != anchor_id:
                key = tuple(sorted((s, tuple(ms)) for s, ms in chosen.items()))
                joint = anchor.joint
                if joint is None:
                    joint = anchor.joint = {}
                nxt = joint.get(key)
                if nxt is None:
                    nxt = joint[key] = _Node(None, -1, seats)
                node = nxt
                anchor = None
            if at_root:  # the deciding seat, which need not be the first of several deciding at once
                seat = me
                legal: Sequence[Any] = root_moves
                at_root = False
            else:
                seat = pending.seats[0]
                legal = game.legal_moves(world, seat)
                if not legal:
                    break
                if candidates is not None and len(legal) > 1:
                    legal = candidates(game, world, seat, legal) or legal
            if step is not None:
                if anchor is None:
                    anchor, anchor_id, cursors, chosen = node, step, {}, {}
                cursor = cursors.get(seat)
                if cursor is None:
                    sealed = anchor.sealed
                    if sealed is None:
                        sealed = anchor.sealed = {}
                    cursor = sealed.get(seat)
                    if cursor is None:
                        cursor = sealed[seat] = _Node(None, -1, seats)
                child, new = self._select(cursor, seat, legal, seats, rng, first if seat == me else _ANY)
                cursors[seat] = child
                chosen.setdefault(seat, []).append(child.move)
            else:
                child, new = self._select(node, seat, legal, seats, rng, first if node is root else _ANY)
                node = child
            first = _ANY
            game.apply(world, seat, child.move)
            path.append(child)
            depth += 1
            if new or not self.tree:
                break
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
        reward = self._rewards(game, world, seats)
        for n in path:
            n.visits += 1
            r = n.rewards
            for s in range(seats):
                r[s] += reward[s]
        return depth, reward

    def _rewards(self, game: Game[Any, Any, Any], world: Any, seats: int) -> Sequence[float]:
        """Return each seat's reward: the game's reward once over, else its estimate, else a draw."""
        if game.pending(world).kind == "over":
            return self.reward(game, world) if self.reward is not None else win_shares(game, world)
        if self.estimate is not None:
            values = self.estimate(world)
            if values is not None:
                return values
        return [1.0 / seats] * seats


def weighted_scores(
    weights: Sequence[float], features: Callable[[Any, int], Sequence[float]], world: Any, seats: int
) -> list[float]:
    """Return each seat's score in ``world``: the sum of its ``features`` times ``weights`` (a logit).

    Raises:
        ValueError: ``features`` returns another number of values than ``weights`` holds.
    """
    return [sum(a * b for a, b in zip(weights, features(world, s), strict=True)) for s in range(seats)]


def softmax(scores: Sequence[float]) -> list[float]:
    """Return each seat's share of ``exp(score)``: its chance to win under a logistic model of the winner.

    For two seats this is the logistic function of the difference in scores, the model a game's
    ``estimate`` weights are fitted for (``benchmarks/mcts_estimates.py``).

    Raises:
        ValueError: ``scores`` is empty.
    """
    top = max(scores)
    weights = [math.exp(x - top) for x in scores]
    total = sum(weights)
    return [x / total for x in weights]


@dataclass(frozen=True)
class Tuning:
    """A game's tuned ``bot:mcts``: its heuristic, the functions it plugs into :class:`MctsBot`, its defaults.

    A game's ``mcts`` module declares one and offers ``make_bot = TUNING.make_bot``, which
    :meth:`Game.make_bot <club_agentes.engine.core.model.Game.make_bot>` calls with the table's options.
    The heuristic guides each decision (its move stands unless the sweep finds a better one) and plays
    the rollouts, deciding from ``rollout_view`` (a quick view of the sampled world) when the game has one.

    Attributes:
        heuristic: the game's heuristic bot class.
        strength: the tuned bot's ``strength`` line (``list_games`` shows it).
        estimate, candidates, sealed_step, prepare: as :class:`MctsBot` takes them (``None``: not used).
        rollout_view: ``(world, seat) -> view`` for the rollouts' heuristic (``None``: the game's view).
        budget_ms, rollout_depth, epsilon, exploration, guide_visits, sweep, switch_z, tree: the defaults of
            :meth:`make_bot`'s options (``epsilon``: the share of random rollout moves).
    """

    heuristic: type
    strength: str
    estimate: Estimate | None = None
    rollout_view: Callable[[Any, int], dict[str, Any]] | None = None
    candidates: Candidates | None = None
    sealed_step: SealedStep | None = None
    prepare: Prepare | None = None
    budget_ms: float = 500.0
    rollout_depth: int = 400
    epsilon: float = 0.0
    exploration: float = 0.7
    guide_visits: int = 10
    sweep: bool = True
    switch_z: float = 1.0
    tree: bool = True

    def make_bot(
        self,
        *,
        budget_ms: float | _Default | None = _DEFAULT,
        iterations: int | None = None,
        rollout_depth: int | _Default = _DEFAULT,
        epsilon: float | _Default = _DEFAULT,
        exploration: float | _Default = _DEFAULT,
        guide_visits: int | _Default = _DEFAULT,
        sweep: bool | _Default = _DEFAULT,
        switch_z: float | _Default = _DEFAULT,
        tree: bool | _Default = _DEFAULT,
    ) -> MctsBot:
        """Return the game's ``bot:mcts``: each option not given takes this tuning's default.

        ``budget_ms`` is CPU milliseconds per decision (``None``: only ``iterations`` bound it).

        Raises:
            ValueError: an option out of range (one sentence naming it).
        """
        bot = MctsBot(
            iterations=iterations,
            budget_ms=_pick(budget_ms, self.budget_ms),
            exploration=_pick(exploration, self.exploration),
            rollout=BotRollout(self.heuristic, _pick(epsilon, self.epsilon), self.rollout_view),
            rollout_depth=_pick(rollout_depth, self.rollout_depth),
            estimate=self.estimate,
            candidates=self.candidates,
            sealed_step=self.sealed_step,
            prepare=self.prepare,
            guide=self.heuristic,
            guide_visits=_pick(guide_visits, self.guide_visits),
            sweep=_pick(sweep, self.sweep),
            switch_z=_pick(switch_z, self.switch_z),
            tree=_pick(tree, self.tree),
        )
        bot.strength = self.strength
        return bot


def _text(move: Any) -> str:
    text = getattr(move, "text", None)
    return text() if callable(text) else repr(move)

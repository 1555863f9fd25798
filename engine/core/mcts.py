"""Information-set Monte Carlo tree search: one bot for every game that can sample worlds.

Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012): the tree is the deciding seat's view
of the game. Each iteration samples a world consistent with that view (``Observation.sample_world``:
the game's determinization), walks down the tree choosing among the moves legal *in that world* by
UCB1 with availability counts, adds one new node, finishes the game with a rollout policy, and
backs the result up. Every node keeps one reward sum per seat, so each seat along the path chooses
for itself (the multiplayer "max^n" backup).

What a game plugs into the search is one :class:`Policies` object (as OpenSpiel's ``Evaluator``), and how
long and how widely it searches is one :class:`SearchOptions` (the game package's ``mcts`` module declares
a :class:`Tuning` that holds both; :func:`weighted_scores` and :func:`softmax` make a fitted ``estimate``).
The policies:

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
* ``guide``: a bot (e.g. the heuristic) whose move at the root counts ``guide_visits`` extra visits
  when the most visited move is chosen, so the search leaves the guide's move only when the sampled
  worlds show a better one.

The search options, besides the budget below (``iterations``, ``budget_ms``), ``exploration`` (the UCB1
constant), ``rollout_depth`` and ``guide_visits``:

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
The bot keeps only its policies and options (module-level functions and small objects), so it pickles
for a worker process; :attr:`MctsBot.stats` describes the last search.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from club_agentes.engine.core.model import Game, Observation
from club_agentes.engine.core.rng import Rng

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


@dataclass(frozen=True)
class Policies:
    """What a game plugs into the search, as one object (OpenSpiel's ``Evaluator``): see the module docstring.

    Attributes:
        rollout: the policy that finishes a sampled world (default: uniformly random moves).
        estimate: the value of a world cut after ``rollout_depth`` decisions (``None``: a draw).
        reward: the per-seat reward of a finished world (``None``: :func:`win_shares`).
        candidates: narrows the moves the tree branches on (``None``: every legal move).
        sealed_step: names the sealed step being played in a world (``None``: no sealed steps).
        prepare: changes each sampled world before an iteration walks it (``None``: nothing).
        guide: a bot class whose move at the root the search keeps unless it finds a better one.
    """

    rollout: RolloutPolicy = random_rollout
    estimate: Estimate | None = None
    reward: Reward | None = None
    candidates: Candidates | None = None
    sealed_step: SealedStep | None = None
    prepare: Prepare | None = None
    guide: type | None = None


def _whole(value: Any, name: str, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{name} must be a whole number from {low} to {high}, not {value!r}")


def _number(value: Any, name: str, low: float, high: float, what: str = "a number") -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
        raise ValueError(f"{name} must be {what} from {low:g} to {high:g}, not {value!r}")


@dataclass(frozen=True)
class SearchOptions:
    """How long and how widely :class:`MctsBot` searches: see the module docstring.

    Attributes:
        iterations: the most iterations per decision (``None``: no limit but time).
        budget_ms: the most CPU milliseconds per decision (``None``: no limit but iterations).
        exploration: the UCB1 constant (rewards lie in [0, 1]).
        rollout_depth: the most decisions a rollout plays before the world is estimated.
        guide_visits: the extra visits the guide's move counts when the move is chosen (0: no guide).
        sweep, switch_z, tree: see the module docstring.

    Raises:
        ValueError: no budget at all, or a budget, constant or depth out of range (one sentence each).
    """

    iterations: int | None = 400
    budget_ms: float | None = 900.0
    exploration: float = 0.7
    rollout_depth: int = 400
    guide_visits: int = 0
    sweep: bool = False
    switch_z: float = 1.0
    tree: bool = True

    def __post_init__(self) -> None:
        if self.iterations is None and self.budget_ms is None:
            raise ValueError("an MCTS bot needs a budget: iterations, milliseconds or both")
        if self.iterations is not None:
            _whole(self.iterations, "iterations", 1, 1_000_000)
        if self.budget_ms is not None:
            _number(self.budget_ms, "budget_ms", 1, 600_000, "a number of milliseconds")
            object.__setattr__(self, "budget_ms", float(self.budget_ms))
        _number(self.exploration, "exploration", 0, 10)
        _whole(self.rollout_depth, "rollout_depth", 0, 100_000)
        _whole(self.guide_visits, "guide_visits", 0, 1_000_000)
        _number(self.switch_z, "switch_z", 0, 10)
        for name in ("exploration", "switch_z"):
            object.__setattr__(self, name, float(getattr(self, name)))
        for name in ("sweep", "tree"):
            object.__setattr__(self, name, bool(getattr(self, name)))


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


def _joint_node(anchor: _Node, chosen: dict[int, list[Any]], seats: int) -> _Node:
    """Return the node after the sealed step that began at ``anchor``, keyed by every seat's moves in it."""
    key = tuple(sorted((s, tuple(ms)) for s, ms in chosen.items()))
    joint = anchor.joint
    if joint is None:
        joint = anchor.joint = {}
    nxt = joint.get(key)
    if nxt is None:
        nxt = joint[key] = _Node(None, -1, seats)
    return nxt


def _sealed_root(anchor: _Node, seat: int, seats: int) -> _Node:
    """Return the container of ``seat``'s own moves in the sealed step that began at ``anchor``."""
    sealed = anchor.sealed
    if sealed is None:
        sealed = anchor.sealed = {}
    cursor = sealed.get(seat)
    if cursor is None:
        cursor = sealed[seat] = _Node(None, -1, seats)
    return cursor


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
        policies: what the game plugs into the search (:class:`Policies`).
        options: the budget and the shape of the search (:class:`SearchOptions`).
        strength: one line on how strong this bot is (a game's tuned bot states its measured figures).
        stats: what the last search did.
    """

    name = "mcts"
    strength = "information-set Monte Carlo tree search over sampled worlds, random rollouts: the generic searcher"

    def __init__(self, policies: Policies | None = None, options: SearchOptions | None = None, **given: Any) -> None:
        """Build a bot from its policies (default: random rollouts, nothing else) and search options.

        ``given`` are search options by name (``MctsBot(iterations=60, budget_ms=None)``), over ``options``
        (default: :class:`SearchOptions`'s defaults); this is how a table's options reach a generic bot.

        Raises:
            TypeError: an option :class:`SearchOptions` does not have.
            ValueError: no budget at all, or a budget, constant or depth out of range (one sentence each).
        """
        self.policies = policies if policies is not None else Policies()
        self.options = replace(options if options is not None else SearchOptions(), **given)
        self.strength = type(self).strength
        self.stats = SearchStats()
        self._guide_bot: Any = None

    def __repr__(self) -> str:
        o = self.options
        return (
            f"MctsBot(iterations={o.iterations}, budget_ms={o.budget_ms}, exploration={o.exploration}, "
            f"rollout={self.policies.rollout!r}, rollout_depth={o.rollout_depth})"
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
        options = self.options
        cpu0 = time.thread_time()
        wall0 = time.perf_counter()
        cpu_end = cpu0 + options.budget_ms / 1000 if options.budget_ms is not None else math.inf
        limit = options.iterations if options.iterations is not None else math.inf
        hint = self._hint(obs, rng)
        root: _Node | None = None
        root_moves = moves
        prepare = self.policies.prepare
        samples: dict[Any, list[float]] = {}
        done = 0
        depth = 0
        while done < limit and (done == 0 or time.thread_time() < cpu_end):
            world = obs.sample_world(rng)
            if prepare is not None:
                prepare(world, me)
            if root is None:
                root = _Node(None, -1, game.seat_count(world))
                root_moves = self._root_moves(game, world, me, moves, hint)
                samples = {m: [] for m in root_moves}
            if options.sweep:
                n, d = self._sweep(game, root, world, me, root_moves, rng, samples, done, cpu_end)
            else:
                n, (d, _) = 1, self._iterate(game, root, world, me, root_moves, rng)
            depth = max(depth, d)
            done += n
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
        best = self._sweep_choice(samples, hint) if options.sweep else self._most_visited(top, moves, me, hint)
        self.stats.chosen = _text(best) if best is not None else None
        return best if best is not None else rng.choice(moves)

    def _hint(self, obs: Observation, rng: Rng) -> Any:
        """Return the guide's move (``None``: no guide, or it counts for nothing); ``rng`` is not advanced."""
        guide_class = self.policies.guide
        if guide_class is None or not (self.options.guide_visits or self.options.sweep):
            return None
        guide = self._guide_bot
        if guide is None or type(guide) is not guide_class:
            guide = self._guide_bot = guide_class()
        return guide.choose(obs, rng.fork(0x6D))

    def _root_moves(self, game: Game[Any, Any, Any], world: Any, me: int, moves: list[Any], hint: Any) -> list[Any]:
        """Return the moves the root branches on: the candidates among ``moves`` (all of them without a
        candidates policy, or when it keeps none), plus the guide's move."""
        root_moves = moves
        candidates = self.policies.candidates
        if candidates is not None:
            root_moves = [m for m in candidates(game, world, me, moves) if m in moves] or moves
        if hint is not None and hint not in root_moves:
            root_moves = [*root_moves, hint]
        return root_moves

    def _sweep(
        self,
        game: Game[Any, Any, Any],
        root: _Node,
        world: Any,
        me: int,
        root_moves: list[Any],
        rng: Rng,
        samples: dict[Any, list[float]],
        done: int,
        cpu_end: float,
    ) -> tuple[int, int]:
        """Play every root move in a copy of ``world`` with the same random stream, adding ``me``'s rewards to
        ``samples``; return the iterations run and the deepest tree walk.

        Out of time mid-sweep (once every root move was tried), it stops: comparisons pair samples world by
        world, and unpaired ones go unused.
        """
        seed = rng.next64()
        last = len(root_moves) - 1
        run = depth = 0
        for i, m in enumerate(root_moves):
            if done + run >= len(root_moves) and time.thread_time() >= cpu_end:
                break
            w = world if i == last else game.clone(world)
            d, reward = self._iterate(game, root, w, me, root_moves, Rng(seed), m)
            samples[m].append(reward[me])
            depth = max(depth, d)
            run += 1
        return run, depth

    def _most_visited(self, top: _Node, moves: list[Any], me: int, hint: Any) -> Any:
        """Return the most visited root move (the guide's counting its extra visits), ``None`` if none was."""
        best = None
        best_key: tuple[int, float, int] | None = None
        for i, m in enumerate(moves):
            c = top.children.get(m)
            if c is None or not c.visits:
                continue
            key = (c.visits + (self.options.guide_visits if m == hint else 0), c.rewards[me] / c.visits, -i)
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
            if mean > best_gain and mean > self.options.switch_z * math.sqrt(var / n):
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
        c = self.options.exploration
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
        candidates = self.policies.candidates
        sealed_step = self.policies.sealed_step
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
                node = _joint_node(anchor, chosen, seats)
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
                    cursor = _sealed_root(anchor, seat, seats)
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
            if new or not self.options.tree:
                break
        self._rollout(game, world, rng)
        reward = self._rewards(game, world, seats)
        for n in path:  # backpropagation
            n.visits += 1
            r = n.rewards
            for s in range(seats):
                r[s] += reward[s]
        return depth, reward

    def _rollout(self, game: Game[Any, Any, Any], world: Any, rng: Rng) -> None:
        """Play ``world`` on with the rollout policy, at most ``rollout_depth`` decisions or to its end."""
        rollout = self.policies.rollout
        for _ in range(self.options.rollout_depth):
            pending = game.pending(world)
            if pending.kind == "over":
                break
            seat = pending.seats[0]
            legal = game.legal_moves(world, seat)
            if not legal:
                break
            game.apply(world, seat, rollout(game, world, seat, legal, rng))

    def _rewards(self, game: Game[Any, Any, Any], world: Any, seats: int) -> Sequence[float]:
        """Return each seat's reward: the game's reward once over, else its estimate, else a draw."""
        if game.pending(world).kind == "over":
            reward = self.policies.reward
            return reward(game, world) if reward is not None else win_shares(game, world)
        estimate = self.policies.estimate
        if estimate is not None:
            values = estimate(world)
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


TUNED = SearchOptions(iterations=None, budget_ms=500.0, guide_visits=10, sweep=True)
"""The search options a game's tuned bot starts from: 500 CPU milliseconds, sweeps guided by the heuristic."""


@dataclass(frozen=True)
class Tuning:
    """A game's tuned ``bot:mcts``: its heuristic, the policies it plugs into :class:`MctsBot`, its options.

    A game's ``mcts`` module declares one and offers ``make_bot = TUNING.make_bot``, which
    :meth:`Game.make_bot <club_agentes.engine.core.model.Game.make_bot>` calls with the table's options.
    The heuristic guides each decision (its move stands unless the sweep finds a better one) and plays
    the rollouts, deciding from ``rollout_view`` (a quick view of the sampled world) when the game has one.

    Attributes:
        heuristic: the game's heuristic bot class.
        strength: the tuned bot's ``strength`` line (``list_games`` shows it).
        policies: the game's estimate, candidates, sealed step and prepare (its ``rollout`` and ``guide`` are
            set from ``heuristic``).
        rollout_view: ``(world, seat) -> view`` for the rollouts' heuristic (``None``: the game's view).
        epsilon: the share of random rollout moves.
        options: the search options a table's options replace (:data:`TUNED` with the game's changes).
    """

    heuristic: type
    strength: str
    policies: Policies = Policies()
    rollout_view: Callable[[Any, int], dict[str, Any]] | None = None
    epsilon: float = 0.0
    options: SearchOptions = TUNED

    def make_bot(self, *, epsilon: float | None = None, **options: Any) -> MctsBot:
        """Return the game's ``bot:mcts``: the table's ``options`` (:class:`SearchOptions` fields, and
        ``epsilon``) replace this tuning's.

        ``budget_ms`` is CPU milliseconds per decision (``None``: only ``iterations`` bound it).

        Raises:
            TypeError: an option that is not a search option.
            ValueError: an option out of range (one sentence naming it).
        """
        rollout = BotRollout(self.heuristic, self.epsilon if epsilon is None else epsilon, self.rollout_view)
        policies = replace(self.policies, rollout=rollout, guide=self.heuristic)
        bot = MctsBot(policies, replace(self.options, **options))
        bot.strength = self.strength
        return bot


def _text(move: Any) -> str:
    text = getattr(move, "text", None)
    return text() if callable(text) else repr(move)

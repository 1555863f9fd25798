"""The decision model shared by every game (see DESIGN.md, "The engine's decision model").

A game is a :class:`Game` object (rules and configuration, no per-game state) that
works on a mutable state object of its own type. One decision at a time:

* :meth:`Game.pending` says who must decide now: one seat on an ordinary turn
  (``"turn"``), several seats at once whose choices stay sealed until all have
  chosen (``"simultaneous"``), or one seat polled inside a reaction window
  (``"reaction"``); ``"over"`` once the game has ended.
* :meth:`Game.legal_moves` lists the concrete moves of one seat, in a stable order.
* :meth:`Game.apply` validates a move with the same checks that build
  ``legal_moves``, then applies it and returns the events it caused, or raises
  :class:`~engine.core.errors.IllegalMove` and leaves the state untouched.
* :meth:`Game.view` is the only door out of the engine: what one seat may know.
"""

from __future__ import annotations

import copy
import importlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Literal, Protocol, TypeVar

from club_agentes.engine.core.errors import InvalidMove
from club_agentes.engine.core.moves import MoveCodec
from club_agentes.engine.core.rng import Rng
from club_agentes.engine.core.visibility import Visibility

DecisionKind = Literal["turn", "simultaneous", "reaction", "over"]

JSON = dict[str, Any]


@dataclass(frozen=True, slots=True, init=False)
class Pending:
    """Who must decide now.

    Attributes:
        kind: ``"turn"`` (one seat, ordinary turn), ``"simultaneous"`` (every seat in
            ``seats`` must choose; choices stay sealed until all have chosen),
            ``"reaction"`` (one seat is polled inside a reaction window and may react
            or pass), or ``"over"`` (the game has ended; ``seats`` is empty).
        seats: the seats that must decide now, ascending.
        prompt: one English sentence describing the decision, for people and models.
        done: for ``"simultaneous"``, the seats that have already chosen (never what).
    """

    kind: DecisionKind
    seats: tuple[int, ...]
    prompt: str = ""
    done: tuple[int, ...] = ()

    def __init__(
        self, kind: DecisionKind, seats: tuple[int, ...], prompt: str = "", done: tuple[int, ...] = ()
    ) -> None:
        # One is built at most decisions: the slots are set through their descriptors, which a frozen
        # dataclass's generated __init__ (object.__setattr__ per field) makes about twice as slow.
        _set_kind(self, kind)
        _set_seats(self, seats)
        _set_prompt(self, prompt)
        _set_done(self, done)


@dataclass(frozen=True, slots=True, init=False)
class Event:
    """Something that happened, as the seats that may know it are told.

    Attributes:
        text: one English sentence, e.g. ``"seat 2 drew a card from the $ deck"``.
        audience: ``None`` when every seat and spectator may see the event; otherwise
            the seats that may see it (private information such as a drawn card).
        data: JSON-able details with the same visibility as the text.
    """

    text: str
    audience: tuple[int, ...] | None = None
    data: Mapping[str, Any] | None = None

    def __init__(
        self, text: str, audience: tuple[int, ...] | None = None, data: Mapping[str, Any] | None = None
    ) -> None:
        # Built for every event: the slots are set through their descriptors (see Pending.__init__).
        _set_text(self, text)
        _set_audience(self, audience)
        _set_data(self, data)

    def visible_to(self, seat: int | None) -> bool:
        """Return whether ``seat`` (``None`` for a spectator) may see this event."""
        return self.audience is None or (seat is not None and seat in self.audience)


def _slot_setter(cls: type, name: str) -> Callable[[Any, Any], None]:
    """Return the setter of slot ``name`` of ``cls``, which bypasses a frozen dataclass's ``__setattr__``."""
    setter: Callable[[Any, Any], None] = vars(cls)[name].__set__
    return setter


_set_kind = _slot_setter(Pending, "kind")
_set_seats = _slot_setter(Pending, "seats")
_set_prompt = _slot_setter(Pending, "prompt")
_set_done = _slot_setter(Pending, "done")
_set_text = _slot_setter(Event, "text")
_set_audience = _slot_setter(Event, "audience")
_set_data = _slot_setter(Event, "data")


@dataclass(frozen=True, slots=True)
class ScoreLine:
    """One line of a seat's final score: where some of its points or money came from.

    Attributes:
        label: what the line counts, in English with the game's Spanish terms, e.g.
            ``"investment 2: Energía 5M + 3M"``, ``"special card Gremio de Comercio"``,
            ``"deal 4 (space 9): payout 30M"``, ``"promise paid to seat 2 for rosa"``.
        amount: the points or money of this line (negative for money paid out).
        rule_id: the corpus id of the rule that gives it, when there is one.
    """

    label: str
    amount: float
    rule_id: str | None = None


@dataclass(frozen=True, slots=True)
class SeatScore:
    """A seat's final score with its breakdown.

    Attributes:
        seat: the seat.
        total: the score (the sum of the lines' amounts).
        unit: the unit, e.g. ``"M"`` (millions) or ``"VP"`` (victory points).
        lines: where the total came from, in a stable order.
    """

    seat: int
    total: float
    unit: str
    lines: tuple[ScoreLine, ...] = ()


@dataclass(frozen=True, slots=True)
class Result:
    """How a finished game ended.

    Attributes:
        winners: the winning seats (several on a shared win), ascending.
        scores: one number per seat in the game's own unit (portfolio millions,
            victory points, money).
        reason: one English sentence, e.g. ``"seat 1 declared victory with 27M"``.
        rule_id: the corpus id of the rule that decided the end, when there is one.
        breakdown: one :class:`SeatScore` per seat, in seat order: where each score came from.
    """

    winners: tuple[int, ...]
    scores: tuple[float, ...]
    reason: str
    rule_id: str | None = None
    breakdown: tuple[SeatScore, ...] = ()

    def to_json(self) -> JSON:
        """Return the result as JSON (for snapshots; each score line is ``[label, amount, rule_id]``)."""
        return {
            "winners": list(self.winners),
            "scores": list(self.scores),
            "reason": self.reason,
            "rule_id": self.rule_id,
            "breakdown": [
                {
                    "seat": b.seat,
                    "total": b.total,
                    "unit": b.unit,
                    "lines": [[ln.label, ln.amount, ln.rule_id] for ln in b.lines],
                }
                for b in self.breakdown
            ],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Result:
        """Return the result :meth:`to_json` describes.

        Raises:
            KeyError, TypeError, ValueError: ``data`` is malformed.
        """
        breakdown = tuple(
            SeatScore(
                int(b["seat"]),
                float(b["total"]),
                str(b["unit"]),
                tuple(ScoreLine(str(label), float(amount), rule) for label, amount, rule in b["lines"]),
            )
            for b in data["breakdown"]
        )
        return cls(
            tuple(int(w) for w in data["winners"]),
            tuple(float(x) for x in data["scores"]),
            str(data["reason"]),
            data["rule_id"],
            breakdown,
        )


@dataclass(frozen=True, slots=True)
class MoveNote:
    """A legal move in plain words, for people and models.

    Attributes:
        says: one full sentence (English, with the game's Spanish terms) naming seats by number
            and name and money with its unit, e.g. ``"Accept that seat 1 (claude-7) is paid 2M
            for rosa."``.
        note: for a move that is legal but can never help (the engine can tell), why; else ``None``.
    """

    says: str
    note: str | None = None


class Move(Protocol):
    """What every move value offers: a JSON form and a short text form.

    Moves are small immutable values (frozen dataclasses). ``Game.parse_move``
    turns either form back into the same move.
    """

    def to_json(self) -> JSON:
        """Return the move as a JSON object with a ``"type"`` tag."""
        ...

    def text(self) -> str:
        """Return the short text form, which ``Game.parse_move`` parses back."""
        ...


class Config(Protocol):
    """A game's configuration: the seat count and the table options (a frozen dataclass works)."""

    @property
    def seats(self) -> int:
        """How many seats the table has."""
        ...

    def to_json(self) -> JSON:
        """Return the options as JSON (what ``Game.make_config`` accepts back)."""
        ...


def whole_number_option(minimum: int, maximum: int, default: int, description: str) -> JSON:
    """Return the JSON schema of a table option that is a whole number from ``minimum`` to ``maximum``.

    ``description`` says what the option does, its range and default, and gives an example.
    """
    return {"type": "integer", "minimum": minimum, "maximum": maximum, "default": default, "description": description}


class Observation:
    """What a bot may use to decide for one seat: the seat's view, its legal moves, and sampled worlds.

    The true state stays private: a bot reads :attr:`view` (exactly what an agent in that seat is
    shown) and may ask for :meth:`sample_world`, a full state drawn consistently with that view
    (determinization), to search in. Nothing here gives a bot a hidden card of the true state.
    """

    __slots__ = ("__state", "_view", "game", "moves", "seat")

    def __init__(self, game: Game, state: Any, seat: int, moves: Sequence[Any]) -> None:
        self.game = game
        self.seat = seat
        self.moves = moves
        self.__state = state
        self._view: JSON | None = None

    @property
    def view(self) -> JSON:
        """The seat's view (``game.view(state, seat)``), built once."""
        if self._view is None:
            self._view = self.game.view(self.__state, self.seat)
        return self._view

    def sample_world(self, rng: Rng) -> Any:
        """Return a full state consistent with the seat's view and the public history (a copy).

        Raises:
            NotImplementedError: the game cannot determinize.
        """
        return self.game.determinize(self.__state, self.seat, rng)


class Bot(Protocol):
    """A seat player that runs inside the server."""

    def choose(self, obs: Observation, rng: Rng) -> Any:
        """Return one of ``obs.moves``, deciding only from ``obs.view`` and ``obs.sample_world``."""
        ...


class RandomBot:
    """Plays uniformly at random among the legal moves."""

    name = "random"
    strength = "uniformly random legal moves: the floor of the ladder"

    def choose(self, obs: Observation, rng: Rng) -> Any:
        """Return a uniformly random legal move.

        Raises:
            IndexError: if there is no legal move.
        """
        moves = obs.moves
        if not moves:
            raise IndexError("choice() from an empty sequence")
        return moves[rng.below(len(moves))]  # Rng.choice, inline: one per decision of every random playout


class ViewBot(ABC):
    """The base of a game's own bots (the heuristic): they decide from the seat's view alone.

    :meth:`choose` hands a forced move back at once and otherwise asks :meth:`decide`, which is given
    the seat's view, the seat and its legal moves, never the state; a subclass sets ``strength`` (and
    ``name``, when it is not the game's heuristic) and implements :meth:`decide`.
    """

    name: ClassVar[str] = "heuristic"
    strength: ClassVar[str]

    def choose(self, obs: Observation, rng: Rng) -> Any:
        """Return one of ``obs.moves``: the only one, or the one :meth:`decide` picks from ``obs.view``.

        Raises:
            IndexError: there is no legal move.
        """
        moves = obs.moves
        if len(moves) == 1:
            return moves[0]
        if not moves:
            raise IndexError(f"the {self.name} bot was given no legal move")
        return self.decide(obs.view, obs.seat, moves)

    @abstractmethod
    def decide(self, view: JSON, seat: int, moves: Sequence[Any]) -> Any:
        """Return one of ``moves`` (two or more), decided from ``view``, what ``seat`` is shown."""


def moves_by_type(moves: Sequence[Any]) -> dict[type, list[Any]]:
    """Return ``moves`` grouped by their class, each group in the listed order (classes in order of first move)."""
    out: dict[type, list[Any]] = {}
    for m in moves:
        out.setdefault(type(m), []).append(m)
    return out


def decide(bot: Any, game: Game, state: Any, seat: int, moves: Sequence[Any], rng: Rng) -> Any:
    """Ask ``bot`` for a move of ``seat`` among ``moves``, giving it only an :class:`Observation`.

    Raises:
        Exception: whatever the bot raises (a defect).
    """
    return bot.choose(Observation(game, state, seat, moves), rng)


@dataclass(frozen=True)
class GameInfo:
    """Static facts about a game, as its rulebook states them."""

    id: str
    name: str
    min_seats: int
    max_seats: int
    summary: str
    extra: Mapping[str, Any] = field(default_factory=dict)


S = TypeVar("S")
"""A game's mutable state type."""
M = TypeVar("M")
"""A game's move type (a union of frozen dataclasses declared on its :class:`MoveCodec`)."""
C = TypeVar("C", bound=Config)
"""A game's configuration type."""


class Game(ABC, Generic[S, M, C]):
    """Rules of one game. Stateless: every method takes the state it works on.

    Subclasses set the class attributes and implement the abstract methods; the game's
    manifest (:mod:`club_agentes.manifest`) names the instance, and
    :func:`~club_agentes.engine.core.registry.get_game` loads it.

    Class attributes:
        id, name, min_seats, max_seats: as the rulebook states them.
        moves: the game's :class:`MoveCodec`; :meth:`parse_move` and :meth:`move_schema` use it.
        bots: bot kind -> class (``"random"``, ``"heuristic"``, ``"mcts"``); each class has a
            ``strength`` line for ``list_games``.
        snapshot_version: bumped whenever :meth:`snapshot`'s format changes, so that stored
            snapshots of an older format are ignored (the table is replayed instead).
        summary, facts: what :meth:`info` says of the game besides the above: one paragraph, and
            further static facts (modes, options, card counts) as JSON.
    """

    id: ClassVar[str]
    name: ClassVar[str]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    moves: ClassVar[MoveCodec]
    bots: ClassVar[Mapping[str, type]] = {"random": RandomBot}
    snapshot_version: ClassVar[int] = 1
    summary: ClassVar[str] = ""
    facts: ClassVar[Mapping[str, Any]] = {}

    # ----- configuration and setup

    @abstractmethod
    def make_config(self, seats: int, options: Mapping[str, Any] | None = None) -> C:
        """Build a configuration from a seat count and table options.

        Raises:
            ConfigError: unknown option, bad value (outside its documented range) or seat count out of range.
        """

    @abstractmethod
    def config_schema(self) -> JSON:
        """Return the JSON schema of the table options: every option described, every number bounded."""

    @abstractmethod
    def new_game(self, config: C, seed: int) -> S:
        """Return the initial state; all randomness comes from ``Rng(seed)``."""

    def start(self, config: C, seed: int) -> tuple[S, list[Event]]:
        """Return the initial state and the setup events (the deal, the first-player roll...).

        Setup events that reveal private parts (a seat's starting hand) have that seat as their
        audience, like any other event.
        """
        return self.new_game(config, seed), []

    # ----- deciding

    @abstractmethod
    def pending(self, state: S) -> Pending:
        """Return who must decide now (``kind="over"`` once the game has ended)."""

    @abstractmethod
    def legal_moves(self, state: S, seat: int) -> list[M]:
        """Return the legal moves of ``seat`` now, in a stable order (empty if it must not act)."""

    @abstractmethod
    def apply(self, state: S, seat: int, move: M) -> list[Event]:
        """Validate and apply ``move`` for ``seat``; return the events it caused.

        Raises:
            IllegalMove: the move breaks a rule; ``state`` is unchanged.
            InvalidMove: the value is not a move of this game, or ``seat`` is not a seat of it;
                ``state`` is unchanged.
        """

    def explain(self, state: S, seat: int, moves: Sequence[M], names: Sequence[str]) -> list[MoveNote]:
        """Return each of ``moves`` in plain words, for the seat that may play them.

        ``names`` holds one label per seat, e.g. ``["seat 0 (claude-7)", "seat 1 (bot:heuristic)"]``;
        sentences name seats with these labels and money with its unit. A move that is legal but can
        never help gets a ``note`` saying why.
        """
        return [MoveNote(m.text()) for m in moves]  # type: ignore[attr-defined]

    def default_move(self, state: S, seat: int) -> tuple[M, str] | None:
        """Return the move the rules make when ``seat`` does not decide in time, with the rule id.

        ``None`` when the rules have no default (pass, decline, no card) for this decision; the table
        then lets the heuristic bot decide.
        """
        return None

    def move_basis(self, state: S, seat: int, move: M) -> Hashable:
        """Return what ``move`` answers or refers to in ``state`` (the offer it accepts, the card it stops...).

        A table applies a move decided on an older state of the game when it is legal now and its basis is
        equal in both states (it means the same); otherwise it refuses the move as stale. The value is
        compared only, never shown, so it may read hidden information.

        Raises:
            NotImplementedError: the game does not say (the default): a move decided on an older state of
                what the seat sees is refused as stale.
        """
        raise NotImplementedError

    def overtaken(self, then: S, now: S, seat: int, move: M) -> str | None:
        """Return why ``move``, decided by ``seat`` on ``then``, has already done its work in ``now``, else ``None``.

        A table calls it for a move decided on an older state that cannot be played now as it was meant
        (:meth:`move_basis`): when it returns a clause (English, e.g. ``"your wait is over: every other seat has
        answered the last change"``), the move is answered as spent, nothing stored, instead of refused as stale.
        Only moves that act on nothing qualify (a pass that lets a change stand). ``None`` by default.
        """
        return None

    def interlude(self, state: S) -> bool:
        """Return whether the decision now is a short interruption by other seats (a price being named, a
        stop window) after which the seats deciding before decide again; a table holds a move that such an
        interruption came before, briefly, instead of refusing it. ``False`` by default."""
        return False

    def touched(self, state: S, seat: int, move: M) -> Collection[int] | None:
        """Return the seats whose view ``move``, played by ``seat``, may have changed.

        A table moves a seat's ``seat_version`` when what the seat sees changes. With this answer it does so from
        what the write knows (the seats that moved, these seats, and the seats whose part in the pending decision
        changed) without computing any view; ``state`` is the game after the write that played the move (a write
        may play several moves: an answer that needs the state right after the move returns ``None``). A seat
        left out must see nothing new: ``benchmarks/seat_census.py`` and ``tests/engine/test_touched.py`` check
        the answer against the views of random games. ``None`` (the default) means the game does not say: the
        table then compares each seat's view and legal moves before and after the write. Raises nothing.
        """
        return None

    # ----- reading

    @abstractmethod
    def view(self, state: S, seat: int | None) -> JSON:
        """Return what ``seat`` may know (``None``: a spectator's public view), as JSON.

        Every public fact of the rules is in it; every card list is built through
        :meth:`visibility` (:meth:`Visibility.show`). Whether other seats have made a sealed
        choice is not part of a seat's view (it is in :class:`Pending` ``done``), so another seat's
        sealed choice does not change this seat's view.
        """

    @abstractmethod
    def result(self, state: S) -> Result | None:
        """Return the result once the game is over, with a per-seat breakdown, else ``None``."""

    @abstractmethod
    def render(self, view: JSON) -> str:
        """Return a compact English text of a view, for a language model's context."""

    def state_text(self, view: JSON) -> str:
        """Return the seat's state in a few compact lines, for the text of every decision it is asked.

        Built from ``view`` only: the seat's own holdings (hand, money, investments, tableau, sealed
        choice made, promises), what each other seat shows, and the piles, in the game's words. A
        game overrides it with its own line format; this default is the first line of :meth:`render`.
        """
        return self.render(view).split("\n", 1)[0].strip()

    def parse_move(self, data: Mapping[str, Any] | str) -> M:
        """Turn a move's JSON object or text form back into a move.

        Raises:
            InvalidMove: malformed input; the message says what is accepted.
        """
        return self.moves.parse(data)

    def move_schema(self) -> JSON:
        """Return the JSON schema that every move's JSON form satisfies."""
        return self.moves.schema()

    @abstractmethod
    def rule_ids(self) -> frozenset[str]:
        """Return every corpus id this engine can cite in an ``IllegalMove`` or result."""

    # ----- hidden information

    def visibility(self, state: S) -> Visibility | None:
        """Return who knows each card now (``None`` for a game with no cards)."""
        return None

    def hidden_ids(self, state: S, seat: int | None) -> frozenset[str]:
        """Return the ids of cards ``seat`` may not know now (other hands, decks, sealed choices)."""
        vis = self.visibility(state)
        return vis.hidden_ids(seat) if vis is not None else frozenset()

    def card_names(self) -> Mapping[str, str]:
        """Return card id -> printed name (``"MF-A-ENE-5"`` -> ``"Acción Energía 5M"``), for name-level leak scans."""
        return {}

    def determinize(self, state: S, seat: int, rng: Rng) -> S:
        """Return a copy of ``state`` whose hidden parts (for ``seat``) are drawn anew.

        The copy agrees with everything ``seat`` knows (its view and the public history): cards
        it does not know are redealt uniformly among the places it cannot see, and sealed choices
        of other seats not yet revealed are drawn among their legal options. The result does not
        depend on how the hidden parts of ``state`` are actually arranged.

        Raises:
            NotImplementedError: the game cannot determinize.
        """
        raise NotImplementedError(f"{self.id} cannot sample worlds")

    # ----- copies and storage

    @abstractmethod
    def snapshot(self, state: S) -> JSON:
        """Return the complete state as JSON, hidden parts included (never send it to a seat).

        :meth:`restore` turns it back into an equal state; the format is versioned by
        :attr:`snapshot_version`.
        """

    def restore(self, config: C, data: JSON) -> S:
        """Return the state a :meth:`snapshot` describes.

        Raises:
            NotImplementedError: the game cannot restore snapshots (tables replay instead).
            ValueError: the snapshot is malformed.
        """
        raise NotImplementedError(f"{self.id} cannot restore snapshots")

    def clone(self, state: S) -> S:
        """Return an independent copy of ``state`` (for search)."""
        return copy.deepcopy(state)

    # ----- facts

    def sample_configs(self) -> list[tuple[int, dict[str, Any]]]:
        """Return representative ``(seats, options)`` pairs: every seat count and mode.

        Random-playout tests and ``benchmarks/engine.py`` run each of them.
        """
        return [(n, {}) for n in range(self.min_seats, self.max_seats + 1)]

    def info(self) -> GameInfo:
        """Return static facts about the game (its class attributes)."""
        return GameInfo(self.id, self.name, self.min_seats, self.max_seats, self.summary, dict(self.facts))

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Give every game that can sample worlds (overrides :meth:`determinize`) the ``"mcts"`` bot kind."""
        super().__init_subclass__(**kwargs)
        if cls.determinize is not Game.determinize and "mcts" not in cls.bots:
            from club_agentes.engine.core.mcts import MctsBot

            cls.bots = {**cls.bots, "mcts": MctsBot}

    def make_bot(self, kind: str, **options: Any) -> Bot:
        """Return a new bot of the given kind (``"random"``, ``"heuristic"``, ``"mcts"``), with its options.

        ``bot:mcts`` is tuned per game: when the game's package has a module ``mcts`` with a function
        ``make_bot(**options)``, that builds it (a rollout policy, an estimate, a default budget);
        otherwise the generic :class:`~club_agentes.engine.core.mcts.MctsBot` does.

        Raises:
            KeyError: no bot of that kind exists for this game.
            TypeError, ValueError: options the bot does not take.
        """
        cls = self.bots[kind]
        if kind == "mcts":
            package = type(self).__module__.rsplit(".", 1)[0]
            try:
                tuned = importlib.import_module(f"{package}.mcts")
            except ModuleNotFoundError as exc:
                if exc.name != f"{package}.mcts":
                    raise
            else:
                factory = getattr(tuned, "make_bot", None)
                if callable(factory):
                    return factory(**options)
        return cls(**options)

    def check_seat(self, state: S, seat: Any) -> int:
        """Return ``seat`` if it is a seat of this game (an int from 0 to seats-1).

        Raises:
            InvalidMove: not a seat of this game (the same error in every game).
        """
        n = self.seat_count(state)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise InvalidMove(f"seat must be a whole number from 0 to {n - 1}, not {seat!r}")
        return seat

    def seat_count(self, state: S) -> int:
        """Return how many seats ``state`` has.

        The default reads ``state.config.seats``; a game whose state keeps its configuration
        elsewhere overrides it.
        """
        return int(state.config.seats)  # type: ignore[attr-defined]

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

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, Protocol

from club_agentes.engine.core.rng import Rng

DecisionKind = Literal["turn", "simultaneous", "reaction", "over"]

JSON = dict[str, Any]


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
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

    def visible_to(self, seat: int | None) -> bool:
        """Return whether ``seat`` (``None`` for a spectator) may see this event."""
        return self.audience is None or (seat is not None and seat in self.audience)


@dataclass(frozen=True, slots=True)
class Result:
    """How a finished game ended.

    Attributes:
        winners: the winning seats (several on a shared win), ascending.
        scores: one number per seat in the game's own unit (portfolio millions,
            victory points, money).
        reason: one English sentence, e.g. ``"seat 1 declared victory with 27M"``.
        rule_id: the corpus id of the rule that decided the end, when there is one.
    """

    winners: tuple[int, ...]
    scores: tuple[float, ...]
    reason: str
    rule_id: str | None = None


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
    """A game's frozen configuration: the seat count and the table options."""

    seats: int

    def to_json(self) -> JSON:
        """Return the options as JSON (what ``Game.make_config`` accepts back)."""
        ...


class Bot(Protocol):
    """A seat player that runs inside the server."""

    def choose(self, game: Game, state: Any, seat: int, moves: Sequence[Any], rng: Rng) -> Any:
        """Return one of ``moves`` for ``seat``.

        A bot must decide only from what ``game.view(state, seat)`` would show
        that seat; reading hidden parts of ``state`` is cheating.
        """
        ...


class RandomBot:
    """Plays uniformly at random among the legal moves."""

    name = "random"

    def choose(self, game: Game, state: Any, seat: int, moves: Sequence[Any], rng: Rng) -> Any:
        """Return a uniformly random legal move.

        Raises:
            IndexError: if ``moves`` is empty.
        """
        return rng.choice(moves)


@dataclass(frozen=True)
class GameInfo:
    """Static facts about a game, as its rulebook states them."""

    id: str
    name: str
    min_seats: int
    max_seats: int
    summary: str
    extra: Mapping[str, Any] = field(default_factory=dict)


class Game(ABC):
    """Rules of one game. Stateless: every method takes the state it works on.

    Subclasses set the class attributes and implement the abstract methods; the
    package registers an instance with :func:`engine.core.registry.register`.
    """

    id: ClassVar[str]
    name: ClassVar[str]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    bots: ClassVar[Mapping[str, type]] = {"random": RandomBot}

    @abstractmethod
    def make_config(self, seats: int, options: Mapping[str, Any] | None = None) -> Config:
        """Build a configuration from a seat count and table options.

        Raises:
            ConfigError: unknown option, bad value or seat count out of range.
        """

    @abstractmethod
    def config_schema(self) -> JSON:
        """Return the JSON schema of the table options (descriptions included)."""

    @abstractmethod
    def new_game(self, config: Config, seed: int) -> Any:
        """Return the initial state; all randomness comes from ``Rng(seed)``."""

    @abstractmethod
    def pending(self, state: Any) -> Pending:
        """Return who must decide now (``kind="over"`` once the game has ended)."""

    @abstractmethod
    def legal_moves(self, state: Any, seat: int) -> list[Any]:
        """Return the legal moves of ``seat`` now, in a stable order (empty if it must not act)."""

    @abstractmethod
    def apply(self, state: Any, seat: int, move: Any) -> list[Event]:
        """Validate and apply ``move`` for ``seat``; return the events it caused.

        Raises:
            IllegalMove: the move breaks a rule; ``state`` is unchanged.
            InvalidMove: the value is not a move of this game; ``state`` is unchanged.
        """

    @abstractmethod
    def view(self, state: Any, seat: int | None) -> JSON:
        """Return what ``seat`` may know (``None``: a spectator's public view), as JSON."""

    @abstractmethod
    def result(self, state: Any) -> Result | None:
        """Return the result once the game is over, else ``None``."""

    @abstractmethod
    def parse_move(self, data: Mapping[str, Any] | str) -> Any:
        """Turn a move's JSON object or text form back into a move.

        Raises:
            InvalidMove: malformed input; the message says what is accepted.
        """

    @abstractmethod
    def move_schema(self) -> JSON:
        """Return the JSON schema that every move's JSON form satisfies."""

    @abstractmethod
    def snapshot(self, state: Any) -> JSON:
        """Return the complete state as JSON, hidden parts included.

        For replay and "state untouched" checks only: never send it to a seat.
        """

    @abstractmethod
    def render(self, view: JSON) -> str:
        """Return a compact English text of a view, for a language model's context."""

    @abstractmethod
    def rule_ids(self) -> frozenset[str]:
        """Return every corpus id this engine can cite in an ``IllegalMove`` or result."""

    @abstractmethod
    def hidden_ids(self, state: Any, seat: int | None) -> frozenset[str]:
        """Return the ids of cards ``seat`` may not know now (other hands, decks, sealed choices)."""

    def sample_configs(self) -> list[tuple[int, dict[str, Any]]]:
        """Return representative ``(seats, options)`` pairs: every seat count and mode.

        Random-playout tests and ``benchmarks/engine.py`` run each of them.
        """
        return [(n, {}) for n in range(self.min_seats, self.max_seats + 1)]

    def info(self) -> GameInfo:
        """Return static facts about the game."""
        return GameInfo(self.id, self.name, self.min_seats, self.max_seats, summary="")

    def make_bot(self, kind: str) -> Bot:
        """Return a new bot of the given kind (``"random"``, ``"heuristic"``).

        Raises:
            KeyError: no bot of that kind exists for this game.
        """
        return self.bots[kind]()

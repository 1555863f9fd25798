"""A small game with everything the table service uses: a secret deal (setup events per seat), moves in
plain words, a rules' default for the decision clock, snapshots that restore, and a bot.

Race: seats take turns adding 1 or 2 to a shared counter; the seat that brings it to ``goal`` or more
wins. At the deal each seat is told a secret number (private setup event). ``pass`` is the rules'
default when a seat's clock runs out (it adds nothing). Moves apply one decision at a time.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from club_agentes.engine.core import ConfigError, Event, Game, IllegalMove, InvalidMove, Pending, Result, Rng
from club_agentes.engine.core.model import MoveNote, RandomBot, ScoreLine, SeatScore

from tests.engine.toys import SealedToy


@dataclass(frozen=True)
class RaceConfig:
    seats: int
    goal: int = 12

    def to_json(self) -> dict[str, Any]:
        return {"goal": self.goal}


@dataclass(frozen=True)
class Add:
    n: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "add", "n": self.n}

    def text(self) -> str:
        return f"add {self.n}"


@dataclass(frozen=True)
class Pass:
    def to_json(self) -> dict[str, Any]:
        return {"type": "pass"}

    def text(self) -> str:
        return "pass"


class RaceState:
    def __init__(self, config: RaceConfig, secrets_: list[int]) -> None:
        self.config = config
        self.counter = 0
        self.turn = 0
        self.secrets = secrets_
        self.added = [0] * config.seats
        self.winner: int | None = None


class Race(Game):
    id = "toy-race"
    name = "Race"
    min_seats = 2
    max_seats = 4
    bots: ClassVar[Mapping[str, type]] = {"random": RandomBot, "heuristic": RandomBot}
    snapshot_version: ClassVar[int] = 1

    def make_config(self, seats: int, options: Mapping[str, Any] | None = None) -> RaceConfig:
        opts = dict(options or {})
        goal = opts.pop("goal", 12)
        if opts:
            raise ConfigError(f"toy-race has one option, goal; not {sorted(opts)}")
        if not isinstance(goal, int) or not 3 <= goal <= 500:
            raise ConfigError("goal must be a whole number from 3 to 500")
        if not self.min_seats <= seats <= self.max_seats:
            raise ConfigError(f"toy-race takes 2 to 4 seats, not {seats}")
        return RaceConfig(seats, goal)

    def config_schema(self) -> dict[str, Any]:
        return {
            "type": "object",
            "properties": {"goal": {"type": "integer", "minimum": 3, "maximum": 500, "description": "the goal"}},
            "additionalProperties": False,
        }

    def new_game(self, config: RaceConfig, seed: int) -> RaceState:
        rng = Rng(seed)
        return RaceState(config, [rng.below(100) for _ in range(config.seats)])

    def start(self, config: RaceConfig, seed: int) -> tuple[RaceState, list[Event]]:
        state = self.new_game(config, seed)
        events = [Event(f"the race to {config.goal} begins")]
        events += [Event(f"your secret number is {n}", (s,), {"secret": n}) for s, n in enumerate(state.secrets)]
        return state, events

    def pending(self, state: RaceState) -> Pending:
        if state.winner is not None:
            return Pending("over", ())
        return Pending("turn", (state.turn,), "add 1 or 2 to the counter")

    def legal_moves(self, state: RaceState, seat: int) -> list[Any]:
        if state.winner is not None or seat != state.turn:
            return []
        return [Add(1), Add(2), Pass()]

    def apply(self, state: RaceState, seat: int, move: Any) -> list[Event]:
        self.check_seat(state, seat)
        if not isinstance(move, Add | Pass):
            raise InvalidMove("a move is 'add 1', 'add 2' or 'pass'")
        if state.winner is not None:
            raise IllegalMove("toy/over", "the race is over")
        if seat != state.turn:
            raise IllegalMove("toy/not-your-decision", f"seat {seat} does not decide now; seat {state.turn} does")
        if isinstance(move, Add):
            if move.n not in (1, 2):
                raise IllegalMove("toy/add", "add 1 or 2")
            state.counter += move.n
            state.added[seat] += move.n
        events = [Event(f"seat {seat} {'passes' if isinstance(move, Pass) else f'adds {move.n}'}: {state.counter}")]
        if state.counter >= state.config.goal:
            state.winner = seat
            events.append(Event(f"seat {seat} reaches {state.counter} and wins"))
        state.turn = (state.turn + 1) % state.config.seats
        return events

    def explain(self, state: RaceState, seat: int, moves: Sequence[Any], names: Sequence[str]) -> list[MoveNote]:
        out = []
        for m in moves:
            if isinstance(m, Pass):
                out.append(MoveNote(f"{names[seat]} adds nothing", "passing never helps you reach the goal"))
            else:
                out.append(MoveNote(f"{names[seat]} adds {m.n}, bringing the counter to {state.counter + m.n}"))
        return out

    def default_move(self, state: RaceState, seat: int) -> tuple[Any, str] | None:
        return (Pass(), "toy/pass-by-default") if seat == state.turn and state.winner is None else None

    def view(self, state: RaceState, seat: int | None) -> dict[str, Any]:
        out: dict[str, Any] = {"counter": state.counter, "turn": state.turn, "goal": state.config.goal}
        if seat is not None:
            out["my_secret"] = state.secrets[seat]
        return out

    def result(self, state: RaceState) -> Result | None:
        if state.winner is None:
            return None
        scores = tuple(float(a) for a in state.added)
        breakdown = tuple(
            SeatScore(s, float(a), "points", (ScoreLine("added to the counter", float(a), "toy/add"),))
            for s, a in enumerate(state.added)
        )
        return Result((state.winner,), scores, f"seat {state.winner} reached the goal", "toy/goal", breakdown)

    def render(self, view: dict[str, Any]) -> str:
        head = f"Race to {view['goal']}: counter {view['counter']}, seat {view['turn']} to play."
        return f"{head}\n(secret {view.get('my_secret')})"

    def parse_move(self, data: Mapping[str, Any] | str) -> Any:
        if isinstance(data, str):
            words = data.strip().lower().split()
            if words == ["pass"]:
                return Pass()
            if len(words) == 2 and words[0] == "add" and words[1].isdigit():
                return Add(int(words[1]))
            raise InvalidMove(f"cannot read {data[:40]!r}; write 'add 1', 'add 2' or 'pass'")
        if data.get("type") == "pass":
            return Pass()
        if data.get("type") == "add" and isinstance(data.get("n"), int):
            return Add(data["n"])
        raise InvalidMove("a move is {'type': 'add', 'n': 1|2} or {'type': 'pass'}")

    def move_schema(self) -> dict[str, Any]:
        return {"type": "object"}

    def snapshot(self, state: RaceState) -> dict[str, Any]:
        return {
            "counter": state.counter,
            "turn": state.turn,
            "secrets": state.secrets,
            "added": state.added,
            "winner": state.winner,
            "seats": state.config.seats,
            "goal": state.config.goal,
        }

    def restore(self, config: RaceConfig, data: dict[str, Any]) -> RaceState:
        state = RaceState(config, list(data["secrets"]))
        state.counter, state.turn, state.added, state.winner = (
            data["counter"],
            data["turn"],
            list(data["added"]),
            data["winner"],
        )
        return state

    def rule_ids(self) -> frozenset[str]:
        return frozenset({"toy/over", "toy/not-your-decision", "toy/add", "toy/pass-by-default", "toy/goal"})

    def seat_count(self, state: RaceState) -> int:
        return state.config.seats


class Counting(Race):
    """Race that counts how many moves it applied (to show catch-up applies only what is missing)."""

    def __init__(self) -> None:
        self.applied = 0

    def apply(self, state: RaceState, seat: int, move: Any) -> list[Event]:
        events = super().apply(state, seat, move)
        self.applied += 1
        return events


class Sealed(SealedToy):
    """The core's sealed-choice toy, with the view the contract asks for: who has chosen is not part of it
    (it is in ``Pending.done``), so another seat's sealed choice leaves this seat's view unchanged."""

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        out = super().view(state, seat)
        out.pop("chosen", None)
        return out

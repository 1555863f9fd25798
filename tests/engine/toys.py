"""Two tiny games that exercise the core's sealed-choice and reaction-window parts.

* :class:`SealedToy`: every round all seats pick a number 0-2 at once, sealed; the
  highest unique pick scores; first to 2 points wins.
* :class:`ReactionToy`: the seat on turn attacks another seat; the other seats are
  polled clockwise from the attacker and the first that still has a shield may
  block (the attack is cancelled); unblocked, the target loses a life.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from club_agentes.engine.core import (
    ConfigError,
    Event,
    Game,
    IllegalMove,
    InvalidMove,
    Pending,
    ReactionWindow,
    Result,
    SealedChoices,
    clockwise_from,
)


@dataclass(frozen=True)
class ToyConfig:
    seats: int

    def to_json(self) -> dict[str, Any]:
        return {}


@dataclass(frozen=True)
class Pick:
    value: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "pick", "value": self.value}

    def text(self) -> str:
        return f"pick {self.value}"


class _ToyBase(Game):
    min_seats = 2
    max_seats = 5

    def make_config(self, seats: int, options: Mapping[str, Any] | None = None) -> ToyConfig:
        if not self.min_seats <= seats <= self.max_seats:
            raise ConfigError(f"{self.id} takes 2 to 5 seats, not {seats}")
        if options:
            raise ConfigError(f"{self.id} has no options")
        return ToyConfig(seats)

    def config_schema(self) -> dict[str, Any]:
        return {"type": "object", "properties": {}, "additionalProperties": False}

    def render(self, view: dict[str, Any]) -> str:
        return repr(view)

    def hidden_ids(self, state: Any, seat: int | None) -> frozenset[str]:
        return frozenset()


class SealedState:
    def __init__(self, seats: int) -> None:
        self.seats = seats
        self.points = [0] * seats
        self.round = SealedChoices[int](range(seats))
        self.last_reveal: dict[int, int] | None = None


class SealedToy(_ToyBase):
    id = "toy-sealed"
    name = "Sealed toy"

    def new_game(self, config: ToyConfig, seed: int) -> SealedState:  # type: ignore[override]
        return SealedState(config.seats)

    def _over(self, state: SealedState) -> bool:
        return max(state.points) >= 2

    def pending(self, state: SealedState) -> Pending:  # type: ignore[override]
        if self._over(state):
            return Pending("over", ())
        return Pending("simultaneous", state.round.waiting, "pick 0, 1 or 2", state.round.done)

    def legal_moves(self, state: SealedState, seat: int) -> list[Pick]:  # type: ignore[override]
        if self._over(state) or state.round.has_chosen(seat):
            return []
        return [Pick(v) for v in range(3)]

    def apply(self, state: SealedState, seat: int, move: Any) -> list[Event]:  # type: ignore[override]
        if not isinstance(move, Pick) or move.value not in (0, 1, 2):
            raise InvalidMove("a move is {'type': 'pick', 'value': 0|1|2}")
        if self._over(state):
            raise IllegalMove("toy/over", "the game is over")
        if state.round.has_chosen(seat):
            raise IllegalMove("toy/sealed-once", f"seat {seat} has already chosen this round")
        state.round.submit(seat, move.value)
        events = [Event(f"seat {seat} has chosen")]
        if state.round.complete:
            picks = state.round.reveal()
            state.last_reveal = picks
            counts = [list(picks.values()).count(v) for v in range(3)]
            unique = [v for v in range(3) if counts[v] == 1]
            if unique:
                best = max(unique)
                winner = next(s for s, v in picks.items() if v == best)
                state.points[winner] += 1
            state.round = SealedChoices(range(state.seats))
            events.append(Event(f"revealed {picks}", data={"picks": picks}))
        return events

    def view(self, state: SealedState, seat: int | None) -> dict[str, Any]:  # type: ignore[override]
        return {
            "points": list(state.points),
            "chosen": list(state.round.done),
            "my_choice": state.round.own(seat) if seat is not None else None,
            "last_reveal": state.last_reveal,
        }

    def result(self, state: SealedState) -> Result | None:  # type: ignore[override]
        if not self._over(state):
            return None
        top = max(state.points)
        return Result(tuple(s for s, p in enumerate(state.points) if p == top), tuple(state.points), "2 points")

    def parse_move(self, data: Mapping[str, Any] | str) -> Pick:
        if isinstance(data, str):
            data = {"type": "pick", "value": int(data.split()[-1])}
        return Pick(int(data["value"]))

    def move_schema(self) -> dict[str, Any]:
        return {"type": "object"}

    def snapshot(self, state: SealedState) -> dict[str, Any]:  # type: ignore[override]
        return {"points": state.points, "round": state.round.to_json(), "last": state.last_reveal}

    def rule_ids(self) -> frozenset[str]:
        return frozenset({"toy/over", "toy/sealed-once"})


@dataclass(frozen=True)
class Attack:
    target: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "attack", "target": self.target}

    def text(self) -> str:
        return f"attack {self.target}"


@dataclass(frozen=True)
class Block:
    def to_json(self) -> dict[str, Any]:
        return {"type": "block"}

    def text(self) -> str:
        return "block"


@dataclass(frozen=True)
class Pass:
    def to_json(self) -> dict[str, Any]:
        return {"type": "pass"}

    def text(self) -> str:
        return "pass"


class ReactionState:
    def __init__(self, seats: int) -> None:
        self.seats = seats
        self.lives = [2] * seats
        self.shields = [1] * seats
        self.turn = 0
        self.attack: tuple[int, int] | None = None
        self.window: ReactionWindow | None = None
        self.polled: list[int] = []


class ReactionToy(_ToyBase):
    id = "toy-reaction"
    name = "Reaction toy"

    def new_game(self, config: ToyConfig, seed: int) -> ReactionState:  # type: ignore[override]
        return ReactionState(config.seats)

    def _over(self, state: ReactionState) -> bool:
        return sum(1 for v in state.lives if v > 0) <= 1

    def pending(self, state: ReactionState) -> Pending:  # type: ignore[override]
        if self._over(state):
            return Pending("over", ())
        if state.window is not None and state.window.is_open:
            return Pending("reaction", (state.window.current,), "block the attack or pass")  # type: ignore[arg-type]
        return Pending("turn", (state.turn,), "attack a seat")

    def legal_moves(self, state: ReactionState, seat: int) -> list[Any]:  # type: ignore[override]
        p = self.pending(state)
        if seat not in p.seats:
            return []
        if p.kind == "reaction":
            return ([Block()] if state.shields[seat] else []) + [Pass()]
        return [Attack(t) for t in range(state.seats) if t != seat and state.lives[t] > 0]

    def apply(self, state: ReactionState, seat: int, move: Any) -> list[Event]:  # type: ignore[override]
        p = self.pending(state)
        if seat not in p.seats:
            raise IllegalMove("toy/not-your-decision", f"seat {seat} does not decide now")
        if p.kind == "reaction":
            assert state.window is not None and state.attack is not None
            if isinstance(move, Block):
                if not state.shields[seat]:
                    raise IllegalMove("toy/no-shield", f"seat {seat} has no shield left")
                state.shields[seat] -= 1
                state.polled.append(seat)
                state.window.close()
                self._end_attack(state)
                return [Event(f"seat {seat} blocked")]
            if isinstance(move, Pass):
                state.polled.append(seat)
                state.window.pass_turn(seat)
                if not state.window.is_open:
                    state.lives[state.attack[1]] -= 1
                    self._end_attack(state)
                return [Event(f"seat {seat} passed")]
            raise IllegalMove("toy/reaction-only", "only block or pass now")
        if not isinstance(move, Attack) or move.target == seat or not (0 <= move.target < state.seats):
            raise IllegalMove("toy/attack", "attack another seat")
        if state.lives[move.target] <= 0:
            raise IllegalMove("toy/attack", "that seat is out")
        state.attack = (seat, move.target)
        state.polled = []
        order = [s for s in clockwise_from(seat, state.seats, include_first=False) if state.lives[s] > 0]
        state.window = ReactionWindow(order)
        return [Event(f"seat {seat} attacks seat {move.target}")]

    def _end_attack(self, state: ReactionState) -> None:
        attacker = state.attack[0] if state.attack else state.turn
        state.attack = None
        state.window = None
        nxt = (attacker + 1) % state.seats
        while state.lives[nxt] <= 0 and not self._over(state):
            nxt = (nxt + 1) % state.seats
        state.turn = nxt

    def view(self, state: ReactionState, seat: int | None) -> dict[str, Any]:  # type: ignore[override]
        return {"lives": list(state.lives), "shields": list(state.shields), "attack": state.attack}

    def result(self, state: ReactionState) -> Result | None:  # type: ignore[override]
        if not self._over(state):
            return None
        alive = tuple(s for s, v in enumerate(state.lives) if v > 0)
        return Result(alive, tuple(float(v) for v in state.lives), "last one standing")

    def parse_move(self, data: Mapping[str, Any] | str) -> Any:
        if isinstance(data, str):
            return Block() if data == "block" else Pass() if data == "pass" else Attack(int(data.split()[-1]))
        return {"block": Block, "pass": Pass}.get(data["type"], lambda: Attack(int(data["target"])))()

    def move_schema(self) -> dict[str, Any]:
        return {"type": "object"}

    def snapshot(self, state: ReactionState) -> dict[str, Any]:  # type: ignore[override]
        return {
            "lives": state.lives,
            "shields": state.shields,
            "turn": state.turn,
            "attack": state.attack,
            "window": state.window.to_json() if state.window else None,
        }

    def rule_ids(self) -> frozenset[str]:
        return frozenset({"toy/not-your-decision", "toy/no-shield", "toy/reaction-only", "toy/attack"})

"""Whole-game drivers shared by tests, bots and benchmarks: playouts and replays."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from club_agentes.engine.core.model import Bot, Config, Event, Game, Observation
from club_agentes.engine.core.rng import Rng


@dataclass
class Playout:
    """The record of one finished (or cut-off) game."""

    state: Any
    moves: list[tuple[int, Any]] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    decisions: int = 0
    finished: bool = False


def play(
    game: Game,
    config: Config,
    seed: int,
    bots: Sequence[Bot] | Mapping[int, Bot],
    *,
    bot_seed: int | None = None,
    max_decisions: int = 100_000,
    on_decision: Callable[[Any, int, list[Any]], None] | None = None,
    keep_events: bool = False,
) -> Playout:
    """Play a game with one bot per seat until it ends or ``max_decisions`` is reached.

    Legal moves are listed at every decision (as an agent would see them). When
    several seats must decide at once, they decide in ascending seat order.

    Args:
        game: the game's rules.
        config: the configuration (seat count, options).
        seed: the game's seed.
        bots: one bot per seat (a sequence indexed by seat, or a mapping).
        bot_seed: the seed of the bots' own random stream (default: ``seed``).
        max_decisions: stop after this many decisions (the playout is then unfinished).
        on_decision: called as ``(state, seat, moves)`` before each decision, for checks.
        keep_events: keep every event in the returned record.

    Raises:
        RuntimeError: a seat that must decide has no legal move (an engine defect).
    """
    state = game.new_game(config, seed)
    rng = Rng(seed if bot_seed is None else bot_seed).fork(0xB07)
    record = Playout(state=state)
    # the game's methods and the record's lists as locals: this loop is the engine benchmark's
    pending_of, legal_moves, apply = game.pending, game.legal_moves, game.apply
    played, kept = record.moves.append, record.events.extend
    for _ in range(max_decisions):
        pending = pending_of(state)
        if pending.kind == "over":
            record.finished = True
            break
        seat = pending.seats[0]
        moves = legal_moves(state, seat)
        if not moves:
            raise RuntimeError(f"seat {seat} must decide ({pending.kind}) but has no legal move")
        if on_decision is not None:
            on_decision(state, seat, moves)
        move = bots[seat].choose(Observation(game, state, seat, moves), rng)  # model.decide, inline
        events = apply(state, seat, move)
        played((seat, move))
        if keep_events:
            kept(events)
    else:
        record.finished = pending_of(state).kind == "over"
    record.decisions = len(record.moves)
    return record


def replay(game: Game, config: Config, seed: int, moves: Sequence[tuple[int, Any]]) -> Any:
    """Rebuild a state from its configuration, seed and moves.

    Raises:
        IllegalMove: a recorded move is not legal when replayed (a corrupted record).
        InvalidMove: a recorded move is malformed.
    """
    state = game.new_game(config, seed)
    for seat, move in moves:
        game.apply(state, seat, move)
    return state

"""The Market Fortune :class:`~club_agentes.engine.core.Game`: configuration and dispatch.

Every rule lives in the file of the step it belongs to (:mod:`.steps`); this class only
builds configurations, finds the deciding seat and the current step, and hands the listing
or the move to that step. Views (:mod:`.views`), plain words (:mod:`.explain`), the
visibility rule (:mod:`.knowledge`), determinization (:mod:`.determinize`) and snapshots
(:mod:`.snapshots`) are read from here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from club_agentes.engine.core import Event, Game, IllegalMove, Pending, RandomBot, Result, Rng
from club_agentes.engine.core.model import MoveNote
from club_agentes.engine.core.moves import MoveCodec
from club_agentes.engine.core.steps import Step
from club_agentes.engine.core.visibility import Visibility
from club_agentes.engine.market_fortune import config as cfg
from club_agentes.engine.market_fortune import rules as rid
from club_agentes.engine.market_fortune.bots import HeuristicBot
from club_agentes.engine.market_fortune.components import CARD_ID, CARD_NAME, N_CARDS
from club_agentes.engine.market_fortune.config import MFConfig
from club_agentes.engine.market_fortune.determinize import determinize
from club_agentes.engine.market_fortune.explain import default_move, explain
from club_agentes.engine.market_fortune.flow import start_game
from club_agentes.engine.market_fortune.knowledge import hidden_ids, visibility
from club_agentes.engine.market_fortune.moves import MOVE_CLASSES, MOVES, Move
from club_agentes.engine.market_fortune.snapshots import SNAPSHOT_VERSION, restore, snapshot
from club_agentes.engine.market_fortune.state import (
    BUILD_DISCARD,
    CLOSING,
    DOMINATED,
    FORMED,
    MAIN,
    MODES,
    OPTIMISE_COST,
    REACTION,
    RESCUE,
    RETURN_STEP,
    TAKE,
    TRIM,
    State,
)
from club_agentes.engine.market_fortune.state_text import state_text
from club_agentes.engine.market_fortune.steps.build import DISCARD_STEP
from club_agentes.engine.market_fortune.steps.declaration import CLOSING_STEP, FAILED_STEP
from club_agentes.engine.market_fortune.steps.dominate import DOMINATED_STEP
from club_agentes.engine.market_fortune.steps.main import MAIN_STEP
from club_agentes.engine.market_fortune.steps.optimisation import COST_STEP
from club_agentes.engine.market_fortune.steps.reaction import REACTION_STEP
from club_agentes.engine.market_fortune.steps.risk import FORMED_STEP
from club_agentes.engine.market_fortune.steps.strategy_takes import RESCUE_STEP, TAKE_STEP
from club_agentes.engine.market_fortune.steps.trim import TRIM_STEP
from club_agentes.engine.market_fortune.views import decider, pending, render, view

STEPS: dict[str, Step[State]] = {
    MAIN: MAIN_STEP,
    BUILD_DISCARD: DISCARD_STEP,
    OPTIMISE_COST: COST_STEP,
    TRIM: TRIM_STEP,
    FORMED: FORMED_STEP,
    CLOSING: CLOSING_STEP,
    RETURN_STEP: FAILED_STEP,
    DOMINATED: DOMINATED_STEP,
    TAKE: TAKE_STEP,
    RESCUE: RESCUE_STEP,
    REACTION: REACTION_STEP,
}
_LISTING: dict[str, Callable[[State, int], Any]] = {
    name: step.candidates if step.accepts_all and step.listing_key is None else step.legal
    for name, step in STEPS.items()
}
"""How each step lists its legal moves: :meth:`Step.legal`, which for a step whose candidates are built from
its checks (every one of Market Fortune's) is the candidates themselves, called here without the wrapper."""
_CARD_NAMES = {CARD_ID[c]: CARD_NAME[c] for c in range(N_CARDS)}


class MarketFortune(Game[State, Move, MFConfig]):
    """Market Fortune: 2 to 6 seats, modes Familia, Fortuna (default) and Campeonato."""

    id = "market-fortune"
    name = "Market Fortune"
    min_seats = cfg.MIN_SEATS
    max_seats = cfg.MAX_SEATS
    moves: ClassVar[MoveCodec] = MOVES
    bots: ClassVar[Mapping[str, type]] = {"random": RandomBot, "heuristic": HeuristicBot}
    snapshot_version: ClassVar[int] = SNAPSHOT_VERSION
    summary = (
        "Financial strategy card game: pair an Acción ($) with a Rendimiento (+R) of the same industry, "
        "roll the Fortune die to form investments, and be the first with 4 investments worth 25M or more."
    )
    facts: ClassVar[Mapping[str, Any]] = {"modes": list(MODES), "default_mode": cfg.DEFAULT_MODE}

    # ----- configuration and setup

    def make_config(self, seats: int, options: Mapping[str, Any] | None = None) -> MFConfig:
        """Build a configuration from a seat count and table options.

        Raises:
            ConfigError: unknown option, bad value (outside its range) or seat count out of range (one
                sentence naming what is accepted).
        """
        return cfg.make_config(seats, options)

    def config_schema(self) -> dict[str, Any]:
        """Return the JSON schema of the table options (every number bounded)."""
        return cfg.config_schema()

    def new_game(self, config: MFConfig, seed: int) -> State:
        """Deal a new table; the first player is found by rolling the Fortune die."""
        return self.start(config, seed)[0]

    def start(self, config: MFConfig, seed: int) -> tuple[State, list[Event]]:
        """Deal a new table and return it with the setup events (the deal, each hand to its seat, the roll)."""
        state = State(config, seed)
        ev: list[Event] = []
        start_game(state, None, ev)
        return state, ev

    # ----- deciding

    def pending(self, state: State) -> Pending:
        """Return who must decide now."""
        return pending(state)

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        """Return the legal moves of ``seat`` now, in a stable order (empty if it must not act)."""
        name = state.step
        if state.over or seat != (state.turn if name != REACTION else decider(state)):
            return []
        return _LISTING[name](state, seat)

    def apply(self, state: State, seat: int, move: Move | Mapping[str, Any] | str) -> list[Event]:
        """Check and apply ``move`` for ``seat``; return the events it caused.

        Raises:
            IllegalMove: the move breaks a rule (the rule id names the section); the state is unchanged.
            InvalidMove: the value is not a Market Fortune move, or ``seat`` is not a seat of this table;
                the state is unchanged.
        """
        if seat.__class__ is not int or not 0 <= seat < state.n:
            seat = self.check_seat(state, seat)
        if move.__class__ not in MOVE_CLASSES:
            move = MOVES.parse(move)
        if state.over:
            raise IllegalMove(rid.VICTORY, "the game is over; no move is accepted")
        name = state.step
        step = STEPS[name]
        if seat != (state.turn if name != REACTION else decider(state)):
            raise step.waiting(state, seat, pending(state)).illegal()
        state.version += 1  # what the core memo kept for the state (its visibility) no longer holds
        return step.apply(state, seat, move)

    def explain(self, state: State, seat: int, moves: Sequence[Move], names: Sequence[str]) -> list[MoveNote]:
        """Return each of ``moves`` in plain words, with a note on those that can never help."""
        return explain(state, seat, moves, names)

    def default_move(self, state: State, seat: int) -> tuple[Move, str] | None:
        """Return the rules' default for ``seat``'s decision (decline, skip, reveal...) and its rule id, or None."""
        if state.over or seat != decider(state):
            return None
        return default_move(state, seat, self.legal_moves(state, seat))

    def touched(self, state: State, seat: int, move: Move) -> range:
        """Return every seat: each move changes what every seat sees (the views show the decision and who makes
        it; ``benchmarks/seat_census.py`` finds no move of random games at any seat count that leaves another
        seat's view as it was), so a table moves every seat's version without comparing views. Raises nothing."""
        return range(self.seat_count(state))

    # ----- reading

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """Return what ``seat`` may know (``None``: a spectator)."""
        return view(state, seat)

    def result(self, state: State) -> Result | None:
        """Return the result once the game (or the Campeonato match) is over, with a per-seat breakdown."""
        return state.result

    def render(self, view: dict[str, Any]) -> str:
        """Return a compact English text of a view."""
        return render(view)

    def state_text(self, view: dict[str, Any]) -> str:
        """Return the seat's state in compact lines (:func:`.state_text.state_text`)."""
        return state_text(view)

    def rule_ids(self) -> frozenset[str]:
        """Return every corpus id this engine cites."""
        return rid.ALL_RULE_IDS

    # ----- hidden information

    def visibility(self, state: State) -> Visibility:
        """Return who knows each card now (zones and extra knowledge; see :mod:`.knowledge`)."""
        return visibility(state)

    def hidden_ids(self, state: State, seat: int | None) -> frozenset[str]:
        """Return the ids of the cards ``seat`` may not be shown: hidden by :meth:`visibility`, never shown to it."""
        return hidden_ids(state, visibility(state), seat)

    def card_names(self) -> Mapping[str, str]:
        """Return card id -> printed name, for name-level leak scans."""
        return _CARD_NAMES

    def determinize(self, state: State, seat: int, rng: Rng) -> State:
        """Return a full state consistent with ``seat``'s view and the public history (see :mod:`.determinize`)."""
        return determinize(state, seat, rng)

    # ----- copies and storage

    def snapshot(self, state: State) -> dict[str, Any]:
        """Return the complete state as JSON, hidden parts included (never send it to a seat)."""
        return snapshot(state)

    def restore(self, config: MFConfig, data: dict[str, Any]) -> State:
        """Return the state a :meth:`snapshot` describes.

        Raises:
            ValueError: the snapshot is malformed or of another format version.
        """
        return restore(config, data)

    def clone(self, state: State) -> State:
        """Return an independent copy of ``state`` (for search)."""
        return state.clone()

    # ----- facts

    def sample_configs(self) -> list[tuple[int, dict[str, Any]]]:
        """Return every seat count (2 to 6) in each mode; Campeonato with a shorter match for test speed."""
        out: list[tuple[int, dict[str, Any]]] = []
        for n in range(2, 7):
            out.append((n, {}))
            out.append((n, {"mode": "familia"}))
            out.append((n, {"mode": "campeonato", "turn_limit": 120, "game_limit": 4}))
        return out


GAME = MarketFortune()
"""The Market Fortune engine instance the game manifest names."""

"""Se Vende: configuration and dispatch (the rules live in :mod:`club_agentes.engine.se_vende.steps`).

One round: every seat chooses an action card in secret; all are revealed at once; the chosen
phases run in order I to V and every seat performs each of them, with the bonus only for the seats
that chose it; hands are cut to ten; the game ends at the end of the round in which a tableau
reaches 12 cards or the last victory chip is handed out. Decisions the physical game makes at the
same time (what to keep when exploring, what to place) are asked of every seat at once; see
``se-vende/rulings/decisiones``.

Layout of the package (the one every game follows, see CONTRIBUTING.md):

* ``config.py``: the table options; ``cards.py`` (+ ``data/cards.toml``), ``actions.py``: the
  components, as data.
* ``moves.py``: the moves, declared once with the shared codec.
* ``state.py``: the state; ``snapshots.py``: the state as JSON and back.
* ``steps/``: one module per step or phase with its checks, listing and effects;
  ``flow.py``: which step follows which; ``table.py``: what the steps share; ``scoring.py``.
* ``knowledge.py``: who knows each card (views, hidden ids); ``determinize.py``: sampled worlds.
* ``views.py``, ``explain.py``: what a seat is shown, and its moves in plain words.
* ``bots.py``: the heuristic bot; ``mcts.py``: the tuned ``bot:mcts``; ``rules.py``: the corpus
  ids the engine cites.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from club_agentes.engine.core import (
    ConfigError,
    Event,
    Game,
    IllegalMove,
    InvalidMove,
    Pending,
    RandomBot,
    Result,
    Rng,
)
from club_agentes.engine.core.model import MoveNote
from club_agentes.engine.core.moves import MoveCodec
from club_agentes.engine.core.steps import Step, listed_step, memo_legal, memo_of
from club_agentes.engine.core.visibility import Visibility
from club_agentes.engine.se_vende import flow
from club_agentes.engine.se_vende import rules as R
from club_agentes.engine.se_vende.bots import HeuristicBot
from club_agentes.engine.se_vende.cards import load_designs
from club_agentes.engine.se_vende.config import MAX_SEATS, MIN_SEATS, SeVendeConfig, config_schema, make_config
from club_agentes.engine.se_vende.determinize import determinize
from club_agentes.engine.se_vende.explain import explain
from club_agentes.engine.se_vende.knowledge import visibility
from club_agentes.engine.se_vende.moves import MOVE_TYPES, MOVES, SeVendeMove
from club_agentes.engine.se_vende.snapshots import SNAPSHOT_VERSION, restore, snapshot
from club_agentes.engine.se_vende.state import (
    CONSUMING,
    EXPLORE_KEEP,
    HAND_LIMIT,
    OVER,
    PRODUCING,
    SELECT,
    SETUP,
    State,
)
from club_agentes.engine.se_vende.state_text import state_text
from club_agentes.engine.se_vende.steps import choose, consume, explore, hand_limit, place, produce, setup
from club_agentes.engine.se_vende.table import DECK
from club_agentes.engine.se_vende.views import build_view, render_view

STEPS: dict[int, Step[State]] = {
    SETUP: setup.STEP,
    SELECT: choose.STEP,
    EXPLORE_KEEP: explore.STEP,
    **place.STEPS,
    CONSUMING: consume.STEP,
    PRODUCING: produce.STEP,
    HAND_LIMIT: hand_limit.STEP,
}
"""Every step that asks for decisions, by the state's step number."""
_OVER = Pending("over", ())


def step_of(state: State) -> Step[State] | None:
    """Return the step the game is in, or ``None`` once the game is over."""
    return None if state.step == OVER else STEPS[state.step]


def _over(state: State) -> Pending:
    """The pending decision once the game is over."""
    return _OVER


_MOVE_CLASSES = frozenset(MOVE_TYPES)
_NO_PENDING = Pending("simultaneous", ())  # Se Vende's refusals of a waiting seat do not read the pending decision
_CARD_NAMES: dict[str, str] = {cid: d.name for cid, d in zip(DECK.ids, DECK.defs, strict=True)}
_RULE_IDS: frozenset[str] = R.CITED | {R.card_section(d.key) for d in load_designs() if d.special}


class SeVende(Game[State, SeVendeMove, SeVendeConfig]):
    """Se Vende: secret phase selection and a tableau of worlds and developments."""

    id: ClassVar[str] = "se-vende"
    name: ClassVar[str] = "Se Vende"
    min_seats: ClassVar[int] = MIN_SEATS
    max_seats: ClassVar[int] = MAX_SEATS
    moves: ClassVar[MoveCodec] = MOVES
    bots: ClassVar[Mapping[str, type]] = {"random": RandomBot, "heuristic": HeuristicBot}
    snapshot_version: ClassVar[int] = SNAPSHOT_VERSION
    summary = (
        "Phase selection: every round each seat secretly picks an action card (Explorar, Desarrollar, "
        "Asentar, Consumir, Producir); chosen phases run for everyone, choosers get a bonus; build a "
        "tableau of worlds and developments and score the most victory points."
    )
    facts: ClassVar[Mapping[str, Any]] = {"cards": len(DECK.defs), "options": ["turn_limit"]}

    # ------------------------------------------------------------------ configuration

    def make_config(self, seats: int, options: Mapping[str, Any] | None = None) -> SeVendeConfig:
        """Build a configuration (see :mod:`club_agentes.engine.se_vende.config`).

        Raises:
            ConfigError: seats outside 2..4 (se-vende/rulings/jugadores), an unknown option, or a
                turn_limit that is not a whole number from 1 to 100.
        """
        return make_config(seats, options)

    def config_schema(self) -> dict[str, Any]:
        """Return the JSON schema of the table options."""
        return config_schema()

    def sample_configs(self) -> list[tuple[int, dict[str, Any]]]:
        """Return every seat count with the default options, and one short turn limit."""
        return [(2, {}), (3, {}), (4, {}), (3, {"turn_limit": 3})]

    def rule_ids(self) -> frozenset[str]:
        """Return every corpus id this engine can cite (rules, rulings, and the special cards' sections)."""
        return _RULE_IDS

    # ------------------------------------------------------------------ setup

    def new_game(self, config: SeVendeConfig, seed: int) -> State:
        """Return the game after setup steps 1-8, waiting for the step-5 discards.

        Raises:
            ConfigError: ``config`` is not a Se Vende configuration.
        """
        if not isinstance(config, SeVendeConfig):
            raise ConfigError("a Se Vende game needs a configuration made by SeVende.make_config")
        return setup.deal(config, seed, log=False)[0]

    def start(self, config: SeVendeConfig, seed: int) -> tuple[State, list[Event]]:
        """Return the game after setup steps 1-8 and the setup events (each seat's deal to that seat only).

        Raises:
            ConfigError: ``config`` is not a Se Vende configuration.
        """
        if not isinstance(config, SeVendeConfig):
            raise ConfigError("a Se Vende game needs a configuration made by SeVende.make_config")
        return setup.deal(config, seed)

    # ------------------------------------------------------------------ who decides

    def pending(self, state: State) -> Pending:
        """Return who must decide now; every decision of a round is ``"simultaneous"``."""
        memo = state.memo
        if memo is not None and memo.version == state.version:
            return memo.pending
        return memo_of(state, step_of, _over).pending

    def legal_moves(self, state: State, seat: int) -> list[SeVendeMove]:
        """Return ``seat``'s legal moves now, in a stable order (empty when it has nothing to decide)."""
        if not isinstance(seat, int) or not 0 <= seat < state.n:
            return []
        return memo_legal(state, seat, step_of, _over)  # empty for a seat that has nothing to decide

    def apply(self, state: State, seat: int, move: SeVendeMove) -> list[Event]:
        """Validate and apply ``seat``'s move; return the events it caused.

        Raises:
            InvalidMove: ``seat`` is not a seat of this table, or ``move`` is not a Se Vende move.
            IllegalMove: the move breaks a rule (the rule id names the section or ruling);
                ``state`` is unchanged.
        """
        if type(seat) is not int or not 0 <= seat < state.n:
            seat = self.check_seat(state, seat)  # raises the core's InvalidMove for a bad seat
        if type(move) not in _MOVE_CLASSES:
            raise InvalidMove(f"{move!r:.80} is not a Se Vende move; parse it with parse_move first")
        step = listed_step(state, seat, move)  # a move listed at this version: its check ran when it was listed
        if step is None:
            if state.step == OVER:
                raise IllegalMove(R.GAME_END, "the game is over; no move can be played")
            step = STEPS[state.step]
            decides = step.decides
            assert decides is not None  # every Se Vende step says who decides, seat by seat (steps/base.declare)
            refusal = step.check(state, seat, move) if decides(state, seat) else step.waiting(state, seat, _NO_PENDING)
            if refusal is not None:
                raise refusal.illegal()
        state.version += 1
        ev: list[Event] = []
        if step.effects[type(move)](state, seat, move, ev):  # a Se Vende effect says whether the step is complete
            flow.step_complete(state, ev)
        return ev

    def explain(self, state: State, seat: int, moves: Sequence[SeVendeMove], names: Sequence[str]) -> list[MoveNote]:
        """Return each of ``moves`` in plain words (see :mod:`club_agentes.engine.se_vende.explain`)."""
        return explain(state, seat, moves, names)

    def default_move(self, state: State, seat: int) -> tuple[SeVendeMove, str] | None:
        """Return the rules' default for ``seat`` now, with its rule id, or ``None`` when there is none.

        Place nothing (se-vende/preguntas/no-colocar-nada); finish consuming, or stop a power that
        discards from hand (se-vende/rulings/consumir, se-vende/rulings/poderes-de-mano); decline a
        windfall production (se-vende/rulings/producir). Choosing an action card, discarding,
        keeping, paying, selling and feeding a goods power have no default.
        """
        if state.step == OVER or not 0 <= seat < state.n:
            return None
        step = STEPS[state.step]
        if step.default is None or not step.is_deciding(state, seat):
            return None
        return step.default(state, seat)

    # ------------------------------------------------------------------ reading

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """Return what ``seat`` may know (``None``: a spectator); see :mod:`club_agentes.engine.se_vende.views`."""
        if state.step == OVER:
            return build_view(state, seat, "The game is over.", False)
        pending = STEPS[state.step].pending(state)
        yours = seat is not None and 0 <= seat < state.n and seat in pending.seats
        return build_view(state, seat, pending.prompt, yours)

    def render(self, view: dict[str, Any]) -> str:
        """Return a compact English text of a view, for a language model."""
        return render_view(view)

    def state_text(self, view: dict[str, Any]) -> str:
        """Return the seat's state in compact lines (:func:`.state_text.state_text`)."""
        return state_text(view)

    def visibility(self, state: State) -> Visibility:
        """Return who knows each card now (see :mod:`club_agentes.engine.se_vende.knowledge`)."""
        return visibility(state)

    def card_names(self) -> Mapping[str, str]:
        """Return card id -> printed name for every game card (``SV-C040`` -> ``Cometa Confeti``)."""
        return _CARD_NAMES

    def determinize(self, state: State, seat: int, rng: Rng) -> State:
        """Return a full state consistent with ``seat``'s knowledge, its hidden parts drawn anew."""
        return determinize(state, seat, rng)

    def result(self, state: State) -> Result | None:
        """Return the result once the game is over (with each seat's breakdown), else ``None``."""
        return state.result

    def seat_count(self, state: State) -> int:
        """Return how many seats ``state`` has."""
        return state.n

    # ------------------------------------------------------------------ copies and storage

    def snapshot(self, state: State) -> dict[str, Any]:
        """Return the complete state as JSON, hidden parts included (never send it to a seat)."""
        return snapshot(state)

    def restore(self, config: SeVendeConfig, data: dict[str, Any]) -> State:
        """Return the state a :meth:`snapshot` describes.

        Raises:
            ValueError: the snapshot is malformed or belongs to another configuration.
        """
        return restore(config, data)

    def clone(self, state: State) -> State:
        """Return an independent copy of ``state`` (fast, for search)."""
        return state.clone()


GAME = SeVende()
"""The Se Vende engine instance the game manifest names."""

"""The rules of Yo soy el jefe as a decision state machine: configuration and dispatch.

Each step of the game is a core :class:`~club_agentes.engine.core.steps.Step` in its own module of
:mod:`.steps`, holding that step's checks, candidate moves and effects:

* :mod:`.steps.setup` (section 2): the deal and the dollar marker;
* :mod:`.steps.turn` (section 3): negotiate, roll, draw;
* :mod:`.steps.hand_limit` (section 3): hire sets and discards over the hand limit;
* :mod:`.steps.negotiation` (sections 3-1, 3-2, 3-2-1): the open negotiation: family cards, prices, agreements;
* :mod:`.steps.influence` (section 3-2-2): travel cards, hire sets, boss cards and the stop window;
* :mod:`.steps.closing` (sections 3-3 and 4): closing or failing a deal and the end of the game.

:meth:`YoSoyElJefe.legal_moves` keeps the candidate moves that the step's checks accept, and
:meth:`YoSoyElJefe.apply` runs the same check before the effect: the two agree by construction.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from club_agentes.engine.core import Event, Game, IllegalMove, InvalidMove, Pending, RandomBot, Result
from club_agentes.engine.core.model import MoveNote
from club_agentes.engine.core.moves import MoveCodec
from club_agentes.engine.core.rng import Rng
from club_agentes.engine.core.steps import Step, listed_step, memo_legal, memo_of
from club_agentes.engine.core.visibility import Visibility
from club_agentes.engine.yo_soy_el_jefe import rules as R
from club_agentes.engine.yo_soy_el_jefe.bots import HeuristicBot
from club_agentes.engine.yo_soy_el_jefe.config import JefeConfig, config_schema, make_config
from club_agentes.engine.yo_soy_el_jefe.determinize import determinize
from club_agentes.engine.yo_soy_el_jefe.explain import basis, explain, interlude, overtaken
from club_agentes.engine.yo_soy_el_jefe.knowledge import visibility
from club_agentes.engine.yo_soy_el_jefe.moves import MOVES, Move
from club_agentes.engine.yo_soy_el_jefe.scoring import breakdown
from club_agentes.engine.yo_soy_el_jefe.snapshots import restore, snapshot
from club_agentes.engine.yo_soy_el_jefe.state import State
from club_agentes.engine.yo_soy_el_jefe.state_text import state_text
from club_agentes.engine.yo_soy_el_jefe.steps import hand_limit, negotiation, setup, turn
from club_agentes.engine.yo_soy_el_jefe.steps.influence import STOP_STEP
from club_agentes.engine.yo_soy_el_jefe.steps.negotiation import default_move
from club_agentes.engine.yo_soy_el_jefe.views import build_view, card_names, render

STEPS: dict[str, Step[State]] = {
    "marker": setup.STEP,
    "turn": turn.STEP,
    "after_roll": turn.STEP,
    "discard": hand_limit.STEP,
    "negotiation": negotiation.STEP,
}


def step_of(state: State) -> Step[State] | None:
    """Return the step the game is in (the stop window first), or ``None`` once the game is over."""
    if state.phase == "over":
        return None
    if state.stop is not None:
        return STOP_STEP
    return STEPS[state.phase]


def _over(state: State) -> Pending:
    """The pending decision once the game is over."""
    return Pending("over", (), "The game is over.")


class YoSoyElJefe(Game[State, Move, JefeConfig]):
    """Yo soy el jefe: gather the investors a board space asks for, negotiate openly, interfere with cards."""

    id: ClassVar[str] = "yo-soy-el-jefe"
    name: ClassVar[str] = "Yo soy el jefe"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 6
    moves: ClassVar[MoveCodec] = MOVES
    bots: ClassVar[Mapping[str, type]] = {"random": RandomBot, "heuristic": HeuristicBot}
    snapshot_version: ClassVar[int] = 2
    summary = (
        "Negotiation game: gather the investors each board space asks for, share the dividends openly, "
        "and interfere with influence cards; the most money wins."
    )
    facts: ClassVar[Mapping[str, Any]] = {"rulebook_seats": "3-6 (2 with the two-player rules)"}

    # -- configuration -------------------------------------------------------------------

    def make_config(self, seats: int, options: Mapping[str, Any] | None = None) -> JefeConfig:
        """Build a configuration from a seat count and table options.

        Raises:
            ConfigError: seat count out of 2-6, unknown option or a value out of its range; the message
                names what is accepted.
        """
        return make_config(seats, options)

    def config_schema(self) -> dict[str, Any]:
        """Return the JSON schema of the table options (every property described, every number bounded)."""
        return config_schema()

    def sample_configs(self) -> list[tuple[int, dict[str, Any]]]:
        """Return every seat count with the standard rules, and every option on at least once.

        The two-player rules are sampled at 3 seats: with more seats random bots negotiate for long under them
        (the boss may not fail a deal that could close, and closes only after a quiet window).
        """
        every = {
            "boss_card_keeps_turn": True,
            "mandatory_negotiation_with_10_cards": True,
            "dividends_only_for_participants": True,
            "draw_by_investors": True,
            "no_negotiation_with_3_cards_or_fewer": True,
            "hand_limit_10_from_tenth_deal": True,
        }
        return [
            (2, {}),
            (3, {}),
            (4, {}),
            (5, {}),
            (6, {}),
            (3, {**every, "quick_game": True}),
            (
                3,
                {
                    **every,
                    "two_player_rules": True,
                    "first_player": 2,
                    "marker_start": 8,
                    "failed_negotiations_limit": 20,
                },
            ),
        ]

    def new_game(self, config: JefeConfig, seed: int) -> State:
        """Return the initial state: investors and five influence cards dealt, deal card #1 on top."""
        return State(config, seed)

    def start(self, config: JefeConfig, seed: int) -> tuple[State, list[Event]]:
        """Return the initial state and the setup events (each seat's hand shown to that seat only)."""
        state = State(config, seed)
        return state, setup.setup_events(state)

    # -- deciding -------------------------------------------------------------------------

    def pending(self, state: State) -> Pending:
        """Return who must decide now, with a one-sentence prompt built only from public facts."""
        memo = state.memo
        if memo is not None and memo.version == state.version:
            return memo.pending
        return memo_of(state, step_of, _over).pending

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        """Return the legal moves of ``seat`` now, in a stable order (empty if it must not act)."""
        return memo_legal(state, seat, step_of, _over)

    def check(self, state: State, seat: int, move: Any) -> IllegalMove | None:
        """Return ``None`` if ``move`` is legal for ``seat`` now, else the refusal citing its rule.

        Raises:
            InvalidMove: the value is not a Yo soy el jefe move, or ``seat`` is not a seat of it.
        """
        if not MOVES.is_move(move):
            raise InvalidMove(
                f"{str(move)[:60]!r} is not a Yo soy el jefe move; use parse_move() on its JSON or text form"
            )
        self.check_seat(state, seat)
        memo = memo_of(state, step_of, _over)
        step = memo.step
        if step is None:
            return IllegalMove(R.END, f"the game is over ({state.end_reason}); no move is possible.")
        refusal = (
            step.waiting(state, seat, memo.pending) if seat not in memo.pending.seats else step.check(state, seat, move)
        )
        return None if refusal is None else refusal.illegal()

    def apply(self, state: State, seat: int, move: Move) -> list[Event]:
        """Validate and apply ``move`` for ``seat``; return the events it caused.

        Raises:
            IllegalMove: the move breaks a rule (the rule id names the section or ruling); ``state`` is
                unchanged.
            InvalidMove: the value is not a well-formed move of this game, or ``seat`` is not a seat of it;
                ``state`` is unchanged.
        """
        step = listed_step(state, seat, move) if type(seat) is int else None
        if step is None:
            refusal = self.check(state, seat, move)
            if refusal is not None:
                raise refusal
            step = memo_of(state, step_of, _over).step
            assert step is not None
        state.version += 1
        return step.effects[type(move)](state, seat, move)  # the effect of a move that passed its check

    def explain(self, state: State, seat: int, moves: Sequence[Move], names: Sequence[str]) -> list[MoveNote]:
        """Return each of ``moves`` in plain words (seats by number and name, money with its unit), with a note
        on a move that is legal but can never help."""
        return explain(state, seat, moves, names)

    def default_move(self, state: State, seat: int) -> tuple[Move, str] | None:
        """Return the rules' default when ``seat`` does not decide in time, with its rule id, else ``None``.

        Letting a stoppable card go (no stop card), passing on a change in a negotiation, the boss waiting while
        another seat may still answer, and the boss declaring failure of a deal that cannot close ("el jefe debe
        declarar que la transacción ha fracasado"); under the two-player rules a deal that can close is closed
        ("El jefe debe completar un trato").
        """
        return default_move(state, seat)

    def move_basis(self, state: State, seat: int, move: Move) -> tuple[Any, ...]:
        """Return what ``move`` answers or refers to in ``state`` (:func:`.explain.basis`): a move decided on an
        older state is played when it is legal now and this is unchanged."""
        return basis(state, seat, move)

    def overtaken(self, then: State, now: State, seat: int, move: Move) -> str | None:
        """Return why a pass decided on ``then`` is spent in ``now`` (:func:`.explain.overtaken`), else ``None``."""
        return overtaken(then, now, seat, move)

    def interlude(self, state: State) -> bool:
        """Return whether a negotiation is interrupted for a moment: a price being named, a stop window."""
        return interlude(state)

    def touched(self, state: State, seat: int, move: Move) -> range:
        """Return every seat: each move changes what every seat sees (the views show the decision and who makes
        it; ``benchmarks/seat_census.py`` finds no move of random games at any seat count that leaves another
        seat's view as it was), so a table moves every seat's version without comparing views. Raises nothing."""
        return range(self.seat_count(state))

    # -- reading --------------------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """Return what ``seat`` may know (``None``: the public view), as JSON."""
        return build_view(self, state, seat)

    def render(self, view: dict[str, Any]) -> str:
        """Return a compact English text of a view, for a language model's context."""
        return render(view)

    def state_text(self, view: dict[str, Any]) -> str:
        """Return the seat's state in compact lines (:func:`.state_text.state_text`)."""
        return state_text(view)

    def result(self, state: State) -> Result | None:
        """Return the result once the game is over (the most money wins; ties share), else ``None``."""
        if state.phase != "over":
            return None
        top = max(state.money)
        winners = tuple(s for s in range(state.n) if state.money[s] == top)
        return Result(winners, tuple(float(m) for m in state.money), state.end_reason, state.end_rule, breakdown(state))

    def rule_ids(self) -> frozenset[str]:
        """Return every corpus id this engine cites in an ``IllegalMove`` or a result."""
        return R.CITED

    # -- hidden information, copies, storage ----------------------------------------------

    def visibility(self, state: State) -> Visibility:
        """Return who knows each card now (see :func:`.knowledge.visibility`)."""
        return visibility(state)

    def card_names(self) -> Mapping[str, str]:
        """Return every card id -> its printed name (``"YSJ-VIA-AZU-1"`` -> ``"Viaje azul"``)."""
        return card_names()

    def determinize(self, state: State, seat: int, rng: Rng) -> State:
        """Return a copy of ``state`` whose cards unknown to ``seat`` are dealt anew (see :mod:`.determinize`)."""
        return determinize(state, seat, rng)

    def snapshot(self, state: State) -> dict[str, Any]:
        """Return the complete state as JSON, hidden parts included (never send it to a seat)."""
        return snapshot(state)

    def restore(self, config: JefeConfig, data: dict[str, Any]) -> State:
        """Return the state a :meth:`snapshot` describes.

        Raises:
            ValueError: the snapshot is malformed.
        """
        return restore(config, data)

    def clone(self, state: State) -> State:
        """Return an independent copy of ``state`` (for search)."""
        return state.copy()

    def seat_count(self, state: State) -> int:
        """Return how many seats ``state`` has."""
        return state.n


GAME = YoSoyElJefe()
"""The Yo soy el jefe engine instance the game manifest names."""

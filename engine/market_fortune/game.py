"""The Market Fortune :class:`~engine.core.Game`: configuration, the decision model's methods, bots."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from club_agentes.engine.core import (
    ConfigError,
    Event,
    Game,
    GameInfo,
    IllegalMove,
    InvalidMove,
    Pending,
    RandomBot,
    Result,
)
from club_agentes.engine.market_fortune import rules as rid
from club_agentes.engine.market_fortune.bots import HeuristicBot
from club_agentes.engine.market_fortune.components import CARD_ID, N_CARDS
from club_agentes.engine.market_fortune.moves import MOVE_CLASSES, move_schema, parse_move
from club_agentes.engine.market_fortune.rules_engine import GENERATORS, HANDLERS, log_events, start_game
from club_agentes.engine.market_fortune.state import (
    DEFAULT_GAME_LIMIT,
    DEFAULT_MODE,
    DEFAULT_TURN_LIMIT,
    MAX_GAME_LIMIT,
    MAX_TURN_LIMIT,
    MODES,
    REACTION,
    MFConfig,
    State,
    snapshot,
)
from club_agentes.engine.market_fortune.views import pending, render, view

_OPTIONS = ("mode", "turn_limit", "game_limit")


def _int_option(options: Mapping[str, Any], key: str, default: int, low: int, high: int) -> int:
    value = options.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ConfigError(f"option {key!r} must be an integer from {low} to {high}, not {value!r}")
    return value


class MarketFortune(Game):
    """Market Fortune: 2 to 6 seats, modes Familia, Fortuna (default) and Campeonato."""

    id = "market-fortune"
    name = "Market Fortune"
    min_seats = 2
    max_seats = 6
    bots: ClassVar[Mapping[str, type]] = {"random": RandomBot, "heuristic": HeuristicBot}

    def make_config(self, seats: int, options: Mapping[str, Any] | None = None) -> MFConfig:
        """Build a configuration from a seat count and table options.

        Raises:
            ConfigError: unknown option, bad value or seat count out of range (one sentence
                listing what is accepted).
        """
        if isinstance(seats, bool) or not isinstance(seats, int) or not 2 <= seats <= 6:
            raise ConfigError(f"Market Fortune takes 2 to 6 seats, not {seats!r}")
        options = dict(options or {})
        unknown = sorted(k for k in options if k not in _OPTIONS)
        if unknown:
            raise ConfigError(f"unknown option {unknown[0]!r}; Market Fortune accepts: mode, turn_limit, game_limit")
        mode = options.get("mode", DEFAULT_MODE)
        if mode not in MODES:
            raise ConfigError(f"option 'mode' must be one of familia, fortuna, campeonato, not {mode!r}")
        turn_limit = _int_option(options, "turn_limit", DEFAULT_TURN_LIMIT, 1, MAX_TURN_LIMIT)
        if "game_limit" in options and mode != "campeonato":
            raise ConfigError("option 'game_limit' applies only to mode 'campeonato'")
        game_limit = _int_option(options, "game_limit", DEFAULT_GAME_LIMIT, 1, MAX_GAME_LIMIT)
        return MFConfig(seats, mode, turn_limit, game_limit, tuple(sorted(options.items())))

    def config_schema(self) -> dict[str, Any]:
        """Return the JSON schema of the table options."""
        return {
            "type": "object",
            "properties": {
                "mode": {
                    "type": "string",
                    "enum": list(MODES),
                    "default": DEFAULT_MODE,
                    "description": (
                        "Game mode (rulebook chapter VI). 'familia': the first to form 4 investments wins; "
                        "'fortuna' (default): 4 investments and 25M or more, declared; 'campeonato': consecutive "
                        "Fortuna games, winners' portfolio totals summed, first to 100M wins the match. "
                        'Example: "campeonato".'
                    ),
                },
                "turn_limit": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": MAX_TURN_LIMIT,
                    "default": DEFAULT_TURN_LIMIT,
                    "description": (
                        "Turns per game (one turn = one seat's turn) after which the game is cut off and scored "
                        f"by ruling market-fortune/rulings/limite-de-turnos. Default {DEFAULT_TURN_LIMIT}, "
                        "far beyond a real game. Example: 200."
                    ),
                },
                "game_limit": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": MAX_GAME_LIMIT,
                    "default": DEFAULT_GAME_LIMIT,
                    "description": (
                        "Campeonato only: games after which the match ends even if nobody reached 100M; the "
                        f"highest total wins. Default {DEFAULT_GAME_LIMIT}. Example: 10."
                    ),
                },
            },
            "additionalProperties": False,
        }

    def new_game(self, config: MFConfig, seed: int) -> State:  # type: ignore[override]
        """Deal a new table; the first player is found by rolling the Fortune die."""
        st = State(config, seed)
        ev: list[Event] = []
        start_game(st, None, ev)
        log_events(st, ev)
        return st

    def pending(self, state: State) -> Pending:  # type: ignore[override]
        """Return who must decide now."""
        return pending(state)

    def legal_moves(self, state: State, seat: int) -> list[Any]:  # type: ignore[override]
        """Return the legal moves of ``seat`` now, in a stable order (empty if it must not act)."""
        if state.over:
            return []
        if state.step == REACTION:
            w = state.attack.window  # type: ignore[union-attr]
            decider = w.order[w.index]
        else:
            decider = state.turn
        if seat != decider:
            return []
        return GENERATORS[state.step](state, seat)

    def apply(self, state: State, seat: int, move: Any) -> list[Event]:  # type: ignore[override]
        """Validate and apply ``move`` for ``seat``; return the events it caused.

        Raises:
            IllegalMove: the move breaks a rule (the rule id names the section); the state is unchanged.
            InvalidMove: the value is not a Market Fortune move; the state is unchanged.
        """
        if type(move) not in MOVE_CLASSES:
            move = parse_move(move)
        if state.over:
            raise IllegalMove(rid.VICTORY, "the game is over; no move is accepted")
        if state.step == REACTION:
            w = state.attack.window  # type: ignore[union-attr]
            decider = w.order[w.index]
            if seat != decider:
                raise IllegalMove(
                    rid.COMBAT,
                    f"seat {decider} is being asked to answer the attack now, not seat {seat}",
                )
        elif seat != state.turn:
            raise IllegalMove(rid.YOUR_TURN, f"it is seat {state.turn}'s turn, not seat {seat}'s")
        events = HANDLERS[state.step](state, seat, move)
        state.log.extend(events)
        return events

    def view(self, state: State, seat: int | None) -> dict[str, Any]:  # type: ignore[override]
        """Return what ``seat`` may know (``None``: a spectator)."""
        return view(state, seat)

    def result(self, state: State) -> Result | None:  # type: ignore[override]
        """Return the result once the game (or the Campeonato match) is over."""
        return state.result

    def parse_move(self, data: Mapping[str, Any] | str) -> Any:
        """Turn a move's JSON object or text form into a move.

        Raises:
            InvalidMove: malformed input; the message says what is accepted.
        """
        if not isinstance(data, (str, Mapping)) and type(data) not in MOVE_CLASSES:
            raise InvalidMove(f"a move is a JSON object or its text form, not {type(data).__name__}")
        return parse_move(data)

    def move_schema(self) -> dict[str, Any]:
        """Return the JSON schema of every move's JSON form."""
        return move_schema()

    def snapshot(self, state: State) -> dict[str, Any]:  # type: ignore[override]
        """Return the complete state as JSON, hidden parts included (never send it to a seat)."""
        return snapshot(state)

    def render(self, view: dict[str, Any]) -> str:
        """Return a compact English text of a view."""
        return render(view)

    def rule_ids(self) -> frozenset[str]:
        """Return every corpus id this engine cites."""
        return rid.ALL_RULE_IDS

    def hidden_ids(self, state: State, seat: int | None) -> frozenset[str]:  # type: ignore[override]
        """Return the ids of the cards ``seat`` may not know now (``None``: what the public may not know)."""
        know = state.know
        if seat is None:
            full = state.all_mask
            return frozenset(CARD_ID[c] for c in range(N_CARDS) if know[c] != full)
        bit = 1 << seat
        return frozenset(CARD_ID[c] for c in range(N_CARDS) if not know[c] & bit)

    def sample_configs(self) -> list[tuple[int, dict[str, Any]]]:
        """Return every seat count (2 to 6) in each mode; Campeonato with a shorter match for test speed."""
        out: list[tuple[int, dict[str, Any]]] = []
        for n in range(2, 7):
            out.append((n, {}))
            out.append((n, {"mode": "familia"}))
            out.append((n, {"mode": "campeonato", "turn_limit": 120, "game_limit": 4}))
        return out

    def info(self) -> GameInfo:
        """Return static facts about the game."""
        return GameInfo(
            self.id,
            self.name,
            self.min_seats,
            self.max_seats,
            summary=(
                "Financial strategy card game: pair an Acción ($) with a Rendimiento (+R) of the same industry, "
                "roll the Fortune die to form investments, and be the first with 4 investments worth 25M or more."
            ),
            extra={"modes": list(MODES), "default_mode": DEFAULT_MODE},
        )


GAME = MarketFortune()
"""The Market Fortune engine instance the game manifest names."""

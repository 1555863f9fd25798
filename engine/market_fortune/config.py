"""Market Fortune's table options: the modes and the bounded numbers, checked in one place.

Every number has a documented range, chosen so that the longest legal table stays bounded
(issue 11): with the largest options (6 seats, Campeonato, ``turn_limit`` 1,000 and
``game_limit`` 20) bots-only play ends within :data:`LONGEST_TABLE_DECISIONS` decisions (the
measured worst case is in ``tests/engine/market_fortune/test_config.py`` and the report).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from club_agentes.engine.core import ConfigError, whole_number_option

MODES: tuple[str, ...] = ("familia", "fortuna", "campeonato")
DEFAULT_MODE = "fortuna"
MIN_SEATS, MAX_SEATS = 2, 6
DEFAULT_TURN_LIMIT = 400
MIN_TURN_LIMIT, MAX_TURN_LIMIT = 1, 1_000
DEFAULT_GAME_LIMIT = 20
MIN_GAME_LIMIT, MAX_GAME_LIMIT = 1, 20
# Each turn is a bounded number of decisions (the action, its discards, one red and its
# reaction window, optimisations paid card by card, the end-of-turn discards), so a game is at
# most turn_limit turns and a match game_limit games. Measured over bots-only tables at the
# largest options, the longest took under half of this bound.
LONGEST_TABLE_DECISIONS = 120_000
OPTIONS = ("mode", "turn_limit", "game_limit")


@dataclass(slots=True)
class MFConfig:
    """A table's configuration (treat it as immutable).

    Not a frozen dataclass only because the core's ``Config`` protocol declares ``seats`` as a
    settable attribute, which a frozen dataclass does not satisfy for a type checker.

    Attributes:
        seats: 2 to 6 players.
        mode: ``"familia"``, ``"fortuna"`` or ``"campeonato"``.
        turn_limit: turns per game after which the game is cut off and scored
            (ruling ``market-fortune/rulings/limite-de-turnos``).
        game_limit: Campeonato only: games after which the match ends.
        given: the options exactly as given, for :meth:`to_json`.
    """

    seats: int
    mode: str = DEFAULT_MODE
    turn_limit: int = DEFAULT_TURN_LIMIT
    game_limit: int = DEFAULT_GAME_LIMIT
    given: tuple[tuple[str, Any], ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        """Return the options as given (``make_config(seats, cfg.to_json())`` rebuilds this config)."""
        return dict(self.given)


def _int_option(options: Mapping[str, Any], key: str, default: int, low: int, high: int) -> int:
    value = options.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
        raise ConfigError(f"option {key!r} must be a whole number from {low} to {high}, not {shown}")
    return value


def make_config(seats: Any, options: Mapping[str, Any] | None = None) -> MFConfig:
    """Build a configuration from a seat count and table options.

    Raises:
        ConfigError: unknown option, bad value (outside its range) or seat count out of range; one
            sentence naming what is accepted.
    """
    if isinstance(seats, bool) or not isinstance(seats, int) or not MIN_SEATS <= seats <= MAX_SEATS:
        raise ConfigError(f"Market Fortune takes {MIN_SEATS} to {MAX_SEATS} seats, not {seats!r}")
    if options is not None and not isinstance(options, Mapping):
        raise ConfigError(f"the options are an object such as {{'mode': 'fortuna'}}, not {type(options).__name__}")
    options = dict(options or {})
    unknown = sorted(str(k) for k in options if k not in OPTIONS)
    if unknown:
        raise ConfigError(f"unknown option {unknown[0][:40]!r}; Market Fortune accepts: {', '.join(OPTIONS)}")
    mode = options.get("mode", DEFAULT_MODE)
    if not isinstance(mode, str) or mode not in MODES:
        shown = repr(mode)[:40]
        raise ConfigError(f"option 'mode' must be one of {', '.join(MODES)}, not {shown}")
    turn_limit = _int_option(options, "turn_limit", DEFAULT_TURN_LIMIT, MIN_TURN_LIMIT, MAX_TURN_LIMIT)
    if "game_limit" in options and mode != "campeonato":
        raise ConfigError("option 'game_limit' applies only to mode 'campeonato'")
    game_limit = _int_option(options, "game_limit", DEFAULT_GAME_LIMIT, MIN_GAME_LIMIT, MAX_GAME_LIMIT)
    return MFConfig(seats, mode, turn_limit, game_limit, tuple(sorted(options.items())))


def config_schema() -> dict[str, Any]:
    """Return the JSON schema of the table options (every option described, every number bounded)."""
    turns = (
        f"Turns per game ({MIN_TURN_LIMIT} to {MAX_TURN_LIMIT}; one turn = one seat's turn) after "
        "which the game is cut off and scored by ruling market-fortune/rulings/limite-de-turnos. "
        f"Default {DEFAULT_TURN_LIMIT}, far beyond a real game. Example: 200."
    )
    games = (
        f"Campeonato only ({MIN_GAME_LIMIT} to {MAX_GAME_LIMIT}): games after which the match ends "
        f"even if nobody reached 100M; the highest total wins. Default {DEFAULT_GAME_LIMIT}. "
        "Example: 10."
    )
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
            "turn_limit": whole_number_option(MIN_TURN_LIMIT, MAX_TURN_LIMIT, DEFAULT_TURN_LIMIT, turns),
            "game_limit": whole_number_option(MIN_GAME_LIMIT, MAX_GAME_LIMIT, DEFAULT_GAME_LIMIT, games),
        },
        "additionalProperties": False,
    }

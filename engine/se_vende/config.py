"""Se Vende's table options: the configuration (:class:`SeVendeConfig`), its checks and its JSON schema.

The one option, ``turn_limit``, has a documented range chosen so that the longest legal table stays
bounded (issue 11): a table of :data:`MAX_SEATS` seats and :data:`MAX_TURN_LIMIT` rounds ends within
:data:`LONGEST_TABLE` decisions (derived from the card set by :mod:`.bounds`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from club_agentes.engine.core import ConfigError, whole_number_option
from club_agentes.engine.se_vende.bounds import table_bound

MIN_SEATS, MAX_SEATS = 2, 4
"""Se Vende is played by 2 to 4 seats (se-vende/rulings/jugadores)."""

DEFAULT_TURN_LIMIT = 40
MIN_TURN_LIMIT = 1
MAX_TURN_LIMIT = 100
"""The turn_limit option's range (se-vende/rulings/limite-de-rondas)."""

LONGEST_TABLE = table_bound(MAX_SEATS, MAX_TURN_LIMIT)
"""The most decisions a table can take at the largest options (:func:`.bounds.table_bound`)."""


@dataclass(slots=True)
class SeVendeConfig:
    """A Se Vende table's configuration (treat it as immutable).

    Not a frozen dataclass only because the core's ``Config`` protocol declares ``seats`` as a
    settable attribute, which a frozen dataclass does not satisfy for a type checker.

    Attributes:
        seats: 2 to 4.
        turn_limit: the game ends at the end of this round at the latest (1 to 100 rounds).
    """

    seats: int
    turn_limit: int = DEFAULT_TURN_LIMIT

    def to_json(self) -> dict[str, Any]:
        """Return the options (``make_config(seats, to_json())`` rebuilds this config)."""
        return {"turn_limit": self.turn_limit}


def make_config(seats: int, options: Mapping[str, Any] | None = None) -> SeVendeConfig:
    """Build a configuration.

    Raises:
        ConfigError: seats outside 2..4 (se-vende/rulings/jugadores), an unknown option, or a
            turn_limit that is not a whole number from 1 to 100.
    """
    if not isinstance(seats, int) or isinstance(seats, bool) or not MIN_SEATS <= seats <= MAX_SEATS:
        raise ConfigError(
            f"Se Vende is played by {MIN_SEATS} to {MAX_SEATS} seats (ruling se-vende/rulings/jugadores), not {seats!r}"
        )
    opts = dict(options or {})
    unknown = sorted(set(opts) - {"turn_limit"})
    if unknown:
        raise ConfigError(
            f"unknown option {unknown[0]!r:.60}; Se Vende accepts only 'turn_limit' "
            f"(a whole number of rounds from {MIN_TURN_LIMIT} to {MAX_TURN_LIMIT}, default {DEFAULT_TURN_LIMIT})"
        )
    limit = opts.get("turn_limit", DEFAULT_TURN_LIMIT)
    if not isinstance(limit, int) or isinstance(limit, bool) or not MIN_TURN_LIMIT <= limit <= MAX_TURN_LIMIT:
        raise ConfigError(
            f"turn_limit must be a whole number of rounds from {MIN_TURN_LIMIT} to {MAX_TURN_LIMIT}, not {limit!r:.60}"
        )
    return SeVendeConfig(seats, limit)


def config_schema() -> dict[str, Any]:
    """Return the JSON schema of the table options."""
    rounds = (
        f"Rounds, {MIN_TURN_LIMIT} to {MAX_TURN_LIMIT}: the game ends at the end of this round at the latest if "
        "neither a 12-card tableau nor the last victory chip has ended it (ruling se-vende/rulings/limite-de-rondas). "
        f"Default {DEFAULT_TURN_LIMIT}; example: 25. A table of {MAX_SEATS} seats and {MAX_TURN_LIMIT} rounds ends "
        f"within {LONGEST_TABLE:,} decisions."
    )
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Se Vende table options",
        "type": "object",
        "properties": {
            "turn_limit": whole_number_option(MIN_TURN_LIMIT, MAX_TURN_LIMIT, DEFAULT_TURN_LIMIT, rounds),
        },
        "additionalProperties": False,
    }

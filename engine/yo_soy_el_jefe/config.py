"""Yo soy el jefe's table options: the configuration (:class:`JefeConfig`), its checks and its JSON schema.

Every option is checked in :func:`make_config`, which names the accepted range in its refusal; the
schema (:func:`config_schema`) describes and bounds the same options.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from club_agentes.engine.core import ConfigError
from club_agentes.engine.yo_soy_el_jefe.components import components

SPACES = components().spaces

DEFAULT_FAILURE_LIMIT = 120  # ruling limite-de-negociaciones-fallidas
MAX_FAILURE_LIMIT = 240

VARIANT_OPTIONS: tuple[str, ...] = (
    "boss_card_keeps_turn",
    "mandatory_negotiation_with_10_cards",
    "dividends_only_for_participants",
    "draw_by_investors",
    "no_negotiation_with_3_cards_or_fewer",
    "hand_limit_10_from_tenth_deal",
    "quick_game",
)
OPTION_NAMES: tuple[str, ...] = (
    "failed_negotiations_limit",
    "first_player",
    "marker_start",
    "two_player_rules",
    *VARIANT_OPTIONS,
)


@dataclass(frozen=True, slots=True)
class JefeConfig:
    """A table's configuration: seat count and options (see ``YoSoyElJefe.config_schema``)."""

    seats: int
    options: tuple[tuple[str, Any], ...]
    failed_negotiations_limit: int
    first_player: int | None
    marker_start: int | None
    two_player_rules: bool
    boss_card_keeps_turn: bool
    mandatory_negotiation_with_10_cards: bool
    dividends_only_for_participants: bool
    draw_by_investors: bool
    no_negotiation_with_3_cards_or_fewer: bool
    hand_limit_10_from_tenth_deal: bool
    quick_game: bool

    def to_json(self) -> dict[str, Any]:
        """Return the options as given (what ``make_config`` accepts back)."""
        return dict(self.options)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def make_config(seats: int, options: Mapping[str, Any] | None) -> JefeConfig:
    """Validate the seat count and options and build the configuration.

    Raises:
        ConfigError: seat count out of 2-6, unknown option or bad value (one sentence naming the range).
    """
    if not _whole(seats) or not 2 <= seats <= 6:
        raise ConfigError(f"Yo soy el jefe is played by 2 to 6 seats, not {str(seats)[:40]!r}.")
    if options is not None and not isinstance(options, Mapping):
        raise ConfigError("the table options must be a JSON object.")
    opts = dict(options or {})
    if "turn_limit" in opts:
        raise ConfigError(
            "turn_limit is no longer an option of Yo soy el jefe: the game ends as section 4 says, and a table that "
            f"stalls ends after failed_negotiations_limit (1 to {MAX_FAILURE_LIMIT}) failed negotiations in a row."
        )
    unknown = sorted(str(k)[:40] for k in opts if k not in OPTION_NAMES)
    if unknown:
        raise ConfigError(f"unknown option(s) {', '.join(unknown)}; the options are {', '.join(OPTION_NAMES)}.")
    values: dict[str, Any] = {}
    limit = opts.get("failed_negotiations_limit", DEFAULT_FAILURE_LIMIT)
    if not _whole(limit) or not 1 <= limit <= MAX_FAILURE_LIMIT:
        raise ConfigError(
            f"failed_negotiations_limit must be a whole number from 1 to {MAX_FAILURE_LIMIT}, not {str(limit)[:40]!r}."
        )
    values["failed_negotiations_limit"] = limit
    first = opts.get("first_player")
    if first is not None and (not _whole(first) or not 0 <= first < seats):
        raise ConfigError(f"first_player must be null or a seat from 0 to {seats - 1}, not {str(first)[:40]!r}.")
    values["first_player"] = first
    marker = opts.get("marker_start")
    if marker is not None and (not _whole(marker) or not 1 <= marker <= len(SPACES)):
        raise ConfigError(
            f"marker_start must be null or a board space from 1 to {len(SPACES)}, not {str(marker)[:40]!r}."
        )
    values["marker_start"] = marker
    two = opts.get("two_player_rules")
    if two is not None and not isinstance(two, bool):
        raise ConfigError(f"two_player_rules must be true, false or null, not {str(two)[:40]!r}.")
    if seats == 2 and two is False:
        raise ConfigError("two_player_rules cannot be false with 2 seats: the two-player rules always apply then.")
    values["two_player_rules"] = seats == 2 or bool(two)
    for name in VARIANT_OPTIONS:
        v = opts.get(name, False)
        if not isinstance(v, bool):
            raise ConfigError(f"{name} must be true or false, not {str(v)[:40]!r}.")
        values[name] = v
    return JefeConfig(seats=seats, options=tuple(sorted(opts.items())), **values)


def config_schema() -> dict[str, Any]:
    """Return the JSON schema of the table options: every property described, every number bounded."""

    def flag(text: str, rule: str) -> dict[str, Any]:
        return {"type": "boolean", "default": False, "description": f"{text} Default false. Rule: {rule}."}

    v = "yo-soy-el-jefe/5-variantes"
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Yo soy el jefe table options",
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "failed_negotiations_limit": {
                "type": "integer",
                "minimum": 1,
                "maximum": MAX_FAILURE_LIMIT,
                "default": DEFAULT_FAILURE_LIMIT,
                "description": "Safety limit for a stalled table: the game ends (money counted as in section 4) "
                "when this many negotiations in a row fail with no deal closed between them. Whole number from 1 to "
                f"{MAX_FAILURE_LIMIT}; default {DEFAULT_FAILURE_LIMIT}, nearly twice the longest run of failures (64) "
                "after which a measured game of heuristic or mixed bots still closed a deal. Even at the maximum, "
                "the longest bots-only table measured (6 seats, two-player rules and every variant, random bots) "
                "took about 17,000 decisions and half a second of engine time. Ruling: "
                "yo-soy-el-jefe/rulings/limite-de-negociaciones-fallidas.",
            },
            "first_player": {
                "type": ["integer", "null"],
                "minimum": 0,
                "maximum": 5,
                "default": None,
                "description": "Seat (0-based, below the seat count) that plays first. Default null: chosen by the "
                "seed. Example 0.",
            },
            "marker_start": {
                "type": ["integer", "null"],
                "minimum": 1,
                "maximum": len(SPACES),
                "default": None,
                "description": f"Board space (1-{len(SPACES)}) where the dollar marker starts. Default null: the seat "
                "to the first player's right chooses it as the game's first decision. Example 8.",
            },
            "two_player_rules": {
                "type": ["boolean", "null"],
                "default": None,
                "description": "Play the two-player rules (the boss may use opponents' investors without consent, "
                "paying the payout divided by the investors needed for each; the boss must complete a deal that "
                "the table allows). Always on with 2 seats (false is refused); optional with more. Default null "
                f"(on only with 2 seats). Rule: {v}/dos-jugadores.",
            },
            "boss_card_keeps_turn": flag(
                "Variant: after a deal in which a boss card changed the boss, play goes on to the left of the seat "
                "whose turn it was, not of the last boss.",
                f"{v}/jefe-sin-cambio-de-turno",
            ),
            "mandatory_negotiation_with_10_cards": flag(
                "Variant: a seat that starts its turn with 10 or more influence cards must negotiate, here or "
                "after rolling.",
                f"{v}/negociacion-obligatoria",
            ),
            "dividends_only_for_participants": flag(
                "Variant: only the boss and seats that used at least one influence card in the deal receive "
                "money from it; an unpaid promise stays with the boss.",
                f"{v}/dividendos-solo-participantes",
            ),
            "draw_by_investors": flag(
                "Variant: a draw takes 4 cards with no investor, 3 with one, 2 with two, 1 with three or more.",
                f"{v}/robo-segun-inversores",
            ),
            "no_negotiation_with_3_cards_or_fewer": flag(
                "Variant: a seat holding 3 or fewer influence cards cannot start a negotiation.",
                f"{v}/minimo-para-negociar",
            ),
            "hand_limit_10_from_tenth_deal": flag(
                "Variant: once nine deals are done, the hand limit after drawing is 10 instead of 12.",
                f"{v}/limite-10-y-partida-rapida",
            ),
            "quick_game": flag(
                "Variant: deal cards 3, 6 and 9 are left out, so the game has at most 12 deals.",
                f"{v}/limite-10-y-partida-rapida",
            ),
        },
    }

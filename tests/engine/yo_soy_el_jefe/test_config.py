"""Table options: each documented, each number bounded, out-of-range values refused with one sentence."""

from __future__ import annotations

import jsonschema
import pytest
from club_agentes.engine.core import ConfigError
from club_agentes.engine.yo_soy_el_jefe.config import MAX_FAILURE_LIMIT, OPTION_NAMES

from .helpers import game


def test_config_options_and_errors() -> None:
    cfg = game.make_config(4, {"quick_game": True, "failed_negotiations_limit": 12})
    assert cfg.quick_game and cfg.failed_negotiations_limit == 12 and not cfg.two_player_rules
    assert game.make_config(4, cfg.to_json()) == cfg
    assert game.make_config(2, {}).two_player_rules
    for seats, options, words in [
        (1, {}, "2 to 6 seats"),
        (7, {}, "2 to 6 seats"),
        (4, {"speed": 3}, "unknown option"),
        (4, {"failed_negotiations_limit": 0}, f"from 1 to {MAX_FAILURE_LIMIT}"),
        (4, {"failed_negotiations_limit": MAX_FAILURE_LIMIT + 1}, f"from 1 to {MAX_FAILURE_LIMIT}"),
        (4, {"failed_negotiations_limit": True}, f"from 1 to {MAX_FAILURE_LIMIT}"),
        (4, {"turn_limit": 100_000}, "section 4"),
        (4, {"first_player": 4}, "from 0 to 3"),
        (4, {"marker_start": 17}, "from 1 to 16"),
        (4, {"quick_game": "yes"}, "true or false"),
        (2, {"two_player_rules": False}, "always apply"),
    ]:
        with pytest.raises(ConfigError) as err:
            game.make_config(seats, options)
        message = str(err.value)
        assert message.endswith(".") and words in message and "\n" not in message


def test_config_schema_describes_and_bounds_every_option() -> None:
    schema = game.config_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    assert set(schema["properties"]) == set(OPTION_NAMES)
    for name, prop in schema["properties"].items():
        assert prop["description"] and "efault" in prop["description"], name
        types = prop["type"] if isinstance(prop["type"], list) else [prop["type"]]
        if "integer" in types:
            assert "minimum" in prop and "maximum" in prop, name
    jsonschema.validate({"failed_negotiations_limit": 20, "two_player_rules": None, "quick_game": True}, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"failed_negotiations_limit": MAX_FAILURE_LIMIT + 1}, schema)

"""The store reads its JSON columns with orjson (``store.tables._loads``) exactly as ``json.loads`` reads them:
same values, same types, for everything ``_dumps`` writes, big integers and ``NaN`` included."""

from __future__ import annotations

import json
import math
from typing import Any

from club_agentes.mcp_server.store.tables import _dumps, _loads
from hypothesis import given, settings
from hypothesis import strategies as st

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=False)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=30,
)


def same(a: Any, b: Any) -> bool:
    """Equal values of equal types all the way down (``NaN`` equals ``NaN``; ``1`` is not ``1.0``)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    return bool(a == b)


@settings(max_examples=150, deadline=None)
@given(JSON)
def test_what_the_store_writes_reads_back_as_the_stdlib_reads_it(value: Any) -> None:
    text = _dumps(value)
    assert same(_loads(text), json.loads(text))
    assert same(_loads(text.encode()), json.loads(text))


def test_numbers_orjson_would_read_otherwise_go_to_the_stdlib() -> None:
    for text in ("12345678901234567890123", "[-9223372036854775809]", "[NaN, 1]", "1e400", '{"a": 1, "a": 2}'):
        assert same(_loads(text), json.loads(text)), text

"""orjson for the JSON the SDK's streamable HTTP transport writes and reads (the one patch of the SDK).

Measured (callgrind, ``benchmarks/scale.py --seed 7 --moves 96``, 1 agent against a bot, SQLite, 1
worker): the stdlib JSON encoder writing each reply body (about 10 kB: a view and its compact text) cost
4.85% of the worker's instructions inclusive (342k per agent move); with orjson the JSON encoding of the
run costs 9.7M instead of 32.8M instructions. The store's own ``json.dumps`` calls write a few dozen
characters each and do not count.

The SDK (``mcp`` 2.3.0, :mod:`mcp.server._streamable_http_modern`, the transport of protocol
2026-07-28) offers no setting for its serialiser: ``_write`` and ``_sse_event`` call
``json.dumps(body, separators=(",", ":"))`` and the request path calls ``json.loads(body)`` on the
module's ``json`` name. :func:`install` points that one name at :data:`FAST_JSON`, which answers
those calls with orjson and keeps the stdlib's behaviour wherever the two differ:

* ``loads``: orjson first; anything orjson refuses (``NaN``, lone surrogate escapes, invalid input) is
  parsed by the stdlib, which accepts or raises exactly as before, and so is any text with a run of 19
  or more digits (orjson reads an integer beyond 64 bits as a float, the stdlib as an exact ``int``);
* ``dumps``: orjson (dictionary keys that are not strings become strings, as the stdlib does); any
  value orjson cannot write goes to the stdlib. The text is the same JSON value; non-ASCII characters
  are sent as UTF-8 instead of ``\\u`` escapes (both are valid JSON, and the body is UTF-8). The text
  keeps orjson's bytes (:class:`Utf8Text`), so the reply is not encoded to UTF-8 a second time.

Nothing else of the module changes. ``tests/mcp/test_sdk_json.py`` fails when the SDK's version or
the source of a patched function changes, so an SDK upgrade re-checks this patch.
"""

from __future__ import annotations

import json
import re
from types import SimpleNamespace
from typing import Any

import orjson

SDK_VERSION = "2.3.0"
"""The ``mcp`` version whose :mod:`mcp.server._streamable_http_modern` this patch was written for."""

_OPTIONS = orjson.OPT_NON_STR_KEYS
_LONG_NUMBER = re.compile(rb"[0-9]{19,}")
"""A run of digits that may be an integer beyond 64 bits (which orjson would read as a float)."""


class Utf8Text(str):
    """JSON text that keeps the UTF-8 bytes orjson wrote it as: ``encode()`` to UTF-8 returns those bytes.

    It is a ``str`` in every other way (equal to, formatted and hashed as the text). The transport hands the text
    of a reply to Starlette's ``Response``, which encodes it to UTF-8 again: for a reply of about 10 kB with one
    character beyond Latin-1 (``…``, so Python stores the text two bytes a character), that encoding cost about
    44,000 instructions per move (callgrind, ``benchmarks/scale.py --callgrind --seed 7 --moves 300``, SQLite, 16
    agents: CPython's ``ucs2lib_utf8_encoder`` went from 59,600 to 15,400 per move, what other callers encode).
    Any other encoding, or an error handler other than ``strict``, is the ``str`` method's.
    """

    _utf8: bytes

    def encode(self, encoding: str = "utf-8", errors: str = "strict") -> bytes:
        """Return the text encoded (its own bytes for UTF-8). Raises what ``str.encode`` raises."""
        if errors == "strict" and encoding.lower() in _UTF8:
            return self._utf8
        return str.encode(self, encoding, errors)


_UTF8 = frozenset({"utf-8", "utf8", "utf_8"})


def dumps(obj: Any, **kwargs: Any) -> str:
    """Return ``obj`` as compact JSON text (what ``json.dumps(obj, separators=(",", ":"))`` returns, as a value;
    a :class:`Utf8Text` when orjson wrote it).

    Raises:
        TypeError: the stdlib cannot write ``obj`` either.
        ValueError: ``obj`` holds a cycle (the stdlib's error).
    """
    if kwargs and kwargs != {"separators": (",", ":")}:
        return json.dumps(obj, **kwargs)  # a call this shim was not written for: the stdlib, unchanged
    try:
        raw = orjson.dumps(obj, option=_OPTIONS)
    except (orjson.JSONEncodeError, TypeError):
        return json.dumps(obj, separators=(",", ":"))
    text = Utf8Text(raw.decode("utf-8"))
    text._utf8 = raw
    return text


def loads(data: str | bytes | bytearray, **kwargs: Any) -> Any:
    """Parse JSON text as ``json.loads`` does (orjson first, the stdlib for whatever orjson refuses).

    Raises:
        ValueError: the text is not JSON (``json.JSONDecodeError``), or holds an oversized integer.
        RecursionError: the text nests too deeply.
    """
    if kwargs:
        return json.loads(data, **kwargs)
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else bytes(data)
    if _LONG_NUMBER.search(raw):
        return json.loads(data)
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:
        return json.loads(data)


FAST_JSON = SimpleNamespace(dumps=dumps, loads=loads, JSONDecodeError=json.JSONDecodeError)
"""Stands for the ``json`` module in the patched SDK module (the names it uses, and its error type)."""


def install() -> bool:
    """Point the SDK's streamable HTTP transport at :data:`FAST_JSON`; return whether it is in place.

    Idempotent. Does nothing (and returns ``False``) when the SDK's module does not use ``json`` as
    this patch expects: a different SDK then runs unpatched, and the test of this module fails.
    """
    from mcp.server import _streamable_http_modern as modern

    current = getattr(modern, "json", None)
    if current is FAST_JSON:
        return True
    if current is not json:
        return False
    setattr(modern, "json", FAST_JSON)  # noqa: B010  # the SDK module's own name for the json module
    return True

"""The orjson patch of the SDK's streamable HTTP transport: in place, the same JSON, and re-checked on an upgrade.

If the SDK changes, the first test fails: read :mod:`club_agentes.mcp_server.sdk_json` again against the new
``mcp.server._streamable_http_modern`` (is ``json.dumps``/``json.loads`` still how it writes and reads
bodies?), then update the version and the hashes here.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import inspect
import json
import math

import pytest
from club_agentes.mcp_server import sdk_json
from club_agentes.mcp_server.toolkit import ClubServer
from mcp.server import _streamable_http_modern as modern

PATCHED = {
    # The functions that call the module's ``json`` name, as mcp 2.3.0 ships them.
    "_write": "fe810e776acc5ffe76a5183dc64378626415ee4015ef6cb021fac616dd04dd2e",
    "_sse_event": "f200e90d2b3b3bb17626bc53e67ce8eae0ff158801d33db4aa54767076815f0a",
    "handle_modern_request": "cde3cb6094dd519376b4eb62f9fcc3423756c48c53fd200f2450f0c191e67a9b",
}


def test_the_patched_sdk_is_the_one_the_patch_was_written_for() -> None:
    assert importlib.metadata.version("mcp") == sdk_json.SDK_VERSION
    for name, digest in PATCHED.items():
        source = inspect.getsource(getattr(modern, name))
        assert hashlib.sha256(source.encode()).hexdigest() == digest, f"the SDK's {name} changed: re-check sdk_json"
    whole = inspect.getsource(modern)
    assert whole.count("json.dumps(") == 2 and whole.count("json.loads(") == 1  # no other use of the name


def test_the_server_installs_it() -> None:
    ClubServer("json-check")
    assert modern.json is sdk_json.FAST_JSON
    assert sdk_json.install()


SAMPLES = [
    {"jsonrpc": "2.0", "id": 7, "result": {"content": [{"type": "text", "text": "Descarta la carta «Ñandú» ¿sí?"}]}},
    {"a": [1, 2.5, -0.0, 1e16, 1.0000000000000002, None, True, False, "\u2603", 'x\ny\t"z"\\'], "b": {}},
    {1: "int key", "nested": {"deep": [[[[{}]]]]}},
    {"big": 2**70, "small": -(2**63)},
    ["\ud800 a lone surrogate"],
]


@pytest.mark.parametrize("value", SAMPLES)
def test_dumps_writes_the_same_json_value(value: object) -> None:
    text = sdk_json.dumps(value, separators=(",", ":"))
    assert json.loads(text) == json.loads(json.dumps(value, separators=(",", ":")))
    assert ", " not in text.replace('", "', "") and ": " not in text.replace('": "', "")  # compact


@pytest.mark.parametrize(
    "text",
    [
        b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"play_move","arguments":{"move":"pass"}}}',
        '{"accents":"áéíóú ñ","escaped":"\\u00e1\\ud83d\\ude00"}',
        b'{"lone":"\\ud800"}',
        b"[NaN, Infinity, -Infinity]",
        b"[123456789012345678901234567890]",
        b'{"dup": 1, "dup": 2}',
    ],
)
def test_loads_reads_what_the_stdlib_reads(text: str | bytes) -> None:
    ours, theirs = sdk_json.loads(text), json.loads(text)
    if isinstance(theirs, list) and theirs and isinstance(theirs[0], float) and math.isnan(theirs[0]):
        assert math.isnan(ours[0]) and ours[1:] == theirs[1:]
    else:
        assert ours == theirs


@pytest.mark.parametrize("text", [b"", b"{", b"[1,]", b'{"a":1}x', b"\xff", b"[" * 100_000 + b"]" * 100_000])
def test_loads_refuses_what_the_stdlib_refuses(text: bytes) -> None:
    with pytest.raises((ValueError, RecursionError)) as ours:
        sdk_json.loads(text)
    with pytest.raises((ValueError, RecursionError)) as theirs:
        json.loads(text)
    assert type(ours.value) is type(theirs.value)


@pytest.mark.parametrize("value", SAMPLES[:4])
def test_dumps_text_encodes_to_the_bytes_of_its_characters(value: object) -> None:
    text = sdk_json.dumps(value, separators=(",", ":"))
    plain = str.__str__(text)  # the characters alone, as a plain str
    assert type(plain) is str and text == plain and hash(text) == hash(plain)
    assert text.encode() == text.encode("utf-8") == text.encode("UTF-8") == plain.encode("utf-8")
    assert text.encode("utf-16") == plain.encode("utf-16")
    assert text.encode("ascii", "backslashreplace") == plain.encode("ascii", "backslashreplace")
    assert f"data: {text}\r\n".encode() == f"data: {plain}\r\n".encode()  # the SDK's SSE frame


def test_a_reply_body_is_the_text_the_transport_wrote() -> None:
    """Starlette's ``Response`` sends the text's own UTF-8 bytes (the transport's ``_write``)."""
    from starlette.responses import Response

    text = sdk_json.dumps(SAMPLES[0], separators=(",", ":"))
    assert isinstance(text, sdk_json.Utf8Text)
    assert Response(text, media_type="application/json").body == str.__str__(text).encode("utf-8")

"""Every malformed stdio line gets a JSON-RPC error (issue 23, point 6): a lone surrogate, bad JSON, deep nesting
(parse error, -32700) and JSON that is no JSON-RPC message (invalid request, -32600), each answered with id null,
the server still serving afterwards; "Method not found" echoes at most 200 characters of the method, over stdio
and over HTTP."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import httpx
import pytest
from club_agentes.mcp_server.stdio_guard import ECHO_CHARS, error_for
from mcp_types import jsonrpc_message_adapter

from tests.mcp.edge import http_club
from tests.mcp.helpers import server_command

LEGACY = "2025-06-18"
HELLO = {"protocolVersion": LEGACY, "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}


def _send(proc: subprocess.Popen[bytes], line: bytes) -> dict[str, Any]:
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(line + b"\n")
    proc.stdin.flush()
    answer = proc.stdout.readline()
    assert answer, "the server closed stdout instead of answering"
    return json.loads(answer)  # type: ignore[no-any-return]


def _error_of(line: str | bytes) -> int:
    try:
        jsonrpc_message_adapter.validate_json(line, by_name=False)
    except Exception as exc:
        return error_for(exc).error.code
    raise AssertionError(f"{line!r} was read as a message")


def test_the_guard_names_parse_errors_and_invalid_requests() -> None:
    assert _error_of("{not json") == -32700
    assert _error_of('{"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"x": "\\ud800"}}') == -32700
    assert _error_of("[" * 100_000) == -32700
    assert _error_of('{"hello": 1}') == -32600
    assert _error_of('{"jsonrpc": "1.0", "id": 1, "method": "ping"}') == -32600
    assert _error_of('{"jsonrpc": "2.0", "id": 1, "method": 5}') == -32600
    assert _error_of("[1, 2]") == -32600


def test_every_malformed_stdio_line_gets_an_error_and_the_server_keeps_serving(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        server_command(tmp_path / "club.sqlite3"), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        init = _send(proc, json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": HELLO}).encode())
        assert init["id"] == 1 and "result" in init
        assert proc.stdin is not None
        proc.stdin.write(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}\n')
        malformed = {
            b"{this is not json": -32700,
            b'{"jsonrpc": "2.0", "id": 7, "method": "ping", "params": {"s": "\\ud800"}}': -32700,  # lone surrogate
            b"[" * 100_000 + b"]" * 100_000: -32700,
            b'{"hello": "world"}': -32600,
            b'{"jsonrpc": "1.0", "id": 3, "method": "ping"}': -32600,
            b"42": -32600,
        }
        for line, code in malformed.items():
            answer = _send(proc, line)
            assert answer["id"] is None and answer["error"]["code"] == code, (line[:60], answer)
            assert answer["jsonrpc"] == "2.0" and len(answer["error"]["message"]) < 300
        # Raw bytes that are no UTF-8 (an encoded lone surrogate) are read as U+FFFD: the request is answered.
        answer = _send(proc, b'{"jsonrpc": "2.0", "id": 8, "method": "ping", "params": {"s": "\xed\xa0\x80"}}')
        assert answer["id"] == 8
        long_method = "x" * 1_000_000
        answer = _send(proc, json.dumps({"jsonrpc": "2.0", "id": 9, "method": long_method}).encode())
        assert answer["id"] == 9 and answer["error"]["code"] == -32601
        assert len(json.dumps(answer)) < 2 * ECHO_CHARS + 200 and long_method[:ECHO_CHARS] in json.dumps(answer)
        answer = _send(proc, b'{"jsonrpc": "2.0", "id": 10, "method": "ping"}')
        assert answer == {"jsonrpc": "2.0", "id": 10, "result": {}}  # still serving
    finally:
        assert proc.stdin is not None and proc.stderr is not None
        proc.stdin.close()
        stderr = proc.stderr.read().decode()
        proc.wait(30)
    assert "Traceback" not in stderr


@pytest.mark.anyio
async def test_method_not_found_over_http_echoes_at_most_200_characters(tmp_path: Path) -> None:
    headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    with http_club(tmp_path / "club.sqlite3", no_auth=True) as (_, url):
        async with httpx.AsyncClient(timeout=60) as c:
            body = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": HELLO}
            assert (await c.post(url, json=body, headers=headers)).status_code == 200
            long_method = "m" * 500_000
            r = await c.post(
                url,
                json={"jsonrpc": "2.0", "id": 2, "method": long_method},
                headers={**headers, "Mcp-Protocol-Version": LEGACY},
            )
    assert len(r.text) < 2 * ECHO_CHARS + 300 and "m" * ECHO_CHARS in r.text and "-32601" in r.text, r.text[:500]

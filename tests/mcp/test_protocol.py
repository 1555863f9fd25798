"""Protocol behaviour a client relies on, over stdio and over HTTP, with the SDK's client and raw messages:

* an unknown tool or prompt (or a prompt's missing argument) is the JSON-RPC error -32602 with one
  sentence; an unknown resource is -32002 on the handshake-era protocols and -32602 on 2026-07-28;
  never an ``isError`` result, code 0, "Internal server error" or a traceback;
* the logging capability: ``logging/setLevel`` (and on 2026-07-28 the request's ``_meta`` level)
  sends the session its own events at that level and above, nothing before;
* progress notifications while ``wait_for_turn`` and ``seek_game`` wait, when a progressToken is given.

HTTP notifications need ``--streaming`` (a JSON response carries none), so those tests serve it.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError
from mcp_types import LoggingMessageNotificationParams

from tests.mcp.helpers import server_command, start_http_server, stop

pytestmark = [
    pytest.mark.anyio,
    # logging/setLevel is deprecated from 2026-07-28 on (SEP-2577), and still the handshake protocols' way.
    pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning"),
]

LEGACY = "2025-11-25"


@asynccontextmanager
async def connect(
    transport: str, tmp: Path, *, mode: str = "auto", streaming: bool = False, **client: Any
) -> AsyncIterator[Client]:
    """An SDK client on a fresh server: ``stdio`` (a subprocess) or ``http`` (``--no-auth`` on loopback)."""
    db = tmp / f"{transport}-{mode}.sqlite3"
    kwargs: dict[str, Any] = {"mode": "legacy"} if mode == "legacy" else {}
    if transport == "stdio":
        command = server_command(db)
        params = StdioServerParameters(command=command[0], args=command[1:], env={**os.environ})
        async with Client(params, **kwargs, **client) as c:
            yield c
        return
    proc, url = start_http_server(db, None, *(["--streaming"] if streaming else []))
    try:
        async with Client(url, **kwargs, **client) as c:
            yield c
    finally:
        stop(proc)


async def error_of(call: Callable[[], Any]) -> tuple[int, str]:
    """The JSON-RPC error ``call`` ends with (it must end with one)."""
    with pytest.raises(MCPError) as caught:
        await call()
    return caught.value.error.code, caught.value.error.message


# --------------------------------------------------------------------------- error codes


@pytest.mark.parametrize("transport", ["stdio", "http"])
@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_unknown_names_are_the_errors_the_spec_names(transport: str, mode: str, tmp_path: Path) -> None:
    async with connect(transport, tmp_path, mode=mode) as c:
        code, message = await error_of(lambda: c.call_tool("play_mvoe", {}))
        assert code == -32602
        assert message == "unknown tool 'play_mvoe'; did you mean 'play_move'? tools/list names the 18 tools."
        code, message = await error_of(lambda: c.get_prompt("lesson"))
        assert (code, message) == (-32602, "unknown prompt 'lesson'; prompts/list names the one prompt.")
        code, message = await error_of(lambda: c.get_prompt("learn_game", {}))
        assert (code, message) == (-32602, "the prompt learn_game needs the argument 'game'; it takes: game.")
        code, message = await error_of(lambda: c.get_prompt("learn_game", {"game": "se-vende", "gmae": "x"}))
        assert code == -32602 and message.startswith("unknown argument 'gmae' for the prompt learn_game")
        code, message = await error_of(lambda: c.get_prompt("learn_game", {"game": "poker"}))
        assert code == -32602 and "unknown game 'poker'" in message
        expected = -32002 if mode == "legacy" else -32602
        code, message = await error_of(lambda: c.read_resource("rules://se-vende/no-such-section"))
        assert code == expected and message.startswith("unknown section 'no-such-section' in se-vende")
        code, message = await error_of(lambda: c.read_resource("file:///etc/passwd"))
        assert code == expected
        assert message == (
            "unknown resource 'file:///etc/passwd'; resources/list and resources/templates/list name the "
            "resources served."
        )
        # A known tool's refusal stays an isError result: it is the tool's answer, not a protocol error.
        result = await c.call_tool("read_rules", {"game": "se-vende", "section": "nope"})
        assert result.is_error and "unknown section 'nope'" in result.content[0].text  # type: ignore[union-attr]


def _rpc(proc: subprocess.Popen[str], message: dict[str, Any]) -> dict[str, Any] | None:
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(json.dumps(message) + "\n")
    proc.stdin.flush()
    if "id" not in message:
        return None
    while True:
        answer = json.loads(proc.stdout.readline())
        if answer.get("id") == message["id"]:
            return answer  # type: ignore[no-any-return]


def test_raw_stdio_errors_carry_one_sentence_and_log_no_traceback(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        server_command(tmp_path / "club.sqlite3"),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        hello = {"protocolVersion": LEGACY, "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}
        init = _rpc(proc, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": hello})
        assert init is not None and init["result"]["capabilities"]["logging"] == {}
        _rpc(proc, {"jsonrpc": "2.0", "method": "notifications/initialized"})
        answers = [
            _rpc(proc, {"jsonrpc": "2.0", "id": 2, "method": "prompts/get", "params": {"name": "nope"}}),
            _rpc(proc, {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "nope"}}),
            _rpc(proc, {"jsonrpc": "2.0", "id": 4, "method": "resources/read", "params": {"uri": "rules://x"}}),
        ]
    finally:
        assert proc.stdin is not None and proc.stderr is not None
        proc.stdin.close()
        stderr = proc.stderr.read()
        proc.wait(30)
    codes = [a["error"]["code"] for a in answers if a]
    assert codes == [-32602, -32602, -32002]
    for answer in answers:
        assert answer and "Internal" not in answer["error"]["message"] and "\n" not in answer["error"]["message"]
    assert "Traceback" not in stderr


# --------------------------------------------------------------------------- logging


@pytest.mark.parametrize("transport", ["stdio", "http"])
async def test_set_level_sends_the_sessions_own_events_at_that_level(transport: str, tmp_path: Path) -> None:
    got: list[LoggingMessageNotificationParams] = []

    async def on_log(params: LoggingMessageNotificationParams) -> None:
        got.append(params)

    async with connect(transport, tmp_path, mode="legacy", streaming=True, logging_callback=on_log) as c:
        assert c.server_capabilities.logging is not None
        await c.call_tool("read_rules", {"game": "se-vende", "section": "nope"})
        assert got == []  # nothing before logging/setLevel
        await c.set_logging_level("info")
        assert [(g.level, g.data) for g in got] == [("info", "log level of this session set to 'info'")]
        got.clear()
        await c.call_tool("read_rules", {"game": "se-vende", "section": "nope"})
        assert [g.level for g in got] == ["info"]
        assert str(got[0].data).startswith("refused read_rules: unknown section 'nope' in se-vende")
        got.clear()
        await c.set_logging_level("debug")
        got.clear()
        await c.call_tool("list_games", {})
        # the SDK client may list the tools first (to check results against their schemas): served too
        assert {g.level for g in got} == {"debug"}
        assert "served tools/call list_games" in [str(g.data).split(" in ")[0] for g in got]
        got.clear()
        await c.set_logging_level("error")
        got.clear()
        await c.call_tool("read_rules", {"game": "se-vende", "section": "nope"})
        await c.call_tool("list_games", {})
        assert got == []  # a refusal is info, a served request debug: both below error


async def test_modern_requests_opt_in_with_their_meta_level(tmp_path: Path) -> None:
    got: list[LoggingMessageNotificationParams] = []

    async def on_log(params: LoggingMessageNotificationParams) -> None:
        got.append(params)

    async with connect("http", tmp_path, streaming=True, logging_callback=on_log, log_level="info") as c:
        await c.call_tool("read_rules", {"game": "se-vende", "section": "nope"})
        await c.call_tool("list_games", {})
    assert [g.level for g in got] == ["info"]


async def test_another_sessions_level_sends_this_one_nothing(tmp_path: Path) -> None:
    got: list[LoggingMessageNotificationParams] = []

    async def on_log(params: LoggingMessageNotificationParams) -> None:
        got.append(params)

    proc, url = start_http_server(tmp_path / "club.sqlite3", None, "--streaming")
    try:
        async with Client(url, mode="legacy") as loud, Client(url, mode="legacy", logging_callback=on_log) as quiet:
            await loud.set_logging_level("debug")
            await quiet.call_tool("read_rules", {"game": "se-vende", "section": "nope"})
            await loud.call_tool("list_games", {})
    finally:
        stop(proc)
    assert got == []


# --------------------------------------------------------------------------- progress


async def _open_table(c: Client) -> tuple[str, str]:
    """A two-seat table with only this client seated (its game never starts)."""
    created = await c.call_tool(
        "create_table",
        {"game": "se-vende", "seats": ["agent", "agent"], "options": {"require_club_pass": False}},
    )
    table_id = created.structured_content["table_id"]  # type: ignore[index]
    joined = await c.call_tool("join_table", {"table_id": table_id})
    return table_id, joined.structured_content["seat_token"]  # type: ignore[index]


@pytest.mark.parametrize("transport", ["stdio", "http"])
async def test_waits_report_progress_when_asked(transport: str, tmp_path: Path) -> None:
    seen: list[tuple[float, float | None, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        seen.append((progress, total, message))

    async with connect(transport, tmp_path, mode="legacy", streaming=True) as c:
        table_id, token = await _open_table(c)
        args = {"table_id": table_id, "seat_token": token, "timeout_s": 3}
        await c.call_tool("wait_for_turn", args, progress_callback=on_progress)
        waits = list(seen)
        seen.clear()
        await c.call_tool("wait_for_turn", args)  # no token, no notification
        assert seen == []
        seek = {"game": "se-vende", "max_wait_s": 3, "bot_fill": False, "options": {"require_club_pass": False}}
        sought = await c.call_tool("seek_game", seek, progress_callback=on_progress)
        assert not sought.is_error
    assert len(waits) >= 3 and waits[0] == (0.0, 3.0, "waiting for your turn: 0 of 3 s")
    progress = [p for p, _, _ in waits]
    assert progress == sorted(progress) and progress[-1] <= 3.0 and all(t == 3.0 for _, t, _ in waits)
    assert len(seen) >= 3 and all(m and m.startswith("waiting for opponents: ") for _, _, m in seen)

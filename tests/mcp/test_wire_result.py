"""Every answer is byte for byte the SDK's own with :mod:`club_agentes.mcp_server.wire_result` in place.

Each request is sent twice to the same server: once through the SDK's path (the middleware and its handler taken
out) and once through ours, in process (the result dict the runner returns, or the error it raises) and over
streamable HTTP (the response body and status), at the 2026-07-28 protocol and at a handshake-era one.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from club_agentes.mcp_server import wire_result
from club_agentes.mcp_server.app import ClubApp, build_app
from club_agentes.mcp_server.store import Store
from club_agentes.mcp_server.toolkit import ClubServer, ModelResult, compact_dict
from club_agentes.mcp_server.wire_result import SHAPED_METHOD, WireResults
from mcp import Client
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp_types import CallToolResult, ImageContent, TextContent
from pydantic import BaseModel

pytestmark = pytest.mark.anyio

MODERN = "2026-07-28"
LEGACY = "2025-06-18"
META = {
    "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "1"},
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientCapabilities": {},
}


class Extra(BaseModel):
    """The output model of the test tools added to the club's server."""

    n: int
    note: str | None = None


def _add_test_tools(server: ClubServer) -> None:
    """Tools whose answers take the other branches: no output model, a hand-built result, an odd ModelResult."""

    @server.tool(structured_output=False)
    def plain_text(x: int = 0) -> str:
        """Return text only (no output model)."""
        return f"ok {x}"

    @server.tool()
    def two_blocks() -> CallToolResult:
        """Return a ModelResult with two content blocks (not the plain shape)."""
        result = compact_dict(Extra, {"n": 1, "note": None}, "one")
        result.content.append(ImageContent(type="image", data="AAAA", mime_type="image/png"))
        return result

    @server.tool()
    def with_meta() -> CallToolResult:
        """Return a ModelResult with ``_meta`` (not the plain shape)."""
        result = compact_dict(Extra, {"n": 2, "note": "x"}, "two")
        result.meta = {"club/x": 1}
        return result

    @server.tool()
    def fast(n: int = 3) -> Extra:
        """Return a plain ModelResult (the fast path), with a None and non-ASCII text."""
        return compact_dict(Extra, {"n": n, "note": None}, 'tres · ✓ "q"')  # type: ignore[return-value]

    @server.tool()
    def broken() -> CallToolResult:
        """Return a result the version's surface model refuses (content must be a list of blocks)."""
        return CallToolResult.model_construct(content="not a list", is_error=False)


@pytest.fixture
async def club(tmp_path: Path) -> AsyncIterator[ClubApp]:
    app = build_app(Store(tmp_path / "club.sqlite3"))
    _add_test_tools(app.server)
    yield app
    await app.tables.aclose()
    app.store.close()


@contextmanager
def sdk_path(server: ClubServer) -> Iterator[None]:
    """Serve through the SDK's own result path: the middleware and its handler taken out, then put back."""
    low = server._lowlevel_server
    wire = next(m for m in low.middleware if isinstance(m, WireResults))
    entry = low._request_handlers.pop(SHAPED_METHOD)
    low.middleware.remove(wire)
    try:
        yield
    finally:
        low.middleware.append(wire)
        low._request_handlers[SHAPED_METHOD] = entry


class Recorder:
    """Outermost middleware: keeps the last request's result dict, or the error it raised."""

    def __init__(self) -> None:
        self.seen: list[Any] = []

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        if ctx.request_id is None:
            return await call_next(ctx)
        try:
            result = await call_next(ctx)
        except MCPError as exc:
            self.seen.append(("error", exc.error.model_dump(mode="json", by_alias=True, exclude_none=True)))
            raise
        except Exception as exc:
            self.seen.append(("raised", type(exc).__name__, str(exc)))
            raise
        self.seen.append(("result", json.dumps(result, ensure_ascii=False)))
        return result


def _calls(table: str, token: str) -> list[tuple[str, dict[str, Any] | None]]:
    """Representative requests: answers with structured content, refusals, protocol errors, other shapes."""
    return [
        ("tools/call", {"name": "list_games", "arguments": {}}),
        ("tools/call", {"name": "rules_toc", "arguments": {"game": "market-fortune"}}),
        ("tools/call", {"name": "get_view", "arguments": {"table_id": table, "seat_token": token}}),
        ("tools/call", {"name": "read_rules", "arguments": {"game": "market-fortune", "section": "nope"}}),  # refused
        ("tools/call", {"name": "read_rules", "arguments": {"game": "market-fortune"}}),
        ("tools/call", {"name": "list_games", "arguments": {"gmae": 1}}),  # unknown argument
        ("tools/call", {"name": "get_view", "arguments": {"table_id": 5}}),  # bad arguments
        ("tools/call", {"name": "play_mvoe", "arguments": {}}),  # unknown tool
        ("tools/call", {"name": 5}),  # fails the SDK's surface validation
        ("tools/call", {"name": "list_games", "arguments": [1]}),  # so does this
        ("tools/call", None),  # no params at all
        ("tools/call", {"name": "plain_text", "arguments": {"x": 4}}),  # no output model
        ("tools/call", {"name": "two_blocks", "arguments": {}}),
        ("tools/call", {"name": "with_meta", "arguments": {}}),
        ("tools/call", {"name": "fast", "arguments": {"n": 9}}),
        ("tools/call", {"name": "broken", "arguments": {}}),
        (SHAPED_METHOD, {"name": "list_games", "arguments": {}}),  # the private method, sent from outside
        ("tools/list", {}),
    ]


async def _table(client: Client) -> tuple[str, str]:
    t = await client.call_tool(
        "create_table",
        {
            "game": "market-fortune",
            "seats": ["agent", "bot:random"],
            "options": {"mode": "fortuna", "require_club_pass": False, "decision_timeout_s": None},  # no clock
            "seed": 7,
        },
    )
    assert not t.is_error and t.structured_content is not None
    table = t.structured_content["table_id"]
    j = await client.call_tool("join_table", {"table_id": table})
    assert not j.is_error and j.structured_content is not None
    token = j.structured_content["seat_token"]
    # The agent's turn: the bot waits, so the view stays the same between the two paths' calls.
    w = await client.call_tool("wait_for_turn", {"table_id": table, "seat_token": token, "timeout_s": 30})
    assert w.structured_content is not None and w.structured_content["ready"], w.content
    assert w.structured_content["decision"]["seconds_left"] is None  # nothing in the view moves with time
    return table, token


async def test_the_fast_path_is_taken_for_a_plain_model_result(club: ClubApp) -> None:
    wire = next(m for m in club.server.middleware if isinstance(m, WireResults))
    assert club.server.middleware[-1] is wire  # the innermost
    assert set(wire.layouts) >= {MODERN, LEGACY}
    taken: list[str] = []
    original = wire_result._build

    def spy(*args: Any) -> dict[str, Any]:
        taken.append(args[2])
        return original(*args)

    wire_result._build = spy  # type: ignore[assignment]
    try:
        async with Client(club.server) as client:
            r = await client.call_tool("fast", {"n": 1})
            await client.call_tool("with_meta", {})
    finally:
        wire_result._build = original  # type: ignore[assignment]
    assert taken == ['tres · ✓ "q"']
    assert r.structured_content == {"n": 1, "note": None}


async def test_in_process_answers_are_the_sdks(club: ClubApp) -> None:
    server = club.server
    recorder = Recorder()
    server.middleware.insert(0, recorder)
    async with Client(server) as client:
        table, token = await _table(client)
        await client.call_tool("list_games", {})  # warm the caches
        for method, params in _calls(table, token):
            answers = []
            for ours in (False, True):
                recorder.seen.clear()
                if ours:
                    sent = await _send(client, method, params)
                else:
                    with sdk_path(server):
                        sent = await _send(client, method, params)
                answers.append((sent, list(recorder.seen)))
            assert answers[0] == answers[1], (method, params)
            assert answers[0][1], (method, params)


async def _send(client: Client, method: str, params: dict[str, Any] | None) -> Any:
    """Send a raw request through the client's session; return its result dict or its error."""
    dispatcher = client.session._dispatcher  # the raw request, as the client's dispatcher sends it
    full = {**(params or {}), "_meta": META}
    try:
        return ("result", json.dumps(await dispatcher.send_raw_request(method, full, {}), ensure_ascii=False))
    except MCPError as exc:
        return ("error", exc.error.code, exc.error.message, exc.error.data)


def _http_post(
    version: str, session_id: str | None = None
) -> Callable[[httpx.AsyncClient, int, str, dict[str, Any] | None], Any]:
    async def post(c: httpx.AsyncClient, i: int, method: str, params: dict[str, Any] | None) -> httpx.Response:
        body: dict[str, Any] = {"jsonrpc": "2.0", "id": i, "method": method}
        headers = {
            "Accept": "application/json, text/event-stream",
            "Content-Type": "application/json",
            "MCP-Protocol-Version": version,
        }
        if version == MODERN:
            body["params"] = {**(params or {}), "_meta": META}
            headers["Mcp-Method"] = method
            if params and isinstance(params.get("name"), str):
                headers["Mcp-Name"] = params["name"]
        elif params is not None:
            body["params"] = params
        return await c.post("/mcp", content=json.dumps(body), headers=headers)

    return post


@pytest.mark.parametrize("version", [MODERN, LEGACY])
async def test_http_answers_are_the_sdks_byte_for_byte(club: ClubApp, version: str) -> None:
    server = club.server
    async with Client(server) as client:
        table, token = await _table(client)
    app = server.streamable_http_app(json_response=True, stateless_http=True)
    post = _http_post(version)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8000") as c:
            if version == LEGACY:
                init = {
                    "protocolVersion": LEGACY,
                    "capabilities": {},
                    "clientInfo": {"name": "test", "version": "1"},
                }
                r = await post(c, 0, "initialize", init)
                assert r.status_code == 200, r.text
            await post(c, 0, "tools/call", {"name": "list_games", "arguments": {}})
            for i, (method, params) in enumerate(_calls(table, token), start=1):
                with sdk_path(server):
                    theirs = await post(c, i, method, params)
                mine = await post(c, i, method, params)
                assert (mine.status_code, mine.content) == (theirs.status_code, theirs.content), (method, params)
                assert mine.headers.get("content-type") == theirs.headers.get("content-type")
    served = [m for m in server.middleware if isinstance(m, WireResults)]
    assert len(served) == 1


async def test_a_middleware_added_later_stays_outside() -> None:
    server = ClubServer("wire-test")

    @server.tool()
    def ping() -> str:
        """Return pong."""
        return "pong"

    wire = wire_result.install(server._lowlevel_server)
    marker = object()
    wire_result.add_inside(server.middleware, marker)
    assert server.middleware[-2:] == [marker, wire]


def test_a_model_result_keeps_the_plain_shape_only_when_plain() -> None:
    plain = compact_dict(Extra, {"n": 1, "note": None}, "t")
    assert isinstance(plain, ModelResult)
    assert wire_result._plain(plain) == ("t", {"n": 1, "note": None})
    err = compact_dict(Extra, {"n": 1, "note": None}, "t")
    err.is_error = True
    assert wire_result._plain(err) is None
    assert wire_result._plain(CallToolResult(content=[TextContent(type="text", text="t")])) is None

"""The SDK's per-request work this server switches off (:mod:`club_agentes.mcp_server.lean`) still runs where it
would do something: a tool that declares an ``Mcp-Param`` header is validated, spans are kept under a tracer."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import httpx
import pytest
from club_agentes.mcp_server import lean
from club_agentes.mcp_server.app import build_server
from club_agentes.mcp_server.store import Store
from club_agentes.mcp_server.toolkit import ClubServer
from mcp.server._otel import OpenTelemetryMiddleware
from opentelemetry import trace
from pydantic import Field

pytestmark = pytest.mark.anyio

VERSION = "2026-07-28"
META = {
    "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "1"},
    "io.modelcontextprotocol/protocolVersion": VERSION,
    "io.modelcontextprotocol/clientCapabilities": {},
}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def _server() -> ClubServer:
    server = ClubServer("lean-test")

    @server.tool()
    def region(region: Annotated[str, Field(json_schema_extra={"x-mcp-header": "Region"})]) -> str:
        """Return the region (its argument is mirrored into the ``Mcp-Param-Region`` header)."""
        return region

    @server.tool()
    def plain(x: int) -> str:
        """Return ``x`` as text."""
        return str(x)

    lean.install(server)
    return server


async def _call(app: Any, name: str, arguments: dict[str, Any], headers: dict[str, str]) -> httpx.Response:
    body = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": name, "arguments": arguments, "_meta": META},
    }
    sent = {
        "Accept": "application/json, text/event-stream",
        "Content-Type": "application/json",
        "MCP-Protocol-Version": VERSION,
        "Mcp-Method": "tools/call",
        "Mcp-Name": name,
        **headers,
    }
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://127.0.0.1:8000") as c:
        return await c.post("/mcp", json=body, headers=sent)


async def test_a_declared_mcp_param_header_is_still_checked_and_an_undeclared_schema_is_not_walked() -> None:
    server = _server()
    lookup = server._lowlevel_server.get_tool_input_schema
    assert lookup is not None
    assert lookup("plain") is None and lookup("nope") is None
    assert lookup("region") == server._tool_manager.get_tool("region").parameters  # type: ignore[union-attr]
    app = server.streamable_http_app(json_response=True, stateless_http=True)
    async with app.router.lifespan_context(app):
        wrong = await _call(app, "region", {"region": "eu"}, {"Mcp-Param-Region": "us"})
        assert wrong.status_code == 400 and "Mcp-Param-Region header does not match" in wrong.text
        missing = await _call(app, "region", {"region": "eu"}, {})
        assert missing.status_code == 400 and "Mcp-Param-Region header is missing" in missing.text
        right = await _call(app, "region", {"region": "eu"}, {"Mcp-Param-Region": "eu"})
        assert right.status_code == 200 and right.json()["result"]["content"][0]["text"] == "eu"
        plain = await _call(app, "plain", {"x": 3}, {})
        assert plain.status_code == 200 and plain.json()["result"]["content"][0]["text"] == "3"


def test_the_club_declares_no_mcp_param_header(tmp_path: Path) -> None:
    store = Store(tmp_path / "club.sqlite3")
    try:
        server = build_server(store)
        lookup = server._lowlevel_server.get_tool_input_schema
        assert lookup is not None
        tools = server._tool_manager.list_tools()
        assert len(tools) > 10
        for tool in tools:
            assert lookup(tool.name) is None, tool.name
            assert "x-mcp-header" not in str(tool.parameters), tool.name
    finally:
        store.close()


def test_spans_are_dropped_without_a_tracer_provider_and_kept_with_one(monkeypatch: pytest.MonkeyPatch) -> None:
    assert isinstance(trace.get_tracer_provider(), trace.ProxyTracerProvider)  # nothing configured in the tests
    assert not any(isinstance(m, OpenTelemetryMiddleware) for m in _server()._lowlevel_server.middleware)
    monkeypatch.setattr(trace, "get_tracer_provider", lambda: trace.NoOpTracerProvider())
    assert lean.tracing_configured()
    assert any(isinstance(m, OpenTelemetryMiddleware) for m in _server()._lowlevel_server.middleware)

"""Per-request work of the SDK that this server does not need, switched off through the SDK's own settings.

Two of the SDK's steps run on every request and, for this server, always come to nothing:

* **``Mcp-Param-*`` header validation.** Before a ``tools/call`` is dispatched, the SDK walks the called tool's
  whole input schema twice (``find_invalid_x_mcp_header``, then ``_annotated_positions``) looking for
  ``x-mcp-header`` annotations, and compares each one it finds with the request's headers. A schema without
  any annotation validates nothing, whatever the headers say. The schema comes from the low-level server's
  ``get_tool_input_schema`` lookup; :func:`install` replaces it with one that hands over a tool's schema only
  when the schema carries the annotation (worked out once per tool), and ``None`` (nothing to validate, the
  SDK's documented answer for a tool without a schema) otherwise. Our tools declare no ``Mcp-Param`` headers,
  so the walk disappears; a tool that declared one would be validated exactly as before.
* **OpenTelemetry spans.** The low-level server's middleware list starts with ``OpenTelemetryMiddleware``,
  which opens a span per message; it "is a no-op until an OTel exporter is installed" and the SDK's comment
  says to "drop it from this list to opt out". :func:`install` drops it when no tracer provider is configured
  when the server is built (the OpenTelemetry API's default proxy provider, with no SDK behind it: the spans
  would go nowhere). Run the server under ``opentelemetry-instrument`` (or set a tracer provider before it is
  built) and the middleware stays.

It also installs :mod:`~club_agentes.mcp_server.wire_result` (the innermost middleware): a ``tools/call`` answer
built by ``compact`` goes out in its wire form without the SDK's two pydantic walks of it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from club_agentes.mcp_server import wire_result
from mcp.server._otel import OpenTelemetryMiddleware
from mcp.shared.inbound import X_MCP_HEADER_KEY
from opentelemetry import trace

if TYPE_CHECKING:
    from club_agentes.mcp_server.toolkit import ClubServer


def tracing_configured() -> bool:
    """Return whether a tracer provider was set (anything but the OpenTelemetry API's default proxy)."""
    return not isinstance(trace.get_tracer_provider(), trace.ProxyTracerProvider)


class HeaderSchemas:
    """The low-level server's ``get_tool_input_schema``: a tool's input schema only if it declares
    ``Mcp-Param`` headers (``x-mcp-header`` anywhere in it), else ``None``; decided once per tool object."""

    def __init__(self, server: ClubServer) -> None:
        self._server = server
        self._seen: dict[str, tuple[object, Mapping[str, Any] | None]] = {}

    def __call__(self, name: str) -> Mapping[str, Any] | None:
        """Return the schema to validate ``Mcp-Param-*`` headers against for tool ``name`` (``None``: nothing)."""
        tool = self._server._tool_manager.get_tool(name)
        if tool is None:
            return None
        seen = self._seen.get(name)
        if seen is not None and seen[0] is tool:
            return seen[1]
        schema: Mapping[str, Any] = tool.parameters
        declared = X_MCP_HEADER_KEY in json.dumps(schema)  # anywhere, even as a name: then the SDK walks it
        kept = schema if declared else None
        self._seen[name] = (tool, kept)
        return kept


def install(server: ClubServer) -> None:
    """Switch off, on ``server``, the per-request work described in this module's notes.

    Call it last when building the server: the middleware it adds must stay the innermost (add any later one
    with :func:`.wire_result.add_inside`).

    Raises:
        RuntimeError: ``server`` has no ``tools/call`` handler.
    """
    low = server._lowlevel_server
    low.get_tool_input_schema = HeaderSchemas(server)
    if not tracing_configured():
        low.middleware[:] = [m for m in low.middleware if not isinstance(m, OpenTelemetryMiddleware)]
    if not any(isinstance(m, wire_result.WireResults) for m in low.middleware):
        wire_result.install(low)

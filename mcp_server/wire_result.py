"""A ``tools/call`` answer built by :func:`~.toolkit.compact` is written in its wire form once, not dumped twice.

After a tool returns, the SDK's runner walks its ``CallToolResult`` twice with pydantic before the transport
sees it: ``model_dump`` (``mcp.server.runner._dump_result``), then the per-version surface "sieve"
(``mcp_types.methods.serialize_server_result``: validate the dumped dict against the protocol version's
``CallToolResult`` model and dump it again). For a :class:`~.toolkit.ModelResult` both walks come to a foregone
conclusion: its structured content is already the JSON dump of the tool's output model (the contract of
:func:`~.toolkit.compact` and :func:`~.toolkit.compact_dict`) and its content is one plain text block, so the
wire dict is those two objects under keys whose order and constants only depend on the protocol version. Measured
(callgrind, ``benchmarks/floor.py --calls 200``): ``list_games`` (a 9 kB answer) 2.49M to 2.02M instructions per
call, ``get_view`` 3.30M to 2.65M; ``benchmarks/scale.py --seed 7 --moves 150`` (1 agent, SQLite) 5.32M to 5.10M
per agent move.

The runner sieves the results of spec methods only; a custom method's result goes out as its handler wrote it
(with the same ``resultType`` default and ``serverInfo`` stamp). So :class:`WireResults` is two of the SDK's
extension points used together:

* an **innermost server middleware** that, for a ``tools/call`` request, runs the SDK's own surface validation
  of the request (``validate_client_request``, which the runner skips for a custom method) and hands the request
  on under the private method :data:`SHAPED_METHOD`; a request sent under that name from outside gets the
  SDK's own ``-32601 Method not found``, as before;
* a **request handler** of :data:`SHAPED_METHOD` (``Server.add_request_handler``, with the ``tools/call``
  handler's params type, so the runner validates the params exactly as for ``tools/call``) that calls the
  registered ``tools/call`` handler (the context it gets names ``tools/call`` again) and writes its result in
  the wire form: a plain :class:`~.toolkit.ModelResult` directly from a layout learnt from the SDK's sieve,
  anything else through the SDK's own dump and sieve (``serialize_server_result``).

The layout of each protocol version is learnt once, when the middleware is built, by sieving a probe result
with the SDK; a version whose sieve does not give the expected shape (an SDK upgrade that changes it) is served
by the SDK's path, untouched. Every byte of every answer is the same as the SDK's (``tests/mcp/test_wire_result.py``
compares the two paths). The structured content dict goes out as the tool built it (not copied, as the SDK
copies a handler's dict result one level deep only); over HTTP and stdio it is serialised at once.
"""

from __future__ import annotations

import json
import logging
from dataclasses import replace
from typing import Any, Final

from club_agentes.mcp_server.toolkit import ModelResult
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.lowlevel.server import Server
from mcp.shared.exceptions import MCPError
from mcp_types import CORE_RESULT_TYPES, INTERNAL_ERROR, METHOD_NOT_FOUND, ErrorData, TextContent
from mcp_types import methods as sdk_methods
from mcp_types.version import KNOWN_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS
from pydantic import BaseModel, ValidationError

log = logging.getLogger(__name__)

TOOLS_CALL: Final = "tools/call"

SHAPED_METHOD: Final = "club-agentes.internal/tools/call"
"""The private method a ``tools/call`` request is served under (never answered when a client sends it)."""

_CONTENT = "content"
_DATA = "data"
_CONSTANT = "constant"

_PROBE_TEXT = 'probe · ✓ "quoted"\n'
_PROBE_DATA: Final[dict[str, Any]] = {"a": [1, 2.5, None, True, "x"], "b": {"c": None, "d": {}}, "e": ""}

Layout = tuple[tuple[str, str, Any], ...]
"""The wire dict of a plain result at one version: (key, what goes there, the constant when it is one)."""


def _dump(result: Any) -> dict[str, Any]:
    """The SDK runner's dump of a handler result (``mcp.server.runner._dump_result``, ``ErrorData`` aside).

    Raises:
        TypeError: ``result`` is not a model, a dict or ``None`` (the SDK's error, word for word).
    """
    if result is None:
        return {}
    if isinstance(result, BaseModel):
        return result.model_dump(by_alias=True, mode="json", exclude_none=True)
    if isinstance(result, dict):
        return dict(result)
    raise TypeError(f"handler returned {type(result).__name__}; expected BaseModel, dict, or None")


def sdk_wire_form(result: Any, version: str) -> dict[str, Any]:
    """Return the wire dict the SDK's runner writes for ``result`` of ``tools/call`` at ``version`` (before the
    ``resultType`` default and the ``serverInfo`` stamp, which the runner adds to any method's result).

    Raises:
        TypeError: ``result`` is not a model, a dict or ``None``.
        MCPError: ``INTERNAL_ERROR`` when the result does not fit the version's ``CallToolResult`` (logged, as
            the SDK does).
        KeyError: ``tools/call`` is not defined at ``version``.
    """
    dumped = _dump(result)
    result_type = dumped.get("resultType")
    if version in MODERN_PROTOCOL_VERSIONS and isinstance(result_type, str) and result_type not in CORE_RESULT_TYPES:
        return dumped  # an extension's claimed shape: the SDK does not sieve it either
    try:
        return sdk_methods.serialize_server_result(TOOLS_CALL, version, dumped)
    except ValidationError:
        log.exception("handler for %r returned an invalid result", TOOLS_CALL)
        raise MCPError(code=INTERNAL_ERROR, message="Handler returned an invalid result") from None


def _plain(result: Any) -> tuple[str, dict[str, Any]] | None:
    """Return (text, structured content) of a result that is one text block and its structured content, else None."""
    if not isinstance(result, ModelResult) or result.is_error or result.meta is not None:
        return None
    if result.result_type != "complete" or not isinstance(result.structured_content, dict):
        return None
    content = result.content
    if len(content) != 1:
        return None
    block = content[0]
    if type(block) is not TextContent or block.annotations is not None or block.meta is not None:
        return None
    return block.text, result.structured_content


def _build(layout: Layout, text_first: bool, text: str, data: dict[str, Any]) -> dict[str, Any]:
    block = {"text": text, "type": "text"} if text_first else {"type": "text", "text": text}
    out: dict[str, Any] = {}
    for key, kind, constant in layout:
        out[key] = [block] if kind == _CONTENT else data if kind == _DATA else constant
    return out


def learn_layout(version: str) -> tuple[Layout, bool] | None:
    """Learn from the SDK's own sieve where a plain result's parts go at ``version``; ``None``: no fast path.

    The probe is a :class:`~.toolkit.ModelResult` of one text block and a small structured content; the layout
    is kept only if writing the probe through it gives, byte for byte, the JSON of the SDK's sieve. Never raises.
    """
    probe = ModelResult(content=[TextContent(type="text", text=_PROBE_TEXT)], structured_content=dict(_PROBE_DATA))
    try:
        expected = sdk_methods.serialize_server_result(TOOLS_CALL, version, _dump(probe))
    except Exception:  # any failure of the probe: this version keeps the SDK's path
        return None
    layout: list[tuple[str, str, Any]] = []
    text_first = True
    for key, value in expected.items():
        if key == "content" and isinstance(value, list) and len(value) == 1 and isinstance(value[0], dict):
            layout.append((key, _CONTENT, None))
            text_first = next(iter(value[0]), None) == "text"
        elif key == "structuredContent":
            layout.append((key, _DATA, None))
        elif value is None or isinstance(value, bool | int | float | str):
            layout.append((key, _CONSTANT, value))
        else:
            return None
    learnt = (tuple(layout), text_first)
    mine = _build(learnt[0], text_first, _PROBE_TEXT, dict(_PROBE_DATA))
    if json.dumps(mine) != json.dumps(expected) or mine != expected:
        return None
    return learnt


class WireResults:
    """Server middleware (the innermost) and handler of :data:`SHAPED_METHOD`; see the module's notes."""

    def __init__(self, server: Server[Any]) -> None:
        """Learn each protocol version's layout and register the handler of :data:`SHAPED_METHOD` on ``server``.

        Raises:
            RuntimeError: ``server`` has no ``tools/call`` handler to serve.
        """
        entry = server.get_request_handler(TOOLS_CALL)
        if entry is None:
            raise RuntimeError("the server has no tools/call handler")
        self._server = server
        self._params_type = entry.params_type
        self.layouts: dict[str, tuple[Layout, bool]] = {}
        for version in KNOWN_PROTOCOL_VERSIONS:
            if (TOOLS_CALL, version) in sdk_methods.SERVER_RESULTS:
                learnt = learn_layout(version)
                if learnt is not None:
                    self.layouts[version] = learnt
        server.add_request_handler(SHAPED_METHOD, self._params_type, self._handle)

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        """Serve a ``tools/call`` request under :data:`SHAPED_METHOD`; anything else goes on unchanged.

        Raises:
            MCPError: ``METHOD_NOT_FOUND`` for a request sent as :data:`SHAPED_METHOD`, or for ``tools/call`` at a
                version that does not define it (the SDK's error); whatever the rest of the chain raises.
            ValidationError: the request does not fit the version's ``CallToolRequest`` (the SDK's check).
        """
        method = ctx.method
        if ctx.request_id is None:  # a notification: nothing to answer
            return await call_next(ctx)
        if method == SHAPED_METHOD:
            raise MCPError(code=METHOD_NOT_FOUND, message="Method not found", data=method)
        if method != TOOLS_CALL or ctx.protocol_version not in self.layouts or TOOLS_CALL in self._server.cache_hints:
            return await call_next(ctx)
        entry = self._server.get_request_handler(TOOLS_CALL)
        if entry is None or entry.params_type is not self._params_type:
            return await call_next(ctx)
        try:  # what the runner does first for a spec method, and skips for a custom one
            sdk_methods.validate_client_request(TOOLS_CALL, ctx.protocol_version, ctx.params)
        except KeyError:
            raise MCPError(code=METHOD_NOT_FOUND, message="Method not found", data=method) from None
        return await call_next(replace(ctx, method=SHAPED_METHOD))

    async def _handle(self, ctx: ServerRequestContext[Any, Any], params: Any) -> Any:
        """Call the ``tools/call`` handler and return its result in the wire form.

        Raises:
            MCPError: whatever the handler raises; ``INTERNAL_ERROR`` when its result does not fit the
                protocol version's ``CallToolResult``.
            TypeError: the handler returned something that is not a model, a dict or ``None``.
        """
        entry = self._server.get_request_handler(TOOLS_CALL)
        if entry is None:  # pragma: no cover  # the middleware checked it a moment ago
            raise MCPError(code=METHOD_NOT_FOUND, message="Method not found", data=TOOLS_CALL)
        result = await entry.handler(replace(ctx, method=TOOLS_CALL), params)
        if isinstance(result, ErrorData):
            return result  # the runner raises it, as it does for tools/call
        version = ctx.protocol_version
        plain = _plain(result)
        if plain is not None:
            layout, text_first = self.layouts[version]
            return _build(layout, text_first, plain[0], plain[1])
        return sdk_wire_form(result, version)


def install(server: Server[Any]) -> WireResults:
    """Append a :class:`WireResults` to ``server``'s middleware (it must stay the innermost) and return it.

    Raises:
        RuntimeError: ``server`` has no ``tools/call`` handler.
    """
    wire = WireResults(server)
    server.middleware.append(wire)
    return wire


def add_inside(middleware: list[Any], item: Any) -> None:
    """Add ``item`` as the innermost middleware of ``middleware``, but outside a :class:`WireResults` (which must
    stay the innermost: a middleware inside it would see ``tools/call`` under :data:`SHAPED_METHOD`)."""
    for index, existing in enumerate(middleware):
        if isinstance(existing, WireResults):
            middleware.insert(index, item)
            return
    middleware.append(item)

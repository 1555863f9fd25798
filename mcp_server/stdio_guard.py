"""A guard in front of the SDK's stdio reader: every malformed line gets a JSON-RPC error.

The SDK's ``stdio_server`` turns a line it cannot read into an exception on the server's read stream,
and the server only logs it, so a client that sent a malformed line (a lone surrogate, bad JSON,
nesting deeper than the parser allows, valid JSON that is no JSON-RPC message) waits for ever. The
guard sits between the reader and the server (:func:`run_stdio`): a message goes on unchanged, an
exception is answered at once on the write stream with the error JSON-RPC 2.0 names for it, parse
error (-32700) or invalid request (-32600), ``id`` null (the line's id cannot be trusted), and a
message of one sentence that echoes no more than :data:`ECHO_CHARS` characters of the input.

:class:`LongMethodGuard` (an SDK server middleware, over stdio and HTTP) answers a method name longer
than :data:`ECHO_CHARS` with "Method not found" naming only its first :data:`ECHO_CHARS` characters
(the SDK would echo all of it).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import anyio
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.stdio import stdio_server
from mcp.shared._context_streams import create_context_streams
from mcp.shared.exceptions import MCPError
from mcp.shared.message import SessionMessage
from mcp_types import INVALID_REQUEST, METHOD_NOT_FOUND, PARSE_ERROR, ErrorData, JSONRPCError
from pydantic import ValidationError

if TYPE_CHECKING:
    from mcp.server.lowlevel.server import Server

log = logging.getLogger("club_agentes.stdio")

ECHO_CHARS = 200
"""The most characters of a client's input a protocol error repeats."""


def error_for(exc: Exception) -> JSONRPCError:
    """Return the JSON-RPC error answering a line the SDK's reader could not turn into a message.

    A line that is not JSON (including a lone surrogate the JSON parser refuses, and nesting deeper than
    it allows) is a parse error (-32700); JSON that is not a JSON-RPC message is an invalid request (-32600).
    """
    parse = True
    if isinstance(exc, ValidationError):
        parse = any(e.get("type") in ("json_invalid", "json_type") for e in exc.errors())
    elif not isinstance(exc, ValueError | RecursionError | UnicodeError):
        parse = False
    if parse:
        data = ErrorData(
            code=PARSE_ERROR,
            message="Parse error: the line is not valid JSON (or nests deeper than the parser allows); "
            "send one JSON-RPC 2.0 message per line, UTF-8 encoded",
        )
    else:
        data = ErrorData(
            code=INVALID_REQUEST,
            message='Invalid request: the line is JSON but not a JSON-RPC 2.0 message (it needs "jsonrpc": '
            '"2.0", a string "method" and, for a request, an "id" that is a string or a whole number)',
        )
    return JSONRPCError(jsonrpc="2.0", id=None, error=data)


async def run_stdio(server: Server[Any], init_options: Any) -> None:
    """Serve ``server`` over the process's stdin and stdout, answering every malformed line (see the module)."""
    async with stdio_server() as (read_stream, write_stream):
        inner_send, inner_read = create_context_streams[SessionMessage | Exception](0)

        async def guard() -> None:
            async with inner_send:
                async for item in read_stream:
                    if isinstance(item, Exception):
                        log.debug("malformed stdio line: %s", type(item).__name__)
                        await write_stream.send(SessionMessage(error_for(item)))
                    else:
                        await inner_send.send(item)

        async with anyio.create_task_group() as tg:
            tg.start_soon(guard)
            await server.run(inner_read, write_stream, init_options)
            tg.cancel_scope.cancel()


class LongMethodGuard:
    """SDK server middleware: a method name longer than :data:`ECHO_CHARS` is not found, echoed cut short."""

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        """Refuse an over-long method name before the SDK looks it up; pass everything else on.

        Raises:
            MCPError: ``METHOD_NOT_FOUND`` for a method name longer than :data:`ECHO_CHARS` characters.
        """
        method = ctx.method
        if isinstance(method, str) and len(method) > ECHO_CHARS:
            raise MCPError(code=METHOD_NOT_FOUND, message="Method not found", data=method[:ECHO_CHARS] + "…")
        return await call_next(ctx)

"""Small pieces shared by every tool module: annotations and the server class."""

from __future__ import annotations

from typing import Any

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp_types import CallToolResult, InputRequiredResult, ToolAnnotations
from pydantic import ValidationError

READ_ONLY = ToolAnnotations(readOnlyHint=True, idempotentHint=True, openWorldHint=False)
"""Annotations of tools that only read (rules, views, logs)."""

WRITES = ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=False, openWorldHint=False)
"""Annotations of tools that change state (create a table, play a move, take a quiz)."""


def argument_error_sentence(tool: str, exc: ValidationError) -> str:
    """Turn a pydantic argument validation error into one clear sentence.

    Example: ``"Invalid arguments for search_rules: 'limit' must be less than or equal to 50
    (got 99); see the tool's input schema."``
    """
    parts = []
    for err in exc.errors()[:3]:
        loc = ".".join(str(p) for p in err.get("loc", ()) if p != "") or "arguments"
        msg = str(err.get("msg", "is not valid"))
        if err.get("type") == "missing":
            parts.append(f"'{loc}' is required")
        else:
            got = repr(err.get("input"))
            got = got if len(got) <= 40 else got[:37] + "..."
            msg = msg.removeprefix("Input ").removeprefix("Value ")
            parts.append(f"'{loc}' {msg[0].lower() + msg[1:]} (got {got})")
    return f"Invalid arguments for {tool}: {'; '.join(parts)}; see the tool's input schema."


class ClubServer(MCPServer[Any]):
    """``MCPServer`` whose argument errors read as one sentence instead of a pydantic dump."""

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        """Call a tool; rephrase argument validation failures as one-sentence ``ToolError``.

        Raises:
            ToolError: unknown tool, bad arguments, or a refusal raised by the tool.
            UnexpectedToolError: the tool crashed (a defect; the client sees no detail).
        """
        try:
            result: CallToolResult | InputRequiredResult = await super().call_tool(name, arguments, context)
        except UnexpectedToolError:
            raise
        except ToolError as exc:
            if isinstance(exc.__cause__, ValidationError):
                raise ToolError(argument_error_sentence(name, exc.__cause__)) from exc.__cause__
            prefix = f"Error executing tool {name}: "
            message = str(exc)
            raise ToolError(message[len(prefix) :] if message.startswith(prefix) else message) from exc
        return result

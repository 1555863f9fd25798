"""Pieces shared by every tool module: annotations, compact results, and the server class.

:class:`ClubServer` is ``MCPServer`` with the platform's request rules in one place:

* **strict arguments**: an unknown argument is refused with one sentence naming the accepted
  ones and the closest match ("unknown argument 'expected_versoin'; did you mean
  'expected_version'?"), never silently ignored;
* **one refusal type**: any :class:`~club_agentes.errors.Refused` a tool raises becomes a
  ``ToolError`` with its sentence; argument validation errors become one sentence too;
* **bounded messages**: no error quotes more than :data:`MAX_QUOTE` characters of the input;
* **logging**: one line per refused call, a full traceback for any defect, each written once by the
  SDK's logger (``mcp.server.mcpserver.server``); this module's own lines are at DEBUG.

:func:`compact` builds a tool result whose text content is a compact rendering written for a
model, while the full data stays in ``structuredContent`` under the tool's output schema.
"""

from __future__ import annotations

import difflib
import logging
import re
from collections.abc import Iterable
from typing import Any

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp_types import CallToolResult, InputRequiredResult, TextContent, ToolAnnotations
from pydantic import BaseModel, ValidationError

from club_agentes.errors import Refused

log = logging.getLogger("club_agentes.tools")

READ_ONLY = ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False)
"""Annotations of tools that only read (rules, views, logs)."""

WRITES = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=False)
"""Annotations of tools that change state (create a table, play a move, take a quiz)."""

MAX_QUOTE = 200
"""The most characters of a caller's input an error message quotes."""

MAX_MESSAGE = 1000
"""The longest error message sent (a sentence plus at most :data:`MAX_QUOTE` characters of input)."""


def quote(value: Any, limit: int = MAX_QUOTE) -> str:
    """Return ``repr(value)`` cut to ``limit`` characters (with an ellipsis), for error messages."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


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
            msg = msg.removeprefix("Input ").removeprefix("Value ")
            parts.append(f"'{loc}' {msg[0].lower() + msg[1:]} (got {quote(err.get('input'), 40)})")
    return f"Invalid arguments for {tool}: {'; '.join(parts)}; see the tool's input schema."


def _snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()


def unknown_argument_sentence(tool: str, unknown: str, accepted: Iterable[str]) -> str:
    """Return the refusal of an unknown argument, naming the closest accepted one.

    Example: ``"unknown argument 'expected_versoin' for play_move; did you mean 'expected_version'?
    The accepted arguments are: table_id, seat_token, move, expected_version."``
    """
    names = list(accepted)
    guess = _snake(unknown) if _snake(unknown) in names else None
    if guess is None:
        close = difflib.get_close_matches(_snake(unknown), names, n=1, cutoff=0.6)
        guess = close[0] if close else None
    hint = f"; did you mean {guess!r}?" if guess else "."
    listed = ", ".join(names) if names else "none"
    return f"unknown argument {quote(unknown, 60)} for {tool}{hint} The accepted arguments are: {listed}."


def compact(data: BaseModel, text: str) -> CallToolResult:
    """Return a tool result: ``text`` (compact, for a model) as content, ``data`` as structured content."""
    return CallToolResult(
        content=[TextContent(type="text", text=text)],
        structured_content=data.model_dump(mode="json", by_alias=True),
    )


class ClubServer(MCPServer[Any]):
    """``MCPServer`` with strict arguments, one refusal type, bounded messages and logging."""

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        """Call a tool after refusing unknown arguments; turn refusals into one-sentence ``ToolError``.

        Raises:
            ToolError: unknown tool or argument, bad arguments, or a refusal raised by the tool.
            UnexpectedToolError: the tool crashed (a defect; logged with its traceback; the client
                sees no detail).
        """
        tool = self._tool_manager.get_tool(name)
        if tool is not None and isinstance(arguments, dict):
            accepted = list(tool.parameters.get("properties", {}))
            for key in arguments:
                if key not in accepted:
                    message = unknown_argument_sentence(name, key, accepted)
                    log.debug("refused %s: %s", name, message)
                    raise ToolError(message)
        try:
            result: CallToolResult | InputRequiredResult = await super().call_tool(name, arguments, context)
        except UnexpectedToolError as exc:
            cause = exc.__cause__
            if isinstance(cause, Refused):
                message = _bounded(str(cause))
                log.debug("refused %s: %s", name, message)
                raise ToolError(message) from cause
            # The SDK logs it once, at ERROR, with the whole chained traceback (the defect's included).
            log.debug("defect in tool %s", name, exc_info=cause or exc)
            raise
        except ToolError as exc:
            if isinstance(exc.__cause__, ValidationError):
                message = argument_error_sentence(name, exc.__cause__)
            else:
                prefix = f"Error executing tool {name}: "
                message = str(exc)
                message = message[len(prefix) :] if message.startswith(prefix) else message
            message = _bounded(message)
            log.debug("refused %s: %s", name, message)  # the SDK logs the refusal sent, once, at INFO
            raise ToolError(message) from exc.__cause__
        return result

    def skip_output_validation(self, *names: str) -> None:
        """Stop re-validating the results of these tools against their output models.

        The tools build their results from the same pydantic models their schema comes from, so the
        SDK's second validation of every result costs CPU for nothing; the published
        ``outputSchema`` stays (tests validate results against it).

        Raises:
            KeyError: no tool of that name.
        """
        for name in names:
            tool = self._tool_manager.get_tool(name)
            if tool is None:
                raise KeyError(name)
            meta = tool.fn_metadata
            schema = meta.output_schema
            meta.output_model = None
            meta.output_schema = schema


def _bounded(message: str) -> str:
    return message if len(message) <= MAX_MESSAGE else message[: MAX_MESSAGE - 1] + "…"

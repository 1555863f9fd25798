"""Pieces shared by every tool module: annotations, compact results, and the server class.

:class:`ClubServer` is ``MCPServer`` with the platform's request rules in one place:

* **strict arguments**: an unknown argument is refused with one sentence naming the accepted
  ones and the closest match ("unknown argument 'expected_versoin'; did you mean
  'expected_version'?"), never silently ignored;
* **one refusal type**: any :class:`~club_agentes.errors.Refused` a tool raises becomes a
  ``ToolError`` with its sentence; argument validation errors become one sentence too;
* **bounded messages**: no error quotes more than :data:`MAX_QUOTE` characters of the input;
* **protocol errors where the spec names them**: an unknown tool or prompt, a prompt's missing or
  unknown argument, is a JSON-RPC error ``-32602`` (invalid params); an unknown resource is
  ``-32002`` on the handshake-era protocols (2024-11-05 to 2025-11-25, whose spec names that code)
  and ``-32602`` on 2026-07-28 (SEP-2164 retired ``-32002``); each with one sentence, never a
  traceback;
* **logging**: one line per refused call, a full traceback for any defect, each written once by the
  SDK's logger (``mcp.server.mcpserver.server``); this module's own lines are at DEBUG;
* **the logging capability** (:mod:`~club_agentes.mcp_server.session_log`): ``logging/setLevel``
  and the session's own events as log notifications (refusals at ``info``, defects at ``error``).

:func:`compact` (from a model instance) and :func:`compact_dict` (from the dict its dump would be) build a
tool result whose text content is a compact rendering written for a model, while the full data stays in
``structuredContent`` under the tool's output schema.
"""

from __future__ import annotations

import difflib
import logging
import re
import time
from collections.abc import Awaitable, Iterable
from typing import Any, TypeVar

import anyio
from club_agentes.mcp_server import sdk_json, session_log
from club_agentes.mcp_server.session_log import SessionLogMiddleware, session_event
from club_agentes.mcp_server.stdio_guard import LongMethodGuard, run_stdio
from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ResourceNotFoundError, ToolError, UnexpectedToolError
from mcp.server.mcpserver.utilities.func_metadata import FuncMetadata
from mcp.shared.exceptions import MCPError
from mcp.shared.jsonrpc_dispatcher import progress_token_from_params
from mcp_types import (
    INTERNAL_ERROR,
    INVALID_PARAMS,
    CallToolResult,
    GetPromptResult,
    InputRequiredResult,
    SetLevelRequestParams,
    TextContent,
    ToolAnnotations,
)
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS
from pydantic import BaseModel, PrivateAttr, ValidationError

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

RESOURCE_NOT_FOUND = -32002
"""JSON-RPC code of an unknown resource on the handshake-era protocols (2024-11-05 to 2025-11-25)."""


def resource_not_found_code(protocol_version: str | None) -> int:
    """Return the error code of an unknown resource for a protocol version (``None``: in process, the newest).

    The handshake-era specifications name ``-32002``; 2026-07-28 answers ``-32602`` (SEP-2164).
    """
    return RESOURCE_NOT_FOUND if protocol_version in HANDSHAKE_PROTOCOL_VERSIONS else INVALID_PARAMS


def unknown_name_sentence(kind: str, name: str, known: Iterable[str], listing: str) -> str:
    """Return the refusal of an unknown tool or prompt name, with the closest known name.

    Example: ``"unknown tool 'play_mvoe'; did you mean 'play_move'? tools/list names the 18 tools."``
    """
    names = sorted(known)
    close = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
    hint = f"did you mean {close[0]!r}? " if close else ""
    count = f"the {len(names)} {kind}s" if len(names) != 1 else f"the one {kind}"
    return f"unknown {kind} {quote(name, 60)}; {hint}{listing} names {count}."


def _protocol_version(context: Any) -> str | None:
    """The protocol version of the request ``context`` serves (``None`` in process, without a request)."""
    try:
        return str(context.request_context.protocol_version)
    except (AttributeError, ValueError):
        return None


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


T = TypeVar("T")


def progress_interval(total_s: float) -> float:
    """Seconds between two progress notifications of a wait of ``total_s`` seconds: a tenth, 1 to 5 s."""
    return min(5.0, max(1.0, total_s / 10))


async def with_progress(context: Any, work: Awaitable[T], total_s: float, what: str) -> T:
    """Await ``work`` (a wait of at most ``total_s`` seconds); meanwhile send progress notifications.

    Only when the request carries a ``progressToken`` (``_meta.progressToken``): first ``0`` of
    ``total_s``, then every :func:`progress_interval` seconds the seconds waited so far, each with a
    message such as ``"waiting for your turn: 12 of 30 s"``. Without a token (or without a request,
    in process) it is ``await work``. Notifications reach the client over stdio and over HTTP with
    ``--streaming`` (a JSON response carries none).

    Raises:
        Exception: whatever ``work`` raises, unchanged.
    """
    try:
        token = progress_token_from_params(context.request_context.params)
    except (AttributeError, ValueError):
        token = None
    if token is None or total_s <= 0:
        return await work
    started = time.monotonic()
    every = progress_interval(total_s)

    async def tick() -> None:
        done = 0.0
        while True:
            try:
                await context.report_progress(done, total_s, f"{what}: {done:.0f} of {total_s:g} s")
            except Exception:  # the client's stream is gone: the wait goes on, its progress is lost
                return
            await anyio.sleep(every)
            done = min(total_s, max(done, time.monotonic() - started))

    failure: Exception | None = None
    result: T | None = None
    async with anyio.create_task_group() as tg:
        tg.start_soon(tick)
        try:
            result = await work
        except Exception as exc:  # re-raised below, unwrapped from the task group
            failure = exc
        finally:
            tg.cancel_scope.cancel()
    if failure is not None:
        raise failure
    return result  # type: ignore[return-value]  # set whenever work returned


class ModelResult(CallToolResult):
    """A tool result whose structured content is what a pydantic model dumps, built by :func:`compact` or
    :func:`compact_dict`.

    It remembers the model class (:attr:`model_class`), so :class:`TrustedOutputMetadata` can skip the SDK's
    second validation of a result written for that model; it goes on the wire exactly as a ``CallToolResult``.
    """

    _model_class: type[BaseModel] | None = PrivateAttr(default=None)

    @property
    def model_class(self) -> type[BaseModel] | None:
        """The model the structured content was dumped from or written for (``None``: not known)."""
        return self._model_class


def compact(data: BaseModel, text: str) -> CallToolResult:
    """Return a tool result: ``text`` (compact, for a model) as content, ``data`` as structured content."""
    return compact_dict(type(data), data.model_dump(mode="json", by_alias=True), text)


def compact_dict(model: type[BaseModel], data: dict[str, Any], text: str) -> CallToolResult:
    """Return a tool result: ``text`` as content, ``data`` as structured content, written for ``model``.

    ``data`` must be exactly what ``model.model_validate(data).model_dump(mode="json", by_alias=True)`` writes
    (same keys in the same order, aliases, defaults and ``None`` s, JSON types: lists, not tuples; floats where
    the model has ``float``): the SDK will not validate it again (:class:`TrustedOutputMetadata`), nor dump it
    (:mod:`~club_agentes.mcp_server.wire_result` puts it in the wire dict as it is), so the caller's tests must
    check it (``tests/mcp/test_presenter_dicts.py`` does for the table presenter's hot answers). The dict is not
    copied: the transport writes the answer as soon as the tool returns. Raises nothing.
    """
    result = ModelResult(content=[TextContent(type="text", text=text)], structured_content=data)
    result._model_class = model
    return result


class TrustedOutputMetadata(FuncMetadata):
    """The SDK's ``FuncMetadata`` of a tool, except that a :class:`ModelResult` of the tool's own output model
    (or a subclass of it) is not validated a second time.

    The SDK validates every ``CallToolResult`` a tool with an output model returns against that model
    (``FuncMetadata.convert_result``); :func:`compact` builds its structured content by dumping an instance of
    the model, which pydantic validated when it was built, and :func:`compact_dict` takes a dict written for
    the model, which its caller's tests check against the model's own dump. Any other result (a hand-built
    ``CallToolResult``, a :class:`ModelResult` of another model) is validated as before, and the published
    ``outputSchema`` is unchanged. Installed by :meth:`ClubServer.skip_output_validation` (the SDK reads
    ``Tool.fn_metadata`` on every call, so replacing it is an extension point, not a patch).
    """

    def convert_result(self, result: Any) -> CallToolResult | InputRequiredResult:
        """Return ``result`` as is when its own model validated it, else the SDK's conversion.

        Raises:
            ValidationError: the structured content of another result does not fit the output model.
        """
        model = self.output_model
        if (
            isinstance(result, ModelResult)
            and not result.is_error
            and isinstance(model, type)
            and result.model_class is not None
            and issubclass(result.model_class, model)
        ):
            return result
        return super().convert_result(result)


class ClubServer(MCPServer[Any]):
    """``MCPServer`` with strict arguments, one refusal type, bounded messages, protocol errors and logging."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """Build the server (``MCPServer``'s arguments) with the logging capability and its middleware."""
        super().__init__(*args, **kwargs)
        sdk_json.install()  # orjson for the transport's request and reply bodies (see that module)
        self._lowlevel_server.add_request_handler("logging/setLevel", SetLevelRequestParams, session_log.set_level)
        self.middleware.insert(0, LongMethodGuard())  # outermost: an over-long method name is echoed cut short
        self.middleware.append(SessionLogMiddleware())
        session_log.install()

    async def run_stdio_async(self) -> None:
        """Serve over stdio; a malformed line gets a JSON-RPC error (:func:`.stdio_guard.run_stdio`)."""
        await run_stdio(self._lowlevel_server, self._lowlevel_server.create_initialization_options())

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        """Call a tool after refusing unknown arguments; turn refusals into one-sentence ``ToolError``.

        Raises:
            ToolError: unknown tool or argument, bad arguments, or a refusal raised by the tool.
            UnexpectedToolError: the tool crashed (a defect; logged with its traceback; the client
                sees no detail).
        """
        tool = self._tool_manager.get_tool(name)
        if tool is None:
            names = [t.name for t in self._tool_manager.list_tools()]
            message = unknown_name_sentence("tool", name, names, "tools/list")
            log.debug("refused: %s", message)
            session_event("info", f"refused tools/call: {message}")
            raise MCPError(INVALID_PARAMS, message, data={"name": name[:MAX_QUOTE]})
        if isinstance(arguments, dict):
            accepted = list(tool.parameters.get("properties", {}))
            for key in arguments:
                if key not in accepted:
                    message = unknown_argument_sentence(name, key, accepted)
                    log.debug("refused %s: %s", name, message)
                    session_event("info", f"refused {name}: {message}")
                    raise ToolError(message)
        try:
            result: CallToolResult | InputRequiredResult = await super().call_tool(name, arguments, context)
        except UnexpectedToolError as exc:
            cause = exc.__cause__
            if isinstance(cause, Refused):
                message = _bounded(clip_echoes(str(cause), arguments))
                log.debug("refused %s: %s", name, message)
                session_event("info", f"refused {name}: {message}")
                raise ToolError(message) from cause
            # The SDK logs it once, at ERROR, with the whole chained traceback (the defect's included).
            log.debug("defect in tool %s", name, exc_info=cause or exc)
            session_event("error", f"{name} failed on the server (a defect; its traceback is in the server's log)")
            raise
        except ToolError as exc:
            if isinstance(exc.__cause__, ValidationError):
                message = argument_error_sentence(name, exc.__cause__)
            else:
                prefix = f"Error executing tool {name}: "
                message = str(exc)
                message = message[len(prefix) :] if message.startswith(prefix) else message
            message = _bounded(clip_echoes(message, arguments))
            log.debug("refused %s: %s", name, message)  # the SDK logs the refusal sent, once, at INFO
            session_event("info", f"refused {name}: {message}")
            raise ToolError(message) from exc.__cause__
        return result

    async def get_prompt(
        self, name: str, arguments: dict[str, Any] | None = None, context: Any = None
    ) -> GetPromptResult | InputRequiredResult:
        """Render a prompt; refuse an unknown prompt or a missing or unknown argument with ``-32602``.

        Raises:
            MCPError: ``INVALID_PARAMS`` for an unknown prompt or a bad argument (one sentence);
                ``INTERNAL_ERROR`` when the prompt itself fails (a defect, logged with its traceback).
        """
        prompts = {p.name: p for p in await self.list_prompts()}
        prompt = prompts.get(name)
        if prompt is None:
            message = unknown_name_sentence("prompt", name, prompts, "prompts/list")
            log.debug("refused: %s", message)
            session_event("info", f"refused prompts/get: {message}")
            raise MCPError(INVALID_PARAMS, message, data={"name": name[:MAX_QUOTE]})
        declared = [a.name for a in prompt.arguments or []]
        given = arguments or {}
        for key in given:
            if key not in declared:
                raise MCPError(INVALID_PARAMS, unknown_argument_sentence(f"the prompt {name}", key, declared))
        missing = [a.name for a in prompt.arguments or [] if a.required and a.name not in given]
        if missing:
            needed = ", ".join(repr(m) for m in missing)
            raise MCPError(
                INVALID_PARAMS, f"the prompt {name} needs the argument {needed}; it takes: {', '.join(declared)}."
            )
        try:
            return await super().get_prompt(name, arguments, context)
        except MCPError:
            raise
        except ValueError as exc:
            log.error("defect in prompt %s", name, exc_info=exc)
            raise MCPError(INTERNAL_ERROR, f"the prompt {name} failed on the server (a defect, logged).") from exc

    async def read_resource(self, uri: Any, context: Any = None) -> Any:
        """Read a resource; an unknown one is the JSON-RPC error of the request's protocol version.

        Raises:
            MCPError: the resource is unknown (``-32002`` up to 2025-11-25, ``-32602`` on 2026-07-28),
                with one sentence and the URI in ``data``.
            ResourceError: the resource failed (a defect; the SDK logs it).
        """
        try:
            return await super().read_resource(uri, context)
        except ResourceNotFoundError as exc:
            detail = str(exc)
            if detail.startswith("Unknown resource"):
                detail = f"unknown resource {quote(str(uri), 120)}"
            message = _bounded(f"{detail}; resources/list and resources/templates/list name the resources served.")
            log.debug("refused: %s", message)
            session_event("info", f"refused resources/read: {message}")
            code = resource_not_found_code(_protocol_version(context))
            raise MCPError(code, message, data={"uri": str(uri)[:MAX_QUOTE]}) from None

    def skip_output_validation(self, *names: str) -> None:
        """Stop re-validating these tools' results built for their own output model (:func:`compact`,
        :func:`compact_dict`).

        The SDK validates each result against the tool's output model; a result :func:`compact` built
        from an instance of that model was validated when the instance was made (one :func:`compact_dict`
        wrote for it is checked by its caller's tests), so the second validation costs CPU for nothing. Other
        results of these tools are still validated (:class:`TrustedOutputMetadata`); the published
        ``outputSchema`` stays.

        Raises:
            KeyError: no tool of that name.
        """
        for name in names:
            tool = self._tool_manager.get_tool(name)
            if tool is None:
                raise KeyError(name)
            meta = tool.fn_metadata
            if not isinstance(meta, TrustedOutputMetadata):
                tool.fn_metadata = TrustedOutputMetadata(
                    arg_model=meta.arg_model,
                    output_schema=meta.output_schema,
                    output_model=meta.output_model,
                    wrap_output=meta.wrap_output,
                )


def _bounded(message: str) -> str:
    return message if len(message) <= MAX_MESSAGE else message[: MAX_MESSAGE - 1] + "…"


_ECHO_WINDOW = 100
_ECHO_STEP = 50


def _strings(value: Any, out: list[str], depth: int = 0) -> list[str]:
    """Collect the strings longer than :data:`MAX_QUOTE` in a tool's arguments (keys and values, a few levels)."""
    if isinstance(value, str):
        if len(value) > MAX_QUOTE:
            out.append(value)
    elif depth < 4 and isinstance(value, dict):
        for k, v in list(value.items())[:100]:
            _strings(k, out, depth + 1)
            _strings(v, out, depth + 1)
    elif depth < 4 and isinstance(value, list | tuple):
        for v in value[:100]:
            _strings(v, out, depth + 1)
    return out


def clip_echoes(message: str, arguments: Any) -> str:
    """Cut every run of ``message`` copied from a long string argument to fewer than :data:`MAX_QUOTE` characters.

    Each tool quotes its input through :func:`quote` or a slice; this is the guard behind them all: windows
    of the message found in an argument mark an echo, and an echo longer than the limit keeps its start and
    an ellipsis. Never raises.
    """
    inputs = _strings(arguments, [])
    if not inputs or len(message) <= MAX_QUOTE:
        return message
    marked = [False] * len(message)
    for start in range(0, max(1, len(message) - _ECHO_WINDOW + 1), _ECHO_STEP):
        window = message[start : start + _ECHO_WINDOW]
        if len(window) == _ECHO_WINDOW and any(window in text for text in inputs):
            marked[start : start + _ECHO_WINDOW] = [True] * _ECHO_WINDOW
    out: list[str] = []
    i = 0
    while i < len(message):
        if not marked[i]:
            out.append(message[i])
            i += 1
            continue
        j = i
        while j < len(message) and marked[j]:
            j += 1
        # An echo may begin up to one step before its marked part and end up to one step after it.
        keep = MAX_QUOTE - _ECHO_STEP - 1
        out.append(message[i:j] if j - i <= keep else message[i : i + keep] + "…")
        i = j
    return "".join(out)

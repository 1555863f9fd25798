"""Test helpers: a client wrapper that validates every tool result against its advertised outputSchema,
servers in subprocesses (stdio, HTTP), agent keys and clients that carry them."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import jsonschema
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

CLI = Path(sys.executable).with_name("club-agentes")


class CallCount:
    """Counts the calls of one method of one object: the method is replaced on that object by one that counts
    (``calls``) and calls the original."""

    def __init__(self, obj: Any, name: str) -> None:
        self.calls = 0
        original = getattr(obj, name)

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls += 1
            return original(*args, **kwargs)

        setattr(obj, name, counted)


def server_command(db: Path | str, *extra: str, fault_point: str | None = None) -> list[str]:
    """Command line that starts the installed console script (the README installs it).

    ``db`` is a SQLite file or a ``postgresql://`` URL (its schema then comes from the environment).
    ``fault_point`` starts it through ``fault_server.py`` instead, which kills the process (SIGKILL) when a
    store write reaches that point (the crash tests).
    """
    assert CLI.exists(), f"the console script {CLI} is missing: install the package (pip install '.[test]')"
    if fault_point is not None:
        launcher = Path(__file__).with_name("fault_server.py")
        return [sys.executable, str(launcher), fault_point, "serve", "--db", str(db), *extra]
    return [str(CLI), "serve", "--db", str(db), *extra]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_http_server(
    db: Path | str, env: dict[str, str] | None = None, *extra: str, keys: bool = False, fault_point: str | None = None
) -> tuple[subprocess.Popen[bytes], str]:
    """Start ``club-agentes serve --http`` on a free loopback port; return the process and its URL.

    ``fault_point``: the process kills itself when a store write reaches it (see :func:`server_command`).

    Without ``keys`` the server runs ``--no-auth`` (every request acts as the local agent); with it,
    clients need agent keys (:func:`add_agent`, :func:`keyed_client`).
    """
    port = free_port()
    auth = () if keys else ("--no-auth",)
    proc = subprocess.Popen(
        server_command(
            db, "--http", "--host", "127.0.0.1", "--port", str(port), *auth, *extra, fault_point=fault_point
        ),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**os.environ, **(env or {})},
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited: {proc.stderr.read().decode()[-2000:] if proc.stderr else ''}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return proc, f"http://127.0.0.1:{port}/mcp"
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the HTTP server did not start within 30 s")


def add_agent(db: Path | str, name: str, env: dict[str, str] | None = None) -> str:
    """Create an agent in the store a server uses (as ``club-agentes agents add`` does); return its key."""
    from club_agentes.mcp_server.auth import AgentRegistry
    from club_agentes.mcp_server.store import Store

    store = Store(db, schema=(env or {}).get("CLUB_AGENTES_DB_SCHEMA"))
    try:
        _record, key = AgentRegistry(store).add(name)
    finally:
        store.close()
    return key


@contextlib.asynccontextmanager
async def keyed_client(url: str, key: str | None = None) -> AsyncIterator[Checked]:
    """A checked SDK client over streamable HTTP that sends ``Authorization: Bearer <key>`` (if a key is given)."""
    headers = {"Authorization": f"Bearer {key}"} if key is not None else None
    async with (
        create_mcp_http_client(headers=headers) as http,
        Client(streamable_http_client(url, http_client=http)) as client,
    ):
        yield await Checked(client).load()


def stop(proc: subprocess.Popen[bytes]) -> None:
    """End a server subprocess (politely, then for good)."""
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)


class ToolCallError(AssertionError):
    """A tool answered with isError."""


_VALIDATORS: dict[str, Any] = {}


def _checked_validator(schema: dict[str, Any]) -> Any:
    """Return a validator for ``schema``, checked against its metaschema once per test process.

    Checking a tool's schema against the metaschema costs ~25 ms of CPU; a test that opens 40 clients at once
    paid it 40 times per tool on its one event loop and starved its own connections (the server then rightly
    closed the ones whose request headers did not come within ``header_timeout_s``).

    Raises:
        jsonschema.SchemaError: the schema is not a valid JSON schema.
    """
    text = json.dumps(schema, sort_keys=True)
    validator = _VALIDATORS.get(text)
    if validator is None:
        cls = jsonschema.validators.validator_for(schema)
        cls.check_schema(schema)
        validator = _VALIDATORS[text] = cls(schema)
    return validator


class Checked:
    """Wraps an MCP ``Client``: every result is checked against the tool's advertised outputSchema.

    The schemas themselves are checked once (:meth:`load`); the SDK's client validates every result
    against them (and raises on a mismatch), so :meth:`call` does not validate a second time.
    """

    def __init__(self, client: Client) -> None:
        self.client = client
        self.schemas: dict[str, dict[str, Any]] = {}
        self.validators: dict[str, Any] = {}
        self.responses: list[str] = []

    async def load(self) -> Checked:
        tools = (await self.client.list_tools()).tools
        self.schemas = {t.name: t.output_schema for t in tools if t.output_schema}
        for name, schema in self.schemas.items():
            self.validators[name] = _checked_validator(schema)
        return self

    async def call(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        """Call a tool that must succeed; return its structuredContent (validated)."""
        r = await self.client.call_tool(name, args)
        text = " ".join(getattr(c, "text", "") for c in r.content)
        self.responses.append(json.dumps(r.structured_content, ensure_ascii=False) + text)
        if r.is_error:
            raise ToolCallError(f"{name}({args}) failed: {text}")
        assert r.structured_content is not None, f"{name} returned no structuredContent"
        # The SDK's client has validated it against the tool's outputSchema already (and raised if not).
        return r.structured_content

    async def error(self, name: str, args: dict[str, Any]) -> str:
        """Call a tool that must fail; return its one-sentence error text."""
        r = await self.client.call_tool(name, args)
        text = " ".join(getattr(c, "text", "") for c in r.content)
        self.responses.append(text)
        assert r.is_error, f"{name}({args}) should have failed but returned {r.structured_content}"
        assert "\n" not in text.strip() and "Traceback" not in text, text
        return text


def undescribed(schema: dict[str, Any], path: str = "$") -> list[str]:
    """Return the paths of object properties without a description in a JSON schema."""
    missing: list[str] = []
    defs = schema.get("$defs", {})

    def walk(node: Any, where: str) -> None:
        if isinstance(node, dict):
            if "$ref" in node:
                return
            for name, prop in node.get("properties", {}).items():
                target = prop
                if "$ref" in prop:
                    target = defs.get(prop["$ref"].split("/")[-1], {})
                if not (prop.get("description") or target.get("description")):
                    missing.append(f"{where}.{name}")
                walk(prop, f"{where}.{name}")
            for key in ("items", "anyOf", "oneOf", "allOf", "additionalProperties"):
                sub = node.get(key)
                if isinstance(sub, list):
                    for s in sub:
                        walk(s, where)
                elif isinstance(sub, dict):
                    walk(sub, where)

    walk(schema, path)
    for name, d in defs.items():
        walk(d, f"$defs.{name}")
    return missing

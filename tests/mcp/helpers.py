"""Test helpers: a client wrapper that validates every tool result against its advertised outputSchema."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import jsonschema
from mcp import Client

CLI = Path(sys.executable).with_name("club-agentes")


def server_command(db: Path, *extra: str) -> list[str]:
    """Command line that starts the installed console script (the README installs it)."""
    assert CLI.exists(), f"the console script {CLI} is missing: install the package (pip install '.[test]')"
    return [str(CLI), "serve", "--db", str(db), *extra]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_http_server(db: Path, env: dict[str, str] | None = None) -> tuple[subprocess.Popen[bytes], str]:
    """Start ``club-agentes serve --http`` on a free loopback port; return the process and its URL."""
    port = free_port()
    proc = subprocess.Popen(
        server_command(db, "--http", "--host", "127.0.0.1", "--port", str(port)),
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


class ToolCallError(AssertionError):
    """A tool answered with isError."""


class Checked:
    """Wraps an MCP ``Client``: every result is checked against the tool's advertised outputSchema."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.schemas: dict[str, dict[str, Any]] = {}
        self.validators: dict[str, Any] = {}
        self.responses: list[str] = []

    async def load(self) -> Checked:
        tools = (await self.client.list_tools()).tools
        self.schemas = {t.name: t.output_schema for t in tools if t.output_schema}
        for name, schema in self.schemas.items():
            cls = jsonschema.validators.validator_for(schema)
            cls.check_schema(schema)
            self.validators[name] = cls(schema)
        return self

    async def call(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        """Call a tool that must succeed; return its structuredContent (validated)."""
        r = await self.client.call_tool(name, args)
        text = " ".join(getattr(c, "text", "") for c in r.content)
        self.responses.append(json.dumps(r.structured_content, ensure_ascii=False) + text)
        if r.is_error:
            raise ToolCallError(f"{name}({args}) failed: {text}")
        assert r.structured_content is not None, f"{name} returned no structuredContent"
        self.validators[name].validate(r.structured_content)
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

"""Test helpers for the server's edge: a real uvicorn server on loopback in a thread (or a subprocess),
and SDK clients that carry an agent key."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import threading
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import uvicorn
from club_agentes.mcp_server.app import ClubApp, build_app
from club_agentes.mcp_server.http import build_http_app
from club_agentes.mcp_server.settings import load_settings
from club_agentes.mcp_server.store import Store
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from tests.mcp.helpers import Checked, free_port, server_command


@contextlib.contextmanager
def http_club(db: Path | Store, **settings: Any) -> Iterator[tuple[ClubApp, str]]:
    """Serve a club over HTTP with uvicorn (uvloop, httptools) on a free loopback port, in a thread.

    ``db`` is a SQLite path or an open store (closed when the server stops).

    ``settings`` are :class:`~club_agentes.mcp_server.settings.ServerSettings` fields (``http`` is on and
    ``host``/``port`` are set here). Yields the app (its services and store) and the ``/mcp`` URL.
    """
    port = free_port()
    host = settings.pop("host", "127.0.0.1")
    chosen = load_settings({}, env={}, http=True, host=host, port=port, **settings)
    app = build_app(db if isinstance(db, Store) else Store(db), settings=chosen)
    config = uvicorn.Config(
        build_http_app(app, chosen),
        host=host,
        port=port,
        loop="uvloop",
        http="httptools",
        log_level="warning",
        proxy_headers=False,  # as serve_http: X-Forwarded-For is read by the app, from trusted proxies only
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the HTTP server did not start")
        time.sleep(0.02)
    try:
        yield app, f"http://127.0.0.1:{port}/mcp"
    finally:
        server.should_exit = True
        thread.join(15)
        app.store.close()


@contextlib.asynccontextmanager
async def keyed_client(url: str, key: str | None, **client: Any) -> AsyncIterator[Checked]:
    """An SDK client that sends ``Authorization: Bearer <key>`` (no header when ``key`` is ``None``)."""
    headers = {"Authorization": f"Bearer {key}"} if key is not None else None
    async with (
        create_mcp_http_client(headers=headers) as http,
        Client(streamable_http_client(url, http_client=http), **client) as c,
    ):
        yield await Checked(c).load()


@contextlib.contextmanager
def http_subprocess(db: Path, *args: str, env: dict[str, str] | None = None) -> Iterator[tuple[str, int]]:
    """Run ``club-agentes serve --http ARGS`` in a subprocess on a free port; yield (host to dial, port)."""
    port = free_port()
    proc = subprocess.Popen(
        server_command(db, "--http", "--port", str(port), *args),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**os.environ, **(env or {})},
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"server exited: {proc.stderr.read().decode()[-2000:] if proc.stderr else ''}")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError("the HTTP server did not start within 30 s") from None
                time.sleep(0.1)
        yield "127.0.0.1", port
    finally:
        proc.terminate()
        proc.wait(10)

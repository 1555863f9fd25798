"""``--streaming`` sessions (legacy protocol, uvicorn on loopback): idle sessions expire, the per-agent cap
counts live sessions only and is held in memory per worker, a client that never sends ``DELETE`` is never
locked out, and SSE streams open with a priming event carrying ``retry`` (resumable with ``Last-Event-ID``).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path

import anyio
import httpx2
import pytest
from club_agentes.mcp_server.event_store import RETRY_MS, MemoryEventStore
from club_agentes.mcp_server.http import LegacySessionCap
from club_agentes.mcp_server.limits import LimitSettings
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

from tests.mcp.edge import http_club

pytestmark = pytest.mark.anyio

MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
VERSION = HANDSHAKE_PROTOCOL_VERSIONS[-1]


def body(n: int, method: str, params: dict | None = None) -> bytes:
    message: dict = {"jsonrpc": "2.0", "method": method, **({"params": params} if params is not None else {})}
    if n:
        message["id"] = n
    return json.dumps(message).encode()


def sse_messages(text: str) -> list[dict]:
    """The JSON-RPC messages of an SSE body (the data lines that hold JSON)."""
    out = []
    for line in text.splitlines():
        if line.startswith("data: ") and line[6:].strip():
            out.append(json.loads(line[6:]))
    return out


async def open_session(http: httpx2.AsyncClient, url: str, headers: dict[str, str]) -> str:
    """Initialize a session and finish the handshake (never DELETE it); return its id."""
    hello = {"protocolVersion": VERSION, "capabilities": {}, "clientInfo": {"name": "no-delete", "version": "1"}}
    r = await http.post(url, content=body(1, "initialize", hello), headers=headers)
    assert r.status_code == 200, r.text
    sid = r.headers["mcp-session-id"]
    session = {**headers, "mcp-session-id": sid, "mcp-protocol-version": VERSION}
    assert (await http.post(url, content=body(0, "notifications/initialized"), headers=session)).status_code == 202
    return sid


async def call(
    http: httpx2.AsyncClient, url: str, headers: dict[str, str], sid: str, n: int = 2, version: str = VERSION
) -> httpx2.Response:
    session = {**headers, "mcp-session-id": sid, "mcp-protocol-version": version}
    return await http.post(url, content=body(n, "tools/call", {"name": "list_games", "arguments": {}}), headers=session)


async def test_fifty_clients_that_never_delete_are_never_locked_out(tmp_path: Path) -> None:
    with http_club(tmp_path / "db", streaming=True) as (app, url):
        _, key = app.agents.add("inspector-cli")
        headers = dict(MCP_HEADERS, Authorization=f"Bearer {key}")
        sessions = []
        async with httpx2.AsyncClient(timeout=30) as http:
            for _ in range(50):  # each a new connection, as fifty Inspector CLI runs would be
                async with httpx2.AsyncClient(timeout=30) as one:
                    sid = await open_session(one, url, headers)
                    r = await call(one, url, headers, sid)
                    assert r.status_code == 200
                    (answer,) = [m for m in sse_messages(r.text) if m.get("id") == 2]
                    assert len(answer["result"]["structuredContent"]["games"]) == 3
                sessions.append(sid)
            # The agent holds at most its cap; the oldest idle sessions made room and now answer 404.
            cap = LimitSettings().legacy_sessions
            assert cap is not None
            held = [sid for sid in sessions if sid in app.server.session_manager._server_instances]
            assert held == sessions[-cap:]
            assert (await call(http, url, headers, sessions[0])).status_code == 404
            assert (await call(http, url, headers, sessions[-1])).status_code == 200


@contextlib.asynccontextmanager
async def open_stream(http: httpx2.AsyncClient, url: str, headers: dict[str, str], sid: str) -> AsyncIterator[None]:
    """Hold the session's standalone GET stream open (the session is live meanwhile)."""
    session = {**headers, "mcp-session-id": sid, "mcp-protocol-version": VERSION, "Accept": "text/event-stream"}
    async with http.stream("GET", url, headers=session) as r:
        assert r.status_code == 200
        yield


async def test_only_live_sessions_can_fill_the_cap(tmp_path: Path) -> None:
    limits = LimitSettings.parse("legacy_sessions=3")
    with http_club(tmp_path / "db", streaming=True, limits=limits) as (app, url):
        _, key = app.agents.add("busy")
        _, other = app.agents.add("other")
        headers = dict(MCP_HEADERS, Authorization=f"Bearer {key}")
        async with httpx2.AsyncClient(timeout=30) as http, contextlib.AsyncExitStack() as streams:
            live = [await open_session(http, url, headers) for _ in range(3)]
            for sid in live:
                await streams.enter_async_context(open_stream(http, url, headers, sid))
            hello = {"protocolVersion": VERSION, "capabilities": {}, "clientInfo": {"name": "x", "version": "1"}}
            refused = await http.post(url, content=body(1, "initialize", hello), headers=headers)
            assert refused.status_code == 429 and refused.headers["retry-after"] == "5"
            assert refused.text.startswith("This agent (or address) has 3 sessions with a request in progress")
            # Another agent is not affected, and the live sessions still work.
            assert await open_session(http, url, dict(MCP_HEADERS, Authorization=f"Bearer {other}"))
            assert (await call(http, url, headers, live[0])).status_code == 200
        # Their streams closed: the three are idle, and a new session makes room by closing one of them
        # (the least recently used: live[2], whose stream closed first).
        async with httpx2.AsyncClient(timeout=30) as http:
            await anyio.sleep(0.2)
            fresh = await open_session(http, url, headers)
            assert (await call(http, url, headers, fresh)).status_code == 200
            assert [(await call(http, url, headers, sid)).status_code for sid in live] == [200, 200, 404]


async def test_idle_sessions_expire(tmp_path: Path) -> None:
    limits = LimitSettings.parse("legacy_idle_s=1")
    with http_club(tmp_path / "db", streaming=True, limits=limits) as (app, url):
        _, key = app.agents.add("sleepy")
        headers = dict(MCP_HEADERS, Authorization=f"Bearer {key}")
        async with httpx2.AsyncClient(timeout=30) as http:
            sid = await open_session(http, url, headers)
            assert (await call(http, url, headers, sid)).status_code == 200
            with anyio.fail_after(20):
                while sid in app.server.session_manager._server_instances:
                    await anyio.sleep(0.2)
            assert (await call(http, url, headers, sid)).status_code == 404


def test_the_cap_is_held_in_memory_and_counts_live_sessions() -> None:
    now = [0.0]
    cap = LegacySessionCap(2, idle_s=600, clock=lambda: now[0])
    assert cap.admit("a") == (True, None)
    cap.opened("a", "s1")
    cap.opened("a", "s2")  # both opening requests still in flight: live
    assert cap.admit("a") == (False, None) and cap.live_count("a") == 2
    now[0] = 5
    cap.ended("s1")
    now[0] = 6
    cap.ended("s2")
    assert cap.admit("a") == (True, "s1")  # the least recently used idle session makes room
    assert cap.open_count("a") == 1 and cap.admit("b") == (True, None)
    now[0] = 700
    assert cap.open_count("a") == 0  # idle past idle_s: expired
    assert LegacySessionCap(2, idle_s=600).open_count("a") == 0  # a new worker (a restart) holds nothing


async def test_sse_streams_open_with_a_priming_event_and_retry(tmp_path: Path) -> None:
    with http_club(tmp_path / "db", streaming=True) as (app, url):
        _, key = app.agents.add("poller")
        headers = dict(MCP_HEADERS, Authorization=f"Bearer {key}")
        async with httpx2.AsyncClient(timeout=30) as http:
            sid = await open_session(http, url, headers)
            answers = [await call(http, url, headers, sid)]
            # A request whose header names an older version than the session negotiated is served at the
            # session's version (the conformance suite sends 2025-03-26 on a 2025-11-25 session).
            answers.append(await call(http, url, headers, sid, n=3, version="2025-03-26"))
        for n, r in enumerate(answers, start=2):
            events = r.text.replace("\r\n", "\n").split("\n\n")
            first = dict(line.split(": ", 1) for line in events[0].splitlines() if ": " in line)
            assert first["retry"] == str(RETRY_MS) and first["id"] and first.get("data", "") == ""
            assert [m["id"] for m in sse_messages(r.text)] == [n]


async def test_the_event_store_replays_a_stream_after_an_event_and_stays_bounded() -> None:
    store = MemoryEventStore(max_events=5, per_stream=3)
    prime = await store.store_event("s", None)
    ids = [await store.store_event("s", {"jsonrpc": "2.0", "method": f"m{i}"}) for i in range(2)]  # type: ignore[arg-type]
    got: list[str] = []

    async def send(event) -> None:  # type: ignore[no-untyped-def]
        got.append(event.event_id)

    assert await store.replay_events_after(prime, send) == "s" and got == ids
    for i in range(10):
        await store.store_event(f"t{i % 2}", None)
    assert store.count <= 5
    assert await store.replay_events_after(prime, send) is None  # dropped: nothing to replay

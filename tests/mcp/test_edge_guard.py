"""The HTTP edge's guards (issue 23, points 3 and 6): bodies over the limit get 413, keyless floods from one address
get 429, open streams are capped per agent key and per address, a connection that trickles its headers is closed,
an empty Host is refused like a foreign one, and spectator pages carry their security headers. Nothing here
asserts on time: statuses, headers and counts."""

from __future__ import annotations

import json
import socket
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from club_agentes.mcp_server.app import ClubApp
from club_agentes.mcp_server.guard import SPECTATOR_CSP, EdgeGuard, RateBuckets, StreamCounts
from club_agentes.mcp_server.http import build_http_app
from club_agentes.mcp_server.limits import LimitSettings, LimitsSyntaxError
from club_agentes.mcp_server.store import Store
from starlette.responses import PlainTextResponse

from tests.clubhouse.helpers import clubhouse_app
from tests.mcp.edge import http_club
from tests.mcp.helpers import add_agent, start_http_server, stop

pytestmark = pytest.mark.anyio

BASE = "http://127.0.0.1:8000"
INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
}
MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def edge(tmp_path: Path, limits: LimitSettings) -> tuple[ClubApp, httpx.AsyncClient]:
    app, _ = clubhouse_app(Store(tmp_path / "club.sqlite3"), http=True, no_auth=True, limits=limits)
    web = build_http_app(app, app.settings)
    return app, httpx.AsyncClient(transport=httpx.ASGITransport(app=web), base_url=BASE, timeout=60)


@pytest.fixture
async def client(tmp_path: Path) -> AsyncIterator[httpx.AsyncClient]:
    app, c = await edge(tmp_path, LimitSettings(public_per_minute=5))
    async with c:
        yield c
    await app.tables.aclose()
    app.store.close()


def test_the_new_limits_parse_and_keep_their_ranges() -> None:
    limits = LimitSettings.parse("body_bytes=2048,streams=2,public_per_minute=none,replay_cache_mb=8")
    assert (limits.body_bytes, limits.streams, limits.public_per_minute, limits.replay_cache_mb) == (2048, 2, None, 8)
    assert LimitSettings().body_bytes == 1_048_576 and LimitSettings().replay_cache_mb == 64
    with pytest.raises(LimitsSyntaxError, match="header_timeout_s needs a number of seconds"):
        LimitSettings.parse("header_timeout_s=none")


def test_buckets_and_stream_counts() -> None:
    now = [0.0]
    buckets = RateBuckets(600, clock=lambda: now[0])
    assert buckets.burst == 60  # a full bucket holds a tenth of the minute's requests
    assert all(buckets.take("a") == 0 for _ in range(60))
    assert buckets.take("a") > 0 and buckets.take("b") == 0  # one address's flood leaves another served
    now[0] += 0.1  # ten requests a second come back: one in a tenth of a second
    assert buckets.take("a") == 0 and buckets.take("a") > 0
    streams = StreamCounts()
    keys: list[tuple[str, int | None]] = [("addr:x", 2), ("key:k", 1)]
    assert streams.open(keys) is None and streams.open(keys) == "key:k"
    assert streams.count("addr:x") == 1  # a refused stream counts nowhere
    streams.close(keys)
    assert streams.count("addr:x") == 0 and streams.open(keys) is None


async def test_bodies_over_the_limit_get_413_and_reach_no_tool(tmp_path: Path) -> None:
    with http_club(tmp_path / "club.sqlite3", no_auth=True, limits=LimitSettings(body_bytes=4096)) as (_, url):
        async with httpx.AsyncClient(timeout=60) as c:
            big = {**INIT, "params": {**INIT["params"], "pad": "x" * 5000}}
            r = await c.post(url, json=big, headers=MCP_HEADERS)
            assert r.status_code == 413 and "larger than 4096 bytes" in r.text and "Traceback" not in r.text

            async def chunks() -> AsyncIterator[bytes]:  # no Content-Length: counted while read
                for _ in range(10):
                    yield b" " * 1000

            r = await c.post(url, content=chunks(), headers=MCP_HEADERS)
            assert r.status_code == 413 and "larger than 4096 bytes" in r.text
            r = await c.post(url, json=INIT, headers=MCP_HEADERS)  # a body below the limit is served
            assert r.status_code == 200 and "protocolVersion" in r.text


async def test_keyless_requests_are_rate_limited_per_address(client: httpx.AsyncClient) -> None:
    codes = [(await client.get("/leaderboard/se-vende?lang=en")).status_code for _ in range(8)]
    assert codes[:5] == [200] * 5 and codes[5:] == [429] * 3
    r = await client.get("/?lang=en")
    assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1 and "without an agent key" in r.text
    # A made-up Authorization header buys nothing outside /mcp, where no key is checked.
    r = await client.get("/?lang=en", headers={"Authorization": "Bearer made-up"})
    assert r.status_code == 429
    other = httpx.AsyncClient(transport=httpx.ASGITransport(app=client._transport.app, client=("10.0.0.2", 1)))  # type: ignore[attr-defined]
    async with other:
        assert (await other.get(f"{BASE}/?lang=en")).status_code == 200  # another address is served


async def test_keyless_mcp_requests_count_only_where_keys_are_required() -> None:
    async def ok(scope: Any, receive: Any, send: Any) -> None:
        await PlainTextResponse("ok")(scope, receive, send)

    for keys_required, expected in ((False, [200, 200, 200]), (True, [200, 429, 429])):
        guard = EdgeGuard(ok, LimitSettings(public_per_minute=1), keys_required=keys_required)
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=guard), base_url=BASE) as c:
            codes = [(await c.post("/mcp", content=b"{}")).status_code for _ in range(3)]
            assert codes == expected, keys_required
            keyed = await c.post("/mcp", headers={"Authorization": "Bearer k"})
            assert keyed.status_code == 200  # a key is not counted here: /mcp checks it


async def test_spectator_pages_send_csp_nosniff_and_deny_framing_and_an_empty_host_is_refused(
    tmp_path: Path,
) -> None:
    with http_club(tmp_path / "club.sqlite3", no_auth=True) as (_, url):
        base = url.rsplit("/", 1)[0]
        async with httpx.AsyncClient(timeout=60) as c:
            for path in ("/?lang=en", "/leaderboard/se-vende", "/static/draw.js", "/tables/t-000000000000"):
                r = await c.get(base + path)
                assert r.headers["content-security-policy"] == SPECTATOR_CSP, path
                assert r.headers["x-content-type-options"] == "nosniff" and r.headers["x-frame-options"] == "DENY"
            assert "http" not in SPECTATOR_CSP and "*" not in SPECTATOR_CSP  # no other origin
            r = await c.post(url, json=INIT, headers=MCP_HEADERS)
            assert r.status_code == 200 and "content-security-policy" not in r.headers
        port = int(base.rsplit(":", 1)[1])
        for host in ("", " "):
            for request in (f"GET / HTTP/1.1\r\nHost:{host}\r\n\r\n", f"GET /mcp HTTP/1.1\r\nHost:{host}\r\n\r\n"):
                with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
                    s.sendall(request.encode())
                    status = s.recv(64).split()[1]
                assert status == b"421", (host, request)
        async with httpx.AsyncClient(timeout=60) as c:
            r = await c.get(base + "/?lang=en", headers={"Host": "evil.example"})
            assert r.status_code == 421


def _open_stream(port: int, path: str, headers: dict[str, str]) -> tuple[socket.socket, int]:
    """Open a GET stream on a raw socket; return the socket (kept open) and its status code."""
    s = socket.create_connection(("127.0.0.1", port), timeout=30)
    lines = [f"GET {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", *(f"{k}: {v}" for k, v in headers.items())]
    s.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
    head = b""
    while b"\r\n" not in head:
        chunk = s.recv(1)
        if not chunk:
            break
        head += chunk
    return s, int(head.split()[1])


async def test_streams_are_capped_per_key_and_per_address_and_slow_headers_are_closed(tmp_path: Path) -> None:
    db = tmp_path / "club.sqlite3"
    key = add_agent(db, "alice")
    other = add_agent(db, "bob")
    limits = "streams=2,streams_per_address=3,header_timeout_s=1,public_per_minute=none"
    proc, url = start_http_server(db, None, "--limits", limits, keys=True)
    port = int(url.rsplit(":", 1)[1].split("/")[0])
    held: list[socket.socket] = []
    try:
        sse = {"Accept": "text/event-stream"}
        codes = []
        for k in (key, key, key):
            s, code = _open_stream(port, "/mcp", {**sse, "Authorization": f"Bearer {k}"})
            held.append(s)
            codes.append(code)
        assert codes[2] == 429 and 429 not in codes[:2], codes  # the third stream of one key
        s, code = _open_stream(port, "/mcp", {**sse, "Authorization": f"Bearer {other}"})
        held.append(s)
        assert code != 429  # another key from the same address: the address has room for one more
        s, code = _open_stream(port, "/lobby/stream", sse)
        held.append(s)
        assert code == 429  # ...and now the address is at its cap, spectator streams included
        for s in held:
            s.close()
        held.clear()
        # A connection that sends part of its headers and then nothing is closed by the server.
        slow = socket.create_connection(("127.0.0.1", port), timeout=30)
        held.append(slow)
        slow.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        try:
            closed = slow.recv(1024) == b""
        except ConnectionResetError:
            closed = True
        assert closed
        # A spectator stream opens again once the others are closed.
        s, code = _open_stream(port, "/lobby/stream", sse)
        held.append(s)
        assert code == 200
    finally:
        for s in held:
            s.close()
        stop(proc)


async def test_request_bodies_are_rate_limited_per_agent_key(tmp_path: Path) -> None:
    db = tmp_path / "club.sqlite3"
    key = add_agent(db, "alice")
    other = add_agent(db, "bob")
    proc, url = start_http_server(db, None, "--limits", "body_bytes=4096", keys=True)
    try:
        async with httpx.AsyncClient(timeout=60) as c:

            def near(k: str) -> dict[str, Any]:
                body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call"}
                body["params"] = {"name": "search_rules", "arguments": {"query": "x" * 3900}}
                return {"content": json.dumps(body), "headers": {**MCP_HEADERS, "Authorization": f"Bearer {k}"}}

            codes = [(await c.post(url, **near(key))).status_code for _ in range(10)]
            assert codes[:8] == [200] * 8 and codes[9] == 429, codes  # 8 largest bodies at once, then a minute's pace
            r = await c.post(url, **near(key))
            assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1
            assert "64 KiB of request bodies in a minute; retry after" in r.text and r.text.count(". ") <= 1
            assert (await c.post(url, **near(other))).status_code == 200  # another agent's budget is its own
    finally:
        stop(proc)

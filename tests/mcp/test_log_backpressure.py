"""A server whose stderr nobody reads keeps answering: log lines never block the event loop.

Found by benchmarks/attack.py (issue 23, point 3): the benchmark's server had its stderr on a pipe nobody read;
once 64 KB of log lines had piled up, the next ``logging`` write blocked the event loop's thread in
``StreamHandler.emit`` and the server stopped answering everyone, for good.
"""

from __future__ import annotations

import json
from pathlib import Path

import httpx

from tests.mcp.helpers import start_http_server, stop

PROTOCOL = "2025-06-18"


def test_unread_stderr_does_not_stall_the_server(tmp_path: Path) -> None:
    # start_http_server puts the server's stderr on a pipe it never reads: after 64 KB the pipe stays full.
    proc, url = start_http_server(tmp_path / "s.sqlite3", None, "--log-level", "DEBUG")
    headers = {
        "Accept": "application/json, text/event-stream",
        "Content-Type": "application/json",
        "Mcp-Protocol-Version": PROTOCOL,
    }
    try:
        with httpx.Client(timeout=20) as http:
            # Each refused search logs a line at INFO, and DEBUG adds more per request: far more than a pipe holds.
            for n in range(600):
                body = {
                    "jsonrpc": "2.0",
                    "id": n,
                    "method": "tools/call",
                    "params": {"name": "search_rules", "arguments": {"query": "x" * 2000}},
                }
                r = http.post(url, content=json.dumps(body), headers=headers)
                assert r.status_code == 200, r.text[:300]
                assert b'"isError":true' in r.content, r.text[:300]
    finally:
        stop(proc)

"""The per-call floor: instructions a server spends on one tool call that does (almost) nothing.

Run: ``python benchmarks/floor.py [--calls 300]`` (needs valgrind).

It runs each server below under valgrind's callgrind, one at a time, with instrumentation on only while
one client session makes ``--calls`` calls over streamable HTTP on loopback, and prints the server's
instructions per call:

* ``sdk noop`` and ``sdk anoop``: a bare ``MCPServer`` with two tools that return a short string, served the
  way ``club-agentes serve --http`` serves (``json_response``, ``stateless_http``, uvicorn with uvloop and
  httptools): the SDK's own floor, which nothing of ours can lower. ``noop`` is a plain function, which the
  SDK runs in a worker thread (the hand-off costs instructions of its own); ``anoop`` is a coroutine, as
  every tool of ours is, so it is the floor ours are compared with;
* ``ours list_games``: ``club-agentes serve --http`` with agent keys, calling ``list_games`` (a cached
  answer): the SDK plus every layer of ours a call goes through (edge guard, key check, limits, metrics,
  identity, budgets, the compact answer);
* ``ours get_view``: the same server reading a seat's view of a Market Fortune table against a bot (the
  table does not change between calls, so the view is the cached one).

The difference between ``sdk anoop`` and ``ours list_games`` is what our stack adds to every call; issue 26's
target (2.5M instructions per agent move) is to be read against these figures.
"""

from __future__ import annotations

import argparse
import asyncio
import subprocess
import sys
import tempfile
from contextlib import AsyncExitStack
from pathlib import Path

_HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(_HERE))
import scale  # noqa: E402

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]


def bare_server(port: int) -> None:
    """Serve a bare ``MCPServer`` with tools ``noop`` (a function) and ``anoop`` (a coroutine) on ``port`` until
    terminated."""
    import uvicorn
    from mcp.server import MCPServer

    server = MCPServer("floor")

    @server.tool()
    def noop(x: int = 0) -> str:
        """Return a short string (a floor measurement)."""
        return f"ok {x}"

    @server.tool()
    async def anoop(x: int = 0) -> str:
        """Return a short string, as a coroutine (every tool of ours is one: no worker-thread hand-off)."""
        return f"ok {x}"

    app = server.streamable_http_app(json_response=True, stateless_http=True)
    uvicorn.run(app, host="127.0.0.1", port=port, loop="uvloop", http="httptools", log_level="warning", lifespan="on")


def start_bare(out: str) -> tuple[subprocess.Popen[bytes], str]:
    """Start the bare server under callgrind (instrumentation off); return it and its URL.

    Raises:
        RuntimeError: it did not start.
    """
    port = scale.free_port()
    cmd = [
        "valgrind",
        "--tool=callgrind",
        "--instr-atstart=no",
        f"--callgrind-out-file={out}",
        sys.executable,
        str(Path(__file__).resolve()),
        "--bare-server",
        str(port),
    ]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return proc, scale.wait_listening(proc, port, 600)


async def measure_calls(proc: subprocess.Popen[bytes], url: str, key: str | None, calls: list[tuple[str, dict]]) -> int:
    """Make ``calls`` (after one warm-up round) with instrumentation on; return the number made."""
    async with AsyncExitStack() as stack:
        s = scale.Session(url, key)
        await scale.enter(stack, s)
        for name, args in calls[:3]:
            await s.call(name, args)
        scale.callgrind_on(proc.pid)
        for name, args in calls:
            await s.call(name, args)
    return len(calls)


def stop(proc: subprocess.Popen[bytes]) -> None:
    """Terminate a server and wait for callgrind to write its file."""
    proc.terminate()
    proc.wait(600)


def run_sdk(tmp: str, n: int) -> dict[str, float]:
    """Return instructions per call of the bare SDK server's ``noop`` (a plain function, which the SDK runs in a
    worker thread) and ``anoop`` (a coroutine, as every tool of ours is)."""
    figures: dict[str, float] = {}
    for tool in ("noop", "anoop"):
        out = str(Path(tmp) / f"sdk-{tool}.out")
        proc, url = start_bare(out)
        try:
            made = asyncio.run(measure_calls(proc, url, None, [(tool, {"x": i}) for i in range(n)]))
        finally:
            stop(proc)
        figures[tool] = scale.callgrind_total(out) / made
    return figures


async def table_for(url: str, key: str) -> tuple[str, str]:
    """Create a Market Fortune table against a random bot and sit at it; return (table id, seat token)."""
    async with AsyncExitStack() as stack:
        s = scale.Session(url, key)
        await scale.enter(stack, s)
        t = await s.call(
            "create_table",
            {
                "game": "market-fortune",
                "seats": ["agent", "bot:random"],
                "options": {"mode": "fortuna", "require_club_pass": False},
                "seed": 7,
            },
        )
        j = await s.call("join_table", {"table_id": t["table_id"]})
        return t["table_id"], j["seat_token"]


def run_ours(tmp: str, n: int) -> dict[str, float]:
    """Return instructions per call of our server for ``list_games`` and ``get_view``."""
    figures: dict[str, float] = {}
    store = scale.make_store("sqlite", tmp, None)
    key = scale.add_agent(store, "floor")
    for label in ("list_games", "get_view"):
        out = str(Path(tmp) / f"ours-{label}.%p.out")  # a lane the worker starts writes a file of its own
        proc, url = scale.start_worker(store, True, out)
        try:
            if label == "list_games":
                calls: list[tuple[str, dict]] = [("list_games", {})] * n
            else:
                table, token = asyncio.run(table_for(url, key))
                calls = [("get_view", {"table_id": table, "seat_token": token})] * n
            made = asyncio.run(measure_calls(proc, url, key, calls))
        finally:
            stop(proc)
        figures[label] = scale.callgrind_total(out.replace("%p", str(proc.pid))) / made  # the worker's own
    return figures


def main() -> None:
    """Print the figures."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--calls", type=int, default=300, help="calls measured per server")
    ap.add_argument("--cli", help="the club-agentes executable to measure (default: this Python's)")
    ap.add_argument("--no-sdk", action="store_true", help="skip the bare SDK server")
    ap.add_argument("--bare-server", type=int, metavar="PORT", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.cli:
        scale.CLI = Path(args.cli)
    if args.bare_server:
        bare_server(args.bare_server)
        return
    with tempfile.TemporaryDirectory() as tmp:
        bare = {} if args.no_sdk else run_sdk(tmp, args.calls)
        for tool, v in bare.items():
            print(f"{'sdk ' + tool:<22} {v:>12,.0f} instructions/call")
        sdk = bare.get("anoop")
        for label, v in run_ours(tmp, args.calls).items():
            ratio = f"  ({v / sdk:.2f}x the SDK's async floor)" if sdk else ""
            print(f"{'ours ' + label:<22} {v:>12,.0f} instructions/call{ratio}")


if __name__ == "__main__":
    main()

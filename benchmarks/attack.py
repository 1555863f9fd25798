"""Attacks on a real server: another client's get_view p99 under each, as a ratio to idle (issue 23, point 3).

Run: ``python benchmarks/attack.py [--long 3] [--samples 300] [--clients 4] [--only words] [--profile DIR]``.

Starts ``club-agentes serve --http`` (SQLite, agent keys; its stderr is read into a file, as a log collector
would) and has bots play a few long finished games (Market Fortune campeonato, six random bots, every limit
of the option ranges at its maximum: the longest table the ranges allow; their lengths are printed). A victim
agent sits at its own Se Vende table and calls ``get_view`` in a loop (a 5 ms pause between calls); its p99 is
measured idle just before each attack and then under it, in the same run, and the ratio of the two printed.

Each attack runs in a process of its own (so that its CPU is not the victim client's), from one address,
with ``--clients`` connections (4), each a raw keep-alive HTTP/1.1 connection that sends its next request as
soon as the last is answered (bounded concurrency, as a real attacker's script; no pause). Where a key is
used, connection ``k`` uses attacker ``k``'s agent key. The attacks:

* ``replay page``: ``GET /tables/{id}/replay?step=N`` of the long games at random steps (no key);
* ``replay step``: ``GET /tables/{id}/replay/N`` (the step JSON) at random steps (no key);
* ``game_log paging``: ``game_log`` of the long (finished: full) games, 500 moves a page, from random places;
* ``near-limit bodies``: POSTs to ``/mcp`` of ``search_rules`` with a query just under the body limit (1 MB;
  a larger body gets 413, see tests/mcp/test_edge_guard.py);
* ``bad 500-char moves``: ``play_move`` of 500 random printable characters at the attacker's own live table;
* ``500 GET /mcp streams``: 500 ``GET /mcp`` streams opened one after the other and held (the four keys;
  per-key and per-address caps: most get 429);
* ``300 held spectator streams``: 300 ``/tables/{id}/stream`` event streams of the attackers' live tables
  opened and held, never read (per-address cap: most get 429);
* ``spectator reconnects``: event streams of the finished long games opened again as soon as they end
  (each sends the final position and ``end``), keyless, so under the per-address rate limit;
* ``search_rules flood``: ``search_rules`` of three random rule words.

The server runs with its default edge limits (only the table and practice limits are lifted so the
attackers can play): keyless floods from one address are mostly answered 429 by the per-address rate
limit (each attack prints how its requests were answered). A second server over the same store runs
without that rate limit (``public_per_minute=none``), to measure the keyless floods against the work
bounds alone, and then the server's memory (RSS) before and after replaying the two longest games (their
replay pages and 500 steps of each, spread over the whole game). Targets: every ratio at most 2, memory
growth below +100 MB. With ``--profile DIR`` the server's stacks under each attack are recorded there
(py-spy ``record --format raw``: ``pip install py-spy``; its sampling costs some CPU, so the ratios of a
profiled run are not the figures). Needs the package installed (the ``club-agentes`` script next to
this Python).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import signal
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

# This file's folder holds scripts named like packages: drop it from the path, put the repository first.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

import httpx  # noqa: E402

from tests.mcp.helpers import add_agent, start_http_server, stop  # noqa: E402

PROTOCOL = "2025-06-18"
OWN_TABLE = {"game": "se-vende", "seats": ["agent", "bot:heuristic"], "options": {"require_club_pass": False}}
"""The victim's table (and each attacker's, for the bad moves)."""
LIMITS = "open_tables=none,tables_per_hour=none,long_polls=none,practice_per_hour=none"


def drain(proc: Any, path: Path) -> None:
    """Copy a server's stderr to ``path`` in a thread (an unread pipe would fill up: a log collector reads it)."""

    def run() -> None:
        with path.open("wb") as out:
            for line in proc.stderr:
                out.write(line)

    threading.Thread(target=run, daemon=True).start()


def pct(values: list[float], p: float) -> float:
    """Return the p-th percentile (0-100) of ``values``."""
    s = sorted(values)
    return s[min(len(s) - 1, round(p / 100 * (len(s) - 1)))]


def rss_mb(pid: int) -> float:
    """Return a process's resident memory in MB (from /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def worst_options() -> dict[str, Any]:
    """Market Fortune's longest table: campeonato with every limit at the maximum of its range."""
    from club_agentes.engine.core import get_game

    props = get_game("market-fortune").config_schema()["properties"]
    return {"mode": "campeonato", **{k: v["maximum"] for k, v in props.items() if k.endswith("limit")}}


class Rpc:
    """Raw JSON-RPC tool calls over stateless HTTP with an agent key (light on the client's CPU)."""

    def __init__(self, http: httpx.AsyncClient, url: str, key: str) -> None:
        self.http, self.url = http, url
        self.headers = {
            "Authorization": f"Bearer {key}",
            "Accept": "application/json, text/event-stream",
            "Content-Type": "application/json",
            "Mcp-Protocol-Version": PROTOCOL,
        }
        self.n = 0

    async def call(self, tool: str, args: dict[str, Any]) -> dict[str, Any]:
        """Call a tool; return its structured result (or ``{"error": text}``)."""
        self.n += 1
        body = {"jsonrpc": "2.0", "id": self.n, "method": "tools/call", "params": {"name": tool, "arguments": args}}
        r = await self.http.post(self.url, json=body, headers=self.headers)
        data = r.json()
        result = data.get("result") or {}
        if result.get("isError") or "error" in data:
            return {"error": json.dumps(data)[:300]}
        return result.get("structuredContent") or {}

    async def status(self, tool: str, args: dict[str, Any]) -> int:
        """Call a tool without decoding its answer (an attacker's loop must not weigh on the victim's client):
        return 200, or 400 for an error or a refusal."""
        self.n += 1
        body = {"jsonrpc": "2.0", "id": self.n, "method": "tools/call", "params": {"name": tool, "arguments": args}}
        r = await self.http.post(self.url, json=body, headers=self.headers)
        refused = b'"isError":true' in r.content or b'"error":' in r.content[:200] or b'"accepted":false' in r.content
        return 400 if r.status_code != 200 or refused else 200


async def long_games(rpc: Rpc, count: int) -> list[tuple[str, int]]:
    """Create ``count`` long bots-only tables, wait until they finish; return ``(table_id, moves)`` longest first."""
    ids = []
    for _ in range(count):
        t = await rpc.call(
            "create_table", {"game": "market-fortune", "seats": ["bot:random"] * 6, "options": worst_options()}
        )
        assert "table_id" in t, t
        ids.append(t["table_id"])
    done: dict[str, int] = {}
    while len(done) < len(ids):
        await asyncio.sleep(2)
        for tid in ids:
            if tid not in done:
                page = await rpc.call("game_log", {"table_id": tid, "limit": 1})
                if page.get("status") in ("finished", "aborted"):
                    done[tid] = page["version"]
    return sorted(done.items(), key=lambda x: -x[1])


async def sample(victim: Rpc, args: dict[str, Any], n: int) -> list[float]:
    """Time ``n`` get_view calls of the victim (a short pause between them)."""
    out = []
    for _ in range(n):
        t = time.perf_counter()
        try:
            r = await victim.call("get_view", args)
        except httpx.TimeoutException:
            out.append(time.perf_counter() - t)
            print(f"    the victim's get_view got no answer within {out[-1]:.0f} s: the server stalled")
            return out
        out.append(time.perf_counter() - t)
        assert "error" not in r, r
        await asyncio.sleep(0.005)
    return out


ATTACKS = [
    "replay page",
    "replay step",
    "game_log paging",
    "near-limit bodies",
    "bad 500-char moves",
    "500 GET /mcp streams",
    "300 held spectator streams",
    "spectator reconnects",
    "search_rules flood",
]
"""The attacks, in the order they run (see the module's docstring)."""


def profile_command() -> list[str]:
    """Return the py-spy command next to this Python (``--profile`` needs it: ``pip install py-spy``)."""
    return [str(Path(sys.executable).with_name("py-spy"))]


async def under(
    name: str, spec: dict[str, Any], victim: Rpc, args: dict[str, Any], n: int, profile: Path | None = None
) -> tuple[list[float], dict[str, int]]:
    """Run the attack ``name`` in its own process until the victim's ``n`` samples are taken; return the
    samples and how the attack's requests were answered."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        __file__,
        "--attacker",
        json.dumps({**spec, "name": name}),
        stdout=asyncio.subprocess.PIPE,
    )
    assert proc.stdout is not None
    ready = await asyncio.wait_for(proc.stdout.readline(), 120)  # held streams: all opened
    assert b"ready" in ready, ready
    await asyncio.sleep(0.5)  # the attack is under way
    spy = None
    if profile is not None:  # the server's stacks under the attack (py-spy, collapsed: one stack and count a line)
        out = profile / (name.replace(" ", "_").replace("/", "") + ".txt")
        spy = await asyncio.create_subprocess_exec(
            *profile_command(),
            "record",
            "--pid",
            str(spec["server_pid"]),
            "--format",
            "raw",
            "--threads",
            "--nonblocking",
            "--output",
            str(out),
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
        )
    got = await sample(victim, args, n)
    if spy is not None:
        spy.send_signal(signal.SIGINT)
        await spy.wait()
    proc.terminate()
    out, _ = await proc.communicate()
    return got, json.loads(out.decode().strip().splitlines()[-1])["counts"]


class Conn:
    """One keep-alive HTTP/1.1 connection on raw asyncio streams (the cheapest client: no parsing beyond the
    status line and the body's length)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, headers: dict[str, str], body: bytes = b"") -> tuple[int, bytes]:
        """Send one request; return its status and body (reconnecting when the server closed the connection)."""
        for attempt in range(2):
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
            assert self.reader is not None
            head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
            head += "".join(f"{k}: {v}\r\n" for k, v in headers.items())
            head += f"Content-Length: {len(body)}\r\n\r\n" if body or method == "POST" else "\r\n"
            try:
                self.writer.write(head.encode() + body)
                await self.writer.drain()
                status_line = await self.reader.readuntil(b"\r\n")
                raw = await self.reader.readuntil(b"\r\n\r\n")
            except (ConnectionError, asyncio.IncompleteReadError):
                self.close()
                if attempt:
                    raise
                continue
            fields = dict(
                (k.strip().lower(), v.strip())
                for k, _, v in (ln.partition(":") for ln in raw.decode("latin-1").split("\r\n") if ln)
            )
            if "content-length" in fields:
                data = await self.reader.readexactly(int(fields["content-length"]))
            elif fields.get("transfer-encoding") == "chunked":
                data = b""
                while True:
                    size = int((await self.reader.readuntil(b"\r\n")).strip(), 16)
                    data += await self.reader.readexactly(size + 2)
                    if size == 0:
                        break
            else:
                data = await self.reader.read()
                self.close()
            if fields.get("connection") == "close":
                self.close()
            return int(status_line.split()[1]), data
        raise ConnectionError("no answer")

    def close(self) -> None:
        """Close the connection (the next request opens another)."""
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


def rpc_body(tool: str, args: dict[str, Any]) -> bytes:
    """Return the JSON-RPC body of one tool call."""
    return json.dumps(
        {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": tool, "arguments": args}}
    ).encode()


def rpc_headers(key: str) -> dict[str, str]:
    """Return the headers of an MCP request with an agent key."""
    return {
        "Authorization": f"Bearer {key}",
        "Accept": "application/json, text/event-stream",
        "Content-Type": "application/json",
        "Mcp-Protocol-Version": PROTOCOL,
    }


def rpc_status(status: int, data: bytes) -> int:
    """Return 200 for a tool call that was served, 400 for a tool error or refusal, else the HTTP status."""
    if status != 200:
        return status
    refused = b'"isError":true' in data or b'"error":' in data[:200] or b'"accepted":false' in data
    return 400 if refused else 200


async def attacker(spec: dict[str, Any]) -> dict[str, int]:
    """Run the attack ``spec`` names until SIGTERM; return how many answers of each status it got."""
    name, port, ctx = spec["name"], spec["port"], spec["ctx"]
    clients: int = spec["clients"]
    ids, lengths, keys = ctx["ids"], {k: int(v) for k, v in ctx["lengths"].items()}, ctx["keys"]
    counts: dict[str, int] = {}
    stop_event = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop_event.set)

    def count(code: int | str) -> None:
        counts[str(code)] = counts.get(str(code), 0) + 1

    junk = "".join(chr(c) for c in range(0x21, 0x7E))
    words = ["fortuna", "riesgo", "vender", "jefe", "carta", "turno", "mercado", "subasta", "dado"]
    near_body = rpc_body("search_rules", {"query": "x" * (1_048_576 - 400)})

    async def one(conn: Conn, rng: random.Random, k: int) -> int:
        key = keys[k % len(keys)]  # each attacking client is one agent (one key)
        if name == "replay page":
            tid = rng.choice(ids)
            status, _ = await conn.request(
                "GET", f"/tables/{tid}/replay?lang=en&step={rng.randrange(lengths[tid] + 1)}", {}
            )
            return status
        if name == "replay step":
            tid = rng.choice(ids)
            status, _ = await conn.request("GET", f"/tables/{tid}/replay/{rng.randrange(lengths[tid] + 1)}?lang=en", {})
            return status
        if name == "game_log paging":
            tid = rng.choice(ids)
            at = rng.randrange(max(1, lengths[tid] - 500))
            args = {"table_id": tid, "cursor": f"v{at}", "limit": 500}
            return rpc_status(*await conn.request("POST", "/mcp", rpc_headers(key), rpc_body("game_log", args)))
        if name == "near-limit bodies":
            return (await conn.request("POST", "/mcp", rpc_headers(key), near_body))[0]
        if name == "bad 500-char moves":
            tid, token = ctx["bad_tables"][k % len(ctx["bad_tables"])]
            move = "".join(rng.choice(junk) for _ in range(500))
            args = {"table_id": tid, "seat_token": token, "move": move}
            return rpc_status(*await conn.request("POST", "/mcp", rpc_headers(key), rpc_body("play_move", args)))
        if name == "search_rules flood":
            q = " ".join(rng.choice(words) for _ in range(3))
            return rpc_status(
                *await conn.request("POST", "/mcp", rpc_headers(key), rpc_body("search_rules", {"query": q}))
            )
        if name == "spectator reconnects":
            # A stream of a finished game: its last update, then the end; open it again at once.
            status, _ = await conn.request("GET", f"/tables/{rng.choice(ids)}/stream", {"Accept": "text/event-stream"})
            conn.close()
            return status
        raise ValueError(name)

    async def loop(k: int) -> None:
        rng, conn = random.Random(k), Conn(port)
        while not stop_event.is_set():
            try:
                code: int | str = await asyncio.wait_for(one(conn, rng, k), 30)
            except (TimeoutError, ConnectionError, asyncio.IncompleteReadError, OSError) as exc:
                code = type(exc).__name__
                conn.close()
            count(code)
        conn.close()

    async def hold(path_of: Callable[[int], str], headers_of: Callable[[int], dict[str, str]], total: int) -> None:
        held = []
        for i in range(total):
            if stop_event.is_set():
                break
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            head = f"GET {path_of(i)} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            head += "".join(f"{k}: {v}\r\n" for k, v in headers_of(i).items()) + "\r\n"
            writer.write(head.encode())
            try:
                line = await asyncio.wait_for(reader.readuntil(b"\r\n"), 30)
                count(int(line.split()[1]))
            except (TimeoutError, asyncio.IncompleteReadError, ConnectionError) as exc:
                count(type(exc).__name__)
            held.append(writer)  # never read again: the server may send, the attacker ignores it
        print(json.dumps({"ready": True}), flush=True)
        await stop_event.wait()
        for w in held:
            w.close()

    if name == "500 GET /mcp streams":
        await hold(
            lambda i: "/mcp",
            lambda i: {"Accept": "text/event-stream", "Authorization": f"Bearer {keys[i % len(keys)]}"},
            500,
        )
    elif name == "300 held spectator streams":
        live = ctx["live"]
        await hold(lambda i: f"/tables/{live[i % len(live)]}/stream", lambda i: {"Accept": "text/event-stream"}, 300)
    else:
        print(json.dumps({"ready": True}), flush=True)
        await asyncio.gather(*(loop(k) for k in range(clients)))
    return counts


def attacker_main(spec_json: str) -> None:
    """The attacker's process: run one attack until SIGTERM, then print its counts (one JSON line)."""
    counts = asyncio.run(attacker(json.loads(spec_json)))
    print(json.dumps({"counts": counts}), flush=True)


def ratio_line(name: str, got: list[float], idle: list[float], counts: dict[str, int]) -> float:
    """Print one attack's figures; return its ratio (p99 under the attack / p99 idle just before it)."""
    ratio = pct(got, 99) / pct(idle, 99)
    answered = ", ".join(f"{k}: {v}" for k, v in sorted(counts.items()))
    print(
        f"  {name:<27} idle p99 {pct(idle, 99) * 1000:6.2f} ms  under p50 {pct(got, 50) * 1000:7.2f} ms  "
        f"p99 {pct(got, 99) * 1000:7.2f} ms  ratio {ratio:5.2f}  (attack answers {answered})",
        flush=True,
    )
    return ratio


async def run(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "attack.sqlite3"
        victim_key = add_agent(db, "victim")
        keys = [add_agent(db, f"attacker{i}") for i in range(max(args.clients, 4))]
        proc, url = start_http_server(db, None, "--limits", LIMITS, keys=True)
        if args.profile:
            args.profile.mkdir(parents=True, exist_ok=True)
        drain(proc, Path(tmp) / "server1.log")
        port = int(url.rsplit("/", 1)[0].rsplit(":", 1)[1])
        names = [n for n in ATTACKS if not args.only or any(w in n for w in args.only.split(","))]
        try:
            async with httpx.AsyncClient(timeout=30) as http, httpx.AsyncClient(timeout=30) as own:
                rpcs = [Rpc(http, url, k) for k in keys]
                t0 = time.perf_counter()
                games = await long_games(rpcs[0], args.long)
                print(
                    f"Long games: {', '.join(f'{tid} {moves} moves' for tid, moves in games)} "
                    f"(made in {time.perf_counter() - t0:.0f} s by bots on the server)",
                    flush=True,
                )
                victim = Rpc(own, url, victim_key)
                t = await victim.call("create_table", OWN_TABLE)
                token = (await victim.call("join_table", {"table_id": t["table_id"]}))["seat_token"]
                view_args = {"table_id": t["table_id"], "seat_token": token}
                await sample(victim, view_args, 30)
                # The attackers' own tables (live: each waits on its agent), for the bad moves and held streams.
                bad_tables = []
                for r in rpcs[: args.clients]:
                    bt = await r.call("create_table", OWN_TABLE)
                    seat = await r.call("join_table", {"table_id": bt["table_id"]})
                    bad_tables.append((bt["table_id"], seat["seat_token"]))
                ctx = {
                    "ids": [tid for tid, _ in games],
                    "lengths": dict(games),
                    "keys": keys[: args.clients],
                    "bad_tables": bad_tables,
                    "live": [tid for tid, _ in bad_tables],
                }
                spec = {"port": port, "clients": args.clients, "ctx": ctx, "server_pid": proc.pid}
                idle = await sample(victim, view_args, args.samples)
                print(f"get_view idle: p50 {pct(idle, 50) * 1000:.2f} ms, p99 {pct(idle, 99) * 1000:.2f} ms")
                ratios = []
                for name in names:
                    before = await sample(victim, view_args, args.samples)  # idle, just before this attack
                    got, counts = await under(name, spec, victim, view_args, args.samples, args.profile)
                    ratios.append(ratio_line(name, got, before, counts))
                again = await sample(victim, view_args, args.samples)
                print(f"get_view idle again: p99 {pct(again, 99) * 1000:.2f} ms")
                worst = max(ratios)
                print(f"Worst ratio {worst:.2f} (target <= 2: {'met' if worst <= 2 else 'NOT met'})", flush=True)
        finally:
            stop(proc)
        if args.no_memory:
            return
        proc, url = start_http_server(db, None, "--limits", LIMITS + ",public_per_minute=none", keys=True)
        drain(proc, Path(tmp) / "server2.log")
        base = url.rsplit("/", 1)[0]
        spec["port"] = int(base.rsplit(":", 1)[1])
        try:
            async with httpx.AsyncClient(timeout=120) as http, httpx.AsyncClient(timeout=120) as own:
                victim = Rpc(own, url, victim_key)
                await sample(victim, view_args, 30)
                print("Without the keyless rate limit (the work bounds alone):")
                for name in ("replay page", "replay step", "spectator reconnects"):
                    if name in names:
                        before = await sample(victim, view_args, args.samples)
                        got, counts = await under(name, spec, victim, view_args, args.samples)
                        ratio_line(name, got, before, counts)
                # Memory: replay the two longest games (page and 500 steps of each, over the whole game).
                before_mb = rss_mb(proc.pid)
                fetched = 0
                for tid, moves in games[:2]:
                    await http.get(f"{base}/tables/{tid}/replay?lang=en")
                    for k in range(500):
                        step = min(moves, k * (moves + 1) // 500)
                        r = await http.get(f"{base}/tables/{tid}/replay/{step}?lang=en")
                        fetched += r.status_code == 200
                after_mb = rss_mb(proc.pid)
                growth = after_mb - before_mb
                print(
                    f"Memory: RSS {before_mb:.1f} MB before, {after_mb:.1f} MB after replaying the two longest games "
                    f"({fetched} steps): {growth:+.1f} MB (target < +100 MB: {'met' if growth < 100 else 'NOT met'})"
                )
                times = []
                for k in range(20):
                    step = (k * 997) % (games[0][1] + 1)
                    t1 = time.perf_counter()
                    await http.get(f"{base}/tables/{games[0][0]}/replay/{step}?lang=en")
                    times.append(time.perf_counter() - t1)
                print(
                    f"One replay step of the longest game: median {statistics.median(times) * 1000:.1f} ms (20 steps)"
                )
        finally:
            stop(proc)


def main() -> None:
    """Print the figures (or, with ``--attacker``, be one attack's process)."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--long", type=int, default=3, help="long games to make")
    ap.add_argument("--samples", type=int, default=300, help="get_view calls per measure")
    ap.add_argument("--clients", type=int, default=4, help="attacking clients (connections, one key each) per flood")
    ap.add_argument("--only", default="", help="comma-separated words: run only the attacks whose name has one")
    ap.add_argument("--no-memory", action="store_true", help="skip the second server (no rate limit, memory)")
    ap.add_argument(
        "--profile", type=Path, help="a folder: record the server's stacks under each attack there (py-spy, raw)"
    )
    ap.add_argument("--attacker", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.attacker:
        attacker_main(args.attacker)
        return
    asyncio.run(run(args))


if __name__ == "__main__":
    main()

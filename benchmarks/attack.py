"""Attacks on a real server: another client's get_view p99 under each, as a ratio to idle (issue 23, point 3).

Run: ``python benchmarks/attack.py [--long 2] [--samples 300] [--clients 4]``.

Starts ``club-agentes serve --http`` (SQLite, agent keys) and has bots play a few long finished games
(Market Fortune campeonato, six random bots, every limit of the option ranges at its maximum: the longest
table the ranges allow; their lengths are printed). A victim agent sits at its own Se Vende table and
calls ``get_view`` over and over; its p99 is measured idle and then under each attack, in the same run:

* ``replay page`` / ``replay step``: clients fetching the replay page or step JSON of the long games at
  random steps (no key);
* ``game_log``: agents paging the full log of the long games, 500 moves a page, from random places;
* ``near-limit bodies``: POSTs to ``/mcp`` just under the body limit (1 MB; a larger one gets 413,
  see tests/mcp/test_edge_guard.py);
* ``bad moves``: agents sending unparseable 500-character moves at their own table;
* ``GET /mcp streams``: 500 held streams (agent keys and addresses are capped: most get 429);
* ``spectator streams``: 300 held table streams (capped per address);
* ``search_rules``: agents flooding the rules search.

The server runs with its default edge limits (only the table and practice limits are lifted so the
attackers can play): keyless floods from one address are mostly answered 429 by the per-address rate
limit (each attack prints how its requests were answered). A second server over the same store runs
without that rate limit (``public_per_minute=none``), to measure the replay floods against the work
bounds alone (a step from the nearest checkpoint, a window of moves, one heavy job at a time), and then
the server's memory (RSS) before and after replaying the two longest games (their replay pages and 500
steps of each, spread over the whole game). Targets: every ratio at most 2, memory growth below
+100 MB. Needs the package installed (the ``club-agentes`` script next to this Python).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import socket
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

# This file's folder holds scripts named like packages: drop it from the path, put the repository first.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

import httpx  # noqa: E402

from tests.mcp.helpers import add_agent, keyed_client, start_http_server, stop  # noqa: E402

PROTOCOL = "2025-06-18"
OWN_TABLE = {"game": "se-vende", "seats": ["agent", "bot:heuristic"], "options": {"require_club_pass": False}}
"""The victim's table (and each attacker's, for the bad moves)."""
LIMITS = "open_tables=none,tables_per_hour=none,long_polls=none,practice_per_hour=none"


Attack = Callable[[asyncio.Event], Awaitable[dict[str, int]]]
"""An attack: runs until its event is set, then returns how many answers of each status it got."""


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


async def under(attack: Attack, victim: Rpc, args: dict[str, Any], n: int) -> tuple[list[float], dict[str, int]]:
    """Run ``attack`` until the victim's ``n`` samples are taken; return the samples and the attack's counts."""
    stop_event = asyncio.Event()
    task = asyncio.create_task(attack(stop_event))
    await asyncio.sleep(0.5)  # the attack is under way
    got = await sample(victim, args, n)
    stop_event.set()
    counts = await task
    return got, counts


def flood(
    clients: int, one: Callable[[random.Random], Awaitable[int]]
) -> Callable[[asyncio.Event], Awaitable[dict[str, int]]]:
    """An attack of ``clients`` loops each repeating ``one`` (which returns a status code) until stopped."""

    async def attack(stop_event: asyncio.Event) -> dict[str, int]:
        counts: dict[str, int] = {}

        async def loop(k: int) -> None:
            rng = random.Random(k)
            while not stop_event.is_set():
                try:
                    code: int | str = await one(rng)
                except httpx.TimeoutException:
                    code = "timeout"
                counts[str(code)] = counts.get(str(code), 0) + 1

        await asyncio.gather(*(loop(k) for k in range(clients)))
        return counts

    return attack


def held(
    total: int, open_one: Callable[[int], Awaitable[tuple[Any, int]]]
) -> Callable[[asyncio.Event], Awaitable[dict[str, int]]]:
    """An attack holding ``total`` streams open (each opened by ``open_one``) until stopped."""

    async def attack(stop_event: asyncio.Event) -> dict[str, int]:
        counts: dict[str, int] = {}
        streams = []
        for i in range(total):
            stream, code = await open_one(i)
            counts[str(code)] = counts.get(str(code), 0) + 1
            streams.append(stream)
        await stop_event.wait()
        for s in streams:
            s.close()
        return counts

    return attack


async def raw_get_stream(port: int, path: str, headers: dict[str, str]) -> tuple[socket.socket, int]:
    """Open a GET stream on a raw socket (kept open); return it and the status code."""

    def run() -> tuple[socket.socket, int]:
        s = socket.create_connection(("127.0.0.1", port), timeout=30)
        lines = [f"GET {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", *(f"{k}: {v}" for k, v in headers.items())]
        s.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        head = b""
        while b"\r\n" not in head:
            chunk = s.recv(1)
            if not chunk:
                break
            head += chunk
        parts = head.split()
        return s, int(parts[1]) if len(parts) > 1 else 0

    return await asyncio.to_thread(run)


async def run(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "attack.sqlite3"
        victim_key = add_agent(db, "victim")
        keys = [add_agent(db, f"attacker{i}") for i in range(max(args.clients, 4))]
        proc, url = start_http_server(db, None, "--limits", LIMITS, keys=True)
        base = url.rsplit("/", 1)[0]
        port = int(base.rsplit(":", 1)[1])
        limits = httpx.Limits(max_connections=200, max_keepalive_connections=50)
        try:
            async with httpx.AsyncClient(timeout=30, limits=limits) as http, httpx.AsyncClient(timeout=30) as own:
                rpcs = [Rpc(http, url, k) for k in keys]
                t0 = time.perf_counter()
                games = await long_games(rpcs[0], args.long)
                print(
                    f"Long games: {', '.join(f'{tid} {moves} moves' for tid, moves in games)} "
                    f"(made in {time.perf_counter() - t0:.0f} s by bots on the server)"
                )
                victim = Rpc(own, url, victim_key)
                async with keyed_client(url, victim_key) as v:
                    t = await v.call(
                        "create_table",
                        {
                            "game": "se-vende",
                            "seats": ["agent", "bot:heuristic"],
                            "options": {"require_club_pass": False},
                        },
                    )
                    token = (await v.call("join_table", {"table_id": t["table_id"]}))["seat_token"]
                view_args = {"table_id": t["table_id"], "seat_token": token}
                await sample(victim, view_args, 30)
                # The attackers' own tables, for the bad moves.
                bad_tables = []
                for r in rpcs[: args.clients]:
                    bt = await r.call(
                        "create_table",
                        {
                            "game": "se-vende",
                            "seats": ["agent", "bot:heuristic"],
                            "options": {"require_club_pass": False},
                        },
                    )
                    seat = await r.call("join_table", {"table_id": bt["table_id"]})
                    bad_tables.append((r, bt["table_id"], seat["seat_token"]))

                ids = [tid for tid, _ in games]
                lengths = dict(games)

                async def replay_page(rng: random.Random) -> int:
                    tid = rng.choice(ids)
                    r = await http.get(f"{base}/tables/{tid}/replay?lang=en&step={rng.randrange(lengths[tid] + 1)}")
                    return r.status_code

                async def replay_step(rng: random.Random) -> int:
                    tid = rng.choice(ids)
                    r = await http.get(f"{base}/tables/{tid}/replay/{rng.randrange(lengths[tid] + 1)}?lang=en")
                    return r.status_code

                async def game_log(rng: random.Random) -> int:
                    tid = rng.choice(ids)
                    at = rng.randrange(max(1, lengths[tid] - 500))
                    return await rng.choice(rpcs[: args.clients]).status(
                        "game_log", {"table_id": tid, "cursor": f"v{at}", "limit": 500}
                    )

                near = {
                    "jsonrpc": "2.0",
                    "id": 1,
                    "method": "tools/call",
                    "params": {"name": "search_rules", "arguments": {"query": "x" * (1_048_576 - 400)}},
                }
                near_body = json.dumps(near).encode()

                async def bodies(rng: random.Random) -> int:
                    r = await http.post(url, content=near_body, headers=rng.choice(rpcs).headers)
                    return r.status_code

                junk = "".join(chr(c) for c in range(0x21, 0x7E))

                async def bad_moves(rng: random.Random) -> int:
                    r, tid, token = rng.choice(bad_tables)
                    move = "".join(rng.choice(junk) for _ in range(500))
                    return await r.status("play_move", {"table_id": tid, "seat_token": token, "move": move})

                words = ["fortuna", "riesgo", "vender", "jefe", "carta", "turno", "mercado", "subasta", "dado"]

                async def search(rng: random.Random) -> int:
                    q = " ".join(rng.choice(words) for _ in range(3))
                    return await rng.choice(rpcs[: args.clients]).status("search_rules", {"query": q})

                async def mcp_stream(i: int) -> tuple[Any, int]:
                    return await raw_get_stream(
                        port, "/mcp", {"Accept": "text/event-stream", "Authorization": f"Bearer {keys[i % len(keys)]}"}
                    )

                async def table_stream(i: int) -> tuple[Any, int]:
                    return await raw_get_stream(
                        port, f"/tables/{ids[i % len(ids)]}/stream", {"Accept": "text/event-stream"}
                    )

                attacks: list[tuple[str, Attack]] = [
                    ("replay page", flood(args.clients, replay_page)),
                    ("replay step", flood(args.clients, replay_step)),
                    ("game_log paging", flood(args.clients, game_log)),
                    ("near-limit bodies", flood(args.clients, bodies)),
                    ("bad 500-char moves", flood(args.clients, bad_moves)),
                    ("500 GET /mcp streams", held(500, mcp_stream)),
                    ("300 spectator streams", held(300, table_stream)),
                    ("search_rules flood", flood(args.clients, search)),
                ]
                if args.only:
                    attacks = [(n, a) for n, a in attacks if any(w in n for w in args.only.split(","))]
                idle = await sample(victim, view_args, args.samples)
                print(f"get_view idle: p50 {pct(idle, 50) * 1000:.2f} ms, p99 {pct(idle, 99) * 1000:.2f} ms")
                ratios = []
                for name, attack in attacks:
                    got, counts = await under(attack, victim, view_args, args.samples)
                    ratio = pct(got, 99) / pct(idle, 99)
                    ratios.append(ratio)
                    answered = ", ".join(f"{k}: {v}" for k, v in sorted(counts.items()))
                    print(
                        f"  {name:<22} p50 {pct(got, 50) * 1000:7.2f} ms  p99 {pct(got, 99) * 1000:7.2f} ms  "
                        f"ratio {ratio:5.2f}  (attack answers {answered})"
                    )
                again = await sample(victim, view_args, args.samples)
                ratio_again = pct(again, 99) / pct(idle, 99)
                print(f"get_view idle again: p99 {pct(again, 99) * 1000:.2f} ms (ratio {ratio_again:.2f})")
                worst = max(ratios)
                print(f"Worst ratio {worst:.2f} (target <= 2: {'met' if worst <= 2 else 'NOT met'})")

        finally:
            stop(proc)
        if args.no_memory:
            return
        proc, url = start_http_server(db, None, "--limits", LIMITS + ",public_per_minute=none", keys=True)
        base = url.rsplit("/", 1)[0]
        try:
            async with httpx.AsyncClient(timeout=120, limits=limits) as http, httpx.AsyncClient(timeout=120) as own:
                victim = Rpc(own, url, victim_key)
                await sample(victim, view_args, 30)
                idle = await sample(victim, view_args, args.samples)
                print(f"Without the rate limit: get_view idle p99 {pct(idle, 99) * 1000:.2f} ms")
                for name, attack in attacks[:2]:
                    got, counts = await under(attack, victim, view_args, args.samples)
                    answered = ", ".join(f"{k}: {v}" for k, v in sorted(counts.items()))
                    print(
                        f"  {name:<22} p50 {pct(got, 50) * 1000:7.2f} ms  p99 {pct(got, 99) * 1000:7.2f} ms  "
                        f"ratio {pct(got, 99) / pct(idle, 99):5.2f}  (attack answers {answered})"
                    )
                # Memory: replay the two longest games (page and 500 steps of each, over the whole game).
                before = rss_mb(proc.pid)
                fetched = 0
                for tid, moves in games[:2]:
                    await http.get(f"{base}/tables/{tid}/replay?lang=en")
                    for k in range(500):
                        step = min(moves, k * (moves + 1) // 500)
                        r = await http.get(f"{base}/tables/{tid}/replay/{step}?lang=en")
                        fetched += r.status_code == 200
                after = rss_mb(proc.pid)
                growth = after - before
                print(
                    f"Memory: RSS {before:.1f} MB before, {after:.1f} MB after replaying the two longest games "
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
    """Print the figures."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--long", type=int, default=3, help="long games to make")
    ap.add_argument("--samples", type=int, default=300, help="get_view calls per measure")
    ap.add_argument("--clients", type=int, default=4, help="attacking clients per flood")
    ap.add_argument("--only", default="", help="comma-separated words: run only the attacks whose name has one")
    ap.add_argument("--no-memory", action="store_true", help="skip the second server (no rate limit, memory)")
    asyncio.run(run(ap.parse_args()))


if __name__ == "__main__":
    main()

"""MCP round trips and concurrent play, printed as figures (run: python benchmarks/mcp.py).

1. stdio: one table with two agent seats played to the end through a real client; the
   median and p99 round trip of ``play_move`` against ``list_games`` (the server's
   cheapest tool) on the same connection, and their ratio (target: within 1.5x).
2. HTTP: 8 tables x 4 agent seats played concurrently to the end, one client session
   per seat (wait_for_turn -> get_view -> play_move); moves per second, p50/p99 of
   ``play_move``, and every response checked against the tool's outputSchema.

Needs the package installed (the ``club-agentes`` script next to this Python).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

# This file's name shadows a package of the same name when run as a script: drop its folder from the path.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

from mcp import Client  # noqa: E402
from mcp.client.stdio import StdioServerParameters  # noqa: E402

from tests.mcp.helpers import Checked, server_command, start_http_server  # noqa: E402


def pct(values: list[float], p: float) -> float:
    """Return the p-th percentile (0-100) of ``values``."""
    s = sorted(values)
    return s[min(len(s) - 1, round(p / 100 * (len(s) - 1)))]


async def play_table(c: Checked, table_id: str, tokens: list[str], rng: random.Random, lat: list[float]) -> int:
    """Play a table to the end from one client, timing each play_move; return the moves played."""
    moves = 0
    while True:
        seat_tok = None
        for tok in tokens:
            v = await c.call("get_view", {"table_id": table_id, "seat_token": tok})
            if v["status"] == "finished":
                return moves
            if v["decision"]["yours"]:
                seat_tok = tok
                break
        assert seat_tok is not None, "no agent seat must decide"
        move = rng.choice(v["legal_moves"])["id"]
        t = time.perf_counter()
        out = await c.call("play_move", {"table_id": table_id, "seat_token": seat_tok, "move": move})
        lat.append(time.perf_counter() - t)
        assert out["accepted"], out
        moves += 1


async def stdio_part(game: str, options: dict[str, Any], seed: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        cmd = server_command(Path(tmp) / "bench.sqlite3")
        async with Client(StdioServerParameters(command=cmd[0], args=cmd[1:])) as client:
            c = await Checked(client).load()
            t = await c.call(
                "create_table",
                {"game": game, "seats": ["agent", "agent"], "options": {**options, "require_club_pass": False}},
            )
            tokens = [
                (await c.call("join_table", {"table_id": t["table_id"], "agent": f"a{i}"}))["seat_token"]
                for i in range(2)
            ]
            play_lat: list[float] = []
            moves = await play_table(c, t["table_id"], tokens, random.Random(seed), play_lat)
            trivial: list[float] = []
            for _ in range(max(200, len(play_lat))):
                s = time.perf_counter()
                await c.call("list_games", {})
                trivial.append(time.perf_counter() - s)
    pm, p99 = statistics.median(play_lat) * 1000, pct(play_lat, 99) * 1000
    tm, t99 = statistics.median(trivial) * 1000, pct(trivial, 99) * 1000
    print(f"stdio, {game} {options}: {moves} play_move calls to the end of a 2-agent game")
    print(f"  play_move  median {pm:.2f} ms  p99 {p99:.2f} ms")
    print(f"  list_games median {tm:.2f} ms  p99 {t99:.2f} ms  ({len(trivial)} calls)")
    verdict = "met" if pm / tm <= 1.5 else "NOT met"
    print(f"  ratio of medians {pm / tm:.2f} (target <= 1.5: {verdict}); ratio of p99 {p99 / t99:.2f}")


async def seat_loop(url: str, table_id: str, token: str, seed: int, lat: list[float], counter: list[int]) -> None:
    """One agent seat on its own HTTP session: wait, look, move, until the game ends."""
    rng = random.Random(seed)
    async with Client(url) as client:
        c = await Checked(client).load()
        while True:
            w = await c.call("wait_for_turn", {"table_id": table_id, "seat_token": token, "timeout_s": 60})
            if w["status"] == "finished":
                return
            if not w["ready"]:
                continue
            v = await c.call("get_view", {"table_id": table_id, "seat_token": token})
            if v["status"] == "finished":
                return
            if not v["decision"]["yours"]:
                continue
            move = rng.choice(v["legal_moves"])["id"]
            t = time.perf_counter()
            out = await c.call(
                "play_move",
                {"table_id": table_id, "seat_token": token, "move": move, "expected_version": v["version"]},
            )
            lat.append(time.perf_counter() - t)
            if out["accepted"]:
                counter[0] += 1


async def http_part(game: str, options: dict[str, Any], tables: int, seats: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        proc, url = start_http_server(Path(tmp) / "bench.sqlite3")
        try:
            async with Client(url) as admin_client:
                admin = await Checked(admin_client).load()
                jobs = []
                for t in range(tables):
                    tab = await admin.call(
                        "create_table",
                        {
                            "game": game,
                            "seats": ["agent"] * seats,
                            "options": {**options, "require_club_pass": False},
                            "seed": 1000 + t,
                        },
                    )
                    for s in range(seats):
                        j = await admin.call("join_table", {"table_id": tab["table_id"], "agent": f"t{t}s{s}"})
                        jobs.append((tab["table_id"], j["seat_token"], t * 10 + s))
            lat: list[float] = []
            counter = [0]
            start = time.perf_counter()
            await asyncio.gather(*(seat_loop(url, tid, tok, sd, lat, counter) for tid, tok, sd in jobs))
            elapsed = time.perf_counter() - start
        finally:
            proc.terminate()
            proc.wait(10)
    print(f"HTTP, {game} {options}: {tables} tables x {seats} agent seats, one session per seat, concurrently")
    print(f"  {counter[0]} moves in {elapsed:.1f} s = {counter[0] / elapsed:.0f} moves/s")
    print(f"  play_move p50 {pct(lat, 50) * 1000:.1f} ms  p99 {pct(lat, 99) * 1000:.1f} ms")
    print("  every response validated against its tool's outputSchema")


def main() -> None:
    """Print the figures."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="market-fortune")
    ap.add_argument("--mode", default="fortuna", help="Market Fortune mode option (ignored for other games)")
    ap.add_argument("--tables", type=int, default=8)
    ap.add_argument("--seats", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    options = {"mode": args.mode} if args.game == "market-fortune" else {}
    asyncio.run(stdio_part(args.game, options, args.seed))
    asyncio.run(http_part(args.game, options, args.tables, args.seats))


if __name__ == "__main__":
    main()

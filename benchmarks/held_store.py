"""A store query held by a lock must not stall the other clients (issue 26 point 3).

One server over HTTP on PostgreSQL (a fresh schema). ``--clients`` clients each read their own table with
``get_view`` in a loop; one more client (the "held" one) plays moves at its own table with ``play_move``.
Measured twice, for ``--seconds`` each: idle (nothing else), then held: another connection locks the held
table's row (``SELECT ... FOR UPDATE``) for ``--hold-ms`` (200) at a time in a loop, so every write of the held
client waits for the lock. Prints the other clients' ``get_view`` p50/p99 in both phases and their ratio
(target: p99 held within 2x of idle), and how long the held client's moves took (they must wait).

    .venv/bin/python benchmarks/held_store.py --pg postgresql://postgres@127.0.0.1:5432/test

Needs the package installed (the ``club-agentes`` script next to this Python).
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import sys
import threading
import time
from pathlib import Path
from typing import Any

# benchmarks/mcp.py would shadow the SDK's package when run as a script: drop this folder from the path.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

from mcp import Client  # noqa: E402

from tests.mcp.helpers import Checked, start_http_server, stop  # noqa: E402

NO_LIMITS = ("--limits", "open_tables=none,tables_per_hour=none,long_polls=none")
TABLE = {"game": "se-vende", "seats": ["agent", "agent"], "options": {"require_club_pass": False, "seats_per_agent": 2}}


def pct(values: list[float], p: float) -> float:
    """Return the p-th percentile (0-100) of ``values``."""
    s = sorted(values)
    return s[min(len(s) - 1, round(p / 100 * (len(s) - 1)))]


async def new_table(c: Checked) -> tuple[str, list[str]]:
    """Create a two-seat Se Vende table, take both seats; return its id and the two seat tokens."""
    t = await c.call("create_table", TABLE)
    tid = t["table_id"]
    tokens = [(await c.call("join_table", {"table_id": tid}))["seat_token"] for _ in range(2)]
    return tid, tokens


class Phase:
    """One measuring phase: the readers' get_view latencies and the held client's move latencies."""

    def __init__(self) -> None:
        self.reads: list[float] = []
        self.moves: list[float] = []
        self.stop = asyncio.Event()


async def reader(url: str, phase_of: list[Phase], ready: asyncio.Event) -> None:
    """Read one table of its own with get_view until told to stop; record each call's latency in the phase."""
    async with Client(url) as client:
        c = await Checked(client).load()
        tid, tokens = await new_table(c)
        ready.set()
        while True:
            phase = phase_of[0]
            if phase.stop.is_set() and phase is phase_of[-1]:
                return
            started = time.perf_counter()
            await c.call("get_view", {"table_id": tid, "seat_token": tokens[0]})
            phase.reads.append(time.perf_counter() - started)


async def held_player(url: str, phase_of: list[Phase], table: list[str], ready: asyncio.Event) -> None:
    """Play moves at one table (a new one when a game ends); ``table[0]`` is the table the locker holds."""
    async with Client(url) as client:
        c = await Checked(client).load()
        tid, tokens = await new_table(c)
        table[0] = tid
        ready.set()
        while True:
            phase = phase_of[0]
            if phase.stop.is_set() and phase is phase_of[-1]:
                return
            views = [await c.call("get_view", {"table_id": tid, "seat_token": tok}) for tok in tokens]
            if views[0]["status"] != "playing":
                tid, tokens = await new_table(c)
                table[0] = tid
                continue
            seat = next((i for i, v in enumerate(views) if v["decision"]["yours"]), None)
            if seat is None:
                await asyncio.sleep(0.01)
                continue
            move = views[seat]["legal_moves"][0]["id"]
            started = time.perf_counter()
            await c.call("play_move", {"table_id": tid, "seat_token": tokens[seat], "move": move})
            phase.moves.append(time.perf_counter() - started)


def locker(pg: str, schema: str, table: list[str], hold_s: float, stop: threading.Event) -> None:
    """Hold the row of ``table[0]`` with ``FOR UPDATE`` for ``hold_s`` at a time, with short gaps, until stopped."""
    import psycopg

    with psycopg.connect(pg, autocommit=True) as conn:
        conn.execute(f'SET search_path TO "{schema}"')
        while not stop.is_set():
            with conn.transaction():
                conn.execute("SELECT id FROM game_tables WHERE id = %s FOR UPDATE", (table[0],))
                time.sleep(hold_s)
            time.sleep(0.01)


async def measure(url: str, args: argparse.Namespace, schema: str) -> tuple[Phase, Phase]:
    """Run the idle phase, then the held phase; return both."""
    idle, held = Phase(), Phase()
    phase_of = [idle]
    table = [""]
    readies = [asyncio.Event() for _ in range(args.clients + 1)]
    tasks = [asyncio.create_task(reader(url, phase_of, readies[i])) for i in range(args.clients)]
    tasks.append(asyncio.create_task(held_player(url, phase_of, table, readies[-1])))
    for r in readies:
        await r.wait()
    await asyncio.sleep(min(2.0, args.seconds / 2))  # warm-up, not counted
    idle.reads.clear()
    idle.moves.clear()
    await asyncio.sleep(args.seconds)
    stop = threading.Event()
    thread = threading.Thread(target=locker, args=(args.pg, schema, table, args.hold_ms / 1000, stop))
    thread.start()
    phase_of[0] = held
    phase_of.append(held)
    try:
        await asyncio.sleep(args.seconds)
    finally:
        held.stop.set()
        stop.set()
        await asyncio.to_thread(thread.join)
    await asyncio.gather(*tasks)
    return idle, held


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pg", required=True, help="PostgreSQL URL (a fresh schema is created and dropped)")
    ap.add_argument("--clients", type=int, default=8, help="clients reading their own table (default 8)")
    ap.add_argument("--seconds", type=float, default=8.0, help="length of each phase (default 8)")
    ap.add_argument("--hold-ms", type=int, default=200, help="how long each lock of the held row lasts (default 200)")
    args = ap.parse_args()
    import psycopg

    schema = "bench_held_" + secrets.token_hex(4)
    proc, url = start_http_server(args.pg, {"CLUB_AGENTES_DB_SCHEMA": schema}, *NO_LIMITS)
    try:
        idle, held = asyncio.run(measure(url, args, schema))
    finally:
        stop(proc)
        with psycopg.connect(args.pg, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')

    def ms(x: float) -> str:
        return f"{x * 1000:.1f} ms"

    out: dict[str, Any] = {}
    for name, ph in (("idle", idle), ("held", held)):
        out[name] = (pct(ph.reads, 50), pct(ph.reads, 99))
        moves = (
            f"{len(ph.moves)} moves, p50 {ms(pct(ph.moves, 50))}, max {ms(max(ph.moves))}" if ph.moves else "no moves"
        )
        print(
            f"{name:5} get_view of {args.clients} other clients: {len(ph.reads)} calls, p50 {ms(out[name][0])}, "
            f"p99 {ms(out[name][1])}; held client: {moves}"
        )
    ratio = out["held"][1] / out["idle"][1]
    verdict = "ok" if ratio <= 2 else "over the target"
    print(f"p99 held / idle: {ratio:.2f}x (target <= 2x: {verdict}); p50 {out['held'][0] / out['idle'][0]:.2f}x")


if __name__ == "__main__":
    main()

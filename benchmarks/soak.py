"""Memory under a long bots-only soak, printed as a curve (run: python benchmarks/soak.py [--minutes 10]).

Starts ``club-agentes serve --http`` on a fresh SQLite file (or ``--db postgresql://...``), keeps
``--concurrent`` bots-only tables playing (a new one is created as soon as one finishes, the three games
in turn, random and heuristic bots), and every ``--every`` seconds prints the resident memory (RSS) of
the server process and of its bot worker processes, with the number of tables finished so far.

Memory should stay flat after the first minute: the server keeps no bots-only table in memory (their
moves go straight from the bot workers to the store), live tables are a bounded cache, and each bot
worker keeps at most a bounded number of game states.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

from mcp import Client  # noqa: E402
from mcp.client.session import ClientSession  # noqa: E402

from tests.mcp.helpers import start_http_server, stop  # noqa: E402

GAMES = [("market-fortune", {"mode": "fortuna"}), ("se-vende", {}), ("yo-soy-el-jefe", {})]
SEATS = ["bot:heuristic", "bot:random", "bot:heuristic", "bot:random"]


def rss_mib(pid: int) -> float:
    """Resident memory of a process in MiB (Linux ``/proc``), 0 if it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except FileNotFoundError:
        pass
    return 0.0


def children(pid: int) -> list[int]:
    """The direct children of a process (the bot worker processes of a server)."""
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except FileNotFoundError:
        return []


async def soak(
    url: str, pid: int, minutes: float, concurrent: int, every: float
) -> list[tuple[float, float, float, int]]:
    """Keep tables playing; return the samples (seconds, server MiB, bot workers MiB, tables finished)."""
    samples: list[tuple[float, float, float, int]] = []
    finished = 0
    created = 0
    async with Client(url) as c:

        async def create() -> str:
            nonlocal created
            game, options = GAMES[created % len(GAMES)]
            created += 1
            r = await c.call_tool("create_table", {"game": game, "seats": SEATS, "options": options})
            if r.is_error:
                raise RuntimeError(" ".join(getattr(x, "text", "") for x in r.content))
            return str(r.structured_content["table_id"])

        playing = [await create() for _ in range(concurrent)]
        start = time.monotonic()
        next_sample = start
        while time.monotonic() - start < minutes * 60:
            for i, table in enumerate(playing):
                r = await c.call_tool("game_log", {"table_id": table, "limit": 1})
                if r.structured_content["status"] != "playing":
                    finished += 1
                    playing[i] = await create()
            now = time.monotonic()
            if now >= next_sample:
                lanes = sum(rss_mib(p) for p in children(pid))
                samples.append((now - start, rss_mib(pid), lanes, finished))
                print(
                    f"{now - start:7.0f} s  server {samples[-1][1]:7.1f} MiB  bot workers {lanes:7.1f} MiB  "
                    f"tables finished {finished}",
                    flush=True,
                )
                next_sample += every
            await asyncio.sleep(0.5)
    return samples


def summary(samples: list[tuple[float, float, float, int]], warmup: float) -> str:
    """One line: memory after the warm-up against memory at the end."""
    after = [s for s in samples if s[0] >= warmup] or samples
    first, last = after[0], samples[-1]
    peak = max(s[1] + s[2] for s in after)
    return (
        f"after {warmup:.0f} s: {first[1] + first[2]:.1f} MiB; at the end ({last[0]:.0f} s, {last[3]} tables "
        f"finished): {last[1] + last[2]:.1f} MiB ({(last[1] + last[2]) / (first[1] + first[2]) - 1:+.1%}); "
        f"peak {peak:.1f} MiB"
    )


def main() -> None:
    """Print the curve."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--concurrent", type=int, default=8, help="bots-only tables playing at once")
    ap.add_argument("--every", type=float, default=30.0, help="seconds between two samples")
    ap.add_argument("--warmup", type=float, default=60.0, help="seconds before memory is expected to be flat")
    ap.add_argument("--db", default=None, help="a postgresql:// URL (default: a fresh SQLite file)")
    args = ap.parse_args()

    async def trust(self: Any, name: str, result: Any) -> None:
        return None

    ClientSession.validate_tool_result = trust  # type: ignore[method-assign]
    limits = ("--limits", "open_tables=none,tables_per_hour=none,open_tables_global=none,tables_per_hour_global=none")
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or str(Path(tmp) / "soak.sqlite3")
        env = {"CLUB_AGENTES_DB_SCHEMA": f"soak_{os.getpid()}"} if db.startswith("postgresql") else None
        proc, url = start_http_server(db, env, *limits)
        try:
            samples = asyncio.run(soak(url, proc.pid, args.minutes, args.concurrent, args.every))
        finally:
            stop(proc)
    print(summary(samples, args.warmup))


if __name__ == "__main__":
    main()

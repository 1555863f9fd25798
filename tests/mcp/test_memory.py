"""Memory stays flat while bots-only tables are played one after another (a short version of
benchmarks/soak.py, which runs ten minutes and prints the curve)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from tests.mcp.helpers import start_http_server, stop

pytestmark = [pytest.mark.anyio, pytest.mark.slow]

GAMES = [("market-fortune", {"mode": "fortuna"}), ("se-vende", {}), ("yo-soy-el-jefe", {})]
SEATS = ["bot:heuristic", "bot:random", "bot:heuristic", "bot:random"]
LIMITS = ("--limits", "open_tables=none,tables_per_hour=none,open_tables_global=none,tables_per_hour_global=none")
TABLES = 300  # the soak plays this many tables, however long a loaded machine takes (about 65 s on a quiet one)
DEADLINE_S = 240  # a guard against bots that stopped finishing tables, not a speed target (under the 300 s timeout)


def rss_mib(pid: int) -> float:
    """Resident memory of a process and its children (the bot workers) in MiB."""
    total = 0.0
    pids = [pid]
    with contextlib.suppress(FileNotFoundError):
        pids += [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    for p in pids:
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) / 1024
        except FileNotFoundError:
            continue
    return total


async def test_memory_is_flat_over_many_bots_only_tables(tmp_path: Path) -> None:
    proc, url = start_http_server(tmp_path / "club.sqlite3", None, *LIMITS)
    try:
        async with Client(url) as c:
            created = 0

            async def create() -> str:
                nonlocal created
                game, options = GAMES[created % 3]
                created += 1
                r = await c.call_tool("create_table", {"game": game, "seats": SEATS, "options": options})
                assert not r.is_error, r.content
                return str(r.structured_content["table_id"])

            playing = [await create() for _ in range(6)]
            finished = 0
            samples: list[tuple[int, float]] = []
            start = time.monotonic()
            while finished < TABLES and time.monotonic() - start < DEADLINE_S:
                for i, table in enumerate(playing):
                    r = await c.call_tool("game_log", {"table_id": table, "limit": 1})
                    status: Any = r.structured_content["status"]
                    if status != "playing":
                        assert status == "finished"
                        finished += 1
                        playing[i] = await create()
                samples.append((finished, rss_mib(proc.pid)))
                await asyncio.sleep(1)
        warm = next(m for n, m in samples if n >= 100)  # after the first hundred tables
        end_tables, end = samples[-1]
        assert end_tables >= TABLES, f"only {end_tables} tables finished in {DEADLINE_S} s: the bots stopped playing"
        assert end <= warm * 1.15 + 10, f"memory grew from {warm:.0f} MiB to {end:.0f} MiB over {end_tables} tables"
    finally:
        stop(proc)

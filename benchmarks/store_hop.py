"""What one store call off the event loop costs, in instructions (callgrind).

Run: ``python benchmarks/store_hop.py [--pg URL] [--calls 1000]`` (needs valgrind; PostgreSQL as in the tests).

Each figure is the difference between two runs of this script under callgrind that make ``calls`` and
``11 * calls`` calls (start-up and warm-up cancel out), divided by ``10 * calls``:

* ``executor hop``: a no-op handed to a ``ThreadPoolExecutor`` and awaited through ``asyncio.wrap_future`` (what
  ``Database.run`` did before ``_Threads``, and what ``loop.run_in_executor`` does);
* ``threads hop``: a no-op handed to the store's own threads (``db._Threads``, what ``Database.run`` uses);
* ``store hop``: a no-op through ``Database.run`` on PostgreSQL (the hop, the caller's context, and a pooled
  connection taken for the call);
* ``store head``: ``TableStore.table_head`` through ``Database.run`` (a hop and one query);
* ``direct head``: the same query called in the loop's thread (no hop: the query alone, its connection taken
  from the pool).

Under uvloop, as the server runs.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import os
import secrets
import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(_HERE))
from under_callgrind import under_callgrind  # noqa: E402

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]  # benchmarks/mcp.py is not the SDK

MODES = ("executor hop", "threads hop", "store hop", "store head", "direct head")


def child(mode: str, calls: int, url: str) -> None:
    """Make ``calls`` calls of ``mode`` after a warm-up (run under callgrind by :func:`measure`)."""
    import uvloop
    from club_agentes.mcp_server.store import Store
    from club_agentes.mcp_server.store.db import _Threads

    schema = "hop_" + secrets.token_hex(4)
    store = Store(url, schema=schema)
    executor = concurrent.futures.ThreadPoolExecutor(max_workers=10)
    threads = _Threads(10, "hop")

    def noop() -> int:
        return 1

    def head() -> object:
        return store.tables.table_head("t-000000000000")

    async def one() -> object:
        if mode == "executor hop":
            return await asyncio.wrap_future(executor.submit(noop), loop=asyncio.get_running_loop())
        if mode == "threads hop":
            return await threads.run(noop)
        if mode == "store hop":
            return await store.run(noop)
        if mode == "store head":
            return await store.run(head)
        return head()

    async def main() -> None:
        for _ in range(50):
            await one()
        for _ in range(calls):
            await one()

    try:
        uvloop.run(main())
    finally:
        executor.shutdown()
        threads.shutdown()
        store.close()
        import psycopg

        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def measure(mode: str, calls: int, url: str) -> float:
    """Return instructions per call of ``mode``.

    Raises:
        RuntimeError: a run failed or printed no total.
    """
    totals = [
        under_callgrind([sys.executable, __file__, "--child", mode, "--calls", str(n), "--pg", url])[0]
        for n in (calls, 11 * calls)
    ]
    return (totals[1] - totals[0]) / (10 * calls)


def main() -> None:
    """Print the figures."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pg", default=os.environ.get("CLUB_AGENTES_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test"))
    ap.add_argument(
        "--calls", type=int, default=1000, help="calls of the shorter run (the longer makes 11 times as many)"
    )
    ap.add_argument("--child", choices=MODES, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.child, args.calls, args.pg)
        return
    for mode in MODES:
        print(f"{mode:<14} {measure(mode, args.calls, args.pg):>10,.0f} instructions/call", flush=True)


if __name__ == "__main__":
    main()

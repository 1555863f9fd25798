"""What handing one piece of bot work to a lane process costs the server, counted by callgrind.

A child process runs ``--tasks`` small pieces of bot work (a Market Fortune table the lane already holds, one
random-bot decision each) one after the other through one lane process, and again with ``--tasks`` more; the
difference over the extra tasks is the server's instructions per task, the lane process not counted (valgrind
does not follow it). Two ways of reaching the lane process are compared:

* ``lanes``: :class:`club_agentes.mcp_server.tables.lanes.Lanes` (one thread per lane, a pipe to its process);
* ``executor``: a one-process ``concurrent.futures.ProcessPoolExecutor`` (what the lanes used before), running
  the same worker code.

Needs ``valgrind``. Run: ``python benchmarks/lane_hop.py [--tasks 200]``.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

_HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(_HERE))
from under_callgrind import under_callgrind  # noqa: E402

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]

_CHILD = r"""
import asyncio, multiprocessing, sys
from concurrent.futures import ProcessPoolExecutor
from club_agentes.mcp_server.tables.lanes import Lanes, LaneTask, LaneWorker, Sync

_WORKER = None

def _init():
    global _WORKER
    _WORKER = LaneWorker()

def _play(task):
    return _WORKER.run(task)

def task_at(version):
    bots = {0: "random", 1: "random"}
    sync = Sync(-1, full=True) if version == 0 else Sync(version)
    return LaneTask("t-0000000000f1", "market-fortune", {}, 2, 3, version, bots, sync, max_moves=1, max_cpu_s=30.0)

async def main(way, n):
    if way == "lanes":
        pool = Lanes(1)
        run = pool.run
    else:
        pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"), initializer=_init)
        async def run(task):
            return await asyncio.wrap_future(pool.submit(_play, task))
    version = 0
    for _ in range(n + 1):  # the first task starts the process and deals the table
        res = await run(task_at(version))
        assert res.error is None and not res.need_sync and len(res.moves) == 1, res
        version += 1
    if way == "lanes":
        pool.close()
    else:
        pool.shutdown()
    print("TASKS", n)

if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
"""


def _instructions(way: str, tasks: int, script: str) -> int:
    """Return the instructions of one child run of ``tasks`` tasks under callgrind.

    Raises:
        RuntimeError: valgrind failed or printed no total, or the child did not play its tasks.
    """
    instructions, out = under_callgrind([sys.executable, script, way, str(tasks)])
    if f"TASKS {tasks}" not in out:
        raise RuntimeError(f"the child did not play its {tasks} tasks: {out[-500:]}")
    return instructions


def main() -> None:
    """Print the server's instructions per piece of bot work, for each way of reaching a lane process."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tasks", type=int, default=200, help="the extra tasks the second run makes")
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed; this benchmark counts instructions with callgrind")
    with tempfile.TemporaryDirectory() as tmp:
        script = str(Path(tmp) / "lane_hop_child.py")  # a file: spawned processes import the parent's main module
        Path(script).write_text(_CHILD)
        for way in ("lanes", "executor"):
            short = _instructions(way, 20, script)
            long = _instructions(way, 20 + args.tasks, script)
            print(f"{way}: {(long - short) / args.tasks:,.0f} instructions per task in the server", flush=True)


if __name__ == "__main__":
    main()

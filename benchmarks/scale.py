"""Many agents, many tables, many workers: throughput, latency and server CPU per move.

Run: ``python benchmarks/scale.py`` (SQLite, 1 and 2 workers) or with ``--pg URL`` (PostgreSQL too).

For each store (SQLite file, PostgreSQL database) x workers (1, 2) x N concurrent agent sessions
(1, 16, 64), it starts ``club-agentes serve --http`` workers on loopback sharing one store,
creates Market Fortune tables (2 agent seats each; for N = 1, one agent and one random bot) with
agents spread over the workers, and lets every agent play for ``--seconds`` with the fewest calls a
decision takes on that server: ``play_move`` alone when the previous answer already says the decision
is yours and lists the legal moves (``play_move`` with ``wait_s`` waits for that decision, on servers
that have it; ``--no-play-wait`` leaves it out), else ``wait_for_turn -> play_move`` (wait_for_turn's
answer carries the legal moves), or ``wait_for_turn -> get_view -> play_move`` on an older server
whose answers do not. It prints moves/s, p50/p99 of ``play_move`` (with ``wait_s``, from the move
sent to the next decision, so the other seats' time is in it), the server CPU (user + system, read
from ``/proc`` for every worker and its bot lanes) per agent move and the system (kernel) share of it, the
tool calls per move and the server CPU per call.

The same script measures older versions of the server (without agent keys): it detects whether
``club-agentes agents`` exists and then creates one key per agent session.

CPU time on a small shared machine varies by tens of percent from run to run. ``--callgrind`` runs
each worker under valgrind's callgrind (instrumentation on only while the agents play) and prints
the server's instructions per agent move instead, which do not depend on the machine's load: the
figure to compare two versions with (``python benchmarks/scale.py --callgrind --sqlite-only
--workers 1 --seconds 40``; the workers run about fifty times slower, so moves/s and latencies then
mean nothing). The worker processes and the processes they start are counted: the bot lanes (spawned by
:mod:`club_agentes.mcp_server.tables.lanes` when a table first needs one) run under callgrind too
(``--trace-children``), so the 1-agent-vs-bot figure holds the bot's decisions (the agents-only tables of 16
and 64 agents have no bot). Before that configuration is measured, the agent's worker plays a few bots-only
tables, so that its lanes have started (their imports are not counted) when the instrumentation is turned on; a lane
started later (one that died) is turned on as it appears.

Issue 26's table, one invocation (``--table``: SQLite with 1 worker and PostgreSQL with 2 workers, at
1, 16 and 64 agents; for each a callgrind pass for the instructions per agent move and a plain pass of
``--plain-seconds`` for CPU ms per move and p50/p99; ``--seed`` makes the games repeatable)::

    python benchmarks/scale.py --table --seed 7 --seconds 25 --plain-seconds 10 \
        --pg postgresql://postgres@127.0.0.1:5432/test \
        [--baseline /path/to/other/.venv/bin/club-agentes]   # before/after side by side, with the ratio

Each run's figure includes its start-up: every agent's first ``wait_for_turn`` (each worker loading the
table) falls inside the measured window, which weighs most at 64 agents and few moves. ``--marginal LONG``
(with ``--callgrind --moves SHORT``) runs each configuration twice on fresh stores, stopping at SHORT and at
LONG moves in all, and also prints the instructions of the moves in between per move: ``(I_long - I_short)
/ (moves_long - moves_short)``, in which the start-up cancels out (the steady cost of a move)::

    python benchmarks/scale.py --callgrind --pg-only --workers 2 --agents 64 --seed 7 --moves 300 \
        --marginal 1200 --seconds 2400

``--cli PATH`` measures another install's server instead of this one; ``--without orjson,keycache,
resultskip`` switches issue 26's SDK-level savings off in the measured server (``benchmarks/without.py``),
one at a time to measure each; ``--keep-callgrind DIR`` keeps the workers' callgrind files for
``callgrind_annotate --inclusive=yes``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]

import httpx2  # noqa: E402
from mcp import Client  # noqa: E402
from mcp.client.streamable_http import streamable_http_client  # noqa: E402

CLI = Path(sys.executable).with_name("club-agentes")
"""The server measured (``--cli``: another install's ``club-agentes``, e.g. a baseline's)."""
WITHOUT = ""
"""With ``--without NAMES``: the savings switched off in the measured server (see ``without.py``)."""
MOVES: int | None = None
"""With ``--moves N``: every agent stops once the agents made N moves in all (a stopped agent would leave its
partner waiting for a move that never comes, so the stop is shared)."""
SEED: int | None = None
"""With ``--seed``: table ``k`` is created with seed ``SEED + k`` and each agent's choices follow ``SEED``."""
PLAY_WAIT = True
"""Whether agents pass ``wait_s`` to ``play_move`` when the server takes it (``--no-play-wait``: never)."""
TICK = os.sysconf("SC_CLK_TCK")


def pct(values: list[float], p: float) -> float:
    """Return the p-th percentile (0-100) of ``values`` (0 for none)."""
    if not values:
        return 0.0
    s = sorted(values)
    return s[min(len(s) - 1, round(p / 100 * (len(s) - 1)))]


def cpu_times(pid: int) -> tuple[float, float]:
    """Return the user and the system CPU seconds a process has used (Linux ``/proc``)."""
    fields_ = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields_[11]) / TICK, int(fields_[12]) / TICK


def descendants(pid: int) -> list[int]:
    """Return the processes started by ``pid`` and by them, and so on (a worker's bot lanes; Linux ``/proc``)."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            ppid = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue  # the process ended meanwhile
        children.setdefault(ppid, []).append(int(stat.parent.name))
    out: list[int] = []
    todo = [pid]
    while todo:
        found = children.get(todo.pop(), [])
        out += found
        todo += found
    return out


def with_lanes(pids: list[int]) -> list[int]:
    """Return ``pids`` (workers) and every process they started (their bot lanes)."""
    return [q for pid in pids for q in (pid, *descendants(pid))]


def _times(pid: int) -> tuple[float, float]:
    try:
        return cpu_times(pid)
    except OSError:  # it ended between the listing and now
        return 0.0, 0.0


def cpu_seconds(pids: list[int]) -> tuple[float, float]:
    """Return the CPU seconds (user + system, and system alone) the processes ``pids`` and their bot lanes have
    used (Linux ``/proc``), read from one listing of the processes."""
    times = [_times(q) for q in with_lanes(pids)]
    return sum(u + k for u, k in times), sum(k for _, k in times)


def free_port() -> int:
    """Return a free loopback port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def has_agent_keys() -> bool:
    """Return whether this version of the server has agent keys (``club-agentes agents``)."""
    return subprocess.run([*cli_cmd(), "agents", "--help"], capture_output=True).returncode == 0


@dataclass
class Store:
    """Where the workers keep their state."""

    db: str
    env: dict[str, str] = field(default_factory=dict)


def start_worker(store: Store, auth: bool, callgrind: str | None = None) -> tuple[subprocess.Popen[bytes], str]:
    """Start one ``serve --http`` worker; return it and its URL.

    With ``callgrind`` (an output file name with ``%p``, the process id), the worker and the processes it
    starts (its bot lanes) run under valgrind's callgrind with instrumentation off until :func:`callgrind_on`.

    Raises:
        RuntimeError: it did not start.
    """
    port = free_port()
    cmd = [*cli_cmd(), "serve", "--http", "--host", "127.0.0.1", "--port", str(port), "--db", store.db]
    if not auth and has_agent_keys():
        cmd.append("--no-auth")
    if callgrind:
        cmd = [
            "valgrind",
            "--tool=callgrind",
            "--trace-children=yes",
            "--instr-atstart=no",
            f"--callgrind-out-file={callgrind}",
            *cmd,
        ]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env={**os.environ, **store.env})
    return proc, wait_listening(proc, port, 900 if callgrind else 120)


def wait_listening(proc: subprocess.Popen[bytes], port: int, seconds: float) -> str:
    """Wait until ``proc`` accepts connections on ``port`` of loopback; return its ``/mcp`` URL.

    Raises:
        RuntimeError: it exited (with the end of its stderr) or did not listen within ``seconds`` (it is killed).
    """
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            err = proc.stderr.read().decode()[-2000:] if proc.stderr else ""
            raise RuntimeError(f"server exited: {err}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return f"http://127.0.0.1:{port}/mcp"
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("a server did not start in time")


def callgrind_on(pid: int) -> None:
    """Turn callgrind's instrumentation on in a worker started with ``callgrind`` (or in one of its lanes)."""
    subprocess.run(["callgrind_control", "-i", "on", str(pid)], capture_output=True, check=False)


async def lanes_on(workers: list[int], done: asyncio.Event, counted: set[int]) -> None:
    """Until ``done``: turn instrumentation on in every process the workers start (their bot lanes start when a
    table first needs one, after the worker's own instrumentation was turned on); add each to ``counted``."""
    while not done.is_set():
        for pid in with_lanes(workers):
            if pid not in counted:
                counted.add(pid)
                await asyncio.to_thread(callgrind_on, pid)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(done.wait(), 0.25)


async def warm_lanes(sessions: list[Session], seconds: float = 1800) -> None:
    """Start the bot lanes of the workers that ``sessions`` reach before callgrind counts anything: through each
    session, create bots-only tables of random bots (played by its worker's lanes: their processes start at the
    first one) and wait until they have finished, so the lanes' start-up (imports, under valgrind a minute or more)
    is not counted as a part of the moves played after. Four tables at a time: an agent may hold five open
    tables, and the session's agent sits at one already.

    Raises:
        RuntimeError: the tables did not finish within ``seconds``.
    """
    deadline = time.monotonic() + seconds
    args = {"game": "market-fortune", "seats": ["bot:random", "bot:random"], "options": {"mode": "fortuna"}}
    for s in sessions:
        for first in range(0, WARM_TABLES, 4):
            made = [await s.call("create_table", {**args, "seed": k}) for k in range(first, first + 4)]
            ids = {t["table_id"] for t in made}
            while ids:
                page = await s.call("list_tables", {"status": "finished", "mine": True, "limit": 100})
                ids -= {t["table_id"] for t in page["tables"]}
                if time.monotonic() > deadline:
                    raise RuntimeError(f"bots-only warm-up tables did not finish: {sorted(ids)}")
                await asyncio.sleep(0.5)


WARM_TABLES = 16
"""Bots-only tables the agent's worker plays before a callgrind run with a bot (:func:`warm_lanes`): a table's lane is
chosen by a hash of its id, so sixteen tables reach each of four lanes (the most a worker runs) with a
probability of 96 %, and each of fewer lanes more surely."""


def wait_gone(pids: set[int], seconds: float) -> None:
    """Wait up to ``seconds`` until none of ``pids`` runs any more (a lane writes its callgrind file as it ends)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and any(Path(f"/proc/{pid}").exists() for pid in pids):
        time.sleep(0.1)


def callgrind_total(path: str) -> int:
    """Return the instructions a finished callgrind run counted (its ``totals:`` or ``summary:`` line).

    Raises:
        RuntimeError: the file holds no total.
    """
    text = Path(path).read_text(errors="replace")
    m = re.search(r"^(?:totals|summary):\s+(\d+)", text, re.MULTILINE)
    if m is None:
        raise RuntimeError(f"no instruction total in {path}")
    return int(m.group(1))


def add_agent(store: Store, name: str) -> str:
    """Create an agent key with the CLI; return the key (the last line it prints).

    Raises:
        RuntimeError: the command failed.
    """
    out = subprocess.run(
        [*cli_cmd(), "agents", "add", name, "--db", store.db],
        capture_output=True,
        text=True,
        env={**os.environ, **store.env},
    )
    if out.returncode != 0:
        raise RuntimeError(out.stderr.strip())
    return out.stdout.strip().splitlines()[-1]


class Session:
    """One MCP client session over streamable HTTP, with an optional agent key."""

    def __init__(self, url: str, key: str | None) -> None:
        self.url = url
        self.key = key
        self.stack = AsyncExitStack()
        self.client: Client | None = None
        self.calls = 0
        self.play_waits = False  # play_move takes wait_s (this version of the server)

    async def __aenter__(self) -> Session:
        headers = {"Authorization": f"Bearer {self.key}"} if self.key else {}
        http = await self.stack.enter_async_context(httpx2.AsyncClient(headers=headers, timeout=900))
        self.client = await self.stack.enter_async_context(Client(streamable_http_client(self.url, http_client=http)))
        tools = (await self.client.list_tools()).tools
        play = next((t for t in tools if t.name == "play_move"), None)
        self.play_waits = play is not None and "wait_s" in play.input_schema.get("properties", {})
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stack.aclose()

    async def call(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        """Call a tool that must succeed; return its structured content.

        Raises:
            RuntimeError: the tool answered with an error.
        """
        assert self.client is not None
        self.calls += 1
        r = await self.client.call_tool(name, args)
        if r.is_error:
            text = " ".join(getattr(c, "text", "") for c in r.content)
            raise RuntimeError(f"{name} failed: {text}")
        return dict(r.structured_content or {})


async def enter(stack: AsyncExitStack, s: Session, tries: int = 5) -> None:
    """Open a session, retrying a refused connection a few times (a worker under callgrind on a loaded
    machine may not accept at once).

    Raises:
        RuntimeError: the session could not be opened.
    """
    for attempt in range(tries):
        try:
            await stack.enter_async_context(s)
            return
        except Exception as exc:  # httpx's ConnectError, wrapped in the client's task group
            s.stack = AsyncExitStack()
            if attempt == tries - 1:
                raise RuntimeError(f"cannot open a session: {exc!r}"[:300]) from exc
            await asyncio.sleep(2 * (attempt + 1))


async def agent_loop(
    s: Session,
    table: str,
    token: str,
    stop_at: float,
    lat: list[float],
    moves: list[int],
    index: int = 0,
) -> None:
    """Play one seat until the time is up or the game ends, with the fewest calls the server allows.

    An answer that says the decision is yours and lists the legal moves (play_move's answer when the
    next decision is the same seat's, or comes after bot replies; wait_for_turn's) is played at once;
    otherwise the agent waits, and reads get_view only if wait_for_turn did not list the moves (an
    older server).
    """
    rng = random.Random(token if SEED is None else f"{SEED}/{index}")
    last: dict[str, Any] | None = None
    while time.monotonic() < stop_at and (MOVES is None or moves[0] < MOVES):
        if last is not None and last.get("decision", {}).get("yours") and last.get("legal_moves"):
            v = last
        else:
            w = await s.call("wait_for_turn", {"table_id": table, "seat_token": token, "timeout_s": 5})
            if w["status"] == "finished":
                return
            if not w["ready"]:
                continue
            v = w
            if "legal_moves" not in w:  # an older server: wait_for_turn does not carry the legal moves
                v = await s.call("get_view", {"table_id": table, "seat_token": token})
                if v["status"] == "finished":
                    return
            if not v["decision"]["yours"] or not v["legal_moves"]:
                continue
        move = rng.choice(v["legal_moves"])["id"]
        args: dict[str, Any] = {"table_id": table, "seat_token": token, "move": move, "expected_version": v["version"]}
        if s.play_waits and PLAY_WAIT:
            args["wait_s"] = 5
        t = time.perf_counter()
        last = await s.call("play_move", args)
        lat.append(time.perf_counter() - t)
        if last["accepted"]:
            moves[0] += 1
        if last["status"] == "finished":
            return


async def run(
    store: Store, workers: int, agents: int, seconds: float, auth: bool, callgrind: str | None = None
) -> dict[str, float]:
    """Run one configuration; return its figures (with ``callgrind``, a folder: instructions per move too)."""
    outs = [str(Path(callgrind) / f"worker-{i}.%p.out") for i in range(workers)] if callgrind else [None] * workers
    procs = [start_worker(store, auth, out) for out in outs]
    counted: set[int] = set()  # the processes whose instructions are counted: the workers and their lanes
    try:
        keys: list[str | None] = [None] * agents
        if auth:
            tag = secrets.token_hex(3)
            keys = [add_agent(store, f"bench-{tag}-{i}") for i in range(agents)]
        urls = [url for _, url in procs]
        sessions = [Session(urls[i % workers], keys[i]) for i in range(agents)]
        async with AsyncExitStack() as stack:
            for s in sessions:
                await enter(stack, s)
            seats = ["agent", "bot:random"] if agents == 1 else ["agent", "agent"]
            jobs: list[tuple[Session, str, str]] = []
            for k in range(0, agents, 2):
                pair = sessions[k : k + 2]
                args: dict[str, Any] = {
                    "game": "market-fortune",
                    "seats": seats,
                    "options": {"mode": "fortuna", "require_club_pass": False},
                }
                if SEED is not None:
                    args["seed"] = SEED + k
                table = (await pair[0].call("create_table", args))["table_id"]
                for i, s in enumerate(pair):
                    join: dict[str, Any] = {"table_id": table}
                    if not auth:
                        join["agent"] = f"bench-{k + i}"
                    jobs.append((s, table, (await s.call("join_table", join))["seat_token"]))
            pids = [p.pid for p, _ in procs]
            done = asyncio.Event()
            if callgrind and agents == 1:  # a table with a bot: its worker's lanes start before anything is counted
                await warm_lanes(sessions)  # the agent's worker: the one that plays its table's bot
            if callgrind:
                for pid in pids:
                    callgrind_on(pid)
                counted.update(pids)
                watch = asyncio.ensure_future(lanes_on(pids, done, counted))
            cpu0, sys0 = cpu_seconds(pids)
            calls0 = sum(s.calls for s in sessions)
            lat: list[float] = []
            moves = [0]
            start = time.monotonic()
            await asyncio.gather(
                *(agent_loop(s, t, tok, start + seconds, lat, moves, i) for i, (s, t, tok) in enumerate(jobs))
            )
            elapsed = time.monotonic() - start
            done.set()
            if callgrind:
                await watch
            cpu1, sys1 = cpu_seconds(pids)
            cpu, system = cpu1 - cpu0, sys1 - sys0
            calls = sum(s.calls for s in sessions) - calls0
    finally:
        for p, _ in procs:
            p.terminate()
            p.wait(600 if callgrind else 10)
        wait_gone(counted, 600 if callgrind else 0)
    instructions = sum(callgrind_total(str(out)) for out in Path(callgrind).glob("worker-*.out")) if callgrind else 0
    return {
        "instructions": instructions,
        "instructions_per_move": instructions / max(1, moves[0]),
        "moves": moves[0],
        "moves_s": moves[0] / elapsed,
        "p50_ms": pct(lat, 50) * 1000,
        "p99_ms": pct(lat, 99) * 1000,
        "cpu_ms_per_move": cpu * 1000 / max(1, moves[0]),
        "system_share": system / cpu if cpu > 0 else 0.0,
        "calls_per_move": calls / max(1, moves[0]),
        "cpu_ms_per_call": cpu * 1000 / max(1, calls),
    }


def cli_cmd() -> list[str]:
    """Return the command that runs the measured ``club-agentes`` (under ``--without``, through ``without.py``)."""
    if WITHOUT:
        return [str(CLI.with_name("python")), str(_HERE / "without.py"), WITHOUT]
    return [str(CLI)]


TABLE = [
    ("sqlite", 1, 1),
    ("sqlite", 1, 16),
    ("sqlite", 1, 64),
    ("postgresql", 2, 1),
    ("postgresql", 2, 16),
    ("postgresql", 2, 64),
]
"""The configurations of ``--table``: (store, workers, agents)."""


def make_store(label: str, tmp: str, pg: str | None) -> Store:
    """Return a fresh store of that kind (a new SQLite file, or a new PostgreSQL schema).

    Raises:
        RuntimeError: PostgreSQL is asked for without a URL.
    """
    if label == "sqlite":
        return Store(str(Path(tempfile.mkdtemp(dir=tmp)) / "bench.sqlite3"))
    if not pg:
        raise RuntimeError("no PostgreSQL URL (--pg or CLUB_AGENTES_TEST_PG)")
    return Store(pg, {"CLUB_AGENTES_DB_SCHEMA": "bench_" + secrets.token_hex(4)})


def measure(
    cli: Path,
    label: str,
    workers: int,
    agents: int,
    seconds: float,
    tmp: str,
    pg: str | None,
    callgrind: bool,
    keep: str | None = None,
) -> dict[str, float]:
    """Run one configuration against the server ``cli`` on a fresh store; return its figures.

    With ``keep`` (a folder), the callgrind files are copied there as
    ``<label>-w<workers>-a<agents>-worker-<i>.<pid>.out`` (one per worker and one per process it started: its bot
    lanes).

    Raises:
        RuntimeError: a worker did not start, a tool failed, or no PostgreSQL URL is known.
    """
    global CLI
    CLI = cli
    store = make_store(label, tmp, pg)
    cg = tempfile.mkdtemp(dir=tmp) if callgrind else None
    figures = asyncio.run(run(store, workers, agents, seconds, has_agent_keys(), cg))
    if cg and keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        for out in Path(cg).glob("worker-*.out"):
            shutil.copy(out, Path(keep) / f"{label}-w{workers}-a{agents}-{out.name}")
    return figures


def print_table(args: argparse.Namespace, tmp: str) -> None:
    """Print the before/after table of issue 26: :data:`TABLE`'s configurations, each measured twice.

    A callgrind pass gives the instructions per agent move; a plain pass of the same length gives CPU
    ms per move and p50/p99. With ``--baseline CLI`` each configuration is measured on that server
    too, and the ratio after/before of the instructions is printed.
    """
    servers = [("before", Path(args.baseline))] if args.baseline else []
    servers.append(("after" if args.baseline else "this", CLI))
    for name, cli in servers:
        print(f"{name}: {cli}")
    head = f"{'store':<11} {'workers':>7} {'agents':>6}"
    for name, _ in servers:
        head += f" | {name + ' instr/move':>18} {'CPU ms/move':>11} {'p50 ms':>8} {'p99 ms':>8} {'moves':>6}"
    if args.baseline:
        head += f" | {'instr ratio':>11}"
    print(head, flush=True)
    only = {tuple(c.split("/")) for c in args.configs.split(",")} if args.configs else None
    for label, workers, agents in TABLE:
        if label == "postgresql" and (args.sqlite_only or not args.pg):
            continue
        if only is not None and (label, str(workers), str(agents)) not in only:
            continue
        line = f"{label:<11} {workers:>7} {agents:>6}"
        instr: list[float] = []
        for name, cli in servers:
            try:
                keep = str(Path(args.keep_callgrind) / name) if args.keep_callgrind else None
                cg = measure(cli, label, workers, agents, args.seconds, tmp, args.pg, True, keep)
                plain = measure(cli, label, workers, agents, args.plain_seconds, tmp, args.pg, False)
            except Exception as exc:  # one configuration failing does not stop the table
                line += f" | failed: {exc!r}"[:200]
                continue
            instr.append(cg["instructions_per_move"])
            line += (
                f" | {cg['instructions_per_move']:>18,.0f} {plain['cpu_ms_per_move']:>11.2f}"
                f" {plain['p50_ms']:>8.1f} {plain['p99_ms']:>8.1f} {plain['moves']:>6.0f}"
            )
        if args.baseline and len(instr) == 2 and instr[0]:
            line += f" | {instr[1] / instr[0]:>11.3f}"
        print(line, flush=True)


def main() -> None:
    """Print the figures."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--agents", default="1,16,64", help="comma-separated agent session counts")
    ap.add_argument("--workers", default="1,2", help="comma-separated worker counts")
    ap.add_argument("--seconds", type=float, default=20.0, help="seconds of play per configuration")
    ap.add_argument("--pg", default=os.environ.get("CLUB_AGENTES_TEST_PG"), help="PostgreSQL URL (optional)")
    ap.add_argument("--sqlite-only", action="store_true", help="skip PostgreSQL even if a URL is known")
    ap.add_argument("--pg-only", action="store_true", help="skip SQLite (PostgreSQL only)")
    ap.add_argument(
        "--callgrind",
        action="store_true",
        help="run workers under valgrind callgrind and print server instructions per move (load-independent)",
    )
    ap.add_argument("--no-play-wait", action="store_true", help="never pass wait_s to play_move")
    ap.add_argument("--seed", type=int, help="seed the tables (seed + k) and the agents' choices: repeatable games")
    ap.add_argument(
        "--moves",
        type=int,
        help="stop every agent once the agents made this many moves in all (with --seed the games are the same;"
        " which tables got how far depends on timing; --seconds still caps it)",
    )
    ap.add_argument(
        "--marginal",
        type=int,
        metavar="LONG",
        help="with --callgrind and --moves SHORT: run each configuration again to LONG moves and print the"
        " instructions per move between the two stops (start-up cancels out)",
    )
    ap.add_argument("--cli", help="the club-agentes executable to measure (default: this Python's)")
    ap.add_argument(
        "--without",
        metavar="NAMES",
        help="turn these SDK-level savings off in the measured server (orjson,keycache,resultskip; see without.py)",
    )
    ap.add_argument("--keep-callgrind", metavar="DIR", help="copy the workers' callgrind files into DIR")
    ap.add_argument(
        "--table",
        action="store_true",
        help="issue 26's table: SQLite 1 worker and PostgreSQL 2 workers at 1/16/64 agents, callgrind and plain",
    )
    ap.add_argument("--baseline", metavar="CLI", help="with --table: measure this club-agentes too (before)")
    ap.add_argument("--configs", help="with --table: only these rows, e.g. sqlite/1/16,postgresql/2/16")
    ap.add_argument("--plain-seconds", type=float, default=20.0, help="with --table: seconds of the plain pass")
    args = ap.parse_args()
    global PLAY_WAIT, SEED, CLI, MOVES, WITHOUT
    PLAY_WAIT = not args.no_play_wait
    SEED = args.seed
    MOVES = args.moves
    if args.cli:
        CLI = Path(args.cli)
    WITHOUT = args.without or ""
    if (args.callgrind or args.table) and shutil.which("valgrind") is None:
        ap.error("--callgrind and --table need valgrind (apt install valgrind)")
    if args.marginal is not None and not (args.callgrind and args.moves and args.marginal > args.moves):
        ap.error("--marginal LONG needs --callgrind and --moves SHORT with SHORT < LONG")
    if args.table:
        with tempfile.TemporaryDirectory() as tmp:
            print_table(args, tmp)
        return
    auth = has_agent_keys()
    print(f"server: {CLI} ({'agent keys' if auth else 'no agent keys: an older version'})")
    with tempfile.TemporaryDirectory() as tmp:
        labels = [] if args.pg_only else ["sqlite"]
        if args.pg and not args.sqlite_only:
            labels.append("postgresql")
        print(
            f"{'store':<11} {'workers':>7} {'agents':>6} {'moves':>6} {'moves/s':>8} {'p50 ms':>8} {'p99 ms':>8}"
            f" {'CPU ms/move':>11} {'sys %':>5} {'calls/move':>10} {'CPU ms/call':>11}"
            + (f" {'instr/move':>12}" if args.callgrind else "")
        )
        stops = [args.moves, args.marginal] if args.marginal else [args.moves]
        for label in labels:
            store: Store | None = None  # one store per label; with --marginal, a fresh one per run
            for workers in [int(w) for w in args.workers.split(",")]:
                for agents in [int(a) for a in args.agents.split(",")]:
                    runs: list[dict[str, float]] = []
                    for stop in stops:
                        MOVES = stop
                        try:
                            if store is None or args.marginal:  # marginal runs start alike: from an empty store
                                store = make_store(label, tmp, args.pg)
                            cg = tempfile.mkdtemp(dir=tmp) if args.callgrind else None
                            f = asyncio.run(run(store, workers, agents, args.seconds, auth, cg))
                            if cg and args.keep_callgrind:
                                Path(args.keep_callgrind).mkdir(parents=True, exist_ok=True)
                                for out in Path(cg).glob("worker-*.out"):
                                    name = f"{label}-w{workers}-a{agents}-m{stop}-{out.name}"
                                    shutil.copy(out, Path(args.keep_callgrind) / name)
                        except RuntimeError as exc:
                            print(f"{label:<11} {workers:>7} {agents:>6}  failed: {exc}")
                            break
                        runs.append(f)
                        print(
                            f"{label:<11} {workers:>7} {agents:>6} {f['moves']:>6.0f} {f['moves_s']:>8.1f}"
                            f" {f['p50_ms']:>8.1f} {f['p99_ms']:>8.1f} {f['cpu_ms_per_move']:>11.2f}"
                            f" {f['system_share'] * 100:>5.0f} {f['calls_per_move']:>10.2f}"
                            f" {f['cpu_ms_per_call']:>11.2f}"
                            + (f" {f['instructions_per_move']:>12,.0f}" if args.callgrind else ""),
                            flush=True,
                        )
                    if len(runs) == 2 and runs[1]["moves"] > runs[0]["moves"]:
                        short, long = runs
                        per_move = (long["instructions"] - short["instructions"]) / (long["moves"] - short["moves"])
                        print(
                            f"{label:<11} {workers:>7} {agents:>6}  marginal: {per_move:,.0f} instructions per move"
                            f" (moves {short['moves']:.0f} to {long['moves']:.0f}, start-up cancelled)",
                            flush=True,
                        )


if __name__ == "__main__":
    main()

"""Where an agent move's instructions go inside the table service, counted by callgrind (issue 26, point 5).

Run: ``python benchmarks/move_parts.py [--moves 300] [--marginal 1300] [--tables 8] [--seed 7]`` (needs valgrind).

One capture run (not measured) plays ``--tables`` Market Fortune tables of two agent seats each (``fortuna``, seeds
from ``--seed``), through :class:`~club_agentes.mcp_server.tables.TableService` in process as
``benchmarks/scale.py``'s agents play over HTTP: each seat waits for its decision, picks a random listed legal
move and plays it with ``wait_s``, so one answer is read per move. It keeps the store as it was before the first
move, the tables' seeds and every write the service made (:class:`~club_agentes.mcp_server.store.tables.Append`).
Then three children run under callgrind, each twice (``--moves`` and ``--marginal`` moves: start-up and set-up
cancel out), and the script prints each one's instructions per move:

* ``service``: the same games through the table service again (no MCP, no HTTP): everything a move costs
  behind the tool function;
* ``engine``: the rules engine's share of it: the captured moves applied one after another, and for each seat
  that must decide after a move, what its answer needs from the engine: its view, the view's state lines, its
  legal moves, their plain words (``explain``) and each listed move's text and JSON forms. Measured piece by
  piece (each run does one piece more than the one before; the differences are printed under it);
* ``store``: the store's share: the captured writes replayed, in order, into a copy of the store as it was
  before the first move (SQLite, in the calling thread: no hop to the store's thread).

``service - engine - store`` is the table service's own work per move (locks, seat versions, waits and
wake-ups, the answer's facts, the events' rows). The SDK's floor for one tool call over HTTP is
``benchmarks/floor.py``'s figure (``sdk anoop``); given as ``--floor``, it is added to the engine's and the
store's figures: what one agent move costs the server at the least with this engine, this store and this SDK,
whatever the rest of our code does (a move is one ``play_move`` call at 16 agents). ``benchmarks/scale.py
--callgrind`` gives the whole server's figure per move.
"""

from __future__ import annotations

import argparse
import json
import pickle
import re
import shutil
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from club_agentes.mcp_server.store.tables import Append

_HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(_HERE))
from under_callgrind import under_callgrind  # noqa: E402

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]  # benchmarks/mcp.py is not the SDK

_MOVES = re.compile(r"MOVES (\d+)")
PARTS = ("service", "engine", "store")


class _NoPasses:
    """The tables are created without club passes: the verifier is never asked."""

    def admit(self, club_pass: str | None, agent: str, game: str) -> str | None:
        return "no club passes here"


def service_child(folder: Path, tables: int, seed: int, limit: int, capture: bool) -> int:
    """Play ``limit`` agent moves (a few more: the seats stop at the next answer) at ``tables`` new tables through
    a :class:`TableService` on a fresh SQLite store in ``folder``; return the moves played. With ``capture``, keep
    the store before the first move (``before.sqlite3``), the tables (``tables.json``) and every write
    (``appends.pickle``) in ``folder``."""
    import asyncio
    import random
    import sqlite3
    from dataclasses import replace

    import uvloop
    from club_agentes.mcp_server.store import Store
    from club_agentes.mcp_server.tables import TableService, TableSettings
    from club_agentes.rules_corpus import load_corpus

    path = folder / ("capture.sqlite3" if capture else "service.sqlite3")
    store = Store(path)
    settings = replace(TableSettings.from_env(), bot_workers=0)
    svc = TableService(store, load_corpus(), _NoPasses(), settings=settings)
    writes: list[bytes] = []
    played = [0]

    async def seat_loop(table: str, agent: str, token: str, rng: random.Random) -> None:
        last = None
        while played[0] < limit:
            if last is not None and last.state.decision.yours and last.state.moves:
                state = last.state
            else:
                waited = await svc.wait(table, token, 5, agent=agent)
                if waited.state.table.status != "playing":
                    return
                state = waited.state
                if not waited.ready or not state.decision.yours or not state.moves:
                    continue
            move = rng.choice(state.moves).id
            last = await svc.play(table, token, move, state.table.version, 5, agent=agent)
            played[0] += last.accepted
            if last.state.table.status != "playing":
                return

    async def main() -> None:
        made = []
        for k in range(tables):
            options = {"mode": "fortuna", "require_club_pass": False}
            created = await svc.create("market-fortune", ["agent", "agent"], options, seed + k, creator="bench")
            table = created.table.table_id
            seats = [(f"bench-{k}-{i}", (await svc.join(table, f"bench-{k}-{i}", None, None)).token) for i in (0, 1)]
            made.append((table, seed + k, seats))
        if capture:
            with closing(sqlite3.connect(path)) as src, closing(sqlite3.connect(folder / "before.sqlite3")) as dst:
                src.backup(dst)  # the store as it is now, what its write-ahead log holds included
            (folder / "tables.json").write_text(json.dumps([[t, s] for t, s, _ in made]))
            append = store.tables.append

            def recorded(a: Append) -> int:
                writes.append(pickle.dumps(a))  # before the store reads it (it may replace its events)
                return append(a)

            store.tables.append = recorded
        rngs = [random.Random(f"{seed}/{n}") for n in range(2 * tables)]
        loops = [
            seat_loop(table, agent, token, rngs[2 * k + i])
            for k, (table, _s, seats) in enumerate(made)
            for i, (agent, token) in enumerate(seats)
        ]
        await asyncio.gather(*loops)
        await svc.aclose()

    uvloop.run(main())
    store.close()
    if capture:
        (folder / "appends.pickle").write_bytes(pickle.dumps(writes))
    return played[0]


def _captured(folder: Path) -> list[Append]:
    """Return the writes the capture run kept, in the order the service made them. Raises what reading them
    raises (no capture in ``folder``)."""
    return [pickle.loads(w) for w in pickle.loads((folder / "appends.pickle").read_bytes())]


def store_child(folder: Path, limit: int) -> int:
    """Replay the captured writes of the first ``limit`` moves into a copy of the store before the first move;
    return the moves written."""
    from club_agentes.mcp_server.store import Store

    copy = folder / f"store-{limit}.sqlite3"
    shutil.copyfile(folder / "before.sqlite3", copy)
    writes = _captured(folder)
    store = Store(copy)
    moves = 0
    for a in writes:
        if moves >= limit:
            break
        store.tables.append(a)
        moves += len(a.moves)
    store.close()
    return moves


ENGINE_PIECES = ("apply", "view", "state text", "legal moves", "plain words", "move forms")
"""What the engine does for each move, in the order the engine child adds them: the move's own text and JSON
forms and ``apply``; then for each seat that must decide after it: ``view``, ``state_text`` of that view,
``legal_moves``, ``explain`` of them, and each legal move's text and JSON forms."""


def engine_child(folder: Path, limit: int, pieces: int = len(ENGINE_PIECES)) -> int:
    """Apply the captured moves of the first ``limit`` moves to the tables' games, with the first ``pieces`` of
    :data:`ENGINE_PIECES` for each (see the module docstring); return the moves applied."""
    from club_agentes.engine.core import get_game

    game = get_game("market-fortune")
    states = {}
    for table, seed in json.loads((folder / "tables.json").read_text()):
        states[table], _setup = game.start(game.make_config(2, {"mode": "fortuna"}), seed)
    names = ("seat 0 (bench)", "seat 1 (bench)")
    plays = [(a.table_id, seat, game.parse_move(move)) for a in _captured(folder) for seat, move, _who, _at in a.moves]
    moves = 0
    for table, seat, move in plays[:limit]:
        state = states[table]
        move.text(), move.to_json()
        game.apply(state, seat, move)
        for s in game.pending(state).seats if pieces > 1 else ():
            view = game.view(state, s)
            if pieces > 2:
                game.state_text(view)
            if pieces > 3:
                legal = game.legal_moves(state, s)
                if pieces > 4:
                    game.explain(state, s, legal, names)
                if pieces > 5:
                    for m in legal:
                        m.text(), m.to_json()
        moves += 1
    return moves


def _measure(part: str, folder: Path, limit: int, args: argparse.Namespace, pieces: int = 0) -> tuple[int, int]:
    """Return (instructions, moves) of one child run under callgrind (``pieces``: the engine child's).

    Raises:
        RuntimeError: valgrind failed or printed no total, or the child printed no moves.
    """
    child = ["--child", part, "--folder", str(folder), "--tables", str(args.tables), "--seed", str(args.seed)]
    child += ["--limit", str(limit), "--pieces", str(pieces)]
    instructions, out = under_callgrind([sys.executable, __file__, *child])
    moves = _MOVES.search(out)
    if moves is None:
        raise RuntimeError(f"the {part} child printed no moves: {out[-500:]}")
    return instructions, int(moves.group(1))


def main() -> None:
    """Capture the games, then print each part's instructions per move.

    Raises:
        SystemExit: valgrind is missing, or the capture played fewer moves than ``--marginal``.
    """
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--moves", type=int, default=300, help="moves of the short runs")
    ap.add_argument("--marginal", type=int, default=1300, help="moves of the long runs")
    ap.add_argument("--tables", type=int, default=8, help="tables of two agent seats (16 agents by default)")
    ap.add_argument("--seed", type=int, default=7, help="seed of the first table (the others follow)")
    ap.add_argument("--parts", default=",".join(PARTS), help=f"comma-separated, of {', '.join(PARTS)}")
    ap.add_argument("--floor", type=int, help="the SDK's instructions per tool call (benchmarks/floor.py, sdk anoop)")
    ap.add_argument("--child", choices=PARTS, help=argparse.SUPPRESS)
    ap.add_argument("--folder", help=argparse.SUPPRESS)
    ap.add_argument("--limit", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--pieces", type=int, default=len(ENGINE_PIECES), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        folder = Path(args.folder)
        if args.child == "service":
            moves = service_child(folder, args.tables, args.seed, args.limit, capture=False)
        elif args.child == "store":
            moves = store_child(folder, args.limit)
        else:
            moves = engine_child(folder, args.limit, args.pieces or len(ENGINE_PIECES))
        print("MOVES", moves)
        return
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed; this benchmark counts instructions with callgrind")
    parts = [p for p in args.parts.split(",") if p]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        captured = service_child(folder, args.tables, args.seed, args.marginal, capture=True)
        if captured < args.marginal:
            sys.exit(f"the capture played {captured} moves, fewer than --marginal {args.marginal}")
        print(
            f"{args.tables} Market Fortune table{'s' if args.tables != 1 else ''} of two agent seats, seeds "
            f"{args.seed}-{args.seed + args.tables - 1}; "
            f"instructions per move between {args.moves} and {args.marginal} moves",
            flush=True,
        )
        with ThreadPoolExecutor(2) as pool:  # the short and the long run of each figure side by side

            def per_move(part: str, pieces: int = 0) -> tuple[float, int, int]:
                short, long = pool.map(lambda n: _measure(part, folder, n, args, pieces), (args.moves, args.marginal))
                return (long[0] - short[0]) / max(1, long[1] - short[1]), short[1], long[1]

            figures: dict[str, float] = {}
            for part in parts:
                per, n_short, n_long = per_move(part, len(ENGINE_PIECES) if part == "engine" else 0)
                figures[part] = per
                print(f"{part:8} {per:12,.0f} per move ({n_short} and {n_long} moves)", flush=True)
                if part == "engine":
                    before = 0.0
                    for k, piece in enumerate(ENGINE_PIECES, 1):
                        upto = per if k == len(ENGINE_PIECES) else per_move("engine", k)[0]
                        print(f"  {piece:14} {upto - before:12,.0f}", flush=True)
                        before = upto
        if {"service", "engine", "store"} <= figures.keys():
            own = figures["service"] - figures["engine"] - figures["store"]
            print(f"the table service's own work: {own:,.0f} per move")
        if args.floor is not None and {"engine", "store"} <= figures.keys():
            least = args.floor + figures["engine"] + figures["store"]
            print(f"the SDK's floor {args.floor:,} + engine + store: {least:,.0f} per move at the least")


if __name__ == "__main__":
    main()

"""Lost wake-ups: waits that ran out their time while their seat had a decision.

Two agents play whole Race games (a toy: add 1 or 2 to a counter) through table services in this process,
on SQLite (one worker) and on PostgreSQL (one worker, and two workers sharing one schema, a move and a wait
going to either at random). Each agent waits with ``wait_for_turn`` or ``play_move(wait_s)``, thinks a
random few milliseconds, and moves; waits go through the long-poll limit as the MCP tools' do. Waiters
re-read the store only once a minute, so only a wake-up ends a sleep early.

A wait is *lost* when it used its whole time although its seat had a decision (``wait_for_turn`` answers
``your_decision`` after ``timeout`` seconds, or ``play_move(wait_s)`` answers without the decision, so its
wait ran out, and a zero-timeout check right after finds the decision). The other seat always moves within milliseconds,
so with ``--timeout`` seconds far above that every lost wait is a decision slept past. Prints the counts.

    .venv/bin/python benchmarks/wakeups.py --moves 2000 --timeout 3 --pg postgresql://postgres@127.0.0.1:5432/test
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import secrets
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from club_agentes.engine.core import Game, UnknownGame
from club_agentes.mcp_server.limits import Limits, LimitSettings
from club_agentes.mcp_server.store import Store
from club_agentes.mcp_server.tables import TableService, TableSettings
from club_agentes.rules_corpus import load_corpus

from tests.mcp.table_toys import Race


class Anyone:
    """Every agent may sit (no club pass)."""

    def admit(self, club_pass: str | None, agent: str, game: str) -> str | None:
        return None


def race(game_id: str) -> Game:
    """The only game of these services: the toy Race."""
    if game_id != "toy-race":
        raise UnknownGame(game_id)
    return Race()


@dataclass
class Tally:
    """What the waits answered."""

    waits: int = 0
    lost: int = 0
    moves: int = 0


async def agent(
    svcs: list[TableService], tid: str, token: str, name: str, rng: random.Random, t: Tally, timeout: float
) -> None:
    """Play one seat to the end of the game."""
    while True:
        svc = rng.choice(svcs)
        out = await svc.wait(tid, token, timeout, agent=name)
        t.waits += 1
        t.lost += out.ready and out.state.decision.yours and out.waited_s >= timeout
        if out.reason == "game_over":
            return
        if not out.ready:
            continue
        await asyncio.sleep(rng.random() * 0.004)
        pick = rng.choice(out.state.moves)
        other = rng.choice(svcs)
        wait_s = rng.choice([0.0, timeout])
        played = await other.play(tid, token, pick.id, out.state.seat_version, wait_s, agent=name)
        t.moves += played.accepted
        if wait_s and played.accepted and played.state.table.status == "playing" and not played.state.decision.yours:
            now = await other.wait(tid, token, 0, agent=name)
            t.waits += 1
            t.lost += now.ready


async def soak(stores: list[Store], moves: int, timeout: float, seed: int, goal: int = 500) -> Tally:
    """Play whole games until ``moves`` moves were played; return the tally."""
    settings = TableSettings(bot_workers=0, decision_timeout_s=None, sweep_s=3600, poll_s=60.0)
    corpus = load_corpus()
    svcs = [
        TableService(s, corpus, Anyone(), games=race, settings=settings, limits=Limits(LimitSettings(), s))
        for s in stores
    ]
    tally = Tally()
    rng = random.Random(seed)
    try:
        while tally.moves < moves:
            t = await svcs[0].create("toy-race", ["agent", "agent"], {"require_club_pass": False, "goal": goal}, seed)
            tid = t.table.table_id
            names = ["ana", "bob"]
            tokens = [(await svcs[0].join(tid, n, None, None)).token for n in names]
            await asyncio.gather(
                *(
                    agent(svcs, tid, tok, n, random.Random(rng.random()), tally, timeout)
                    for tok, n in zip(tokens, names, strict=True)
                )
            )
    finally:
        for svc in svcs:
            await svc.aclose()
    return tally


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--moves", type=int, default=2000, help="moves per configuration (whole games, ~330 moves each)")
    ap.add_argument("--timeout", type=float, default=3.0, help="seconds each wait may take")
    ap.add_argument("--pg", default=os.environ.get("CLUB_AGENTES_TEST_PG"), help="PostgreSQL URL (optional)")
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--goal", type=int, default=500, help="the Race's goal (a game is about 2/3 of it in moves)")
    ap.add_argument("--pg-workers", default="1,2", help="comma-separated PostgreSQL worker counts")
    ap.add_argument("--no-sqlite", action="store_true", help="skip the SQLite run")
    args = ap.parse_args()
    import tempfile

    configs: list[tuple[str, int]] = [] if args.no_sqlite else [("sqlite", 1)]
    if args.pg:
        configs += [("postgresql", int(n)) for n in args.pg_workers.split(",")]
    print(f"{'store':<11} {'workers':>7} {'moves':>6} {'waits':>6} {'lost':>5} {'seconds':>8}")
    for kind, workers in configs:
        with tempfile.TemporaryDirectory() as tmp:
            schema = None
            if kind == "sqlite":
                stores = [Store(str(Path(tmp) / "club.sqlite3"))]
            else:
                schema = "bench_" + secrets.token_hex(5)
                stores = [Store(args.pg, schema=schema) for _ in range(workers)]
            start = time.monotonic()
            try:
                tally = asyncio.run(soak(stores, args.moves, args.timeout, args.seed, args.goal))
            finally:
                for s in stores:
                    s.close()
                if schema is not None:
                    import psycopg

                    with psycopg.connect(args.pg, autocommit=True) as conn, contextlib.suppress(Exception):
                        conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
            took = time.monotonic() - start
            print(f"{kind:<11} {workers:>7} {tally.moves:>6} {tally.waits:>6} {tally.lost:>5} {took:>8.1f}", flush=True)


if __name__ == "__main__":
    main()

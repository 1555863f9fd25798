"""``club-agentes ratings rebuild|show`` and ``club-agentes exhibition``: the clubhouse's operator commands.

They act on the store the server uses (``--db``, ``--db-schema`` or their ``CLUB_AGENTES_*`` variables).

* ``ratings rebuild`` deletes every rating and rates every finished game again from the tables'
  records, in the order they finished (a running server's next pass finds nothing new to rate);
  ``ratings show [--game G]`` prints the leaderboards.
* ``exhibition GAME`` plays a bots-only table at a watchable pace (``--pace`` seconds per decision)
  so that people can follow it on the spectator page; it prints the table id and waits for the end.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Any

from club_agentes.errors import Refused
from club_agentes.manifest import game_ids


def add_commands(sub: Any) -> None:
    """Declare the ``ratings`` and ``exhibition`` subcommands."""
    from club_agentes.mcp_server.settings import add_arguments

    ratings = sub.add_parser("ratings", help="rebuild or show the clubhouse ratings")
    rsub = ratings.add_subparsers(dest="ratings_command", required=True)
    rebuild = rsub.add_parser("rebuild", help="recompute every rating from the finished games, in order")
    rebuild.set_defaults(run=run_ratings_rebuild)
    show = rsub.add_parser("show", help="print the leaderboards (rating = mu - 3 sigma)")
    show.add_argument("--game", default=None, help="only this game's leaderboard")
    show.add_argument("--limit", type=int, default=20, help="players per leaderboard (1 to 100, default 20)")
    show.set_defaults(run=run_ratings_show)
    for p in (rebuild, show):
        add_arguments(p, "admin")

    ex = sub.add_parser(
        "exhibition",
        help="play a bots-only table at a watchable pace for the spectator page",
        description="Create a table of bots only and play it one decision every --pace seconds, so that "
        "spectators can follow it at /tables/<id> of a server sharing this store. Prints the table id, then "
        "waits for the end.",
    )
    ex.add_argument("game", help=f"game id: {', '.join(game_ids())}")
    ex.add_argument(
        "--seats",
        default="bot:heuristic,bot:heuristic",
        help="comma-separated bot seats (default: bot:heuristic,bot:heuristic)",
    )
    ex.add_argument("--pace", type=float, default=1.0, help="seconds before each decision (0 to 30, default 1)")
    ex.add_argument("--seed", type=int, default=None, help="seed of the deal (default: a secret random one)")
    ex.add_argument("--mode", default=None, help="the game's mode option, e.g. fortuna (market-fortune)")
    ex.add_argument("--timeout", type=float, default=3600.0, help="most seconds to wait for the end (default 3600)")
    add_arguments(ex, "admin")
    ex.set_defaults(run=run_exhibition)


def _fail(message: str) -> int:
    sys.stderr.write(f"club-agentes: {message}\n")
    return 2


def _open(args: argparse.Namespace) -> Any:
    from club_agentes.mcp_server.settings import load_settings
    from club_agentes.mcp_server.store import Store

    settings = load_settings(args)
    return Store(settings.db, schema=settings.db_schema)


def run_ratings_rebuild(args: argparse.Namespace) -> int:
    """Rebuild every rating; print how many games were rated. 2 when the store cannot be used."""
    from club_agentes.mcp_server.clubhouse.ratings import Ratings
    from club_agentes.mcp_server.store import StoreError

    try:
        store = _open(args)
        try:
            count = Ratings(store).rebuild()
            players = len(store.clubhouse.all_ratings())
        finally:
            store.close()
    except (Refused, StoreError) as exc:
        return _fail(str(exc))
    sys.stdout.write(f"Rated {count} finished games again; {players} ratings (player and game) stored.\n")
    return 0


def run_ratings_show(args: argparse.Namespace) -> int:
    """Print the leaderboards. 2 for an unknown game, a bad limit or a store that cannot be used."""
    from club_agentes.mcp_server.clubhouse.ratings import Ratings
    from club_agentes.mcp_server.clubhouse.service import Clubhouse
    from club_agentes.mcp_server.clubhouse.tools import build_leaderboard, leaderboard_text
    from club_agentes.mcp_server.store import StoreError

    from club_agentes.manifest import game_ids

    try:
        store = _open(args)
        try:
            Ratings(store).rate_pending()
            club = Clubhouse(store, None)  # leaderboards need no table service
            games = [args.game] if args.game else list(game_ids())
            texts = [leaderboard_text(build_leaderboard(club, g, args.limit)) for g in games]
        finally:
            store.close()
    except (Refused, StoreError) as exc:
        return _fail(str(exc))
    sys.stdout.write("\n\n".join(texts) + "\n")
    return 0


def run_exhibition(args: argparse.Namespace) -> int:
    """Play an exhibition to its end; print the table id first. 2 for bad arguments, 1 if it did not finish."""
    from club_agentes.mcp_server.clubhouse.exhibition import paced_service, start_exhibition, wait_finished
    from club_agentes.mcp_server.store import StoreError

    seats = [s.strip() for s in args.seats.split(",") if s.strip()]
    options = {"mode": args.mode} if args.mode else None

    async def main() -> str:
        store = _open(args)
        service = paced_service(store, args.pace)
        try:
            table_id = await start_exhibition(service, args.game, seats, options=options, seed=args.seed)
            sys.stdout.write(f"{table_id}\n")
            sys.stdout.flush()
            status = await wait_finished(store, table_id, args.timeout)
        finally:
            await service.aclose()
            service.lanes.close()
            store.close()
        sys.stdout.write(f"Table {table_id}: {status}.\n")
        return status

    try:
        status = asyncio.run(main())
    except (Refused, StoreError, ValueError) as exc:
        return _fail(str(exc))
    return 0 if status == "finished" else 1

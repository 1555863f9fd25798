"""Engine speed and bot strength, printed as figures (run: python benchmarks/engine.py).

For every registered game and each of its sample configurations (every seat count
and mode): random playouts on one core with the legal moves listed at every
decision, as an agent sees them; prints decisions per second and games per
second. Then the heuristic bot's win rate against random bots over seeded games,
in the setting each game's issue names.

Floors (from the issues): Market Fortune 30,000 decisions/s, Se Vende 20,000,
Yo soy el jefe 15,000; heuristic win rate: Market Fortune >= 80 % (4 seats,
Fortuna), Se Vende >= 70 % (3 seats), Yo soy el jefe >= 70 % (4 seats).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

# This file's name shadows a package of the same name when run as a script: drop its folder from the path.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

from club_agentes.engine.core import RandomBot, all_games, play  # noqa: E402

FLOORS = {"market-fortune": 30_000, "se-vende": 20_000, "yo-soy-el-jefe": 15_000}
WINRATE = {
    "market-fortune": (4, {"mode": "fortuna"}, 0.80),
    "se-vende": (3, {}, 0.70),
    "yo-soy-el-jefe": (4, {}, 0.70),
}


def speed(game: Any, seats: int, options: dict[str, Any], seconds: float) -> tuple[float, float, int]:
    """Return (decisions/s, games/s, games) of random playouts for about ``seconds``."""
    config = game.make_config(seats, options)
    bots = [RandomBot() for _ in range(seats)]
    decisions = games = 0
    seed = 1
    start = time.perf_counter()
    while True:
        rec = play(game, config, seed, bots)
        decisions += rec.decisions
        games += 1
        seed += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds and games >= 3:
            return decisions / elapsed, games / elapsed, games


def win_rate(game: Any, seats: int, options: dict[str, Any], n: int) -> tuple[float, float]:
    """Return (win rate, mean seconds per game) of one heuristic bot against random bots.

    The heuristic bot's seat rotates with the seed, so no seat order favours it.
    """
    config = game.make_config(seats, options)
    wins = 0
    start = time.perf_counter()
    for seed in range(1, n + 1):
        hero = seed % seats
        bots = [game.make_bot("heuristic") if s == hero else RandomBot() for s in range(seats)]
        rec = play(game, config, seed, bots)
        result = game.result(rec.state)
        if result is not None and hero in result.winners:
            wins += 1
    return wins / n, (time.perf_counter() - start) / n


def main() -> None:
    """Print the figures."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", help="only this game id")
    ap.add_argument("--seconds", type=float, default=3.0, help="time per configuration for the speed runs")
    ap.add_argument("--games", type=int, default=200, help="seeded games for the win rate")
    ap.add_argument("--skip-winrate", action="store_true")
    args = ap.parse_args()

    for game in all_games():
        if args.game and game.id != args.game:
            continue
        floor = FLOORS.get(game.id)
        print(f"\n== {game.id}: random playouts, legal moves listed at every decision (floor {floor:,} decisions/s)")
        print(f"{'seats':>5}  {'options':<40} {'decisions/s':>12} {'games/s':>9} {'games':>6}")
        worst = None
        for seats, options in game.sample_configs():
            dps, gps, n = speed(game, seats, options, args.seconds)
            worst = dps if worst is None else min(worst, dps)
            print(f"{seats:>5}  {json.dumps(options, sort_keys=True):<40} {dps:>12,.0f} {gps:>9,.1f} {n:>6}")
        if worst is not None and floor is not None:
            print(f"slowest configuration: {worst:,.0f} decisions/s -> floor {'met' if worst >= floor else 'NOT met'}")
        if not args.skip_winrate and game.id in WINRATE and "heuristic" in game.bots:
            seats, options, target = WINRATE[game.id]
            rate, per_game = win_rate(game, seats, options, args.games)
            verdict = "met" if rate >= target else "NOT met"
            print(
                f"heuristic bot vs {seats - 1} random bots, {args.games} seeded games, {seats} seats {options}: "
                f"wins {rate:.1%} (target {target:.0%}: {verdict}); {per_game * 1000:.1f} ms per game"
            )


if __name__ == "__main__":
    main()

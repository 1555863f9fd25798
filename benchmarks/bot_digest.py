"""A digest of the moves the bots decide in seeded games, to show a refactoring changed no decision.

For every registered game and each of its sample configurations (every seat count and mode), plays
seeded games of heuristic bots alone, of heuristic bots against random ones, and of ``bot:mcts`` with a
fixed iteration budget (no time budget, so the search is deterministic) against the heuristic. Prints one
SHA-256 per game over every move (its JSON form), event text and result, and the number of games played;
run it before and after a change and compare the lines (run: python benchmarks/bot_digest.py).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

# This folder's files shadow packages of the same name when run as a script: drop it from the path.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

from club_agentes.engine.core import RandomBot, all_games, play  # noqa: E402


def _lineups(game: Any, seats: int, seed: int, mcts_iterations: int) -> dict[str, list[Any]]:
    """Return the bots of each kind of game played for ``seed``, one per seat."""
    hero = seed % seats
    return {
        "heuristic": [game.make_bot("heuristic") for _ in range(seats)],
        "heuristic-random": [game.make_bot("heuristic") if s == hero else RandomBot() for s in range(seats)],
        "mcts-heuristic": [
            game.make_bot("mcts", iterations=mcts_iterations, budget_ms=None)
            if s == hero
            else game.make_bot("heuristic")
            for s in range(seats)
        ],
    }


def digest(game: Any, seeds: int, mcts_seeds: int, mcts_iterations: int) -> tuple[str, int]:
    """Return the digest of ``game``'s seeded bot games and how many games it covers."""
    h = hashlib.sha256()
    games = 0
    for seats, options in game.sample_configs():
        config = game.make_config(seats, options)
        for seed in range(1, seeds + 1):
            for kind, bots in _lineups(game, seats, seed, mcts_iterations).items():
                if kind.startswith("mcts") and seed > mcts_seeds:
                    continue
                rec = play(game, config, seed, bots, keep_events=True)
                result = game.result(rec.state)
                record = {
                    "game": [seats, options, seed, kind],
                    "moves": [[s, m.to_json()] for s, m in rec.moves],
                    "events": [e.text for e in rec.events],
                    "result": result.to_json() if result is not None else None,
                }
                h.update(json.dumps(record, sort_keys=True, default=str).encode())
                games += 1
    return h.hexdigest(), games


def main() -> None:
    """Print one digest line per game."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", help="only this game id")
    ap.add_argument("--seeds", type=int, default=6, help="seeds per configuration for the heuristic games")
    ap.add_argument("--mcts-seeds", type=int, default=1, help="seeds per configuration for the mcts games")
    ap.add_argument("--mcts-iterations", type=int, default=12, help="iterations per mcts decision")
    args = ap.parse_args()
    total = 0
    for game in all_games():
        if args.game and game.id != args.game:
            continue
        value, games = digest(game, args.seeds, args.mcts_seeds, args.mcts_iterations)
        total += games
        print(f"{game.id}: {games} games, sha256 {value}")
    print(f"total: {total} games")


if __name__ == "__main__":
    main()

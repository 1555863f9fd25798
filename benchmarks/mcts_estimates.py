"""Fit the weights of each game's ``bot:mcts`` estimate and print them with how well they predict the winner.

``bot:mcts`` cuts its rollouts short and scores the world where they stop by a small logistic model of
the winner: each game's mcts module defines ``features(state, seat)``, ``stage(state)`` (0, 1 or 2) and
``WEIGHTS`` (one tuple per stage). This script refits ``WEIGHTS``: it plays seeded 2-seat games of the
heuristic bot against itself (a third of them plain, a third with 10% random moves, a third with 25%, so
that the positions vary), takes the position at one decision in four, and fits, per stage, a logistic
regression (Newton's method, a small ridge penalty, no intercept) of "seat 0 won" on the difference
between the two seats' features. Shared wins are left out. It prints the fitted tuples, ready to paste
into the module, with the log-likelihood and accuracy per stage, and those of the weights in use.

Run::

    nice -n 5 python benchmarks/mcts_estimates.py --games 2000
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path
from typing import Any

# This file's folder shadows packages of the same names when run as a script: drop it from the path.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

import numpy as np  # noqa: E402
from club_agentes.engine.core import Rng, get_game  # noqa: E402
from club_agentes.engine.core.mcts import BotRollout  # noqa: E402

GAMES = ("market-fortune", "se-vende", "yo-soy-el-jefe")


def collect(game_id: str, games: int) -> tuple[dict[int, list[np.ndarray]], dict[int, list[float]]]:
    """Return, per stage, the feature differences (seat 0 minus seat 1) and whether seat 0 won."""
    game = get_game(game_id)
    module: Any = importlib.import_module(f"club_agentes.engine.{game_id.replace('-', '_')}.mcts")
    heuristic = game.bots["heuristic"]
    xs: dict[int, list[np.ndarray]] = {0: [], 1: [], 2: []}
    ys: dict[int, list[float]] = {0: [], 1: [], 2: []}
    for seed in range(1, games + 1):
        epsilon = (0.0, 0.1, 0.25)[seed % 3]
        policy = BotRollout(heuristic, epsilon)
        state = game.new_game(game.make_config(2, {}), seed)
        rng = Rng(seed)
        rows = []
        for _ in range(100_000):
            pending = game.pending(state)
            if pending.kind == "over":
                break
            seat = pending.seats[0]
            moves = game.legal_moves(state, seat)
            if rng.below(4) == 0:
                diff = np.array(module.features(state, 0), float) - np.array(module.features(state, 1), float)
                rows.append((module.stage(state), diff))
            game.apply(state, seat, policy(game, state, seat, moves, rng))
        result = game.result(state)
        if result is None or len(result.winners) != 1:
            continue
        won = 1.0 if result.winners[0] == 0 else 0.0
        for stage, diff in rows:
            xs[stage].append(diff)
            ys[stage].append(won)
    return xs, ys


def fit(x: np.ndarray, y: np.ndarray, ridge: float = 1e-2) -> np.ndarray:
    """Return logistic-regression weights (no intercept) by Newton's method on standardised features."""
    scale = x.std(0) + 1e-9
    xs = x / scale
    w = np.zeros(x.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-xs @ w))
        grad = xs.T @ (p - y) + ridge * w
        hess = (xs * (p * (1 - p))[:, None]).T @ xs + ridge * np.eye(len(w))
        w -= np.linalg.solve(hess, grad)
    return w / scale


def quality(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> tuple[float, float]:
    """Return the mean log-likelihood and the accuracy of weights ``w``."""
    p = 1 / (1 + np.exp(-x @ w))
    loglik = float(np.mean(y * np.log(p + 1e-12) + (1 - y) * np.log(1 - p + 1e-12)))
    return loglik, float(np.mean((p > 0.5) == (y > 0.5)))


def main(argv: list[str] | None = None) -> int:
    """Fit and print the weights of each game's estimate."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", choices=GAMES, help="a game (repeatable; default: all three)")
    parser.add_argument("--games", type=int, default=2000, help="seeded heuristic games per game")
    args = parser.parse_args(argv)
    for game_id in args.game or GAMES:
        module: Any = importlib.import_module(f"club_agentes.engine.{game_id.replace('-', '_')}.mcts")
        xs, ys = collect(game_id, args.games)
        print(f"{game_id}: {args.games} games; features {module.FEATURES}")
        print("WEIGHTS = (")
        notes = []
        for stage in (0, 1, 2):
            if len(ys[stage]) < 50:
                print(f"    {tuple(module.WEIGHTS[stage])},  # too few positions to refit")
                continue
            x, y = np.array(xs[stage]), np.array(ys[stage])
            w = fit(x, y)
            print(f"    {tuple(round(float(v), 3) for v in w)},")
            new = quality(x, y, w)
            old = quality(x, y, np.array(module.WEIGHTS[stage], float))
            notes.append(
                f"# stage {stage}: {len(y)} positions; fitted loglik {new[0]:.3f} accuracy {new[1]:.1%}; "
                f"in use loglik {old[0]:.3f} accuracy {old[1]:.1%}"
            )
        print(")")
        print("\n".join(notes), end="\n\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

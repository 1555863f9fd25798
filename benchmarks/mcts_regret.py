"""How much a better move could gain over the heuristic bot's, and how much of it ``bot:mcts`` gets, per decision.

A game's luck bounds what any search can win against ``bot:heuristic``. This script measures it at the level
of single decisions. It takes positions from seeded 2-seat games of the heuristic bot against itself (one
decision in seven with a choice) and values each legal move by playing it in sampled worlds (the deciding
seat's determinizations, new dice) and letting the heuristic bot finish the game for both seats: the move's
chance to win against the heuristic, under heuristic play afterwards. Every move is played in the same worlds
with the same random stream (common random numbers). It prints, per game:

* the *in-sample* gain of the best move over the heuristic's (the best of noisy estimates: biased upward);
* the *cross-validated* gain: the best move chosen on one half of the worlds and valued on the other half,
  both ways (unbiased: near zero when the heuristic's move is as good as any the worlds can tell apart);
* with ``--mcts``, the gain of ``bot:mcts``'s move (at its default budget) valued on all the worlds.

Run (minutes per game; the rollouts play games to their end)::

    nice -n 5 python benchmarks/mcts_regret.py --game market-fortune --positions 24 --worlds 200 --mcts
"""

from __future__ import annotations

import argparse
import pickle
import sys
from pathlib import Path
from typing import Any

# This file's folder shadows packages of the same names when run as a script: drop it from the path.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

from club_agentes.engine.core import Rng, get_game  # noqa: E402
from club_agentes.engine.core.mcts import BotRollout, win_shares  # noqa: E402
from club_agentes.engine.core.model import Observation, decide  # noqa: E402

GAMES = ("market-fortune", "se-vende", "yo-soy-el-jefe")


def positions(game: Any, count: int, first_seed: int) -> list[bytes]:
    """Return ``count`` pickled ``(state, seat)`` positions with a choice, from heuristic mirror games."""
    heuristic = game.bots["heuristic"]
    out: list[bytes] = []
    seed = first_seed
    while len(out) < count:
        state = game.new_game(game.make_config(2, {}), seed)
        rng = Rng(seed)
        bots = [heuristic(), heuristic()]
        k = 0
        while game.pending(state).kind != "over":
            seat = game.pending(state).seats[0]
            moves = game.legal_moves(state, seat)
            if len(moves) > 1:
                if k % 7 == seed % 7 and len(out) < count:
                    out.append(pickle.dumps((state, seat)))
                k += 1
            game.apply(state, seat, decide(bots[seat], game, state, seat, moves, rng))
        seed += 1
    return out


def move_values(game: Any, state: Any, seat: int, worlds: int, seed: int) -> tuple[list[Any], list[list[float]]]:
    """Return the legal moves and, per move, its result (win share) in each sampled world."""
    module: Any = __import__(f"club_agentes.engine.{game.id.replace('-', '_')}.mcts", fromlist=["x"])
    policy = BotRollout(game.bots["heuristic"], 0.0, getattr(module, "rollout_view", None))
    moves = game.legal_moves(state, seat)
    results: list[list[float]] = [[] for _ in moves]
    rng = Rng(seed)
    for _ in range(worlds):
        world = game.determinize(state, seat, rng)
        stream = rng.next64()
        for i, m in enumerate(moves):
            w = game.clone(world)
            game.apply(w, seat, m)
            r = Rng(stream)
            while game.pending(w).kind != "over":
                s = game.pending(w).seats[0]
                game.apply(w, s, policy(game, w, s, game.legal_moves(w, s), r))
            results[i].append(win_shares(game, w)[seat])
    return moves, results


def main(argv: list[str] | None = None) -> int:
    """Measure and print the gains per decision."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", choices=GAMES, help="a game (repeatable; default: all three)")
    parser.add_argument("--positions", type=int, default=12, help="positions per game")
    parser.add_argument("--worlds", type=int, default=100, help="sampled worlds per position (an even number)")
    parser.add_argument("--first-seed", type=int, default=500, help="the seed of the first heuristic game")
    parser.add_argument("--mcts", action="store_true", help="also value bot:mcts's move at its default budget")
    args = parser.parse_args(argv)
    half = args.worlds // 2
    for game_id in args.game or GAMES:
        game = get_game(game_id)
        heuristic = game.bots["heuristic"]
        sums = {"in-sample": 0.0, "cross-validated": 0.0, "mcts": 0.0}
        changed = 0
        found = positions(game, args.positions, args.first_seed)
        for i, blob in enumerate(found):
            state, seat = pickle.loads(blob)
            moves, results = move_values(game, state, seat, 2 * half, 7000 + i)
            h = moves.index(heuristic().choose(Observation(game, state, seat, moves), Rng(0)))
            a = [sum(r[0::2]) / half for r in results]
            b = [sum(r[1::2]) / half for r in results]
            best_a = max(range(len(moves)), key=a.__getitem__)
            best_b = max(range(len(moves)), key=b.__getitem__)
            sums["in-sample"] += (max(a) - a[h] + max(b) - b[h]) / 2
            sums["cross-validated"] += (b[best_a] - b[h] + a[best_b] - a[h]) / 2
            if args.mcts:
                chosen = game.make_bot("mcts").choose(Observation(game, state, seat, moves), Rng(7 + i))
                c = moves.index(chosen)
                changed += c != h
                sums["mcts"] += (sum(results[c]) - sum(results[h])) / (2 * half)
        n = len(found)
        line = (
            f"{game_id}: {n} positions, {2 * half} worlds each: gain of the best move over the heuristic's, "
            f"in-sample {sums['in-sample'] / n:+.4f}, cross-validated {sums['cross-validated'] / n:+.4f}"
        )
        if args.mcts:
            line += f"; bot:mcts's move {sums['mcts'] / n:+.4f} (it chose another move in {changed} of {n})"
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

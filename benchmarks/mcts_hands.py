"""Fit Market Fortune's ``HAND_PAIRS`` (how many pairs a rival's hand holds) and show what it corrects.

``bot:mcts`` samples worlds consistent with its seat's view. The determinization deals the cards the seat
cannot see uniformly, as if each rival's hand had just been dealt, but a rival who plays to win holds pairs
at other rates: it risks a pair as soon as it has one, and it keeps its last pair while it builds toward
25M. ``engine/market_fortune/mcts.py``'s ``redeal_hands`` re-deals each rival's hidden cards to a pair count
drawn from ``HAND_PAIRS``: per (the rival's investments, its building cards in hand), the share of hands
holding 0, 1, 2... pairs among the decisions of seeded 2-seat games of the heuristic bot against itself.

This script plays those games, prints the fitted table ready to paste into the module, and then, on other
seeded games, the mean pair count of the rival's hand by its investments: the true hand, the uniform
determinization's and the determinization after ``redeal_hands``. Run::

    nice -n 5 python benchmarks/mcts_hands.py --games 2000
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path

# This file's folder shadows packages of the same names when run as a script: drop it from the path.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

from club_agentes.engine.core import Rng, get_game  # noqa: E402
from club_agentes.engine.core.model import decide  # noqa: E402
from club_agentes.engine.market_fortune.mcts import hand_pairs, redeal_hands  # noqa: E402


def fit(games: int, first_seed: int, least: int) -> dict[tuple[int, int], tuple[float, ...]]:
    """Return the share of each pair count of the rival's hand, per (its investments, its hand size).

    Keys seen fewer than ``least`` times are left out (``redeal_hands`` leaves those hands as dealt).
    """
    game = get_game("market-fortune")
    heuristic = game.bots["heuristic"]
    counts: dict[tuple[int, int], Counter[int]] = defaultdict(Counter)
    for seed in range(first_seed, first_seed + games):
        state = game.new_game(game.make_config(2, {}), seed)
        bots = [heuristic(), heuristic()]
        rng = Rng(seed)
        while game.pending(state).kind != "over":
            seat = game.pending(state).seats[0]
            moves = game.legal_moves(state, seat)
            if len(moves) > 1:
                rival = 1 - seat
                counts[(len(state.invs[rival]), len(state.hands[rival]))][hand_pairs(state.hands[rival])] += 1
            game.apply(state, seat, decide(bots[seat], game, state, seat, moves, rng))
    table = {}
    for key in sorted(counts):
        c = counts[key]
        n = sum(c.values())
        if n < least:
            continue
        top = max(c)
        table[key] = tuple(round(c[k] / n, 3) for k in range(top + 1))
    return table


def compare(games: int, first_seed: int) -> dict[int, tuple[float, float, float, int]]:
    """Return, by the rival's investments, the mean pairs of its true hand, of uniform worlds, of re-dealt ones."""
    game = get_game("market-fortune")
    heuristic = game.bots["heuristic"]
    sums: dict[int, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0, 0])
    draw = Rng(first_seed ^ 0x5EED)
    for seed in range(first_seed, first_seed + games):
        state = game.new_game(game.make_config(2, {}), seed)
        bots = [heuristic(), heuristic()]
        rng = Rng(seed)
        k = 0
        while game.pending(state).kind != "over":
            seat = game.pending(state).seats[0]
            moves = game.legal_moves(state, seat)
            k += 1
            if len(moves) > 1 and k % 3 == 0:
                rival = 1 - seat
                row = sums[len(state.invs[rival])]
                row[0] += hand_pairs(state.hands[rival])
                world = game.determinize(state, seat, draw)
                row[1] += hand_pairs(world.hands[rival])
                redeal_hands(world, seat)
                row[2] += hand_pairs(world.hands[rival])
                row[3] += 1
            game.apply(state, seat, decide(bots[seat], game, state, seat, moves, rng))
    return {k: (v[0] / v[3], v[1] / v[3], v[2] / v[3], int(v[3])) for k, v in sorted(sums.items())}


def main(argv: list[str] | None = None) -> int:
    """Fit and print the table, then the comparison."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="heuristic games to fit on")
    parser.add_argument("--check-games", type=int, default=300, help="other heuristic games to compare on")
    parser.add_argument("--least", type=int, default=30, help="fewest decisions a key needs to be kept")
    args = parser.parse_args(argv)
    table = fit(args.games, 10_000, args.least)
    print("HAND_PAIRS: dict[tuple[int, int], tuple[float, ...]] = {")
    for key, shares in table.items():
        print(f"    {key}: {shares},")
    print("}")
    print("rival's investments: mean pairs in hand (true / uniform determinization / after redeal_hands), decisions")
    for invs, (true, uniform, redealt, n) in compare(args.check_games, 50_000).items():
        print(f"  {invs}: {true:.2f} / {uniform:.2f} / {redealt:.2f}  ({n})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

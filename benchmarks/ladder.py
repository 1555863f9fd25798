"""The strength ladder: seeded 2-seat round robins per game, printed as win rates and openskill ratings.

For each game, every pair of entrants (``random``, ``heuristic``, ``mcts`` at its default budget and at a
smaller one) plays the same seeds twice, once from each seat (a "duplicate" pairing: both entrants get
each deal and each seat, so the luck of the deal cancels out within a pair of games). It prints, per game:

* each pairing's win rate with a 95% Wilson interval (a shared win counts half);
* openskill (Plackett-Luce) ratings of the entrants: mu, and mu +- 1.96 sigma;
* the CPU milliseconds and iterations of each mcts entrant's searched decisions (mean, p95, max);
* the luck of the game: how often the first seat wins a heuristic mirror match, and how often the two
  games of one seed of ``mcts`` against ``heuristic`` are won by the same seat (the deal and dice decided
  them, whoever played it) or both by the same bot.

Run (20 to 35 minutes per game on two cores at the defaults, measured beside other work)::

    nice -n 5 python benchmarks/ladder.py --game market-fortune

Options choose the games, seeds per pairing (``--seeds``; ``--seeds-random`` for the random bot against
mcts, long games that say little; ``--seeds-mcts`` for mcts against mcts), the budgets (``--budget-ms``,
``--small-ms``), the worker processes, and ``--pairs`` to play only some pairings (e.g. ``--pairs
mcts:heuristic``). An entrant may carry options for the game's ``make_bot``, e.g.
``mcts@300:rollout_depth=8`` (for tuning). With ``--records FILE`` every finished game is appended to a
JSON-lines file and games already there are not played again: an interrupted run resumes, and a run with
more seeds extends the last one (the printed tables cover every game of the requested seeds).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import multiprocessing
import os
import statistics
import sys
import time
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

# This file's folder shadows packages of the same names when run as a script: drop it from the path.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

from club_agentes.engine.core import Rng, get_game  # noqa: E402
from club_agentes.engine.core.model import decide  # noqa: E402

GAMES = ("market-fortune", "se-vende", "yo-soy-el-jefe")
Z95 = 1.959964


@dataclass(frozen=True)
class Entrant:
    """A ladder entrant: a bot kind, its budget (mcts) and extra options for ``make_bot``."""

    kind: str
    budget_ms: float | None = None
    options: tuple[tuple[str, Any], ...] = ()

    @property
    def label(self) -> str:
        """The entrant's name in the tables, e.g. ``mcts@500``."""
        text = self.kind if self.budget_ms is None else f"{self.kind}@{self.budget_ms:g}"
        if self.options:
            text += ":" + ",".join(f"{k}={v}" for k, v in self.options)
        return text

    def make(self, game: Any) -> Any:
        """Return a new bot of this entrant for ``game``."""
        opts = dict(self.options)
        if self.budget_ms is not None:
            opts["budget_ms"] = self.budget_ms
        return game.make_bot(self.kind, **opts)


def parse_entrant(text: str) -> Entrant:
    """Parse ``kind[@ms][:key=value,...]``.

    Raises:
        ValueError: a malformed entrant.
    """
    head, _, tail = text.partition(":")
    kind, _, ms = head.partition("@")
    options: list[tuple[str, Any]] = []
    for part in filter(None, tail.split(",")):
        key, eq, raw = part.partition("=")
        if not eq:
            raise ValueError(f"entrant option {part!r} is not key=value")
        options.append((key, json.loads(raw)))
    return Entrant(kind, float(ms) if ms else None, tuple(options))


@dataclass
class GameRecord:
    """One played game: who sat where, the reward of each, and the mcts entrants' searched decisions."""

    game_id: str
    seed: int
    labels: tuple[str, str]
    shares: tuple[float, float]
    winners: tuple[int, ...]
    decisions: int
    searches: dict[str, list[tuple[float, int]]] = field(default_factory=dict)


def play_one(task: tuple[str, Entrant, Entrant, int]) -> GameRecord:
    """Play one seeded 2-seat game between two entrants (seat 0 first)."""
    game_id, a, b, seed = task
    game = get_game(game_id)
    config = game.make_config(2, {})
    bots = [a.make(game), b.make(game)]
    labels = (a.label, b.label)
    state = game.new_game(config, seed)
    rng = Rng(seed).fork(0xB07)
    searches: dict[str, list[tuple[float, int]]] = {}
    decisions = 0
    for _ in range(100_000):
        pending = game.pending(state)
        if pending.kind == "over":
            break
        seat = pending.seats[0]
        moves = game.legal_moves(state, seat)
        bot = bots[seat]
        move = decide(bot, game, state, seat, moves, rng)
        stats = getattr(bot, "stats", None)
        if stats is not None and len(moves) > 1:
            searches.setdefault(labels[seat], []).append((stats.cpu_seconds * 1000, stats.iterations))
        game.apply(state, seat, move)
        decisions += 1
    result = game.result(state)
    if result is None:
        raise RuntimeError(f"{game_id} seed {seed} did not end within 100,000 decisions")
    shares = [0.0, 0.0]
    for w in result.winners:
        shares[w] = 1.0 / len(result.winners)
    return GameRecord(game_id, seed, labels, (shares[0], shares[1]), tuple(result.winners), decisions, searches)


def wilson(wins: float, n: int) -> tuple[float, float]:
    """Return the 95% Wilson score interval of a proportion ``wins / n``."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + Z95**2 / n
    centre = (p + Z95**2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def percentile(values: list[float], q: float) -> float:
    """Return the ``q`` quantile (0-1) of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def tasks_for(
    game_id: str,
    entrants: list[Entrant],
    seeds: tuple[int, int, int],
    first_seed: int,
    only: list[tuple[str, str]],
) -> list[tuple[str, Entrant, Entrant, int]]:
    """Return every game of a game's round robin (each seed twice, seats swapped), pairings interleaved.

    ``seeds`` is the number of seeds of a pairing: (in general, random against mcts, mcts against mcts).
    """
    pairings = []
    for i, a in enumerate(entrants):
        for b in entrants[i + 1 :]:
            if only and not any({x, y} in ({a.kind, b.kind}, {a.label, b.label}) for x, y in only):
                continue
            kinds = {a.kind, b.kind}
            n = seeds[1] if kinds == {"random", "mcts"} else seeds[2] if kinds == {"mcts"} else seeds[0]
            pairings.append((a, b, n))
    out = []
    for k in range(max((n for _, _, n in pairings), default=0)):
        seed = first_seed + k
        for a, b, n in pairings:
            if k < n:
                out += [(game_id, a, b, seed), (game_id, b, a, seed)]
    return out


def mirror_tasks(game_id: str, seeds: int, first_seed: int) -> list[tuple[str, Entrant, Entrant, int]]:
    """Return heuristic mirror games (for the first seat's share)."""
    h = Entrant("heuristic")
    return [(game_id, h, h, first_seed + k) for k in range(seeds)]


def rate(records: Iterable[GameRecord], labels: list[str]) -> dict[str, tuple[float, float]]:
    """Return each entrant's openskill Plackett-Luce (mu, sigma), rating the games in the given order."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {name: model.rating(name=name) for name in labels}
    for r in records:
        a, b = r.labels
        if a == b:
            continue
        ranks = [1 if r.shares[0] >= r.shares[1] else 2, 1 if r.shares[1] >= r.shares[0] else 2]
        [[ra], [rb]] = model.rate([[ratings[a]], [ratings[b]]], ranks=ranks)
        ratings[a], ratings[b] = ra, rb
    return {name: (float(x.mu), float(x.sigma)) for name, x in ratings.items()}


def report(game_id: str, entrants: list[Entrant], records: list[GameRecord], mirror: list[GameRecord]) -> str:
    """Return a game's ladder as printed text."""
    lines = [f"== {game_id}: 2 seats, each seed played twice (seats swapped) =="]
    labels = [e.label for e in entrants]
    lines.append(f"{'pairing':<44} {'games':>5} {'wins':>6} {'win rate':>8}  95% interval  first seat won")
    for i, a in enumerate(labels):
        for b in labels[i + 1 :]:
            games = [r for r in records if set(r.labels) == {a, b}]
            if not games:
                continue
            wins = sum(r.shares[r.labels.index(a)] for r in games)
            first = sum(r.shares[0] for r in games)
            lo, hi = wilson(wins, len(games))
            lines.append(
                f"{a + ' vs ' + b:<44} {len(games):>5} {wins:>6.1f} {wins / len(games):>8.1%}  "
                f"{lo:>5.1%}-{hi:<6.1%}  {first / len(games):.1%}"
            )
    ratings = rate(records, labels)
    lines.append("openskill Plackett-Luce ratings (all games above, in play order; 95% interval mu +- 1.96 sigma):")
    for name in sorted(labels, key=lambda x: -ratings[x][0]):
        mu, sigma = ratings[name]
        lines.append(
            f"  {name:<40} mu {mu:6.2f}  [{mu - Z95 * sigma:6.2f}, {mu + Z95 * sigma:6.2f}]  sigma {sigma:.2f}"
        )
    for name in labels:
        cpu = [ms for r in records for ms, _ in r.searches.get(name, [])]
        its = [n for r in records for _, n in r.searches.get(name, [])]
        if cpu:
            per_game = len(cpu) / max(1, sum(1 for r in records if name in r.labels))
            lines.append(
                f"  {name}: {len(cpu)} searched decisions ({per_game:.1f} a game): "
                f"CPU ms mean {statistics.mean(cpu):.0f}, p95 {percentile(cpu, 0.95):.0f}, max {max(cpu):.0f}; "
                f"iterations mean {statistics.mean(its):.0f}, p5 {percentile(its, 0.05):.0f}"
            )
    if mirror:
        first = sum(r.shares[0] for r in mirror)
        lo, hi = wilson(first, len(mirror))
        lines.append(
            f"luck: heuristic mirror games, first seat won {first:.1f}/{len(mirror)} = {first / len(mirror):.1%} "
            f"({lo:.1%}-{hi:.1%})"
        )
    for e in entrants:
        if e.kind != "mcts":
            continue
        by_seed: dict[int, list[GameRecord]] = {}
        for r in records:
            if set(r.labels) == {e.label, "heuristic"}:
                by_seed.setdefault(r.seed, []).append(r)
        pairs = [g for g in by_seed.values() if len(g) == 2]
        if pairs:
            same_seat = sum(1 for g in pairs if g[0].winners == g[1].winners)
            both_mcts = sum(1 for g in pairs if all(r.shares[r.labels.index(e.label)] == 1.0 for r in g))
            both_h = sum(1 for g in pairs if all(r.shares[r.labels.index("heuristic")] == 1.0 for r in g))
            lines.append(
                f"luck: {e.label} vs heuristic, {len(pairs)} seeds played from both seats: the same seat won both "
                f"games of {same_seat} ({same_seat / len(pairs):.0%}: the deal and dice decided, whoever sat "
                f"there); {e.label} won both games of {both_mcts}, heuristic both of {both_h}"
            )
    decisions = [r.decisions for r in records]
    if decisions:
        lines.append(f"decisions per game: mean {statistics.mean(decisions):.0f}, max {max(decisions)}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run the ladder and print it."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", choices=GAMES, help="a game (repeatable; default: all three)")
    parser.add_argument("--seeds", type=int, default=12, help="seeds per pairing (each played from both seats)")
    parser.add_argument("--seeds-random", type=int, default=3, help="seeds of the random bot against mcts")
    parser.add_argument("--seeds-mcts", type=int, default=6, help="seeds of mcts against mcts (the two budgets)")
    parser.add_argument("--mirror", type=int, default=200, help="heuristic mirror games for the first seat's share")
    parser.add_argument("--first-seed", type=int, default=1, help="the first seed")
    parser.add_argument("--budget-ms", type=float, default=None, help="mcts default budget (default: the game's)")
    parser.add_argument("--small-ms", type=float, default=None, help="mcts small budget (default: a fifth)")
    parser.add_argument("--entrant", action="append", default=None, help="replace the entrants (kind[@ms][:k=v,...])")
    parser.add_argument("--pairs", default="", help="only these pairings, e.g. 'mcts:heuristic,mcts:mcts'")
    parser.add_argument("--workers", type=int, default=2, help="worker processes")
    parser.add_argument(
        "--records",
        type=Path,
        default=None,
        help="a JSON-lines file: every finished game is appended to it, and games already in it are not played "
        "again (so an interrupted run resumes, and runs with more seeds extend it)",
    )
    args = parser.parse_args(argv)
    with contextlib.suppress(OSError):
        os.nice(5)
    only = [tuple(p.split(":", 1)) for p in args.pairs.split(",") if p]
    kept = load_records(args.records) if args.records is not None else {}
    for game_id in args.game or GAMES:
        if args.entrant:
            entrants = [parse_entrant(t) for t in args.entrant]
        else:
            default = args.budget_ms
            if default is None:
                module = __import__(f"club_agentes.engine.{game_id.replace('-', '_')}.mcts", fromlist=["x"])
                default = float(module.TUNING.options.budget_ms)
            small = args.small_ms if args.small_ms is not None else default / 5
            entrants = [Entrant("random"), Entrant("heuristic"), Entrant("mcts", small), Entrant("mcts", default)]
        seeds = (args.seeds, args.seeds_random, args.seeds_mcts)
        tasks = tasks_for(game_id, entrants, seeds, args.first_seed, only)  # type: ignore[arg-type]
        mirror = mirror_tasks(game_id, args.mirror, args.first_seed)
        start = time.perf_counter()
        todo = [t for t in tasks + mirror if task_key(t) not in kept]
        with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
            for record in pool.imap_unordered(play_one, todo, chunksize=1):
                kept[record_key(record)] = record
                if args.records is not None:
                    with args.records.open("a") as f:
                        f.write(json.dumps(asdict(record)) + "\n")
        records = [kept[task_key(t)] for t in tasks]
        mirrors = [kept[task_key(t)] for t in mirror]
        print(report(game_id, entrants, records, mirrors))
        print(
            f"({len(tasks)} ladder games and {len(mirror)} mirror games, {len(todo)} of them played now in "
            f"{time.perf_counter() - start:.0f} s wall)\n"
        )
        sys.stdout.flush()
    return 0


def task_key(task: tuple[str, Entrant, Entrant, int]) -> tuple[str, str, str, int]:
    """Return the key of a game to play: the game, the entrants in seat order and the seed."""
    game_id, a, b, seed = task
    return (game_id, a.label, b.label, seed)


def record_key(record: GameRecord) -> tuple[str, str, str, int]:
    """Return the key of a played game (see :func:`task_key`)."""
    return (record.game_id, record.labels[0], record.labels[1], record.seed)


def load_records(path: Path) -> dict[tuple[str, str, str, int], GameRecord]:
    """Return the games a records file holds (none if it does not exist; a torn last line is skipped)."""
    out: dict[tuple[str, str, str, int], GameRecord] = {}
    if not path.exists():
        return out
    for line in path.read_text().splitlines():
        try:
            data = json.loads(line)
        except json.JSONDecodeError:
            continue
        record = GameRecord(
            data["game_id"],
            int(data["seed"]),
            (data["labels"][0], data["labels"][1]),
            (float(data["shares"][0]), float(data["shares"][1])),
            tuple(data["winners"]),
            int(data["decisions"]),
            {k: [(float(ms), int(n)) for ms, n in v] for k, v in data["searches"].items()},
        )
        out[record_key(record)] = record
    return out


if __name__ == "__main__":
    raise SystemExit(main())

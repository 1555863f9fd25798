"""Instructions per decision of each game, counted by callgrind (steadier than a clock on a shared machine).

For each game: seeded random playouts (seeds 1..N of every sample configuration, legal moves listed at every
decision as ``play`` does) run under ``valgrind --tool=callgrind``; the same start-up (imports, configurations,
bots) is run alone under callgrind and subtracted; the rest is divided by the decisions played. Needs
``valgrind`` on the path. Prints one line per game.

Run: ``python benchmarks/callgrind.py [--game se-vende] [--seeds 3]``.
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(_HERE))
from under_callgrind import under_callgrind  # noqa: E402

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

_CHILD = r"""
import sys
from club_agentes.engine.core import RandomBot, get_game, play
game = get_game(sys.argv[1])
seeds = int(sys.argv[2])
run = sys.argv[3] == "run"
configs = [game.make_config(s, o) for s, o in game.sample_configs()]
decisions = 0
for config in configs:
    bots = [RandomBot() for _ in range(config.seats)]
    for seed in range(1, seeds + 1):
        if run:
            decisions += play(game, config, seed, bots).decisions
print("DECISIONS", decisions)
"""


def _instructions(game_id: str, seeds: int, mode: str) -> tuple[int, int]:
    """Return (instructions, decisions) of one child run under callgrind (``mode`` ``run`` or ``startup``).

    Raises:
        RuntimeError: valgrind failed or printed no total, or the child printed no decisions.
    """
    instructions, out = under_callgrind([sys.executable, "-c", _CHILD, game_id, str(seeds), mode])
    decisions = re.search(r"DECISIONS (\d+)", out)
    if decisions is None:
        raise RuntimeError(f"the child printed no decisions: {out[-500:]}")
    return instructions, int(decisions.group(1))


def main() -> None:
    """Print instructions per decision for each game."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", action="append", help="only this game id (repeatable)")
    ap.add_argument("--seeds", type=int, default=3, help="seeds per sample configuration")
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed; this benchmark counts instructions with callgrind")
    from club_agentes.engine.core import all_games

    for game in all_games():
        if args.game and game.id not in args.game:
            continue
        total, decisions = _instructions(game.id, args.seeds, "run")
        startup, _ = _instructions(game.id, args.seeds, "startup")
        per = (total - startup) / max(decisions, 1)
        print(
            f"{game.id}: {per:,.0f} instructions per decision ({decisions:,} decisions, random playouts of seeds "
            f"1-{args.seeds} of {len(game.sample_configs())} sample configurations; start-up {startup:,} subtracted)",
            flush=True,
        )


if __name__ == "__main__":
    main()

"""Record the golden games of Yo soy el jefe: seeded bot games whose moves and results must replay unchanged.

Each game is one gzip-compressed JSON file in this folder, ``<name>.json.gz``::

    {"game": "yo-soy-el-jefe", "name": ..., "seats": 4, "options": {...}, "seed": 3,
     "bots": ["random", "heuristic", ...], "moves": [[seat, {move JSON}], ...],
     "result": {"winners": [...], "scores": [...], "rule_id": ...}}

``test_golden.py`` replays every file through ``parse_move``/``apply`` and checks that each move is
legal and that the result is the same. When a ruling changes what the bots play or how a game ends,
regenerate the affected files (and say which, and why, in the commit)::

    python -m tests.engine.yo_soy_el_jefe.golden.regenerate            # every game
    python -m tests.engine.yo_soy_el_jefe.golden.regenerate NAME ...   # only these
"""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path
from typing import Any

from club_agentes.engine.core import get_game, play

HERE = Path(__file__).resolve().parent
GAME_ID = "yo-soy-el-jefe"

# Per sample configuration: one all-random game, one all-heuristic game, two mixed games (the heuristic
# seats alternate with random ones); two more heuristic games at the most common table sizes.
LINEUPS: tuple[tuple[str, int], ...] = (("random", 1), ("heuristic", 2), ("mixed", 3), ("mixed2", 4))
EXTRA: tuple[tuple[int, str, int], ...] = ((5, "heuristic", 15), (6, "heuristic", 16))


def _bots(lineup: str, seats: int) -> list[str]:
    if lineup in ("random", "heuristic"):
        return [lineup] * seats
    first = "heuristic" if lineup == "mixed" else "random"
    other = "random" if first == "heuristic" else "heuristic"
    return [first if s % 2 == 0 else other for s in range(seats)]


def cases() -> dict[str, tuple[int, dict[str, Any], int, list[str]]]:
    """Return every golden game by name: (seats, options, seed, bots)."""
    game = get_game(GAME_ID)
    out: dict[str, tuple[int, dict[str, Any], int, list[str]]] = {}
    for i, (seats, options) in enumerate(game.sample_configs()):
        for lineup, seed in LINEUPS:
            out[f"c{i}-{seats}s-{lineup}-{seed}"] = (seats, options, seed, _bots(lineup, seats))
    for i, lineup, seed in EXTRA:
        seats, options = game.sample_configs()[i]
        out[f"c{i}-{seats}s-{lineup}-{seed}"] = (seats, options, seed, _bots(lineup, seats))
    return out


def record(name: str, seats: int, options: dict[str, Any], seed: int, bots: list[str]) -> dict[str, Any]:
    """Play one golden game and return its record.

    Raises:
        RuntimeError: the game did not end.
    """
    game = get_game(GAME_ID)
    config = game.make_config(seats, options)
    rec = play(game, config, seed, [game.make_bot(b) for b in bots], max_decisions=200_000)
    result = game.result(rec.state)
    if not rec.finished or result is None:
        raise RuntimeError(f"golden game {name} did not end")
    return {
        "game": GAME_ID,
        "name": name,
        "seats": seats,
        "options": options,
        "seed": seed,
        "bots": bots,
        "moves": [[seat, move.to_json()] for seat, move in rec.moves],
        "result": {"winners": list(result.winners), "scores": list(result.scores), "rule_id": result.rule_id},
    }


def write(data: dict[str, Any]) -> Path:
    """Write one record as ``<name>.json.gz`` (byte-stable: no timestamp in the gzip header)."""
    path = HERE / f"{data['name']}.json.gz"
    raw = json.dumps(data, separators=(",", ":"), sort_keys=True).encode("utf-8")
    path.write_bytes(gzip.compress(raw, compresslevel=9, mtime=0))
    return path


def load(path: Path) -> dict[str, Any]:
    """Read one record."""
    return json.loads(gzip.decompress(path.read_bytes()).decode("utf-8"))


def main(argv: list[str]) -> int:
    """Regenerate the named golden games (all when none is named); return the exit status."""
    table = cases()
    names = argv or sorted(table)
    unknown = [n for n in names if n not in table]
    if unknown:
        print(f"unknown golden game(s): {', '.join(unknown)}; known: {', '.join(sorted(table))}")
        return 2
    for name in names:
        seats, options, seed, bots = table[name]
        data = record(name, seats, options, seed, bots)
        path = write(data)
        print(f"{path.name}: {len(data['moves'])} moves, winners {data['result']['winners']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

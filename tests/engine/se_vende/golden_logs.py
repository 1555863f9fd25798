"""Golden game logs of Se Vende: seeded games recorded as JSON, replayed after every change.

Each fixture in ``golden/`` holds a table's configuration (seats and options), its seed, the bots
that played it, every move as ``[seat, move JSON, move text]`` (the JSON and text forms of the engine that recorded
it, so the old forms stay parseable) and the result (winners and scores). The test
``test_golden.py`` replays each log through ``parse_move`` and ``apply``: every move must still be
legal and the result must be the same.

The logs were first recorded with the engine as it stood before the rework of issues 11-18, so they
pin its behaviour. Regenerate a log only when an issue changes a rule that it exercises (say which
and why in the commit)::

    .venv/bin/python -m tests.engine.se_vende.golden_logs            # every log
    .venv/bin/python -m tests.engine.se_vende.golden_logs 2-s3-heur  # only the named ones
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from club_agentes.engine.core import RandomBot, get_game, play

HERE = Path(__file__).resolve().parent / "golden"

SEEDS_RANDOM = (1, 2, 3, 4)
SEEDS_HEURISTIC = (5, 6, 7, 8)


def plans() -> list[dict[str, Any]]:
    """Return every recorded game: name, seats, options, seed and bot kinds per seat."""
    game = get_game("se-vende")
    out: list[dict[str, Any]] = []
    for seats, options in game.sample_configs():
        tag = f"{seats}" + ("" if not options else "-" + "-".join(f"{k}{v}" for k, v in sorted(options.items())))
        for seed in SEEDS_RANDOM:
            out.append(
                {
                    "name": f"{tag}-s{seed}-random",
                    "seats": seats,
                    "options": options,
                    "seed": seed,
                    "bots": ["random"] * seats,
                }
            )
        for seed in SEEDS_HEURISTIC:
            if seed == SEEDS_HEURISTIC[-1]:
                bots = ["heuristic"] * seats
            else:
                bots = ["heuristic" if s == seed % seats else "random" for s in range(seats)]
            out.append({"name": f"{tag}-s{seed}-heur", "seats": seats, "options": options, "seed": seed, "bots": bots})
    return out


def record(plan: dict[str, Any]) -> dict[str, Any]:
    """Play one planned game and return its log."""
    game = get_game("se-vende")
    config = game.make_config(plan["seats"], plan["options"])
    bots = [RandomBot() if kind == "random" else game.make_bot(kind) for kind in plan["bots"]]
    rec = play(game, config, plan["seed"], bots)
    assert rec.finished, plan["name"]
    result = game.result(rec.state)
    assert result is not None
    return {
        "game": "se-vende",
        "name": plan["name"],
        "seats": plan["seats"],
        "options": plan["options"],
        "seed": plan["seed"],
        "bots": plan["bots"],
        "moves": [[seat, move.to_json(), move.text()] for seat, move in rec.moves],
        "result": {"winners": list(result.winners), "scores": list(result.scores), "rule_id": result.rule_id},
    }


def write(log: dict[str, Any]) -> Path:
    """Write a log as compact JSON, one move per line."""
    head = {k: v for k, v in log.items() if k != "moves"}
    lines = [json.dumps(m, separators=(",", ":"), sort_keys=True, ensure_ascii=False) for m in log["moves"]]
    body = json.dumps(head, indent=1, sort_keys=True)[:-2]
    text = body + ',\n "moves": [\n' + ",\n".join(lines) + "\n ]\n}\n"
    path = HERE / f"{log['name']}.json"
    assert json.loads(text) == log
    path.write_text(text, encoding="utf-8")
    return path


def load_all() -> list[dict[str, Any]]:
    """Return every stored log, by file name."""
    return [json.loads(p.read_text(encoding="utf-8")) for p in sorted(HERE.glob("*.json"))]


def main(names: list[str]) -> None:
    """Record the named logs (all when none is named)."""
    HERE.mkdir(exist_ok=True)
    for plan in plans():
        if names and plan["name"] not in names:
            continue
        path = write(record(plan))
        print(f"wrote {path.name}")


if __name__ == "__main__":
    main(sys.argv[1:])

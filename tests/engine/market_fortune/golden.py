"""Golden game logs of Market Fortune: seeded bot games recorded as JSON, replayed by the tests.

Each log (``golden/<name>.json``) holds the configuration, the seed, every move (the deciding
seat, the move's JSON form and its text form as written when the log was captured) and the
result (winners, scores, reason, rule id). ``test_golden.py`` replays every log through
``parse_move`` and ``apply``: each move must still be legal and the result the same, and each
text form must read as the same move. (The older ``play <card> key=value`` texts of logs captured
before the shared codec were rewritten in the current form when that form was retired, issue 27.)

The set: for every sample configuration, one game of random bots and one of a heuristic bot
(rotating seat) against random bots. A log whose game changes because an issue changed a rule
is regenerated alone, with the reason recorded in its ``regenerated`` field::

    python -m tests.engine.market_fortune.golden NAME [NAME ...] --reason "issue 12.1: ..."
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from club_agentes.engine.core import RandomBot, get_game, play

GAME = get_game("market-fortune")
FOLDER = Path(__file__).with_name("golden")


def cases() -> list[tuple[str, int, dict[str, Any], int, int | None]]:
    """Return ``(name, seats, options, seed, heuristic seat or None)`` for every golden log."""
    out: list[tuple[str, int, dict[str, Any], int, int | None]] = []
    for k, (seats, options) in enumerate(GAME.sample_configs()):
        mode = options.get("mode", "fortuna")
        for kind in ("random", "heuristic"):
            seed = 100 + 2 * k + (kind == "heuristic")
            hero = seed % seats if kind == "heuristic" else None
            out.append((f"{mode}-{seats}-{kind}", seats, options, seed, hero))
    return out


def capture(seats: int, options: dict[str, Any], seed: int, hero: int | None) -> dict[str, Any]:
    """Play one seeded game and return its log.

    Raises:
        RuntimeError: the game did not finish.
    """
    config = GAME.make_config(seats, options)
    bots = [GAME.make_bot("heuristic") if s == hero else RandomBot() for s in range(seats)]
    rec = play(GAME, config, seed, bots)
    result = GAME.result(rec.state)
    if not rec.finished or result is None:
        raise RuntimeError(f"the game {seats} {options} seed {seed} did not finish")
    return {
        "seats": seats,
        "options": options,
        "seed": seed,
        "heuristic_seat": hero,
        "moves": [[seat, move.to_json(), move.text()] for seat, move in rec.moves],
        "result": {
            "winners": list(result.winners),
            "scores": list(result.scores),
            "reason": result.reason,
            "rule_id": result.rule_id,
        },
    }


def write(name: str, log: dict[str, Any]) -> Path:
    """Write one log as compact JSON (one move per line) and return its path."""
    FOLDER.mkdir(exist_ok=True)
    path = FOLDER / f"{name}.json"
    head = {k: v for k, v in log.items() if k != "moves"}
    lines = [json.dumps(m, ensure_ascii=False, separators=(",", ":")) for m in log["moves"]]
    body = json.dumps(head, ensure_ascii=False, sort_keys=True)[:-1]
    path.write_text(body + ',"moves":[\n' + ",\n".join(lines) + "\n]}\n", encoding="utf-8")
    return path


def load(path: Path) -> dict[str, Any]:
    """Read one log."""
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def main() -> None:
    """Capture all logs, or regenerate the named ones with a reason."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("names", nargs="*", help="regenerate only these logs (default: capture all)")
    ap.add_argument("--reason", help="why the named logs changed (required with names)")
    args = ap.parse_args()
    if args.names and not args.reason:
        ap.error("--reason is required when regenerating named logs")
    for name, seats, options, seed, hero in cases():
        if args.names and name not in args.names:
            continue
        log = capture(seats, options, seed, hero)
        if args.names:
            log["regenerated"] = args.reason
        path = write(name, log)
        print(f"{path.name}: {len(log['moves'])} moves, winners {log['result']['winners']}")


if __name__ == "__main__":
    main()

"""Behaviour digest of every game: one hash per seeded game, to compare the engine before and after a refactor.

Plays seeded games of every registered game over its sample configurations with random, heuristic and mixed
bots, and hashes, at every decision: the pending decision (kind, seats, prompt, done), the deciding seat's
legal moves in their order (text form), the move chosen, the events it caused (text, audience, data), the
rules' default move for the seat; at every fifth decision the deciding seat's view and the public view, and
two refused moves (a move listed earlier that is not legal now, and any move by a seat that is not deciding):
their rule ids and sentences; at the end the snapshot and the result. Prints one line per game
(``game config seed bots hash``) to the output file and a summary; compare two outputs with ``diff``.

Run: ``python benchmarks/digest.py --games 100 --out /tmp/before.txt`` (games per game id).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

# This folder holds files named like packages: drop it from the path when run as a script.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

from club_agentes.engine.core import IllegalMove, InvalidMove, RandomBot, all_games  # noqa: E402
from club_agentes.engine.core.model import Observation  # noqa: E402
from club_agentes.engine.core.rng import Rng  # noqa: E402

BOT_MIXES = ("random", "heuristic", "mixed")


def _j(data: Any) -> str:
    return json.dumps(data, sort_keys=True, ensure_ascii=False, default=repr)


def _refusal(game: Any, state: Any, seat: int, move: Any) -> str:
    try:
        game.apply(state, seat, move)
    except (IllegalMove, InvalidMove) as e:
        return f"{type(e).__name__}:{getattr(e, 'rule_id', '')}:{e}"
    return "ACCEPTED"  # a probe is only made with a move that should be refused


def digest_game(game: Any, seats: int, options: dict[str, Any], seed: int, mix: str, limit: int) -> tuple[str, int]:
    """Play one seeded game and return (hex digest, decisions)."""
    config = game.make_config(seats, options)
    state = game.new_game(config, seed)
    h = hashlib.sha256()
    up = h.update
    rng = Rng(seed).fork(0xB07)
    bots: list[Any] = []
    for s in range(seats):
        heuristic = mix == "heuristic" or (mix == "mixed" and s % 2 == 0)
        bots.append(game.make_bot("heuristic") if heuristic else RandomBot())
    seen: list[Any] = []
    decisions = 0
    while decisions < limit:
        pending = game.pending(state)
        up(_j([pending.kind, list(pending.seats), pending.prompt, list(pending.done or ())]).encode())
        if pending.kind == "over":
            break
        seat = pending.seats[0]
        moves = game.legal_moves(state, seat)
        up(_j([m.text() for m in moves]).encode())
        default = game.default_move(state, seat)
        up(_j(None if default is None else [default[0].text(), default[1]]).encode())
        if decisions % 5 == 0:
            up(_j(game.view(state, seat)).encode())
            up(_j(game.view(state, None)).encode())
            listed = set(moves)
            stale = [m for m in seen[-200:] if m not in listed]
            if stale:
                up(_refusal(game, state, seat, stale[decisions % len(stale)]).encode())
            idle = [s for s in range(seats) if s not in pending.seats]
            if idle:
                up(_refusal(game, state, idle[decisions % len(idle)], moves[0]).encode())
        seen.extend(moves[:8])
        move = bots[seat].choose(Observation(game, state, seat, moves), rng)
        events = game.apply(state, seat, move)
        up(_j([seat, move.text()]).encode())
        for e in events:
            up(_j([e.text, e.audience, e.data]).encode())
        decisions += 1
    up(_j(game.snapshot(state)).encode())
    result = game.result(state)
    up(_j(None if result is None else result.to_json()).encode())
    return h.hexdigest()[:16], decisions


def main() -> None:
    """Write the digest lines and print a summary."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=120, help="seeded games per game id")
    ap.add_argument("--game", help="only this game id")
    ap.add_argument("--limit", type=int, default=20_000, help="decisions at most per game")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    lines = []
    for game in all_games():
        if args.game and game.id != args.game:
            continue
        cases = [(seats, opts, mix) for seats, opts in game.sample_configs() for mix in BOT_MIXES]
        total = 0
        for i in range(args.games):
            seats, opts, mix = cases[i % len(cases)]
            seed = 1 + i // len(cases)
            hexd, n = digest_game(game, seats, opts, seed, mix, args.limit)
            total += n
            lines.append(f"{game.id} {seats} {_j(opts)} {seed} {mix} {n} {hexd}")
        print(f"{game.id}: {args.games} games, {total} decisions", flush=True)
    Path(args.out).write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(lines)} games digested into {args.out}")


if __name__ == "__main__":
    main()

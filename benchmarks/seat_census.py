"""Which seats a move changes what they see, and how much of it the write itself knows.

Run: ``python benchmarks/seat_census.py [--games 6] [--game se-vende]``.

A table moves a seat's ``seat_version`` when what the seat sees (its view, and when it decides, the prompt and
its legal moves) changes. This plays seeded random games of every installed game at every seat count and, for
every move and every seat that did not make it, compares what the seat sees before and after with what the
write knows without computing a view: the events visible to the seat, whether the seat's part in the pending
decision changed, and the game's own ``Game.touched`` (the seats whose view its move reaches). It prints, per
game, the seat-moves whose view changed, how many of them each rule catches, and those no rule catches
(``missed``: must be 0 for a rule to be sound), with the view keys that changed in them; and how many
seat-moves each rule moves a version without a change (``extra``: costs a stale ``expected_version`` at worst,
never a lost change). A game whose ``Game.touched`` answers ``None`` is compared view by view by the table
(``compared``); ``--no-touched`` leaves the hook out, to see what events and the pending part alone catch.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path
from typing import Any

_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]

from club_agentes.engine.core import Game, Pending, all_games  # noqa: E402
from club_agentes.engine.core.model import RandomBot, decide  # noqa: E402
from club_agentes.engine.core.rng import Rng  # noqa: E402


def sees(game: Game, state: Any, seat: int, pending: Pending) -> tuple[Any, ...]:
    """Return what ``seat`` sees: its view, and when it decides the prompt and its legal moves."""
    if seat in pending.seats:
        return game.view(state, seat), pending.kind, pending.prompt, game.legal_moves(state, seat)
    return game.view(state, seat), None, None, None


def part(pending: Pending, seat: int) -> tuple[str, str] | None:
    """Return the seat's part in the pending decision: its kind and prompt when it decides, else ``None``."""
    return (pending.kind, pending.prompt) if seat in pending.seats else None


def changed_keys(before: Any, after: Any, prefix: str = "") -> list[str]:
    """Return the paths of the keys whose values differ between two views (dicts compared key by key)."""
    if isinstance(before, dict) and isinstance(after, dict):
        out: list[str] = []
        for k in sorted(set(before) | set(after), key=str):
            if before.get(k) != after.get(k):
                out += changed_keys(before.get(k), after.get(k), f"{prefix}{k}.")
        return out
    return [prefix.rstrip(".")]


def census(game: Game, games: int, max_moves: int, use_touched: bool = True) -> dict[str, Any]:
    """Play ``games`` seeded random games per seat count; return the counts described in the module doc.

    Without ``use_touched`` the game's ``Game.touched`` is left out (what events and the pending part catch).
    """
    counts: Counter[str] = Counter()
    missed_keys: Counter[str] = Counter()
    for seats in range(game.min_seats, game.max_seats + 1):
        config = game.make_config(seats)
        for seed in range(games):
            state, _setup = game.start(config, seed)
            rng = Rng(seed).fork(0xCE5)
            bot = RandomBot()
            for _ in range(max_moves):
                pending = game.pending(state)
                if pending.kind == "over":
                    break
                mover = pending.seats[0]
                moves = game.legal_moves(state, mover)
                move = decide(bot, game, state, mover, moves, rng)
                before = {s: sees(game, state, s, pending) for s in range(seats)}
                events = game.apply(state, mover, move)
                after_pending = game.pending(state)
                touched = game.touched(state, mover, move) if use_touched else ()
                for s in range(seats):
                    if s == mover:
                        continue
                    counts["seat-moves"] += 1
                    now = sees(game, state, s, after_pending)
                    changed = now != before[s]
                    by_event = any(e.audience is None or s in e.audience for e in events)
                    by_part = part(pending, s) != part(after_pending, s)
                    if touched is None:  # the game does not say: the table compares views, exactly
                        counts["compared (Game.touched is None)"] += 1
                        counts["changed"] += changed
                        continue
                    by_game = s in touched
                    caught = by_event or by_part or by_game
                    if changed:
                        counts["changed"] += 1
                        counts["caught by a visible event"] += by_event
                        counts["caught by the pending part"] += by_part and not by_event
                        counts["caught only by Game.touched"] += by_game and not (by_event or by_part)
                        if not caught:
                            counts["missed"] += 1
                            for key in changed_keys(before[s][0], now[0]):
                                missed_keys[key] += 1
                            if before[s][1:] != now[1:]:
                                missed_keys["<prompt or legal moves>"] += 1
                        elif not (by_event or by_part):
                            for key in changed_keys(before[s][0], now[0]):
                                missed_keys[f"(touched) {key}"] += 1
                    elif caught:
                        counts["extra"] += 1
    return {"counts": counts, "keys": missed_keys}


def main() -> None:
    """Print the census of every installed game (or of ``--game``)."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=6, help="seeded games per seat count")
    ap.add_argument("--max-moves", type=int, default=3000, help="moves per game at most")
    ap.add_argument("--game", help="one game id (default: every installed game)")
    ap.add_argument("--no-touched", action="store_true", help="leave Game.touched out (events and pending only)")
    args = ap.parse_args()
    for game in all_games():
        if args.game and game.id != args.game:
            continue
        out = census(game, args.games, args.max_moves, not args.no_touched)
        counts = out["counts"]
        print(f"{game.id}:")
        for name in (
            "seat-moves",
            "changed",
            "compared (Game.touched is None)",
            "caught by a visible event",
            "caught by the pending part",
            "caught only by Game.touched",
            "missed",
            "extra",
        ):
            print(f"  {name:<30} {counts[name]:>8}")
        for key, n in out["keys"].most_common(12):
            print(f"    {n:>7}  {key}")


if __name__ == "__main__":
    main()

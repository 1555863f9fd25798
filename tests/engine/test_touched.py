"""``Game.touched``: a game that says which seats a move reaches never leaves out a seat whose view changed.

A table moves a seat's ``seat_version`` from what a write knows when the game answers ``Game.touched`` (the
seats that moved, the seats the move reaches, the seats whose part in the pending decision changed), without
computing any view. A seat left out that sees something new would keep its version over a change: a hidden
change for ``expected_version`` and move ids. Random playouts of every game that answers compare what each seat
sees (view; and when it decides, the kind, prompt and legal moves) before and after every move.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from club_agentes.engine.core import Game, Pending, all_games

SAYING = [g for g in all_games() if type(g).touched is not Game.touched]


def _sees(game: Game, state: Any, seat: int, pending: Pending) -> tuple[Any, ...]:
    if seat in pending.seats:
        return game.view(state, seat), pending.kind, pending.prompt, game.legal_moves(state, seat)
    return (game.view(state, seat),)


def _part(pending: Pending, seat: int) -> tuple[str, str] | None:
    return (pending.kind, pending.prompt) if seat in pending.seats else None


def test_some_game_says_which_seats_a_move_reaches() -> None:
    assert SAYING, "no installed game answers Game.touched: the table compares views at every write"


@pytest.mark.parametrize("game", SAYING, ids=lambda g: g.id)
def test_touched_covers_every_seat_whose_view_changes(game: Game) -> None:
    for seats in range(game.min_seats, game.max_seats + 1):
        for seed in (3, 4):
            state, _setup = game.start(game.make_config(seats), seed)
            rng = random.Random(seed)
            for _ in range(400):
                pending = game.pending(state)
                if pending.kind == "over":
                    break
                mover = rng.choice(pending.seats)
                move = rng.choice(game.legal_moves(state, mover))
                before = [_sees(game, state, s, pending) for s in range(seats)]
                game.apply(state, mover, move)
                after = game.pending(state)
                touched = game.touched(state, mover, move)
                assert touched is not None, f"{game.id}: touched() answered None for {move.text()}"
                for s in range(seats):
                    if s == mover or s in touched or _part(pending, s) != _part(after, s):
                        continue
                    assert _sees(game, state, s, after) == before[s], (
                        f"{game.id} ({seats} seats, seed {seed}): {move.text()} by seat {mover} changed what "
                        f"seat {s} sees, but touched() leaves it out"
                    )

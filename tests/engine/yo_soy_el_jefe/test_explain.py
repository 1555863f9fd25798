"""Moves in plain words: every legal move has a full sentence naming seats by number and name and money with its
unit; a move that is legal but can never help carries a note saying why."""

from __future__ import annotations

import re
from typing import Any

from club_agentes.engine.core import RandomBot, play

from .helpers import build_state, game, play_moves, stop_passes

NAMES = ["seat 0 (claude-7)", "seat 1 (bot:heuristic)", "seat 2 (ana)", "seat 3 (bot:random)"]


def says(state: Any, seat: int) -> dict[str, Any]:
    moves = game.legal_moves(state, seat)
    return {m.text(): note for m, note in zip(moves, game.explain(state, seat, moves, NAMES), strict=True)}


def test_prices_and_answers_name_the_seat_and_the_money() -> None:
    state = build_state(4, owner={"rojo": 0, "rosa": 1, "amarillo": 2}, marker=10, turn=0)  # rosa + 1 of rojo/azul
    play_moves(state, [(0, "negotiate"), (1, "offer rosa")])
    notes = says(state, 1)
    assert notes["price 2M"].says == "Ask 2M of the boss, seat 0 (claude-7), for your rosa (the deal pays 3M)."
    play_moves(state, [(1, "price 2M"), (2, "pass"), (3, "pass")])
    notes = says(state, 0)
    assert notes["accept seat 1 rosa"].says == "Accept that seat 1 (bot:heuristic) is paid 2M for rosa."
    assert notes["accept seat 1 rosa and close"].says == (
        "Accept that seat 1 (bot:heuristic) is paid 2M for rosa, and close the deal at once ('Uno, dos...'): the "
        "bank pays you 3M and you pay 2M as promised."
    )
    assert "2M" in notes["refuse seat 1 rosa"].says and "seat 1 (bot:heuristic)" in notes["refuse seat 1 rosa"].says
    assert all(n.says.endswith(".") and n.note is None for n in notes.values())


def test_pointless_moves_are_flagged() -> None:
    state = build_state(
        4,
        owner={"azul": 0, "rojo": 1, "amarillo": 2, "naranja": 3},
        hands={0: ["travel:azul", "family:azul"], 1: ["family:rojo", "family:verde"]},
        marker=8,
        turn=0,
    )
    play_moves(state, [(0, "negotiate")])
    notes = says(state, 0)
    travel = notes["travel investor seat 0 azul"]
    assert travel.note is not None and "as boss your own azul investor card counts" in travel.note
    assert "family azul" in notes and notes["family azul"].note is not None
    assert notes["fail"].note is None  # the deal cannot close: failing gives nothing up
    notes = says(state, 1)
    assert notes["family rojo"].note is not None and "already take part" in notes["family rojo"].note
    assert notes["family verde"].note is None
    # Once seat 1's rojo is agreed, the same card is a backup against a travel card: no note.
    play_moves(state, [(1, "offer rojo"), (1, "price 1M"), (0, "accept seat 1 rojo")])
    backup = says(state, 1)["family rojo"]
    assert backup.note is None and "backup" in backup.says


def test_the_stop_window_in_words() -> None:
    state = build_state(4, owner={"azul": 0}, hands={1: ["travel:azul"], 2: ["stop"]}, marker=8, turn=0)
    play_moves(state, [(0, "negotiate"), (1, "travel investor seat 0 azul")])
    notes = says(state, 2)
    assert notes["stop"].says == (
        "Play a stop card (parada) to cancel seat 1 (bot:heuristic)'s travel card on seat 0 (claude-7)'s azul "
        "investor; both cards are discarded."
    )
    assert notes["pass"].says.startswith("Let seat 1 (bot:heuristic)'s travel card")
    stop_passes(state)


def test_every_legal_move_is_explained_in_random_games() -> None:
    """Every tenth decision of a random game of each sample configuration: one sentence per legal move."""
    for seats, options in game.sample_configs():
        names = [f"seat {s} (agent-{s})" for s in range(seats)]
        count = 0

        def check(state: Any, seat: int, moves: list, names: list[str] = names) -> None:
            nonlocal count
            count += 1
            if count % 10:
                return
            notes = game.explain(state, seat, moves, names)
            assert len(notes) == len(moves)
            for note in notes:
                assert note.says[0].isupper() and note.says.endswith("."), note.says
                for m in re.finditer(r"seat (\d)\b", note.says):  # every seat is named by number and name
                    assert note.says[m.end() :].startswith(f" (agent-{m.group(1)})"), note.says

        play(game, game.make_config(seats, options), 5, [RandomBot() for _ in range(seats)], on_decision=check)
